//! The MCP client in headless Chromium against the real weather server.
//! `cargo xtask test` starts the servers and passes their URLs in at compile time.

use std::cell::RefCell;
use std::rc::Rc;

use crate::common::Live;
use mcp_flow::clock::BrowserClock;
use mcp_flow::mcp::browser::Fetch;
use mcp_flow::mcp::client::McpClient;
use mcp_flow::mcp::error::{McpError, TransportError};
use mcp_flow::mcp::record::{Log, shared_log};
use mcp_flow::mcp::tools::result_text;
use serde_json::{Value, json};
use wasm_bindgen_test::*;

fn client(url: &str) -> (McpClient<Fetch>, Rc<RefCell<Log>>) {
    let (log, recorder) = shared_log();
    let c = McpClient::new(Fetch, Rc::new(BrowserClock), url, recorder);
    c.set_timeout_ms(10_000);
    (c, log)
}

async fn tokyo(c: &McpClient<Fetch>) {
    c.connect().await.expect("handshake");
    let tools = c.list_tools().await.expect("tools/list");
    let weather = tools
        .iter()
        .find(|t| t.name == "get_weather")
        .expect("get_weather listed");
    assert_eq!(weather.input_schema["required"], json!(["location"]));
    let result = c
        .call_tool("get_weather", json!({"location": "Tokyo"}), None)
        .await
        .expect("tools/call");
    assert_eq!(result_text(&result), "Sunny");
    assert_ne!(result.is_error, Some(true));
    let structured = result.structured_content.expect("structuredContent");
    assert_eq!(structured["condition"], "Sunny");
}

#[wasm_bindgen_test]
async fn full_exchange_with_sessions_over_sse() {
    let (c, log) = client(Live::Sse.url());
    tokyo(&c).await;
    let hs = c.handshake().expect("handshake kept");
    assert_eq!(hs.protocol_version, "2025-11-25");
    assert_eq!(hs.server_name, "weather-server");
    let session = c
        .transport
        .session_id()
        .expect("session id readable through CORS");
    let log = log.borrow().clone();
    let methods: Vec<_> = log
        .exchanges
        .iter()
        .map(|x| x.rpc_method.clone().unwrap_or_default())
        .collect();
    assert_eq!(
        methods,
        [
            "initialize",
            "notifications/initialized",
            "tools/list",
            "tools/call"
        ]
    );
    assert_eq!(log.exchanges[1].status, Some(202));
    for x in &log.exchanges[1..] {
        assert!(
            x.request_headers
                .contains(&("Mcp-Session-Id".into(), session.clone()))
        );
    }
    // SSE: the priming event (empty data) is recorded before the result.
    let call = &log.exchanges[3];
    assert!(call.events.len() >= 2, "{:?}", call.events);
    assert!(call.events[0].data.is_empty());
    assert!(call.events.last().unwrap().data.contains("Sunny"));
    c.close().await.expect("DELETE");
}

#[wasm_bindgen_test]
async fn the_log_notification_arrives_before_the_result() {
    let (c, log) = client(Live::Sse.url());
    let order = Rc::new(RefCell::new(Vec::<String>::new()));
    let seen = order.clone();
    c.set_listener(Some(Box::new(move |m: &Value| {
        if m["method"] == "notifications/message" {
            seen.borrow_mut()
                .push(format!("log: {}", m["params"]["data"]));
        }
    })));
    c.connect().await.expect("handshake");
    c.set_level(mcp_flow::mcp::log_level::LogLevel::Info)
        .await
        .expect("logging/setLevel");
    c.call_tool("get_weather", json!({"location": "Tokyo"}), None)
        .await
        .expect("call");
    order.borrow_mut().push("result".into());
    let order = order.borrow();
    assert_eq!(order.len(), 2, "{order:?}");
    assert!(
        order[0].contains("get_weather called for Tokyo"),
        "{order:?}"
    );
    assert_eq!(order[1], "result");
    // The record shows the log event's arrival before the result event, on the same stream.
    let log = log.borrow();
    let call = log.exchanges.last().unwrap();
    let log_at = call
        .events
        .iter()
        .position(|e| e.data.contains("notifications/message"));
    let result_at = call
        .events
        .iter()
        .position(|e| e.data.contains("\"result\""));
    assert!(log_at.unwrap() < result_at.unwrap());
}

#[wasm_bindgen_test]
async fn stateless_server_with_json_bodies() {
    let (c, log) = client(Live::Json.url());
    tokyo(&c).await;
    assert_eq!(c.transport.session_id(), None);
    let log = log.borrow();
    let call = log.exchanges.last().unwrap();
    assert_eq!(
        call.response_header("content-type"),
        Some("application/json")
    );
    assert!(call.events.is_empty());
    assert!(call.response_body.as_deref().unwrap().contains("Sunny"));
}

#[wasm_bindgen_test]
async fn stateless_server_with_sse_bodies() {
    let (c, log) = client(Live::Stateless.url());
    tokyo(&c).await;
    assert_eq!(c.transport.session_id(), None);
    let log = log.borrow();
    assert!(!log.exchanges.last().unwrap().events.is_empty());
}

#[wasm_bindgen_test]
async fn an_unknown_city_is_a_tool_error_not_a_failure() {
    let (c, _) = client(Live::Sse.url());
    c.connect().await.expect("handshake");
    let result = c
        .call_tool("get_weather", json!({"location": "Atlantis"}), None)
        .await
        .expect("a tool error is still a result");
    assert_eq!(result.is_error, Some(true));
    assert!(result_text(&result).contains("Atlantis"));
}

#[wasm_bindgen_test]
async fn a_deleted_session_is_reinitialized_transparently() {
    let (c, log) = client(Live::Sse.url());
    c.connect().await.expect("handshake");
    let old = c.transport.session_id().expect("session");
    c.close().await.expect("DELETE");
    // Pretend we did not notice: the next request carries the dead session id.
    c.transport.set_session_id(Some(old.clone()));
    let tools = c
        .list_tools()
        .await
        .expect("tools/list after re-initialize");
    assert!(!tools.is_empty());
    assert_ne!(c.transport.session_id(), Some(old));
    let log = log.borrow();
    let statuses: Vec<_> = log
        .exchanges
        .iter()
        .map(|x| (x.method.as_str(), x.status))
        .collect();
    // initialize, initialized, DELETE, tools/list → 404, initialize, initialized, tools/list
    assert_eq!(statuses[3], ("POST", Some(404)), "{statuses:?}");
    assert_eq!(log.exchanges.len(), 7, "{statuses:?}");
    assert!(
        log.exchanges[4]
            .note
            .as_deref()
            .unwrap_or("")
            .contains("404")
    );
    assert_eq!(log.exchanges[6].status, Some(200));
}

#[wasm_bindgen_test]
async fn a_server_that_is_not_running_is_a_transport_error() {
    // Port 9 (discard) on loopback has no HTTP server here.
    let (c, log) = client("http://127.0.0.1:9/mcp");
    let err = c.connect().await.unwrap_err();
    assert!(
        matches!(err, McpError::Transport(TransportError::Network { .. })),
        "{err}"
    );
    assert!(log.borrow().exchanges[0].error.is_some());
}

#[wasm_bindgen_test]
async fn a_foreign_origin_gets_a_readable_403() {
    let (c, _) = client(Live::Foreign.url());
    let err = c.connect().await.unwrap_err();
    match &err {
        McpError::Transport(TransportError::Status { status: 403, body }) => {
            assert!(body.to_lowercase().contains("origin"), "{body}");
        }
        other => panic!("expected HTTP 403, got {other}"),
    }
    assert!(err.to_string().contains("403 Forbidden"), "{err}");
}
