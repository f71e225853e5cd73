//! The host flow against a scripted MCP server and the offline model.

use std::cell::RefCell;
use std::rc::Rc;

use futures_executor::{LocalPool, block_on};
use futures_util::task::LocalSpawnExt;
use serde_json::json;

use super::gate::{Gate, Mode};
use super::host::{
    Approval, ApprovalRequest, Consent, Emit, FormRequest, Host, HostEvent, ServerMemory,
};
use crate::diagram::Row;
use crate::diagram::explained::fits;
use crate::llm::offline::OfflineModel;
use crate::llm::{ChatMessage, Llm, LlmExchange, LlmReply, ToolCall, ToolSpec};
use crate::record::payload::{Field, FieldValue, Payload};
use crate::record::run::{RowStatus, Run, RunEvent};
use mcp_flow_client::client::McpClient;
use mcp_flow_client::era::EraChoice;
use mcp_flow_client::scripted::*;

fn rows() -> impl Iterator<Item = Row> {
    crate::diagram::diagrams().iter().flat_map(|d| d.rows())
}

pub(super) fn weather_server_script() -> Vec<Script> {
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

/// A client of the scripted server at the weather server's usual address, its record to `emit`.
pub(super) fn scripted_client(http: &Rc<Scripted>, emit: &Emit) -> Rc<McpClient<Rc<Scripted>>> {
    let mcp_emit = emit.clone();
    Rc::new(McpClient::new(
        http.clone(),
        http.clone(),
        "http://127.0.0.1:8000/mcp",
        Rc::new(move |u| mcp_emit(RunEvent::Mcp(u).into())),
    ))
}

thread_local! {
    /// The approval the host asked for last (the page's dialog).
    pub(super) static DIALOG: RefCell<Option<ApprovalRequest>> = const { RefCell::new(None) };
    /// The form the host asked the user to fill in last.
    static FORM: RefCell<Option<FormRequest>> = const { RefCell::new(None) };
}

/// An emitter that folds record events into `run`, checks each finished row's payload, and
/// keeps the host's question for the user where the page would.
fn recorder(run: Rc<RefCell<Run>>) -> Emit {
    Rc::new(move |event: HostEvent| match event {
        HostEvent::Run(event) => {
            if let RunEvent::Done { row, payload, .. } = &event {
                assert!(
                    fits(*row, payload.as_ref()),
                    "{row} finished with {payload:?}"
                );
            }
            run.borrow_mut().apply(event);
        }
        HostEvent::Approval(request) => DIALOG.with(|d| *d.borrow_mut() = request),
        HostEvent::Form(request) => FORM.with(|f| *f.borrow_mut() = request),
        HostEvent::Authorize(_) | HostEvent::Sampling(_) | HostEvent::Roots(_) => {}
    })
}

/// A host, its scripted server and the run record it writes.
type Fixture<L> = (Rc<Host<Rc<Scripted>, L>>, Rc<Scripted>, Rc<RefCell<Run>>);

pub(super) fn host(
    script: Vec<Script>,
    mode: Mode,
    approval: Approval,
) -> (Rc<TestHost>, Rc<Scripted>, Rc<RefCell<Run>>) {
    host_with(script, mode, approval, |http| {
        OfflineModel::new(http.clone())
    })
}

fn host_with<L: Llm + 'static>(
    script: Vec<Script>,
    mode: Mode,
    approval: Approval,
    llm: impl FnOnce(&Rc<Scripted>) -> L,
) -> Fixture<L> {
    let http = Rc::new(Scripted::default());
    let llm = llm(&http);
    *http.script.borrow_mut() = script.into();
    let run = Rc::new(RefCell::new(Run::new(rows())));
    let sink = run.clone();
    let emit = recorder(sink);
    let client = scripted_client(&http, &emit);
    let gate = Rc::new(Gate::new(mode, None));
    // These tests script a legacy server; the eras have their own tests (flow/era_tests.rs).
    let h = Rc::new(
        Host::new(client, llm, gate, approval, emit)
            .with_era(EraChoice::Legacy, ServerMemory::default()),
    );
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
    // Approval is off, the era is fixed to legacy (no probe) and the server asked nothing.
    let mut skipped = vec![
        Row::Confirm,
        Row::Confirmed,
        Row::Discover,
        Row::DiscoverResult,
    ];
    skipped.extend(super::host::QUESTION_ROWS);
    skipped.extend([Row::Relist, Row::RelistResult]);
    for row in &run.rows {
        let expected = if skipped.contains(&row.id) {
            RowStatus::Skipped
        } else {
            RowStatus::Done
        };
        assert_eq!(row.status, expected, "{}", row.id);
    }
    assert_eq!(run.answer(), Some("The weather in Tokyo is sunny."));
    // Exchanges are attributed to the rows that made them.
    let method = |row: Row| -> Vec<String> {
        run.row(row)
            .unwrap()
            .mcp
            .iter()
            .map(|s| run.mcp.exchanges[*s].rpc_method.clone().unwrap_or_default())
            .collect()
    };
    assert_eq!(method(Row::Initialize), ["initialize"]);
    assert_eq!(method(Row::Initialized), ["notifications/initialized"]);
    assert_eq!(method(Row::Ready), ["logging/setLevel"]);
    assert_eq!(method(Row::ListTools), ["tools/list"]);
    assert_eq!(method(Row::CallTool), ["tools/call"]);
    // Rows and exchanges read one clock: each exchange falls inside the row that made it.
    for row in [Row::Initialize, Row::ListTools, Row::CallTool] {
        let r = run.row(row).unwrap();
        let x = &run.mcp.exchanges[r.mcp[0]];
        let (start, end) = (r.started_ms.unwrap(), r.finished_ms.unwrap());
        assert!(
            start < x.started_ms && x.finished_ms.unwrap() < end,
            "{row}: row {start}..{end}, exchange {}..{:?}",
            x.started_ms,
            x.finished_ms
        );
    }
    assert_eq!(run.row(Row::AskLlm).unwrap().llm.len(), 1);
    assert_eq!(run.row(Row::ResultToLlm).unwrap().llm.len(), 1);
    let field = |row: Row, field: Field| run.row(row).and_then(|r| r.field(field));
    let value = |v: &str| Some(FieldValue::Value(v.to_owned()));
    assert_eq!(
        field(Row::InitializeResult, Field::Version),
        value("2025-11-25")
    );
    assert_eq!(
        field(Row::LlmChoice, Field::Arguments),
        value(r#"{"location":"Tokyo"}"#)
    );
    assert_eq!(field(Row::CallToolResult, Field::Text), value("Sunny"));
    assert_eq!(
        field(Row::CallToolResult, Field::Structured),
        value(r#"{"condition":"Sunny"}"#)
    );
    assert_eq!(
        field(Row::AskLlm, Field::Style),
        value("native function calling")
    );
    match run.payload(Row::ToolsToLlm) {
        Some(Payload::ToolsForLlm { tools, sent, .. }) => {
            assert_eq!(tools.len(), 1);
            assert_eq!(tools[0].name, "get_weather");
            assert!(sent.contains("\"get_weather\""), "{sent}");
        }
        other => panic!("d1-8 carried {other:?}"),
    }
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
        let active = run.borrow().current();
        if active == Some(Row::CallToolAsk) && h.gate.is_waiting() {
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
        run.borrow().answer(),
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
    let asked = DIALOG
        .with(|d| d.borrow().clone())
        .expect("the dialog shows");
    assert_eq!(asked.tool, "get_weather");
    // The dialog names where the call goes, and that the model (not an app) asks.
    assert_eq!(asked.server, "http://127.0.0.1:8000");
    assert_eq!((asked.upstream, asked.app), (None, None));
    h.decide(Consent::Declined);
    pool.run_until_stalled();
    assert_eq!(
        DIALOG.with(|d| d.borrow().clone()),
        None,
        "the dialog closes"
    );
    let answer = answer
        .borrow()
        .clone()
        .expect("finished")
        .expect("answered");
    assert!(answer.contains("declined"), "{answer}");
    let run = run.borrow();
    for row in [
        Row::CallToolAsk,
        Row::CallTool,
        Row::Execute,
        Row::CallToolResult,
        Row::ResultToHost,
    ] {
        assert_eq!(run.status(row), RowStatus::Skipped, "{row}");
        assert_eq!(
            run.row(row).unwrap().skipped,
            Some(crate::record::payload::SkipReason::Declined)
        );
    }
    assert_eq!(
        run.payload(Row::Confirmed),
        Some(&Payload::Decision { approved: false })
    );
    assert_eq!(http.sent.borrow().len(), 4, "no tools/call went out");
    assert_eq!(pending_in_diagram_two(&run), Vec::<String>::new());
}

#[test]
fn a_server_that_is_down_fails_the_initialize_row() {
    let (h, _, run) = host(vec![Script::NoResponse], Mode::Play, Approval::Auto);
    let stopped = block_on(h.discover()).unwrap_err();
    assert_eq!(stopped.row, Row::Initialize);
    assert!(stopped.unreached, "nothing answered: worth a diagnosis");
    let run = run.borrow();
    assert_eq!(run.status(Row::Initialize), RowStatus::Failed);
    assert!(
        run.row(Row::Initialize)
            .unwrap()
            .error
            .as_deref()
            .unwrap()
            .contains("no HTTP response")
    );
    assert_eq!(run.status(Row::InitializeResult), RowStatus::Pending);
}

#[test]
fn an_http_error_fails_the_response_row_with_the_status() {
    let (h, _, run) = host(
        vec![status(403, "text/plain", "Forbidden: Origin not allowed")],
        Mode::Play,
        Approval::Auto,
    );
    let stopped = block_on(h.discover()).unwrap_err();
    assert_eq!(stopped.row, Row::InitializeResult);
    assert!(stopped.error.contains("403"));
    assert!(
        !stopped.unreached,
        "403 is authorization's, not a missing server"
    );
    assert_eq!(run.borrow().status(Row::Initialize), RowStatus::Done);
}

#[test]
fn a_web_page_answering_the_first_request_is_a_server_not_reached() {
    let (h, _, _) = host(
        vec![status(405, "text/html", "<!doctype html>")],
        Mode::Play,
        Approval::Auto,
    );
    let stopped = block_on(h.discover()).unwrap_err();
    assert_eq!(stopped.row, Row::InitializeResult);
    assert!(stopped.unreached);
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
    let run = Rc::new(RefCell::new(Run::new(rows())));
    let sink = run.clone();
    let emit = recorder(sink);
    let client = Rc::new(McpClient::new(
        http.clone(),
        http.clone(),
        "foo",
        Rc::new(|_| {}),
    ));
    let gate = Rc::new(Gate::new(Mode::Play, None));
    let model = OfflineModel::new(http.clone());
    let h = Host::new(client, model, gate, Approval::Auto, emit)
        .with_era(EraChoice::Legacy, ServerMemory::default());
    let stopped = block_on(h.discover()).unwrap_err();
    assert_eq!(stopped.row, Row::Prepare);
    assert!(
        stopped.error.contains("absolute http://"),
        "{}",
        stopped.error
    );
    assert!(http.sent.borrow().is_empty(), "nothing is sent");
    assert_eq!(run.borrow().status(Row::Initialize), RowStatus::Pending);
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
    assert_eq!(stopped.row, Row::CallToolResult);
    let run = run.borrow();
    assert_eq!(run.status(Row::CallTool), RowStatus::Done);
    assert_eq!(run.status(Row::Execute), RowStatus::Skipped);
    assert!(
        run.row(Row::CallToolResult)
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
    run.reset(crate::diagram::execution().rows());
    assert!(run.answer().is_none());
    assert!(
        run.rows
            .iter()
            .filter(|r| r.id.id().starts_with("d2-"))
            .all(|r| r.status == RowStatus::Pending && r.mcp.is_empty())
    );
    assert!(
        run.rows
            .iter()
            .filter(|r| r.id.id().starts_with("d1-"))
            .all(|r| r.status.is_finished())
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
    let (h, _, run) = host_with(rounds_script(2), Mode::Play, Approval::Auto, |_| {
        Persistent { calls: 2 }
    });
    let answer = block_on(async {
        h.discover().await.expect("discover");
        h.ask("What's the weather in Tokyo?").await.expect("ask")
    });
    assert_eq!(answer, "answered after 2 results");
    let r = run.borrow();
    assert_eq!(tools_calls(&r), 2);
    assert_eq!(r.row(Row::CallTool).unwrap().mcp.len(), 2);
    assert_eq!(
        r.row(Row::CallToolAsk).unwrap().field(Field::Round),
        Some(FieldValue::Value("2".into())),
        "row 6 of the second round says so"
    );
    drop(r);

    // A model that never stops gets three rounds and a clear message.
    let (h, _, run) = host_with(rounds_script(3), Mode::Play, Approval::Auto, |_| {
        Persistent { calls: 99 }
    });
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
    assert_eq!(r.status(Row::ShowAnswer), RowStatus::Done);
    assert_eq!(r.llm.len(), 4, "the question plus one completion per round");
}

#[test]
fn request_headers_that_cannot_be_sent_fail_the_first_row_before_any_request() {
    let http = Rc::new(Scripted::default());
    let run = Rc::new(RefCell::new(Run::new(rows())));
    let emit = recorder(run.clone());
    let client = Rc::new(McpClient::new(
        http.clone(),
        http.clone(),
        "http://127.0.0.1:8000/mcp",
        Rc::new(|_| {}),
    ));
    let gate = Rc::new(Gate::new(Mode::Play, None));
    let model = OfflineModel::new(http.clone());
    let h = Host::new(client, model, gate, Approval::Auto, emit)
        .with_era(EraChoice::Legacy, ServerMemory::default())
        .with_headers("Authorization: Bearer x\r\nX-Evil: a\rInjected: b");
    let stopped = block_on(h.discover()).unwrap_err();
    assert_eq!(stopped.row, Row::Prepare);
    assert!(
        stopped.error.starts_with("request headers: header line 2"),
        "{}",
        stopped.error
    );
    assert!(http.sent.borrow().is_empty(), "nothing is sent");
}

/// A server whose `get_weather` declares an `outputSchema`, and its result's `structuredContent`.
fn schema_script(structured: Option<serde_json::Value>) -> Vec<Script> {
    let list = json!({"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"get_weather",
        "inputSchema":{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]},
        "outputSchema":{"type":"object","properties":{"temperature":{"type":"number"}},
                        "required":["temperature"]}}]}})
    .to_string();
    let mut result = json!({"content":[{"type":"text","text":"Sunny"}]});
    if let Some(structured) = structured {
        result["structuredContent"] = structured;
    }
    let result = json!({"jsonrpc":"2.0","id":4,"result":result}).to_string();
    vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        sse(&[&json!({"jsonrpc":"2.0","id":2,"result":{}}).to_string()]),
        sse(&[&list]),
        sse(&[&result]),
    ]
}

/// The result row's output check after a Tokyo run against `script`, with the real validator.
fn checked(script: Vec<Script>) -> (Option<crate::output_check::OutputCheck>, Rc<RefCell<Run>>) {
    let (h, _, run) = host(script, Mode::Play, Approval::Auto);
    h.set_checker(Rc::new(|schema, instance| {
        Box::pin(async move { Ok(mcp_flow_schema_worker::check(&schema, &instance)) })
    }));
    block_on(async {
        h.discover().await.expect("discover");
        h.ask("What's the weather in Tokyo?").await.expect("ask")
    });
    let found = match run.borrow().payload(Row::CallToolResult) {
        Some(Payload::ToolResult { output_check, .. }) => output_check.clone(),
        other => panic!("d2-8 carried {other:?}"),
    };
    (found, run)
}

#[test]
fn a_result_is_checked_against_the_output_schema_its_tool_declared() {
    use crate::output_check::{OutputCheck, Verdict};
    let (found, run) = checked(schema_script(Some(json!({"temperature": 21.5}))));
    assert_eq!(
        found,
        Some(OutputCheck::Checked {
            verdict: Verdict::Valid
        })
    );
    assert!(run.borrow().output_mismatch(Row::CallToolResult).is_none());

    let (found, run) = checked(schema_script(Some(json!({"temperature": "hot"}))));
    let found = found.expect("a result with a schema was not checked");
    assert!(found.is_mismatch(), "{found:?}");
    assert!(
        found.summary().contains("/temperature"),
        "{}",
        found.summary()
    );
    let run = run.borrow();
    assert!(run.output_mismatch(Row::CallToolResult).is_some());
    // Shown among the row's values too (inspector, exports).
    let Some(FieldValue::Value(shown)) = run
        .payload(Row::CallToolResult)
        .and_then(|p| p.field(Field::OutputSchema))
    else {
        panic!("the check is not among the row's values");
    };
    assert!(shown.starts_with("does not match"), "{shown}");
    // The message log and the exports find the exchange it came on.
    let (seq, found_there) = run
        .output_mismatch_exchange()
        .expect("the mismatched exchange is found");
    let x = &run.mcp.exchanges[seq];
    assert_eq!(x.rpc_method.as_deref(), Some("tools/call"));
    assert!(x.response_body.is_some() || !x.events.is_empty());
    assert_eq!(found_there, found.summary());
    let mermaid = crate::export::mermaid::mermaid(&run, crate::diagram::Lang::En);
    assert!(
        mermaid.contains("OUTPUT SCHEMA MISMATCH: does not match"),
        "{mermaid}"
    );

    let (found, _) = checked(schema_script(None));
    assert_eq!(found, Some(OutputCheck::Missing));
}

#[test]
fn a_tool_without_an_output_schema_is_not_checked() {
    let (found, _) = checked(weather_server_script());
    assert_eq!(found, None);
}

/// The execution diagram's rows still pending in `run`.
fn pending_in_diagram_two(run: &Run) -> Vec<String> {
    rows()
        .map(|row| row.to_string())
        .filter(|id| id.starts_with("d2-"))
        .filter(|id| {
            rows().any(|row| row.to_string() == *id && run.status(row) == RowStatus::Pending)
        })
        .collect()
}

#[test]
fn a_question_no_tool_fits_leaves_no_row_of_diagram_two_pending() {
    let script: Vec<Script> = weather_server_script().into_iter().take(4).collect();
    let (h, http, run) = host(script, Mode::Play, Approval::Auto);
    let answer = block_on(async {
        h.discover().await.expect("discover");
        h.ask("Tell me a joke").await
    })
    .expect("answered");
    assert!(!answer.is_empty());
    assert_eq!(http.sent.borrow().len(), 4, "no tools/call went out");
    let run = run.borrow();
    assert_eq!(pending_in_diagram_two(&run), Vec::<String>::new());
    assert_eq!(run.status(Row::Elicit), RowStatus::Skipped);
}
