//! Streamable HTTP behaviour: sessions, stateless JSON, status codes,
//! static files and shutdown.

mod support;

use serde_json::{Value, json};
use support::*;

#[test]
fn sse_parser_handles_priming_comments_and_multiline_data() {
    let body = "data: \nid: 0\nretry: 3000\n\n: keep-alive\n\ndata: {\"a\":\ndata: 1}\nid: 1\n\n";
    let events = parse_sse(body);
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0].data, "");
    assert_eq!(events[0].retry, Some(3000));
    assert_eq!(events[0].id.as_deref(), Some("0"));
    assert_eq!(events[1].json(), Some(json!({ "a": 1 })));
}

#[tokio::test]
async fn initialize_in_session_mode_streams_priming_then_result() {
    let server = TestServer::start(&[]).await;
    let client = client();

    let response = post(&client, &server.url, None)
        .json(&initialize_request(1))
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(!session.is_empty(), "mcp-session-id issued");
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        content_type.starts_with("text/event-stream"),
        "{content_type}"
    );

    let events = parse_sse(&response.text().await.expect("body"));
    assert!(events.len() >= 2, "{events:?}");
    assert_eq!(events[0].data, "", "first event is the priming event");
    assert!(events[0].id.is_some(), "priming event has an id");
    assert!(events[0].retry.is_some(), "priming event has retry");
    let result = events[1].json().expect("second event carries JSON");
    assert_eq!(result["id"], 1);
    assert_eq!(result["result"]["protocolVersion"], PROTOCOL);
    assert_eq!(result["result"]["serverInfo"]["name"], "weather-server");
    assert_eq!(
        result["result"]["serverInfo"]["version"],
        env!("CARGO_PKG_VERSION")
    );
    assert!(result["result"]["capabilities"]["tools"].is_object());
    assert!(result["result"]["capabilities"]["logging"].is_object());
    assert!(result["result"]["instructions"].is_string());

    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn initialize_in_stateless_json_mode_returns_plain_json() {
    let server = TestServer::start(&["--stateless", "--json-response"]).await;
    let client = client();

    let response = post(&client, &server.url, None)
        .json(&initialize_request(7))
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    assert!(
        response.headers().get("mcp-session-id").is_none(),
        "no session in stateless mode"
    );
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(body["id"], 7);
    assert_eq!(body["result"]["serverInfo"]["name"], "weather-server");

    // A tool call without any session works and is plain JSON too.
    let response = post(&client, &server.url, None)
        .json(&call_weather(8, "Tokyo"))
        .send()
        .await
        .expect("tools/call");
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(body["result"]["content"][0]["text"], "Sunny");

    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn stateless_sse_mode_answers_without_session() {
    let server = TestServer::start(&["--stateless"]).await;
    let client = client();
    let messages = roundtrip(&client, &server.url, None, &call_weather(3, "Paris")).await;
    let response = response_for(&messages, 3);
    assert_eq!(response["result"]["structuredContent"]["location"], "Paris");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn initialized_notification_is_accepted_with_202() {
    let server = TestServer::start(&[]).await;
    let client = client();
    // open_session asserts the 202 for notifications/initialized.
    let session = open_session(&client, &server.url).await;
    let response = post(&client, &server.url, Some(&session))
        .json(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
        .send()
        .await
        .expect("notification");
    assert_eq!(response.status(), 202);
    assert!(response.text().await.expect("body").is_empty());
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn request_without_session_id_is_400() {
    let server = TestServer::start(&[]).await;
    let client = client();
    let response = post(&client, &server.url, None)
        .json(&request(2, "tools/list", json!({})))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 400);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn unknown_session_is_404() {
    let server = TestServer::start(&[]).await;
    let client = client();
    let response = post(&client, &server.url, Some("no-such-session"))
        .json(&request(2, "tools/list", json!({})))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 404);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn deleted_session_is_404_afterwards() {
    let server = TestServer::start(&[]).await;
    let client = client();
    let session = open_session(&client, &server.url).await;

    // Works before the DELETE.
    let messages = roundtrip(
        &client,
        &server.url,
        Some(&session),
        &request(2, "ping", json!({})),
    )
    .await;
    assert_eq!(response_for(&messages, 2)["result"], json!({}));

    let response = client
        .delete(&server.url)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", PROTOCOL)
        .send()
        .await
        .expect("delete");
    assert!(
        response.status().is_success(),
        "DELETE status {}",
        response.status()
    );

    let response = post(&client, &server.url, Some(&session))
        .json(&request(3, "ping", json!({})))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 404);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn accept_without_event_stream_is_406() {
    let server = TestServer::start(&[]).await;
    let client = client();
    let response = client
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", "application/json")
        .json(&initialize_request(1))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 406);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn unsupported_protocol_version_header_is_400() {
    let server = TestServer::start(&[]).await;
    let client = client();
    let session = open_session(&client, &server.url).await;
    let response = client
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", ACCEPT_BOTH)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "1999-01-01")
        .json(&request(2, "tools/list", json!({})))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 400);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn shutdown_ends_open_streams() {
    let server = TestServer::start(&[]).await;
    let client = client();
    let session = open_session(&client, &server.url).await;
    // A standalone GET stream stays open until the server shuts down.
    let response = client
        .get(&server.url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", PROTOCOL)
        .send()
        .await
        .expect("GET stream");
    assert_eq!(response.status(), 200);
    let body = tokio::spawn(response.text());
    server.stop().await.expect("serve returns after shutdown");
    let finished = tokio::time::timeout(std::time::Duration::from_secs(5), body).await;
    assert!(finished.is_ok(), "GET stream ended with the server");
}

#[tokio::test]
async fn static_dir_is_served_with_index_fallback() {
    let dir = std::env::temp_dir().join(format!(
        "weather-server-static-{}-{}",
        std::process::id(),
        line!()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("index.html"), "<h1>mcp-flow</h1>").expect("index");
    std::fs::write(dir.join("app.js"), "console.log(1)").expect("js");
    let dir_arg = dir.to_string_lossy().to_string();
    let server = TestServer::start(&["--static", &dir_arg]).await;
    let client = client();
    let root = format!("http://{}", server.addr);

    let index = client.get(format!("{root}/")).send().await.expect("GET /");
    assert_eq!(index.status(), 200);
    assert_eq!(index.text().await.expect("body"), "<h1>mcp-flow</h1>");

    let js = client
        .get(format!("{root}/app.js"))
        .send()
        .await
        .expect("GET js");
    assert_eq!(js.status(), 200);
    assert_eq!(js.text().await.expect("body"), "console.log(1)");

    let deep = client
        .get(format!("{root}/some/client/route"))
        .send()
        .await
        .expect("GET route");
    assert_eq!(deep.status(), 200);
    assert_eq!(deep.text().await.expect("body"), "<h1>mcp-flow</h1>");

    // /mcp is still the MCP endpoint.
    let session = open_session(&client, &server.url).await;
    assert!(!session.is_empty());

    server.stop().await.expect("clean shutdown");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn without_static_dir_root_is_404() {
    let server = TestServer::start(&[]).await;
    let response = client()
        .get(format!("http://{}/", server.addr))
        .send()
        .await
        .expect("GET /");
    assert_eq!(response.status(), 404);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn the_journal_records_what_clients_sent_and_is_off_by_default() {
    let server = TestServer::start(&["--journal"]).await;
    let client = client();
    let session = open_session(&client, &server.url).await;
    let journal_url = server.url.replace("/mcp", "/journal");
    client
        .delete(&server.url)
        .header("mcp-session-id", &session)
        .header("accept", "application/json, text/event-stream")
        .send()
        .await
        .expect("delete");
    let entries: Vec<Value> = client
        .get(&journal_url)
        .send()
        .await
        .expect("journal")
        .json()
        .await
        .expect("json");
    let seen: Vec<(String, Option<String>)> = entries
        .iter()
        .map(|e| {
            (
                e["http_method"].as_str().unwrap_or("").to_owned(),
                e["rpc_method"].as_str().map(str::to_owned),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("POST".to_owned(), Some("initialize".to_owned())),
            (
                "POST".to_owned(),
                Some("notifications/initialized".to_owned())
            ),
            ("DELETE".to_owned(), None),
        ]
    );
    assert_eq!(entries[2]["session"], json!(session));
    assert_eq!(entries[0]["session"], Value::Null);
    server.stop().await.expect("stop");

    let plain = TestServer::start(&[]).await;
    let status = client
        .get(plain.url.replace("/mcp", "/journal"))
        .send()
        .await
        .expect("get")
        .status();
    assert_eq!(status, 404, "no journal without --journal");
    plain.stop().await.expect("stop");
}
