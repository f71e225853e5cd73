//! `--era modern|legacy|both`: which protocol eras the server speaks, over raw HTTP.
//!
//! - modern: 2026-07-28 only, no sessions; a legacy `initialize` gets 400 + −32022 naming the
//!   supported versions; legacy traffic is refused with modern errors.
//! - legacy: 2025-11-25 and older only; a modern request (`server/discover` first) gets what a
//!   legacy server says, a 4xx without a modern error body, so a client's detection falls back.
//! - both (the default; `tests/modern.rs` covers it in depth): one endpoint, both eras.

mod support;

use serde_json::json;
use support::*;

/// The codes that tell a client "this is a modern server".
const MODERN_ERRORS: [i64; 3] = [-32020, -32021, -32022];

// --- modern ------------------------------------------------------------------------------------

#[tokio::test]
async fn modern_discover_lists_only_2026_07_28() {
    let server = TestServer::start(&["--era", "modern"]).await;
    let answer = server.modern(&discover(1)).await;
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.reply()["result"]["supportedVersions"],
        json!(["2026-07-28"])
    );
    // And the weather still works.
    let body = modern_weather(2, json!({"location": "Paris"}), json!({}));
    let answer = server.modern(&body).await;
    assert_eq!(answer.reply()["result"]["content"][0]["text"], "Light rain");
    assert!(answer.header("mcp-session-id").is_none());
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn modern_answers_a_legacy_initialize_with_the_supported_versions() {
    let server = TestServer::start(&["--era", "modern"]).await;
    let response = server.send(None, &initialize_request(1)).await;
    assert!(header(&response, "mcp-session-id").is_none());
    let answer = Answer::read(response).await;
    let reply = answer.assert_error(400, -32022, 1);
    assert_eq!(reply["error"]["data"]["supported"], json!(["2026-07-28"]));
    assert_eq!(reply["error"]["data"]["requested"], PROTOCOL);
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("2026-07-28"),
        "names the versions: {message}"
    );

    // Without any version header either.
    Answer::send(server.post_with(&[ACCEPT]).json(&initialize_request(2)))
        .await
        .assert_error(400, -32022, 2);

    // With modern `_meta` it is simply a method 2026-07-28 does not have.
    server
        .modern(&modern_request(3, "initialize", json!({})))
        .await
        .assert_error(404, -32601, 3);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn modern_refuses_other_legacy_traffic() {
    let server = TestServer::start(&["--era", "modern"]).await;
    let legacy_meta = json!({"_meta": {META_VERSION: PROTOCOL, META_CAPABILITIES: {}}});
    let cases = [
        // A legacy version header: unsupported.
        (
            &[ACCEPT, VERSION][..],
            request(1, "tools/list", json!({})),
            -32022,
        ),
        // No header at all: the header is required.
        (&[ACCEPT], request(2, "tools/list", json!({})), -32020),
        // `_meta` naming a legacy version: unsupported.
        (
            &[ACCEPT, VERSION, ("mcp-method", "tools/list")],
            modern_request(3, "tools/list", legacy_meta),
            -32022,
        ),
    ];
    for (headers, body, code) in cases {
        let id = body["id"].as_i64().expect("an id");
        let reply = Answer::send(server.post_with(headers).json(&body))
            .await
            .assert_error(400, code, id);
        if code == -32022 {
            assert_eq!(reply["error"]["data"]["requested"], PROTOCOL, "{reply}");
        }
    }
    // Sessions do not exist: GET and DELETE are 405.
    for method in [reqwest::Method::GET, reqwest::Method::DELETE] {
        let response = server
            .client
            .request(method.clone(), &server.url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", "anything")
            .header("mcp-protocol-version", PROTOCOL)
            .send()
            .await
            .expect("send");
        assert_eq!(response.status(), 405, "{method}");
    }
    server.stop().await.expect("clean shutdown");
}

// --- legacy ------------------------------------------------------------------------------------

/// A legacy server's answer to a modern request: a 4xx whose body, if a JSON-RPC error, is not
/// one of the modern ones (and not the 404 + −32601 of a modern server's unknown method).
fn assert_legacy_refusal(answer: &Answer) {
    assert!(
        (400..500).contains(&answer.status),
        "a 4xx, got {}",
        answer.status
    );
    if let Some(reply) = answer.messages.first() {
        let code = reply["error"]["code"].as_i64().unwrap_or_default();
        assert!(
            !MODERN_ERRORS.contains(&code),
            "not a modern error: {reply}"
        );
        assert!(
            !(answer.status == 404 && code == -32601),
            "not a modern 404: {reply}"
        );
        assert!(reply.get("result").is_none(), "{reply}");
    }
}

#[tokio::test]
async fn legacy_answers_discover_like_a_legacy_server() {
    for flags in [
        &["--era", "legacy"][..],
        &["--era", "legacy", "--stateless"],
    ] {
        let server = TestServer::start(flags).await;
        let answer = server.modern(&discover(1)).await;
        assert_legacy_refusal(&answer);
        assert_eq!(answer.reply()["id"], 1, "{flags:?}");
        let body = modern_weather(2, json!({"location": "Tokyo"}), json!({}));
        let answer = server.modern(&body).await;
        assert_legacy_refusal(&answer);
        // `_meta` alone (no modern header) is modern too.
        let body = modern_request(3, "tools/list", json!({}));
        assert_legacy_refusal(&Answer::send(server.post(None).json(&body)).await);
        server.stop().await.expect("clean shutdown");
    }
}

#[tokio::test]
async fn legacy_serves_sessions_and_negotiates_initialize_down() {
    let server = TestServer::start(&["--era", "legacy"]).await;
    let session = server.open_session().await;
    let messages = server
        .roundtrip(Some(&session), &call_weather(2, "Tokyo"))
        .await;
    let result = &response_for(&messages, 2)["result"];
    assert_eq!(result["content"][0]["text"], "Sunny");
    assert!(result.get("resultType").is_none(), "{result}");

    // A client asking for 2026-07-28 in initialize is offered the newest legacy version.
    let mut body = initialize_request(3);
    body["params"]["protocolVersion"] = json!(MODERN);
    let answer = Answer::send(server.post_with(&[ACCEPT]).json(&body)).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.reply()["result"]["protocolVersion"], "2025-11-25");

    // An initialize carrying modern `_meta` is still an initialize to a legacy server.
    let mut body = initialize_request(4);
    body["params"]["_meta"] = modern_meta(json!({}));
    let answer = Answer::send(server.post(None).json(&body)).await;
    assert_eq!(answer.status, 200);
    assert!(answer.header("mcp-session-id").is_some());
    server.stop().await.expect("clean shutdown");
}

// --- both --------------------------------------------------------------------------------------

#[tokio::test]
async fn both_serves_a_session_and_a_modern_request_side_by_side() {
    for flags in [
        &[][..],
        &["--era", "both", "--stateless"],
        &["--json-response"],
    ] {
        let server = TestServer::start(flags).await;
        let answer = server.modern(&discover(1)).await;
        let versions = answer.reply()["result"]["supportedVersions"].clone();
        assert!(
            versions
                .as_array()
                .is_some_and(|v| v.contains(&json!(MODERN)) && v.contains(&json!(PROTOCOL))),
            "{flags:?}: {versions}"
        );
        let body = modern_weather(2, json!({"location": "Seoul"}), json!({}));
        let answer = server.modern(&body).await;
        assert_eq!(
            answer.reply()["result"]["content"][0]["text"],
            "Clear",
            "{flags:?}"
        );

        let answer = Answer::send(server.post(None).json(&initialize_request(3))).await;
        assert_eq!(answer.status, 200, "{flags:?}");
        assert_eq!(answer.reply()["result"]["protocolVersion"], PROTOCOL);
        server.stop().await.expect("clean shutdown");
    }
}
