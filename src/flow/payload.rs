//! What a row carried, typed: the values the host saw when it finished the row. The explanation
//! templates and the inspector read them through [`Field`]s, never through string keys.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagram::Row;
use crate::llm::{Style, ToolSpec};

/// The values a finished row carried.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Payload {
    /// The server the host prepares a client for.
    Server { url: String },
    /// The protocol version the client asked for.
    Requested { version: String },
    /// The server's `initialize` answer.
    Handshake {
        version: String,
        /// Name and version, e.g. "weather-server 0.1.0".
        server: String,
        capabilities: Value,
        /// `None` for a stateless server.
        session: Option<String>,
    },
    /// The log level the client asked for, if the server offers logging.
    Logging { level: Option<String> },
    /// Tool names, in the server's order.
    Tools { names: Vec<String> },
    /// The tools as handed to the model.
    ToolsForLlm {
        llm: String,
        style: Style,
        /// Exactly what the model receives, as text.
        sent: String,
        /// The tools themselves (the inspector shows them in every provider's format).
        tools: Vec<ToolSpec>,
    },
    /// The user's question.
    Question { text: String },
    /// A call to the model.
    LlmCall { llm: String, style: Style },
    /// A tool call the model asked for (round 1 is the first).
    ToolCall {
        tool: String,
        arguments: Value,
        round: u32,
    },
    /// Text the model wrote.
    Text { text: String },
    /// The user's answer to "Execute tool?".
    Decision { approved: bool },
    /// A tool's result.
    ToolResult {
        text: String,
        is_error: bool,
        structured: Option<Value>,
    },
    /// The answer shown to the user.
    Answer { text: String },
}

/// A value a payload offers to explanations (`{name}` in a template) and the inspector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    Server,
    Requested,
    Version,
    Capabilities,
    Session,
    Logging,
    Count,
    Tools,
    Llm,
    Style,
    Question,
    Tool,
    Arguments,
    Round,
    Text,
    IsError,
    Structured,
    Answer,
}

impl Field {
    pub const ALL: [Field; 18] = [
        Field::Server,
        Field::Requested,
        Field::Version,
        Field::Capabilities,
        Field::Session,
        Field::Logging,
        Field::Count,
        Field::Tools,
        Field::Llm,
        Field::Style,
        Field::Question,
        Field::Tool,
        Field::Arguments,
        Field::Round,
        Field::Text,
        Field::IsError,
        Field::Structured,
        Field::Answer,
    ];

    /// The placeholder name in templates and the label in the inspector.
    pub const fn name(self) -> &'static str {
        match self {
            Field::Server => "server",
            Field::Requested => "requested",
            Field::Version => "version",
            Field::Capabilities => "capabilities",
            Field::Session => "session",
            Field::Logging => "logging",
            Field::Count => "count",
            Field::Tools => "tools",
            Field::Llm => "llm",
            Field::Style => "style",
            Field::Question => "question",
            Field::Tool => "tool",
            Field::Arguments => "arguments",
            Field::Round => "round",
            Field::Text => "text",
            Field::IsError => "isError",
            Field::Structured => "structured",
            Field::Answer => "answer",
        }
    }

    pub fn from_name(name: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// A field's value as shown: present, or plainly absent (with why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    Value(String),
    /// The run carried no such value (e.g. a tool result without structured content).
    Absent,
}

impl Payload {
    /// The fields this payload offers, in display order.
    pub fn fields(&self) -> Vec<(Field, Shown)> {
        use Shown::{Absent, Value as V};
        let text = |s: &str| V(s.to_owned());
        match self {
            Payload::Server { url } => vec![(Field::Server, text(url))],
            Payload::Requested { version } => vec![(Field::Requested, text(version))],
            Payload::Handshake {
                version,
                server,
                capabilities,
                session,
            } => vec![
                (Field::Version, text(version)),
                (Field::Server, text(server)),
                (Field::Capabilities, V(capabilities.to_string())),
                (Field::Session, session.as_deref().map_or(Absent, text)),
            ],
            Payload::Logging { level } => {
                vec![(Field::Logging, level.as_deref().map_or(Absent, text))]
            }
            Payload::Tools { names } => vec![
                (Field::Count, V(names.len().to_string())),
                (Field::Tools, V(names.join(", "))),
            ],
            Payload::ToolsForLlm { llm, style, .. } | Payload::LlmCall { llm, style } => vec![
                (Field::Llm, text(llm)),
                (Field::Style, text(style.describe())),
            ],
            Payload::Question { text: q } => vec![(Field::Question, text(q))],
            Payload::ToolCall {
                tool,
                arguments,
                round,
            } => vec![
                (Field::Tool, text(tool)),
                (Field::Arguments, V(arguments.to_string())),
                (Field::Round, V(round.to_string())),
            ],
            Payload::Text { text: t } => vec![(Field::Text, text(t))],
            Payload::Decision { approved } => {
                vec![(Field::Answer, text(if *approved { "Yes" } else { "No" }))]
            }
            Payload::ToolResult {
                text: t,
                is_error,
                structured,
            } => vec![
                (Field::Text, text(t)),
                (Field::IsError, V(is_error.to_string())),
                (
                    Field::Structured,
                    structured.as_ref().map_or(Absent, |v| V(v.to_string())),
                ),
            ],
            Payload::Answer { text: t } => vec![(Field::Answer, text(t))],
        }
    }

    /// One field's value, if this payload has it.
    pub fn field(&self, field: Field) -> Option<Shown> {
        self.fields()
            .into_iter()
            .find(|(f, _)| *f == field)
            .map(|(_, v)| v)
    }
}

/// Why a row was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// The model answered in text, so no tool ran.
    NoToolCall,
    /// The user declined the tool call.
    Declined,
    /// Approval is off in the settings.
    ApprovalOff,
    /// The tools/call request went out but no valid result came back.
    NoValidResult,
}

impl SkipReason {
    pub fn describe(self, lang: crate::diagram::Lang) -> &'static str {
        use crate::diagram::Lang::{En, Zh};
        match (self, lang) {
            (SkipReason::NoToolCall, En) => "the model answered without a tool",
            (SkipReason::NoToolCall, Zh) => "模型没有调用工具，直接回答",
            (SkipReason::Declined, En) => "the user declined the tool call",
            (SkipReason::Declined, Zh) => "用户拒绝了工具调用",
            (SkipReason::ApprovalOff, En) => "approval is off in settings",
            (SkipReason::ApprovalOff, Zh) => "设置中关闭了执行确认",
            (SkipReason::NoValidResult, En) => "no valid result came back from the server",
            (SkipReason::NoValidResult, Zh) => "服务器没有返回有效结果",
        }
    }
}

/// Whether `payload` is what `row` finishes with (checked on every row of the host's tests).
pub fn fits(row: Row, payload: Option<&Payload>) -> bool {
    use Payload as P;
    match row {
        Row::Prepare => matches!(payload, Some(P::Server { .. })),
        Row::Initialize => matches!(payload, Some(P::Requested { .. })),
        Row::InitializeResult => matches!(payload, Some(P::Handshake { .. })),
        Row::Initialized | Row::ListToolsAsk | Row::ListTools | Row::CallTool | Row::Execute => {
            payload.is_none()
        }
        Row::Ready => matches!(payload, Some(P::Logging { .. })),
        Row::ListToolsResult | Row::ToolsToHost => matches!(payload, Some(P::Tools { .. })),
        Row::ToolsToLlm => matches!(payload, Some(P::ToolsForLlm { .. })),
        Row::Question => matches!(payload, Some(P::Question { .. })),
        Row::AskLlm | Row::ResultToLlm => matches!(payload, Some(P::LlmCall { .. })),
        Row::LlmChoice | Row::LlmAnswer => {
            matches!(payload, Some(P::ToolCall { .. } | P::Text { .. }))
        }
        Row::Confirm | Row::CallToolAsk => matches!(payload, Some(P::ToolCall { .. })),
        Row::Confirmed => matches!(payload, Some(P::Decision { .. })),
        Row::CallToolResult | Row::ResultToHost => matches!(payload, Some(P::ToolResult { .. })),
        Row::ShowAnswer => matches!(payload, Some(P::Answer { .. })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn field_names_read_back() {
        for f in Field::ALL {
            assert_eq!(Field::from_name(f.name()), Some(f));
        }
        assert_eq!(Field::from_name("nope"), None);
    }

    #[test]
    fn a_missing_value_is_absent_not_empty() {
        let p = Payload::ToolResult {
            text: "Unknown city".into(),
            is_error: true,
            structured: None,
        };
        assert_eq!(p.field(Field::Structured), Some(Shown::Absent));
        assert_eq!(p.field(Field::IsError), Some(Shown::Value("true".into())));
        assert_eq!(p.field(Field::Tool), None);
    }

    #[test]
    fn payloads_read_back_from_json() {
        let samples = [
            Payload::Handshake {
                version: "2025-11-25".into(),
                server: "s 1".into(),
                capabilities: json!({}),
                session: None,
            },
            Payload::ToolCall {
                tool: "get_weather".into(),
                arguments: json!({"location": "Tokyo"}),
                round: 1,
            },
            Payload::Decision { approved: true },
        ];
        assert!(fits(Row::InitializeResult, Some(&samples[0])));
        assert!(fits(Row::LlmChoice, Some(&samples[1])));
        assert!(!fits(Row::Confirmed, Some(&samples[1])));
        assert!(fits(Row::Execute, None));
        assert!(!fits(Row::Prepare, None));
        for p in samples {
            let v = serde_json::to_value(&p).unwrap();
            assert!(v["kind"].is_string());
            assert_eq!(serde_json::from_value::<Payload>(v).unwrap(), p);
        }
    }
}
