//! The get_weather tool, JSON-RPC errors, logging and progress notifications.

mod support;

use serde_json::{Value, json};
use support::*;

/// A server and a session opened on it.
async fn session_server() -> (TestServer, String) {
    let server = TestServer::start(&[]).await;
    let session = server.open_session().await;
    (server, session)
}

/// A `tools/call` of get_weather with this request `_meta`.
fn weather_with_meta(id: i64, location: &str, meta: Value) -> Value {
    let mut body = call_weather(id, location);
    body["params"]["_meta"] = meta;
    body
}

/// Sets the session's log level.
async fn set_level(server: &TestServer, session: &str, id: i64, level: &str) {
    let body = request(id, "logging/setLevel", json!({ "level": level }));
    let messages = server.roundtrip(Some(session), &body).await;
    assert_eq!(response_for(&messages, id)["result"], json!({}), "{level}");
}

#[tokio::test]
async fn tools_list_declares_get_weather_with_schemas() {
    let (server, session) = session_server().await;
    let messages = server
        .roundtrip(Some(&session), &request(2, "tools/list", json!({})))
        .await;
    let tools = response_for(&messages, 2)["result"]["tools"].clone();
    let tools = tools.as_array().expect("tools array");
    assert_eq!(tools.len(), 1);
    let tool = &tools[0];
    assert_eq!(tool["name"], "get_weather");
    assert_eq!(tool["title"], "Get weather");
    assert!(
        tool["description"]
            .as_str()
            .unwrap_or_default()
            .contains("weather"),
        "{tool}"
    );
    assert_eq!(tool["inputSchema"]["type"], "object");
    assert_eq!(tool["inputSchema"]["required"], json!(["location"]));
    assert_eq!(
        tool["inputSchema"]["properties"]["location"]["type"],
        "string"
    );
    assert_eq!(tool["outputSchema"]["type"], "object");
    assert!(tool["outputSchema"]["properties"]["condition"].is_object());
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert_eq!(tool["annotations"]["destructiveHint"], false);
    assert_eq!(tool["annotations"]["idempotentHint"], true);
    assert_eq!(tool["annotations"]["openWorldHint"], false);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn tokyo_is_sunny_with_structured_content() {
    let (server, session) = session_server().await;
    let messages = server
        .roundtrip(Some(&session), &call_weather(2, "Tokyo"))
        .await;
    let result = &response_for(&messages, 2)["result"];
    assert_eq!(result["content"][0]["type"], "text");
    assert_eq!(result["content"][0]["text"], "Sunny");
    assert_eq!(result["isError"], false);
    let structured = &result["structuredContent"];
    assert_eq!(structured["location"], "Tokyo");
    assert_eq!(structured["condition"], "Sunny");
    assert!(structured["temperature_c"].is_number());
    assert!(structured["humidity_pct"].is_u64());
    assert!(structured["wind_kph"].is_number());
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn spelling_variants_resolve_to_tokyo() {
    let (server, session) = session_server().await;
    for (id, location) in [
        (2, "tokyo, japan"),
        (3, "東京"),
        (4, "东京"),
        (5, "  TOKYO "),
    ] {
        let messages = server
            .roundtrip(Some(&session), &call_weather(id, location))
            .await;
        let result = &response_for(&messages, id)["result"];
        assert_eq!(
            result["structuredContent"]["location"], "Tokyo",
            "{location}"
        );
        assert_eq!(result["content"][0]["text"], "Sunny", "{location}");
    }
    server.stop().await.expect("clean shutdown");
}

/// Bad arguments are tool errors (`isError`, a text saying what is wrong), not protocol errors.
#[tokio::test]
async fn bad_arguments_are_tool_errors_not_protocol_errors() {
    let (server, session) = session_server().await;
    let cases = [
        // The text names the place and the cities known.
        (
            "unknown city",
            json!({ "location": "Atlantis" }),
            &["Atlantis", "Tokyo"][..],
        ),
        ("missing location", json!({}), &["location"]),
    ];
    for (name, arguments, says) in cases {
        let body = request(
            2,
            "tools/call",
            json!({ "name": "get_weather", "arguments": arguments }),
        );
        let messages = server.roundtrip(Some(&session), &body).await;
        let response = response_for(&messages, 2);
        assert!(response.get("error").is_none(), "{name}: {response}");
        let result = &response["result"];
        assert_eq!(result["isError"], true, "{name}");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        for part in says {
            assert!(text.contains(part), "{name}: {part} in {text}");
        }
    }
    server.stop().await.expect("clean shutdown");
}

/// Requests the server cannot serve get a JSON-RPC error: HTTP status, content type, code, id.
#[tokio::test]
async fn protocol_errors_have_their_json_rpc_codes() {
    let (server, session) = session_server().await;
    let sse = "text/event-stream";
    let json = "application/json";
    let unknown_tool = json!({ "name": "get_time", "arguments": {} });
    let cases = [
        (
            "unknown tool",
            request(2, "tools/call", unknown_tool).to_string(),
            (200, sse, -32602, json!(2)),
        ),
        (
            "unknown method",
            request(2, "weather/forecast", json!({})).to_string(),
            (200, sse, -32601, json!(2)),
        ),
        (
            "malformed JSON",
            r#"{"jsonrpc":"2.0","id":2,"method":"#.to_owned(),
            (400, json, -32700, Value::Null),
        ),
        (
            "JSON that is not a message",
            r#"{"hello":"world"}"#.to_owned(),
            (400, json, -32600, Value::Null),
        ),
    ];
    for (name, body, (status, content_type, code, id)) in cases {
        let answer = Answer::send(server.post(Some(&session)).body(body)).await;
        assert_eq!(answer.status, status, "{name}");
        let received = answer.header("content-type").unwrap_or_default();
        assert!(received.starts_with(content_type), "{name}: {received}");
        let reply = answer.reply();
        assert_eq!(reply["jsonrpc"], "2.0", "{name}: {reply}");
        assert_eq!(reply["error"]["code"], code, "{name}: {reply}");
        assert_eq!(reply["id"], id, "{name}: {reply}");
    }
    server.stop().await.expect("clean shutdown");
}

fn position(messages: &[Value], predicate: impl Fn(&Value) -> bool) -> Option<usize> {
    messages.iter().position(predicate)
}

fn is_progress(message: &Value) -> bool {
    message["method"] == "notifications/progress"
}

fn is_response(id: i64) -> impl Fn(&Value) -> bool {
    move |message| message["id"] == id && message.get("method").is_none()
}

#[tokio::test]
async fn log_message_arrives_on_the_call_stream_before_the_result() {
    let (server, session) = session_server().await;
    set_level(&server, &session, 2, "info").await;

    let messages = server
        .roundtrip(Some(&session), &call_weather(3, "Tokyo"))
        .await;
    let log = position(&messages, is_log).expect("notifications/message on the POST stream");
    let result = position(&messages, is_response(3)).expect("result");
    assert!(log < result, "log before result: {messages:#?}");
    let params = &messages[log]["params"];
    assert_eq!(params["level"], "info");
    assert_eq!(params["logger"], "weather-server");
    assert_eq!(params["data"], "get_weather called for Tokyo");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn no_log_message_unless_enabled() {
    let (server, session) = session_server().await;
    let messages = server
        .roundtrip(Some(&session), &call_weather(2, "Tokyo"))
        .await;
    assert!(position(&messages, is_log).is_none(), "{messages:#?}");

    // A level above info filters the info message out.
    set_level(&server, &session, 3, "error").await;
    let messages = server
        .roundtrip(Some(&session), &call_weather(4, "Tokyo"))
        .await;
    assert!(position(&messages, is_log).is_none(), "{messages:#?}");
    assert!(position(&messages, is_response(4)).is_some());
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn debug_level_also_says_how_the_place_was_read() {
    let (server, session) = session_server().await;
    set_level(&server, &session, 2, "debug").await;
    let lines = |messages: &[Value]| -> Vec<(String, String)> {
        messages
            .iter()
            .filter(|m| is_log(m))
            .map(|m| {
                let p = &m["params"];
                (
                    p["level"].as_str().unwrap_or("").to_owned(),
                    p["data"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect()
    };
    let messages = server
        .roundtrip(Some(&session), &call_weather(3, "tokyo"))
        .await;
    assert_eq!(
        lines(&messages),
        [
            ("info".to_owned(), "get_weather called for tokyo".to_owned()),
            ("debug".to_owned(), "tokyo is Tokyo".to_owned()),
        ]
    );
    let messages = server
        .roundtrip(Some(&session), &call_weather(4, "Atlantis"))
        .await;
    let debug = lines(&messages)
        .pop()
        .expect("a debug line for the failed lookup");
    assert_eq!(debug.0, "debug");
    assert!(debug.1.starts_with("Atlantis not found: "), "{debug:?}");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn log_level_is_per_session() {
    let server = TestServer::start(&[]).await;
    let first = server.open_session().await;
    let second = server.open_session().await;
    set_level(&server, &first, 2, "debug").await;
    let messages = server
        .roundtrip(Some(&second), &call_weather(3, "Tokyo"))
        .await;
    assert!(position(&messages, is_log).is_none(), "{messages:#?}");
    let messages = server
        .roundtrip(Some(&first), &call_weather(4, "Tokyo"))
        .await;
    assert!(position(&messages, is_log).is_some(), "{messages:#?}");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn progress_token_gets_progress_before_result() {
    let (server, session) = session_server().await;
    let body = weather_with_meta(2, "Seoul", json!({ "progressToken": "weather-1" }));
    let messages = server.roundtrip(Some(&session), &body).await;
    let progress = position(&messages, is_progress).expect("progress notification");
    let result = position(&messages, is_response(2)).expect("result");
    assert!(progress < result, "{messages:#?}");
    assert_eq!(messages[progress]["params"]["progressToken"], "weather-1");
    assert_eq!(
        messages[result]["result"]["structuredContent"]["location"],
        "Seoul"
    );
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn log_and_progress_both_precede_result() {
    let (server, session) = session_server().await;
    set_level(&server, &session, 2, "info").await;
    let body = weather_with_meta(3, "London", json!({ "progressToken": 42 }));
    let messages = server.roundtrip(Some(&session), &body).await;
    let log = position(&messages, is_log).expect("log");
    let progress = position(&messages, is_progress).expect("progress");
    let result = position(&messages, is_response(3)).expect("result");
    assert!(log < progress && progress < result, "{messages:#?}");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn stateless_json_mode_switches_to_sse_for_progress() {
    let server = TestServer::start(&["--json-response"]).await;
    let body = weather_with_meta(5, "Tokyo", json!({ "progressToken": "p" }));
    let messages = server.roundtrip(None, &body).await;
    let progress = position(&messages, is_progress).expect("progress");
    let result = position(&messages, is_response(5)).expect("result");
    assert!(progress < result, "{messages:#?}");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn stateless_request_meta_log_level_enables_logging() {
    let server = TestServer::start(&["--json-response"]).await;
    let body = weather_with_meta(6, "Kyoto", json!({ META_LOG_LEVEL: "info" }));
    let messages = server.roundtrip(None, &body).await;
    let log = position(&messages, is_log).expect("log notification");
    let result = position(&messages, is_response(6)).expect("result");
    assert!(log < result, "{messages:#?}");
    assert_eq!(
        messages[log]["params"]["data"],
        "get_weather called for Kyoto"
    );

    // Without it, the stateless JSON answer is a single JSON body.
    let response = server.send(None, &call_weather(7, "Kyoto")).await;
    let body: Value = response.json().await.expect("plain JSON");
    assert_eq!(body["result"]["content"][0]["text"], "Cloudy");
    server.stop().await.expect("clean shutdown");
}

/// The tutorial's calculator at `/calc` on the same server, with its own sessions.
#[tokio::test]
async fn the_calculator_endpoint_multiplies_refuses_division_by_zero_and_serves_its_resource() {
    let server = TestServer::start(&[]).await;
    let calc = server.calc();
    let session = calc.open_session().await;
    let init = calc
        .roundtrip(Some(&session), &request(2, "tools/list", json!({})))
        .await;
    let names: Vec<String> = response_for(&init, 2)["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(names, ["add", "subtract", "multiply", "divide"]);

    let call = |id, name: &str, a: f64, b: f64| {
        request(
            id,
            "tools/call",
            json!({"name": name, "arguments": {"a": a, "b": b}}),
        )
    };
    let product = calc
        .roundtrip(Some(&session), &call(3, "multiply", 3.0, 111.0))
        .await;
    let result = &response_for(&product, 3)["result"];
    assert_eq!(result["content"][0]["text"], "333");
    assert_eq!(result["structuredContent"]["result"], 333.0);

    let zero = calc
        .roundtrip(Some(&session), &call(4, "divide", 1.0, 0.0))
        .await;
    let result = &response_for(&zero, 4)["result"];
    assert_eq!(
        result["isError"], true,
        "a tool error, not a protocol error"
    );
    assert_eq!(
        result["content"][0]["text"],
        "Division by zero is not allowed"
    );

    let read = calc
        .roundtrip(
            Some(&session),
            &request(5, "resources/read", json!({"uri": "config://app"})),
        )
        .await;
    let contents = &response_for(&read, 5)["result"]["contents"][0];
    assert_eq!(contents["uri"], "config://app");
    assert_eq!(contents["text"], r#"{"version": "1.0.0", "theme": "dark"}"#);

    // The weather endpoint does not know the calculator's session.
    let cross = server
        .send(Some(&session), &request(6, "tools/list", json!({})))
        .await;
    assert_eq!(cross.status(), 404);
    server.stop().await.expect("clean shutdown");
}
