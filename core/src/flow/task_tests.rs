//! Tasks on the diagram "Resources, prompts, completion and tasks" against a scripted server:
//! a modern task polled until `tasks/get` carries its result, a legacy one asking `tasks/result`,
//! calls answered at once, failed tasks, input asked of a task, and tools not called as a task.

use serde_json::{Value, json};

use super::browse_tests::{connected_then_browse, fixture, payload, reply, sent_after};
use super::task::{TASK_ROWS, pick};
use crate::diagram::Row;
use crate::llm::ToolSpec;
use crate::record::payload::{Payload, SkipReason};
use crate::record::run::RowStatus;
use mcp_flow_client::era::Era;
use mcp_flow_client::era::EraChoice;
use mcp_flow_client::http::HttpRequest;
use mcp_flow_client::scripted::*;
use mcp_flow_client::tasks::task_tools;

/// A server offering tools and tasks only, connected in `era` with `tools` listed.
fn task_server(era: EraChoice, tools: Value) -> Vec<Script> {
    match era {
        EraChoice::Legacy => vec![
            reply(json!({"protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}},
                "serverInfo": {"name": "everything", "version": "1"}})),
            status(202, "", ""),
            reply(json!({"tools": tools})),
        ],
        _ => vec![
            reply(
                json!({"resultType": "complete", "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}}}),
            ),
            reply(json!({"resultType": "complete", "tools": tools})),
        ],
    }
}

/// A tool with one required string argument, which the server says is read-only.
fn tool(name: &str, required: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object", "required": [required],
        "properties": {required: {"type": "string"}, "days": {"type": "integer"}}},
        "annotations": {"readOnlyHint": true}})
}

fn header<'a>(request: &'a HttpRequest, name: &str) -> Option<&'a str> {
    request
        .headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

#[test]
fn a_modern_task_is_polled_until_tasks_get_carries_its_result() {
    let mut script = task_server(
        EraChoice::Modern,
        json!([
            tool("get_weather", "location"),
            tool("get_forecast", "location")
        ]),
    );
    let task = |status: &str, message: &str| {
        json!({"resultType": "complete", "taskId": "t-1", "status": status,
            "statusMessage": message, "pollIntervalMs": 500,
            "createdAt": "2026-12-03T00:00:00Z", "lastUpdatedAt": "2026-12-03T00:00:00Z",
            "ttlMs": 300000})
    };
    let mut created = task("working", "Forecast for Tokyo queued");
    created["resultType"] = json!("task");
    let mut done = task("completed", "Forecasting day 3 of 3 for Tokyo");
    done["result"] = json!({"content": [{"type": "text", "text": "Tokyo\nDay 1: Sunny"}]});
    script.extend([
        reply(created),
        reply(task("working", "Forecasting day 2 of 3 for Tokyo")),
        reply(done),
    ]);
    let (host, http, run) = fixture(script, EraChoice::Modern);
    let shown = connected_then_browse(&host).expect("browsed");
    assert_eq!(shown, "task t-1 of get_forecast: Tokyo\nDay 1: Sunny");

    let sent = sent_after(&http, 2);
    let methods: Vec<&str> = sent.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(methods, ["tools/call", "tasks/get", "tasks/get"]);
    let call = &sent[0].1;
    assert_eq!(call["name"], "get_forecast", "the last tool listed");
    assert_eq!(call["arguments"], json!({"location": "Tokyo"}));
    let caps = &call["_meta"]["io.modelcontextprotocol/clientCapabilities"];
    assert!(
        caps["extensions"]["io.modelcontextprotocol/tasks"].is_object(),
        "{call}"
    );
    assert!(
        caps["elicitation"].is_object(),
        "the client's own capabilities stay"
    );
    assert_eq!(sent[1].1["taskId"], "t-1");
    let requests = http.sent.borrow();
    assert_eq!(header(&requests[3], "mcp-name"), Some("t-1"));
    assert_eq!(header(&requests[3], "mcp-method"), Some("tasks/get"));
    drop(requests);
    let sleeps = http.sleeps.borrow();
    assert_eq!(
        sleeps[sleeps.len() - 2..],
        [500, 500],
        "the server's poll interval"
    );
    drop(sleeps);

    let run = run.borrow();
    for row in [
        Row::TaskCall,
        Row::TaskCreated,
        Row::TaskPoll,
        Row::TaskStatus,
    ] {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    assert_eq!(
        run.row(Row::TaskPoll).map(|r| r.mcp.len()),
        Some(2),
        "two polls"
    );
    assert_eq!(
        run.row(Row::TaskResult).map(|r| (r.status, r.skipped)),
        Some((RowStatus::Skipped, Some(SkipReason::ResultWithStatus)))
    );
    match payload(&run, Row::TaskStatus) {
        Payload::Task {
            status,
            polls,
            message,
            ..
        } => {
            assert_eq!((status.as_str(), polls), ("completed", 2));
            assert_eq!(message.as_deref(), Some("Forecasting day 3 of 3 for Tokyo"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        payload(&run, Row::TaskResultAnswer),
        Payload::ToolResult {
            is_error: false,
            ..
        }
    ));
}

#[test]
fn a_legacy_task_asks_for_its_result_with_tasks_result() {
    let mut research = tool("research", "topic");
    research["execution"] = json!({"taskSupport": "required"});
    let mut script = task_server(
        EraChoice::Legacy,
        json!([tool("echo", "message"), research]),
    );
    script.extend([
        reply(
            json!({"task": {"taskId": "r-9", "status": "working", "pollInterval": 1000,
            "ttl": 300000, "createdAt": "x", "lastUpdatedAt": "x"}}),
        ),
        reply(
            json!({"taskId": "r-9", "status": "completed", "pollInterval": 1000,
            "ttl": 300000, "createdAt": "x", "lastUpdatedAt": "x"}),
        ),
        reply(json!({"content": [{"type": "text", "text": "# Research Report: Tokyo"}]})),
    ]);
    let (host, http, run) = fixture(script, EraChoice::Legacy);
    let shown = connected_then_browse(&host).expect("browsed");
    assert_eq!(shown, "task r-9 of research: # Research Report: Tokyo");
    let sent = sent_after(&http, 3);
    let methods: Vec<&str> = sent.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(methods, ["tools/call", "tasks/get", "tasks/result"]);
    assert_eq!(
        sent[0].1,
        json!({"name": "research", "arguments": {"topic": "Tokyo"}, "task": {"ttl": 60000}}),
        "the tool marked for tasks, its required argument a sample"
    );
    assert_eq!(sent[2].1, json!({"taskId": "r-9"}));
    let run = run.borrow();
    for row in TASK_ROWS {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    assert_eq!(run.row(Row::TaskResult).map(|r| r.mcp.len()), Some(1));
}

#[test]
fn a_call_answered_at_once_or_a_failed_task_skips_what_it_did_not_give() {
    let mut at_once = task_server(EraChoice::Modern, json!([tool("get_forecast", "location")]));
    at_once.push(reply(json!({"resultType": "complete",
        "content": [{"type": "text", "text": "now"}]})));
    let (host, _, run) = fixture(at_once, EraChoice::Modern);
    let shown = connected_then_browse(&host).expect("browsed");
    assert_eq!(shown, "called get_forecast (no task): now");
    let run = run.borrow();
    assert_eq!(run.status(Row::TaskCall), RowStatus::Done);
    for row in &TASK_ROWS[1..] {
        assert_eq!(
            run.row(*row).and_then(|r| r.skipped),
            Some(SkipReason::NoTask),
            "{row}"
        );
    }
    drop(run);

    let mut failing = task_server(EraChoice::Modern, json!([tool("get_forecast", "location")]));
    failing.extend([
        reply(json!({"resultType": "task", "taskId": "t-2", "status": "working"})),
        // No status message: the error's message says why.
        reply(json!({"taskId": "t-2", "status": "failed",
            "error": {"code": -32603, "message": "no data"}})),
    ]);
    let (host, _, run) = fixture(failing, EraChoice::Modern);
    let shown = connected_then_browse(&host).expect("browsed");
    assert_eq!(shown, "task t-2 of get_forecast failed: no data");
    let run = run.borrow();
    assert_eq!(run.status(Row::TaskStatus), RowStatus::Done);
    for row in [Row::TaskResult, Row::TaskResultAnswer] {
        assert_eq!(
            run.row(row).and_then(|r| r.skipped),
            Some(SkipReason::NoTaskResult),
            "{row}"
        );
    }
}

#[test]
fn a_task_that_asks_for_input_fails_its_poll_row_with_why() {
    let mut script = task_server(EraChoice::Modern, json!([tool("get_forecast", "location")]));
    script.extend([
        reply(json!({"resultType": "task", "taskId": "t-3", "status": "working"})),
        reply(json!({"taskId": "t-3", "status": "input_required", "inputRequests": {}})),
        reply(json!({"resultType": "complete"})),
    ]);
    let (host, http, run) = fixture(script, EraChoice::Modern);
    let stopped = connected_then_browse(&host).expect_err("stopped");
    let sent = sent_after(&http, 2);
    let last = sent.last().expect("requests");
    assert_eq!(
        (last.0.as_str(), &last.1["taskId"]),
        ("tasks/cancel", &json!("t-3")),
        "the task the host stops following is cancelled"
    );
    assert_eq!(stopped.row, Row::TaskPoll);
    assert!(
        stopped.error.contains("input_required"),
        "{}",
        stopped.error
    );
    assert_eq!(run.borrow().status(Row::ShowBrowsed), RowStatus::Pending);
}

#[test]
fn a_tool_the_server_does_not_call_harmless_is_not_called_as_a_task() {
    let mut risky = tool("delete_all", "path");
    risky["annotations"] = json!({"destructiveHint": true});
    let script = task_server(EraChoice::Modern, json!([risky]));
    let (host, http, run) = fixture(script, EraChoice::Modern);
    connected_then_browse(&host).expect("browsed");
    assert!(sent_after(&http, 2).is_empty(), "nothing called");
    let run = run.borrow();
    for row in TASK_ROWS {
        let why = run.row(row).and_then(|r| r.skipped);
        assert_eq!(why, Some(SkipReason::NoHarmlessTool), "{row}");
    }
}

fn spec(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: String::new(),
        input_schema: json!({"type": "object"}),
        badges: vec![crate::llm::NOT_DESTRUCTIVE.into()],
    }
}

#[test]
fn the_tool_is_the_one_marked_for_tasks_or_in_2026_07_28_the_last() {
    let page = json!({"tools": [
        {"name": "echo"},
        {"name": "research", "execution": {"taskSupport": "required"}},
        {"name": "never", "execution": {"taskSupport": "forbidden"}},
    ]});
    let marked = task_tools(&page);
    assert_eq!(marked, ["research"]);
    let tools = [spec("echo"), spec("research"), spec("never")];
    let name = |era| pick(&tools, &marked, era).map(|t| t.name.as_str());
    assert_eq!(name(Era::Legacy), Some("research"));
    assert_eq!(name(Era::Modern), Some("research"));
    let plain = [spec("get_weather"), spec("get_forecast")];
    assert_eq!(
        pick(&plain, &[], Era::Modern).map(|t| t.name.as_str()),
        Some("get_forecast")
    );
    assert_eq!(pick(&plain, &[], Era::Legacy), None);
    // A tool the server does not call harmless is never called unasked.
    let mut risky = spec("delete_everything");
    risky.badges = vec!["destructive".into()];
    let unmarked = spec("no_hints");
    let unmarked = ToolSpec {
        badges: Vec::new(),
        ..unmarked
    };
    let tools = [spec("get_forecast"), risky, unmarked];
    assert_eq!(
        pick(&tools, &[], Era::Modern).map(|t| t.name.as_str()),
        Some("get_forecast")
    );
    let marked = ["delete_everything".to_owned()];
    assert_eq!(pick(&tools[1..], &marked, Era::Legacy), None);
    assert_eq!(pick(&tools[1..], &marked, Era::Modern), None);
}
