//! The LLM participant: one interface (messages and tools in, tool calls or text out), with every
//! call recorded so the inspector can show the real request and response.
//!
//! - `openai`, `anthropic`, `gemini`: one module per provider, each with its tool format, URL,
//!   headers, request body and response parser, built on the shared pieces in `wire`.
//! - `prompt_style`: the system-prompt style of tool calling (tutorial document `004_…`).
//! - `formats`: every tool format side by side ([`formats::all`]).
//! - `remote`: a model behind an HTTP API; picks the provider module and makes the call.
//! - `offline`: the built-in model; `smollm`: SmolLM2 running in a worker in this page; `you`:
//!   the user in the model's place; `choice`: the settings that pick a backend.

pub mod anthropic;
pub mod boxed;
pub mod choice;
pub mod formats;
pub mod gemini;
pub mod offline;
pub mod openai;
pub mod prompt_style;
pub mod remote;
pub mod smollm;
pub mod wire;
pub mod you;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use mcp_flow_client::sampling::{SampleRole, SamplingRequest};

/// How tools reach the model (tutorial document `004_…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Style {
    /// Tools in the request in the provider's format, tool calls in the reply.
    FunctionCalling,
    /// Tools described in the system prompt, a JSON object in the reply.
    SystemPrompt,
}

/// A tool as the host hands it to a model: the MCP tool's name, description and input schema.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
    /// The tool's annotations as badges (`read-only`, `destructive`…): hints from the server,
    /// shown to the user, never trusted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub badges: Vec<String>,
}

impl Style {
    pub fn describe(self) -> &'static str {
        match self {
            Self::FunctionCalling => "native function calling",
            Self::SystemPrompt => "system prompt + JSON reply",
        }
    }
}

impl ToolSpec {
    pub fn from_mcp(tool: &rmcp::model::Tool) -> Self {
        Self {
            name: tool.name.to_string(),
            description: tool.description.as_deref().unwrap_or("").to_owned(),
            input_schema: Value::Object((*tool.input_schema).clone()),
            badges: tool.annotations.as_ref().map(badges).unwrap_or_default(),
        }
    }
}

/// The user's last question in the conversation ("" if there is none).
pub(crate) fn last_question(messages: &[ChatMessage]) -> &str {
    messages
        .iter()
        .rev()
        .find_map(|m| match m {
            ChatMessage::User(text) => Some(text.as_str()),
            _ => None,
        })
        .unwrap_or("")
}

/// The tool call that the result `call_id` answers, as the model made it.
pub(crate) fn answered_call(messages: &[ChatMessage], call_id: &str) -> Option<ToolCall> {
    messages.iter().rev().find_map(|m| match m {
        ChatMessage::Assistant { tool_calls, .. } => {
            tool_calls.iter().find(|c| c.id == call_id).cloned()
        }
        _ => None,
    })
}

/// The badges of a tool the server says changes nothing, or nothing irreversibly.
pub const READ_ONLY: &str = "read-only";
pub const NOT_DESTRUCTIVE: &str = "not destructive";

/// A tool's annotations as badges: only what the server declared (an absent hint has the
/// specification's default, which a badge would wrongly present as the server's word).
pub fn badges(a: &rmcp::model::ToolAnnotations) -> Vec<String> {
    let mut shown = Vec::new();
    if let Some(title) = &a.title {
        shown.push(format!("title: {title}"));
    }
    let hint = |value: Option<bool>, yes: &'static str, no: &'static str| {
        value.map(|v| if v { yes } else { no })
    };
    shown.extend(
        [
            hint(a.read_only_hint, READ_ONLY, "not read-only"),
            hint(a.destructive_hint, "destructive", NOT_DESTRUCTIVE),
            hint(a.idempotent_hint, "idempotent", "not idempotent"),
            hint(a.open_world_hint, "open world", "closed world"),
        ]
        .into_iter()
        .flatten()
        .map(str::to_owned),
    );
    shown
}

/// A tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ChatMessage {
    System(String),
    User(String),
    Assistant {
        text: String,
        tool_calls: Vec<ToolCall>,
    },
    ToolResult {
        call_id: String,
        name: String,
        /// The result's text blocks (what providers receive, as the tutorial does).
        content: String,
        is_error: bool,
        /// The result's `structuredContent`, if the tool returned one.
        structured: Option<Value>,
    },
}

/// What the model answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LlmReply {
    ToolCalls(Vec<ToolCall>),
    Text(String),
}

/// One call to a model, as it went over the wire (or, for the offline model, in the same shape).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmExchange {
    pub provider: String,
    pub url: String,
    pub request: Value,
    pub response: Option<Value>,
    pub status: Option<u16>,
    pub started_ms: f64,
    pub finished_ms: f64,
    pub error: Option<String>,
}

/// A model the host can talk to.
#[allow(async_fn_in_trait)]
pub trait Llm {
    /// Shown as the LLM participant's subtitle, e.g. "Built-in offline model".
    fn label(&self) -> String;
    /// The tools in the form this model receives them (diagram 1, row 8).
    fn format_tools(&self, tools: &[ToolSpec]) -> Value;
    /// How the tools reach the model, for the rows that show it.
    fn style(&self) -> Style {
        Style::FunctionCalling
    }
    /// One completion: the reply and the exchange that produced it. On failure the exchange is
    /// still returned, with its error, so the record keeps what was sent.
    async fn complete(
        &self,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> (Result<LlmReply, String>, LlmExchange);
    /// A completion of a server's sampling request, with no tools: the request's system prompt
    /// and messages; models behind an API also get its tokens, temperature and stop sequences.
    async fn sample(&self, request: &SamplingRequest) -> (Result<String, String>, LlmExchange) {
        let (reply, exchange) = self.complete(&sampling_messages(request), &[]).await;
        (reply.map(LlmReply::into_text), exchange)
    }
}

/// A sampling request as a conversation: its system prompt, then its messages.
pub fn sampling_messages(request: &SamplingRequest) -> Vec<ChatMessage> {
    let system = request.system_prompt.clone().map(ChatMessage::System);
    system
        .into_iter()
        .chain(request.messages.iter().map(|m| match m.role {
            SampleRole::User => ChatMessage::User(m.text.clone()),
            SampleRole::Assistant => ChatMessage::Assistant {
                text: m.text.clone(),
                tool_calls: Vec::new(),
            },
        }))
        .collect()
}

impl LlmReply {
    /// The reply as text: a tool call (which a sampling completion was not offered) is written
    /// out as the call it is.
    pub fn into_text(self) -> String {
        match self {
            LlmReply::Text(text) => text,
            LlmReply::ToolCalls(calls) => calls
                .iter()
                .map(|c| format!("{}({})", c.name, c.arguments))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// The tutorial's weather tool, as the weather server lists it, for tests.
#[cfg(test)]
pub(crate) fn weather_tool() -> ToolSpec {
    ToolSpec {
        name: "get_weather".into(),
        description: "Get the current weather for a city".into(),
        input_schema: serde_json::json!({"type": "object",
            "properties": {"location": {"type": "string"}}, "required": ["location"]}),
        ..Default::default()
    }
}

/// The tutorial's conversation up to the tool result (question, `get_weather` Tokyo, "Sunny"), for
/// tests.
#[cfg(test)]
pub(crate) fn tokyo_conversation() -> Vec<ChatMessage> {
    vec![
        ChatMessage::User("What's the weather in Tokyo?".into()),
        ChatMessage::Assistant {
            text: String::new(),
            tool_calls: vec![ToolCall {
                id: "call_1".into(),
                name: "get_weather".into(),
                arguments: serde_json::json!({"location": "Tokyo"}),
            }],
        },
        ChatMessage::ToolResult {
            call_id: "call_1".into(),
            name: "get_weather".into(),
            content: "Sunny".into(),
            is_error: false,
            structured: None,
        },
    ]
}

#[cfg(test)]
mod badge_tests {
    use super::*;
    use rmcp::model::ToolAnnotations;

    #[test]
    fn only_declared_annotations_become_badges() {
        let mut a = ToolAnnotations::default();
        assert!(badges(&a).is_empty());
        a.title = Some("Weather".into());
        a.read_only_hint = Some(true);
        a.open_world_hint = Some(false);
        assert_eq!(badges(&a), ["title: Weather", "read-only", "closed world"]);
        a.read_only_hint = Some(false);
        a.destructive_hint = Some(true);
        a.idempotent_hint = Some(false);
        assert_eq!(
            badges(&a),
            [
                "title: Weather",
                "not read-only",
                "destructive",
                "not idempotent",
                "closed world"
            ]
        );
    }
}
