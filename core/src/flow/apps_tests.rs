//! The App diagram against a scripted server and a scripted frame: the conversation in order,
//! the app's tool call forwarded, and everything an app may not do refused on its row.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use futures_executor::{LocalPool, block_on};
use futures_util::future::LocalBoxFuture;
use futures_util::task::LocalSpawnExt;
use serde_json::{Value, json};

use super::apps::CalledTool;
use super::gate::Mode;
use super::host::{Approval, Consent};
use super::tests::host;
use crate::app::context::HostFacts;
use crate::app::frame::{Frame, FrameEvent};
use crate::app::guard::{MAX_HEIGHT, PER_SECOND};
use crate::diagram::Row;
use crate::record::run::{RowStatus, Run};
use mcp_flow_client::scripted::*;

const CARD: &str = "ui://weather/card.html";

/// A frame that gives its events in order, then is gone (or, `hangs`, waits for ever).
#[derive(Default)]
struct ScriptedFrame {
    events: RefCell<VecDeque<FrameEvent>>,
    posted: RefCell<Vec<Value>>,
    heights: RefCell<Vec<u32>>,
    asked: RefCell<Vec<String>>,
    links: RefCell<Vec<String>>,
    hangs: bool,
    opens: bool,
    /// The user's answer to the app's message.
    sends: bool,
}

impl Frame for ScriptedFrame {
    fn post(&self, message: Value) {
        self.posted.borrow_mut().push(message);
    }
    fn next(&self) -> LocalBoxFuture<'static, Option<FrameEvent>> {
        let event = self.events.borrow_mut().pop_front();
        match (event, self.hangs) {
            (None, true) => Box::pin(futures_util::future::pending()),
            (event, _) => Box::pin(async move { event }),
        }
    }
    fn resize(&self, height: u32) {
        self.heights.borrow_mut().push(height);
    }
    fn facts(&self) -> HostFacts {
        HostFacts {
            dark: true,
            locale: "zh-CN".into(),
            variables: vec![("--color-background-primary".into(), "#0f172a".into())],
            width: 640,
            max_height: MAX_HEIGHT,
        }
    }
    fn open_link(&self, url: String) -> LocalBoxFuture<'static, bool> {
        self.links.borrow_mut().push(url);
        let opens = self.opens;
        Box::pin(async move { opens })
    }
    fn ask(&self, text: String) -> LocalBoxFuture<'static, bool> {
        self.asked.borrow_mut().push(text);
        let sends = self.sends;
        Box::pin(async move { sends })
    }
}

fn from_app(message: Value) -> FrameEvent {
    FrameEvent::Message {
        at_ms: 0.0,
        message,
    }
}

fn request(id: i64, method: &str, params: Value) -> FrameEvent {
    from_app(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
}

fn notify(method: &str, params: Value) -> FrameEvent {
    from_app(json!({"jsonrpc": "2.0", "method": method, "params": params}))
}

/// The app's first words: the proxy ready, `ui/initialize`, `initialized`.
fn introduction() -> Vec<FrameEvent> {
    vec![
        notify("ui/notifications/sandbox-proxy-ready", json!({})),
        request(
            1,
            "ui/initialize",
            json!({"appInfo": {"name": "weather-card", "version": "1.0.0"},
                "appCapabilities": {}, "protocolVersion": "2026-01-26"}),
        ),
        notify("ui/notifications/initialized", json!({})),
    ]
}

/// The weather server's tools: get_weather with its card, one tool only the app may call and
/// one only the model may.
fn tools_with_apps() -> String {
    let schema = json!({"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]});
    json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": [
        {"name": "get_weather", "inputSchema": schema,
            "_meta": {"ui": {"resourceUri": CARD, "visibility": ["model", "app"]}}},
        {"name": "refresh_card", "inputSchema": {"type": "object"},
            "_meta": {"ui": {"visibility": ["app"]}}},
        {"name": "delete_city", "inputSchema": {"type": "object"},
            "_meta": {"ui": {"visibility": ["model"]}}},
    ]}})
    .to_string()
}

fn card(mime: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 5, "result": {"contents": [{"uri": CARD, "mimeType": mime,
        "text": "<!doctype html><p>card</p>", "_meta": {"ui": {"prefersBorder": true}}}]}})
    .to_string()
}

/// A 2025-11-25 server with apps: the run's requests, then the card, then `extra`.
fn script(mime: &str, extra: Vec<Script>) -> Vec<Script> {
    let result = json!({"jsonrpc": "2.0", "id": 4, "result": {
        "content": [{"type": "text", "text": "Sunny"}],
        "structuredContent": {"location": "Tokyo, Japan", "condition": "Sunny", "temperature": 22.0, "units": "celsius"}}})
    .to_string();
    let mut script = vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        sse(&[&json!({"jsonrpc": "2.0", "id": 2, "result": {}}).to_string()]),
        sse(&[&tools_with_apps()]),
        sse(&[&result]),
        sse(&[&card(mime)]),
    ];
    script.extend(extra);
    script
}

/// A host that asked, its server, its record and the call its app belongs to.
type Asked = (
    Rc<super::host::Host<Rc<Scripted>, crate::llm::offline::OfflineModel>>,
    Rc<Scripted>,
    Rc<RefCell<Run>>,
    CalledTool,
);

/// Asks for Tokyo's weather on a host of apps; the call its app belongs to.
fn asked(script: Vec<Script>) -> Asked {
    let (h, http, run) = host(script, Mode::Play, Approval::Auto);
    h.client.set_hosts_apps(true);
    block_on(async {
        h.discover().await.expect("discover");
        h.ask("What's the weather in Tokyo?").await.expect("ask");
    });
    let called = h.app_call().expect("get_weather has an app");
    // From here the App diagram's rows are drawn (the page adds them when an app is hosted).
    *run.borrow_mut() = Run::new(crate::diagram::app_rows());
    (h, http, run, called)
}

fn sent_bodies(http: &Scripted) -> Vec<Value> {
    http.sent
        .borrow()
        .iter()
        .filter_map(|r| serde_json::from_str(r.body.as_deref()?).ok())
        .collect()
}

fn methods(posted: &[Value]) -> Vec<String> {
    posted
        .iter()
        .map(|m| match m.get("method").and_then(Value::as_str) {
            Some(method) => method.to_owned(),
            None => format!("answer to {}", m["id"]),
        })
        .collect()
}

#[test]
fn the_card_is_read_rendered_initialized_and_its_own_call_goes_to_the_server() {
    let forwarded = json!({"jsonrpc": "2.0", "id": 6, "result": {
        "content": [{"type": "text", "text": "Sunny"}],
        "structuredContent": {"location": "Tokyo, Japan", "temperature": 71.6, "units": "fahrenheit"}}})
    .to_string();
    let (h, http, run, called) = asked(script(APP_MIME, vec![sse(&[&forwarded])]));
    assert_eq!(called.arguments, json!({"location": "Tokyo"}));
    let mut events = introduction();
    events.extend([
        notify("ui/notifications/size-changed", json!({"width": 600, "height": 180.4})),
        request(2, "tools/call", json!({"name": "get_weather", "arguments": {"location": "Tokyo", "units": "fahrenheit"}})),
        notify("notifications/message", json!({"level": "info", "logger": "weather-card", "data": "switching"})),
        FrameEvent::Closing("the run ended".into()),
        from_app(json!({"jsonrpc": "2.0", "id": "mcp-flow-teardown", "result": {}})),
    ]);
    let frame = Rc::new(ScriptedFrame {
        events: RefCell::new(events.into()),
        ..Default::default()
    });
    block_on(h.host_app(&called, frame.clone())).expect("hosted");

    let posted = frame.posted.borrow();
    assert_eq!(
        methods(&posted),
        [
            "ui/notifications/sandbox-resource-ready",
            "answer to 1",
            "ui/notifications/tool-input",
            "ui/notifications/tool-result",
            "answer to 2",
            "ui/resource-teardown",
        ]
    );
    let ready = &posted[0]["params"];
    let html = ready["html"].as_str().expect("html");
    assert!(
        html.starts_with("<!doctype html><meta http-equiv=\"Content-Security-Policy\""),
        "{html}"
    );
    assert!(
        html.contains("connect-src 'none'"),
        "no domains: no network: {html}"
    );
    assert_eq!(ready["sandbox"], "allow-scripts allow-forms");
    let init = &posted[1]["result"];
    assert_eq!(init["protocolVersion"], "2026-01-26");
    assert_eq!(init["hostContext"]["theme"], "dark");
    assert_eq!(init["hostContext"]["locale"], "zh-CN");
    assert_eq!(
        init["hostContext"]["toolInfo"]["tool"]["name"],
        "get_weather"
    );
    assert_eq!(
        posted[2]["params"]["arguments"],
        json!({"location": "Tokyo"})
    );
    assert_eq!(posted[3]["params"]["content"][0]["text"], "Sunny");
    assert_eq!(
        posted[4]["result"]["structuredContent"]["units"],
        "fahrenheit"
    );
    assert_eq!(*frame.heights.borrow(), [181]);

    // Over HTTP: the card read, then the app's call, nothing else.
    let sent = sent_bodies(&http);
    let tail: Vec<(&str, &Value)> = sent[sent.len() - 2..]
        .iter()
        .map(|b| (b["method"].as_str().unwrap_or(""), &b["params"]))
        .collect();
    assert_eq!(tail[0], ("resources/read", &json!({"uri": CARD})));
    assert_eq!(tail[1].0, "tools/call");
    assert_eq!(tail[1].1["arguments"]["units"], "fahrenheit");

    let run = run.borrow();
    for row in [
        Row::AppRead,
        Row::AppReadResult,
        Row::AppRender,
        Row::AppInitialize,
        Row::AppInitializeResult,
        Row::AppInitialized,
        Row::AppToolInput,
        Row::AppToolResult,
        Row::AppSize,
        Row::AppCall,
        Row::AppForward,
        Row::AppForwardResult,
        Row::AppCallResult,
        Row::AppLog,
        Row::AppTeardown,
        Row::AppTornDown,
    ] {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    for row in [
        Row::AppMessage,
        Row::AppModelContext,
        Row::AppLink,
        Row::AppLinkConsent,
    ] {
        assert_eq!(
            run.status(row),
            RowStatus::Pending,
            "{row}: the app never asked"
        );
    }
    // Every message is in the record at its row, the document's HTML left out.
    let at = |row: Row| run.row(row).map_or(0, |r| r.app.len());
    assert_eq!(
        (at(Row::AppInitialize), at(Row::AppInitializeResult)),
        (1, 1)
    );
    let render = &run.app[run.row(Row::AppRender).expect("row").app[1]];
    assert!(render.to_app);
    assert!(
        render.message["params"]["html"]
            .as_str()
            .unwrap_or("")
            .contains("bytes of HTML")
    );
    assert!(
        run.notifications
            .iter()
            .any(|n| n["params"]["logger"] == "weather-card")
    );
}

const APP_MIME: &str = "text/html;profile=mcp-app";

#[test]
fn what_an_app_may_not_do_is_refused_on_its_row_and_never_reaches_the_server() {
    let (h, http, run, called) = asked(script(APP_MIME, vec![]));
    let before = http.sent.borrow().len();
    let mut events = introduction();
    events.extend([
        from_app(json!({"id": 9, "method": "tools/call"})),
        request(
            10,
            "tools/call",
            json!({"name": "delete_city", "arguments": {}}),
        ),
        request(11, "tools/call", json!({"name": "rm_rf", "arguments": {}})),
        request(12, "ui/open-link", json!({"url": "javascript:alert(1)"})),
        request(
            13,
            "ui/open-link",
            json!({"url": "https://example.com/forecast"}),
        ),
        notify(
            "ui/notifications/size-changed",
            json!({"width": 1, "height": 1_000_000}),
        ),
        request(14, "sampling/createMessage", json!({})),
    ]);
    // A flood: 10,000 pings in one instant.
    events.extend((0..10_000).map(|i| request(100 + i, "ping", json!({}))));
    let frame = Rc::new(ScriptedFrame {
        events: RefCell::new(events.into()),
        ..Default::default()
    });
    block_on(h.host_app(&called, frame.clone())).expect("hosted");

    assert_eq!(
        http.sent.borrow().len(),
        before + 1,
        "only the card was read"
    );
    let posted = frame.posted.borrow();
    let error_to = |id: i64| {
        posted.iter().find(|m| m["id"] == json!(id)).map(|m| {
            (
                m["error"]["code"].as_i64(),
                m["error"]["message"].as_str().unwrap_or("").to_owned(),
            )
        })
    };
    let (code, why) = error_to(9).expect("malformed answered");
    assert_eq!(code, Some(-32600));
    assert!(why.contains("JSON-RPC 2.0"), "{why}");
    let (_, why) = error_to(10).expect("model-only tool refused");
    assert!(why.contains("not marked for apps"), "{why}");
    let (_, why) = error_to(11).expect("unknown tool refused");
    assert!(why.contains("not a tool of this server"), "{why}");
    let (_, why) = error_to(12).expect("javascript: refused");
    assert!(why.contains("only http: and https:"), "{why}");
    let (_, why) = error_to(13).expect("the user declined");
    assert_eq!(why, "Link opening denied by user");
    assert_eq!(
        *frame.links.borrow(),
        ["https://example.com/forecast"],
        "only the web link was offered"
    );
    assert_eq!(error_to(14).map(|e| e.0), Some(Some(-32601)));
    assert_eq!(*frame.heights.borrow(), [MAX_HEIGHT]);
    let pongs = posted
        .iter()
        .filter(|m| m["id"].as_i64().is_some_and(|id| id >= 100))
        .count();
    assert!(pongs < 400, "{pongs} of 10,000 pings answered");

    let run = run.borrow();
    assert_eq!(run.status(Row::AppCall), RowStatus::Failed);
    assert_eq!(
        run.status(Row::AppLink),
        RowStatus::Done,
        "the last link was a web page"
    );
    assert_eq!(run.status(Row::AppLinkConsent), RowStatus::Done);
    assert_eq!(run.status(Row::AppForward), RowStatus::Pending);
    let dropping = run
        .app
        .iter()
        .filter_map(|p| p.refused.as_deref())
        .filter(|r| r.contains("dropping"))
        .collect::<Vec<_>>();
    assert_eq!(
        dropping,
        [format!(
            "dropping messages: more than {PER_SECOND} a second"
        )],
        "said once"
    );
}

#[test]
fn an_app_that_never_says_initialized_gets_nothing_and_its_row_says_so() {
    let (h, _, run, called) = asked(script(APP_MIME, vec![]));
    let mut events = introduction();
    events.pop();
    let frame = Rc::new(ScriptedFrame {
        events: RefCell::new(events.into()),
        hangs: true,
        ..Default::default()
    });
    let hosted = futures_util::FutureExt::now_or_never(async {
        // The scripted clock runs out the wait at once; the frame then hangs for ever.
        let mut hosting = Box::pin(h.host_app(&called, frame.clone()));
        futures_util::poll!(&mut hosting)
    });
    assert!(hosted.is_some());
    let posted = frame.posted.borrow();
    assert_eq!(
        methods(&posted),
        ["ui/notifications/sandbox-resource-ready", "answer to 1"]
    );
    let run = run.borrow();
    let row = run.row(Row::AppInitialized).expect("row");
    assert_eq!(row.status, RowStatus::Failed);
    assert!(
        row.error
            .as_deref()
            .unwrap_or("")
            .contains("did not send ui/notifications/initialized")
    );
    assert_eq!(run.status(Row::AppToolInput), RowStatus::Pending);
}

#[test]
fn an_app_closed_before_its_proxy_was_ready_ends_at_the_render_with_nothing_sent() {
    let (h, _, run, called) = asked(script(APP_MIME, vec![]));
    let frame = Rc::new(ScriptedFrame {
        events: RefCell::new(vec![FrameEvent::Closing("a new run starts".into())].into()),
        hangs: true,
        ..Default::default()
    });
    let stopped = block_on(h.host_app(&called, frame.clone())).expect_err("closed");
    assert_eq!(stopped.row, Row::AppRender);
    assert_eq!(stopped.error, "a new run starts");
    assert!(frame.posted.borrow().is_empty(), "no HTML, no teardown");
    assert_eq!(run.borrow().status(Row::AppRender), RowStatus::Failed);
}

#[test]
fn html_of_another_type_is_refused_with_why() {
    let (h, _, run, called) = asked(script("text/html", vec![]));
    let frame = Rc::new(ScriptedFrame::default());
    let stopped = block_on(h.host_app(&called, frame.clone())).expect_err("refused");
    assert_eq!(stopped.row, Row::AppReadResult);
    assert!(
        stopped.error.contains("text/html;profile=mcp-app"),
        "{}",
        stopped.error
    );
    assert!(frame.posted.borrow().is_empty(), "nothing rendered");
    assert_eq!(run.borrow().status(Row::AppRender), RowStatus::Pending);
}

#[test]
fn a_tool_only_apps_may_call_is_hidden_from_the_model_and_no_app_without_the_extension() {
    let (h, _, _, _) = asked(script(APP_MIME, vec![]));
    let offered: Vec<String> = h.tools.borrow().iter().map(|t| t.name.clone()).collect();
    assert_eq!(offered, ["get_weather", "delete_city"]);
    h.client.set_hosts_apps(false);
    assert!(
        h.app_call().is_none(),
        "a host without the extension renders no app"
    );
}

#[test]
fn a_link_calls_the_tool_without_a_model_and_its_app_follows() {
    let (h, http, run) = host(script(APP_MIME, vec![]), Mode::Play, Approval::Auto);
    h.client.set_hosts_apps(true);
    let shown = block_on(async {
        h.discover().await.expect("discover");
        h.call_from_link("get_weather", r#"{"location": "Paris"}"#)
            .await
    })
    .expect("called");
    assert_eq!(shown, "Sunny", "the result's text is the answer");
    let call = sent_bodies(&http)
        .into_iter()
        .find(|b| b["method"] == "tools/call")
        .expect("tools/call sent");
    assert_eq!(call["params"]["arguments"], json!({"location": "Paris"}));
    let run = run.borrow();
    for row in [
        Row::Question,
        Row::AskLlm,
        Row::LlmChoice,
        Row::ResultToLlm,
        Row::LlmAnswer,
    ] {
        let record = run.row(row).expect("row");
        assert_eq!(record.status, RowStatus::Skipped, "{row}");
        assert_eq!(
            record.skipped,
            Some(crate::record::payload::SkipReason::CalledFromLink)
        );
    }
    for row in [
        Row::CallToolAsk,
        Row::CallTool,
        Row::CallToolResult,
        Row::ResultToHost,
        Row::ShowAnswer,
    ] {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    assert_eq!(
        h.app_call().map(|c| c.arguments),
        Some(json!({"location": "Paris"}))
    );
}

#[test]
fn a_links_arguments_that_are_not_an_object_fail_before_any_call() {
    let (h, http, run) = host(script(APP_MIME, vec![]), Mode::Play, Approval::Auto);
    block_on(h.discover()).expect("discover");
    let before = http.sent.borrow().len();
    let stopped = block_on(h.call_from_link("get_weather", "[\"Paris\"]")).expect_err("refused");
    assert_eq!(stopped.row, Row::CallToolAsk);
    assert!(
        stopped.error.contains("not a JSON object"),
        "{}",
        stopped.error
    );
    assert_eq!(http.sent.borrow().len(), before, "nothing sent");
    assert_eq!(run.borrow().status(Row::CallToolAsk), RowStatus::Failed);
}

#[test]
fn a_message_to_the_conversation_is_sent_only_on_the_users_yes() {
    let (h, _, run, called) = asked(script(APP_MIME, vec![]));
    let mut events = introduction();
    events.push(request(
        2,
        "ui/message",
        json!({"role": "user", "content": {"type": "text", "text": "Ask again, forever"}}),
    ));
    let frame = Rc::new(ScriptedFrame {
        events: RefCell::new(events.into()),
        ..Default::default()
    });
    block_on(h.host_app(&called, frame.clone())).expect("hosted");
    assert_eq!(
        *frame.asked.borrow(),
        ["Ask again, forever"],
        "put to the user"
    );
    let posted = frame.posted.borrow();
    let answer = posted
        .iter()
        .find(|m| m["id"] == json!(2))
        .expect("answered");
    assert_eq!(answer["error"]["message"], "Message sending denied by user");
    let run = run.borrow();
    assert_eq!(run.status(Row::AppMessage), RowStatus::Done);
}

#[test]
fn a_message_to_the_conversation_becomes_the_next_question() {
    let (h, _, run, called) = asked(script(APP_MIME, vec![]));
    let mut events = introduction();
    events.extend([
        // The spec's one block, and the SDK's list of blocks.
        request(
            2,
            "ui/message",
            json!({"role": "user", "content": {"type": "text", "text": "And in Paris?"}}),
        ),
        request(
            3,
            "ui/message",
            json!({"role": "user", "content": [{"type": "text", "text": "And in Rome?"}]}),
        ),
        request(
            4,
            "ui/update-model-context",
            json!({"content": [{"type": "text", "text": "The user prefers °F."}]}),
        ),
    ]);
    let frame = Rc::new(ScriptedFrame {
        events: RefCell::new(events.into()),
        sends: true,
        ..Default::default()
    });
    block_on(h.host_app(&called, frame.clone())).expect("hosted");
    assert_eq!(*frame.asked.borrow(), ["And in Paris?", "And in Rome?"]);
    let posted = frame.posted.borrow();
    for id in [2, 3] {
        let answer = posted
            .iter()
            .find(|m| m["id"] == json!(id))
            .expect("answered");
        assert_eq!(answer["result"], json!({}), "{answer}");
    }
    assert_eq!(h.app_context().as_deref(), Some("The user prefers °F."));
    let run = run.borrow();
    assert_eq!(run.status(Row::AppMessage), RowStatus::Done);
    assert_eq!(run.status(Row::AppModelContext), RowStatus::Done);
}

/// Runs `frame`'s app on `h` in a pool, so the test can answer the host's dialogs.
fn hosting(
    h: &Rc<super::host::Host<Rc<Scripted>, crate::llm::offline::OfflineModel>>,
    called: CalledTool,
    frame: Rc<ScriptedFrame>,
) -> LocalPool {
    let pool = LocalPool::new();
    let host = h.clone();
    pool.spawner()
        .spawn_local(async move {
            let _ = host.host_app(&called, frame).await;
        })
        .expect("spawned");
    pool
}

#[test]
fn an_apps_tool_call_asks_the_user_as_the_models_does_naming_the_app_and_the_server() {
    let forwarded = |id: i64| {
        json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "Sunny"}]}})
            .to_string()
    };
    let (h, http, run, called) = asked(script(
        APP_MIME,
        vec![sse(&[&forwarded(6)]), sse(&[&forwarded(7)])],
    ));
    h.set_approval(Approval::Ask);
    let before = http.sent.borrow().len();
    let call = |id: i64, name: &str| {
        request(
            id,
            "tools/call",
            json!({"name": name, "arguments": {"location": "Tokyo"}}),
        )
    };
    let mut events = introduction();
    events.extend([
        call(2, "get_weather"),
        call(3, "get_weather"),
        call(4, "get_weather"),
        call(5, "refresh_card"),
    ]);
    let frame = Rc::new(ScriptedFrame {
        events: RefCell::new(events.into()),
        ..Default::default()
    });
    let mut pool = hosting(&h, called, frame.clone());
    let dialog = || super::tests::DIALOG.with(|d| d.borrow().clone());

    // The first call: the dialog names the tool, the app and the server; declined, nothing sent.
    pool.run_until_stalled();
    let first = dialog().expect("the app's call is put to the user");
    assert_eq!(first.tool, "get_weather");
    assert_eq!(first.app.as_deref(), Some(CARD));
    assert_eq!(first.server, "http://127.0.0.1:8000");
    h.decide(Consent::Declined);
    pool.run_until_stalled();
    assert_eq!(
        http.sent.borrow().len(),
        before + 1,
        "only the card was read: a declined call is not sent"
    );
    // The second: allowed for the rest of the run; the third runs without asking.
    assert!(dialog().is_some(), "asked again after a decline");
    h.decide(Consent::ForTheRun);
    pool.run_until_stalled();
    // The fourth, another tool: asked again.
    let fourth = dialog().expect("another tool asks again");
    assert_eq!(fourth.tool, "refresh_card");
    h.decide(Consent::Declined);
    pool.run_until_stalled();

    let sent = sent_bodies(&http);
    let calls: Vec<&Value> = sent[before..]
        .iter()
        .filter(|b| b["method"] == "tools/call")
        .collect();
    assert_eq!(calls.len(), 2, "the second and third calls: {calls:?}");
    let posted = frame.posted.borrow();
    let answer = |id: i64| posted.iter().find(|m| m["id"] == json!(id)).cloned();
    let declined = answer(2).expect("answered");
    assert!(
        declined["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("declined")),
        "{declined}"
    );
    assert!(answer(3).is_some_and(|a| a.get("result").is_some()));
    assert!(answer(4).is_some_and(|a| a.get("result").is_some()));
    assert!(answer(5).is_some_and(|a| a.get("error").is_some()));
    let run = run.borrow();
    assert!(
        run.app
            .iter()
            .any(|p| p.refused.as_deref().is_some_and(|r| r.contains("declined"))),
        "the decline is in the record"
    );
}

#[test]
fn an_app_that_navigates_its_frame_is_gone_and_nothing_more_is_read_or_sent() {
    let (h, http, run, called) = asked(script(APP_MIME, vec![]));
    let before = http.sent.borrow().len();
    let mut events = introduction();
    events.extend([
        // Past the rate limit: the proxy's notice is read all the same.
        notify(
            "ui/notifications/sandbox-app-navigated",
            json!({"reason": "the app tried to navigate its frame to https://elsewhere.example"}),
        ),
        // What the page it reached sends is never read.
        request(
            2,
            "tools/call",
            json!({"name": "get_weather", "arguments": {"location": "Oslo"}}),
        ),
        request(3, "ping", json!({})),
    ]);
    let frame = Rc::new(ScriptedFrame {
        events: RefCell::new(events.into()),
        hangs: true,
        ..Default::default()
    });
    let hosted = futures_util::FutureExt::now_or_never(h.host_app(&called, frame.clone()));
    assert!(matches!(hosted, Some(Ok(()))), "the conversation ended");
    assert_eq!(
        http.sent.borrow().len(),
        before + 1,
        "only the card was read"
    );
    let posted = frame.posted.borrow();
    assert!(
        posted
            .iter()
            .all(|m| m["id"] != json!(2) && m["id"] != json!(3)),
        "nothing answered: {posted:?}"
    );
    assert!(
        posted.iter().all(|m| m["method"] != "ui/resource-teardown"),
        "no teardown is sent to what is in the frame now"
    );
    let run = run.borrow();
    assert_eq!(run.status(Row::AppTornDown), RowStatus::Failed);
}
