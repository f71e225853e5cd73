//! The host (the seeds' "ClientApp"): performs each diagram row for real, passing the gate first,
//! and reports every step to the run record.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures_channel::oneshot;
use serde_json::Value;

use super::gate::{Gate, Wait};
use super::run::RunEvent;
use crate::clock::now_ms;
use crate::llm::{ChatMessage, Llm, LlmReply, ToolCall, ToolSpec};
use crate::mcp::client::{McpClient, result_text};
use crate::mcp::error::{McpError, TransportError};
use crate::mcp::http::Http;

/// Tool rounds per question before the host stops the loop (seed `004_…`: `MAX_TOOL_CALLS`).
pub const MAX_TOOL_ROUNDS: usize = 3;

/// Whether the host asks the user before running a tool (diagram 2, rows 4 and 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Approval {
    Ask,
    Auto,
}

pub type Emit = Rc<dyn Fn(RunEvent)>;

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
    pub row: String,
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
            listener_emit(RunEvent::Notification(m.clone()))
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
            Wait::Sleep(ms) => self.client.transport.http.sleep(ms).await,
            Wait::UntilNext => {
                let rx = self.gate.arm();
                let _ = rx.await;
            }
        }
    }

    async fn begin(&self, row: &str) {
        self.pass_gate().await;
        (self.emit)(RunEvent::Active {
            row: row.into(),
            at_ms: now_ms(),
        });
    }

    fn done(&self, row: &str, values: Vec<(&str, String)>) {
        (self.emit)(RunEvent::Done {
            row: row.into(),
            at_ms: now_ms(),
            values: values.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
        });
    }

    fn fail(&self, row: &str, error: String) -> Stopped {
        (self.emit)(RunEvent::Failed {
            row: row.into(),
            at_ms: now_ms(),
            error: error.clone(),
        });
        Stopped {
            row: row.into(),
            error,
        }
    }

    fn skip(&self, row: &str, why: &str) {
        (self.emit)(RunEvent::Skipped {
            row: row.into(),
            why: why.into(),
        });
    }

    /// A failed request/response pair: no response at all fails the request row; a response
    /// that was wrong fails the response row.
    fn fail_pair(&self, request_row: &str, response_row: &str, e: McpError) -> Stopped {
        match e {
            McpError::Transport(
                TransportError::Network { .. } | TransportError::Timeout { .. },
            ) => self.fail(request_row, e.to_string()),
            _ => {
                self.done(request_row, vec![]);
                self.fail(response_row, e.to_string())
            }
        }
    }

    /// Diagram 1: connect and discover tools.
    pub async fn discover(&self) -> Result<(), Stopped> {
        self.begin("d1-prep").await;
        let url = self.client.transport.url.clone();
        if let Err(e) = check_server_url(&url) {
            return Err(self.fail("d1-prep", e));
        }
        self.done("d1-prep", vec![("server", url)]);

        self.begin("d1-1").await;
        let hs = match self.client.initialize().await {
            Ok(hs) => hs,
            Err(e) => return Err(self.fail_pair("d1-1", "d1-2", e)),
        };
        self.done(
            "d1-1",
            vec![("requested", crate::mcp::version::REQUESTED.into())],
        );
        self.begin("d1-2").await;
        let capabilities = serde_json::to_value(&hs.result.capabilities).unwrap_or(Value::Null);
        self.done(
            "d1-2",
            vec![
                ("version", hs.protocol_version.to_owned()),
                (
                    "server",
                    format!("{} {}", hs.server_name, hs.server_version),
                ),
                ("capabilities", capabilities.to_string()),
                (
                    "session",
                    self.client
                        .transport
                        .session_id()
                        .unwrap_or_else(|| "(none: stateless)".into()),
                ),
            ],
        );

        self.begin("d1-3").await;
        if let Err(e) = self.client.initialized().await {
            return Err(self.fail("d1-3", e.to_string()));
        }
        self.done("d1-3", vec![]);

        self.begin("d1-ready").await;
        // Ask for the server's log lines, so the tool call can show the server at work.
        let logging = hs.result.capabilities.logging.is_some();
        if logging && let Err(e) = self.client.set_level("info").await {
            return Err(self.fail("d1-ready", e.to_string()));
        }
        self.done(
            "d1-ready",
            vec![(
                "logging",
                if logging {
                    "info".into()
                } else {
                    "not offered".into()
                },
            )],
        );

        self.begin("d1-4").await;
        self.done("d1-4", vec![]);
        self.begin("d1-5").await;
        let tools = match self.client.list_tools().await {
            Ok(t) => t,
            Err(e) => return Err(self.fail_pair("d1-5", "d1-6", e)),
        };
        self.done("d1-5", vec![]);
        self.begin("d1-6").await;
        let names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
        self.done(
            "d1-6",
            vec![
                ("count", tools.len().to_string()),
                ("tools", names.join(", ")),
            ],
        );

        self.begin("d1-7").await;
        let specs: Vec<ToolSpec> = tools.iter().map(ToolSpec::from_mcp).collect();
        self.done("d1-7", vec![("tools", names.join(", "))]);

        self.begin("d1-8").await;
        let formatted = self.llm.format_tools(&specs);
        let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
        // The same tools in every provider's format and the system-prompt style (seeds 001, 004).
        let values = vec![
            ("llm", self.llm.label()),
            ("style", self.llm.style().describe().to_owned()),
            ("payload", pretty(&formatted)),
            ("format:OpenAI", pretty(&crate::llm::openai::tools(&specs))),
            (
                "format:Anthropic",
                pretty(&crate::llm::formats::anthropic(&specs)),
            ),
            (
                "format:Gemini",
                pretty(&crate::llm::formats::gemini(&specs)),
            ),
            (
                "format:system prompt",
                crate::llm::prompt_style::system_prompt(&specs),
            ),
        ];
        *self.tools.borrow_mut() = specs;
        self.done("d1-8", values);
        Ok(())
    }

    async fn complete(&self, row: &str, messages: &[ChatMessage]) -> Result<LlmReply, Stopped> {
        let tools = self.tools.borrow().clone();
        let (reply, exchange) = self.llm.complete(messages, &tools).await;
        (self.emit)(RunEvent::Llm(Box::new(exchange)));
        reply.map_err(|e| self.fail(row, format!("LLM error: {e}")))
    }

    /// Diagram 2: ask a question, run the tool the model picks, and show the answer.
    pub async fn ask(&self, question: &str) -> Result<String, Stopped> {
        self.begin("d2-1").await;
        self.done("d2-1", vec![("question", question.to_owned())]);
        let mut messages = vec![ChatMessage::User(question.to_owned())];

        self.begin("d2-2").await;
        let reply = self.complete("d2-2", &messages).await?;
        self.done(
            "d2-2",
            vec![
                ("llm", self.llm.label()),
                ("style", self.llm.style().describe().to_owned()),
            ],
        );

        self.begin("d2-3").await;
        let call = match reply {
            LlmReply::Text(text) => {
                self.done("d2-3", vec![("text", text.clone())]);
                let why = "the model answered without a tool";
                for row in [
                    "d2-4", "d2-5", "d2-6", "d2-7", "d2-exec", "d2-8", "d2-9", "d2-10", "d2-11",
                ] {
                    self.skip(row, why);
                }
                return self.show(text).await;
            }
            LlmReply::ToolCalls(calls) => match calls.into_iter().next() {
                Some(c) => c,
                None => {
                    return Err(self.fail(
                        "d2-3",
                        "the model asked for an empty list of tool calls".into(),
                    ));
                }
            },
        };
        self.done(
            "d2-3",
            vec![
                ("tool", call.name.clone()),
                ("arguments", call.arguments.to_string()),
            ],
        );
        // The tool loop (seed 004): rows 4 to 11 run once per round, at most MAX_TOOL_ROUNDS.
        let mut round = 1;
        let mut call = call;
        loop {
            messages.push(ChatMessage::Assistant {
                text: String::new(),
                tool_calls: vec![call.clone()],
            });
            let approved = self.approve(&call).await;
            let (content, is_error) = if approved {
                self.call_tool(&call, round).await?
            } else {
                for row in ["d2-6", "d2-7", "d2-exec", "d2-8", "d2-9"] {
                    self.skip(row, "the user declined the tool call");
                }
                (
                    format!("The user declined to run the tool '{}'.", call.name),
                    true,
                )
            };
            messages.push(ChatMessage::ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content,
                is_error,
            });

            self.begin("d2-10").await;
            let reply = self.complete("d2-10", &messages).await?;
            self.done(
                "d2-10",
                vec![("style", self.llm.style().describe().to_owned())],
            );
            self.begin("d2-11").await;
            match reply {
                LlmReply::Text(text) => {
                    self.done("d2-11", vec![("text", text.clone())]);
                    return self.show(text).await;
                }
                LlmReply::ToolCalls(calls) if round < MAX_TOOL_ROUNDS && !calls.is_empty() => {
                    round += 1;
                    call = calls.into_iter().next().unwrap_or(call);
                    self.done(
                        "d2-11",
                        vec![(
                            "next tool call",
                            format!("round {round}: {} {}", call.name, call.arguments),
                        )],
                    );
                }
                LlmReply::ToolCalls(calls) => {
                    let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
                    let text = format!(
                        "Stopped after {MAX_TOOL_ROUNDS} tool rounds: the model still asked for {}.",
                        names.join(", ")
                    );
                    self.done("d2-11", vec![("text", text.clone())]);
                    return self.show(text).await;
                }
            }
        }
    }

    async fn show(&self, text: String) -> Result<String, Stopped> {
        self.begin("d2-12").await;
        (self.emit)(RunEvent::Answer(text.clone()));
        self.done("d2-12", vec![("answer", text.clone())]);
        Ok(text)
    }

    /// Rows 4 and 5: ask the user, or skip them when approval is off.
    async fn approve(&self, call: &ToolCall) -> bool {
        if self.approval.get() == Approval::Auto {
            self.skip("d2-4", "approval is off in settings");
            self.skip("d2-5", "approval is off in settings");
            return true;
        }
        self.begin("d2-4").await;
        let (tx, rx) = oneshot::channel();
        *self.decision.borrow_mut() = Some(tx);
        (self.emit)(RunEvent::ApprovalAsked {
            tool: call.name.clone(),
            arguments: call.arguments.clone(),
        });
        self.done("d2-4", vec![("tool", call.name.clone())]);
        (self.emit)(RunEvent::Active {
            row: "d2-5".into(),
            at_ms: now_ms(),
        });
        let yes = rx.await.unwrap_or(false);
        (self.emit)(RunEvent::ApprovalGiven(yes));
        self.done(
            "d2-5",
            vec![("answer", if yes { "Yes".into() } else { "No".into() })],
        );
        yes
    }

    /// Rows 6 to 9: the tool call through the MCP client.
    async fn call_tool(&self, call: &ToolCall, round: usize) -> Result<(String, bool), Stopped> {
        self.begin("d2-6").await;
        self.done(
            "d2-6",
            vec![
                ("tool", call.name.clone()),
                ("arguments", call.arguments.to_string()),
                ("round", round.to_string()),
            ],
        );
        self.begin("d2-7").await;
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
                let stopped = self.fail_pair("d2-7", "d2-8", e);
                if stopped.row == "d2-8" {
                    // The request went out but no valid result came back.
                    self.skip("d2-exec", "no valid result came back from the server");
                }
                return Err(stopped);
            }
        };
        self.done("d2-7", vec![]);
        self.begin("d2-exec").await;
        self.done("d2-exec", vec![]);
        self.begin("d2-8").await;
        let text = result_text(&result);
        let is_error = result.is_error == Some(true);
        self.done(
            "d2-8",
            vec![
                ("text", text.clone()),
                ("isError", is_error.to_string()),
                (
                    "structured",
                    result
                        .structured_content
                        .as_ref()
                        .map(|v| v.to_string())
                        .unwrap_or_default(),
                ),
            ],
        );
        self.begin("d2-9").await;
        self.done("d2-9", vec![("text", text.clone())]);
        Ok((text, is_error))
    }
}
