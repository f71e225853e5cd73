//! The server's request for the client's model (`sampling/createMessage`), as plain values the
//! host shows and edits, and the result that goes back. Read from rmcp's types by the question
//! readers (fetched on demand, see `questions.rs`); checked there, so the host only ever sees a
//! request it can put to a model.

use serde_json::{Value, json};

/// The most tokens any model is asked for: a larger `maxTokens` is lowered to it, and the row
/// says so.
pub const MAX_SAMPLING_TOKENS: u32 = 4096;
/// The most text a sampling request may carry (its messages and system prompt together).
pub const MAX_SAMPLING_TEXT: usize = 64 * 1024;
/// The JSON-RPC error code of a request the user refused (the spec's example for sampling).
pub const USER_REJECTED: i64 = -1;
/// The JSON-RPC error code of a request that cannot be put to a model (invalid params).
pub const INVALID_PARAMS: i64 = -32602;

/// Who said a message of the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SampleRole {
    User,
    Assistant,
}

impl SampleRole {
    pub fn word(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Assistant => "assistant",
        }
    }
}

/// One message of the conversation the server wants completed: its text, with images and audio
/// named in brackets (no model the page runs reads them).
#[derive(Debug, Clone, PartialEq)]
pub struct SampleMessage {
    pub role: SampleRole,
    pub text: String,
}

/// What the server asks the client's model, as the host shows it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SamplingRequest {
    pub messages: Vec<SampleMessage>,
    pub system_prompt: Option<String>,
    /// As the server asked (at least 1).
    pub max_tokens: u32,
    pub temperature: Option<f32>,
    pub stop_sequences: Vec<String>,
    /// The server's model preferences in a line ("hints: claude; speed 0.8"), if any.
    pub preferences: Option<String>,
    /// `includeContext` as sent (only `none` is honoured: the page gives no other server's
    /// context).
    pub include_context: Option<String>,
}

impl SamplingRequest {
    /// The tokens a model is asked for: the server's `maxTokens`, at most [`MAX_SAMPLING_TOKENS`].
    pub fn tokens(&self) -> u32 {
        self.max_tokens.min(MAX_SAMPLING_TOKENS)
    }

    /// The last user message's text: what an offline answer is built from.
    pub fn last_user_text(&self) -> &str {
        self.messages
            .iter()
            .rev()
            .find(|m| m.role == SampleRole::User)
            .map_or("", |m| m.text.as_str())
    }

    /// Checks what no model can be asked: no messages, `maxTokens` 0, more text than
    /// [`MAX_SAMPLING_TEXT`].
    pub fn check(&self) -> Result<(), String> {
        if self.messages.is_empty() {
            return Err("the request has no messages to complete".into());
        }
        if self.max_tokens == 0 {
            return Err("maxTokens is 0: a model cannot answer in no tokens".into());
        }
        let size = self.system_prompt.as_deref().map_or(0, str::len)
            + self.messages.iter().map(|m| m.text.len()).sum::<usize>();
        if size > MAX_SAMPLING_TEXT {
            return Err(format!(
                "the request carries {size} bytes of text, more than the {MAX_SAMPLING_TEXT} \
                 this client puts to a model"
            ));
        }
        Ok(())
    }
}

/// The model's answer, as it goes back (after the user approved or edited it).
#[derive(Debug, Clone, PartialEq)]
pub struct SampleAnswer {
    pub text: String,
    /// The model that wrote it (or "user" when the user wrote or edited it).
    pub model: String,
    /// `endTurn`, `maxTokens`, `stopSequence`, or none.
    pub stop_reason: Option<String>,
}

impl SampleAnswer {
    /// The `CreateMessageResult` this answer is.
    pub fn result(&self) -> Value {
        let mut result = json!({
            "role": "assistant",
            "content": { "type": "text", "text": self.text },
            "model": self.model,
        });
        if let (Some(reason), Some(map)) = (&self.stop_reason, result.as_object_mut()) {
            map.insert("stopReason".into(), Value::String(reason.clone()));
        }
        result
    }
}

/// The JSON-RPC error that answers a sampling request instead of a result.
pub fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(text: &str, max_tokens: u32) -> SamplingRequest {
        SamplingRequest {
            messages: vec![SampleMessage {
                role: SampleRole::User,
                text: text.into(),
            }],
            max_tokens,
            ..Default::default()
        }
    }

    #[test]
    fn a_request_a_model_cannot_take_is_said_why() {
        assert_eq!(asked("Hi", 10).check(), Ok(()));
        let zero = asked("Hi", 0).check().unwrap_err();
        assert!(zero.contains("maxTokens is 0"), "{zero}");
        let none = SamplingRequest {
            max_tokens: 5,
            ..Default::default()
        };
        assert!(none.check().unwrap_err().contains("no messages"));
        let huge = asked(&"x".repeat(MAX_SAMPLING_TEXT + 1), 5)
            .check()
            .unwrap_err();
        assert!(huge.contains("65537 bytes"), "{huge}");
    }

    #[test]
    fn the_tokens_asked_of_a_model_are_capped() {
        assert_eq!(asked("Hi", 200).tokens(), 200);
        assert_eq!(asked("Hi", 1_000_000_000).tokens(), MAX_SAMPLING_TOKENS);
    }

    #[test]
    fn the_answer_is_an_assistant_text_result() {
        let answer = SampleAnswer {
            text: "Pack an umbrella.".into(),
            model: "mcp-flow-offline".into(),
            stop_reason: Some("endTurn".into()),
        };
        assert_eq!(
            answer.result(),
            json!({"role": "assistant", "content": {"type": "text", "text": "Pack an umbrella."},
                   "model": "mcp-flow-offline", "stopReason": "endTurn"})
        );
        let edited = SampleAnswer {
            stop_reason: None,
            ..answer
        };
        assert!(edited.result().get("stopReason").is_none());
    }

    #[test]
    fn the_last_user_message_is_what_an_offline_answer_reads() {
        let mut request = asked("first", 5);
        request.messages.push(SampleMessage {
            role: SampleRole::Assistant,
            text: "reply".into(),
        });
        request.messages.push(SampleMessage {
            role: SampleRole::User,
            text: "second".into(),
        });
        assert_eq!(request.last_user_text(), "second");
    }
}
