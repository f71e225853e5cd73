//! Origin and Host checks, CORS, the body limit and the session cap.

mod support;

use serde_json::{Value, json};
use support::*;

#[tokio::test]
async fn foreign_origin_is_403() {
    let server = TestServer::start(&[]).await;
    let response = post(&client(), &server.url, None)
        .header("origin", "http://evil.example.com")
        .json(&initialize_request(1))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 403);
    // The rejection itself is readable by the page, so it can say why it failed.
    assert_eq!(
        response
            .headers()
            .get("access-control-allow-origin")
            .and_then(|v| v.to_str().ok()),
        Some("http://evil.example.com")
    );
    let body = response.text().await.expect("body");
    assert!(body.to_lowercase().contains("origin"), "{body}");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn foreign_host_is_403() {
    let server = TestServer::start(&[]).await;
    let response = post(&client(), &server.url, None)
        .header("host", "evil.example.com")
        .json(&initialize_request(1))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 403);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn default_and_own_origins_are_allowed() {
    let server = TestServer::start(&[]).await;
    let client = client();
    for origin in [
        "http://127.0.0.1:8080".to_string(),
        "http://localhost:8080".to_string(),
        server.origin(),
    ] {
        let response = post(&client, &server.url, None)
            .header("origin", &origin)
            .json(&initialize_request(1))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 200, "{origin}");
        let _ = response.text().await;
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn allow_origin_flag_extends_the_list() {
    let server = TestServer::start(&["--allow-origin", "http://localhost:5173"]).await;
    let client = client();
    let response = post(&client, &server.url, None)
        .header("origin", "http://localhost:5173")
        .json(&initialize_request(1))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    let _ = response.text().await;
    let response = post(&client, &server.url, None)
        .header("origin", "http://localhost:5174")
        .json(&initialize_request(1))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 403);
    server.stop().await.expect("clean shutdown");
}

fn header_list(response: &reqwest::Response, name: &str) -> Vec<String> {
    response
        .headers()
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|v| v.trim().to_ascii_lowercase())
        .collect()
}

#[tokio::test]
async fn cors_preflight_and_exposed_headers_for_allowed_origin() {
    let server = TestServer::start(&[]).await;
    let client = client();
    let origin = "http://localhost:8080";

    let preflight = client
        .request(reqwest::Method::OPTIONS, &server.url)
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "content-type, mcp-session-id, mcp-protocol-version",
        )
        .send()
        .await
        .expect("preflight");
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert_eq!(
        preflight
            .headers()
            .get("access-control-allow-origin")
            .and_then(|v| v.to_str().ok()),
        Some(origin)
    );
    let methods = header_list(&preflight, "access-control-allow-methods");
    for method in ["get", "post", "delete", "options"] {
        assert!(
            methods.iter().any(|m| m == method),
            "{method} in {methods:?}"
        );
    }
    let allowed = header_list(&preflight, "access-control-allow-headers");
    for header in [
        "content-type",
        "accept",
        "authorization",
        "mcp-session-id",
        "mcp-protocol-version",
        "last-event-id",
    ] {
        assert!(
            allowed.iter().any(|h| h == header),
            "{header} in {allowed:?}"
        );
    }

    let response = post(&client, &server.url, None)
        .header("origin", origin)
        .json(&initialize_request(1))
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    assert_eq!(
        response
            .headers()
            .get("access-control-allow-origin")
            .and_then(|v| v.to_str().ok()),
        Some(origin)
    );
    let exposed = header_list(&response, "access-control-expose-headers");
    assert!(exposed.iter().any(|h| h == "mcp-session-id"), "{exposed:?}");
    assert!(
        exposed.iter().any(|h| h == "mcp-protocol-version"),
        "{exposed:?}"
    );
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn preflight_from_foreign_origin_is_answered_so_the_403_can_be_read() {
    let server = TestServer::start(&[]).await;
    let preflight = client()
        .request(reqwest::Method::OPTIONS, &server.url)
        .header("origin", "http://evil.example.com")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .expect("preflight");
    assert!(
        preflight
            .headers()
            .get("access-control-allow-origin")
            .is_some()
    );
    // ...and the real request from that origin is still refused.
    let response = post(&client(), &server.url, None)
        .header("origin", "http://evil.example.com")
        .json(&initialize_request(1))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 403);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn body_over_the_limit_is_413() {
    let server = TestServer::start(&["--max-body-bytes", "1024"]).await;
    let client = client();
    let session = open_session(&client, &server.url).await;
    let big = call_weather(2, &"x".repeat(4096));

    // With Content-Length.
    let response = post(&client, &server.url, Some(&session))
        .json(&big)
        .send()
        .await
        .expect("request");
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
    let response = post(&client, &server.url, Some(&session))
        .body(reqwest::Body::wrap_stream(futures::stream::iter(chunks)))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 413);

    // A small request still works.
    let messages = roundtrip(
        &client,
        &server.url,
        Some(&session),
        &call_weather(3, "Tokyo"),
    )
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
    let client = client();
    let first = open_session(&client, &server.url).await;
    let _second = open_session(&client, &server.url).await;

    let response = post(&client, &server.url, None)
        .json(&initialize_request(9))
        .send()
        .await
        .expect("third initialize");
    assert_eq!(response.status(), 503);
    assert!(response.headers().get("mcp-session-id").is_none());
    let body: Value = response.json().await.expect("JSON-RPC error body");
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], 9);
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("session limit"), "{message}");
    assert!(message.contains('2'), "{message}");

    // Existing sessions keep working.
    let messages = roundtrip(
        &client,
        &server.url,
        Some(&first),
        &call_weather(3, "Tokyo"),
    )
    .await;
    assert_eq!(
        response_for(&messages, 3)["result"]["content"][0]["text"],
        "Sunny"
    );

    // Closing one makes room again.
    let response = client
        .delete(&server.url)
        .header("mcp-session-id", &first)
        .send()
        .await
        .expect("delete");
    assert!(response.status().is_success());
    let third = open_session(&client, &server.url).await;
    assert!(!third.is_empty());
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn idle_sessions_expire() {
    let server = TestServer::start(&["--session-idle-secs", "1", "--max-sessions", "1"]).await;
    let client = client();
    let session = open_session(&client, &server.url).await;
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let response = post(&client, &server.url, Some(&session))
        .json(&request(2, "ping", json!({})))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 404, "expired session is gone");
    // And it no longer counts against the cap.
    let again = open_session(&client, &server.url).await;
    assert_ne!(again, session);
    server.stop().await.expect("clean shutdown");
}
