//! The client against a scripted HTTP peer: exact requests out, canned responses in.

use std::cell::RefCell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::{Value, json};

use crate::client::McpClient;
use crate::error::{McpError, TransportError};
use crate::http::HttpRequest;
use crate::log_level::LogLevel;
use crate::record::{Log, shared_log};
use crate::scripted::*;
use crate::tools::result_text;

fn client(script: Vec<Script>) -> (McpClient<Rc<Scripted>>, Rc<Scripted>, Rc<RefCell<Log>>) {
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = script.into();
    let (log, recorder) = shared_log();
    let c = McpClient::new(
        http.clone(),
        http.clone(),
        "http://127.0.0.1:8000/mcp",
        recorder,
    );
    (c, http, log)
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

#[test]
fn full_exchange_over_sse_with_the_log_before_the_result() {
    let log_note = json!({"jsonrpc":"2.0","method":"notifications/message",
        "params":{"level":"info","data":"get_weather called for Tokyo"}})
    .to_string();
    let call = json!({"jsonrpc":"2.0","id":4,"result":{
        "content":[{"type":"text","text":"Sunny"}],
        "structuredContent":{"condition":"Sunny"}}})
    .to_string();
    let (c, http, log) = client(vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        sse(&[&tools_page(2, "get_weather", Some("p2"))]),
        sse(&[&tools_page(3, "other", None)]),
        sse(&[&log_note, &call]),
    ]);
    let order = Rc::new(RefCell::new(Vec::<String>::new()));
    let seen = order.clone();
    c.set_listener(Some(Box::new(move |m: &Value| {
        seen.borrow_mut()
            .push(m["method"].as_str().unwrap_or("?").to_owned())
    })));
    block_on(async {
        let hs = c.connect().await.expect("connect");
        assert_eq!(hs.protocol_version, "2025-11-25");
        let tools = c.list_tools().await.expect("tools");
        assert_eq!(
            tools.iter().map(|t| t.name.to_string()).collect::<Vec<_>>(),
            ["get_weather", "other"]
        );
        let result = c
            .call_tool("get_weather", json!({"location": "Tokyo"}), None)
            .await
            .expect("call");
        order.borrow_mut().push("result".into());
        assert_eq!(result_text(&result), "Sunny");
    });
    assert_eq!(*order.borrow(), ["notifications/message", "result"]);

    let sent = http.sent.borrow();
    assert_eq!(sent.len(), 5);
    assert!(sent.iter().all(|r| r.method == "POST"));
    assert!(
        sent.iter()
            .all(|r| header(r, "accept") == Some("application/json, text/event-stream"))
    );
    assert_eq!(header(&sent[0], "mcp-session-id"), None);
    assert_eq!(header(&sent[0], "mcp-protocol-version"), None);
    for later in &sent[1..] {
        assert_eq!(header(later, "mcp-session-id"), Some("sess-1"));
        assert_eq!(header(later, "mcp-protocol-version"), Some("2025-11-25"));
    }
    let page2: Value = serde_json::from_str(sent[3].body.as_deref().unwrap()).unwrap();
    assert_eq!(page2["params"]["cursor"], "p2");

    let log = log.borrow();
    assert_eq!(log.exchanges.len(), 5);
    assert!(
        log.exchanges
            .iter()
            .all(|x| !x.in_flight() && x.error.is_none())
    );
    assert_eq!(log.exchanges[1].status, Some(202));
    assert_eq!(log.exchanges[4].rpc_method.as_deref(), Some("tools/call"));
    // priming event + log + result, in arrival order
    let events = &log.exchanges[4].events;
    assert_eq!(events.len(), 3);
    assert!(events[0].data.is_empty() && events[0].retry == Some(3000));
    assert!(events[1].data.contains("notifications/message"));
}

#[test]
fn older_supported_versions_are_used_and_unknown_ones_refused() {
    let (c, http, _) = client(vec![
        json_reply(serde_json::from_str(&init_result(1, "2025-03-26")).unwrap()),
        status(202, "", ""),
    ]);
    block_on(async {
        assert_eq!(c.connect().await.unwrap().protocol_version, "2025-03-26");
    });
    assert_eq!(
        header(&http.sent.borrow()[1], "mcp-protocol-version"),
        Some("2025-03-26")
    );

    let (c, _, _) = client(vec![json_reply(
        serde_json::from_str(&init_result(1, "2024-11-05")).unwrap(),
    )]);
    let err = block_on(c.initialize()).unwrap_err();
    assert!(
        matches!(&err, McpError::Invalid(m) if m.contains("2024-11-05") && m.contains("2025-11-25")),
        "{err}"
    );
}

#[test]
fn a_404_on_a_session_reinitializes_once_and_retries() {
    let (c, http, log) = client(vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        status(404, "text/plain", "Session not found"),
        sse(&[&init_result(3, "2025-11-25")]),
        status(202, "", ""),
        sse(&[&tools_page(4, "get_weather", None)]),
    ]);
    block_on(async {
        c.connect().await.unwrap();
        let tools = c.list_tools().await.expect("tools after re-initialize");
        assert_eq!(tools.len(), 1);
    });
    let methods: Vec<String> = http
        .sent
        .borrow()
        .iter()
        .map(|r| {
            serde_json::from_str::<Value>(r.body.as_deref().unwrap_or("{}")).unwrap()["method"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .collect();
    assert_eq!(
        methods,
        [
            "initialize",
            "notifications/initialized",
            "tools/list",
            "initialize",
            "notifications/initialized",
            "tools/list"
        ]
    );
    let log = log.borrow();
    assert_eq!(log.exchanges[2].status, Some(404));
    assert!(log.exchanges[2].error.is_some());
    assert!(log.exchanges[3].note.as_deref().unwrap().contains("404"));
    assert!(log.exchanges[5].note.as_deref().unwrap().contains("retry"));
}

#[test]
fn a_404_twice_is_an_error_not_a_loop() {
    let (c, _, _) = client(vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        status(404, "text/plain", "gone"),
        sse(&[&init_result(3, "2025-11-25")]),
        status(202, "", ""),
        status(404, "text/plain", "gone again"),
    ]);
    let err = block_on(async {
        c.connect().await.unwrap();
        c.list_tools().await.unwrap_err()
    });
    assert!(matches!(
        err,
        McpError::Transport(TransportError::Status { status: 404, .. })
    ));
}

#[test]
fn timeout_fails_the_exchange_and_sends_cancelled() {
    let (c, http, log) = client(vec![Script::Hang, status(202, "", "")]);
    c.set_timeout_ms(50);
    let err = block_on(c.ping()).unwrap_err();
    assert_eq!(err, McpError::Transport(TransportError::Timeout { ms: 50 }));
    let sent = http.sent.borrow();
    let cancel: Value = serde_json::from_str(sent[1].body.as_deref().unwrap()).unwrap();
    assert_eq!(cancel["method"], "notifications/cancelled");
    assert_eq!(cancel["params"]["requestId"], 1);
    // The timed-out request was dropped (in a browser: its fetch aborted) before the
    // cancellation went out, not after.
    assert_eq!(*http.alive_at_send.borrow(), [0, 0]);
    assert_eq!(http.alive.get(), 0);
    let log = log.borrow();
    assert!(
        log.exchanges[0]
            .error
            .as_deref()
            .unwrap()
            .contains("timed out")
    );
}

#[test]
fn a_cancellation_the_server_never_takes_does_not_outlast_the_timeout() {
    // The server hangs on the request and on the notifications/cancelled that follows.
    let (c, http, log) = client(vec![Script::Hang, Script::Hang]);
    c.set_timeout_ms(50);
    let err = block_on(c.ping()).unwrap_err();
    assert_eq!(err, McpError::Transport(TransportError::Timeout { ms: 50 }));
    assert_eq!(http.sent.borrow().len(), 2);
    let log = log.borrow();
    assert_eq!(
        log.exchanges[1].rpc_method.as_deref(),
        Some("notifications/cancelled")
    );
    let gave_up = log.exchanges[1].error.as_deref().unwrap();
    assert!(
        gave_up.contains("did not take the cancellation"),
        "{gave_up}"
    );
}

#[test]
fn transport_failures_are_typed_and_keep_the_body() {
    let (c, _, log) = client(vec![status(500, "text/html", "<h1>Internal</h1>")]);
    let err = block_on(c.initialize()).unwrap_err();
    assert!(matches!(
        &err,
        McpError::Transport(TransportError::Status { status: 500, body }) if body.contains("<h1>")
    ));
    assert_eq!(
        log.borrow().exchanges[0].response_body.as_deref(),
        Some("<h1>Internal</h1>")
    );

    let (c, _, _) = client(vec![status(200, "text/plain", "hello")]);
    let err = block_on(c.initialize()).unwrap_err();
    assert!(matches!(
        err,
        McpError::Transport(TransportError::ContentType { .. })
    ));

    let (c, _, _) = client(vec![status(200, "application/json", "[1,2")]);
    let err = block_on(c.initialize()).unwrap_err();
    assert!(matches!(
        err,
        McpError::Transport(TransportError::BadBody { .. })
    ));

    let (c, _, log) = client(vec![Script::NoResponse]);
    let err = block_on(c.initialize()).unwrap_err();
    assert!(matches!(
        err,
        McpError::Transport(TransportError::Network { .. })
    ));
    assert!(log.borrow().exchanges[0].error.is_some());
}

#[test]
fn json_rpc_errors_are_protocol_errors() {
    let (c, _, _) = client(vec![json_reply(json!({"jsonrpc":"2.0","id":1,
        "error":{"code":-32601,"message":"Method not found"}}))]);
    let err = block_on(c.ping()).unwrap_err();
    assert!(matches!(err, McpError::Protocol { code: -32601, .. }));
    assert_eq!(err.kind(), "protocol");
}

#[test]
fn a_broken_stream_is_resumed_with_last_event_id_after_retry() {
    let result = json!({"jsonrpc":"2.0","id":1,"result":{}}).to_string();
    let (c, http, log) = client(vec![
        Script::Respond {
            status: 200,
            headers: vec![("content-type", "text/event-stream".into())],
            chunks: vec![b"id: ev-1\nretry: 250\ndata:\n\n".to_vec()],
        },
        Script::Respond {
            status: 200,
            headers: vec![("content-type", "text/event-stream".into())],
            chunks: vec![format!("id: ev-2\ndata: {result}\n\n").into_bytes()],
        },
    ]);
    block_on(c.ping()).expect("resumed");
    let sent = http.sent.borrow();
    assert_eq!(sent[1].method, "GET");
    assert_eq!(header(&sent[1], "last-event-id"), Some("ev-1"));
    assert_eq!(header(&sent[1], "accept"), Some("text/event-stream"));
    assert_eq!(*http.sleeps.borrow(), [250]);
    assert!(
        log.borrow().exchanges[1]
            .note
            .as_deref()
            .unwrap()
            .contains("Last-Event-ID")
    );
}

#[test]
fn a_stream_without_ids_that_ends_early_is_a_stream_error() {
    let (c, _, _) = client(vec![Script::Respond {
        status: 200,
        headers: vec![("content-type", "text/event-stream".into())],
        chunks: vec![b"data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n".to_vec()],
    }]);
    let err = block_on(c.ping()).unwrap_err();
    assert!(matches!(
        err,
        McpError::Transport(TransportError::Stream { .. })
    ));
}

#[test]
fn a_stream_cut_mid_event_names_what_it_cut_off() {
    let (c, _, log) = client(vec![Script::Respond {
        status: 200,
        headers: vec![("content-type", "text/event-stream".into())],
        chunks: vec![b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"res".to_vec()],
    }]);
    let err = block_on(c.ping()).unwrap_err().to_string();
    assert!(
        err.contains("in the middle of an event")
            && err.contains(r#"event: message\ndata: {"jsonrpc":"2.0","id":1,"res"#)
            && err.contains("no event id to resume from"),
        "{err}"
    );
    // The record keeps it too.
    let log = log.borrow();
    assert!(
        log.exchanges[0]
            .error
            .as_deref()
            .unwrap()
            .contains(r#""id":1,"res"#)
    );
}

#[test]
fn bodies_and_events_over_the_limit_are_refused_without_reading_on() {
    use crate::transport::MAX_BODY;
    let mib = vec![b'x'; 1024 * 1024];
    let chunks = vec![mib.clone(); MAX_BODY / mib.len() + 3];
    let (c, _, log) = client(vec![Script::Respond {
        status: 200,
        headers: vec![("content-type", "application/json".into())],
        chunks: chunks.clone(),
    }]);
    let err = block_on(c.ping()).unwrap_err();
    assert_eq!(
        err,
        McpError::Transport(TransportError::TooLarge { limit: MAX_BODY })
    );
    assert!(err.to_string().contains("4 MiB"), "{err}");
    let log = log.borrow();
    let x = &log.exchanges[0];
    assert_eq!(x.status, Some(200));
    assert!(
        x.response_body
            .as_deref()
            .unwrap()
            .contains("more bytes not kept")
    );
    assert!(x.error.is_some());

    // One SSE event that never ends, after a small one that did.
    let mut sse = vec![b"data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\ndata: ".to_vec()];
    sse.extend(chunks);
    let (c, _, _) = client(vec![Script::Respond {
        status: 200,
        headers: vec![("content-type", "text/event-stream".into())],
        chunks: sse,
    }]);
    assert_eq!(
        block_on(c.ping()).unwrap_err(),
        McpError::Transport(TransportError::TooLarge { limit: MAX_BODY })
    );
}

#[test]
fn server_ping_requests_on_the_stream_are_answered() {
    let ping = json!({"jsonrpc":"2.0","id":"s1","method":"ping"}).to_string();
    let result = json!({"jsonrpc":"2.0","id":1,"result":{}}).to_string();
    let (c, http, _) = client(vec![sse(&[&ping, &result]), status(202, "", "")]);
    block_on(c.ping()).unwrap();
    let sent = http.sent.borrow();
    let reply: Value = serde_json::from_str(sent[1].body.as_deref().unwrap()).unwrap();
    assert_eq!(reply["id"], "s1");
    assert!(reply.get("result").is_some());
}

/// The JSON bodies the client sent after its first request (its answers to the server).
fn bodies_after_the_first(http: &Scripted) -> Vec<Value> {
    http.sent.borrow()[1..]
        .iter()
        .map(|r| serde_json::from_str(r.body.as_deref().unwrap_or("null")).unwrap_or(Value::Null))
        .collect()
}

#[test]
fn every_server_request_is_answered_roots_with_the_hosts_and_the_rest_by_name() {
    let roots = json!({"jsonrpc":"2.0","id":"r1","method":"roots/list"}).to_string();
    let sampling = json!({"jsonrpc":"2.0","id":"s2","method":"sampling/createMessage",
        "params": {"messages": [], "maxTokens": 10}})
    .to_string();
    let result = json!({"jsonrpc":"2.0","id":1,"result":{}}).to_string();
    let (c, http, _) = client(vec![
        sse(&[&roots, &sampling, &result]),
        status(202, "", ""),
        status(202, "", ""),
    ]);
    let asked = Rc::new(std::cell::Cell::new(0));
    let counted = asked.clone();
    c.set_roots_giver(Some(Rc::new(move || {
        counted.set(counted.get() + 1);
        Box::pin(async {
            vec![crate::roots::Root {
                uri: "file:///work".into(),
                name: Some("work".into()),
            }]
        })
    })));
    block_on(c.ping()).expect("the ping is answered after both questions");
    assert_eq!(asked.get(), 1);
    let replies = bodies_after_the_first(&http);
    assert_eq!(
        replies[0],
        json!({"jsonrpc":"2.0","id":"r1","result":{"roots":[{"uri":"file:///work","name":"work"}]}})
    );
    assert_eq!(replies[1]["id"], "s2");
    assert_eq!(replies[1]["error"]["code"], -32601);
    let message = replies[1]["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("sampling/createMessage"), "{message}");
}

#[test]
fn sampling_is_answered_with_the_samplers_answer_its_refusal_or_why_it_cannot_be_read() {
    let ask = |id: &str, max_tokens: u32| {
        json!({"jsonrpc":"2.0","id":id,"method":"sampling/createMessage","params": {
            "messages": [{"role":"user","content":{"type":"text","text":"Say hi"}}],
            "maxTokens": max_tokens}})
        .to_string()
    };
    let (ok, refused, zero) = (ask("a", 20), ask("b", 20), ask("c", 0));
    let result = json!({"jsonrpc":"2.0","id":1,"result":{}}).to_string();
    let (c, http, _) = client(vec![
        sse(&[&ok, &refused, &zero, &result]),
        status(202, "", ""),
        status(202, "", ""),
        status(202, "", ""),
    ]);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let heard = seen.clone();
    c.set_sampler(Some(Rc::new(
        move |asked: Result<crate::sampling::SamplingRequest, String>| {
            heard.borrow_mut().push(asked.clone());
            let n = heard.borrow().len();
            Box::pin(async move {
                match (asked, n) {
                    (Ok(request), 1) => Ok(crate::sampling::SampleAnswer {
                        text: format!("{} back", request.last_user_text()),
                        model: "m".into(),
                        stop_reason: Some("endTurn".into()),
                    }),
                    (Ok(_), _) => Err("User rejected sampling request".into()),
                    (Err(why), _) => Err(why),
                }
            })
        },
    )));
    assert!(
        c.capabilities().sampling.is_some(),
        "a sampler declares sampling"
    );
    block_on(c.ping()).expect("the ping is answered after the three requests");
    let replies = bodies_after_the_first(&http);
    assert_eq!(
        replies[0],
        json!({"jsonrpc":"2.0","id":"a","result":{"role":"assistant",
            "content":{"type":"text","text":"Say hi back"},"model":"m","stopReason":"endTurn"}})
    );
    assert_eq!(replies[1]["error"]["code"], -1);
    assert_eq!(replies[2]["id"], "c");
    assert_eq!(replies[2]["error"]["code"], -32602);
    let why = replies[2]["error"]["message"].as_str().unwrap_or_default();
    assert!(why.contains("maxTokens is 0"), "{why}");
    assert!(matches!(&seen.borrow()[2], Err(w) if w.contains("maxTokens is 0")));
}

#[test]
fn sampling_is_declared_in_initialize_only_with_a_sampler() {
    let caps = |with: bool| {
        let (c, http, _) = client(vec![sse(&[&init_result(1, "2025-11-25")])]);
        if with {
            c.set_sampler(Some(Rc::new(|_| Box::pin(async { Err(String::new()) }))));
        }
        block_on(c.initialize()).expect("initialize");
        let body: Value =
            serde_json::from_str(http.sent.borrow()[0].body.as_deref().unwrap_or("null"))
                .unwrap_or(Value::Null);
        body["params"]["capabilities"].clone()
    };
    assert_eq!(caps(true)["sampling"], json!({}));
    assert!(caps(false).get("sampling").is_none());
    assert_eq!(caps(false)["roots"], json!({"listChanged": true}));
}

#[test]
fn a_host_of_apps_declares_the_extension_in_both_eras() {
    let (c, http, _) = client(vec![sse(&[&init_result(1, "2025-11-25")])]);
    assert!(
        c.capabilities().extensions.is_none(),
        "not without the host"
    );
    c.set_hosts_apps(true);
    block_on(c.initialize()).expect("initialize");
    let body: Value = serde_json::from_str(http.sent.borrow()[0].body.as_deref().unwrap_or("null"))
        .unwrap_or(Value::Null);
    let declared = json!({"mimeTypes": ["text/html;profile=mcp-app"]});
    assert_eq!(
        body["params"]["capabilities"]["extensions"]["io.modelcontextprotocol/ui"],
        declared
    );
    c.set_era(crate::era::Era::Modern);
    let meta = crate::modern::meta("2026-07-28", None, c.capabilities());
    assert_eq!(
        meta["io.modelcontextprotocol/clientCapabilities"]["extensions"]["io.modelcontextprotocol/ui"],
        declared
    );
}

#[test]
fn roots_changes_are_told_to_a_legacy_session_only() {
    let (c, http, _) = client(vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        status(202, "", ""),
    ]);
    block_on(c.roots_changed()).expect("no session: nothing to tell");
    assert!(http.sent.borrow().is_empty());
    block_on(async {
        c.connect().await.expect("connect");
        c.roots_changed().await.expect("told");
    });
    let sent = http.sent.borrow();
    assert_eq!(
        sent[2].body.as_deref(),
        Some(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#)
    );
    assert_eq!(header(&sent[2], "mcp-session-id"), Some("sess-1"));
}

#[test]
fn close_sends_delete_with_the_session() {
    let (c, http, _) = client(vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        status(200, "", ""),
    ]);
    block_on(async {
        c.connect().await.unwrap();
        c.close().await.unwrap();
    });
    let sent = http.sent.borrow();
    assert_eq!(sent[2].method, "DELETE");
    assert_eq!(header(&sent[2], "mcp-session-id"), Some("sess-1"));
    assert_eq!(c.transport.session_id(), None);
}

#[test]
fn the_users_headers_go_out_with_every_request_and_are_never_recorded() {
    let (c, http, log) = client(vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        status(200, "", ""),
    ]);
    c.transport.set_custom_headers(
        crate::custom_headers::CustomHeaders::parse(
            "Authorization: Bearer s3cret-token\nX-Team: blue",
        )
        .expect("headers"),
    );
    block_on(async {
        c.connect().await.unwrap();
        c.close().await.unwrap();
    });
    let sent = http.sent.borrow();
    assert_eq!(sent.len(), 3);
    for request in sent.iter() {
        assert_eq!(
            header(request, "authorization"),
            Some("Bearer s3cret-token")
        );
        assert_eq!(header(request, "x-team"), Some("blue"));
    }
    let log = log.borrow();
    let recorded = serde_json::to_string(&log.exchanges).expect("json");
    assert!(!recorded.contains("s3cret-token"), "{recorded}");
    assert!(
        !recorded.contains("blue"),
        "a custom header's value is not recorded"
    );
    assert_eq!(log.exchanges.len(), 3);
    for x in &log.exchanges {
        let curl = crate::record::curl(x);
        assert!(curl.contains("Authorization: [redacted]"), "{curl}");
        assert!(!curl.contains("s3cret"), "{curl}");
    }
}

#[test]
fn every_message_the_client_sends_has_this_wire_form() {
    let unknown = json!({"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage"}).to_string();
    let ping = json!({"jsonrpc":"2.0","id":"s2","method":"ping"}).to_string();
    let empty = |id: u64| json!({"jsonrpc":"2.0","id":id,"result":{}}).to_string();
    let call = |id: u64| json!({"jsonrpc":"2.0","id":id,"result":{"content":[]}}).to_string();
    let (c, http, _) = client(vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        sse(&[&tools_page(2, "get_weather", Some("p2"))]),
        sse(&[&tools_page(3, "other", None)]),
        sse(&[&tools_page(4, "get_weather", None)]),
        sse(&[&call(5)]),
        sse(&[&unknown, &ping, &empty(6)]),
        status(202, "", ""),
        status(202, "", ""),
        sse(&[&empty(7)]),
        sse(&[&call(8)]),
        Script::Hang,
        status(202, "", ""),
    ]);
    block_on(async {
        c.connect().await.unwrap();
        c.list_tools().await.unwrap();
        c.list_tools().await.unwrap();
        c.call_tool("get_weather", json!({"location": "Tokyo"}), Some("tok-1"))
            .await
            .unwrap();
        c.ping().await.unwrap();
        c.set_level(LogLevel::Info).await.unwrap();
        c.call_tool("list_all", json!({}), None).await.unwrap();
        c.set_timeout_ms(50);
        c.ping().await.unwrap_err();
    });
    let bodies: Vec<String> = http
        .sent
        .borrow()
        .iter()
        .map(|r| r.body.clone().unwrap_or_default())
        .collect();
    let version = env!("CARGO_PKG_VERSION");
    let expected = [
        format!(
            r#"{{"id":1,"jsonrpc":"2.0","method":"initialize","params":{{"capabilities":{{"elicitation":{{"form":{{}},"url":{{}}}},"roots":{{"listChanged":true}}}},"clientInfo":{{"name":"mcp-flow","version":"{version}"}},"protocolVersion":"2025-11-25"}}}}"#
        ),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        r#"{"id":2,"jsonrpc":"2.0","method":"tools/list","params":{}}"#.to_owned(),
        r#"{"id":3,"jsonrpc":"2.0","method":"tools/list","params":{"cursor":"p2"}}"#.to_owned(),
        r#"{"id":4,"jsonrpc":"2.0","method":"tools/list","params":{}}"#.to_owned(),
        r#"{"id":5,"jsonrpc":"2.0","method":"tools/call","params":{"_meta":{"progressToken":"tok-1"},"arguments":{"location":"Tokyo"},"name":"get_weather"}}"#.to_owned(),
        r#"{"id":6,"jsonrpc":"2.0","method":"ping","params":{}}"#.to_owned(),
        r#"{"error":{"code":-32601,"message":"Method not found: this client does not answer sampling/createMessage"},"id":"s1","jsonrpc":"2.0"}"#
            .to_owned(),
        r#"{"id":"s2","jsonrpc":"2.0","result":{}}"#.to_owned(),
        r#"{"id":7,"jsonrpc":"2.0","method":"logging/setLevel","params":{"level":"info"}}"#
            .to_owned(),
        r#"{"id":8,"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{},"name":"list_all"}}"#
            .to_owned(),
        r#"{"id":9,"jsonrpc":"2.0","method":"ping","params":{}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"timed out after 50 ms","requestId":9}}"#.to_owned(),
    ];
    for (i, (sent, want)) in bodies.iter().zip(&expected).enumerate() {
        assert_eq!(sent, want, "message {i}");
    }
    assert_eq!(bodies.len(), expected.len(), "{bodies:#?}");
}

#[test]
fn arguments_that_have_no_wire_form_are_refused_before_sending() {
    let (c, http, _) = client(vec![]);
    let err = block_on(c.call_tool("get_weather", json!(["Tokyo"]), None)).unwrap_err();
    assert!(
        matches!(&err, McpError::Invalid(m) if m.contains("must be a JSON object")),
        "{err}"
    );
    assert!(http.sent.borrow().is_empty());
}

#[test]
fn a_replay_goes_in_the_open_session_with_a_new_id_and_is_recorded_as_one() {
    let answer = json!({"jsonrpc":"2.0","id":2,"result":{"tools":[]}}).to_string();
    let (c, http, log) = client(vec![
        sse(&[&init_result(1, "2025-11-25")]),
        status(202, "", ""),
        sse(&[&answer]),
    ]);
    block_on(async {
        c.connect().await.expect("connect");
        let original_headers = vec![("Mcp-Session-Id".to_owned(), "sess-0".to_owned())];
        let original = crate::replay::Original {
            url: "http://127.0.0.1:8000/mcp",
            headers: &original_headers,
        };
        let prepared = c
            .prepare_replay(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
                &original,
            )
            .expect("a request can be replayed");
        assert!(
            prepared
                .notes
                .iter()
                .any(|n| n.contains("Mcp-Session-Id: sess-0 → sess-1")),
            "{:?}",
            prepared.notes
        );
        let of = crate::record::ReplayOf {
            run: 1,
            seq: 4,
            edited: true,
        };
        c.replay(prepared, of)
            .await
            .expect("the replay is answered");
    });
    let sent = http.sent.borrow();
    let replayed = &sent[2];
    assert_eq!(header(replayed, "mcp-session-id"), Some("sess-1"));
    assert_eq!(
        replayed.body.as_deref(),
        Some(r#"{"id":2,"jsonrpc":"2.0","method":"tools/list","params":{}}"#),
        "the id is the connection's next one, not the recorded 1"
    );
    let log = log.borrow();
    let x = &log.exchanges[2];
    assert_eq!(
        x.replay.map(|r| r.describe()).as_deref(),
        Some("edited replay of run 1 #4")
    );
    assert!(x.rpc_response().is_some());
    assert!(log.exchanges[..2].iter().all(|x| x.replay.is_none()));
}

/// A tools/call whose SSE answer brings a progress notification and then nothing more, with a
/// listener that stops the client when the progress arrives (as the page's Stop button would).
fn stopped_at_the_first_progress(
    era: crate::era::Era,
) -> (McpError, Rc<Scripted>, Rc<RefCell<Log>>) {
    let progress = json!({"jsonrpc":"2.0","method":"notifications/progress",
        "params":{"progressToken":"p","progress":1,"total":10,"message":"1/10"}});
    let head = vec![("content-type", "text/event-stream".to_owned())];
    let (c, http, log) = client(vec![
        Script::Stall {
            status: 200,
            headers: head,
            chunks: vec![format!("id: 1\ndata: {progress}\n\n").into_bytes()],
        },
        status(202, "", ""),
    ]);
    c.set_era(era);
    let c = Rc::new(c);
    let weak = Rc::downgrade(&c);
    c.set_listener(Some(Box::new(move |m: &Value| {
        if m["method"] == "notifications/progress"
            && let Some(c) = weak.upgrade()
        {
            assert!(c.stop(), "a request was in flight");
        }
    })));
    let err = block_on(c.call("count", json!({"n": 10}), Some("p"), None)).unwrap_err();
    (err, http, log)
}

#[test]
fn a_stopped_legacy_request_is_cancelled_with_a_notification() {
    let (err, http, log) = stopped_at_the_first_progress(crate::era::Era::Legacy);
    assert_eq!(err, McpError::Transport(TransportError::Stopped));
    let sent = http.sent.borrow();
    assert_eq!(sent.len(), 2, "the call and its cancellation");
    let cancel: Value = serde_json::from_str(sent[1].body.as_deref().unwrap()).unwrap();
    assert_eq!(cancel["method"], "notifications/cancelled");
    assert_eq!(cancel["params"]["requestId"], 1);
    assert_eq!(cancel["params"]["reason"], "the user stopped it");
    // The call's stream was dropped before the cancellation went out.
    assert_eq!(*http.alive_at_send.borrow(), [0, 0]);
    assert_eq!(http.alive.get(), 0);
    let log = log.borrow();
    let call = &log.exchanges[0];
    assert!(
        call.error.as_deref().unwrap().contains("stopped"),
        "{call:?}"
    );
    assert_eq!(
        call.events.len(),
        1,
        "the progress it brought stays in the record"
    );
}

#[test]
fn a_stopped_modern_request_is_cancelled_by_closing_its_stream() {
    let (err, http, log) = stopped_at_the_first_progress(crate::era::Era::Modern);
    assert_eq!(err, McpError::Transport(TransportError::Stopped));
    assert_eq!(
        http.sent.borrow().len(),
        1,
        "no notification: the closed stream says it"
    );
    assert_eq!(http.alive.get(), 0, "the stream was closed");
    assert!(
        log.borrow().exchanges[0]
            .error
            .as_deref()
            .unwrap()
            .contains("stopped")
    );
}

#[test]
fn stop_with_nothing_in_flight_stops_nothing() {
    let (c, http, _) = client(vec![json_reply(
        json!({"jsonrpc":"2.0","id":1,"result":{}}),
    )]);
    assert!(!c.stop());
    block_on(c.ping()).unwrap();
    assert!(!c.stop(), "the ping is answered: nothing is left to stop");
    assert_eq!(http.sent.borrow().len(), 1);
}
