//! The conformance suite's tasks fixtures (feature `conformance-fixtures`): the tools its tasks
//! extension scenarios (SEP-2663, `io.modelcontextprotocol/tasks`) call by name. Tasks live in the
//! server's shared [`TaskManager`] (rmcp's: `tasks/get`, `tasks/update`, `tasks/cancel`); a tool
//! becomes a task only for a request that declared the extension.

use std::time::Duration;

use rmcp::{
    ErrorData as McpError, RoleServer,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock,
        CreateTaskResult, Tool,
    },
    service::RequestContext,
    task_manager::{TaskContext, TaskExit, TaskFuture, TaskManager, TaskOptions},
};
use serde_json::Value;

use crate::conformance::kit::{ask_field, elicited, input_required, one};

const GREET: &str = "greet";
const SLOW: &str = "slow_compute";
const FAILING: &str = "failing_job";
const PROTOCOL_ERROR: &str = "protocol_error_job";
const CONFIRM: &str = "confirm_delete";
const MULTI: &str = "multi_input";
const WITH_TASK: &str = "test_tool_with_task";

pub const TOOLS: [(&str, &str); 7] = [
    (GREET, "Conformance diagnostic: greets {name}, never a task"),
    (
        SLOW,
        "Conformance diagnostic: waits {seconds}, a task when the client takes tasks",
    ),
    (
        FAILING,
        "Conformance diagnostic: a task only; its result is isError",
    ),
    (
        PROTOCOL_ERROR,
        "Conformance diagnostic: a task that fails with a protocol error",
    ),
    (
        CONFIRM,
        "Conformance diagnostic: a task that asks to confirm deleting {filename}",
    ),
    (
        MULTI,
        "Conformance diagnostic: a task that asks two questions at once",
    ),
    (
        WITH_TASK,
        "Conformance diagnostic: asks a name (input_required), then runs as a task",
    ),
];

/// Seconds a fixture may be asked to wait, at most (the suite asks 0 to 60).
const MAX_SECONDS: u64 = 120;

pub fn tools() -> Vec<Tool> {
    crate::conformance::kit::no_argument_tools(&TOOLS)
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

fn argument<'a>(request: &'a CallToolRequestParams, name: &str) -> Option<&'a Value> {
    request.arguments.as_ref().and_then(|a| a.get(name))
}

/// Spawns `work` as a task and answers with its `CreateTaskResult`.
fn spawn(
    tasks: &TaskManager,
    work: impl FnOnce(TaskContext) -> TaskFuture,
) -> Result<CallToolResponse, McpError> {
    let task = tasks.spawn(TaskOptions::new().with_poll_interval_ms(200), work);
    Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
}

/// Waits `seconds`, or stops when the task is cancelled.
async fn wait(context: &TaskContext, seconds: u64) -> Result<(), TaskExit> {
    tokio::select! {
        _ = context.cancelled() => Err(TaskExit::Cancelled),
        _ = tokio::time::sleep(Duration::from_secs(seconds)) => Ok(()),
    }
}

/// An answer `tasks/update` delivered: the value of `field` when accepted.
fn answered(key: &str, value: &Value, field: &str) -> Result<String, TaskExit> {
    Ok(elicited(key, value, field)?.unwrap_or_else(|| "declined".into()))
}

/// A call of one of these tools; `None` for another name.
pub fn call_tool(
    tasks: &TaskManager,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResponse, McpError>> {
    let takes_tasks = context
        .client_capabilities()
        .is_some_and(|caps| caps.supports_tasks());
    let outcome = match request.name.as_ref() {
        GREET => {
            let name = argument(request, "name")
                .and_then(Value::as_str)
                .unwrap_or("World");
            Ok(text(format!(
                "Hello, {}!",
                crate::handlers::cities::clip(name, 100)
            ))
            .into())
        }
        SLOW => {
            let seconds = argument(request, "seconds")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .min(MAX_SECONDS);
            let label = argument(request, "label")
                .and_then(Value::as_str)
                .map(|l| crate::handlers::cities::clip(l, 100))
                .unwrap_or_default();
            if !takes_tasks {
                // Without the extension the call is synchronous; only a short wait is honoured.
                return Some(Ok(
                    text(format!("{label}: done after {}s", seconds.min(1))).into()
                ));
            }
            spawn(tasks, move |ctx| {
                Box::pin(async move {
                    wait(&ctx, seconds).await?;
                    Ok(text(format!("{label}: done after {seconds}s")))
                })
            })
        }
        FAILING if !takes_tasks => Err(McpError::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        )),
        FAILING => spawn(tasks, |ctx| {
            Box::pin(async move {
                wait(&ctx, 1).await?;
                Ok(CallToolResult::error(vec![ContentBlock::text(
                    "The job failed, as it always does",
                )]))
            })
        }),
        PROTOCOL_ERROR => spawn(tasks, |ctx| {
            Box::pin(async move {
                wait(&ctx, 0).await?;
                Err(TaskExit::Error(McpError::internal_error(
                    "The job hit a protocol error, as it always does",
                    None,
                )))
            })
        }),
        CONFIRM => {
            let file = argument(request, "filename")
                .and_then(Value::as_str)
                .map(|f| crate::handlers::cities::clip(f, 100))
                .unwrap_or_default();
            spawn(tasks, move |ctx| {
                Box::pin(async move {
                    let ask = ask_field(&format!("Delete {file}?"), "confirm", "boolean")?;
                    let answer = ctx.request_input("confirm", ask).await?;
                    let yes = answered("confirm", &answer, "confirm")?;
                    Ok(text(format!("{file}: confirm={yes}")))
                })
            })
        }
        MULTI => spawn(tasks, |ctx| {
            Box::pin(async move {
                let first = ask_field("First name?", "name", "string")?;
                let second = ask_field("Second name?", "name", "string")?;
                let (a, b) = tokio::join!(
                    ctx.request_input("first", first),
                    ctx.request_input("second", second)
                );
                let (a, b) = (a?, b?);
                Ok(text(format!(
                    "{} and {}",
                    answered("first", &a, "name")?,
                    answered("second", &b, "name")?
                )))
            })
        }),
        WITH_TASK => with_task(tasks, request),
        _ => return None,
    };
    Some(outcome)
}

/// Round 1 asks a name through `input_required`; round 2 (with the answer) runs as a task.
fn with_task(
    tasks: &TaskManager,
    request: &CallToolRequestParams,
) -> Result<CallToolResponse, McpError> {
    let Some(answer) = request.input_responses.as_ref().and_then(|r| r.get("name")) else {
        return Ok(input_required(
            one("name", ask_field("What is your name?", "name", "string")?),
            None,
        ));
    };
    let name = elicited("name", answer, "name")?.unwrap_or_else(|| "nobody".into());
    let name = crate::handlers::cities::clip(&name, 100);
    spawn(tasks, move |ctx| {
        Box::pin(async move {
            wait(&ctx, 0).await?;
            Ok(text(format!("Hello, {name}, from a task")))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_tool_names_are_the_suites() {
        let names: Vec<String> = tools().into_iter().map(|t| t.name.to_string()).collect();
        for name in [
            "greet",
            "slow_compute",
            "failing_job",
            "protocol_error_job",
            "confirm_delete",
            "multi_input",
            "test_tool_with_task",
        ] {
            assert!(names.iter().any(|n| n == name), "{name}");
        }
        assert_eq!(json!(names.len()), json!(TOOLS.len()));
    }
}
