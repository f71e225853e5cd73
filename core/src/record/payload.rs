//! What a row carried, typed: the values the host saw when it finished the row. The explanation
//! templates and the inspector read them through [`Field`]s, never through string keys.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::llm::{Style, ToolSpec};
use crate::output_check::OutputCheck;

/// The values a finished row carried. In a record it is written as one object whose `kind`
/// names the variant (see [`by_kind`]); serde's own internally tagged form would buffer every
/// payload on import and cost the page about 45 KB of wasm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// Tool names, in the server's order; in the modern era also the tools left out (with why)
    /// and how long the list stays fresh.
    Tools {
        names: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dropped: Vec<(String, String)>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ttl_ms: Option<u64>,
    },
    /// What `server/discover` said (modern era).
    Discovered {
        versions: Vec<String>,
        /// "name version", from `_meta` serverInfo.
        server: Option<String>,
        capabilities: Value,
        ttl_ms: u64,
        cache_scope: Option<String>,
    },
    /// The modern probe found a legacy server, and why.
    Fallback { why: String },
    /// A question the server asks the user (a form), in round `round` of a call.
    Form {
        message: String,
        schema: Value,
        /// The modern era's `requestState`, echoed back with the answer.
        state: Option<String>,
        round: u32,
    },
    /// The user's answer to a form: `accept` (with `content`), `decline` or `cancel`.
    FormAnswer {
        action: String,
        content: Option<Value>,
    },
    /// The client's roots as given to the server (`roots/list`), in round `round` of a call.
    Roots {
        roots: Vec<String>,
        /// The modern era's `requestState`, echoed back with the answer.
        state: Option<String>,
        round: u32,
        /// The user did not share the settings' roots with this server: none were given.
        #[serde(default)]
        withheld: bool,
    },
    /// A server's request for the client's model (`sampling/createMessage`), in round `round`
    /// of a call.
    Sampling {
        /// Each message as `role: text`.
        messages: Vec<String>,
        system_prompt: Option<String>,
        max_tokens: u32,
        /// The server's model preferences, in a line.
        preferences: Option<String>,
        /// The modern era's `requestState`, echoed back with the answer.
        state: Option<String>,
        round: u32,
    },
    /// A completion for a sampling request, and what became of it: `written` (by the model),
    /// `approved`, `edited` or `refused` (by the user).
    Sampled {
        text: String,
        model: String,
        verdict: String,
    },
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
        /// The result against its tool's `outputSchema` (`None`: nothing to check).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        output_check: Option<OutputCheck>,
    },
    /// The answer shown to the user.
    Answer { text: String },
    /// A step of the authorization flow: what it asked for or learned, in a line (never a
    /// token, a code or a secret).
    Auth { detail: String },
    /// What the server declared besides tools (`resources`, `prompts`, `completions`).
    Offers { capabilities: Vec<String> },
    /// A list of resources, templates or prompts: each item's URI, template or name, and how
    /// long the list stays fresh (2026-07-28).
    Listed {
        items: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ttl_ms: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cache_scope: Option<String>,
    },
    /// What a request asks for: a URI to read, a prompt to get (with its arguments) or a
    /// template whose argument to complete (with what was typed).
    Target {
        target: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        arguments: Option<Value>,
    },
    /// The values a completion offered.
    Completion {
        values: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        total: Option<u64>,
        has_more: bool,
    },
    /// A task as an answer showed it, and how many times it was polled so far.
    Task {
        id: String,
        status: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        poll_ms: Option<u64>,
        polls: u32,
    },
    /// A step of a tool's app: the message's method, what it said in a line, and how many
    /// times the row happened so far (an app resizes or calls tools again and again).
    App {
        method: String,
        detail: String,
        count: u32,
    },
    /// What a `resources/read` or `prompts/get` gave, in a line, with its freshness.
    Contents {
        target: String,
        count: usize,
        summary: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ttl_ms: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cache_scope: Option<String>,
    },
}

/// `#[serde(with = "by_kind")]` for an `Option<Payload>`: `{"kind": "tool_result", "text": …}`.
pub mod by_kind {
    use serde::de::Error as _;
    use serde::ser::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::{Map, Value};

    use super::Payload;

    pub fn serialize<S: Serializer>(payload: &Option<Payload>, s: S) -> Result<S::Ok, S::Error> {
        let Some(payload) = payload else {
            return s.serialize_none();
        };
        let Value::Object(outer) = serde_json::to_value(payload).map_err(S::Error::custom)? else {
            return Err(S::Error::custom("a payload is always a struct variant"));
        };
        let mut flat = Map::new();
        for (kind, fields) in outer {
            flat.insert("kind".into(), Value::String(kind));
            if let Value::Object(fields) = fields {
                flat.extend(fields);
            }
        }
        Value::Object(flat).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Payload>, D::Error> {
        let Some(value) = Option::<Value>::deserialize(d)? else {
            return Ok(None);
        };
        let Value::Object(mut fields) = value else {
            return Err(D::Error::custom("a row's payload must be an object"));
        };
        let Some(Value::String(kind)) = fields.remove("kind") else {
            return Err(D::Error::custom("a row's payload has no \"kind\""));
        };
        let mut outer = Map::new();
        outer.insert(kind, Value::Object(fields));
        serde_json::from_value(Value::Object(outer))
            .map(Some)
            .map_err(D::Error::custom)
    }
}

/// Declares [`Field`]: each field once, with its placeholder name.
macro_rules! fields {
    ($($field:ident = $name:literal,)*) => {
        /// A value a payload offers to explanations (`{name}` in a template) and the inspector.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Field {
            $($field,)*
        }

        impl Field {
            pub const ALL: &'static [Field] = &[$(Field::$field,)*];

            /// The placeholder name in templates and the label in the inspector.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Field::$field => $name,)*
                }
            }
        }
    };
}

fields! {
    Server = "server",
    Requested = "requested",
    Version = "version",
    Capabilities = "capabilities",
    Session = "session",
    Logging = "logging",
    Count = "count",
    Tools = "tools",
    Llm = "llm",
    Style = "style",
    Question = "question",
    Tool = "tool",
    Arguments = "arguments",
    Round = "round",
    Text = "text",
    IsError = "isError",
    Structured = "structured",
    Answer = "answer",
    Versions = "versions",
    Ttl = "ttlMs",
    CacheScope = "cacheScope",
    Dropped = "dropped",
    Why = "why",
    Message = "message",
    Action = "action",
    Content = "content",
    State = "requestState",
    OutputSchema = "outputSchema",
    Detail = "detail",
    Offers = "offers",
    Items = "items",
    Target = "target",
    Values = "values",
    HasMore = "hasMore",
    TaskId = "taskId",
    Status = "status",
    PollInterval = "pollInterval",
    Polls = "polls",
    Roots = "roots",
    Messages = "messages",
    SystemPrompt = "systemPrompt",
    MaxTokens = "maxTokens",
    Preferences = "modelPreferences",
    Model = "model",
    Verdict = "verdict",
    Method = "method",
}

impl Field {
    pub fn from_name(name: &str) -> Option<Field> {
        Field::ALL.iter().copied().find(|f| f.name() == name)
    }
}

/// A field's value as shown: present, or plainly absent (with why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    Value(String),
    /// The run carried no such value (e.g. a tool result without structured content).
    Absent,
}

impl Payload {
    /// The fields this payload offers, in display order.
    pub fn fields(&self) -> Vec<(Field, FieldValue)> {
        use FieldValue::{Absent, Value as V};
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
            Payload::Tools {
                names,
                dropped,
                ttl_ms,
            } => {
                let list: Vec<String> = dropped
                    .iter()
                    .map(|(n, why)| format!("{n} ({why})"))
                    .collect();
                let dropped = if list.is_empty() {
                    Absent
                } else {
                    V(list.join("; "))
                };
                vec![
                    (Field::Count, V(names.len().to_string())),
                    (Field::Tools, V(names.join(", "))),
                    (Field::Dropped, dropped),
                    (Field::Ttl, ttl_ms.map_or(Absent, |t| V(t.to_string()))),
                ]
            }
            Payload::Discovered {
                versions,
                server,
                capabilities,
                ttl_ms,
                cache_scope,
            } => vec![
                (Field::Versions, V(versions.join(", "))),
                (Field::Server, server.as_deref().map_or(Absent, text)),
                (Field::Capabilities, V(capabilities.to_string())),
                (Field::Ttl, V(ttl_ms.to_string())),
                (
                    Field::CacheScope,
                    cache_scope.as_deref().map_or(Absent, text),
                ),
            ],
            Payload::Fallback { why } => vec![(Field::Why, text(why))],
            Payload::Form {
                message,
                schema: _,
                state,
                round,
            } => vec![
                (Field::Message, text(message)),
                (Field::State, state.as_deref().map_or(Absent, text)),
                (Field::Round, V(round.to_string())),
            ],
            Payload::Roots {
                roots,
                state,
                round,
                withheld,
            } => vec![
                (
                    Field::Roots,
                    if *withheld {
                        V("(none: the user did not share them with this server)".into())
                    } else if roots.is_empty() {
                        V("(none)".into())
                    } else {
                        V(roots.join(", "))
                    },
                ),
                (Field::State, state.as_deref().map_or(Absent, text)),
                (Field::Round, V(round.to_string())),
            ],
            Payload::Sampling {
                messages,
                system_prompt,
                max_tokens,
                preferences,
                state,
                round,
            } => vec![
                (Field::Messages, V(messages.join(" / "))),
                (
                    Field::SystemPrompt,
                    system_prompt.as_deref().map_or(Absent, text),
                ),
                (Field::MaxTokens, V(max_tokens.to_string())),
                (
                    Field::Preferences,
                    preferences.as_deref().map_or(Absent, text),
                ),
                (Field::State, state.as_deref().map_or(Absent, text)),
                (Field::Round, V(round.to_string())),
            ],
            Payload::Sampled {
                text: t,
                model,
                verdict,
            } => vec![
                (Field::Text, text(t)),
                (Field::Model, text(model)),
                (Field::Verdict, text(verdict)),
            ],
            Payload::FormAnswer { action, content } => vec![
                (Field::Action, text(action)),
                (
                    Field::Content,
                    content.as_ref().map_or(Absent, |c| V(c.to_string())),
                ),
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
                output_check,
            } => vec![
                (Field::Text, text(t)),
                (Field::IsError, V(is_error.to_string())),
                (
                    Field::Structured,
                    structured.as_ref().map_or(Absent, |v| V(v.to_string())),
                ),
                (
                    Field::OutputSchema,
                    output_check.as_ref().map_or(Absent, |c| V(c.summary())),
                ),
            ],
            Payload::Answer { text: t } => vec![(Field::Answer, text(t))],
            Payload::Auth { detail } => vec![(Field::Detail, text(detail))],
            Payload::Offers { capabilities } => {
                vec![(Field::Offers, V(capabilities.join(", ")))]
            }
            Payload::Listed {
                items,
                ttl_ms,
                cache_scope,
            } => vec![
                (Field::Count, V(items.len().to_string())),
                (Field::Items, V(items.join(", "))),
                (Field::Ttl, ttl_ms.map_or(Absent, |t| V(t.to_string()))),
                (
                    Field::CacheScope,
                    cache_scope.as_deref().map_or(Absent, text),
                ),
            ],
            Payload::Target { target, arguments } => vec![
                (Field::Target, text(target)),
                (
                    Field::Arguments,
                    arguments.as_ref().map_or(Absent, |a| V(a.to_string())),
                ),
            ],
            Payload::Completion {
                values,
                total,
                has_more,
            } => vec![
                (Field::Values, V(values.join(", "))),
                (Field::Count, total.map_or(Absent, |t| V(t.to_string()))),
                (Field::HasMore, V(has_more.to_string())),
            ],
            Payload::Task {
                id,
                status,
                message,
                poll_ms,
                polls,
            } => vec![
                (Field::TaskId, text(id)),
                (Field::Status, text(status)),
                (Field::Message, message.as_deref().map_or(Absent, text)),
                (
                    Field::PollInterval,
                    poll_ms.map_or(Absent, |p| V(p.to_string())),
                ),
                (Field::Polls, V(polls.to_string())),
            ],
            Payload::App {
                method,
                detail,
                count,
            } => vec![
                (Field::Method, text(method)),
                (Field::Detail, text(detail)),
                (Field::Count, V(count.to_string())),
            ],
            Payload::Contents {
                target,
                count,
                summary,
                ttl_ms,
                cache_scope,
            } => vec![
                (Field::Target, text(target)),
                (Field::Count, V(count.to_string())),
                (Field::Text, text(summary)),
                (Field::Ttl, ttl_ms.map_or(Absent, |t| V(t.to_string()))),
                (
                    Field::CacheScope,
                    cache_scope.as_deref().map_or(Absent, text),
                ),
            ],
        }
    }

    /// One field's value, if this payload has it.
    pub fn field(&self, field: Field) -> Option<FieldValue> {
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
    /// The legacy era is chosen in the settings: no modern probe.
    LegacyChosen,
    /// This server answered as a legacy one earlier on this page: no probe again.
    KnownLegacy,
    /// The server asked no question before the tool completed.
    NoInputNeeded,
    /// The authorization server knows this client already (pre-registered, a client ID
    /// metadata document, or registered earlier on this page): no registration.
    ClientKnown,
    /// The list from earlier on this page is still fresh (its `ttlMs` has not passed).
    FreshList { age_ms: u64, ttl_ms: u64 },
    /// The server did not declare this feature (or answered that it has no such method).
    NotOffered,
    /// The answer before gave nothing to go on (an empty list, a template without a
    /// variable, no completed value).
    NothingListed,
    /// No update of the subscribed resource came in the time the host waits for one.
    NoUpdate,
    /// The server answered the call at once, not with a task.
    NoTask,
    /// 2026-07-28: the task's result came with `tasks/get`; there is no `tasks/result`.
    ResultWithStatus,
    /// The task ended without a result (failed or cancelled).
    NoTaskResult,
    /// No tool the host may call unasked to follow as a task.
    NoHarmlessTool,
    /// The user refused the server's sampling request before a model saw it.
    SamplingRefused,
    /// The sampling request could not be put to a model (said on its row).
    CannotSample,
    /// The server did not say its tools changed while the call ran.
    ToolsUnchanged,
    /// A link called the tool (`?call=`): no model in this run.
    CalledFromLink,
    /// A watched host does this inside itself: nothing of it crosses the wire.
    InsideTheHost,
    /// The watched host has not sent this in the session (yet).
    NotSentYet,
}

impl SkipReason {
    pub fn describe(self, lang: crate::diagram::Lang) -> String {
        use crate::diagram::Lang::{En, Zh};
        let text = match (self, lang) {
            (SkipReason::FreshList { age_ms, ttl_ms }, En) => {
                return format!(
                    "reused the list from {age_ms} ms ago, no request sent: the server said it \
                     stays fresh for {ttl_ms} ms (ttlMs)"
                );
            }
            (SkipReason::FreshList { age_ms, ttl_ms }, Zh) => {
                return format!(
                    "复用了 {age_ms} 毫秒前的列表，未发送请求：服务器说明它在 {ttl_ms} 毫秒内有效（ttlMs）"
                );
            }
            (SkipReason::NoToolCall, En) => "the model answered without a tool",
            (SkipReason::NoToolCall, Zh) => "模型没有调用工具，直接回答",
            (SkipReason::Declined, En) => "the user declined the tool call",
            (SkipReason::Declined, Zh) => "用户拒绝了工具调用",
            (SkipReason::ApprovalOff, En) => "approval is off in settings",
            (SkipReason::ApprovalOff, Zh) => "设置中关闭了执行确认",
            (SkipReason::NoValidResult, En) => "no valid result came back from the server",
            (SkipReason::NoValidResult, Zh) => "服务器没有返回有效结果",
            (SkipReason::LegacyChosen, En) => {
                "the legacy era is chosen in settings: no modern probe"
            }
            (SkipReason::LegacyChosen, Zh) => "设置中选择了旧版协议：不做新版探测",
            (SkipReason::KnownLegacy, En) => {
                "this server answered as a legacy one earlier on this page: no probe again"
            }
            (SkipReason::KnownLegacy, Zh) => "本页面早先已确认该服务器为旧版：不再探测",
            (SkipReason::InsideTheHost, En) => "inside the watched host: not on the wire",
            (SkipReason::InsideTheHost, Zh) => "在被观察的主机内部完成，不经过线路",
            (SkipReason::NotSentYet, En) => "not sent by the watched host (yet)",
            (SkipReason::NotSentYet, Zh) => "被观察的主机（尚）未发送",
            (SkipReason::NoInputNeeded, En) => "the server asked no question before answering",
            (SkipReason::NoInputNeeded, Zh) => "服务器在回答前没有提出问题",
            (SkipReason::ClientKnown, En) => {
                "the authorization server knows this client already (pre-registered, its \
                 metadata document, or registered earlier): no registration"
            }
            (SkipReason::ClientKnown, Zh) => {
                "授权服务器已经认识这个客户端（预注册、客户端元数据文档或之前已注册）：无需注册"
            }
            (SkipReason::NotOffered, En) => {
                "the server does not offer this (not in its capabilities, or no such method)"
            }
            (SkipReason::NotOffered, Zh) => "服务器不提供此功能（能力中没有声明，或没有此方法）",
            (SkipReason::NothingListed, En) => "the answer before gave nothing to go on with",
            (SkipReason::NothingListed, Zh) => "上一个应答没有可继续使用的内容",
            (SkipReason::NoUpdate, En) => {
                "no update came in the time the host waits (the server decides when a resource \
                 changes)"
            }
            (SkipReason::NoUpdate, Zh) => {
                "在主机等待的时间内没有收到更新（资源何时变化由服务器决定）"
            }
            (SkipReason::NoTask, En) => {
                "the server answered the call at once, not with a task (it decides per call)"
            }
            (SkipReason::NoTask, Zh) => {
                "服务器立即回答了调用，没有创建任务（是否创建由服务器逐次决定）"
            }
            (SkipReason::ResultWithStatus, En) => {
                "2026-07-28 has no tasks/result: the result came with tasks/get"
            }
            (SkipReason::ResultWithStatus, Zh) => {
                "2026-07-28 没有 tasks/result：结果随 tasks/get 一起返回"
            }
            (SkipReason::NoTaskResult, En) => {
                "the task ended without a result (failed or cancelled)"
            }
            (SkipReason::NoTaskResult, Zh) => "任务结束时没有结果（失败或被取消）",
            (SkipReason::NoHarmlessTool, En) => {
                "no tool to follow as a task that the server marks read-only or not destructive: \
                 the host calls no other tool unasked"
            }
            (SkipReason::NoHarmlessTool, Zh) => {
                "没有服务器标记为只读或非破坏性的工具可作为任务跟踪：主机不会未经询问调用其他工具"
            }
            (SkipReason::SamplingRefused, En) => {
                "the user refused the server's request before any model saw it"
            }
            (SkipReason::SamplingRefused, Zh) => "用户在任何模型看到之前拒绝了服务器的请求",
            (SkipReason::CannotSample, En) => "the request could not be put to a model",
            (SkipReason::CannotSample, Zh) => "该请求无法交给模型",
            (SkipReason::ToolsUnchanged, En) => {
                "the server did not say its tools changed (notifications/tools/list_changed) while the call ran"
            }
            (SkipReason::ToolsUnchanged, Zh) => {
                "调用期间服务器没有通知工具发生变化（notifications/tools/list_changed）"
            }
            (SkipReason::CalledFromLink, En) => {
                "the link called the tool itself (?call=): no model in this run"
            }
            (SkipReason::CalledFromLink, Zh) => "链接直接调用了工具（?call=）：本次运行没有模型",
        };
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::Row;
    use crate::diagram::explained::fits;
    use serde_json::json;

    #[test]
    fn field_names_read_back() {
        for &f in Field::ALL {
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
            output_check: None,
        };
        assert_eq!(p.field(Field::Structured), Some(FieldValue::Absent));
        assert_eq!(p.field(Field::OutputSchema), Some(FieldValue::Absent));
        assert_eq!(
            p.field(Field::IsError),
            Some(FieldValue::Value("true".into()))
        );
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
        #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        struct Holder {
            #[serde(with = "by_kind")]
            payload: Option<Payload>,
        }
        for p in samples {
            let held = Holder { payload: Some(p) };
            let v = serde_json::to_value(&held).unwrap();
            assert!(v["payload"]["kind"].is_string(), "{v}");
            assert_eq!(serde_json::from_value::<Holder>(v).unwrap(), held);
        }
        let none = Holder { payload: None };
        assert_eq!(
            serde_json::from_value::<Holder>(serde_json::to_value(&none).unwrap()).unwrap(),
            none
        );
        let unknown = json!({"payload": {"kind": "weather", "text": "x"}});
        assert!(serde_json::from_value::<Holder>(unknown).is_err());
        let kindless = json!({"payload": {"text": "x"}});
        let err = serde_json::from_value::<Holder>(kindless).unwrap_err();
        assert!(err.to_string().contains("kind"), "{err}");
    }
}
