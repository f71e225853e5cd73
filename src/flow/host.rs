//! The host (the seeds' "ClientApp"): performs each diagram row for real, passing the gate first,
//! and reports every step to the run record.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures_channel::oneshot;
use serde_json::Value;

use super::gate::{Gate, Wait};
use super::payload::{Payload, SkipReason};
use super::run::RunEvent;
use crate::diagram::Row;
use crate::llm::{ChatMessage, Llm, LlmReply, ToolCall, ToolSpec};
use crate::mcp::client::{McpClient, result_text};
use crate::mcp::error::{McpError, TransportError};
use crate::mcp::http::Http;

/// Tool rounds per question before the host stops the loop (seed `004_…`: `MAX_TOOL_CALLS`).
pub const MAX_TOOL_ROUNDS: u32 = 3;

/// Whether the host asks the user before running a tool (diagram 2, rows 4 and 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Approval {
    Ask,
    Auto,
}

/// A tool call waiting for the user's yes or no.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    pub tool: String,
    pub arguments: Value,
}

/// What the host reports: changes to the run record, and questions for the user.
#[derive(Debug, Clone, PartialEq)]
pub enum HostEvent {
    Run(RunEvent),
    /// The host waits for the user to allow a tool call (`None`: it no longer waits).
    Approval(Option<ApprovalRequest>),
}

impl From<RunEvent> for HostEvent {
    fn from(e: RunEvent) -> Self {
        HostEvent::Run(e)
    }
}

pub type Emit = Rc<dyn Fn(HostEvent)>;

/// A Streamable HTTP endpoint is an absolute `http://` or `https://` URL with a host.
pub fn check_server_url(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    match rest {
        Some(rest)
            if !rest.is_empty() && !rest.starts_with('/') && !url.contains(char::is_whitespace) =>
        {
            Ok(())
        }
        _ => Err(format!(
            "the server URL must be an absolute http:// or https:// address such as \
             http://127.0.0.1:8000/mcp (got {url:?})"
        )),
    }
}

/// A run stopped at a row.
#[derive(Debug, Clone, PartialEq)]
pub struct Stopped {
    pub row: Row,
    pub error: String,
}

pub struct Host<H: Http, L: Llm> {
    pub client: Rc<McpClient<H>>,
    pub llm: L,
    pub gate: Rc<Gate>,
    approval: Cell<Approval>,
    emit: Emit,
    tools: RefCell<Vec<ToolSpec>>,
    decision: RefCell<Option<oneshot::Sender<bool>>>,
}

impl<H: Http + 'static, L: Llm> Host<H, L> {
    pub fn new(
        client: Rc<McpClient<H>>,
        llm: L,
        gate: Rc<Gate>,
        approval: Approval,
        emit: Emit,
    ) -> Self {
        let listener_emit = emit.clone();
        client.set_listener(Some(Box::new(move |m: &Value| {
            listener_emit(RunEvent::Notification(m.clone()).into())
        })));
        Self {
            client,
            llm,
            gate,
            approval: Cell::new(approval),
            emit,
            tools: RefCell::new(Vec::new()),
            decision: RefCell::new(None),
        }
    }

    /// Whether the next tool call asks the user first.
    pub fn set_approval(&self, approval: Approval) {
        self.approval.set(approval);
    }

    /// The user's answer to "Execute tool?".
    pub fn decide(&self, yes: bool) {
        if let Some(tx) = self.decision.borrow_mut().take() {
            let _ = tx.send(yes);
        }
    }

    async fn pass_gate(&self) {
        match self.gate.plan() {
            Wait::Now => {}
            Wait::Sleep(ms) => self.client.transport.clock.sleep(ms).await,
            Wait::UntilNext => {
                let rx = self.gate.arm();
                let _ = rx.await;
            }
        }
    }

    /// The run's clock, shared with the client's exchanges.
    fn now_ms(&self) -> f64 {
        self.client.transport.clock.now_ms()
    }

    fn record(&self, event: RunEvent) {
        (self.emit)(HostEvent::Run(event));
    }

    async fn begin(&self, row: Row) {
        self.pass_gate().await;
        self.record(RunEvent::Active {
            row,
            at_ms: self.now_ms(),
        });
    }

    fn done(&self, row: Row, payload: Option<Payload>) {
        self.record(RunEvent::Done {
            row,
            at_ms: self.now_ms(),
            payload,
        });
    }

    fn fail(&self, row: Row, error: String) -> Stopped {
        self.record(RunEvent::Failed {
            row,
            at_ms: self.now_ms(),
            error: error.clone(),
        });
        Stopped { row, error }
    }

    fn skip(&self, rows: &[Row], why: SkipReason) {
        for &row in rows {
            self.record(RunEvent::Skipped { row, why });
        }
    }

    /// A failed request/response pair: no response at all fails the request row; a response
    /// that was wrong fails the response row.
    fn fail_pair(
        &self,
        (request_row, sent): (Row, Option<Payload>),
        response_row: Row,
        e: McpError,
    ) -> Stopped {
        match e {
            McpError::Transport(
                TransportError::Network { .. } | TransportError::Timeout { .. },
            ) => self.fail(request_row, e.to_string()),
            _ => {
                self.done(request_row, sent);
                self.fail(response_row, e.to_string())
            }
        }
    }

    /// Diagram 1: connect and discover tools.
    pub async fn discover(&self) -> Result<(), Stopped> {
        self.begin(Row::Prepare).await;
        let url = self.client.transport.url.clone();
        if let Err(e) = check_server_url(&url) {
            return Err(self.fail(Row::Prepare, e));
        }
        self.done(Row::Prepare, Some(Payload::Server { url }));

        self.begin(Row::Initialize).await;
        let requested = Some(Payload::Requested {
            version: crate::mcp::version::REQUESTED.into(),
        });
        let hs = match self.client.initialize().await {
            Ok(hs) => hs,
            Err(e) => {
                return Err(self.fail_pair((Row::Initialize, requested), Row::InitializeResult, e));
            }
        };
        self.done(Row::Initialize, requested);
        self.begin(Row::InitializeResult).await;
        let capabilities = serde_json::to_value(&hs.result.capabilities).unwrap_or(Value::Null);
        self.done(
            Row::InitializeResult,
            Some(Payload::Handshake {
                version: hs.protocol_version.to_owned(),
                server: format!("{} {}", hs.server_name, hs.server_version),
                capabilities,
                session: self.client.transport.session_id(),
            }),
        );

        self.begin(Row::Initialized).await;
        if let Err(e) = self.client.initialized().await {
            return Err(self.fail(Row::Initialized, e.to_string()));
        }
        self.done(Row::Initialized, None);

        self.begin(Row::Ready).await;
        // Ask for the server's log lines, so the tool call can show the server at work.
        let logging = hs.result.capabilities.logging.is_some();
        if logging && let Err(e) = self.client.set_level("info").await {
            return Err(self.fail(Row::Ready, e.to_string()));
        }
        self.done(
            Row::Ready,
            Some(Payload::Logging {
                level: logging.then(|| "info".to_owned()),
            }),
        );

        self.begin(Row::ListToolsAsk).await;
        self.done(Row::ListToolsAsk, None);
        self.begin(Row::ListTools).await;
        let tools = match self.client.list_tools().await {
            Ok(t) => t,
            Err(e) => return Err(self.fail_pair((Row::ListTools, None), Row::ListToolsResult, e)),
        };
        self.done(Row::ListTools, None);
        self.begin(Row::ListToolsResult).await;
        let names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
        self.done(
            Row::ListToolsResult,
            Some(Payload::Tools {
                names: names.clone(),
            }),
        );

        self.begin(Row::ToolsToHost).await;
        let specs: Vec<ToolSpec> = tools.iter().map(ToolSpec::from_mcp).collect();
        self.done(Row::ToolsToHost, Some(Payload::Tools { names }));

        self.begin(Row::ToolsToLlm).await;
        let formatted = self.llm.format_tools(&specs);
        let sent = match &formatted {
            Value::String(text) => text.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        };
        *self.tools.borrow_mut() = specs.clone();
        self.done(
            Row::ToolsToLlm,
            Some(Payload::ToolsForLlm {
                llm: self.llm.label(),
                style: self.llm.style(),
                sent,
                tools: specs,
            }),
        );
        Ok(())
    }

    async fn complete(&self, row: Row, messages: &[ChatMessage]) -> Result<LlmReply, Stopped> {
        let tools = self.tools.borrow().clone();
        let (reply, exchange) = self.llm.complete(messages, &tools).await;
        self.record(RunEvent::Llm(Box::new(exchange)));
        reply.map_err(|e| self.fail(row, format!("LLM error: {e}")))
    }

    fn llm_call(&self) -> Option<Payload> {
        Some(Payload::LlmCall {
            llm: self.llm.label(),
            style: self.llm.style(),
        })
    }

    /// Diagram 2: ask a question, run the tool the model picks, and show the answer.
    pub async fn ask(&self, question: &str) -> Result<String, Stopped> {
        self.begin(Row::Question).await;
        self.done(
            Row::Question,
            Some(Payload::Question {
                text: question.to_owned(),
            }),
        );
        let mut messages = vec![ChatMessage::User(question.to_owned())];

        self.begin(Row::AskLlm).await;
        let reply = self.complete(Row::AskLlm, &messages).await?;
        self.done(Row::AskLlm, self.llm_call());

        self.begin(Row::LlmChoice).await;
        let call = match reply {
            LlmReply::Text(text) => {
                self.done(Row::LlmChoice, Some(Payload::Text { text: text.clone() }));
                self.skip(
                    &[
                        Row::Confirm,
                        Row::Confirmed,
                        Row::CallToolAsk,
                        Row::CallTool,
                        Row::Execute,
                        Row::CallToolResult,
                        Row::ResultToHost,
                        Row::ResultToLlm,
                        Row::LlmAnswer,
                    ],
                    SkipReason::NoToolCall,
                );
                return self.show(text).await;
            }
            LlmReply::ToolCalls(calls) => match calls.into_iter().next() {
                Some(c) => c,
                None => {
                    return Err(self.fail(
                        Row::LlmChoice,
                        "the model asked for an empty list of tool calls".into(),
                    ));
                }
            },
        };
        self.done(Row::LlmChoice, Some(tool_call(&call, 1)));
        // The tool loop (seed 004): rows 4 to 11 run once per round, at most MAX_TOOL_ROUNDS.
        let mut round = 1;
        let mut call = call;
        loop {
            messages.push(ChatMessage::Assistant {
                text: String::new(),
                tool_calls: vec![call.clone()],
            });
            let approved = self.approve(&call, round).await;
            let (content, is_error, structured) = if approved {
                self.call_tool(&call, round).await?
            } else {
                self.skip(
                    &[
                        Row::CallToolAsk,
                        Row::CallTool,
                        Row::Execute,
                        Row::CallToolResult,
                        Row::ResultToHost,
                    ],
                    SkipReason::Declined,
                );
                (
                    format!("The user declined to run the tool '{}'.", call.name),
                    true,
                    None,
                )
            };
            messages.push(ChatMessage::ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content,
                is_error,
                structured,
            });

            self.begin(Row::ResultToLlm).await;
            let reply = self.complete(Row::ResultToLlm, &messages).await?;
            self.done(Row::ResultToLlm, self.llm_call());
            self.begin(Row::LlmAnswer).await;
            match reply {
                LlmReply::Text(text) => {
                    self.done(Row::LlmAnswer, Some(Payload::Text { text: text.clone() }));
                    return self.show(text).await;
                }
                LlmReply::ToolCalls(calls) if round < MAX_TOOL_ROUNDS && !calls.is_empty() => {
                    round += 1;
                    call = calls.into_iter().next().unwrap_or(call);
                    self.done(Row::LlmAnswer, Some(tool_call(&call, round)));
                }
                LlmReply::ToolCalls(calls) => {
                    let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
                    let text = format!(
                        "Stopped after {MAX_TOOL_ROUNDS} tool rounds: the model still asked for {}.",
                        names.join(", ")
                    );
                    self.done(Row::LlmAnswer, Some(Payload::Text { text: text.clone() }));
                    return self.show(text).await;
                }
            }
        }
    }

    async fn show(&self, text: String) -> Result<String, Stopped> {
        self.begin(Row::ShowAnswer).await;
        self.done(
            Row::ShowAnswer,
            Some(Payload::Answer { text: text.clone() }),
        );
        Ok(text)
    }

    /// Rows 4 and 5: ask the user, or skip them when approval is off.
    async fn approve(&self, call: &ToolCall, round: u32) -> bool {
        if self.approval.get() == Approval::Auto {
            self.skip(&[Row::Confirm, Row::Confirmed], SkipReason::ApprovalOff);
            return true;
        }
        self.begin(Row::Confirm).await;
        let (tx, rx) = oneshot::channel();
        *self.decision.borrow_mut() = Some(tx);
        (self.emit)(HostEvent::Approval(Some(ApprovalRequest {
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
        })));
        self.done(Row::Confirm, Some(tool_call(call, round)));
        self.record(RunEvent::Active {
            row: Row::Confirmed,
            at_ms: self.now_ms(),
        });
        let approved = rx.await.unwrap_or(false);
        (self.emit)(HostEvent::Approval(None));
        self.done(Row::Confirmed, Some(Payload::Decision { approved }));
        approved
    }

    /// Rows 6 to 9: the tool call through the MCP client.
    async fn call_tool(
        &self,
        call: &ToolCall,
        round: u32,
    ) -> Result<(String, bool, Option<Value>), Stopped> {
        self.begin(Row::CallToolAsk).await;
        self.done(Row::CallToolAsk, Some(tool_call(call, round)));
        self.begin(Row::CallTool).await;
        let result = match self
            .client
            .call_tool(
                &call.name,
                call.arguments.clone(),
                Some("mcp-flow-progress"),
            )
            .await
        {
            Ok(r) => r,
            Err(e) => {
                let stopped = self.fail_pair((Row::CallTool, None), Row::CallToolResult, e);
                if stopped.row == Row::CallToolResult {
                    // The request went out but no valid result came back.
                    self.skip(&[Row::Execute], SkipReason::NoValidResult);
                }
                return Err(stopped);
            }
        };
        self.done(Row::CallTool, None);
        self.begin(Row::Execute).await;
        self.done(Row::Execute, None);
        self.begin(Row::CallToolResult).await;
        let text = result_text(&result);
        let is_error = result.is_error == Some(true);
        let structured = result.structured_content.clone();
        let payload = Payload::ToolResult {
            text: text.clone(),
            is_error,
            structured: structured.clone(),
        };
        self.done(Row::CallToolResult, Some(payload.clone()));
        self.begin(Row::ResultToHost).await;
        self.done(Row::ResultToHost, Some(payload));
        Ok((text, is_error, structured))
    }
}

fn tool_call(call: &ToolCall, round: u32) -> Payload {
    Payload::ToolCall {
        tool: call.name.clone(),
        arguments: call.arguments.clone(),
        round,
    }
}
