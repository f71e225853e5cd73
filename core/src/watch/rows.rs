//! Which diagram row a watched message is, and what it carried: the host's requests and the
//! server's answers, matched by id, as the rows' events.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::messages::Message;
use crate::diagram::Row;
use crate::flow::browse::{completion, contents, listed};
use crate::record::payload::{Payload, SkipReason};
use crate::record::run::RunEvent;
use mcp_flow_client::browse::{contents_summary, items, messages_summary};
use mcp_flow_client::discover::Discovery;
use mcp_flow_client::era::{Detection, Era, Why};
use mcp_flow_client::jsonrpc::Reply;
use mcp_flow_wire::META_PROTOCOL_VERSION;

/// Rows of diagrams 1 and 2 the host performs inside itself (its model, its user, its own
/// calls): nothing of them crosses the wire.
pub const INSIDE_THE_HOST: [Row; 21] = [
    Row::Prepare,
    Row::Ready,
    Row::ListToolsAsk,
    Row::ToolsToHost,
    Row::ToolsToLlm,
    Row::Question,
    Row::AskLlm,
    Row::LlmChoice,
    Row::Confirm,
    Row::Confirmed,
    Row::CallToolAsk,
    Row::ElicitAsk,
    Row::ElicitAnswer,
    Row::SampleReview,
    Row::SampleLlm,
    Row::SampleLlmAnswer,
    Row::SampleApprove,
    Row::ResultToHost,
    Row::ResultToLlm,
    Row::LlmAnswer,
    Row::ShowAnswer,
];

/// Rows of diagrams 1 and 2 that are messages on the wire, skipped until the host sends them.
pub const ON_THE_WIRE: [Row; 9] = [
    Row::Discover,
    Row::DiscoverResult,
    Row::Initialize,
    Row::InitializeResult,
    Row::Initialized,
    Row::ListTools,
    Row::ListToolsResult,
    Row::Relist,
    Row::RelistResult,
];

/// The rows of one tool call; a second call in the session draws over the first.
pub const CALL: [Row; 9] = [
    Row::CallTool,
    Row::Elicit,
    Row::ElicitReply,
    Row::Roots,
    Row::RootsReply,
    Row::Sample,
    Row::SampleReply,
    Row::Execute,
    Row::CallToolResult,
];

/// The browse diagram's rows the host performs inside itself.
const BROWSE_INSIDE: [Row; 2] = [Row::Browse, Row::ShowBrowsed];

/// A request of the host's, waiting for its answer.
#[derive(Debug, Clone)]
struct Asked {
    method: String,
    /// The URI read or the prompt got.
    target: String,
}

/// What one message does to the rows: `before` its exchange joins the record (so the exchange
/// lands on the row it starts), and `after`.
#[derive(Debug, Default)]
pub struct Step {
    pub before: Vec<RunEvent>,
    pub after: Vec<RunEvent>,
}

impl Step {
    fn row(row: Row, at_ms: f64, payload: Option<Payload>) -> Self {
        Self {
            before: vec![RunEvent::Active { row, at_ms }],
            after: vec![RunEvent::Done {
                row,
                at_ms,
                payload,
            }],
        }
    }

    /// Whether the message starts a row (its exchange belongs to that row).
    pub fn starts_a_row(&self) -> bool {
        self.before
            .iter()
            .any(|e| matches!(e, RunEvent::Active { .. }))
    }
}

/// The rows' side of one watched session.
#[derive(Debug, Default)]
pub struct Rows {
    asked: HashMap<String, Asked>,
    /// The server's questions waiting for the host's answer: id → method.
    questions: HashMap<String, String>,
    era: Option<Era>,
    calls: u32,
    call_answered: bool,
    browsing: bool,
    rounds: u32,
}

/// The row that follows a request row: the answer.
fn answer_row(method: &str) -> Option<Row> {
    Some(match method {
        "initialize" => Row::InitializeResult,
        "server/discover" => Row::DiscoverResult,
        "tools/list" => Row::ListToolsResult,
        "tools/call" => Row::CallToolResult,
        "resources/list" => Row::ListResourcesResult,
        "resources/read" => Row::ReadResourceResult,
        "resources/templates/list" => Row::ListTemplatesResult,
        "completion/complete" => Row::CompleteResult,
        "prompts/list" => Row::ListPromptsResult,
        "prompts/get" => Row::GetPromptResult,
        "resources/subscribe" => Row::Subscribed,
        _ => return None,
    })
}

fn browse_row(method: &str) -> Option<Row> {
    Some(match method {
        "resources/list" => Row::ListResources,
        "resources/read" => Row::ReadResource,
        "resources/templates/list" => Row::ListTemplates,
        "completion/complete" => Row::Complete,
        "prompts/list" => Row::ListPrompts,
        "prompts/get" => Row::GetPrompt,
        "resources/subscribe" => Row::Subscribe,
        "resources/unsubscribe" => Row::Unsubscribe,
        _ => return None,
    })
}

fn text(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

/// A tool result as the host got it.
fn tool_result(result: &Value) -> Payload {
    let text = items(result, "content")
        .iter()
        .filter_map(|c| c.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n");
    Payload::ToolResult {
        text,
        is_error: result.get("isError").and_then(Value::as_bool) == Some(true),
        structured: result.get("structuredContent").cloned(),
        output_check: None,
    }
}

impl Rows {
    /// The era the session speaks, once a message said it.
    pub fn era(&self) -> Option<Era> {
        self.era
    }

    /// The rows skipped when a session starts: what the host does inside itself, and the
    /// messages it has not sent yet.
    pub fn at_start() -> Vec<RunEvent> {
        let inside = INSIDE_THE_HOST.iter().map(|&row| RunEvent::Skipped {
            row,
            why: SkipReason::InsideTheHost,
        });
        inside
            .chain(not_sent(&ON_THE_WIRE))
            .chain(not_sent(&CALL))
            .collect()
    }

    fn learn_era(&mut self, era: Era, said: String, events: &mut Vec<RunEvent>) {
        if self.era.is_some() {
            return;
        }
        self.era = Some(era);
        let why = Why::Watched { said: said.clone() };
        events.push(RunEvent::Era(Detection { era, why }, said));
    }

    /// A message the host sent.
    pub fn host_sent(&mut self, message: &Message, at_ms: f64) -> Step {
        match message {
            Message::Request { id, method, params } => {
                self.asked.insert(
                    id.clone(),
                    Asked {
                        method: method.clone(),
                        target: target_of(method, params),
                    },
                );
                self.host_request(method, params, at_ms)
            }
            Message::Notification { method, .. } if method == "notifications/initialized" => {
                Step::row(Row::Initialized, at_ms, None)
            }
            Message::Notification { .. } => Step::default(),
            Message::Response { id, answer } => self.host_answer(id, answer, at_ms),
        }
    }

    fn host_request(&mut self, method: &str, params: &Value, at_ms: f64) -> Step {
        let mut era = Vec::new();
        let meta_version = params
            .get("_meta")
            .and_then(|m| m.get(META_PROTOCOL_VERSION))
            .and_then(Value::as_str)
            .map(str::to_owned);
        if method == "initialize" {
            let version = text(params, "protocolVersion");
            self.learn_era(
                Era::Legacy,
                format!("the watched host sent initialize (protocol {version})"),
                &mut era,
            );
        } else if let Some(version) = &meta_version {
            self.learn_era(
                Era::Modern,
                format!("the watched host sends protocol {version} in each request's _meta"),
                &mut era,
            );
        }
        let requested =
            |version: Option<String>| version.map(|version| Payload::Requested { version });
        let mut step = match method {
            "initialize" => Step::row(
                Row::Initialize,
                at_ms,
                requested(
                    params
                        .get("protocolVersion")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                ),
            ),
            "server/discover" => Step::row(Row::Discover, at_ms, requested(meta_version)),
            "tools/list" => Step::row(Row::ListTools, at_ms, None),
            "tools/call" => self.call(params, at_ms),
            other => match browse_row(other) {
                Some(row) => {
                    let mut step = self.browse();
                    let target = target_of(other, params);
                    let payload = (!target.is_empty()).then(|| Payload::Target {
                        target,
                        arguments: params.get("arguments").cloned(),
                    });
                    let row_step = Step::row(row, at_ms, payload);
                    step.before.extend(row_step.before);
                    step.after.extend(row_step.after);
                    step
                }
                None => Step::default(),
            },
        };
        era.append(&mut step.before);
        step.before = era;
        step
    }

    /// The browse diagram starts with the host's first request of it.
    fn browse(&mut self) -> Step {
        if std::mem::replace(&mut self.browsing, true) {
            return Step::default();
        }
        Step {
            before: BROWSE_INSIDE
                .iter()
                .map(|&row| RunEvent::Skipped {
                    row,
                    why: SkipReason::InsideTheHost,
                })
                .collect(),
            after: Vec::new(),
        }
    }

    /// A `tools/call`: a new call (a second one draws over the first), or in 2026-07-28 the
    /// same call again with the answers to the server's questions.
    fn call(&mut self, params: &Value, at_ms: f64) -> Step {
        if params.get("inputResponses").is_some() || params.get("requestState").is_some() {
            let answer = first_input_response(params);
            return Step::row(Row::ElicitReply, at_ms, answer);
        }
        let mut before = Vec::new();
        if std::mem::take(&mut self.call_answered) {
            before.extend(not_sent(&CALL));
        }
        self.calls += 1;
        self.rounds = 0;
        let payload = Payload::ToolCall {
            tool: text(params, "name"),
            arguments: params.get("arguments").cloned().unwrap_or(json!({})),
            round: self.calls,
        };
        let mut step = Step::row(Row::CallTool, at_ms, Some(payload));
        before.append(&mut step.before);
        step.before = before;
        step.after.push(RunEvent::Active {
            row: Row::Execute,
            at_ms,
        });
        step
    }

    /// The host's answer to a question of the server's (2025-11-25: a POSTed response).
    fn host_answer(&mut self, id: &str, answer: &Reply, at_ms: f64) -> Step {
        let Some(method) = self.questions.remove(id) else {
            return Step::default();
        };
        let result = match answer {
            Reply::Result(result) => result.clone(),
            Reply::Error { code, message, .. } => json!({"error": format!("{code}: {message}")}),
        };
        let (row, payload) = match method.as_str() {
            "elicitation/create" => (Row::ElicitReply, form_answer(&result)),
            "roots/list" => (
                Row::RootsReply,
                Payload::Roots {
                    roots: items(&result, "roots")
                        .iter()
                        .map(|r| text(r, "uri"))
                        .collect(),
                    state: None,
                    round: self.rounds,
                    withheld: false,
                },
            ),
            "sampling/createMessage" => (
                Row::SampleReply,
                Payload::Sampled {
                    text: result
                        .get("content")
                        .map(|c| text(c, "text"))
                        .unwrap_or_default(),
                    model: text(&result, "model"),
                    verdict: "sent".into(),
                },
            ),
            _ => return Step::default(),
        };
        Step::row(row, at_ms, Some(payload))
    }

    /// A request of the host's that got no answer: its answer's row fails with `why`.
    pub fn unanswered(&mut self, id: &str, at_ms: f64, why: &str) -> Vec<RunEvent> {
        let Some(row) = self.asked.remove(id).and_then(|a| answer_row(&a.method)) else {
            return Vec::new();
        };
        vec![
            RunEvent::Active { row, at_ms },
            RunEvent::Failed {
                row,
                at_ms,
                error: why.to_owned(),
            },
        ]
    }

    /// A message the server sent (an answer, or on a stream a question or a notification);
    /// `session` is the session its answer opened, if any.
    pub fn server_sent(
        &mut self,
        message: &Message,
        at_ms: f64,
        session: Option<&str>,
    ) -> Vec<RunEvent> {
        match message {
            Message::Response { id, answer } => match self.asked.remove(id) {
                Some(asked) => self.answered(&asked, answer, at_ms, session),
                None => Vec::new(),
            },
            Message::Request { id, method, params } => {
                self.questions.insert(id.clone(), method.clone());
                self.rounds += 1;
                self.question(method, params, None, at_ms)
            }
            Message::Notification { method, params } => {
                let note = json!({"jsonrpc": "2.0", "method": method, "params": params});
                let mut events = vec![RunEvent::Notification(note)];
                if method == "notifications/resources/updated" {
                    let step = Step::row(Row::Updated, at_ms, None);
                    events.extend(step.before.into_iter().chain(step.after));
                }
                events
            }
        }
    }

    /// A question of the server's on the rows `Elicit`, `Roots` or `Sample`.
    fn question(
        &mut self,
        method: &str,
        params: &Value,
        state: Option<String>,
        at_ms: f64,
    ) -> Vec<RunEvent> {
        let round = self.rounds;
        let (row, payload) = match method {
            "elicitation/create" => (
                Row::Elicit,
                Payload::Form {
                    message: text(params, "message"),
                    schema: params
                        .get("requestedSchema")
                        .cloned()
                        .unwrap_or(Value::Null),
                    state,
                    round,
                },
            ),
            "roots/list" => (
                Row::Roots,
                Payload::Roots {
                    roots: Vec::new(),
                    state,
                    round,
                    withheld: false,
                },
            ),
            "sampling/createMessage" => (
                Row::Sample,
                Payload::Sampling {
                    messages: items(params, "messages")
                        .iter()
                        .map(|m| {
                            let said = m
                                .get("content")
                                .map(|c| text(c, "text"))
                                .unwrap_or_default();
                            format!("{}: {said}", text(m, "role"))
                        })
                        .collect(),
                    system_prompt: params
                        .get("systemPrompt")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    max_tokens: params
                        .get("maxTokens")
                        .and_then(Value::as_u64)
                        .and_then(|n| u32::try_from(n).ok())
                        .unwrap_or(0),
                    preferences: params.get("modelPreferences").map(Value::to_string),
                    state,
                    round,
                },
            ),
            _ => return Vec::new(),
        };
        let step = Step::row(row, at_ms, Some(payload));
        step.before.into_iter().chain(step.after).collect()
    }

    fn answered(
        &mut self,
        asked: &Asked,
        answer: &Reply,
        at_ms: f64,
        session: Option<&str>,
    ) -> Vec<RunEvent> {
        let Some(row) = answer_row(&asked.method) else {
            return Vec::new();
        };
        let call = asked.method == "tools/call";
        if let Reply::Result(result) = answer
            && call
            && result.get("resultType").and_then(Value::as_str) == Some("input_required")
        {
            // 2026-07-28: the call is not answered yet; the server's questions come with it.
            return self.input_required(result, at_ms);
        }
        let mut events = Vec::new();
        if call {
            self.call_answered = true;
            events.push(RunEvent::Done {
                row: Row::Execute,
                at_ms,
                payload: None,
            });
        }
        events.push(RunEvent::Active { row, at_ms });
        let result = match answer {
            Reply::Error { code, message, .. } => {
                events.push(RunEvent::Failed {
                    row,
                    at_ms,
                    error: format!("the server answered with error {code}: {message}"),
                });
                return events;
            }
            Reply::Result(result) => result,
        };
        let payload = match asked.method.as_str() {
            "initialize" => Payload::Handshake {
                version: text(result, "protocolVersion"),
                server: result
                    .get("serverInfo")
                    .map(|i| format!("{} {}", text(i, "name"), text(i, "version")))
                    .unwrap_or_default(),
                capabilities: result.get("capabilities").cloned().unwrap_or(json!({})),
                session: session.map(str::to_owned),
            },
            "server/discover" => match Discovery::read(result) {
                Ok(found) => crate::flow::connect::discovered(&found),
                Err(why) => {
                    events.push(RunEvent::Failed {
                        row,
                        at_ms,
                        error: why,
                    });
                    return events;
                }
            },
            "tools/list" => Payload::Tools {
                names: items(result, "tools")
                    .iter()
                    .map(|t| text(t, "name"))
                    .collect(),
                dropped: Vec::new(),
                ttl_ms: result.get("ttlMs").and_then(Value::as_u64),
            },
            "tools/call" => tool_result(result),
            "resources/list" => listed(result, "resources", "uri"),
            "resources/templates/list" => listed(result, "resourceTemplates", "uriTemplate"),
            "prompts/list" => listed(result, "prompts", "name"),
            "completion/complete" => completion(result),
            "resources/read" => {
                let count = items(result, "contents").len();
                contents(&asked.target, count, contents_summary(result), result)
            }
            "prompts/get" => {
                let count = items(result, "messages").len();
                contents(&asked.target, count, messages_summary(result), result)
            }
            _ => {
                events.push(RunEvent::Done {
                    row,
                    at_ms,
                    payload: None,
                });
                return events;
            }
        };
        events.push(RunEvent::Done {
            row,
            at_ms,
            payload: Some(payload),
        });
        events
    }

    /// 2026-07-28: an `input_required` answer to a call: each of the server's questions on
    /// its row, with the state the host must send back.
    fn input_required(&mut self, result: &Value, at_ms: f64) -> Vec<RunEvent> {
        let state = result
            .get("requestState")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut events = Vec::new();
        let Some(requests) = result.get("inputRequests").and_then(Value::as_object) else {
            return events;
        };
        self.rounds += 1;
        for request in requests.values() {
            let method = text(request, "method");
            let params = request.get("params").cloned().unwrap_or(Value::Null);
            events.extend(self.question(&method, &params, state.clone(), at_ms));
        }
        events
    }
}

/// `rows` skipped until the host sends them.
fn not_sent(rows: &'static [Row]) -> impl Iterator<Item = RunEvent> {
    rows.iter().map(|&row| RunEvent::Skipped {
        row,
        why: SkipReason::NotSentYet,
    })
}

/// The URI a request reads or the prompt it gets (empty for others).
fn target_of(method: &str, params: &Value) -> String {
    match method {
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => text(params, "uri"),
        "prompts/get" => text(params, "name"),
        "completion/complete" => params
            .get("ref")
            .map(|r| {
                let uri = text(r, "uri");
                if uri.is_empty() { text(r, "name") } else { uri }
            })
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// An answer to a form: its action and content.
fn form_answer(result: &Value) -> Payload {
    Payload::FormAnswer {
        action: text(result, "action"),
        content: result.get("content").cloned(),
    }
}

/// 2026-07-28: the first answer a retried call carries, as the row shows it.
fn first_input_response(params: &Value) -> Option<Payload> {
    let first = params.get("inputResponses")?.as_object()?.values().next()?;
    Some(if first.get("action").is_some() {
        form_answer(first)
    } else if first.get("roots").is_some() {
        Payload::Roots {
            roots: items(first, "roots")
                .iter()
                .map(|r| text(r, "uri"))
                .collect(),
            state: params
                .get("requestState")
                .and_then(Value::as_str)
                .map(str::to_owned),
            round: 0,
            withheld: false,
        }
    } else {
        Payload::Sampled {
            text: first
                .get("content")
                .map(|c| text(c, "text"))
                .unwrap_or_default(),
            model: text(first, "model"),
            verdict: "sent".into(),
        }
    })
}
