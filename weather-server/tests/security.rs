//! Origin and Host checks, CORS, the body limit and the session cap.

mod support;

use serde_json::{Value, json};
use support::*;

/// An `initialize` carrying this one extra header (`origin` or `host`).
async fn initialize_with(server: &TestServer, name: &str, value: &str) -> reqwest::Response {
    let body = initialize_request(1);
    let request = server.post(None).header(name, value).json(&body);
    request.send().await.expect("initialize")
}

/// Stands for the server's own origin (known once it runs) in a table of origins.
const OWN: &str = "own origin";

#[tokio::test]
async fn origin_and_host_decide_whether_a_request_is_served() {
    let extra = ["--allow-origin", "http://localhost:5173"];
    // The server's flags, the header an initialize carries, and the status it gets.
    let dev = ["--dev-origins"];
    let cases: [(&[&str], _, _, _); 9] = [
        (&[], "origin", "http://evil.example.com", 403),
        (&[], "host", "evil.example.com", 403),
        // `trunk serve`'s origins only with the dev setup's flag.
        (&[], "origin", "http://127.0.0.1:8080", 403),
        (&dev, "origin", "http://127.0.0.1:8080", 200),
        (&dev, "origin", "http://localhost:8080", 200),
        (&[], "origin", OWN, 200),
        // `--allow-origin` extends the list.
        (&extra, "origin", "http://localhost:5173", 200),
        (&extra, "origin", "http://localhost:8080", 403),
        (&extra, "origin", "http://localhost:5174", 403),
    ];
    for (flags, name, value, status) in cases {
        let server = TestServer::start(flags).await;
        let own = server.origin();
        let value = if value == OWN { own.as_str() } else { value };
        let response = initialize_with(&server, name, value).await;
        assert_eq!(response.status(), status, "{flags:?} {name}: {value}");
        server.stop().await.expect("clean shutdown");
    }
}

#[tokio::test]
async fn a_foreign_origin_can_read_why_it_was_refused() {
    let server = TestServer::start(&[]).await;
    let origin = "http://evil.example.com";
    // The preflight is answered so that the 403 can be read...
    let preflight = server.preflight(origin, None).await;
    assert!(header(&preflight, "access-control-allow-origin").is_some());
    // ...and the real request is still refused, readably, saying why.
    let response = initialize_with(&server, "origin", origin).await;
    assert_eq!(response.status(), 403);
    assert_eq!(
        header(&response, "access-control-allow-origin"),
        Some(origin)
    );
    let body = response.text().await.expect("body");
    assert!(body.to_lowercase().contains("origin"), "{body}");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn cors_preflight_and_exposed_headers_for_allowed_origin() {
    let server = TestServer::start(&["--dev-origins"]).await;
    let origin = "http://localhost:8080";
    let asked = "content-type, mcp-session-id, mcp-protocol-version";
    let preflight = server.preflight(origin, Some(asked)).await;
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert_eq!(
        header(&preflight, "access-control-allow-origin"),
        Some(origin)
    );
    let methods = ["get", "post", "delete", "options"];
    assert_lists(&preflight, "access-control-allow-methods", &methods);
    let headers = [
        "content-type",
        "accept",
        "authorization",
        "mcp-session-id",
        "mcp-protocol-version",
        "last-event-id",
    ];
    assert_lists(&preflight, "access-control-allow-headers", &headers);
    // Kept by the browser for two hours, not its five-second default.
    assert_eq!(header(&preflight, "access-control-max-age"), Some("7200"));

    let response = initialize_with(&server, "origin", origin).await;
    assert_eq!(response.status(), 200);
    assert_readable_from(&response, origin);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn body_over_the_limit_is_413() {
    let server = TestServer::start(&["--max-body-bytes", "1024"]).await;
    let session = server.open_session().await;
    let big = call_weather(2, &"x".repeat(4096));

    // With Content-Length.
    let response = server.send(Some(&session), &big).await;
    assert_eq!(response.status(), 413);
    let body: Value = response.json().await.expect("JSON-RPC error body");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("1024")
    );

    // Chunked, without Content-Length.
    let bytes = serde_json::to_vec(&big).expect("encode");
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        bytes.chunks(512).map(|c| Ok(c.to_vec())).collect();
    let response = server
        .post(Some(&session))
        .body(reqwest::Body::wrap_stream(futures::stream::iter(chunks)))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 413);

    // A small request still works.
    let messages = server
        .roundtrip(Some(&session), &call_weather(3, "Tokyo"))
        .await;
    assert_eq!(
        response_for(&messages, 3)["result"]["content"][0]["text"],
        "Sunny"
    );
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn session_cap_refuses_new_sessions_with_503() {
    let server = TestServer::start(&["--max-sessions", "2"]).await;
    let first = server.open_session().await;
    let _second = server.open_session().await;

    let response = server.send(None, &initialize_request(9)).await;
    assert_eq!(response.status(), 503);
    assert!(header(&response, "mcp-session-id").is_none());
    let body: Value = response.json().await.expect("JSON-RPC error body");
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], 9);
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("session limit"), "{message}");
    assert!(message.contains('2'), "{message}");

    // Existing sessions keep working.
    let messages = server
        .roundtrip(Some(&first), &call_weather(3, "Tokyo"))
        .await;
    assert_eq!(
        response_for(&messages, 3)["result"]["content"][0]["text"],
        "Sunny"
    );

    // Closing one makes room again.
    let response = server
        .client
        .delete(&server.url)
        .header("mcp-session-id", &first)
        .send()
        .await
        .expect("delete");
    assert!(response.status().is_success());
    let third = server.open_session().await;
    assert!(!third.is_empty());
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn idle_sessions_expire() {
    let server = TestServer::start(&["--session-idle-secs", "1", "--max-sessions", "1"]).await;
    let session = server.open_session().await;
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let response = server
        .send(Some(&session), &request(2, "ping", json!({})))
        .await;
    assert_eq!(response.status(), 404, "expired session is gone");
    // And it no longer counts against the cap.
    let again = server.open_session().await;
    assert_ne!(again, session);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn open_streams_are_capped_per_session_and_per_endpoint() {
    let server = TestServer::start(&["--max-session-streams", "1", "--max-streams", "2"]).await;
    let list = |id| request(id, "tools/list", json!({}));
    let session = server.open_session().await;
    let stream = server.get_stream(&session).await.expect("GET stream");
    assert_eq!(stream.status(), 200);
    // The session's GET stream is open: its next request would be a second stream.
    let refused = server.send(Some(&session), &list(2)).await;
    assert_eq!(refused.status(), 503);
    assert_eq!(header(&refused, "retry-after"), Some("1"));
    let why = refused.text().await.expect("body");
    assert!(why.contains("this session has 1 open streams"), "{why}");
    // Another session streams too, which fills the endpoint: then even a new session waits.
    let other = server.open_session().await;
    let second = server.get_stream(&other).await.expect("second GET stream");
    assert_eq!(second.status(), 200);
    let full = server.send(None, &initialize_request(3)).await;
    assert_eq!(full.status(), 503);
    let why = full.text().await.expect("body");
    assert!(why.contains("the server has 2 open streams"), "{why}");
    // Ending the first session ends its stream, and its slot comes back.
    let deleted = server.delete(&session).send().await.expect("DELETE");
    assert!(deleted.status().is_success());
    let ended = tokio::time::timeout(std::time::Duration::from_secs(5), stream.text()).await;
    assert!(ended.is_ok(), "the GET stream did not end with its session");
    let mut status = 0;
    for _ in 0..100 {
        status = server
            .send(None, &initialize_request(4))
            .await
            .status()
            .as_u16();
        if status != 503 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(status, 200, "no slot came back after the stream ended");
    drop(second);
    server.stop().await.expect("clean shutdown");
}
