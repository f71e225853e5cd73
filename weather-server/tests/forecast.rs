//! `/forecast`: the weather server with the long-running `get_forecast`, a task for a modern
//! client that takes tasks (followed with `tasks/get` to its result), a plain answer for any
//! other client; the default endpoint does not list it.

mod support;

use serde_json::{Value, json};
use support::*;

fn forecast_call(id: i64, days: u8, meta: Value) -> Value {
    modern_request(
        id,
        "tools/call",
        json!({"name": "get_forecast", "arguments": {"location": "Tokyo", "days": days}, "_meta": meta}),
    )
}

async fn tasks_get(endpoint: &Endpoint, id: i64, task: &str) -> Value {
    let body = modern_request(
        id,
        "tasks/get",
        json!({"taskId": task, "_meta": with_tasks()}),
    );
    let sent = endpoint
        .post_with(&[
            ("accept", "application/json, text/event-stream"),
            ("mcp-protocol-version", MODERN),
            ("mcp-method", "tasks/get"),
            ("mcp-name", task),
        ])
        .json(&body)
        .send()
        .await
        .expect("send");
    Answer::read(sent).await.reply()
}

#[tokio::test]
async fn a_forecast_is_a_task_for_a_client_that_takes_tasks_and_ends_with_its_days() {
    let server = TestServer::start(&[]).await;
    let forecast = server.forecast();
    let discovered = forecast.modern(&discover(1)).await.reply();
    let extensions = &discovered["result"]["capabilities"]["extensions"];
    assert!(
        extensions["io.modelcontextprotocol/tasks"].is_object(),
        "{discovered}"
    );
    let created = forecast
        .modern(&forecast_call(2, 2, with_tasks()))
        .await
        .reply();
    let result = &created["result"];
    assert_eq!(result["resultType"], "task", "{created}");
    assert_eq!(result["pollIntervalMs"], 500);
    let task = result["taskId"].as_str().expect("taskId").to_owned();

    let mut messages = Vec::new();
    let mut last = Value::Null;
    for n in 0..100 {
        last = tasks_get(&forecast, 10 + n, &task).await;
        let status = last["result"]["status"].as_str().unwrap_or_default();
        if let Some(message) = last["result"]["statusMessage"].as_str() {
            messages.push(message.to_owned());
        }
        if status != "working" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(last["result"]["status"], "completed", "{last}");
    let days = &last["result"]["result"]["structuredContent"]["days"];
    assert_eq!(days.as_array().map(Vec::len), Some(2), "{last}");
    assert_eq!(days[0]["condition"], "Partly cloudy");
    assert!(
        messages
            .iter()
            .any(|m| m == "Forecasting day 2 of 2 for Tokyo"),
        "{messages:?}"
    );
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn without_tasks_the_forecast_is_the_answer_and_the_default_endpoint_has_no_forecast() {
    let server = TestServer::start(&[]).await;
    let answer = server
        .forecast()
        .modern(&forecast_call(1, 1, modern_meta(json!({}))))
        .await
        .reply();
    assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"]["days"][0]["day"], 1,
        "{answer}"
    );

    let listed = server
        .modern(&modern_request(2, "tools/list", json!({})))
        .await
        .reply();
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["get_weather"]);
    let listed = server
        .forecast()
        .modern(&modern_request(3, "tools/list", json!({})))
        .await
        .reply();
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["get_weather", "get_forecast"]);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_legacy_session_gets_the_forecast_in_the_answer() {
    let server = TestServer::start(&[]).await;
    let forecast = server.forecast();
    let session = forecast.open_session().await;
    let call = request(
        2,
        "tools/call",
        json!({"name": "get_forecast", "arguments": {"location": "Tokyo", "days": 1}}),
    );
    let messages = forecast.roundtrip(Some(&session), &call).await;
    let answer = response_for(&messages, 2);
    assert_eq!(
        answer["result"]["content"][0]["text"], "Tokyo\nDay 1: Partly cloudy, 16–22 °C",
        "{answer}"
    );
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_forecast_task_is_not_known_at_the_default_endpoint() {
    let server = TestServer::start(&[]).await;
    let created = server
        .forecast()
        .modern(&forecast_call(1, 1, with_tasks()))
        .await
        .reply();
    let task = created["result"]["taskId"]
        .as_str()
        .expect("taskId")
        .to_owned();
    let elsewhere = Endpoint {
        client: server.forecast().client,
        url: server.forecast().url.replace("/forecast", "/mcp"),
    };
    let asked = tasks_get(&elsewhere, 2, &task).await;
    assert!(asked.get("error").is_some(), "{asked}");
    assert!(
        tasks_get(&server.forecast(), 3, &task)
            .await
            .get("result")
            .is_some()
    );
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn with_authorization_the_unprotected_forecast_endpoint_is_not_served() {
    let server = TestServer::start(&["--auth"]).await;
    let answer = server
        .forecast()
        .post(None)
        .json(&initialize_request(1))
        .send()
        .await
        .expect("send");
    assert_eq!(answer.status(), 404);
    server.stop().await.expect("clean shutdown");
}
