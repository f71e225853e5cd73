//! A tool call followed as a task, in either era's wire protocol (they differ):
//! - 2025-11-25 (experimental tasks): the server declares `capabilities.tasks.requests.tools.call`
//!   and marks tools with `execution.taskSupport`; the client adds `params.task` to `tools/call`,
//!   gets `{task: {…}}`, polls `tasks/get`, then fetches the tool's result with `tasks/result`.
//! - 2026-07-28 (the `io.modelcontextprotocol/tasks` extension, SEP-2663): the server declares the
//!   extension; the client declares it in the request's capabilities and the server decides per
//!   call whether to answer with a task (`resultType: "task"`); `tasks/get` (its `Mcp-Name` is
//!   the task id) carries the result once the task completed.

use serde_json::{Map, Value, json};

use crate::client::McpClient;
use crate::era::Era;
use crate::error::McpError;
use crate::http::Http;

/// The tasks extension's identifier (2026-07-28).
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// How long a 2025-11-25 task should be kept after it is created (`params.task.ttl`).
pub const REQUESTED_TTL_MS: u64 = 60_000;

/// The poll interval used when the server suggests none, and the bounds put on one it suggests.
pub const DEFAULT_POLL_MS: u64 = 1_000;
pub const MIN_POLL_MS: u64 = 100;
pub const MAX_POLL_MS: u64 = 5_000;

/// A task as one answer showed it.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskState {
    pub id: String,
    /// `working`, `input_required`, `completed`, `failed` or `cancelled`.
    pub status: String,
    pub message: Option<String>,
    /// The server's suggested poll interval (`pollIntervalMs`, or 2025-11-25's `pollInterval`).
    pub poll_ms: Option<u64>,
    /// The tool's result, when a 2026-07-28 `tasks/get` carried it.
    pub result: Option<Value>,
    /// The JSON-RPC error of a failed 2026-07-28 task.
    pub error: Option<Value>,
}

impl TaskState {
    /// The task in an answer to `tools/call`: 2026-07-28's `resultType: "task"` with the task's
    /// fields beside it, or 2025-11-25's `{task: {…}}`. `None` for a plain result.
    pub fn created(answer: &Value) -> Option<TaskState> {
        if answer.get("resultType").and_then(Value::as_str) == Some("task") {
            return Self::read(answer);
        }
        answer.get("task").and_then(Self::read)
    }

    /// The task in an answer to `tasks/get` (both eras put its fields at the top).
    pub fn polled(answer: &Value) -> Option<TaskState> {
        Self::read(answer)
    }

    fn read(task: &Value) -> Option<TaskState> {
        let text = |k: &str| task.get(k).and_then(Value::as_str).map(str::to_owned);
        Some(TaskState {
            id: text("taskId")?,
            status: text("status")?,
            message: text("statusMessage"),
            poll_ms: task
                .get("pollIntervalMs")
                .or_else(|| task.get("pollInterval"))
                .and_then(Value::as_u64),
            result: task.get("result").cloned(),
            error: task.get("error").cloned(),
        })
    }

    /// `completed`, `failed` or `cancelled`: the task will not change again.
    pub fn is_terminal(&self) -> bool {
        matches!(self.status.as_str(), "completed" | "failed" | "cancelled")
    }

    /// How long to wait before the next poll: the server's hint, kept within bounds.
    pub fn next_poll_ms(&self) -> u64 {
        self.poll_ms
            .unwrap_or(DEFAULT_POLL_MS)
            .clamp(MIN_POLL_MS, MAX_POLL_MS)
    }
}

/// Whether the server takes tool calls as tasks in `era` (from its capabilities).
pub fn offered(capabilities: &Value, era: Era) -> bool {
    match era {
        Era::Modern => capabilities
            .get("extensions")
            .and_then(|e| e.get(EXTENSION))
            .is_some(),
        Era::Legacy => capabilities.pointer("/tasks/requests/tools/call").is_some(),
    }
}

/// The names of a `tools/list` page's tools whose `execution.taskSupport` is `optional` or
/// `required`.
pub fn task_tools(page: &Value) -> Vec<String> {
    let tools = page.get("tools").and_then(Value::as_array);
    tools
        .into_iter()
        .flatten()
        .filter(|t| {
            matches!(
                t.pointer("/execution/taskSupport").and_then(Value::as_str),
                Some("optional" | "required")
            )
        })
        .filter_map(|t| t.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

/// The city every sample argument names (the page's running example).
pub const SAMPLE_TEXT: &str = "Tokyo";

/// Arguments for a call nobody typed: each required property a sample of its type (a string
/// [`SAMPLE_TEXT`] or its first `enum` value, a number its `minimum` or 1, a boolean `false`).
pub fn sample_arguments(schema: &Value) -> Value {
    let required = schema.get("required").and_then(Value::as_array);
    let properties = schema.get("properties");
    let mut arguments = Map::new();
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let property = properties.and_then(|p| p.get(name)).unwrap_or(&Value::Null);
        let first_enum = property
            .get("enum")
            .and_then(Value::as_array)
            .and_then(|e| e.first());
        let value = match (first_enum, property.get("type").and_then(Value::as_str)) {
            (Some(value), _) => value.clone(),
            (None, Some("integer" | "number")) => {
                property.get("minimum").cloned().unwrap_or_else(|| json!(1))
            }
            (None, Some("boolean")) => json!(false),
            (None, Some("array")) => json!([]),
            (None, Some("object")) => json!({}),
            _ => json!(SAMPLE_TEXT),
        };
        arguments.insert(name.to_owned(), value);
    }
    Value::Object(arguments)
}

/// The request `_meta` of a 2026-07-28 client that takes tasks: its capabilities with the
/// extension declared (merged over the client's own `_meta` by [`modern::with_meta`]).
fn taking_tasks(capabilities: rmcp::model::ClientCapabilities) -> Value {
    let mut capabilities = serde_json::to_value(capabilities).unwrap_or_default();
    if let Some(map) = capabilities.as_object_mut() {
        let extensions = map.entry("extensions").or_insert_with(|| json!({}));
        if let Some(extensions) = extensions.as_object_mut() {
            extensions.insert(EXTENSION.into(), json!({}));
        }
    }
    json!({ mcp_flow_wire::META_CLIENT_CAPABILITIES: capabilities })
}

impl<H: Http> McpClient<H> {
    /// `tools/call` of `name` asking for a task, as the server answered it (a task or, when the
    /// server chose to answer at once, the result).
    pub async fn call_as_task(&self, name: &str, arguments: Value) -> Result<Value, McpError> {
        let mut params = json!({ "name": name, "arguments": arguments });
        match self.era() {
            Era::Modern => params["_meta"] = taking_tasks(self.capabilities()),
            Era::Legacy => params["task"] = json!({ "ttl": REQUESTED_TTL_MS }),
        }
        self.request_named("tools/call", params).await
    }

    /// `tasks/get` of task `id`.
    pub async fn get_task(&self, id: &str) -> Result<Value, McpError> {
        let mut params = json!({ "taskId": id });
        if self.era() == Era::Modern {
            params["_meta"] = taking_tasks(self.capabilities());
        }
        self.request_named("tasks/get", params).await
    }

    /// `tasks/cancel` of task `id` (both eras have it), for a task the host stops following.
    pub async fn cancel_task(&self, id: &str) -> Result<Value, McpError> {
        let mut params = json!({ "taskId": id });
        if self.era() == Era::Modern {
            params["_meta"] = taking_tasks(self.capabilities());
        }
        self.request_named("tasks/cancel", params).await
    }

    /// 2025-11-25's `tasks/result` of task `id`: the tool's result.
    pub async fn task_result(&self, id: &str) -> Result<Value, McpError> {
        self.request_named("tasks/result", json!({ "taskId": id }))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_eras_task_is_read_from_its_own_shape() {
        let modern = json!({"resultType": "task", "taskId": "t1", "status": "working",
            "pollIntervalMs": 500, "createdAt": "x", "lastUpdatedAt": "x", "ttlMs": null});
        let legacy = json!({"task": {"taskId": "t2", "status": "working", "pollInterval": 1000,
            "statusMessage": "Gathering sources...", "ttl": 300000}});
        let a = TaskState::created(&modern).expect("modern");
        assert_eq!((a.id.as_str(), a.poll_ms), ("t1", Some(500)));
        let b = TaskState::created(&legacy).expect("legacy");
        assert_eq!((b.id.as_str(), b.poll_ms), ("t2", Some(1000)));
        assert_eq!(b.message.as_deref(), Some("Gathering sources..."));
        assert!(!b.is_terminal());
        let plain = json!({"resultType": "complete", "content": []});
        assert_eq!(
            TaskState::created(&plain),
            None,
            "a plain result is no task"
        );

        let done = json!({"taskId": "t1", "status": "completed", "result": {"content": []}});
        let done = TaskState::polled(&done).expect("polled");
        assert!(done.is_terminal());
        assert_eq!(done.result, Some(json!({"content": []})));
    }

    #[test]
    fn the_poll_interval_is_the_servers_within_bounds() {
        let at = |ms: Option<u64>| TaskState {
            id: "t".into(),
            status: "working".into(),
            message: None,
            poll_ms: ms,
            result: None,
            error: None,
        };
        assert_eq!(at(None).next_poll_ms(), DEFAULT_POLL_MS);
        assert_eq!(at(Some(0)).next_poll_ms(), MIN_POLL_MS);
        assert_eq!(at(Some(500)).next_poll_ms(), 500);
        assert_eq!(at(Some(600_000)).next_poll_ms(), MAX_POLL_MS);
    }

    #[test]
    fn tasks_are_offered_by_each_eras_capability() {
        let modern = json!({"extensions": {EXTENSION: {}}, "tools": {}});
        let legacy = json!({"tasks": {"requests": {"tools": {"call": {}}}}});
        assert!(offered(&modern, Era::Modern));
        assert!(
            !offered(&modern, Era::Legacy),
            "the extension is not 2025-11-25's tasks"
        );
        assert!(offered(&legacy, Era::Legacy));
        assert!(!offered(&legacy, Era::Modern));
        assert!(!offered(&json!({"tasks": {"list": {}}}), Era::Legacy));
    }

    #[test]
    fn sample_arguments_fill_only_what_is_required() {
        let schema = json!({"type": "object", "required": ["location", "n", "flag", "unit"],
            "properties": {"location": {"type": "string"}, "n": {"type": "integer", "minimum": 2},
            "flag": {"type": "boolean"}, "unit": {"type": "string", "enum": ["c", "f"]},
            "days": {"type": "integer"}}});
        assert_eq!(
            sample_arguments(&schema),
            json!({"location": "Tokyo", "n": 2, "flag": false, "unit": "c"})
        );
        assert_eq!(sample_arguments(&json!({"type": "object"})), json!({}));
    }
}
