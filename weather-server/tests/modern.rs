//! MCP 2026-07-28 beside 2025-11-25 on one endpoint (the default `--era both`), over raw HTTP:
//! `server/discover`, per-request `_meta`, the header rules (−32020 before −32022, −32022 with
//! `supported`/`requested`, `Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` with strict Base64), the
//! removed methods (404 + −32601), 405 for GET/DELETE, `resultType`, caching hints, the `units`
//! argument mirrored in `Mcp-Param-Units`, log notifications only on request, CORS for the new
//! headers, and legacy traffic left as it was.

mod support;

use serde_json::{Value, json};
use support::*;

const HEADER_MISMATCH: i64 = -32020;
const UNSUPPORTED_VERSION: i64 = -32022;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

async fn start() -> (TestServer, reqwest::Client) {
    (TestServer::start(&[]).await, client())
}

fn discover(id: i64) -> Value {
    modern_request(id, "server/discover", json!({}))
}

#[tokio::test]
async fn discover_names_both_eras_the_server_and_caching_hints() {
    let (server, client) = start().await;
    let answer = modern(&client, &server.url, &discover(1)).await;
    assert_eq!(answer.status, 200);
    assert!(
        answer.header("mcp-session-id").is_none(),
        "modern requests have no sessions"
    );
    let reply = answer.reply();
    assert_eq!(reply["id"], 1);
    let result = &reply["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(
        result["supportedVersions"],
        json!([
            "2026-07-28",
            "2025-11-25",
            "2025-06-18",
            "2025-03-26",
            "2024-11-05"
        ])
    );
    assert!(result["capabilities"]["tools"].is_object(), "{result}");
    assert!(result["instructions"].is_string());
    let info = &result["_meta"][META_SERVER_INFO];
    assert_eq!(info["name"], "weather-server");
    assert_eq!(info["version"], env!("CARGO_PKG_VERSION"));
    assert!(
        result["ttlMs"].is_u64(),
        "ttlMs is an integer >= 0: {result}"
    );
    assert_eq!(result["ttlMs"], 300_000);
    assert_eq!(result["cacheScope"], "public");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn discover_serves_a_request_without_client_info() {
    let (server, client) = start().await;
    let body = modern_request(
        2,
        "server/discover",
        json!({"_meta": {META_VERSION: MODERN, META_CAPABILITIES: {}}}),
    );
    let answer = modern(&client, &server.url, &body).await;
    assert_eq!(answer.status, 200);
    assert!(answer.reply()["result"]["supportedVersions"].is_array());
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn missing_required_meta_is_400_invalid_params() {
    let (server, client) = start().await;
    for (id, params) in [
        (101, json!({})),
        (102, json!({"_meta": {META_CAPABILITIES: {}}})),
        (103, json!({"_meta": {META_VERSION: MODERN}})),
        (
            104,
            json!({"_meta": {META_VERSION: MODERN, META_CAPABILITIES: "none"}}),
        ),
    ] {
        let body =
            json!({"jsonrpc": "2.0", "id": id, "method": "server/discover", "params": params});
        let answer = modern(&client, &server.url, &body).await;
        answer.assert_error(400, INVALID_PARAMS, id);
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_header_that_disagrees_with_meta_is_32020_before_the_version_check() {
    let (server, client) = start().await;
    // `_meta` names a version nobody serves, the header a good one: the mismatch wins.
    let body = modern_request(
        302,
        "server/discover",
        json!({"_meta": {META_VERSION: "v999.0.0", META_CAPABILITIES: {}}}),
    );
    let answer = modern(&client, &server.url, &body).await;
    answer.assert_error(400, HEADER_MISMATCH, 302);

    // Both agree on a legacy version the server serves, but on a different one each.
    let body = modern_request(
        303,
        "tools/list",
        json!({"_meta": {META_VERSION: "2025-11-25", META_CAPABILITIES: {}}}),
    );
    let answer = modern(&client, &server.url, &body).await;
    answer.assert_error(400, HEADER_MISMATCH, 303);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn an_unsupported_version_is_32022_with_supported_and_requested() {
    let (server, client) = start().await;
    let body = modern_request(
        301,
        "server/discover",
        json!({"_meta": {META_VERSION: "v999.0.0", META_CAPABILITIES: {}}}),
    );
    let answer = Answer::read(
        client
            .post(&server.url)
            .header("content-type", "application/json")
            .header("accept", ACCEPT_BOTH)
            .header("mcp-protocol-version", "v999.0.0")
            .header("mcp-method", "server/discover")
            .json(&body)
            .send()
            .await
            .expect("send"),
    )
    .await;
    let reply = answer.assert_error(400, UNSUPPORTED_VERSION, 301);
    assert_eq!(reply["error"]["data"]["requested"], "v999.0.0");
    let supported = reply["error"]["data"]["supported"].clone();
    let discovered =
        modern(&client, &server.url, &discover(1)).await.reply()["result"]["supportedVersions"]
            .clone();
    assert_eq!(supported, discovered);

    // A request with only the header naming an unknown version (legacy traffic in a session)
    // gets the same error body.
    let session = open_session(&client, &server.url).await;
    let response = client
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", ACCEPT_BOTH)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "1999-01-01")
        .json(&request(5, "tools/list", json!({})))
        .send()
        .await
        .expect("send");
    let reply = Answer::read(response)
        .await
        .assert_error(400, UNSUPPORTED_VERSION, 5);
    assert_eq!(reply["error"]["data"]["requested"], "1999-01-01");
    assert!(
        reply["error"]["data"]["supported"]
            .as_array()
            .is_some_and(|v| v.contains(&json!("2025-11-25")))
    );
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn mcp_method_must_be_present_and_exact() {
    let (server, client) = start().await;
    let body = modern_request(7, "tools/list", json!({}));
    for value in [Some("server/discover"), Some("TOOLS/LIST"), None] {
        let mut builder = client
            .post(&server.url)
            .header("content-type", "application/json")
            .header("accept", ACCEPT_BOTH)
            .header("mcp-protocol-version", MODERN);
        if let Some(value) = value {
            builder = builder.header("mcp-method", value);
        }
        let answer = Answer::read(builder.json(&body).send().await.expect("send")).await;
        answer.assert_error(400, HEADER_MISMATCH, 7);
    }
    // Header names are case-insensitive.
    let answer = Answer::read(
        client
            .post(&server.url)
            .header("content-type", "application/json")
            .header("accept", ACCEPT_BOTH)
            .header("MCP-PROTOCOL-VERSION", MODERN)
            .header("MCP-METHOD", "tools/list")
            .json(&body)
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(answer.status, 200);
    server.stop().await.expect("clean shutdown");
}

/// A modern `tools/call` of get_weather with `name` as the `Mcp-Name` header.
async fn call_with_name(
    client: &reqwest::Client,
    server: &TestServer,
    id: i64,
    name: Option<&str>,
) -> Answer {
    let body = modern_weather(id, json!({"location": "Tokyo"}), json!({}));
    let mut builder = client
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", ACCEPT_BOTH)
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tools/call");
    if let Some(name) = name {
        builder = builder.header("mcp-name", name);
    }
    Answer::read(builder.json(&body).send().await.expect("send")).await
}

#[tokio::test]
async fn mcp_name_is_required_compared_and_base64_decoded_strictly() {
    let (server, client) = start().await;
    call_with_name(&client, &server, 1, None)
        .await
        .assert_error(400, HEADER_MISMATCH, 1);
    call_with_name(&client, &server, 2, Some("get_time"))
        .await
        .assert_error(400, HEADER_MISMATCH, 2);
    // "get_weather" in Base64, padded: accepted.
    let answer = call_with_name(&client, &server, 3, Some("=?base64?Z2V0X3dlYXRoZXI=?=")).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.reply()["result"]["content"][0]["text"], "Sunny");
    // Without its padding, or with characters outside the alphabet: refused.
    call_with_name(&client, &server, 4, Some("=?base64?Z2V0X3dlYXRoZXI?="))
        .await
        .assert_error(400, HEADER_MISMATCH, 4);
    call_with_name(&client, &server, 5, Some("=?base64?Z2V0X3dl!!!YXRoZXI=?="))
        .await
        .assert_error(400, HEADER_MISMATCH, 5);
    // The sentinel is exact: a prefix without the suffix is a literal value (which then differs).
    call_with_name(&client, &server, 6, Some("=?base64?Z2V0X3dlYXRoZXI="))
        .await
        .assert_error(400, HEADER_MISMATCH, 6);
    // Surrounding whitespace is not part of a header value.
    let answer = call_with_name(&client, &server, 7, Some("  get_weather  ")).await;
    assert_eq!(answer.status, 200);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn removed_and_unknown_methods_are_404_method_not_found() {
    let (server, client) = start().await;
    let removed = [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
    ];
    for (id, method) in (500..).zip(removed.iter().chain(&["unknown/method"])) {
        let params = match *method {
            "logging/setLevel" => json!({"level": "debug"}),
            "resources/subscribe" | "resources/unsubscribe" => json!({"uri": "weather://x"}),
            _ => json!({}),
        };
        let answer = modern(&client, &server.url, &modern_request(id, method, params)).await;
        answer.assert_error(404, METHOD_NOT_FOUND, id);
        assert!(
            answer.header("mcp-session-id").is_none(),
            "{method} opens no session"
        );
    }
    // A removed method with a header that disagrees with `_meta` is still a header mismatch,
    // and one without its `_meta` is malformed: the checks before dispatch come first.
    let body = modern_request(
        520,
        "ping",
        json!({"_meta": {META_VERSION: "2025-11-25", META_CAPABILITIES: {}}}),
    );
    modern(&client, &server.url, &body)
        .await
        .assert_error(400, HEADER_MISMATCH, 520);
    let body = json!({"jsonrpc": "2.0", "id": 521, "method": "ping", "params": {}});
    modern(&client, &server.url, &body)
        .await
        .assert_error(400, INVALID_PARAMS, 521);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn legacy_sessions_keep_initialize_ping_and_set_level() {
    let (server, client) = start().await;
    // `initialize` without `_meta` selects the legacy handshake even with a modern header; the
    // answer names the newest legacy version.
    let mut body = initialize_request(1);
    body["params"]["protocolVersion"] = json!(MODERN);
    let response = client
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", ACCEPT_BOTH)
        .header("mcp-protocol-version", MODERN)
        .json(&body)
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("mcp-session-id").is_some());
    let answer = Answer::read(response).await;
    assert_eq!(answer.reply()["result"]["protocolVersion"], "2025-11-25");

    let session = open_session(&client, &server.url).await;
    let ping = roundtrip(
        &client,
        &server.url,
        Some(&session),
        &request(2, "ping", json!({})),
    )
    .await;
    assert_eq!(response_for(&ping, 2)["result"], json!({}));
    let level = roundtrip(
        &client,
        &server.url,
        Some(&session),
        &request(3, "logging/setLevel", json!({"level": "info"})),
    )
    .await;
    assert_eq!(response_for(&level, 3)["result"], json!({}));
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn get_and_delete_in_the_modern_era_are_405() {
    let (server, client) = start().await;
    let get = client
        .get(&server.url)
        .header("accept", "text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .send()
        .await
        .expect("GET");
    assert_eq!(get.status(), 405);
    assert_eq!(
        get.headers().get("allow").and_then(|v| v.to_str().ok()),
        Some("POST")
    );
    let delete = client
        .delete(&server.url)
        .header("mcp-protocol-version", MODERN)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(delete.status(), 405);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_legacy_delete_that_ends_its_session_is_200() {
    let (server, client) = start().await;
    let session = open_session(&client, &server.url).await;
    let delete = client
        .delete(&server.url)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", PROTOCOL)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(delete.status(), 200);
    // The session is gone: a second DELETE finds nothing to end.
    let again = client
        .delete(&server.url)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", PROTOCOL)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(again.status(), 404);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn tools_list_carries_result_type_caching_hints_and_the_units_header() {
    let (server, client) = start().await;
    let answer = modern(
        &client,
        &server.url,
        &modern_request(2, "tools/list", json!({})),
    )
    .await;
    assert_eq!(answer.status, 200);
    let result = answer.reply()["result"].clone();
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["ttlMs"], 300_000);
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["_meta"][META_SERVER_INFO]["name"], "weather-server");
    let tool = &result["tools"][0];
    assert_eq!(tool["name"], "get_weather");
    assert_eq!(
        tool["inputSchema"]["properties"]["units"],
        json!({
            "type": "string",
            "enum": ["celsius", "fahrenheit"],
            "default": "celsius",
            "description": "Temperature units of the report (default celsius).",
            "x-mcp-header": "Units",
        })
    );
    assert_eq!(tool["inputSchema"]["required"], json!(["location"]));

    // A legacy session's list has neither resultType nor caching hints.
    let session = open_session(&client, &server.url).await;
    let legacy = roundtrip(
        &client,
        &server.url,
        Some(&session),
        &request(3, "tools/list", json!({})),
    )
    .await;
    let result = &response_for(&legacy, 3)["result"];
    for field in ["resultType", "ttlMs", "cacheScope", "_meta"] {
        assert!(result.get(field).is_none(), "{field} in {result}");
    }
    assert_eq!(result["tools"][0]["name"], "get_weather");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_modern_tool_call_completes_with_result_type_and_server_info() {
    let (server, client) = start().await;
    let body = modern_weather(4, json!({"location": "Tokyo"}), json!({}));
    let answer = modern(&client, &server.url, &body).await;
    assert_eq!(answer.status, 200);
    let reply = answer.reply();
    assert_eq!(reply["id"], 4);
    let result = &reply["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["isError"], false);
    assert_eq!(result["content"][0]["text"], "Sunny");
    assert_eq!(result["structuredContent"]["location"], "Tokyo");
    assert_eq!(result["structuredContent"]["units"], "celsius");
    assert_eq!(result["_meta"][META_SERVER_INFO]["name"], "weather-server");
    server.stop().await.expect("clean shutdown");
}

/// A modern call of get_weather for Tokyo with `units` in the body (if any) and the
/// `Mcp-Param-Units` header (if any).
async fn call_with_units(
    client: &reqwest::Client,
    server: &TestServer,
    id: i64,
    body_units: Option<&str>,
    header: Option<&str>,
) -> Answer {
    let mut arguments = json!({"location": "Tokyo"});
    if let Some(units) = body_units {
        arguments["units"] = json!(units);
    }
    let body = modern_weather(id, arguments, json!({}));
    let mut builder = modern_post(client, &server.url, &body);
    if let Some(header) = header {
        builder = builder.header("mcp-param-units", header);
    }
    Answer::read(builder.send().await.expect("send")).await
}

#[tokio::test]
async fn units_travel_in_the_body_and_in_mcp_param_units() {
    let (server, client) = start().await;
    let answer = call_with_units(&client, &server, 1, Some("fahrenheit"), Some("fahrenheit")).await;
    assert_eq!(answer.status, 200);
    let report = answer.reply()["result"]["structuredContent"].clone();
    assert_eq!(report["temperature"], 71.6);
    assert_eq!(report["units"], "fahrenheit");
    assert_eq!(report["temperature_c"], 22.0);

    // The header may be Base64 ("fahrenheit").
    let answer = call_with_units(
        &client,
        &server,
        2,
        Some("fahrenheit"),
        Some("=?base64?ZmFocmVuaGVpdA==?="),
    )
    .await;
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.reply()["result"]["structuredContent"]["temperature"],
        71.6
    );

    // In the body without the header, in both disagreeing, or the header without the body value:
    // a non-conforming client.
    call_with_units(&client, &server, 3, Some("fahrenheit"), None)
        .await
        .assert_error(400, HEADER_MISMATCH, 3);
    call_with_units(&client, &server, 4, Some("fahrenheit"), Some("celsius"))
        .await
        .assert_error(400, HEADER_MISMATCH, 4);
    call_with_units(&client, &server, 5, None, Some("celsius"))
        .await
        .assert_error(400, HEADER_MISMATCH, 5);
    call_with_units(
        &client,
        &server,
        6,
        Some("fahrenheit"),
        Some("=?base64?ZmFocmVuaGVpdA?="),
    )
    .await
    .assert_error(400, HEADER_MISMATCH, 6);

    // Neither: the default, celsius.
    let answer = call_with_units(&client, &server, 7, None, None).await;
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.reply()["result"]["structuredContent"]["temperature"],
        22.0
    );

    // A value outside the enum that the header mirrors faithfully is the tool's to refuse.
    let answer = call_with_units(&client, &server, 8, Some("kelvin"), Some("kelvin")).await;
    assert_eq!(answer.status, 200);
    let result = answer.reply()["result"].clone();
    assert_eq!(result["isError"], true, "{result}");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn legacy_clients_send_units_without_headers() {
    let (server, client) = start().await;
    let session = open_session(&client, &server.url).await;
    let body = request(
        2,
        "tools/call",
        json!({"name": "get_weather", "arguments": {"location": "Moscow", "units": "fahrenheit"}}),
    );
    let messages = roundtrip(&client, &server.url, Some(&session), &body).await;
    let report = &response_for(&messages, 2)["result"]["structuredContent"];
    assert_eq!(report["temperature"], 24.8);
    assert_eq!(report["temperature_c"], -4.0);
    server.stop().await.expect("clean shutdown");
}

fn is_log(message: &Value) -> bool {
    message["method"] == "notifications/message"
}

#[tokio::test]
async fn log_notifications_only_when_the_request_asks() {
    let (server, client) = start().await;
    let quiet = modern_weather(1, json!({"location": "Kyoto"}), json!({}));
    let answer = modern(&client, &server.url, &quiet).await;
    assert!(
        !answer.messages.iter().any(is_log),
        "no logLevel, no log: {:#?}",
        answer.messages
    );
    assert_eq!(answer.reply()["result"]["content"][0]["text"], "Cloudy");

    let mut loud = modern_weather(2, json!({"location": "Kyoto"}), json!({}));
    loud["params"]["_meta"][META_LOG_LEVEL] = json!("info");
    loud["params"]["_meta"]["progressToken"] = json!("p-1");
    let answer = modern(&client, &server.url, &loud).await;
    let log = answer
        .messages
        .iter()
        .position(is_log)
        .expect("a log notification");
    let progress = answer
        .messages
        .iter()
        .position(|m| m["method"] == "notifications/progress")
        .expect("progress");
    let reply = answer
        .messages
        .iter()
        .position(|m| m["id"] == 2)
        .expect("reply");
    assert!(log < reply && progress < reply, "{:#?}", answer.messages);
    assert_eq!(
        answer.messages[log]["params"]["data"],
        "get_weather called for Kyoto"
    );
    assert!(
        answer.messages.iter().all(|m| m.get("method").is_none()
            || m["method"]
                .as_str()
                .is_some_and(|s| s.starts_with("notifications/"))),
        "no server requests on a modern stream"
    );

    // A level above info filters it out.
    let mut strict = modern_weather(3, json!({"location": "Kyoto"}), json!({}));
    strict["params"]["_meta"][META_LOG_LEVEL] = json!("error");
    let answer = modern(&client, &server.url, &strict).await;
    assert!(
        !answer.messages.iter().any(is_log),
        "{:#?}",
        answer.messages
    );
    server.stop().await.expect("clean shutdown");
}

fn header_list(answer: &reqwest::Response, name: &str) -> Vec<String> {
    answer
        .headers()
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|v| v.trim().to_ascii_lowercase())
        .collect()
}

#[tokio::test]
async fn cors_preflight_allows_the_modern_headers_and_mcp_param_units() {
    let (server, client) = start().await;
    let origin = "http://localhost:8080";
    let preflight = client
        .request(reqwest::Method::OPTIONS, &server.url)
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "content-type,mcp-method,mcp-name,mcp-param-units,mcp-protocol-version",
        )
        .send()
        .await
        .expect("preflight");
    assert!(preflight.status().is_success(), "{}", preflight.status());
    let allowed = header_list(&preflight, "access-control-allow-headers");
    for name in [
        "content-type",
        "mcp-method",
        "mcp-name",
        "mcp-param-units",
        "mcp-protocol-version",
        "mcp-session-id",
    ] {
        assert!(allowed.iter().any(|h| h == name), "{name} in {allowed:?}");
    }
    // The real request from that origin: readable, still exposing the legacy headers.
    let body = modern_weather(
        9,
        json!({"location": "Tokyo", "units": "fahrenheit"}),
        json!({}),
    );
    let response = modern_post(&client, &server.url, &body)
        .header("origin", origin)
        .header("mcp-param-units", "fahrenheit")
        .send()
        .await
        .expect("POST");
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
async fn the_calculator_endpoint_speaks_both_eras_too() {
    let (server, client) = start().await;
    let calc = server.url.replace("/mcp", "/calc");
    let body = modern_request(
        1,
        "tools/call",
        json!({"name": "multiply", "arguments": {"a": 3, "b": 111}}),
    );
    let answer = modern(&client, &calc, &body).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.reply()["result"]["content"][0]["text"], "333");
    modern(&client, &calc, &modern_request(2, "ping", json!({})))
        .await
        .assert_error(404, METHOD_NOT_FOUND, 2);
    server.stop().await.expect("clean shutdown");
}
