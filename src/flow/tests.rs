//! The host flow against a scripted MCP server and the offline model.

use std::cell::RefCell;
use std::rc::Rc;

use futures_executor::{LocalPool, block_on};
use futures_util::task::LocalSpawnExt;
use serde_json::json;

use super::gate::{Gate, Mode};
use super::host::{Approval, Host};
use super::run::{RowStatus, Run};
use crate::llm::offline::OfflineModel;
use crate::llm::{ChatMessage, Llm, LlmExchange, LlmReply, ToolCall, ToolSpec};
use crate::mcp::client::McpClient;
use crate::mcp::scripted::*;

const ROWS: [&str; 23] = [
    "d1-prep", "d1-1", "d1-2", "d1-3", "d1-ready", "d1-4", "d1-5", "d1-6", "d1-7", "d1-8", "d2-1",
    "d2-2", "d2-3", "d2-4", "d2-5", "d2-6", "d2-7", "d2-exec", "d2-8", "d2-9", "d2-10", "d2-11",
    "d2-12",
];

fn weather_server_script() -> Vec<Script> {
    let log = json!({"jsonrpc":"2.0","method":"notifications/message",
        "params":{"level":"info","logger":"weather-server","data":"get_weather called for Tokyo"}})
    .to_string();
    let result = json!({"jsonrpc":"2.0","id":4,"result":{
        "content":[{"type":"text","text":"Sunny"}],"structuredContent":{"condition":"Sunny"}}})
    .to_string();
    vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        sse(&[&json!({"jsonrpc":"2.0","id":2,"result":{}}).to_string()]),
        sse(&[&tools_page(3, "get_weather", None)]),
        sse(&[&log, &result]),
    ]
}

type TestHost = Host<Rc<Scripted>, OfflineModel>;
/// A host, its scripted server and the run record it writes.
type Fixture<L> = (Rc<Host<Rc<Scripted>, L>>, Rc<Scripted>, Rc<RefCell<Run>>);

fn host(
    script: Vec<Script>,
    mode: Mode,
    approval: Approval,
) -> (Rc<TestHost>, Rc<Scripted>, Rc<RefCell<Run>>) {
    host_with(script, mode, approval, OfflineModel)
}

fn host_with<L: Llm>(script: Vec<Script>, mode: Mode, approval: Approval, llm: L) -> Fixture<L> {
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = script.into();
    let run = Rc::new(RefCell::new(Run::new(ROWS)));
    let sink = run.clone();
    let emit: Rc<dyn Fn(super::run::RunEvent)> = Rc::new(move |e| sink.borrow_mut().apply(e));
    let mcp_emit = emit.clone();
    let client = Rc::new(McpClient::new(
        http.clone(),
        "http://127.0.0.1:8000/mcp",
        Rc::new(move |u| mcp_emit(super::run::RunEvent::Mcp(u))),
    ));
    let gate = Rc::new(Gate::new(mode, None));
    let h = Rc::new(Host::new(client, llm, gate, approval, emit));
    (h, http, run)
}

#[test]
fn an_instant_run_lights_every_row_and_answers_from_the_real_result() {
    let (h, _, run) = host(weather_server_script(), Mode::Play, Approval::Auto);
    let answer = block_on(async {
        h.discover().await.expect("discover");
        h.ask("What's the weather in Tokyo?").await.expect("ask")
    });
    assert_eq!(answer, "The weather in Tokyo is sunny.");
    let run = run.borrow();
    for row in &run.rows {
        let expected = if row.id == "d2-4" || row.id == "d2-5" {
            RowStatus::Skipped
        } else {
            RowStatus::Done
        };
        assert_eq!(row.status, expected, "{}", row.id);
    }
    assert_eq!(
        run.answer.as_deref(),
        Some("The weather in Tokyo is sunny.")
    );
    // Exchanges are attributed to the rows that made them.
    let method = |row: &str| -> Vec<String> {
        run.row(row)
            .unwrap()
            .mcp
            .iter()
            .map(|s| run.mcp.exchanges[*s].rpc_method.clone().unwrap_or_default())
            .collect()
    };
    assert_eq!(method("d1-1"), ["initialize"]);
    assert_eq!(method("d1-3"), ["notifications/initialized"]);
    assert_eq!(method("d1-ready"), ["logging/setLevel"]);
    assert_eq!(method("d1-5"), ["tools/list"]);
    assert_eq!(method("d2-7"), ["tools/call"]);
    assert_eq!(run.row("d2-2").unwrap().llm.len(), 1);
    assert_eq!(run.row("d2-10").unwrap().llm.len(), 1);
    assert_eq!(
        run.row("d1-2").unwrap().value("version"),
        Some("2025-11-25")
    );
    assert_eq!(
        run.row("d2-3").unwrap().value("arguments"),
        Some(r#"{"location":"Tokyo"}"#)
    );
    assert_eq!(run.row("d2-8").unwrap().value("text"), Some("Sunny"));
    assert_eq!(
        run.row("d2-2").unwrap().value("style"),
        Some("native function calling")
    );
    let d18 = run.row("d1-8").unwrap();
    assert!(
        d18.value("format:Anthropic")
            .unwrap()
            .contains("input_schema")
    );
    assert!(
        d18.value("format:Gemini")
            .unwrap()
            .contains("functionDeclarations")
    );
    assert!(
        d18.value("format:system prompt")
            .unwrap()
            .contains("Tool: get_weather")
    );
    assert!(
        run.notifications
            .iter()
            .any(|n| n["params"]["data"] == "get_weather called for Tokyo")
    );
}

#[test]
fn in_step_mode_no_tools_call_is_sent_before_the_user_reaches_its_row() {
    let (h, http, run) = host(weather_server_script(), Mode::Step, Approval::Auto);
    let mut pool = LocalPool::new();
    let task = h.clone();
    pool.spawner()
        .spawn_local(async move {
            task.discover().await.expect("discover");
            task.ask("What's the weather in Tokyo?").await.expect("ask");
        })
        .unwrap();
    let sent_methods = |http: &Scripted| -> Vec<String> {
        http.sent
            .borrow()
            .iter()
            .map(|r| {
                serde_json::from_str::<serde_json::Value>(r.body.as_deref().unwrap_or("{}"))
                    .map(|v| v["method"].as_str().unwrap_or("").to_owned())
                    .unwrap_or_default()
            })
            .collect()
    };
    pool.run_until_stalled();
    assert!(
        http.sent.borrow().is_empty(),
        "nothing is sent before the first Next"
    );
    let mut presses = 0;
    loop {
        pool.run_until_stalled();
        let active = run.borrow().active.clone();
        if active.as_deref() == Some("d2-6") && h.gate.is_waiting() {
            // The next Next starts d2-7: until then, no tools/call.
            assert!(!sent_methods(&http).contains(&"tools/call".to_owned()));
            h.gate.next();
            pool.run_until_stalled();
            assert!(sent_methods(&http).contains(&"tools/call".to_owned()));
            break;
        }
        assert!(h.gate.is_waiting(), "the host waits for Next at every row");
        h.gate.next();
        presses += 1;
        assert!(presses < 40, "stuck at {active:?}");
    }
    while h.gate.is_waiting() {
        h.gate.next();
        pool.run_until_stalled();
    }
    assert_eq!(
        run.borrow().answer.as_deref(),
        Some("The weather in Tokyo is sunny.")
    );
}

#[test]
fn declining_the_tool_call_skips_the_call_and_the_model_says_so() {
    let script: Vec<Script> = weather_server_script().into_iter().take(4).collect();
    let (h, http, run) = host(script, Mode::Play, Approval::Ask);
    let mut pool = LocalPool::new();
    let task = h.clone();
    let answer = Rc::new(RefCell::new(None));
    let out = answer.clone();
    pool.spawner()
        .spawn_local(async move {
            task.discover().await.expect("discover");
            *out.borrow_mut() = Some(task.ask("What's the weather in Tokyo?").await);
        })
        .unwrap();
    pool.run_until_stalled();
    assert_eq!(
        run.borrow().approval.as_ref().map(|a| a.0.as_str()),
        Some("get_weather")
    );
    h.decide(false);
    pool.run_until_stalled();
    let answer = answer
        .borrow()
        .clone()
        .expect("finished")
        .expect("answered");
    assert!(answer.contains("declined"), "{answer}");
    let run = run.borrow();
    for row in ["d2-6", "d2-7", "d2-exec", "d2-8", "d2-9"] {
        assert_eq!(run.status(row), RowStatus::Skipped, "{row}");
    }
    assert_eq!(run.status("d2-5"), RowStatus::Done);
    assert_eq!(run.row("d2-5").unwrap().value("answer"), Some("No"));
    assert_eq!(http.sent.borrow().len(), 4, "no tools/call went out");
}

#[test]
fn a_server_that_is_down_fails_the_initialize_row() {
    let (h, _, run) = host(vec![Script::NoResponse], Mode::Play, Approval::Auto);
    let stopped = block_on(h.discover()).unwrap_err();
    assert_eq!(stopped.row, "d1-1");
    let run = run.borrow();
    assert_eq!(run.status("d1-1"), RowStatus::Failed);
    assert!(
        run.row("d1-1")
            .unwrap()
            .error
            .as_deref()
            .unwrap()
            .contains("no HTTP response")
    );
    assert_eq!(run.status("d1-2"), RowStatus::Pending);
}

#[test]
fn an_http_error_fails_the_response_row_with_the_status() {
    let (h, _, run) = host(
        vec![status(403, "text/plain", "Forbidden: Origin not allowed")],
        Mode::Play,
        Approval::Auto,
    );
    let stopped = block_on(h.discover()).unwrap_err();
    assert_eq!(stopped.row, "d1-2");
    assert!(stopped.error.contains("403"));
    assert_eq!(run.borrow().status("d1-1"), RowStatus::Done);
}

#[test]
fn a_server_url_that_is_not_http_fails_the_first_row_without_sending() {
    use super::host::check_server_url;
    assert!(check_server_url("http://127.0.0.1:8000/mcp").is_ok());
    assert!(check_server_url("https://example.com/mcp").is_ok());
    for bad in [
        "foo",
        "",
        "ftp://x/mcp",
        "http://",
        "http:///mcp",
        "http://a b/mcp",
    ] {
        assert!(check_server_url(bad).is_err(), "{bad:?}");
    }
    let http = Rc::new(Scripted::default());
    let run = Rc::new(RefCell::new(Run::new(ROWS)));
    let sink = run.clone();
    let emit: Rc<dyn Fn(super::run::RunEvent)> = Rc::new(move |e| sink.borrow_mut().apply(e));
    let client = Rc::new(McpClient::new(http.clone(), "foo", Rc::new(|_| {})));
    let gate = Rc::new(Gate::new(Mode::Play, None));
    let h = Host::new(client, OfflineModel, gate, Approval::Auto, emit);
    let stopped = block_on(h.discover()).unwrap_err();
    assert_eq!(stopped.row, "d1-prep");
    assert!(
        stopped.error.contains("absolute http://"),
        "{}",
        stopped.error
    );
    assert!(http.sent.borrow().is_empty(), "nothing is sent");
    assert_eq!(run.borrow().status("d1-1"), RowStatus::Pending);
}

#[test]
fn a_bad_tool_result_fails_row_8_and_leaves_no_row_pending() {
    let mut script = weather_server_script();
    script.pop();
    script.push(status(500, "text/html", "<h1>Internal Server Error</h1>"));
    let (h, _, run) = host(script, Mode::Play, Approval::Auto);
    let stopped = block_on(async {
        h.discover().await.expect("discover");
        h.ask("What's the weather in Tokyo?").await.unwrap_err()
    });
    assert_eq!(stopped.row, "d2-8");
    let run = run.borrow();
    assert_eq!(run.status("d2-7"), RowStatus::Done);
    assert_eq!(run.status("d2-exec"), RowStatus::Skipped);
    assert!(
        run.row("d2-8")
            .unwrap()
            .error
            .as_deref()
            .unwrap_or("")
            .contains("500")
    );
}

#[test]
fn resetting_diagram_two_keeps_diagram_one_and_the_history() {
    let (h, _, run) = host(weather_server_script(), Mode::Play, Approval::Auto);
    block_on(async {
        h.discover().await.expect("discover");
        h.ask("What's the weather in Tokyo?").await.expect("ask");
    });
    let mut run = run.borrow().clone();
    let exchanges = run.mcp.exchanges.len();
    run.reset_rows("d2-");
    assert!(run.answer.is_none());
    assert!(
        run.rows
            .iter()
            .filter(|r| r.id.starts_with("d2-"))
            .all(|r| r.status == RowStatus::Pending && r.mcp.is_empty())
    );
    assert!(
        run.rows
            .iter()
            .filter(|r| r.id.starts_with("d1-"))
            .all(|r| r.status == RowStatus::Done)
    );
    assert_eq!(run.mcp.exchanges.len(), exchanges);
}

/// A model that asks for `get_weather` `calls` times, then answers with the last result.
struct Persistent {
    calls: usize,
}

impl Llm for Persistent {
    fn label(&self) -> String {
        "persistent".into()
    }

    fn format_tools(&self, tools: &[ToolSpec]) -> serde_json::Value {
        crate::llm::openai::tools(tools)
    }

    async fn complete(
        &self,
        messages: &[ChatMessage],
        _tools: &[ToolSpec],
    ) -> (Result<LlmReply, String>, LlmExchange) {
        let results = messages
            .iter()
            .filter(|m| matches!(m, ChatMessage::ToolResult { .. }))
            .count();
        let reply = if results < self.calls {
            LlmReply::ToolCalls(vec![ToolCall {
                id: format!("call_{results}"),
                name: "get_weather".into(),
                arguments: json!({"location": "Tokyo"}),
            }])
        } else {
            LlmReply::Text(format!("answered after {results} results"))
        };
        let exchange = LlmExchange {
            provider: "test".into(),
            url: String::new(),
            request: json!({"messages": messages.len()}),
            response: None,
            status: None,
            started_ms: 0.0,
            finished_ms: 0.0,
            error: None,
        };
        (Ok(reply), exchange)
    }
}

fn rounds_script(rounds: i64) -> Vec<Script> {
    let mut script = weather_server_script();
    script.pop();
    for id in 0..rounds {
        script.push(sse(&[&json!({"jsonrpc":"2.0","id":4 + id,"result":{
            "content":[{"type":"text","text":"Sunny"}]}})
        .to_string()]));
    }
    script
}

#[test]
fn the_tool_loop_runs_further_rounds_and_stops_after_three() {
    let tools_calls = |run: &Run| {
        run.mcp
            .exchanges
            .iter()
            .filter(|x| x.rpc_method.as_deref() == Some("tools/call"))
            .count()
    };
    // Two rounds, then an answer: both calls run and the second round is shown on row 11.
    let (h, _, run) = host_with(
        rounds_script(2),
        Mode::Play,
        Approval::Auto,
        Persistent { calls: 2 },
    );
    let answer = block_on(async {
        h.discover().await.expect("discover");
        h.ask("What's the weather in Tokyo?").await.expect("ask")
    });
    assert_eq!(answer, "answered after 2 results");
    let r = run.borrow();
    assert_eq!(tools_calls(&r), 2);
    assert_eq!(r.row("d2-7").unwrap().mcp.len(), 2);
    assert!(
        r.row("d2-11")
            .unwrap()
            .value("next tool call")
            .is_some_and(|v| v.starts_with("round 2: get_weather"))
    );
    drop(r);

    // A model that never stops gets three rounds and a clear message.
    let (h, _, run) = host_with(
        rounds_script(3),
        Mode::Play,
        Approval::Auto,
        Persistent { calls: 99 },
    );
    let answer = block_on(async {
        h.discover().await.expect("discover");
        h.ask("What's the weather in Tokyo?").await.expect("ask")
    });
    assert_eq!(
        answer,
        "Stopped after 3 tool rounds: the model still asked for get_weather."
    );
    let r = run.borrow();
    assert_eq!(tools_calls(&r), 3);
    assert_eq!(r.status("d2-12"), RowStatus::Done);
    assert_eq!(r.llm.len(), 4, "the question plus one completion per round");
}
