//! Faults of the server behind the bridge, each a clear error naming the stdio leg, with no
//! hang and nothing lost from the record.

mod common;

use common::{Bridge, child, initialize, python, scripted};
use serde_json::{Value, json};

async fn post_json(bridge: &Bridge, session: Option<&str>, body: &Value) -> (u16, Value) {
    let response = bridge.post(session, body).send().await.expect("POST");
    let status = response.status().as_u16();
    let messages = common::messages(response).await;
    (status, messages.last().cloned().unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_child_that_exits_at_start_gives_502_with_its_exit_code_and_stderr() {
    let command = vec![python().to_owned(), child("exit_at_start.py")];
    let bridge = Bridge::start(&[], &command).await;
    let (status, answer) = post_json(&bridge, None, &initialize(1)).await;
    assert_eq!(status, 502);
    assert_eq!(answer["id"], 1);
    let error = &answer["error"];
    assert_eq!(error["data"]["leg"], "stdio");
    assert_eq!(error["data"]["kind"], "child-exited");
    assert_eq!(error["data"]["exit"]["code"], 3);
    let message = error["message"].as_str().expect("message");
    assert!(message.contains("exited with code 3"), "{message}");
    assert!(
        message.contains("cannot open config file 'missing.toml'"),
        "{message}"
    );

    // The failed session is not kept open, but its record is.
    let listed: Value = bridge.record("").await;
    let sessions = listed["sessions"].as_array().expect("sessions");
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0]["open"], false);
    let id = sessions[0]["session"].as_str().expect("id");
    let legs = bridge.legs(id).await;
    let stderr: Vec<&str> = legs["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["leg"] == "stderr")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(
        stderr,
        [
            "loading config",
            "error: cannot open config file 'missing.toml'"
        ]
    );
}

#[tokio::test]
async fn a_command_that_cannot_start_gives_502_naming_it() {
    let command = vec!["/nonexistent/mcp-server".to_owned()];
    let bridge = Bridge::start(&[], &command).await;
    let (status, answer) = post_json(&bridge, None, &initialize(1)).await;
    assert_eq!(status, 502);
    assert_eq!(answer["error"]["data"]["kind"], "spawn-failed");
    let message = answer["error"]["message"].as_str().expect("message");
    assert!(
        message.contains("Cannot start `/nonexistent/mcp-server`"),
        "{message}"
    );
}

#[tokio::test]
async fn a_non_json_line_on_stdout_is_recorded_and_reported() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let (status, answer) = post_json(
        &bridge,
        Some(&session),
        &json!({"jsonrpc": "2.0", "id": 2, "method": "test/garbage"}),
    )
    .await;
    assert_eq!(status, 502);
    assert_eq!(answer["id"], 2);
    assert_eq!(answer["error"]["data"]["kind"], "not-json");
    assert_eq!(answer["error"]["data"]["leg"], "stdio");
    let message = answer["error"]["message"].as_str().expect("message");
    assert!(
        message.contains("Server ready (this line is not JSON)"),
        "{message}"
    );
    let legs = bridge.legs(&session).await;
    let garbage = legs["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["text"] == "Server ready (this line is not JSON)")
        .expect("the line is in the record");
    assert_eq!(garbage["leg"], "stdout");
    assert!(
        garbage["note"]
            .as_str()
            .expect("note")
            .starts_with("not JSON")
    );
}

#[tokio::test]
async fn a_child_that_never_answers_times_out() {
    let bridge = Bridge::start(&["--timeout", "5"], &scripted()).await;
    let session = bridge.initialize().await;
    let (status, answer) = post_json(
        &bridge,
        Some(&session),
        &json!({"jsonrpc": "2.0", "id": 2, "method": "test/silent"}),
    )
    .await;
    assert_eq!(status, 504);
    assert_eq!(answer["error"]["data"]["kind"], "timeout");
    let message = answer["error"]["message"].as_str().expect("message");
    assert!(
        message.contains("did not answer test/silent (id 2) within 5 s"),
        "{message}"
    );
    assert!(
        message.contains("got test/silent"),
        "the last stderr lines are quoted: {message}"
    );
    let (status, _) = bridge.call(&session, 3, "ping", json!({})).await;
    assert_eq!(status, 200, "the session is still usable");
}

#[tokio::test]
async fn a_stream_whose_answer_never_comes_ends_with_a_timeout_error() {
    let bridge = Bridge::start(&["--timeout", "5"], &scripted()).await;
    let session = bridge.initialize().await;
    let response = bridge
        .post(
            Some(&session),
            &json!({"jsonrpc": "2.0", "id": 4, "method": "test/progress-then-silent"}),
        )
        .send()
        .await
        .expect("POST");
    assert_eq!(
        response.status(),
        200,
        "the stream started with the notification"
    );
    let messages = common::messages(response).await;
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert_eq!(messages[0]["method"], "notifications/progress");
    assert_eq!(messages[1]["id"], 4, "the error answers the request");
    assert_eq!(messages[1]["error"]["data"]["kind"], "timeout");
}

#[tokio::test]
async fn a_child_that_exits_mid_session_fails_the_request_then_the_session() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let pid = bridge.child_pid(&session).await;
    let (status, answer) = post_json(
        &bridge,
        Some(&session),
        &json!({"jsonrpc": "2.0", "id": 2, "method": "test/exit"}),
    )
    .await;
    assert_eq!(status, 502);
    assert_eq!(answer["error"]["data"]["exit"]["code"], 7);
    let message = answer["error"]["message"].as_str().expect("message");
    assert!(message.contains("fatal: asked to exit"), "{message}");
    assert!(common::process_gone(pid).await);

    let (status, answer) = post_json(
        &bridge,
        Some(&session),
        &json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
    )
    .await;
    assert_eq!(status, 404, "a client starts over");
    let message = answer["error"]["message"].as_str().expect("message");
    assert!(
        message.starts_with("Session ended: The server process exited with code 7"),
        "{message}"
    );
}

#[tokio::test]
async fn a_stderr_flood_is_bounded_and_the_protocol_goes_on() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let (status, messages) = bridge.call(&session, 2, "test/flood", json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(messages[0]["result"], json!({}));
    let legs = bridge.legs(&session).await;
    assert!(legs["stderr_dropped_lines"].as_u64().expect("count") > 0);
    let entries = legs["entries"].as_array().expect("entries");
    assert!(
        entries
            .iter()
            .any(|e| e["leg"] == "stdout" && e["note"] == "answers POST test/flood (id 2)"),
        "the answer is recorded whatever stderr did"
    );
    let (status, _) = bridge.call(&session, 3, "ping", json!({})).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn bodies_that_are_not_one_message_are_refused() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    for (body, code) in [
        ("not json", -32700),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, -32600),
        ("42", -32600),
    ] {
        let response = bridge
            .client
            .post(&bridge.url)
            .header("mcp-session-id", &session)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("POST");
        assert_eq!(response.status(), 400, "{body}");
        let error: Value = response.json().await.expect("json");
        assert_eq!(error["error"]["code"], code, "{body}");
    }
}
