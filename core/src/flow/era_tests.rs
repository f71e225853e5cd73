//! The host in both eras against a scripted server: a modern run, the `auto` probe and its fall
//! back (remembered for the page), a fixed era against the wrong server, the server's questions
//! (MRTR in the modern era, `elicitation/create` on the stream in the legacy one), and a tool
//! list reused within its `ttlMs`.

use super::forms::FORM_ROWS;
use std::cell::RefCell;
use std::rc::Rc;

use futures_executor::{LocalPool, block_on};
use futures_util::task::LocalSpawnExt;
use rmcp::model::{ElicitResult, ElicitationAction};
use serde_json::{Value, json};

use super::gate::{Gate, Mode};
use super::host::{
    Approval, Emit, FormRequest, Host, HostEvent, SamplingDialog, ServerMemory, Stopped,
};
use super::sampling::SAMPLING_ROWS;
use crate::diagram::Row;
use crate::diagram::explained::fits;
use crate::llm::offline::OfflineModel;
use crate::record::payload::{Payload, SkipReason};
use crate::record::run::{RowStatus, Run, RunEvent};
use mcp_flow_client::era::{Era, EraChoice, Why};
use mcp_flow_client::http::HttpRequest;
use mcp_flow_client::scripted::*;

type TestHost = Host<Rc<Scripted>, OfflineModel>;

pub(super) struct Fixture {
    pub(super) host: Rc<TestHost>,
    pub(super) http: Rc<Scripted>,
    pub(super) run: Rc<RefCell<Run>>,
    pub(super) forms: Rc<RefCell<Vec<Option<FormRequest>>>>,
    /// Every sampling dialog the host showed or closed.
    sampling: Rc<RefCell<Vec<Option<SamplingDialog>>>>,
    /// How the user answers the sampling dialogs.
    verdict: RefCell<Verdict>,
}

/// What the user does with a sampling request and its answer.
#[derive(Clone, Copy)]
enum Verdict {
    Approve,
    Edit(&'static str),
    RefuseRequest,
    RefuseAnswer,
}

pub(super) fn fixture(script: Vec<Script>, era: EraChoice, memory: ServerMemory) -> Fixture {
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = script.into();
    let run = Rc::new(RefCell::new(Run::new(crate::diagram::all_rows())));
    let forms = Rc::new(RefCell::new(Vec::new()));
    let sampling = Rc::new(RefCell::new(Vec::new()));
    let (sink, seen, dialogs) = (run.clone(), forms.clone(), sampling.clone());
    let emit: Emit = Rc::new(move |event: HostEvent| match event {
        HostEvent::Run(event) => {
            if let RunEvent::Done { row, payload, .. } = &event {
                assert!(
                    fits(*row, payload.as_ref()),
                    "{row} finished with {payload:?}"
                );
            }
            sink.borrow_mut().apply(event);
        }
        HostEvent::Form(form) => seen.borrow_mut().push(form),
        HostEvent::Sampling(dialog) => dialogs.borrow_mut().push(dialog),
        HostEvent::Approval(_) | HostEvent::Authorize(_) | HostEvent::Roots(_) => {}
    });
    let client = super::tests::scripted_client(&http, &emit);
    let gate = Rc::new(Gate::new(Mode::Play, None));
    let model = OfflineModel::new(http.clone());
    let host = Rc::new(Host::new(client, model, gate, Approval::Auto, emit).with_era(era, memory));
    Fixture {
        host,
        http,
        run,
        forms,
        sampling,
        verdict: RefCell::new(Verdict::Approve),
    }
}

fn json_at(status: u16, value: Value) -> Script {
    Script::Respond {
        status,
        headers: vec![("content-type", "application/json".into())],
        chunks: vec![value.to_string().into_bytes()],
    }
}

fn discover(id: u64, ttl: u64) -> Script {
    json_reply(
        json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
        "supportedVersions": ["2026-07-28", "2025-11-25"], "capabilities": {"tools": {}, "logging": {}},
        "ttlMs": ttl, "cacheScope": "public",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "weather-server", "version": "0.1.0"}}}}),
    )
}

fn tools(id: u64, ttl: u64) -> Script {
    json_reply(
        json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
        "ttlMs": ttl, "cacheScope": "public", "tools": [{"name": "get_weather",
            "description": "Get the current weather for a city",
            "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}},
                "required": ["location"]}}]}}),
    )
}

fn weather(id: u64, condition: &str) -> Script {
    json_reply(
        json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
        "content": [{"type": "text", "text": condition}],
        "structuredContent": {"location": "Springfield, Illinois", "condition": condition}}}),
    )
}

fn springfield(id: u64, state: &str) -> Script {
    json_reply(
        json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required",
        "requestState": state,
        "inputRequests": {"city": {"method": "elicitation/create", "params": {"mode": "form",
            "message": "Which Springfield?", "requestedSchema": {"type": "object",
                "properties": {"city": {"type": "string",
                    "enum": ["Springfield, Illinois", "Springfield, Massachusetts"]}},
                "required": ["city"]}}}}}}),
    )
}

fn body(req: &HttpRequest) -> Value {
    serde_json::from_str(req.body.as_deref().unwrap_or("null")).unwrap_or(Value::Null)
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// The JSON-RPC method of each request `f`'s server got, in order.
fn methods_sent(f: &Fixture) -> Vec<Value> {
    f.http
        .sent
        .borrow()
        .iter()
        .map(|r| body(r)["method"].clone())
        .collect()
}

fn row_status(f: &Fixture, row: Row) -> RowStatus {
    f.run.borrow().status(row)
}

fn run_to_end(f: &Fixture, question: &str) -> Result<String, Stopped> {
    block_on(async {
        f.host.discover().await?;
        f.host.ask(question).await
    })
}

#[test]
fn a_modern_run_discovers_lists_and_calls_without_a_handshake() {
    let f = fixture(
        vec![discover(1, 0), tools(2, 0), weather(3, "Sunny")],
        EraChoice::Auto,
        ServerMemory::default(),
    );
    let answer = run_to_end(&f, "What's the weather in Tokyo?").expect("run");
    assert!(answer.contains("sunny"), "{answer}");
    let run = f.run.borrow();
    assert_eq!(
        run.era.as_ref().map(|d| (d.era, d.why.clone())),
        Some((Era::Modern, Why::Discovered))
    );
    for row in [
        Row::Discover,
        Row::DiscoverResult,
        Row::Ready,
        Row::ListTools,
        Row::CallTool,
    ] {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    for row in [Row::Initialize, Row::InitializeResult, Row::Initialized] {
        assert_eq!(
            run.status(row),
            RowStatus::Pending,
            "{row} is not in this era"
        );
    }
    match run.payload(Row::DiscoverResult) {
        Some(Payload::Discovered {
            versions, server, ..
        }) => {
            assert_eq!(versions[0], "2026-07-28");
            assert_eq!(server.as_deref(), Some("weather-server 0.1.0"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        run.payload(Row::Ready),
        Some(&Payload::Logging {
            level: Some("info".into())
        })
    );
    let sent = f.http.sent.borrow();
    let methods: Vec<String> = sent
        .iter()
        .map(|r| body(r)["method"].as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(methods, ["server/discover", "tools/list", "tools/call"]);
    assert!(sent.iter().all(|r| header(r, "Mcp-Session-Id").is_none()));
    assert_eq!(header(&sent[2], "Mcp-Name"), Some("get_weather"));
    assert_eq!(
        body(&sent[2])["params"]["_meta"]["io.modelcontextprotocol/logLevel"],
        "info"
    );
    // The probe's exchange belongs to the discover row.
    let discover_row = run.row(Row::Discover).unwrap();
    assert_eq!(discover_row.mcp.len(), 1);
}

fn legacy_server() -> Vec<Script> {
    let result = json!({"jsonrpc": "2.0", "id": 5, "result": {
        "content": [{"type": "text", "text": "Sunny"}]}})
    .to_string();
    vec![
        sse(&[&init_result(2, "2025-11-25")]),
        status(202, "", ""),
        sse(&[&json!({"jsonrpc": "2.0", "id": 3, "result": {}}).to_string()]),
        sse(&[&tools_page(4, "get_weather", None)]),
        sse(&[&result]),
    ]
}

#[test]
fn auto_falls_back_to_initialize_says_why_and_remembers_the_server() {
    let mut script = vec![status(
        400,
        "text/plain",
        "Bad Request: No valid session ID provided",
    )];
    script.extend(legacy_server());
    let memory = ServerMemory::default();
    let f = fixture(script, EraChoice::Auto, memory.clone());
    let answer = run_to_end(&f, "What's the weather in Tokyo?").expect("run");
    assert_eq!(answer, "The weather in Tokyo is sunny.");
    {
        let run = f.run.borrow();
        let era = run.era.clone().expect("era");
        assert_eq!(era.era, Era::Legacy);
        assert!(
            matches!(&era.why, Why::NotModern { answer } if answer.contains("No valid session ID"))
        );
        match run.payload(Row::DiscoverResult) {
            Some(Payload::Fallback { why }) => assert!(why.contains("falling back"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(run.status(Row::Initialize), RowStatus::Done);
        assert_eq!(run.status(Row::Elicit), RowStatus::Skipped);
    }
    // A second run against the same server on this page does not probe again.
    let g = fixture(legacy_server_with_ids(1), EraChoice::Auto, memory);
    run_to_end(&g, "What's the weather in Tokyo?").expect("second run");
    let run = g.run.borrow();
    assert_eq!(
        run.row(Row::Discover).unwrap().skipped,
        Some(SkipReason::KnownLegacy)
    );
    assert!(matches!(
        run.era.as_ref().map(|d| &d.why),
        Some(Why::Remembered { .. })
    ));
    assert_eq!(
        body(&g.http.sent.borrow()[0])["method"],
        "initialize",
        "no probe"
    );
}

/// The legacy server's script for a client whose first request has id `first`.
fn legacy_server_with_ids(first: u64) -> Vec<Script> {
    let result = json!({"jsonrpc": "2.0", "id": first + 3, "result": {
        "content": [{"type": "text", "text": "Sunny"}]}})
    .to_string();
    vec![
        sse(&[&init_result(first, "2025-11-25")]),
        status(202, "", ""),
        sse(&[&json!({"jsonrpc": "2.0", "id": first + 1, "result": {}}).to_string()]),
        sse(&[&tools_page(first + 2, "get_weather", None)]),
        sse(&[&result]),
    ]
}

#[test]
fn no_http_answer_to_the_probe_falls_back_and_names_cors() {
    let mut script = vec![Script::NoResponse];
    script.extend(legacy_server());
    let f = fixture(script, EraChoice::Auto, ServerMemory::default());
    run_to_end(&f, "What's the weather in Tokyo?").expect("run");
    let run = f.run.borrow();
    match run.payload(Row::DiscoverResult) {
        Some(Payload::Fallback { why }) => assert!(why.contains("CORS"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_fixed_modern_era_against_a_legacy_server_fails_at_the_discover_answer() {
    let f = fixture(
        vec![status(
            400,
            "text/plain",
            "Bad Request: Server not initialized",
        )],
        EraChoice::Modern,
        ServerMemory::default(),
    );
    let stopped = block_on(f.host.discover()).unwrap_err();
    assert_eq!(stopped.row, Row::DiscoverResult);
    assert!(
        stopped.error.contains("choose auto or legacy"),
        "{}",
        stopped.error
    );
    assert_eq!(row_status(&f, Row::Discover), RowStatus::Done);
    assert_eq!(row_status(&f, Row::Initialize), RowStatus::Pending);
}

#[test]
fn a_fixed_legacy_era_skips_the_probe() {
    let f = fixture(
        legacy_server_with_ids(1),
        EraChoice::Legacy,
        ServerMemory::default(),
    );
    run_to_end(&f, "What's the weather in Tokyo?").expect("run");
    let run = f.run.borrow();
    assert_eq!(
        run.row(Row::Discover).unwrap().skipped,
        Some(SkipReason::LegacyChosen)
    );
    assert_eq!(run.era.as_ref().map(|d| d.why.clone()), Some(Why::Chosen));
}

/// Plays a run on a local pool, answering each form the host shows with `answer`.
fn play_answering(
    f: &Fixture,
    question: &'static str,
    answer: ElicitResult,
) -> Result<String, Stopped> {
    let mut pool = LocalPool::new();
    let out = Rc::new(RefCell::new(None));
    let (host, sink) = (f.host.clone(), out.clone());
    pool.spawner()
        .spawn_local(async move {
            let result = async {
                host.discover().await?;
                host.ask(question).await
            }
            .await;
            *sink.borrow_mut() = Some(result);
        })
        .unwrap();
    for _ in 0..20 {
        pool.run_until_stalled();
        if out.borrow().is_some() {
            break;
        }
        if f.forms.borrow().last().is_some_and(Option::is_some) {
            f.host.answer_form(answer.clone());
        }
        let shown = f.sampling.borrow().last().cloned().flatten();
        match (shown, *f.verdict.borrow()) {
            (Some(SamplingDialog::Review(_)), Verdict::RefuseRequest) => {
                f.host.review_sampling(None)
            }
            (Some(SamplingDialog::Review(request)), _) => f.host.review_sampling(Some(request)),
            (Some(SamplingDialog::Approve { .. }), Verdict::RefuseAnswer) => {
                f.host.approve_sampling(None)
            }
            (Some(SamplingDialog::Approve { .. }), Verdict::Edit(text)) => {
                f.host.approve_sampling(Some(text.into()))
            }
            (Some(SamplingDialog::Approve { answer, .. }), _) => {
                f.host.approve_sampling(Some(answer))
            }
            (None, _) => {}
        }
    }
    out.borrow_mut().take().expect("the run ended")
}

fn illinois() -> ElicitResult {
    ElicitResult::new(ElicitationAction::Accept)
        .with_content(json!({"city": "Springfield, Illinois"}))
}

#[test]
fn a_modern_question_is_asked_and_the_call_retried_with_the_answer() {
    let f = fixture(
        vec![
            discover(1, 0),
            tools(2, 0),
            springfield(3, "state-1"),
            weather(4, "Cloudy"),
        ],
        EraChoice::Modern,
        ServerMemory::default(),
    );
    let answer = play_answering(&f, "What's the weather in Springfield?", illinois()).expect("run");
    assert_eq!(answer, "The weather in Springfield, Illinois is cloudy.");
    let run = f.run.borrow();
    for row in FORM_ROWS.into_iter().chain([Row::CallToolResult]) {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    match run.payload(Row::Elicit) {
        Some(Payload::Form { message, state, .. }) => {
            assert_eq!(message, "Which Springfield?");
            assert_eq!(state.as_deref(), Some("state-1"));
        }
        other => panic!("{other:?}"),
    }
    let forms = f.forms.borrow();
    assert_eq!(forms.len(), 2, "shown, then closed");
    assert_eq!(forms[0].as_ref().unwrap().message, "Which Springfield?");
    assert!(forms[1].is_none());
    let sent = f.http.sent.borrow();
    let retry = body(&sent[3]);
    assert_ne!(retry["id"], body(&sent[2])["id"]);
    assert_eq!(retry["params"]["requestState"], "state-1");
    assert_eq!(
        retry["params"]["inputResponses"]["city"]["content"]["city"],
        "Springfield, Illinois"
    );
    // The retry belongs to the reply row, the first call to the request row.
    assert_eq!(run.row(Row::ElicitReply).unwrap().mcp.len(), 1);
    assert_eq!(run.row(Row::CallTool).unwrap().mcp.len(), 1);
}

#[test]
fn a_server_that_keeps_asking_is_stopped_at_the_question_row() {
    let mut script = vec![discover(1, 0), tools(2, 0)];
    for id in 3..20 {
        script.push(springfield(id, "again"));
    }
    let f = fixture(script, EraChoice::Modern, ServerMemory::default());
    let err = play_answering(&f, "What's the weather in Springfield?", illinois()).unwrap_err();
    assert_eq!(err.row, Row::Elicit);
    assert!(
        err.error.contains("input_required 5 times"),
        "{}",
        err.error
    );
    let calls = f
        .http
        .sent
        .borrow()
        .iter()
        .filter(|r| body(r)["method"] == "tools/call")
        .count();
    assert_eq!(calls, 5, "five answers of input_required, then it stops");
}

/// A 2025-11-25 Springfield run in which the server sends `ask` on the tools/call stream before
/// its "Cloudy" result; the user answers Illinois. The fixture, and the answer.
fn legacy_run_asked(ask: &str) -> (Fixture, String) {
    legacy_run_asked_with_roots(ask, Vec::new())
}

/// A 2025-11-25 session whose tools/call stream carries `ask` (a server request) before its
/// "Cloudy" result; the POSTed answer is accepted.
fn legacy_script(ask: &str) -> Vec<Script> {
    let result = json!({"jsonrpc": "2.0", "id": 4, "result": {
        "content": [{"type": "text", "text": "Cloudy"}]}})
    .to_string();
    vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        sse(&[&json!({"jsonrpc": "2.0", "id": 2, "result": {}}).to_string()]),
        sse(&[&tools_page(3, "get_weather", None)]),
        sse(&[ask, &result]),
        status(202, "", ""),
    ]
}

/// A legacy run whose tools/call is asked `ask` on its stream, with `roots` in the settings.
fn legacy_run_asked_with_roots(
    ask: &str,
    roots: Vec<mcp_flow_client::roots::Root>,
) -> (Fixture, String) {
    let f = fixture(
        legacy_script(ask),
        EraChoice::Legacy,
        ServerMemory::default(),
    );
    f.host.roots.shared_already();
    f.host.set_roots(roots);
    let answer = play_answering(&f, "What's the weather in Springfield?", illinois()).expect("run");
    (f, answer)
}

#[test]
fn a_legacy_question_on_the_stream_is_answered_before_the_result() {
    let ask = json!({"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create",
        "params": {"message": "Which Springfield?", "requestedSchema": {"type": "object",
            "properties": {"city": {"type": "string", "enum": ["Springfield, Illinois"]}}}}})
    .to_string();
    let (f, answer) = legacy_run_asked(&ask);
    assert!(answer.contains("cloudy"), "{answer}");
    let run = f.run.borrow();
    for row in FORM_ROWS {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    let reply = run.row(Row::ElicitReply).unwrap();
    assert_eq!(
        reply.mcp.len(),
        1,
        "the POSTed answer belongs to the reply row"
    );
    let posted = &run.mcp.exchanges[reply.mcp[0]];
    let posted: Value = serde_json::from_str(posted.request_body.as_deref().unwrap()).unwrap();
    assert_eq!(posted["id"], "e1");
    assert_eq!(posted["result"]["content"]["city"], "Springfield, Illinois");
}

#[test]
fn a_legacy_question_that_does_not_parse_is_declined_and_its_row_says_why() {
    // `message` must be a string: rmcp cannot read this question.
    let ask = json!({"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create",
        "params": {"message": 5, "requestedSchema": {"type": "object", "properties": {}}}})
    .to_string();
    let (f, answer) = legacy_run_asked(&ask);
    assert!(answer.contains("cloudy"), "{answer}");
    let run = f.run.borrow();
    let Some(Payload::Form { message, .. }) = run.row(Row::Elicit).and_then(|r| r.payload.clone())
    else {
        panic!("the question's row has no form payload");
    };
    assert!(
        message.contains("could not be read") && message.contains("do not parse"),
        "{message}"
    );
    let Some(Payload::FormAnswer { action, .. }) =
        run.row(Row::ElicitAnswer).and_then(|r| r.payload.clone())
    else {
        panic!("the answer's row has no answer");
    };
    assert_eq!(action, "decline");
    let reply = run.row(Row::ElicitReply).unwrap();
    let posted = &run.mcp.exchanges[reply.mcp[0]];
    let posted: Value = serde_json::from_str(posted.request_body.as_deref().unwrap()).unwrap();
    assert_eq!(posted["id"], "e1");
    assert_eq!(posted["result"]["action"], "decline");
}

#[test]
fn a_fresh_tool_list_is_reused_by_the_next_run_on_the_page() {
    let memory = ServerMemory::default();
    let f = fixture(
        vec![discover(1, 0), tools(2, 600_000), weather(3, "Sunny")],
        EraChoice::Modern,
        memory.clone(),
    );
    run_to_end(&f, "What's the weather in Tokyo?").expect("first run");
    // The clock is the scripted peer's: the second run shares it to compare times.
    let g = fixture(
        vec![discover(1, 0), weather(2, "Sunny")],
        EraChoice::Modern,
        memory,
    );
    run_to_end(&g, "What's the weather in Tokyo?").expect("second run");
    let run = g.run.borrow();
    assert!(matches!(
        run.row(Row::ListTools).unwrap().skipped,
        Some(SkipReason::FreshList {
            ttl_ms: 600_000,
            ..
        })
    ));
    assert!(
        matches!(run.payload(Row::ListToolsResult), Some(Payload::Tools { names, .. }) if names == &["get_weather"])
    );
    let methods = methods_sent(&g);
    assert_eq!(methods, [json!("server/discover"), json!("tools/call")]);
}

#[test]
fn a_tool_list_the_server_says_changed_is_asked_again_by_the_next_run() {
    let memory = ServerMemory::default();
    // The tool's answer comes on a stream that first says the tools changed.
    let changed_then_sunny = sse(&[
        &json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}).to_string(),
        &json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete",
            "content": [{"type": "text", "text": "Sunny"}]}})
        .to_string(),
    ]);
    let f = fixture(
        vec![discover(1, 0), tools(2, 600_000), changed_then_sunny],
        EraChoice::Modern,
        memory.clone(),
    );
    run_to_end(&f, "What's the weather in Tokyo?").expect("first run");
    let g = fixture(
        vec![discover(1, 0), tools(2, 600_000), weather(3, "Sunny")],
        EraChoice::Modern,
        memory,
    );
    run_to_end(&g, "What's the weather in Tokyo?").expect("second run");
    let methods = methods_sent(&g);
    assert_eq!(
        methods,
        [
            json!("server/discover"),
            json!("tools/list"),
            json!("tools/call")
        ],
        "the list is asked again while its ttlMs still runs"
    );
}

#[test]
fn modern_errors_show_at_their_row_with_their_meaning() {
    let mismatch = json_at(
        400,
        json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32020,
            "message": "Mcp-Name header does not match"}}),
    );
    let f = fixture(
        vec![discover(1, 0), tools(2, 0), mismatch],
        EraChoice::Modern,
        ServerMemory::default(),
    );
    let err = run_to_end(&f, "What's the weather in Tokyo?").unwrap_err();
    assert_eq!(err.row, Row::CallToolResult);
    assert!(
        err.error
            .contains("HTTP 400, JSON-RPC error -32020 (header mismatch)"),
        "{}",
        err.error
    );
    assert!(err.error.contains("do not match its body"), "{}", err.error);
}

#[test]
fn a_modern_result_without_result_type_counts_as_complete() {
    let bare = json_reply(json!({"jsonrpc": "2.0", "id": 3, "result": {
        "content": [{"type": "text", "text": "Sunny"}]}}));
    let f = fixture(
        vec![discover(1, 0), tools(2, 0), bare],
        EraChoice::Modern,
        ServerMemory::default(),
    );
    let answer = run_to_end(&f, "What's the weather in Tokyo?").expect("run");
    assert!(answer.contains("sunny"), "{answer}");
}

fn work_root() -> Vec<mcp_flow_client::roots::Root> {
    vec![mcp_flow_client::roots::Root {
        uri: "file:///home/me/work".into(),
        name: Some("work".into()),
    }]
}

#[test]
fn a_legacy_roots_request_on_the_stream_is_answered_with_the_settings_roots() {
    let ask = json!({"jsonrpc": "2.0", "id": "r1", "method": "roots/list"}).to_string();
    let (f, answer) = legacy_run_asked_with_roots(&ask, work_root());
    assert!(answer.contains("cloudy"), "{answer}");
    let run = f.run.borrow();
    assert_eq!(run.status(Row::Roots), RowStatus::Done);
    assert_eq!(run.status(Row::RootsReply), RowStatus::Done);
    assert_eq!(
        run.status(Row::Elicit),
        RowStatus::Skipped,
        "no form was asked"
    );
    match run.payload(Row::Roots) {
        Some(Payload::Roots { roots, round, .. }) => {
            assert_eq!(roots, &["file:///home/me/work"]);
            assert_eq!(*round, 1);
        }
        other => panic!("{other:?}"),
    }
    let reply = run.row(Row::RootsReply).expect("row");
    assert_eq!(
        reply.mcp.len(),
        1,
        "the POSTed roots belong to the reply row"
    );
    let posted = &run.mcp.exchanges[reply.mcp[0]];
    let sent: Value = serde_json::from_str(posted.request_body.as_deref().unwrap_or("null"))
        .unwrap_or(Value::Null);
    assert_eq!(sent["id"], "r1");
    assert_eq!(sent["result"]["roots"][0]["uri"], "file:///home/me/work");
}

#[test]
fn a_modern_roots_request_is_answered_in_the_retry_without_asking_the_user() {
    let roots = json_reply(json!({"jsonrpc": "2.0", "id": 3, "result": {
        "resultType": "input_required", "requestState": "state-r",
        "inputRequests": {"where": {"method": "roots/list"}}}}));
    let f = fixture(
        vec![discover(1, 0), tools(2, 0), roots, weather(4, "Cloudy")],
        EraChoice::Modern,
        ServerMemory::default(),
    );
    f.host.roots.shared_already();
    f.host.set_roots(work_root());
    let answer = play_answering(&f, "What's the weather in Springfield?", illinois()).expect("run");
    assert_eq!(answer, "The weather in Springfield, Illinois is cloudy.");
    assert!(f.forms.borrow().is_empty(), "no form for the user");
    let run = f.run.borrow();
    for row in [Row::Elicit, Row::Roots, Row::RootsReply, Row::ElicitReply] {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    for row in [Row::ElicitAsk, Row::ElicitAnswer] {
        assert_eq!(run.status(row), RowStatus::Skipped, "{row}");
    }
    let sent = f.http.sent.borrow();
    let retry = body(&sent[3]);
    assert_eq!(retry["params"]["requestState"], "state-r");
    assert_eq!(
        retry["params"]["inputResponses"]["where"],
        json!({"roots": [{"uri": "file:///home/me/work", "name": "work"}]})
    );
}

/// A sampling request for the model, as a server sends it.
fn sampling_params(max_tokens: u32) -> Value {
    json!({"messages": [{"role": "user", "content": {"type": "text",
        "text": "Write a packing tip for cloudy weather."}}],
        "systemPrompt": "One sentence.", "maxTokens": max_tokens})
}

/// The POSTed answer to the server request `id`, from the reply row's exchange.
fn posted_on(run: &crate::record::run::Run, row: Row) -> Value {
    let reply = run.row(row).expect("row");
    assert_eq!(reply.mcp.len(), 1, "the POSTed answer belongs to {row}");
    let posted = &run.mcp.exchanges[reply.mcp[0]];
    serde_json::from_str(posted.request_body.as_deref().unwrap_or("null")).unwrap_or(Value::Null)
}

#[test]
fn a_legacy_sampling_request_is_shown_answered_by_the_model_edited_and_posted() {
    let ask = json!({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage",
        "params": sampling_params(50)})
    .to_string();
    let f = fixture(
        legacy_script(&ask),
        EraChoice::Legacy,
        ServerMemory::default(),
    );
    *f.verdict.borrow_mut() = Verdict::Edit("Take a light jacket.");
    let answer = play_answering(&f, "What's the weather in Springfield?", illinois()).expect("run");
    assert!(answer.contains("cloudy"), "{answer}");
    let initialize = body(&f.http.sent.borrow()[0]);
    assert_eq!(initialize["params"]["capabilities"]["sampling"], json!({}));
    let run = f.run.borrow();
    for row in SAMPLING_ROWS {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    match run.payload(Row::Sample) {
        Some(Payload::Sampling {
            messages,
            system_prompt,
            max_tokens,
            ..
        }) => {
            assert_eq!(messages, &["user: Write a packing tip for cloudy weather."]);
            assert_eq!(system_prompt.as_deref(), Some("One sentence."));
            assert_eq!(*max_tokens, 50);
        }
        other => panic!("{other:?}"),
    }
    match run.payload(Row::SampleLlmAnswer) {
        Some(Payload::Sampled { text, verdict, .. }) => {
            assert!(text.contains("offline model"), "{text}");
            assert_eq!(verdict, "written");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(run.payload(Row::SampleApprove), Some(Payload::Sampled { verdict, .. }) if verdict == "edited")
    );
    let sent = posted_on(&run, Row::SampleReply);
    assert_eq!(sent["id"], "s1");
    assert_eq!(sent["result"]["role"], "assistant");
    assert_eq!(sent["result"]["content"]["text"], "Take a light jacket.");
    assert!(
        sent["result"]["model"]
            .as_str()
            .unwrap_or("")
            .contains("edited by the user")
    );
    assert!(
        sent["result"].get("stopReason").is_none(),
        "the user wrote it"
    );
    // The model was called once, with the request's system prompt and no tools.
    let llm = run
        .llm
        .iter()
        .filter(|e| e.request["max_tokens"] == 50)
        .count();
    assert_eq!(llm, 1);
    let dialogs = f.sampling.borrow();
    assert!(matches!(&dialogs[0], Some(SamplingDialog::Review(r)) if r.max_tokens == 50));
    assert!(
        dialogs.last().is_some_and(Option::is_none),
        "closed at the end"
    );
}

#[test]
fn a_refused_legacy_sampling_request_reaches_no_model_and_is_answered_with_error_minus_one() {
    let ask = json!({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage",
        "params": sampling_params(50)})
    .to_string();
    let f = fixture(
        legacy_script(&ask),
        EraChoice::Legacy,
        ServerMemory::default(),
    );
    *f.verdict.borrow_mut() = Verdict::RefuseRequest;
    play_answering(&f, "What's the weather in Springfield?", illinois()).expect("run");
    let run = f.run.borrow();
    for row in [Row::SampleLlm, Row::SampleLlmAnswer] {
        assert_eq!(
            run.row(row).unwrap().skipped,
            Some(SkipReason::SamplingRefused),
            "{row}"
        );
    }
    let sent = posted_on(&run, Row::SampleReply);
    assert_eq!(sent["error"]["code"], -1);
    assert_eq!(sent["error"]["message"], "User rejected sampling request");
}

#[test]
fn a_modern_sampling_request_is_answered_in_the_retry() {
    let asks = json_reply(json!({"jsonrpc": "2.0", "id": 3, "result": {
        "resultType": "input_required", "requestState": "state-s",
        "inputRequests": {"tip": {"method": "sampling/createMessage",
            "params": sampling_params(8)}}}}));
    let f = fixture(
        vec![discover(1, 0), tools(2, 0), asks, weather(4, "Cloudy")],
        EraChoice::Modern,
        ServerMemory::default(),
    );
    let answer = play_answering(&f, "What's the weather in Springfield?", illinois()).expect("run");
    assert_eq!(answer, "The weather in Springfield, Illinois is cloudy.");
    let run = f.run.borrow();
    for row in SAMPLING_ROWS
        .into_iter()
        .chain([Row::Elicit, Row::ElicitReply])
    {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    let sent = f.http.sent.borrow();
    let retry = body(&sent[3]);
    assert_eq!(retry["params"]["requestState"], "state-s");
    let tip = &retry["params"]["inputResponses"]["tip"];
    assert_eq!(tip["role"], "assistant");
    assert_eq!(
        tip["stopReason"], "maxTokens",
        "8 tokens cut the offline sentence"
    );
    let text = tip["content"]["text"].as_str().unwrap_or_default();
    assert_eq!(text.chars().count(), 32, "{text}");
    // The request went out declaring sampling, in 2026-07-28's _meta.
    let first = body(&sent[2]);
    assert_eq!(
        first["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["sampling"],
        json!({})
    );
}

#[test]
fn a_modern_sampling_request_refused_or_unanswerable_ends_the_call_without_a_retry() {
    for (params, verdict, said) in [
        (
            sampling_params(8),
            Verdict::RefuseAnswer,
            "User rejected sampling request",
        ),
        (sampling_params(0), Verdict::Approve, "maxTokens is 0"),
    ] {
        let asks = json_reply(json!({"jsonrpc": "2.0", "id": 3, "result": {
            "resultType": "input_required", "requestState": "s",
            "inputRequests": {"tip": {"method": "sampling/createMessage", "params": params}}}}));
        let f = fixture(
            vec![discover(1, 0), tools(2, 0), asks],
            EraChoice::Modern,
            ServerMemory::default(),
        );
        *f.verdict.borrow_mut() = verdict;
        let stopped =
            play_answering(&f, "What's the weather in Springfield?", illinois()).unwrap_err();
        assert_eq!(stopped.row, Row::ElicitReply);
        assert!(stopped.error.contains("not retried"), "{}", stopped.error);
        assert!(stopped.error.contains(said), "{}", stopped.error);
        let calls = f
            .http
            .sent
            .borrow()
            .iter()
            .filter(|r| body(r)["method"] == "tools/call")
            .count();
        assert_eq!(calls, 1, "no retry");
    }
}

/// A legacy run whose tools/call stream carries the URL-mode elicitation `url`, answered with
/// `answer` where the page shows it.
fn legacy_url_run(url: &str, answer: ElicitResult) -> Fixture {
    let ask = json!({"jsonrpc": "2.0", "id": "u1", "method": "elicitation/create",
        "params": {"mode": "url", "message": "Confirm the payment", "url": url,
            "elicitationId": "e-1"}})
    .to_string();
    let f = fixture(
        legacy_script(&ask),
        EraChoice::Legacy,
        ServerMemory::default(),
    );
    play_answering(&f, "What's the weather in Springfield?", answer).expect("run");
    f
}

#[test]
fn a_url_elicitation_shows_the_page_and_its_origin_and_sends_only_the_users_answer() {
    let f = legacy_url_run(
        "https://pay.example.com/confirm?cart=7",
        ElicitResult::new(ElicitationAction::Accept),
    );
    let initialize = body(&f.http.sent.borrow()[0]);
    assert_eq!(
        initialize["params"]["capabilities"]["elicitation"],
        json!({"form": {}, "url": {}})
    );
    let shown = f.forms.borrow()[0].clone().expect("shown");
    let page = shown.url.expect("a page to open");
    assert_eq!(page.origin, "https://pay.example.com");
    assert_eq!(page.url, "https://pay.example.com/confirm?cart=7");
    let run = f.run.borrow();
    let sent = posted_on(&run, Row::ElicitReply);
    assert_eq!(
        sent,
        json!({"jsonrpc": "2.0", "id": "u1", "result": {"action": "accept"}})
    );
}

#[test]
fn a_url_elicitation_to_a_page_that_is_not_http_is_declined_unshown() {
    let f = legacy_url_run(
        "javascript:alert(1)",
        ElicitResult::new(ElicitationAction::Accept),
    );
    assert!(f.forms.borrow().is_empty(), "nothing put to the user");
    let run = f.run.borrow();
    match run.payload(Row::Elicit) {
        Some(Payload::Form { message, .. }) => {
            assert!(message.contains("declined unopened"), "{message}");
            assert!(message.contains("not javascript:"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let sent = posted_on(&run, Row::ElicitReply);
    assert_eq!(sent["result"]["action"], "decline");
}

#[test]
fn a_tool_list_changed_during_a_legacy_call_is_listed_again_before_the_models_next_turn() {
    let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
    let mut script = legacy_script(&changed.to_string());
    // The POSTed-answer slot of the script is not used: a notification gets no answer.
    script.pop();
    script.push(sse(&[&tools_page(5, "get_forecast", None)]));
    let f = fixture(script, EraChoice::Legacy, ServerMemory::default());
    let answer = run_to_end(&f, "What's the weather in Springfield?").expect("run");
    assert!(answer.contains("cloudy"), "{answer}");
    let run = f.run.borrow();
    assert_eq!(run.status(Row::Relist), RowStatus::Done);
    match run.payload(Row::RelistResult) {
        Some(Payload::Tools { names, .. }) => assert_eq!(names, &["get_forecast"]),
        other => panic!("{other:?}"),
    }
    let relist = run.row(Row::Relist).expect("row");
    assert_eq!(relist.mcp.len(), 1);
    assert_eq!(
        run.mcp.exchanges[relist.mcp[0]].rpc_method.as_deref(),
        Some("tools/list")
    );
    // The model's next turn is offered the new list.
    let offered: Vec<String> = f
        .host
        .tools
        .borrow()
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert_eq!(offered, ["get_forecast"]);
    let relisted_before_the_model = run.row(Row::RelistResult).and_then(|r| r.finished_ms)
        <= run.row(Row::ResultToLlm).and_then(|r| r.started_ms);
    assert!(relisted_before_the_model);
}

#[test]
fn without_a_list_change_the_relist_rows_say_why_they_were_skipped() {
    let (f, _) = legacy_run_asked(
        &json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "info", "data": "working"}})
        .to_string(),
    );
    let run = f.run.borrow();
    for row in [Row::Relist, Row::RelistResult] {
        assert_eq!(
            run.row(row).and_then(|r| r.skipped),
            Some(SkipReason::ToolsUnchanged),
            "{row}"
        );
    }
}
