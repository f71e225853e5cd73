//! The browse diagram's last part: a tool called as a task and followed to its end, in the
//! connection's era (the wire protocols differ: see `mcp_flow_client::tasks`). The tool is one the
//! server says is harmless (read-only or not destructive) and marked for tasks, or in 2026-07-28
//! the last harmless one it listed; its required arguments are samples
//! ([`tasks::sample_arguments`]). A task the host stops following is cancelled.

use rmcp::model::CallToolResult;
use serde_json::Value;

use super::host::{Host, Stopped};
use crate::diagram::Row;
use crate::llm::{Llm, ToolSpec};
use crate::record::payload::{Payload, SkipReason};
use mcp_flow_client::era::Era;
use mcp_flow_client::http::Http;
use mcp_flow_client::tasks::{self, TaskState};
use mcp_flow_client::tools::result_text;

/// The task's rows, in order.
pub const TASK_ROWS: [Row; 6] = [
    Row::TaskCall,
    Row::TaskCreated,
    Row::TaskPoll,
    Row::TaskStatus,
    Row::TaskResult,
    Row::TaskResultAnswer,
];

/// How long the host follows a task before it stops waiting (on the run's clock).
pub const TASK_WAIT_MS: u32 = 120_000;

fn task_payload(task: &TaskState, polls: u32) -> Payload {
    Payload::Task {
        id: task.id.clone(),
        status: task.status.clone(),
        message: task.message.clone(),
        poll_ms: task.poll_ms,
        polls,
    }
}

/// A tool's result read from an answer, or why it is not one.
fn tool_result(result: &Value) -> Result<CallToolResult, String> {
    serde_json::from_value(result.clone())
        .map_err(|e| format!("the task's result is not a tool result: {e}"))
}

/// Why a task failed: its status message, else its JSON-RPC error's message.
fn failure(task: &TaskState) -> String {
    task.message
        .clone()
        .or_else(|| {
            let error = task.error.as_ref()?;
            error
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .unwrap_or_default()
}

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// Rows 22 to 27; what the host will show is pushed onto `shown`.
    pub(super) async fn follow_task(&self, shown: &mut Vec<String>) -> Result<(), Stopped> {
        let era = self.client.era();
        if !tasks::offered(&self.capabilities.borrow(), era) {
            self.skip(&TASK_ROWS, SkipReason::NotOffered);
            return Ok(());
        }
        let tool = {
            let tools = self.tools.borrow();
            pick(&tools, &self.task_tools.borrow(), era).cloned()
        };
        let Some(tool) = tool else {
            self.skip(&TASK_ROWS, SkipReason::NoHarmlessTool);
            return Ok(());
        };
        let arguments = tasks::sample_arguments(&tool.input_schema);
        let sent = Payload::Target {
            target: tool.name.clone(),
            arguments: Some(arguments.clone()),
        };
        let request = self.client.call_as_task(&tool.name, arguments);
        let pair = (Row::TaskCall, Row::TaskCreated);
        let Some(answer) = self
            .exchange(pair, Some(sent), &TASK_ROWS[2..], request)
            .await?
        else {
            return Ok(());
        };
        let Some(task) = TaskState::created(&answer) else {
            self.skip(&TASK_ROWS[1..], SkipReason::NoTask);
            let text = tool_result(&answer).map_or_else(|e| e, |r| result_text(&r));
            shown.push(format!("called {} (no task): {text}", tool.name));
            return Ok(());
        };
        self.done(Row::TaskCreated, Some(task_payload(&task, 0)));
        let (task, polls) = self.poll(task).await?;
        self.begin(Row::TaskStatus).await;
        self.done(Row::TaskStatus, Some(task_payload(&task, polls)));
        let result = match (era, task.status.as_str()) {
            (_, "failed" | "cancelled") => {
                self.skip(&TASK_ROWS[4..], SkipReason::NoTaskResult);
                let why = failure(&task);
                shown.push(format!(
                    "task {} of {} {}: {why}",
                    task.id, tool.name, task.status
                ));
                return Ok(());
            }
            (Era::Modern, _) => {
                self.skip(&[Row::TaskResult], SkipReason::ResultWithStatus);
                self.begin(Row::TaskResultAnswer).await;
                task.result.clone().unwrap_or(Value::Null)
            }
            (Era::Legacy, _) => {
                let sent = Payload::Target {
                    target: task.id.clone(),
                    arguments: None,
                };
                let request = self.client.task_result(&task.id);
                let pair = (Row::TaskResult, Row::TaskResultAnswer);
                match self.exchange(pair, Some(sent), &[], request).await? {
                    Some(result) => result,
                    None => return Ok(()),
                }
            }
        };
        match tool_result(&result) {
            Ok(result) => {
                let payload = self.result_payload(&tool.name, &result).await;
                self.done(Row::TaskResultAnswer, Some(payload));
                let text = result_text(&result);
                shown.push(format!("task {} of {}: {text}", task.id, tool.name));
                Ok(())
            }
            Err(why) => Err(self.fail(Row::TaskResultAnswer, why)),
        }
    }

    /// `tasks/get` every poll interval until the task ends (or [`TASK_WAIT_MS`] passed): the
    /// task as last seen and the number of polls.
    async fn poll(&self, mut task: TaskState) -> Result<(TaskState, u32), Stopped> {
        self.begin(Row::TaskPoll).await;
        let deadline = self.steps.now_ms() + f64::from(TASK_WAIT_MS);
        let mut polls = 0;
        while !task.is_terminal() {
            let stop = if task.status == "input_required" {
                Some(format!(
                    "task {} asks for input (input_required): this diagram does not answer a \
                     task's questions (tasks/update); cancelled it",
                    task.id
                ))
            } else if self.steps.now_ms() >= deadline {
                Some(format!(
                    "task {} was still {} after {} s: stopped following it and cancelled it",
                    task.id,
                    task.status,
                    TASK_WAIT_MS / 1000
                ))
            } else {
                None
            };
            if let Some(why) = stop {
                // Best effort: the server may have ended the task meanwhile.
                let _ = self.client.cancel_task(&task.id).await;
                return Err(self.fail(Row::TaskPoll, why));
            }
            let wait = u32::try_from(task.next_poll_ms()).unwrap_or(u32::MAX);
            self.steps.clock.sleep(wait).await;
            polls += 1;
            let sent = Some(task_payload(&task, polls));
            let answer = match self.client.get_task(&task.id).await {
                Ok(answer) => answer,
                Err(e) => return Err(self.fail_pair((Row::TaskPoll, sent), Row::TaskStatus, e)),
            };
            task = match TaskState::polled(&answer) {
                Some(next) => next,
                None => {
                    return Err(self.fail_pair(
                        (Row::TaskPoll, sent),
                        Row::TaskStatus,
                        mcp_flow_client::error::McpError::Invalid(format!(
                            "tasks/get answered no task (taskId and status): {answer}"
                        )),
                    ));
                }
            };
        }
        self.done(Row::TaskPoll, Some(task_payload(&task, polls)));
        Ok((task, polls))
    }
}

/// Whether the server says calling `tool` changes nothing, or nothing irreversibly (its
/// `readOnlyHint` or `destructiveHint: false`): the only tools the host calls unasked.
pub fn harmless(tool: &ToolSpec) -> bool {
    tool.badges
        .iter()
        .any(|b| b == crate::llm::READ_ONLY || b == crate::llm::NOT_DESTRUCTIVE)
}

/// The tool to follow as a task, among the harmless ones: the first one marked for tasks; in
/// 2026-07-28, where the server decides per call and tools carry no such mark, the last listed.
pub fn pick<'a>(tools: &'a [ToolSpec], marked: &[String], era: Era) -> Option<&'a ToolSpec> {
    let mut harmless = tools.iter().filter(|t| harmless(t));
    let first_marked = harmless.clone().find(|t| marked.contains(&t.name));
    match era {
        Era::Legacy => first_marked,
        Era::Modern => first_marked.or(harmless.next_back()),
    }
}
