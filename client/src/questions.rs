//! The server's questions: what an `input_required` tools/call result asks (2026-07-28), and the
//! params of an `elicitation/create` the server sends on a stream and the pages an error -32042
//! lists (2025-11-25). Their readers
//! (rmcp's `Deserialize` of every kind of input request) are fetched on demand: only servers that
//! ask the user something need them. Sampling's rmcp types are deprecated (SEP-2577) but still
//! specified in both eras, so this module reads them.
#![allow(deprecated)]

use rmcp::model::{
    CallToolRequestMethod, ConstString, ContextInclusion, CreateMessageRequestParams,
    ElicitRequestParams, InputRequest, InputRequiredResult, Role, SamplingMessageContentBlock,
};
use serde_json::Value;

use crate::sampling::{SampleMessage, SampleRole, SamplingRequest};
use mcp_flow_on_demand::{OnDemandError, on_demand};

/// The error a server answers when a request needs URL elicitations completed first.
pub const URL_REQUIRED: i64 = -32042;

/// The notification a server sends when a URL elicitation's page is done (2025-11-25).
pub const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";

/// Whether `message` says the URL elicitation `id` is complete.
pub fn completes(message: &Value, id: &str) -> bool {
    message.get("method").and_then(Value::as_str) == Some(ELICITATION_COMPLETE)
        && message.get("id").is_none()
        && message
            .pointer("/params/elicitationId")
            .and_then(Value::as_str)
            == Some(id)
}

/// The method of a sampling request, as messages name it.
pub const SAMPLING: &str = "sampling/createMessage";

/// A question the server asks before a tool can complete.
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// A form for the user (`elicitation/create`).
    Form(ElicitRequestParams),
    /// The client's roots (`roots/list`).
    Roots,
    /// The client's model (`sampling/createMessage`).
    Sampling(SamplingRequest),
    /// A question this client can do, asked in a way it cannot answer (why).
    Invalid { method: String, why: String },
    /// Something this client did not declare it can do.
    Unsupported { method: String },
}

/// What an `input_required` result asks.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequired {
    /// By the server's key, in key order.
    pub questions: Vec<(String, Question)>,
    /// Echoed back, byte for byte, with the answers.
    pub state: Option<String>,
    /// Asked with error -32042 (2025-11-25): each question is a URL elicitation whose page
    /// must be done before the same call is sent again, with nothing added.
    pub url_required: bool,
}

impl InputRequired {
    /// The pages of the URL elicitations among the questions.
    pub fn pages(&self) -> Vec<String> {
        self.questions
            .iter()
            .filter_map(|(_, q)| match q {
                Question::Form(ElicitRequestParams::UrlElicitationParams { url, .. }) => {
                    Some(url.clone())
                }
                _ => None,
            })
            .collect()
    }
}

on_demand!(
    server_questions,
    /// The questions of an `input_required` tools/call result (with rmcp's types for every kind
    /// of input request: forms, sampling, roots).
    pub fn read_input_required(result: Value) -> Result<InputRequired, OnDemandError> {
        let method = CallToolRequestMethod::VALUE;
        let asked: InputRequiredResult = serde_json::from_value(result)
            .map_err(|e| format!("{method}: an input_required result that does not parse: {e}"))?;
        let questions = asked
            .input_requests
            .unwrap_or_default()
            .into_iter()
            .map(|(key, request)| {
                let question = match request {
                    InputRequest::Elicitation(r) => Question::Form(r.params),
                    InputRequest::CreateMessage(r) => match sampling_request(r.params) {
                        Ok(request) => Question::Sampling(request),
                        Err(why) => Question::Invalid {
                            method: SAMPLING.into(),
                            why,
                        },
                    },
                    InputRequest::ListRoots(_) => Question::Roots,
                    // rmcp's list is open (non_exhaustive): a kind added later.
                    _ => Question::Unsupported {
                        method: "an input request this client does not know".into(),
                    },
                };
                (key, question)
            })
            .collect();
        Ok(InputRequired {
            questions,
            state: asked.request_state,
            url_required: false,
        })
    }
);

on_demand!(
    server_questions,
    /// The URL elicitations an error -32042 lists (2025-11-25), keyed by their `elicitationId`.
    pub fn read_url_required(data: Value) -> Result<InputRequired, OnDemandError> {
        let listed = data
            .get("elicitations")
            .and_then(Value::as_array)
            .filter(|l| !l.is_empty())
            .ok_or_else(|| "error -32042 lists no elicitations (data.elicitations)".to_owned())?;
        let mut questions = Vec::new();
        for (i, listed) in listed.iter().enumerate() {
            let mut params: ElicitRequestParams = serde_json::from_value(listed.clone())
                .map_err(|e| format!("error -32042: elicitation {i} does not parse: {e}"))?;
            let ElicitRequestParams::UrlElicitationParams {
                elicitation_id,
                message,
                ..
            } = &mut params
            else {
                return Err(format!(
                    "error -32042: elicitation {i} is not in URL mode, the only mode it may list"
                )
                .into());
            };
            // Said to be what the call waits for, where the user and the row read it.
            *message = format!("(error -32042: the tool runs only after this page) {message}");
            questions.push((elicitation_id.clone(), Question::Form(params)));
        }
        Ok(InputRequired {
            questions,
            state: None,
            url_required: true,
        })
    }
);

on_demand!(
    server_questions,
    /// The params of an `elicitation/create` request the server sent on a stream (2025-11-25).
    pub fn read_elicit_params(params: Value) -> Result<ElicitRequestParams, OnDemandError> {
        serde_json::from_value(params).map_err(|e| {
            OnDemandError::Failed(format!("elicitation/create params that do not parse: {e}"))
        })
    }
);

on_demand!(
    server_questions,
    /// The params of a `sampling/createMessage` request the server sent on a stream
    /// (2025-11-25), checked (see [`sampling_request`]).
    pub fn read_sampling_params(params: Value) -> Result<SamplingRequest, OnDemandError> {
        let params: CreateMessageRequestParams = serde_json::from_value(params)
            .map_err(|e| format!("{SAMPLING} params that do not parse: {e}"))?;
        Ok(sampling_request(params)?)
    }
);

/// A sampling request as the host shows it, or why no model can be asked it: tools (this client
/// does not declare sampling with tools), tool blocks, no messages, `maxTokens` 0, too much text.
fn sampling_request(params: CreateMessageRequestParams) -> Result<SamplingRequest, String> {
    if params.tools.is_some() || params.tool_choice.is_some() {
        return Err(
            "the request offers the model tools, and this client did not declare \
                    sampling with tools (sampling.tools)"
                .into(),
        );
    }
    let mut messages = Vec::new();
    for message in params.messages {
        let role = if message.role == Role::Assistant {
            SampleRole::Assistant
        } else {
            SampleRole::User
        };
        let mut parts = Vec::new();
        for block in message.content.into_vec() {
            parts.push(match block {
                SamplingMessageContentBlock::Text(t) => t.text,
                SamplingMessageContentBlock::Image(i) => format!("[an image, {}]", i.mime_type),
                SamplingMessageContentBlock::Audio(a) => format!("[audio, {}]", a.mime_type),
                _ => {
                    return Err(
                        "a message holds a tool block, and this client did not declare \
                                sampling with tools"
                            .into(),
                    );
                }
            });
        }
        messages.push(SampleMessage {
            role,
            text: parts.join("\n"),
        });
    }
    let preferences = params.model_preferences.map(|p| {
        let mut said = Vec::new();
        let hints: Vec<String> = p
            .hints
            .unwrap_or_default()
            .into_iter()
            .filter_map(|h| h.name)
            .collect();
        if !hints.is_empty() {
            said.push(format!("hints: {}", hints.join(", ")));
        }
        for (name, value) in [
            ("cost", p.cost_priority),
            ("speed", p.speed_priority),
            ("intelligence", p.intelligence_priority),
        ] {
            if let Some(value) = value {
                said.push(format!("{name} {value}"));
            }
        }
        said.join("; ")
    });
    let include_context = params.include_context.map(|c| {
        match c {
            ContextInclusion::None => "none",
            ContextInclusion::ThisServer => "thisServer",
            ContextInclusion::AllServers => "allServers",
            _ => "(a value this client does not know)",
        }
        .to_owned()
    });
    let request = SamplingRequest {
        messages,
        system_prompt: params.system_prompt,
        max_tokens: params.max_tokens,
        temperature: params.temperature,
        stop_sequences: params.stop_sequences.unwrap_or_default(),
        preferences: preferences.filter(|p| !p.is_empty()),
        include_context,
    };
    request.check()?;
    Ok(request)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_sampling_request_is_read_into_what_the_host_shows() {
        let request = read_sampling_params(json!({
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "Tokyo is sunny."}},
                {"role": "user", "content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}]}
            ],
            "systemPrompt": "Be brief.",
            "maxTokens": 1000000000u64,
            "temperature": 0.2,
            "stopSequences": ["\n\n"],
            "includeContext": "thisServer",
            "modelPreferences": {"hints": [{"name": "claude"}], "speedPriority": 0.8}
        }))
        .expect("a valid request");
        assert_eq!(request.messages.len(), 2);
        assert_eq!(request.messages[0].text, "Tokyo is sunny.");
        assert_eq!(request.messages[1].text, "[an image, image/png]");
        assert_eq!(request.system_prompt.as_deref(), Some("Be brief."));
        assert_eq!(request.max_tokens, 1_000_000_000);
        assert_eq!(request.tokens(), crate::sampling::MAX_SAMPLING_TOKENS);
        assert_eq!(request.stop_sequences, vec!["\n\n".to_owned()]);
        assert_eq!(request.include_context.as_deref(), Some("thisServer"));
        assert_eq!(
            request.preferences.as_deref(),
            Some("hints: claude; speed 0.8")
        );
    }

    #[test]
    fn sampling_requests_no_model_can_take_are_refused_with_why() {
        let why = |params: Value| match read_sampling_params(params) {
            Err(OnDemandError::Failed(why)) => why,
            other => panic!("expected a refusal, got {other:?}"),
        };
        let text = json!({"role": "user", "content": {"type": "text", "text": "Hi"}});
        assert!(why(json!({"messages": [text], "maxTokens": 0})).contains("maxTokens is 0"));
        assert!(why(json!({"messages": [text], "maxTokens": 5, "tools": []})).contains("tools"));
        assert!(
            why(
                json!({"messages": [{"role": "user", "content": {"type": "video", "uri": "x"}}],
                       "maxTokens": 5})
            )
            .contains("do not parse")
        );
        assert!(why(json!({"maxTokens": 5})).contains("do not parse"));
    }

    #[test]
    fn only_the_notification_with_its_id_completes_an_elicitation() {
        let done = json!({"jsonrpc": "2.0", "method": ELICITATION_COMPLETE,
            "params": {"elicitationId": "e-1"}});
        assert!(completes(&done, "e-1"));
        assert!(!completes(&done, "e-2"));
        assert!(!completes(
            &json!({"id": 3, "method": ELICITATION_COMPLETE, "params": {"elicitationId": "e-1"}}),
            "e-1"
        ));
    }

    #[test]
    fn a_url_required_error_lists_url_elicitations_by_id_and_nothing_else() {
        let asked = read_url_required(json!({"elicitations": [{
            "mode": "url", "elicitationId": "e-1", "message": "Confirm the payment.",
            "url": "http://127.0.0.1:3000/confirm?e=1"}]}))
        .expect("parses");
        assert!(asked.url_required);
        assert_eq!(asked.state, None);
        assert_eq!(asked.questions.len(), 1);
        assert_eq!(asked.questions[0].0, "e-1");
        assert!(matches!(&asked.questions[0].1,
            Question::Form(ElicitRequestParams::UrlElicitationParams { url, .. })
                if url == "http://127.0.0.1:3000/confirm?e=1"));
        let why = |data: Value| match read_url_required(data) {
            Err(OnDemandError::Failed(why)) => why,
            other => panic!("expected why, got {other:?}"),
        };
        assert!(why(json!({})).contains("lists no elicitations"));
        assert!(why(json!({"elicitations": []})).contains("lists no elicitations"));
        assert!(
            why(json!({"elicitations": [{"mode": "form", "message": "m",
                "requestedSchema": {"type": "object", "properties": {}}}]}))
            .contains("not in URL mode")
        );
        assert!(why(json!({"elicitations": [{"mode": "url"}]})).contains("does not parse"));
    }

    #[test]
    fn an_input_required_sampling_request_is_a_question_or_says_why_not() {
        let asked = read_input_required(json!({
            "resultType": "input_required",
            "inputRequests": {
                "a": {"method": "sampling/createMessage", "params": {
                    "messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}],
                    "maxTokens": 20}},
                "b": {"method": "sampling/createMessage", "params": {
                    "messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}],
                    "maxTokens": 0}}
            },
            "requestState": "s"
        }))
        .expect("parses");
        assert!(matches!(&asked.questions[0].1, Question::Sampling(r) if r.max_tokens == 20));
        assert!(
            matches!(&asked.questions[1].1, Question::Invalid { method, why } if method == SAMPLING && why.contains("maxTokens is 0"))
        );
    }
}
