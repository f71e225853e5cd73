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
    let response = server.send(None, &initialize_request(1)).await;
    assert_eq!(response.status(), 200);
    let session = header(&response, "mcp-session-id").unwrap_or_default();
    assert!(!session.is_empty(), "mcp-session-id issued");
    let content_type = header(&response, "content-type").unwrap_or_default();
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
    let response = server.send(None, &initialize_request(7)).await;
    assert_eq!(response.status(), 200);
    assert!(
        header(&response, "mcp-session-id").is_none(),
        "no session in stateless mode"
    );
    let content_type = header(&response, "content-type").unwrap_or_default();
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(body["id"], 7);
    assert_eq!(body["result"]["serverInfo"]["name"], "weather-server");

    // A tool call without any session works and is plain JSON too.
    let response = server.send(None, &call_weather(8, "Tokyo")).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(body["result"]["content"][0]["text"], "Sunny");

    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn stateless_sse_mode_answers_without_session() {
    let server = TestServer::start(&["--stateless"]).await;
    let messages = server.roundtrip(None, &call_weather(3, "Paris")).await;
    let response = response_for(&messages, 3);
    assert_eq!(response["result"]["structuredContent"]["location"], "Paris");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn initialized_notification_is_accepted_with_202() {
    let server = TestServer::start(&[]).await;
    // open_session asserts the 202 for notifications/initialized.
    let session = server.open_session().await;
    let response = server.send(Some(&session), &initialized()).await;
    assert_eq!(response.status(), 202);
    assert!(response.text().await.expect("body").is_empty());
    server.stop().await.expect("clean shutdown");
}

/// Which `mcp-session-id` a refused request sends.
enum Session {
    None,
    Unknown,
    Open,
}

/// Requests the transport refuses for their session or headers, and the status each gets.
#[tokio::test]
async fn requests_with_a_bad_session_or_headers_get_their_status() {
    let server = TestServer::start(&[]).await;
    let list = request(2, "tools/list", json!({}));
    let cases = [
        (
            "no session id",
            Session::None,
            vec![ACCEPT, VERSION],
            &list,
            400,
        ),
        (
            "unknown session",
            Session::Unknown,
            vec![ACCEPT, VERSION],
            &list,
            404,
        ),
        (
            "Accept without text/event-stream",
            Session::None,
            vec![("accept", "application/json")],
            &initialize_request(1),
            406,
        ),
        (
            "unsupported MCP-Protocol-Version",
            Session::Open,
            vec![ACCEPT, ("mcp-protocol-version", "1999-01-01")],
            &list,
            400,
        ),
    ];
    for (name, session, mut headers, body, status) in cases {
        let session = match session {
            Session::None => None,
            Session::Unknown => Some("no-such-session".to_owned()),
            Session::Open => Some(server.open_session().await),
        };
        if let Some(id) = &session {
            headers.push(("mcp-session-id", id));
        }
        let response = server
            .post_with(&headers)
            .json(body)
            .send()
            .await
            .expect(name);
        assert_eq!(response.status(), status, "{name}");
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn deleted_session_is_404_afterwards() {
    let server = TestServer::start(&[]).await;
    let session = server.open_session().await;

    // Works before the DELETE.
    let messages = server
        .roundtrip(Some(&session), &request(2, "ping", json!({})))
        .await;
    assert_eq!(response_for(&messages, 2)["result"], json!({}));

    let response = server.delete(&session).send().await.expect("delete");
    assert!(
        response.status().is_success(),
        "DELETE status {}",
        response.status()
    );

    let response = server
        .send(Some(&session), &request(3, "ping", json!({})))
        .await;
    assert_eq!(response.status(), 404);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn shutdown_ends_open_streams() {
    let server = TestServer::start(&[]).await;
    let session = server.open_session().await;
    // A standalone GET stream stays open until the server shuts down.
    let response = server.get_stream(&session).await.expect("GET stream");
    assert_eq!(response.status(), 200);
    let body = tokio::spawn(response.text());
    server.stop().await.expect("serve returns after shutdown");
    let finished = tokio::time::timeout(std::time::Duration::from_secs(5), body).await;
    assert!(finished.is_ok(), "GET stream ended with the server");
}

#[tokio::test]
async fn static_dir_is_served_with_index_fallback() {
    let dir = TempDir::with_files(
        "static",
        &[
            ("index.html", b"<h1>mcp-flow</h1>"),
            ("app.js", b"console.log(1)"),
        ],
    );
    let server = TestServer::start(&["--static", dir.arg()]).await;
    for (path, body) in [
        ("/", "<h1>mcp-flow</h1>"),
        ("/app.js", "console.log(1)"),
        ("/some/client/route", "<h1>mcp-flow</h1>"),
    ] {
        let response = server.get(path).send().await.expect(path);
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.text().await.expect("body"), body, "{path}");
    }

    // /mcp is still the MCP endpoint.
    let session = server.open_session().await;
    assert!(!session.is_empty());

    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn without_static_dir_root_is_404() {
    let server = TestServer::start(&[]).await;
    let response = server.get("/").send().await.expect("GET /");
    assert_eq!(response.status(), 404);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn the_journal_records_what_clients_sent_and_is_off_by_default() {
    let server = TestServer::start(&["--journal"]).await;
    let session = server.open_session().await;
    server
        .client
        .delete(&server.url)
        .header("mcp-session-id", &session)
        .header("accept", ACCEPT_BOTH)
        .send()
        .await
        .expect("delete");
    let entries: Vec<Value> = server
        .get("/journal")
        .send()
        .await
        .expect("journal")
        .json()
        .await
        .expect("json");
    let seen: Vec<(&str, Option<&str>)> = entries
        .iter()
        .map(|e| {
            (
                e["http_method"].as_str().unwrap_or(""),
                e["rpc_method"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("POST", Some("initialize")),
            ("POST", Some("notifications/initialized")),
            ("DELETE", None),
        ]
    );
    assert_eq!(entries[2]["session"], json!(session));
    assert_eq!(entries[0]["session"], Value::Null);
    // Guarded like /mcp: a foreign page or a rebound name cannot read what clients sent.
    let own = server.origin();
    for (header, value, status) in [
        ("origin", "http://evil.example", 403),
        ("host", "evil.example", 403),
        ("origin", own.as_str(), 200),
    ] {
        let answer = server.get("/journal").header(header, value).send().await;
        let got = answer.expect("get").status();
        assert_eq!(got, status, "{header}: {value}");
    }
    server.stop().await.expect("stop");

    let plain = TestServer::start(&[]).await;
    let status = plain.get("/journal").send().await.expect("get").status();
    assert_eq!(status, 404, "no journal without --journal");
    plain.stop().await.expect("stop");
}
