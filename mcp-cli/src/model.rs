//! The command line's model for a server's sampling request: an OpenAI-compatible
//! chat-completions endpoint given with `--sampling-model` (Ollama, llama.cpp's server, OpenAI).
//! Giving it is the consent: each request and answer is printed. A key, if the endpoint needs
//! one, comes from `$MCP_FLOW_MODEL_KEY` and is never printed.

use std::rc::Rc;

use mcp_flow_client::client::Sampler;
use mcp_flow_client::error::clip;
use mcp_flow_client::http::{BodyStream, Http, HttpRequest};
use mcp_flow_client::sampling::{SampleAnswer, SamplingRequest};
use serde_json::{Value, json};

/// The most of a model's reply read (bytes).
const MAX_REPLY: usize = 4 * 1024 * 1024;

/// An OpenAI-compatible endpoint and the model to ask there.
pub struct Model<H> {
    pub http: H,
    /// E.g. `http://127.0.0.1:11434/v1` (`/chat/completions` is added).
    pub base_url: String,
    pub name: String,
    pub key: Option<String>,
}

/// The chat-completions body for `asked`: the system prompt first, then the conversation, with
/// the server's limits (its `maxTokens`, lowered to what any model is asked for).
pub fn body(name: &str, asked: &SamplingRequest) -> Value {
    let mut messages: Vec<Value> = asked
        .system_prompt
        .iter()
        .map(|s| json!({"role": "system", "content": s}))
        .collect();
    messages.extend(
        asked
            .messages
            .iter()
            .map(|m| json!({"role": m.role.word(), "content": m.text})),
    );
    let mut body = json!({"model": name, "messages": messages, "max_tokens": asked.tokens()});
    if let Some(t) = asked.temperature {
        body["temperature"] = json!(f64::from(t));
    }
    if !asked.stop_sequences.is_empty() {
        body["stop"] = json!(asked.stop_sequences);
    }
    body
}

/// The answer in a chat-completions reply, with the model that wrote it and why it stopped.
pub fn read_reply(name: &str, reply: &Value) -> Result<SampleAnswer, String> {
    if let Some(error) = reply.get("error") {
        let said = error.get("message").and_then(Value::as_str).unwrap_or("");
        return Err(format!(
            "the model answered with an error: {}",
            clip(said, 300)
        ));
    }
    let choice = reply
        .pointer("/choices/0")
        .ok_or("the reply has no choices")?;
    let text = choice
        .pointer("/message/content")
        .and_then(Value::as_str)
        .ok_or("the reply's first choice has no text")?;
    let stop_reason = match choice.get("finish_reason").and_then(Value::as_str) {
        Some("stop") => Some("endTurn"),
        Some("length") => Some("maxTokens"),
        _ => None,
    };
    Ok(SampleAnswer {
        text: text.to_owned(),
        model: reply
            .get("model")
            .and_then(Value::as_str)
            .unwrap_or(name)
            .to_owned(),
        stop_reason: stop_reason.map(str::to_owned),
    })
}

impl<H> Model<H> {
    /// The HTTP request that puts `asked` to the model.
    pub fn request(&self, asked: &SamplingRequest) -> HttpRequest {
        let mut headers = vec![("Content-Type".to_owned(), "application/json".to_owned())];
        if let Some(key) = &self.key {
            headers.push(("Authorization".to_owned(), format!("Bearer {key}")));
        }
        HttpRequest {
            method: "POST",
            url: format!("{}/chat/completions", self.base_url.trim_end_matches('/')),
            headers,
            body: Some(body(&self.name, asked).to_string()),
        }
    }
}

impl<H: Http> Model<H> {
    /// The model's answer to `asked`, or why there is none.
    pub async fn answer(&self, asked: &SamplingRequest) -> Result<SampleAnswer, String> {
        asked.check()?;
        let request = self.request(asked);
        let mut response = self
            .http
            .send(&request)
            .await
            .map_err(|e| format!("no answer from the model at {}: {e}", request.url))?;
        let mut bytes = Vec::new();
        while let Some(chunk) = response.body.chunk().await? {
            bytes.extend_from_slice(&chunk);
            if bytes.len() > MAX_REPLY {
                return Err(format!("the model's reply passed {MAX_REPLY} bytes"));
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let reply: Value = serde_json::from_str(&text).map_err(|e| {
            format!(
                "the model answered HTTP {} with no JSON ({e}): {}",
                response.status,
                clip(&text, 200)
            )
        })?;
        read_reply(&self.name, &reply)
    }
}

/// Answers every sampling request with `model`, printing the request and the answer.
pub fn sampler<H: Http + 'static>(model: Rc<Model<H>>) -> Sampler {
    Rc::new(move |asked: Result<SamplingRequest, String>| {
        let model = model.clone();
        Box::pin(async move {
            let asked = asked.inspect_err(|why| {
                println!(
                    "  the server asks for the model (sampling/createMessage); refused: {why}"
                );
            })?;
            println!(
                "  the server asks for the model (sampling/createMessage): {:?}",
                clip(asked.last_user_text(), 200)
            );
            let answered = model.answer(&asked).await;
            match &answered {
                Ok(a) => println!("  answered by {}: {:?}", a.model, clip(&a.text, 300)),
                Err(why) => println!("  no answer: {why}"),
            }
            answered
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_flow_client::sampling::{SampleMessage, SampleRole};

    fn asked() -> SamplingRequest {
        SamplingRequest {
            messages: vec![
                SampleMessage {
                    role: SampleRole::User,
                    text: "Tokyo is sunny. One packing tip?".into(),
                },
                SampleMessage {
                    role: SampleRole::Assistant,
                    text: "Sunglasses.".into(),
                },
                SampleMessage {
                    role: SampleRole::User,
                    text: "Another?".into(),
                },
            ],
            system_prompt: Some("Be brief.".into()),
            max_tokens: 1_000_000,
            temperature: Some(0.5),
            stop_sequences: vec!["\n\n".into()],
            ..SamplingRequest::default()
        }
    }

    #[test]
    fn the_request_carries_the_conversation_and_the_servers_limits() {
        let b = body("llama3", &asked());
        assert_eq!(b["model"], "llama3");
        assert_eq!(
            b["messages"],
            json!([
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Tokyo is sunny. One packing tip?"},
                {"role": "assistant", "content": "Sunglasses."},
                {"role": "user", "content": "Another?"}
            ])
        );
        assert_eq!(
            b["max_tokens"], 4096,
            "lowered to what any model is asked for"
        );
        assert_eq!(b["temperature"], 0.5);
        assert_eq!(b["stop"], json!(["\n\n"]));
        let plain = body(
            "m",
            &SamplingRequest {
                temperature: None,
                stop_sequences: Vec::new(),
                ..asked()
            },
        );
        assert!(plain.get("temperature").is_none() && plain.get("stop").is_none());
    }

    #[test]
    fn the_key_goes_in_a_header_to_the_chat_endpoint() {
        let model = Model {
            http: (),
            base_url: "http://127.0.0.1:11434/v1/".into(),
            name: "m".into(),
            key: Some("sk-secret".into()),
        };
        let request = model.request(&asked());
        assert_eq!(request.url, "http://127.0.0.1:11434/v1/chat/completions");
        assert!(
            request
                .headers
                .contains(&("Authorization".to_owned(), "Bearer sk-secret".to_owned()))
        );
        assert!(!request.body.unwrap_or_default().contains("sk-secret"));
    }

    #[test]
    fn a_reply_is_read_with_its_model_and_stop_reason() {
        let reply = json!({"model": "llama3:8b", "choices": [{"index": 0,
            "message": {"role": "assistant", "content": "Pack a hat."}, "finish_reason": "length"}]});
        assert_eq!(
            read_reply("llama3", &reply),
            Ok(SampleAnswer {
                text: "Pack a hat.".into(),
                model: "llama3:8b".into(),
                stop_reason: Some("maxTokens".into())
            })
        );
        let unnamed = json!({"choices": [{"message": {"content": "Hi"}, "finish_reason": "stop"}]});
        let read = read_reply("m", &unnamed).expect("an answer");
        assert_eq!(
            (read.model.as_str(), read.stop_reason.as_deref()),
            ("m", Some("endTurn"))
        );
    }

    #[test]
    fn a_reply_without_an_answer_says_why() {
        let err = json!({"error": {"message": "model 'x' not found", "type": "not_found"}});
        assert_eq!(
            read_reply("x", &err),
            Err("the model answered with an error: model 'x' not found".into())
        );
        assert_eq!(
            read_reply("x", &json!({})),
            Err("the reply has no choices".into())
        );
        assert_eq!(
            read_reply("x", &json!({"choices": [{"message": {"tool_calls": []}}]})),
            Err("the reply's first choice has no text".into())
        );
    }
}
