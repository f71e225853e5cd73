//! `packing_advice` at `/packing` asks the client's model (sampling) and roots, over raw HTTP in
//! both eras: 2026-07-28 as an `input_required` result whose retry carries the answers;
//! 2025-11-25 as `roots/list` and `sampling/createMessage` requests on the call's stream, answered
//! by POST. A client that declares no sampling gets a tool error saying so.

mod support;

use serde_json::{Value, json};
use support::*;

fn capable() -> Value {
    json!({"sampling": {}, "roots": {}})
}

fn call(id: i64, capabilities: Value, answers: Option<(Value, &str)>) -> Value {
    let mut body = modern_request(
        id,
        "tools/call",
        json!({"name": "packing_advice", "arguments": {"location": "Tokyo"},
               "_meta": modern_meta(capabilities)}),
    );
    if let Some((responses, state)) = answers {
        body["params"]["inputResponses"] = responses;
        body["params"]["requestState"] = json!(state);
    }
    body
}

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

const TIP: &str = "Pack sunglasses.";

fn sampled() -> Value {
    json!({"role": "assistant", "content": {"type": "text", "text": TIP}, "model": "test-model"})
}

#[tokio::test]
async fn modern_asks_the_model_and_the_roots_and_the_retry_gets_the_advice() {
    let server = TestServer::start(&[]).await;
    let packing = server.packing();
    let first = packing.modern(&call(2, capable(), None)).await.reply();
    let asked = &first["result"];
    assert_eq!(asked["resultType"], "input_required", "{first}");
    let sampling = &asked["inputRequests"]["advice"];
    assert_eq!(sampling["method"], "sampling/createMessage");
    let question = sampling["params"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        question.starts_with("The weather in Tokyo is sunny"),
        "{question}"
    );
    assert_eq!(asked["inputRequests"]["roots"]["method"], "roots/list");
    let state = asked["requestState"].as_str().expect("state").to_owned();

    // Only one answer: asked again.
    let partial = json!({"advice": sampled()});
    let again = packing
        .modern(&call(3, capable(), Some((partial, &state))))
        .await
        .reply();
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");

    let both = json!({"advice": sampled(), "roots": {"roots": [{"uri": "file:///trips"}]}});
    let done = packing
        .modern(&call(4, capable(), Some((both, &state))))
        .await
        .reply();
    let advice = text(&done["result"]);
    assert_eq!(done["result"]["isError"], false, "{done}");
    assert!(
        advice.contains("(test-model): Pack sunglasses."),
        "{advice}"
    );
    assert!(advice.contains("file:///trips"), "{advice}");

    // Not a CreateMessageResult: a JSON-RPC error naming the input.
    let bad = json!({"advice": {"role": "assistant"}, "roots": {"roots": []}});
    let refused = packing
        .modern(&call(5, capable(), Some((bad, &state))))
        .await
        .reply();
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("inputResponses.advice"), "{refused}");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_client_without_sampling_gets_a_tool_error_and_roots_are_asked_only_if_declared() {
    let server = TestServer::start(&[]).await;
    let packing = server.packing();
    let none = packing
        .modern(&call(2, json!({"roots": {}}), None))
        .await
        .reply();
    assert_eq!(none["result"]["isError"], true, "{none}");
    assert!(
        text(&none["result"]).contains("declares no sampling"),
        "{none}"
    );
    let no_roots = packing
        .modern(&call(3, json!({"sampling": {}}), None))
        .await
        .reply();
    assert!(
        no_roots["result"]["inputRequests"].get("roots").is_none(),
        "{no_roots}"
    );
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn legacy_asks_on_the_call_stream_and_the_posted_answers_complete_it() {
    let server = TestServer::start(&[]).await;
    let packing = server.packing();
    let session = packing.open_session_with(capable()).await;
    let body = request(
        2,
        "tools/call",
        json!({"name": "packing_advice", "arguments": {"location": "Tokyo"}}),
    );
    let response = packing.send(Some(&session), &body).await;
    assert_eq!(response.status(), 200);
    let mut stream = MessageStream::new(response);
    let mut asked = Vec::new();
    while asked.len() < 2 {
        let message = stream
            .next()
            .await
            .expect("the questions before the result");
        let Some(method) = message["method"].as_str() else {
            panic!("answered without asking: {message}");
        };
        let result = match method {
            "roots/list" => json!({"roots": [{"uri": "file:///trips", "name": "Trips"}]}),
            "sampling/createMessage" => {
                assert_eq!(message["params"]["maxTokens"], 120);
                sampled()
            }
            _ => continue,
        };
        asked.push(method.to_owned());
        let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": result});
        assert_eq!(packing.send(Some(&session), &reply).await.status(), 202);
    }
    assert_eq!(asked, ["roots/list", "sampling/createMessage"]);
    let rest = stream.rest().await;
    let advice = text(&response_for(&rest, 2)["result"]);
    assert!(
        advice.contains("(test-model): Pack sunglasses. The list could be kept in file:///trips"),
        "{advice}"
    );
    server.stop().await.expect("clean shutdown");
}
