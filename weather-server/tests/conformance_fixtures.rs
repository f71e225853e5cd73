//! `--conformance-fixtures`: the diagnostic tools and prompt the official conformance suite
//! calls by name exist only in a build with the `conformance-fixtures` feature and with the
//! flag, and behave as its 2026-07-28 scenarios expect.

mod support;

use serde_json::{Value, json};
use support::*;

fn tool_names(answer: &Answer) -> Vec<String> {
    answer.reply()["result"]["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn call(id: i64, name: &str, capabilities: Value) -> Value {
    modern_request(
        id,
        "tools/call",
        json!({"name": name, "arguments": {}, "_meta": modern_meta(capabilities)}),
    )
}

#[tokio::test]
async fn without_the_flag_there_are_no_diagnostics() {
    let server = TestServer::start(&[]).await;
    let list = server
        .modern(&modern_request(1, "tools/list", json!({})))
        .await;
    assert_eq!(tool_names(&list), ["get_weather"]);
    let answer = server
        .modern(&call(2, "test_missing_capability", json!({})))
        .await;
    assert_eq!(answer.reply()["error"]["code"], -32602, "unknown tool");
    // The weather server's own prompt, resources and template only.
    let prompts = server
        .modern(&modern_request(3, "prompts/list", json!({})))
        .await
        .reply();
    assert_eq!(
        prompts["result"]["prompts"].as_array().map(Vec::len),
        Some(1)
    );
    assert_eq!(prompts["result"]["prompts"][0]["name"], "weather_report");
    let resources = server
        .modern(&modern_request(4, "resources/list", json!({})))
        .await
        .reply();
    let uris: Vec<&str> = resources["result"]["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["uri"].as_str())
        .collect();
    assert!(
        uris.iter()
            .all(|u| u.starts_with("weather://") || u.starts_with("ui://weather/")),
        "{uris:?}"
    );
    let read = server
        .modern(&modern_request(
            5,
            "resources/read",
            json!({"uri": "test://static-text"}),
        ))
        .await
        .reply();
    assert_eq!(read["error"]["code"], -32602, "{read}");
    server.stop().await.expect("clean shutdown");
}

#[cfg(feature = "conformance-fixtures")]
#[tokio::test]
async fn the_flag_adds_the_diagnostics_after_get_weather() {
    let server = TestServer::start(&["--conformance-fixtures"]).await;
    let list = server
        .modern(&modern_request(1, "tools/list", json!({})))
        .await;
    let names = tool_names(&list);
    assert_eq!(names[0], "get_weather");
    for name in [
        "test_missing_capability",
        "test_logging_tool",
        "test_streaming_elicitation",
        "test_input_required_result_elicitation",
        "test_input_required_result_request_state",
        "test_simple_text",
        "test_tool_with_progress",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    // The suite's content fixtures after the weather server's own.
    let read = server
        .modern(&modern_request(
            20,
            "resources/read",
            json!({"uri": "test://template/123/data"}),
        ))
        .await
        .reply();
    assert!(
        read["result"]["contents"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("123")),
        "{read}"
    );
    assert!(read["result"]["ttlMs"].is_u64(), "{read}");
    let prompt = server
        .modern(&modern_request(
            21,
            "prompts/get",
            json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "a1", "arg2": "b2"}}),
        ))
        .await
        .reply();
    assert!(prompt.to_string().contains("arg1='a1'"), "{prompt}");
    let discovered = server.modern(&discover(2)).await;
    assert!(discovered.reply()["result"]["capabilities"]["prompts"].is_object());

    // A capability the client did not declare: -32021 naming it, HTTP 400.
    let answer = server
        .modern(&call(3, "test_missing_capability", json!({})))
        .await;
    let reply = answer.assert_error(400, -32021, 3);
    assert_eq!(
        reply["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );
    let answer = server
        .modern(&call(4, "test_missing_capability", json!({"sampling": {}})))
        .await;
    assert_eq!(answer.reply()["result"]["isError"], false);

    // The log only with a logLevel.
    let quiet = server
        .modern(&call(5, "test_logging_tool", json!({})))
        .await;
    assert!(!quiet.messages.iter().any(is_log), "{quiet:#?}");
    let mut loud = call(6, "test_logging_tool", json!({}));
    loud["params"]["_meta"][META_LOG_LEVEL] = json!("debug");
    let loud = server.modern(&loud).await;
    assert!(loud.messages.iter().any(is_log), "{loud:#?}");
    server.stop().await.expect("clean shutdown");
}

#[cfg(feature = "conformance-fixtures")]
#[tokio::test]
async fn request_state_round_trips_and_a_tampered_one_is_refused() {
    let server = TestServer::start(&["--conformance-fixtures"]).await;
    let name = "test_input_required_result_request_state";
    let capable = json!({"elicitation": {}});
    let first = server.modern(&call(1, name, capable.clone())).await;
    let result = first.reply()["result"].clone();
    assert_eq!(result["resultType"], "input_required");
    let state = result["requestState"].as_str().expect("state").to_owned();
    let key = result["inputRequests"]
        .as_object()
        .and_then(|requests| requests.keys().next().cloned())
        .expect("an input request");

    let retry = |id: i64, state: String| {
        let mut body = call(id, name, capable.clone());
        body["params"]["inputResponses"] =
            json!({ key.clone(): {"action": "accept", "content": {"ok": true}} });
        body["params"]["requestState"] = json!(state);
        body
    };
    let done = server.modern(&retry(2, state.clone())).await;
    let result = done.reply()["result"].clone();
    assert_eq!(result["resultType"], "complete");
    assert!(
        result["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("state-ok")),
        "{result}"
    );
    server
        .modern(&retry(3, format!("{state}-TAMPERED")))
        .await
        .assert_error(200, -32602, 3);
    server.stop().await.expect("clean shutdown");
}

#[cfg(feature = "conformance-fixtures")]
#[tokio::test]
async fn the_prompt_asks_then_completes_with_messages() {
    let server = TestServer::start(&["--conformance-fixtures"]).await;
    let get = |id: i64, responses: Option<Value>| {
        let mut params = json!({
            "name": "test_input_required_result_prompt",
            "_meta": modern_meta(json!({"elicitation": {}})),
        });
        if let Some(responses) = responses {
            params["inputResponses"] = responses;
        }
        modern_request(id, "prompts/get", params)
    };
    let first = server.modern(&get(1, None)).await;
    let result = first.reply()["result"].clone();
    assert_eq!(result["resultType"], "input_required");
    assert_eq!(
        result["inputRequests"]["user_context"]["method"],
        "elicitation/create"
    );
    let answer = json!({"user_context": {"action": "accept", "content": {"context": "rain"}}});
    let done = server.modern(&get(2, Some(answer))).await;
    let result = done.reply()["result"].clone();
    assert_eq!(result["resultType"], "complete");
    assert_eq!(
        result["messages"][0]["content"]["text"],
        "Use this context: rain"
    );
    server.stop().await.expect("clean shutdown");
}

#[cfg(feature = "conformance-fixtures")]
#[tokio::test]
async fn a_task_runs_to_its_end_and_only_for_a_client_that_takes_tasks() {
    let server = TestServer::start(&["--conformance-fixtures"]).await;
    let discovered = server.modern(&discover(1)).await.reply();
    assert!(
        discovered["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"]
            .is_object(),
        "{discovered}"
    );
    // Without the extension: a task-only tool is -32021 naming it.
    let refused = server
        .modern(&call(2, "failing_job", json!({})))
        .await
        .reply();
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    // With it: a task handle, then tasks/get until it is done.
    let body = modern_request(
        3,
        "tools/call",
        json!({"name": "slow_compute", "arguments": {"seconds": 0, "label": "t"}, "_meta": with_tasks()}),
    );
    let created = server.modern(&body).await.reply();
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let id = created["result"]["taskId"]
        .as_str()
        .expect("taskId")
        .to_owned();
    let mut status = String::new();
    for n in 0..50 {
        let get = modern_request(
            10 + n,
            "tasks/get",
            json!({"taskId": id, "_meta": with_tasks()}),
        );
        let got = server
            .post_with(&[
                ("accept", "application/json, text/event-stream"),
                ("mcp-protocol-version", MODERN),
                ("mcp-method", "tasks/get"),
                ("mcp-name", &id),
            ])
            .json(&get)
            .send()
            .await
            .expect("send");
        let reply = Answer::read(got).await.reply();
        status = reply["result"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if status == "completed" {
            assert!(
                reply["result"]["result"]["content"][0]["text"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("t: done")),
                "{reply}"
            );
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(status, "completed");
    server.stop().await.expect("clean shutdown");
}
