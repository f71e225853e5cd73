//! The fold of a watched host's traffic, from feed events as the bridge writes them.

use serde_json::{Value, json};

use super::Watch;
use super::sessions::SESSIONLESS;
use crate::diagram::Row;
use crate::record::payload::{Payload, SkipReason};
use crate::record::run::RowStatus;
use mcp_flow_client::era::Era;
use mcp_flow_wire::watch::{Event, Page, What};

/// Feed events for a test, numbered as the bridge numbers them.
#[derive(Default)]
struct Feed {
    events: Vec<Event>,
}

impl Feed {
    fn push(&mut self, exchange: u64, session: Option<&str>, what: What) -> &mut Self {
        let n = self.events.len() as u64;
        self.events.push(Event {
            n,
            at_ms: 1_000.0 + n as f64,
            exchange,
            session: session.map(str::to_owned),
            what,
        });
        self
    }

    fn post(&mut self, exchange: u64, session: Option<&str>, body: Value) -> &mut Self {
        self.push(
            exchange,
            session,
            What::Request {
                method: "POST".into(),
                url: "http://127.0.0.1:8001/s/x/mcp".into(),
                headers: vec![("content-type".into(), "application/json".into())],
                body: body.to_string(),
            },
        )
    }

    /// A JSON answer, whole.
    fn json(
        &mut self,
        exchange: u64,
        session: Option<&str>,
        status: u16,
        body: Value,
    ) -> &mut Self {
        let mut headers = vec![("content-type".into(), "application/json".into())];
        if let Some(session) = session {
            headers.push(("mcp-session-id".into(), session.into()));
        }
        self.push(exchange, session, What::Response { status, headers });
        self.push(
            exchange,
            session,
            What::Chunk {
                text: body.to_string(),
            },
        );
        self.push(exchange, session, What::End { error: None })
    }

    /// An event-stream answer, its events split across chunks where `split` says.
    fn sse(&mut self, exchange: u64, session: Option<&str>, messages: &[Value]) -> &mut Self {
        let headers = vec![("content-type".into(), "text/event-stream".into())];
        self.push(
            exchange,
            session,
            What::Response {
                status: 200,
                headers,
            },
        );
        for message in messages {
            let text = format!("event: message\ndata: {message}\n\n");
            let (a, b) = text.split_at(text.len() / 2);
            self.push(exchange, session, What::Chunk { text: a.into() });
            self.push(exchange, session, What::Chunk { text: b.into() });
        }
        self.push(exchange, session, What::End { error: None })
    }

    fn page(&self) -> Page {
        Page {
            mode: "http".into(),
            target: "http://127.0.0.1:8000/mcp".into(),
            next: self.events.len() as u64,
            missed: 0,
            dropped: 0,
            events: self.events.clone(),
        }
    }
}

fn rpc(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn result(id: u64, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// The TypeScript SDK's client against the weather server in 2025-11-25, as the bridge sees it.
fn legacy_session(feed: &mut Feed, first: u64, session: &str) {
    feed.post(
        first,
        None,
        rpc(0, "initialize", json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "example-client", "version": "1.0.0"}
        })),
    )
    .json(
        first,
        Some(session),
        200,
        result(0, json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "weather-server", "version": "0.1.0"}
        })),
    )
    .post(
        first + 1,
        Some(session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .push(first + 1, Some(session), What::Response { status: 202, headers: vec![] })
    .push(first + 1, Some(session), What::End { error: None })
    .post(first + 2, Some(session), rpc(1, "tools/list", json!({})))
    .sse(
        first + 2,
        Some(session),
        &[result(1, json!({"tools": [{"name": "get_weather", "inputSchema": {"type": "object"}}]}))],
    )
    .post(
        first + 3,
        Some(session),
        rpc(2, "tools/call", json!({"name": "get_weather", "arguments": {"location": "Tokyo"}})),
    )
    .sse(
        first + 3,
        Some(session),
        &[
            json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "fetching"}}),
            result(2, json!({"content": [{"type": "text", "text": "The weather in Tokyo is sunny."}]})),
        ],
    );
}

fn status(watch: &Watch, key: &str, row: Row) -> RowStatus {
    watch
        .session(key)
        .map_or(RowStatus::Pending, |s| s.run.status(row))
}

#[test]
fn a_legacy_session_lights_diagrams_one_and_two_from_its_messages() {
    let mut feed = Feed::default();
    legacy_session(&mut feed, 0, "s-1");
    let mut watch = Watch::default();
    watch.apply(feed.page());
    let summaries: Vec<_> = watch.sessions().cloned().collect();
    assert_eq!(summaries.len(), 1, "{summaries:?}");
    assert_eq!(summaries[0].key, "s-1");
    assert_eq!(summaries[0].client.as_deref(), Some("example-client 1.0.0"));
    assert_eq!(summaries[0].era, Some(Era::Legacy));
    for row in [
        Row::Initialize,
        Row::InitializeResult,
        Row::Initialized,
        Row::ListTools,
        Row::ListToolsResult,
        Row::CallTool,
        Row::Execute,
        Row::CallToolResult,
    ] {
        assert_eq!(status(&watch, "s-1", row), RowStatus::Done, "{row:?}");
    }
    let run = &watch.session("s-1").expect("the session").run;
    assert!(matches!(run.payload(Row::InitializeResult),
        Some(Payload::Handshake { server, session, .. })
            if server == "weather-server 0.1.0" && session.as_deref() == Some("s-1")));
    assert!(matches!(run.payload(Row::ListToolsResult),
        Some(Payload::Tools { names, .. }) if names == &["get_weather"]));
    assert!(matches!(run.payload(Row::CallTool),
        Some(Payload::ToolCall { tool, arguments, .. })
            if tool == "get_weather" && arguments["location"] == "Tokyo"));
    assert!(matches!(run.payload(Row::CallToolResult),
        Some(Payload::ToolResult { text, is_error: false, .. }) if text == "The weather in Tokyo is sunny."));
    // The arrows carry the values that crossed the wire (no model's choice to read them from).
    let (_, drawn) = crate::diagram::find_row(Row::CallTool).expect("the row");
    let label = crate::record::live::LiveValues::from_run(run)
        .label(Row::CallTool, drawn.label.get(crate::diagram::Lang::En));
    assert!(
        label.contains("get_weather") && label.contains("Tokyo"),
        "{label}"
    );
    // Each request's exchange is on its row, with the answer read from the stream.
    let call = run.row(Row::CallTool).expect("the row");
    assert_eq!(call.mcp, vec![3]);
    let x = &run.mcp.exchanges[3];
    assert_eq!(x.rpc_method.as_deref(), Some("tools/call"));
    assert_eq!(x.events.len(), 2, "both events of the stream");
    assert!(x.finished_ms.is_some());
    assert_eq!(run.notifications.len(), 1, "the log line");
    // What changed reads a watched session's exchanges as it reads a run's: another host that
    // was offered one more tool differs by that tool.
    let mut other = Feed::default();
    other
        .post(0, Some("s-2"), rpc(1, "tools/list", json!({})))
        .json(
            0,
            Some("s-2"),
            200,
            result(
                1,
                json!({"tools": [
                    {"name": "get_weather", "inputSchema": {"type": "object"}},
                    {"name": "get_forecast", "inputSchema": {"type": "object"}}
                ]}),
            ),
        );
    let mut second = Watch::default();
    second.apply(other.page());
    let before = crate::record::diff::Offer::of(&run.mcp.exchanges);
    let after =
        crate::record::diff::Offer::of(&second.session("s-2").expect("s-2").run.mcp.exchanges);
    let changes = crate::record::diff::diff(&before, &after);
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert!(
        format!("{changes:?}").contains("get_forecast"),
        "{changes:?}"
    );
    // What the host does inside itself is skipped, with why.
    for row in [
        Row::ToolsToLlm,
        Row::Question,
        Row::LlmAnswer,
        Row::ShowAnswer,
    ] {
        assert_eq!(run.status(row), RowStatus::Skipped, "{row:?}");
        assert_eq!(
            run.row(row).and_then(|r| r.skipped),
            Some(SkipReason::InsideTheHost)
        );
    }
    assert_eq!(
        run.row(Row::Elicit).and_then(|r| r.skipped),
        Some(SkipReason::NotSentYet),
        "no question was asked"
    );
}

#[test]
fn parallel_sessions_are_told_apart_even_while_initialize_waits_for_its_answer() {
    let mut feed = Feed::default();
    // Two hosts start at once: both initialize requests pass before either answer.
    feed.post(0, None, rpc(0, "initialize", json!({"protocolVersion": "2025-11-25", "clientInfo": {"name": "a", "version": "1"}})))
        .post(1, None, rpc(0, "initialize", json!({"protocolVersion": "2025-06-18", "clientInfo": {"name": "b", "version": "2"}})))
        .json(1, Some("s-b"), 200, result(0, json!({"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "w", "version": "0"}})))
        .json(0, Some("s-a"), 200, result(0, json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "w", "version": "0"}})))
        .post(2, Some("s-b"), rpc(1, "tools/list", json!({})))
        .json(2, Some("s-b"), 200, result(1, json!({"tools": [{"name": "x"}]})));
    let mut watch = Watch::default();
    watch.apply(feed.page());
    let keys: Vec<_> = watch
        .sessions()
        .map(|s| (s.key.clone(), s.client.clone()))
        .collect();
    assert_eq!(
        keys,
        vec![
            ("s-b".to_owned(), Some("b 2".to_owned())),
            ("s-a".to_owned(), Some("a 1".to_owned()))
        ]
    );
    assert_eq!(status(&watch, "s-b", Row::ListToolsResult), RowStatus::Done);
    assert_eq!(
        status(&watch, "s-a", Row::ListToolsResult),
        RowStatus::Skipped
    );
    let a = &watch.session("s-a").expect("a").run;
    assert!(
        matches!(a.payload(Row::Initialize), Some(Payload::Requested { version }) if version == "2025-11-25")
    );
    assert_eq!(a.mcp.exchanges.len(), 1, "only its own exchange");
}

#[test]
fn a_modern_host_is_drawn_in_2026_07_28_with_its_questions_and_the_retry() {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "modern-host", "version": "3"}
    });
    let mut feed = Feed::default();
    feed.post(0, None, rpc(1, "server/discover", json!({"_meta": meta})))
        .json(0, None, 200, result(1, json!({
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "weather-server", "version": "0.1.0"}}
        })))
        .post(1, None, rpc(2, "tools/call", json!({"name": "get_weather", "arguments": {"location": "Springfield"}, "_meta": meta})))
        .json(1, None, 200, result(2, json!({
            "resultType": "input_required",
            "requestState": "st-1",
            "inputRequests": {"q": {"method": "elicitation/create", "params": {"message": "Which Springfield?", "requestedSchema": {"type": "object"}}}}
        })))
        .post(2, None, rpc(3, "tools/call", json!({
            "name": "get_weather", "arguments": {"location": "Springfield"}, "_meta": meta,
            "requestState": "st-1", "inputResponses": {"q": {"action": "accept", "content": {"state": "IL"}}}
        })))
        .json(2, None, 200, result(3, json!({"content": [{"type": "text", "text": "Cloudy."}]})));
    let mut watch = Watch::default();
    watch.apply(feed.page());
    let summary = watch.sessions().next().cloned().expect("a session");
    assert_eq!(summary.key, format!("{SESSIONLESS}: modern-host 3"));
    assert_eq!(summary.era, Some(Era::Modern));
    assert_eq!(summary.client.as_deref(), Some("modern-host 3"));
    let run = &watch.session(&summary.key).expect("it").run;
    assert!(matches!(run.payload(Row::DiscoverResult),
        Some(Payload::Discovered { server: Some(server), .. }) if server == "weather-server 0.1.0"));
    assert!(matches!(run.payload(Row::Elicit),
        Some(Payload::Form { message, state: Some(state), .. }) if message == "Which Springfield?" && state == "st-1"));
    assert!(matches!(run.payload(Row::ElicitReply),
        Some(Payload::FormAnswer { action, .. }) if action == "accept"));
    assert!(matches!(run.payload(Row::CallToolResult),
        Some(Payload::ToolResult { text, .. }) if text == "Cloudy."));
    assert_eq!(run.status(Row::CallTool), RowStatus::Done);
    assert_eq!(run.era.as_ref().map(|d| d.era), Some(Era::Modern));
}

#[test]
fn hosts_without_sessions_are_kept_apart_by_the_client_they_name() {
    let call = |name: &str, id: u64| {
        let meta = json!({"io.modelcontextprotocol/clientInfo": {"name": name, "version": "1"}});
        rpc(id, "tools/list", json!({"_meta": meta}))
    };
    let mut feed = Feed::default();
    feed.post(0, None, call("cursor-like", 1))
        .post(1, None, call("agent", 1))
        .json(1, None, 200, result(1, json!({"tools": [{"name": "b"}]})))
        .json(0, None, 200, result(1, json!({"tools": [{"name": "a"}]})))
        .post(2, None, rpc(2, "ping", json!({})));
    let mut watch = Watch::default();
    watch.apply(feed.page());
    let keys: Vec<String> = watch.sessions().map(|s| s.key.clone()).collect();
    assert_eq!(
        keys,
        [
            format!("{SESSIONLESS}: cursor-like 1"),
            format!("{SESSIONLESS}: agent 1"),
            SESSIONLESS.to_owned()
        ]
    );
    let listed = |key: &str| match watch
        .session(key)
        .and_then(|s| s.run.payload(Row::ListToolsResult))
    {
        Some(Payload::Tools { names, .. }) => names.clone(),
        _ => Vec::new(),
    };
    assert_eq!(
        listed(&keys[0]),
        ["a"],
        "each answer found its own host by its exchange"
    );
    assert_eq!(listed(&keys[1]), ["b"]);
}

#[test]
fn an_initialize_that_never_gets_an_answer_is_drawn_failed_not_held_forever() {
    let mut feed = Feed::default();
    feed.post(
        0,
        None,
        rpc(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "clientInfo": {"name": "h", "version": "1"}}),
        ),
    )
    .push(
        0,
        None,
        What::End {
            error: Some("Cannot reach the upstream".into()),
        },
    );
    let mut watch = Watch::default();
    watch.apply(feed.page());
    let keys: Vec<String> = watch.sessions().map(|s| s.key.clone()).collect();
    assert_eq!(keys, [format!("{SESSIONLESS}: h 1")]);
    let run = &watch.session(&keys[0]).expect("it").run;
    assert_eq!(run.status(Row::Initialize), RowStatus::Done);
    let failed = run.row(Row::InitializeResult).expect("row");
    assert_eq!(failed.status, RowStatus::Failed);
    assert_eq!(failed.error.as_deref(), Some("Cannot reach the upstream"));
}

#[test]
fn a_refused_request_fails_its_answer_row_and_garbage_is_kept_but_draws_nothing() {
    let mut feed = Feed::default();
    feed.post(0, Some("s"), rpc(5, "tools/list", json!({})))
        .json(0, Some("s"), 500, json!("Internal Server Error"))
        .post(1, Some("s"), rpc(6, "tools/call", json!({"name": "x"})))
        .json(1, Some("s"), 200, json!({"jsonrpc": "2.0", "id": 6, "error": {"code": -32602, "message": "Unknown tool"}}))
        .push(2, Some("s"), What::Request {
            method: "POST".into(),
            url: "u".into(),
            headers: vec![],
            body: "{not json".into(),
        })
        .push(2, Some("s"), What::End { error: Some("the host closed the stream".into()) })
        // Events of an exchange the feed no longer held the start of.
        .push(99, None, What::Chunk { text: "data: {}\n\n".into() });
    let mut watch = Watch::default();
    watch.apply(feed.page());
    let run = &watch.session("s").expect("s").run;
    let failed = run.row(Row::ListToolsResult).expect("row");
    assert_eq!(failed.status, RowStatus::Failed);
    assert!(
        failed.error.as_deref().unwrap_or("").contains("HTTP 500"),
        "{failed:?}"
    );
    let call = run.row(Row::CallToolResult).expect("row");
    assert_eq!(call.status, RowStatus::Failed);
    assert!(call.error.as_deref().unwrap_or("").contains("Unknown tool"));
    assert_eq!(run.mcp.exchanges.len(), 3, "the garbage is in the log");
    assert_eq!(
        run.mcp.exchanges[2].error.as_deref(),
        Some("the host closed the stream")
    );
}

#[test]
fn a_second_call_draws_over_the_first() {
    let mut feed = Feed::default();
    legacy_session(&mut feed, 0, "s-1");
    feed.post(
        10,
        Some("s-1"),
        rpc(
            9,
            "tools/call",
            json!({"name": "get_weather", "arguments": {"location": "Paris"}}),
        ),
    );
    let mut watch = Watch::default();
    watch.apply(feed.page());
    let run = &watch.session("s-1").expect("it").run;
    assert!(matches!(run.payload(Row::CallTool),
        Some(Payload::ToolCall { arguments, round: 2, .. }) if arguments["location"] == "Paris"));
    assert_eq!(
        run.status(Row::CallToolResult),
        RowStatus::Skipped,
        "not answered yet"
    );
    assert_eq!(
        run.status(Row::Execute),
        RowStatus::Active,
        "the server runs it"
    );
}

#[test]
fn a_stdio_host_is_drawn_from_its_lines() {
    let line = |from_host: bool, value: Value| What::Line {
        from_host,
        text: value.to_string(),
    };
    let mut feed = Feed::default();
    feed.push(0, Some("tap-1"), line(true, rpc(0, "initialize", json!({"protocolVersion": "2025-11-25", "clientInfo": {"name": "stdio-host", "version": "1"}}))))
        .push(0, Some("tap-1"), What::Stderr { text: "starting".into() })
        .push(0, Some("tap-1"), line(false, result(0, json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "py", "version": "1"}}))))
        .push(0, Some("tap-1"), line(true, json!({"jsonrpc": "2.0", "method": "notifications/initialized"})))
        .push(0, Some("tap-1"), line(true, rpc(1, "tools/list", json!({}))))
        .push(0, Some("tap-1"), line(false, json!({"jsonrpc": "2.0", "id": 7, "method": "roots/list"})))
        .push(0, Some("tap-1"), line(true, result(7, json!({"roots": [{"uri": "file:///work"}]}))))
        .push(0, Some("tap-1"), line(false, result(1, json!({"tools": [{"name": "get_weather"}]}))));
    let mut watch = Watch::default();
    watch.apply(feed.page());
    let run = &watch.session("tap-1").expect("the tap's session").run;
    for row in [
        Row::Initialize,
        Row::InitializeResult,
        Row::Initialized,
        Row::ListToolsResult,
        Row::Roots,
        Row::RootsReply,
    ] {
        assert_eq!(run.status(row), RowStatus::Done, "{row:?}");
    }
    assert!(matches!(run.payload(Row::RootsReply),
        Some(Payload::Roots { roots, .. }) if roots == &["file:///work"]));
    let list = &run.mcp.exchanges[run.row(Row::ListTools).expect("row").mcp[0]];
    assert_eq!(list.method, "stdin");
    assert!(
        list.response_body
            .as_deref()
            .unwrap_or("")
            .contains("get_weather"),
        "the answer joins its request"
    );
}

#[test]
fn missed_and_dropped_events_are_counted() {
    let mut watch = Watch::default();
    watch.apply(Page {
        mode: "http".into(),
        target: "t".into(),
        next: 40,
        missed: 12,
        dropped: 30,
        events: Vec::new(),
    });
    assert_eq!((watch.next, watch.missed, watch.dropped), (40, 12, 30));
}

#[test]
fn only_a_bridges_feed_on_this_machine_is_watched() {
    use super::feed_url;
    assert_eq!(
        feed_url(" http://127.0.0.1:8001/s/abc/watch ").as_deref(),
        Ok("http://127.0.0.1:8001/s/abc/watch")
    );
    assert!(feed_url("http://localhost:9/s/x/watch").is_ok());
    for bad in [
        "http://example.com/s/abc/watch",
        "http://127.0.0.1:8001/watch",
        "http://127.0.0.1:8001/s//watch",
        "http://127.0.0.1:8001/s/abc/legs",
        "javascript:alert(1)//127.0.0.1/s/a/watch",
        "http://127.0.0.1:8001/s/abc/watch?since=0",
        "",
    ] {
        assert!(feed_url(bad).is_err(), "{bad}");
    }
}
