//! MCP 2026-07-28 beside 2025-11-25 on one endpoint (the default `--era both`), over raw HTTP:
//! `server/discover`, per-request `_meta`, the header rules (−32020 before −32022, −32022 with
//! `supported`/`requested`, `Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` with strict Base64), the
//! removed methods (404 + −32601), 405 for GET/DELETE, `resultType`, caching hints, the `units`
//! argument mirrored in `Mcp-Param-Units`, log notifications only on request, CORS for the new
//! headers, and legacy traffic left as it was.

mod support;

use serde_json::json;
use support::*;

const HEADER_MISMATCH: i64 = -32020;
const UNSUPPORTED_VERSION: i64 = -32022;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

#[tokio::test]
async fn discover_names_both_eras_the_server_and_caching_hints() {
    let server = TestServer::start(&[]).await;
    let answer = server.modern(&discover(1)).await;
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
    let server = TestServer::start(&[]).await;
    let body = modern_request(
        2,
        "server/discover",
        json!({"_meta": {META_VERSION: MODERN, META_CAPABILITIES: {}}}),
    );
    let answer = server.modern(&body).await;
    assert_eq!(answer.status, 200);
    assert!(answer.reply()["result"]["supportedVersions"].is_array());
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn missing_required_meta_is_400_invalid_params() {
    let server = TestServer::start(&[]).await;
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
        let answer = server.modern(&body).await;
        answer.assert_error(400, INVALID_PARAMS, id);
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_header_that_disagrees_with_meta_is_32020_before_the_version_check() {
    let server = TestServer::start(&[]).await;
    // The header always names 2026-07-28; `_meta` names another version.
    for (id, method, version) in [
        // One nobody serves: the mismatch wins.
        (302, "server/discover", "v999.0.0"),
        // A legacy version the server serves.
        (303, "tools/list", "2025-11-25"),
    ] {
        let body = modern_request(
            id,
            method,
            json!({"_meta": {META_VERSION: version, META_CAPABILITIES: {}}}),
        );
        server
            .modern(&body)
            .await
            .assert_error(400, HEADER_MISMATCH, id);
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn an_unsupported_version_is_32022_with_supported_and_requested() {
    let server = TestServer::start(&[]).await;
    let body = modern_request(
        301,
        "server/discover",
        json!({"_meta": {META_VERSION: "v999.0.0", META_CAPABILITIES: {}}}),
    );
    let answer = Answer::send(
        server
            .post_with(&[
                ACCEPT,
                ("mcp-protocol-version", "v999.0.0"),
                ("mcp-method", "server/discover"),
            ])
            .json(&body),
    )
    .await;
    let reply = answer.assert_error(400, UNSUPPORTED_VERSION, 301);
    assert_eq!(reply["error"]["data"]["requested"], "v999.0.0");
    let supported = reply["error"]["data"]["supported"].clone();
    let discovered =
        server.modern(&discover(1)).await.reply()["result"]["supportedVersions"].clone();
    assert_eq!(supported, discovered);

    // A request with only the header naming an unknown version (legacy traffic in a session)
    // gets the same error body.
    let session = server.open_session().await;
    let legacy = server
        .post_with(&[
            ACCEPT,
            ("mcp-session-id", &session),
            ("mcp-protocol-version", "1999-01-01"),
        ])
        .json(&request(5, "tools/list", json!({})));
    let reply = Answer::send(legacy)
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
    let server = TestServer::start(&[]).await;
    let body = modern_request(7, "tools/list", json!({}));
    let version = ("mcp-protocol-version", MODERN);
    for headers in [
        &[ACCEPT, version, ("mcp-method", "server/discover")][..],
        &[ACCEPT, version, ("mcp-method", "TOOLS/LIST")],
        &[ACCEPT, version],
    ] {
        Answer::send(server.post_with(headers).json(&body))
            .await
            .assert_error(400, HEADER_MISMATCH, 7);
    }
    // Header names are case-insensitive.
    let upper = [
        ACCEPT,
        ("MCP-PROTOCOL-VERSION", MODERN),
        ("MCP-METHOD", "tools/list"),
    ];
    let answer = Answer::send(server.post_with(&upper).json(&body)).await;
    assert_eq!(answer.status, 200);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn mcp_name_is_required_compared_and_base64_decoded_strictly() {
    let server = TestServer::start(&[]).await;
    // The `Mcp-Name` header of a call of get_weather, and whether it is accepted.
    let cases = [
        ("absent", None, false),
        ("another tool", Some("get_time"), false),
        ("Base64, padded", Some("=?base64?Z2V0X3dlYXRoZXI=?="), true),
        (
            "Base64 without its padding",
            Some("=?base64?Z2V0X3dlYXRoZXI?="),
            false,
        ),
        (
            "outside the alphabet",
            Some("=?base64?Z2V0X3dl!!!YXRoZXI=?="),
            false,
        ),
        // The sentinel is exact: a prefix without the suffix is a literal value.
        (
            "prefix without suffix",
            Some("=?base64?Z2V0X3dlYXRoZXI="),
            false,
        ),
        // Surrounding whitespace is not part of a header value.
        ("surrounding whitespace", Some("  get_weather  "), true),
    ];
    for (id, (name, value, accepted)) in (1..).zip(cases) {
        let body = modern_weather(id, json!({"location": "Tokyo"}), json!({}));
        let mut headers = vec![
            ACCEPT,
            ("mcp-protocol-version", MODERN),
            ("mcp-method", "tools/call"),
        ];
        headers.extend(value.map(|value| ("mcp-name", value)));
        let answer = Answer::send(server.post_with(&headers).json(&body)).await;
        if accepted {
            assert_eq!(answer.status, 200, "{name}");
            let text = &answer.reply()["result"]["content"][0]["text"];
            assert_eq!(text, "Sunny", "{name}");
        } else {
            answer.assert_error(400, HEADER_MISMATCH, id);
        }
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn removed_and_unknown_methods_are_404_method_not_found() {
    let server = TestServer::start(&[]).await;
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
        let answer = server.modern(&modern_request(id, method, params)).await;
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
    server
        .modern(&body)
        .await
        .assert_error(400, HEADER_MISMATCH, 520);
    let body = json!({"jsonrpc": "2.0", "id": 521, "method": "ping", "params": {}});
    server
        .modern(&body)
        .await
        .assert_error(400, INVALID_PARAMS, 521);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn legacy_sessions_keep_initialize_ping_and_set_level() {
    let server = TestServer::start(&[]).await;
    // `initialize` without `_meta` selects the legacy handshake even with a modern header; the
    // answer names the newest legacy version.
    let mut body = initialize_request(1);
    body["params"]["protocolVersion"] = json!(MODERN);
    let response = server
        .post_with(&[ACCEPT, ("mcp-protocol-version", MODERN)])
        .json(&body)
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    assert!(header(&response, "mcp-session-id").is_some());
    let answer = Answer::read(response).await;
    assert_eq!(answer.reply()["result"]["protocolVersion"], "2025-11-25");

    let session = server.open_session().await;
    let ping = server
        .roundtrip(Some(&session), &request(2, "ping", json!({})))
        .await;
    assert_eq!(response_for(&ping, 2)["result"], json!({}));
    let level = request(3, "logging/setLevel", json!({"level": "info"}));
    let level = server.roundtrip(Some(&session), &level).await;
    assert_eq!(response_for(&level, 3)["result"], json!({}));
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn get_and_delete_in_the_modern_era_are_405() {
    let server = TestServer::start(&[]).await;
    let get = server
        .client
        .get(&server.url)
        .header("accept", "text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .send()
        .await
        .expect("GET");
    assert_eq!(get.status(), 405);
    assert_eq!(header(&get, "allow"), Some("POST"));
    let delete = server
        .client
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
    let server = TestServer::start(&[]).await;
    let session = server.open_session().await;
    let delete = server.delete(&session).send().await.expect("DELETE");
    assert_eq!(delete.status(), 200);
    // The session is gone: a second DELETE finds nothing to end.
    let again = server.delete(&session).send().await.expect("DELETE");
    assert_eq!(again.status(), 404);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn tools_list_carries_result_type_caching_hints_and_the_units_header() {
    let server = TestServer::start(&[]).await;
    let answer = server
        .modern(&modern_request(2, "tools/list", json!({})))
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
    let session = server.open_session().await;
    let legacy = server
        .roundtrip(Some(&session), &request(3, "tools/list", json!({})))
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
    let server = TestServer::start(&[]).await;
    let body = modern_weather(4, json!({"location": "Tokyo"}), json!({}));
    let answer = server.modern(&body).await;
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

/// What a call of get_weather for Tokyo (22 °C) gets.
enum Units {
    /// A report in these units with this temperature.
    Report(&'static str, f64),
    /// −32020: the header does not mirror the body.
    Mismatch,
    /// A tool error.
    ToolError,
}

#[tokio::test]
async fn units_travel_in_the_body_and_in_mcp_param_units() {
    let server = TestServer::start(&[]).await;
    // `units` in the body, the `Mcp-Param-Units` header, and the outcome.
    let cases = [
        (
            "both",
            Some("fahrenheit"),
            Some("fahrenheit"),
            Units::Report("fahrenheit", 71.6),
        ),
        (
            "the header in Base64",
            Some("fahrenheit"),
            Some("=?base64?ZmFocmVuaGVpdA==?="),
            Units::Report("fahrenheit", 71.6),
        ),
        // A non-conforming client.
        (
            "the body without the header",
            Some("fahrenheit"),
            None,
            Units::Mismatch,
        ),
        (
            "both, disagreeing",
            Some("fahrenheit"),
            Some("celsius"),
            Units::Mismatch,
        ),
        (
            "the header without the body",
            None,
            Some("celsius"),
            Units::Mismatch,
        ),
        (
            "Base64 without its padding",
            Some("fahrenheit"),
            Some("=?base64?ZmFocmVuaGVpdA?="),
            Units::Mismatch,
        ),
        (
            "neither: the default",
            None,
            None,
            Units::Report("celsius", 22.0),
        ),
        // A value outside the enum that the header mirrors faithfully is the tool's to refuse.
        (
            "outside the enum",
            Some("kelvin"),
            Some("kelvin"),
            Units::ToolError,
        ),
    ];
    for (id, (name, body_units, header, expected)) in (1..).zip(cases) {
        let mut arguments = json!({"location": "Tokyo"});
        if let Some(units) = body_units {
            arguments["units"] = json!(units);
        }
        let mut post = server.modern_post(&modern_weather(id, arguments, json!({})));
        if let Some(header) = header {
            post = post.header("mcp-param-units", header);
        }
        let answer = Answer::send(post).await;
        match expected {
            Units::Report(units, temperature) => {
                assert_eq!(answer.status, 200, "{name}");
                let report = &answer.reply()["result"]["structuredContent"];
                assert_eq!(report["units"], units, "{name}");
                assert_eq!(report["temperature"], temperature, "{name}");
                assert_eq!(report["temperature_c"], 22.0, "{name}");
            }
            Units::Mismatch => {
                answer.assert_error(400, HEADER_MISMATCH, id);
            }
            Units::ToolError => {
                assert_eq!(answer.status, 200, "{name}");
                let result = answer.reply()["result"].clone();
                assert_eq!(result["isError"], true, "{name}: {result}");
            }
        }
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn legacy_clients_send_units_without_headers() {
    let server = TestServer::start(&[]).await;
    let session = server.open_session().await;
    let body = request(
        2,
        "tools/call",
        json!({"name": "get_weather", "arguments": {"location": "Moscow", "units": "fahrenheit"}}),
    );
    let messages = server.roundtrip(Some(&session), &body).await;
    let report = &response_for(&messages, 2)["result"]["structuredContent"];
    assert_eq!(report["temperature"], 24.8);
    assert_eq!(report["temperature_c"], -4.0);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn log_notifications_only_when_the_request_asks() {
    let server = TestServer::start(&[]).await;
    let quiet = modern_weather(1, json!({"location": "Kyoto"}), json!({}));
    let answer = server.modern(&quiet).await;
    assert!(
        !answer.messages.iter().any(is_log),
        "no logLevel, no log: {:#?}",
        answer.messages
    );
    assert_eq!(answer.reply()["result"]["content"][0]["text"], "Cloudy");

    let mut loud = modern_weather(2, json!({"location": "Kyoto"}), json!({}));
    loud["params"]["_meta"][META_LOG_LEVEL] = json!("info");
    loud["params"]["_meta"]["progressToken"] = json!("p-1");
    let answer = server.modern(&loud).await;
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
    let answer = server.modern(&strict).await;
    assert!(
        !answer.messages.iter().any(is_log),
        "{:#?}",
        answer.messages
    );
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn cors_preflight_allows_the_modern_headers_and_mcp_param_units() {
    let server = TestServer::start(&["--dev-origins"]).await;
    let origin = "http://localhost:8080";
    let asked = "content-type,mcp-method,mcp-name,mcp-param-units,mcp-protocol-version";
    let preflight = server.preflight(origin, Some(asked)).await;
    assert!(preflight.status().is_success(), "{}", preflight.status());
    let headers = [
        "content-type",
        "mcp-method",
        "mcp-name",
        "mcp-param-units",
        "mcp-protocol-version",
        "mcp-session-id",
    ];
    assert_lists(&preflight, "access-control-allow-headers", &headers);
    // The real request from that origin: readable, still exposing the legacy headers.
    let body = modern_weather(
        9,
        json!({"location": "Tokyo", "units": "fahrenheit"}),
        json!({}),
    );
    let response = server
        .modern_post(&body)
        .header("origin", origin)
        .header("mcp-param-units", "fahrenheit")
        .send()
        .await
        .expect("POST");
    assert_eq!(response.status(), 200);
    assert_readable_from(&response, origin);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn the_calculator_endpoint_speaks_both_eras_too() {
    let server = TestServer::start(&[]).await;
    let calc = server.calc();
    let body = modern_request(
        1,
        "tools/call",
        json!({"name": "multiply", "arguments": {"a": 3, "b": 111}}),
    );
    let answer = calc.modern(&body).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.reply()["result"]["content"][0]["text"], "333");
    calc.modern(&modern_request(2, "ping", json!({})))
        .await
        .assert_error(404, METHOD_NOT_FOUND, 2);
    server.stop().await.expect("clean shutdown");
}
