//! "Which Springfield?": `get_weather("Springfield")` asks the user through elicitation, over
//! raw HTTP in both eras.
//!
//! - modern: an `input_required` result (MRTR) with an `elicitation/create` form offering the
//!   three Springfields as an enum and a sealed `requestState`; the retry (new id, same call,
//!   `inputResponses` and the echoed state) completes; a tampered or missing state is a JSON-RPC
//!   error;
//! - legacy: an `elicitation/create` request on the `tools/call` SSE stream of a session; the
//!   POSTed answer completes the call;
//! - a client without the form elicitation capability gets a tool error listing the candidates.

mod support;

use serde_json::{Value, json};
use support::*;

const CANDIDATES: [&str; 3] = [
    "Springfield, Illinois",
    "Springfield, Massachusetts",
    "Springfield, Missouri",
];

/// Asserts that a tool result's text names every Springfield.
fn assert_names_the_candidates(result: &Value) {
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    for candidate in CANDIDATES {
        assert!(text.contains(candidate), "{candidate} in {text}");
    }
}

fn form_capable() -> Value {
    json!({"elicitation": {}})
}

/// The modern call for `location`, optionally answering with `responses` and `state`.
fn call(id: i64, location: &str, responses: Option<Value>, state: Option<&str>) -> Value {
    let mut body = modern_weather(id, json!({"location": location}), form_capable());
    if let Some(responses) = responses {
        body["params"]["inputResponses"] = responses;
    }
    if let Some(state) = state {
        body["params"]["requestState"] = json!(state);
    }
    body
}

fn accept(place: &str) -> Value {
    json!({"place": {"action": "accept", "content": {"place": place}}})
}

/// Asks, checks the question, and returns the `requestState`.
async fn asked(server: &TestServer, id: i64) -> String {
    let answer = server.modern(&call(id, "Springfield", None, None)).await;
    assert_eq!(answer.status, 200);
    let reply = answer.reply();
    assert_eq!(reply["id"], id);
    let result = &reply["result"];
    assert_eq!(result["resultType"], "input_required", "{result}");
    let question = &result["inputRequests"]["place"];
    assert_eq!(question["method"], "elicitation/create");
    assert_eq!(question["params"]["mode"], "form");
    assert!(
        question["params"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("Springfield")),
        "{question}"
    );
    let schema = &question["params"]["requestedSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["place"]));
    assert_eq!(schema["properties"]["place"]["type"], "string");
    assert_eq!(schema["properties"]["place"]["enum"], json!(CANDIDATES));
    assert_eq!(result["_meta"][META_SERVER_INFO]["name"], "weather-server");
    result["requestState"]
        .as_str()
        .expect("a string requestState")
        .to_owned()
}

#[tokio::test]
async fn modern_springfield_asks_and_the_retry_gets_the_chosen_weather() {
    let server = TestServer::start(&[]).await;
    let state = asked(&server, 1).await;
    for (id, place, condition) in [
        (2, "Springfield, Illinois", "Thunderstorms"),
        (3, "Springfield, Massachusetts", "Light snow"),
        (4, "Springfield, Missouri", "Sunny"),
    ] {
        let retry = call(id, "Springfield", Some(accept(place)), Some(&state));
        let answer = server.modern(&retry).await;
        let reply = answer.reply();
        assert_eq!(reply["id"], id);
        let result = &reply["result"];
        assert_eq!(result["resultType"], "complete", "{result}");
        assert_eq!(result["isError"], false);
        assert_eq!(result["content"][0]["text"], condition);
        assert_eq!(result["structuredContent"]["location"], place);
        assert_eq!(result["structuredContent"]["condition"], condition);
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn modern_springfield_in_fahrenheit_keeps_its_units_through_the_retry() {
    let server = TestServer::start(&[]).await;
    let arguments = json!({"location": "Springfield", "units": "fahrenheit"});
    let first = modern_weather(1, arguments.clone(), form_capable());
    let answer = Answer::send(
        server
            .modern_post(&first)
            .header("mcp-param-units", "fahrenheit"),
    )
    .await;
    let state = answer.reply()["result"]["requestState"]
        .as_str()
        .expect("state")
        .to_owned();
    let mut retry = modern_weather(2, arguments, form_capable());
    retry["params"]["inputResponses"] = accept("Springfield, Illinois");
    retry["params"]["requestState"] = json!(state);
    let answer = Answer::send(
        server
            .modern_post(&retry)
            .header("mcp-param-units", "fahrenheit"),
    )
    .await;
    let report = answer.reply()["result"]["structuredContent"].clone();
    assert_eq!(report["location"], "Springfield, Illinois");
    assert_eq!(report["units"], "fahrenheit");
    assert_eq!(report["temperature"], 84.2);

    // The same state for the call in celsius is another request's state.
    let retry = call(
        3,
        "Springfield",
        Some(accept("Springfield, Illinois")),
        Some(&state),
    );
    server.modern(&retry).await.assert_error(200, -32602, 3);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn modern_decline_and_cancel_are_tool_errors_saying_so() {
    let server = TestServer::start(&[]).await;
    let state = asked(&server, 1).await;
    for (id, action, says) in [(2, "decline", "declined"), (3, "cancel", "cancelled")] {
        let responses = json!({"place": {"action": action}});
        let retry = call(id, "Springfield", Some(responses), Some(&state));
        let answer = server.modern(&retry).await;
        let result = answer.reply()["result"].clone();
        assert_eq!(result["resultType"], "complete");
        assert_eq!(result["isError"], true, "{result}");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains(says), "{text}");
        assert_names_the_candidates(&result);
        assert!(result.get("structuredContent").is_none());
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn modern_tampered_missing_or_foreign_state_is_a_jsonrpc_error() {
    let server = TestServer::start(&[]).await;
    let state = asked(&server, 1).await;
    let answer = accept("Springfield, Illinois");
    let tampered = format!("{state}-TAMPERED");
    for (id, state) in [
        (2, Some(tampered.as_str())),
        (3, None),
        (4, Some("rs1.forged")),
    ] {
        let body = call(id, "Springfield", Some(answer.clone()), state);
        let reply = server.modern(&body).await.assert_error(200, -32602, id);
        assert!(
            reply["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("requestState")),
            "{reply}"
        );
    }
    // A state from another server (another key) is refused as well.
    let other = TestServer::start(&[]).await;
    let body = call(5, "Springfield", Some(answer), Some(&state));
    other.modern(&body).await.assert_error(200, -32602, 5);
    other.stop().await.expect("clean shutdown");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn modern_answers_must_be_one_of_the_places_offered() {
    let server = TestServer::start(&[]).await;
    let state = asked(&server, 1).await;
    for (id, responses) in [
        (2, accept("Springfield, Oregon")),
        (3, accept("Tokyo")),
        (4, json!({"place": 12345})),
        (5, json!({"place": {"action": "accept"}})),
    ] {
        let body = call(id, "Springfield", Some(responses), Some(&state));
        server.modern(&body).await.assert_error(200, -32602, id);
    }
    // The state with no answer (or an answer under another key): the question again.
    for (id, responses) in [(6, None), (7, Some(json!({"other": {"action": "accept"}})))] {
        let body = call(id, "Springfield", responses, Some(&state));
        let result = server.modern(&body).await.reply()["result"].clone();
        assert_eq!(result["resultType"], "input_required", "{result}");
        assert!(result["inputRequests"]["place"].is_object());
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_client_without_form_elicitation_gets_the_candidates_as_a_tool_error() {
    let server = TestServer::start(&[]).await;
    for (id, capabilities) in [
        (1, json!({})),
        (2, json!({"elicitation": {"url": {}}})),
        (3, json!({"sampling": {}})),
    ] {
        let body = modern_weather(id, json!({"location": "Springfield"}), capabilities);
        let result = server.modern(&body).await.reply()["result"].clone();
        assert_eq!(result["resultType"], "complete");
        assert_eq!(result["isError"], true, "{result}");
        assert_names_the_candidates(&result);
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_region_in_the_location_needs_no_question() {
    let server = TestServer::start(&[]).await;
    let body = call(1, "Springfield, MA", None, None);
    let result = server.modern(&body).await.reply()["result"].clone();
    assert_eq!(result["resultType"], "complete");
    assert_eq!(
        result["structuredContent"]["location"],
        "Springfield, Massachusetts"
    );
    server.stop().await.expect("clean shutdown");
}

// --- legacy --------------------------------------------------------------------------------

/// Calls Springfield in a form-capable session, answers the question with `answer` (an
/// `ElicitResult`), and returns the call's result.
async fn legacy_round(answer: Value) -> Value {
    let server = TestServer::start(&[]).await;
    let session = server.open_session_with(form_capable()).await;
    let response = server
        .send(Some(&session), &call_weather(2, "Springfield"))
        .await;
    assert_eq!(response.status(), 200);
    let mut stream = MessageStream::new(response);
    let question = loop {
        let message = stream
            .next()
            .await
            .expect("the question before the stream ends");
        if message["method"] == "elicitation/create" {
            break message;
        }
        assert!(
            message.get("result").is_none(),
            "answered without asking: {message}"
        );
    };
    assert!(
        question["id"].is_string() || question["id"].is_number(),
        "{question}"
    );
    let params = &question["params"];
    assert!(
        params["message"]
            .as_str()
            .is_some_and(|m| m.contains("Springfield")),
        "{params}"
    );
    assert_eq!(
        params["requestedSchema"]["properties"]["place"]["enum"],
        json!(CANDIDATES)
    );
    let reply = json!({"jsonrpc": "2.0", "id": question["id"], "result": answer});
    let posted = server.send(Some(&session), &reply).await;
    assert_eq!(posted.status(), 202);
    let rest = stream.rest().await;
    let result = response_for(&rest, 2)["result"].clone();
    server.stop().await.expect("clean shutdown");
    result
}

#[tokio::test]
async fn legacy_springfield_asks_on_the_call_stream_and_the_answer_completes_it() {
    let result = legacy_round(json!({
        "action": "accept",
        "content": {"place": "Springfield, Massachusetts"}
    }))
    .await;
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(result["content"][0]["text"], "Light snow");
    assert_eq!(
        result["structuredContent"]["location"],
        "Springfield, Massachusetts"
    );
    assert!(
        result.get("resultType").is_none(),
        "legacy results have none"
    );
}

#[tokio::test]
async fn legacy_decline_and_cancel_are_tool_errors() {
    for (action, says) in [("decline", "declined"), ("cancel", "cancelled")] {
        let result = legacy_round(json!({"action": action})).await;
        assert_eq!(result["isError"], true, "{result}");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains(says), "{text}");
        assert!(text.contains("Springfield, Missouri"), "{text}");
    }
}

#[tokio::test]
async fn legacy_clients_that_cannot_be_asked_get_the_candidates() {
    let server = TestServer::start(&[]).await;
    // A session whose client declared no elicitation: no question on the stream.
    let session = server.open_session_with(json!({})).await;
    let messages = server
        .roundtrip(Some(&session), &call_weather(2, "Springfield"))
        .await;
    assert!(
        !messages.iter().any(|m| m["method"] == "elicitation/create"),
        "{messages:#?}"
    );
    let result = &response_for(&messages, 2)["result"];
    assert_eq!(result["isError"], true);
    assert_names_the_candidates(result);
    server.stop().await.expect("clean shutdown");

    // Stateless legacy: nobody could POST an answer back.
    let server = TestServer::start(&["--stateless"]).await;
    let messages = server
        .roundtrip(None, &call_weather(3, "Springfield"))
        .await;
    assert_eq!(response_for(&messages, 3)["result"]["isError"], true);
    server.stop().await.expect("clean shutdown");
}
