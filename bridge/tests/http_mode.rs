//! The http mode against a small upstream that, like an official SDK server with DNS-rebinding
//! protection on, refuses any request with an Origin: the bridge forwards without the page's
//! identity, streams the answer back as it comes, and records the exchange.

mod common;

use common::{Bridge, Events, initialize, upstream::upstream};
use serde_json::{Value, json};

#[tokio::test]
async fn a_page_reaches_an_upstream_that_refuses_its_origin() {
    let (url, seen) = upstream().await;
    let direct = reqwest::Client::new()
        .post(&url)
        .header("origin", "http://127.0.0.1:8000")
        .body(initialize(1).to_string())
        .send()
        .await
        .expect("direct");
    assert_eq!(
        direct.status(),
        403,
        "the upstream refuses the page directly"
    );

    let bridge = Bridge::start_http(&["--allow-origin", "http://127.0.0.1:8000"], &url).await;
    let response = bridge
        .post(None, &initialize(1))
        .header("origin", "http://127.0.0.1:8000")
        .header("authorization", "Bearer s3cret")
        .header("cookie", "page=1")
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["mcp-session-id"], "up-1");
    assert_eq!(
        response.headers()["access-control-allow-origin"],
        "http://127.0.0.1:8000",
        "the bridge's CORS grant, not the upstream's `*`"
    );
    assert_eq!(response.headers()["mcp-flow-bridge-leg"], "upstream");
    assert_eq!(
        response.headers()["mcp-flow-bridge-exchange"],
        "0",
        "the answer names its recorded exchange"
    );
    assert!(
        response.headers().get("set-cookie").is_none(),
        "the upstream's cookie does not reach the page"
    );
    let answer: Value = response.json().await.expect("json");
    assert_eq!(answer["result"]["serverInfo"]["name"], "upstream");
    {
        let seen = seen.lock().expect("lock");
        let last = seen.last().expect("a request");
        assert!(last.get("origin").is_none() && last.get("cookie").is_none());
        assert_eq!(
            last["authorization"], "Bearer s3cret",
            "credentials pass through"
        );
        assert_eq!(last["accept"], common::ACCEPT);
    }

    let response = bridge
        .post(
            Some("up-1"),
            &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "get_weather", "arguments": {"location": "Tokyo"}}}),
        )
        .header("origin", "http://127.0.0.1:8000")
        .send()
        .await
        .expect("tools/call");
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut events = Events::new(response);
    assert_eq!(
        events.next().await.expect("log")["method"],
        "notifications/message"
    );
    assert_eq!(
        events.next().await.expect("result")["result"]["content"][0]["text"],
        "Sunny"
    );
    assert!(events.next().await.is_none());
    assert_eq!(
        seen.lock().expect("lock").last().expect("request")["mcp-session-id"],
        "up-1"
    );

    let legs: Value = bridge.record("").await;
    assert_eq!(legs["mode"], "http");
    assert_eq!(legs["upstream"], url.as_str());
    let exchanges = legs["exchanges"].as_array().expect("exchanges");
    assert_eq!(exchanges.len(), 2);
    let first = &exchanges[0];
    assert_eq!(first["method"], "POST");
    assert_eq!(first["status"], 200);
    assert_eq!(first["session"], "up-1");
    let authorization = first["request_headers"]
        .as_array()
        .expect("headers")
        .iter()
        .find(|pair| pair[0] == "authorization")
        .expect("recorded");
    assert_eq!(authorization[1], "[redacted]");
    assert!(
        !legs.to_string().contains("c00k1e"),
        "the upstream's cookie is not in the record either"
    );
    assert!(
        first["request_body"]
            .as_str()
            .expect("body")
            .contains("initialize")
    );
    let streamed = &exchanges[1];
    let chunks = streamed["chunks"].as_array().expect("chunks");
    assert!(
        chunks.len() >= 2,
        "each event recorded as it came: {chunks:?}"
    );
    assert!(
        chunks[0]["at_ms"].as_f64() < chunks[chunks.len() - 1]["at_ms"].as_f64(),
        "with its own arrival time"
    );
    assert!(streamed["ended_at_ms"].is_number());
    assert!(streamed["error"].is_null());
}

#[tokio::test]
async fn an_upstream_that_is_not_there_is_a_502_naming_the_upstream_leg() {
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr")
    };
    let url = format!("http://{closed}/mcp");
    let bridge = Bridge::start_http(&[], &url).await;
    let response = bridge
        .post(None, &initialize(4))
        .send()
        .await
        .expect("POST");
    assert_eq!(response.status(), 502);
    assert!(
        response.headers().get("mcp-flow-bridge-leg").is_none(),
        "the bridge's own answer"
    );
    assert_eq!(response.headers()["mcp-flow-bridge-exchange"], "0");
    let error: Value = response.json().await.expect("json");
    assert_eq!(error["id"], 4);
    assert_eq!(error["error"]["data"]["leg"], "upstream");
    let message = error["error"]["message"].as_str().expect("message");
    assert!(
        message.contains(&format!("Cannot reach the upstream {url}")),
        "{message}"
    );
    let legs: Value = bridge.record("").await;
    assert!(legs["exchanges"][0]["error"].as_str().is_some(), "{legs}");
}

#[tokio::test]
async fn the_http_mode_has_the_same_locks() {
    let (url, seen) = upstream().await;
    let bridge = Bridge::start_http(&[], &url).await;
    let root = format!("http://127.0.0.1:{}", bridge.port);
    let no_secret = bridge
        .client
        .post(format!("{root}/mcp"))
        .body(initialize(1).to_string())
        .send()
        .await
        .expect("POST");
    assert_eq!(no_secret.status(), 403);
    let foreign = bridge
        .post(None, &initialize(1))
        .header("origin", "http://evil.example")
        .send()
        .await
        .expect("POST");
    assert_eq!(foreign.status(), 403);
    let big = bridge
        .client
        .post(&bridge.url)
        .body(vec![b' '; 10 * 1024 * 1024])
        .send()
        .await
        .expect("POST");
    assert_eq!(big.status(), 413);
    assert!(
        seen.lock().expect("lock").is_empty(),
        "nothing reached the upstream"
    );
}
