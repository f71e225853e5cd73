//! The stdio relay against a scripted child: messages pass as sent, answers come back as JSON
//! or as SSE with the child's interim messages, the child's own requests go out on the stream
//! and their answers go back to stdin, sessions end with their process.

mod common;

use common::{Bridge, Events, process_alive, process_gone, scripted};
use serde_json::{Value, json};

#[tokio::test]
async fn initialize_passes_through_byte_for_byte_and_notifications_get_202() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let sent = r#"{"jsonrpc":"2.0","id":"init-1","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let response = bridge
        .client
        .post(&bridge.url)
        .header("accept", common::ACCEPT)
        .header("content-type", "application/json")
        .body(sent)
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "a response that comes first is answered as JSON"
    );
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert_eq!(session.len(), 32);
    let body = response.text().await.expect("body");

    let legs = bridge.legs(&session).await;
    let entries = legs["entries"].as_array().expect("entries");
    let stdin: Vec<&str> = entries
        .iter()
        .filter(|e| e["leg"] == "stdin")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(stdin, [sent], "the POSTed body is the line the child got");
    let stdout = entries
        .iter()
        .find(|e| e["leg"] == "stdout")
        .expect("a stdout entry");
    assert_eq!(
        stdout["text"],
        body.as_str(),
        "the child's line is the HTTP body"
    );
    assert_eq!(stdout["note"], "answers POST initialize (id \"init-1\")");
    // Stderr is its own pipe: its line may land in the record just after the answer.
    let mut stderr_seen = false;
    for _ in 0..100 {
        let legs = bridge.legs(&session).await;
        stderr_seen = legs["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .any(|e| e["leg"] == "stderr" && e["text"] == "got initialize");
        if stderr_seen {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(stderr_seen, "stderr is recorded on its own leg");
    assert!(
        !body.contains("got initialize"),
        "stderr never reaches the protocol"
    );

    let accepted = bridge
        .post(
            Some(&session),
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .send()
        .await
        .expect("notification");
    assert_eq!(accepted.status(), 202);
    assert!(accepted.text().await.expect("body").is_empty());
}

#[tokio::test]
async fn with_answers_sse_a_first_response_comes_as_a_one_event_stream() {
    let bridge = Bridge::start(&["--answers", "sse"], &scripted()).await;
    let response = bridge
        .post(None, &common::initialize(1))
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .expect("ascii")
            .starts_with("text/event-stream")
    );
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .expect("a session id")
        .to_owned();
    let answer = common::messages(response).await;
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert_eq!(answer[0]["result"]["protocolVersion"], "2025-11-25");

    // A client that accepts only JSON still gets JSON.
    let ping = bridge
        .client
        .post(&bridge.url)
        .header("accept", "application/json")
        .header("content-type", "application/json")
        .header("mcp-session-id", &session)
        .body(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string())
        .send()
        .await
        .expect("ping");
    assert_eq!(ping.status(), 200);
    assert_eq!(ping.headers()["content-type"], "application/json");
    assert_eq!(common::messages(ping).await[0]["result"], json!({}));
}

#[tokio::test]
async fn a_pretty_printed_body_is_written_as_one_line() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let response = bridge
        .client
        .post(&bridge.url)
        .header("accept", common::ACCEPT)
        .header("mcp-session-id", &session)
        .header("content-type", "application/json")
        .body("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 5,\n  \"method\": \"ping\"\n}\n")
        .send()
        .await
        .expect("ping");
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.expect("json");
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 5, "result": {}}));
}

#[tokio::test]
async fn notifications_before_the_result_come_on_the_posts_sse_stream() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let (status, messages) = bridge
        .call(
            &session,
            2,
            "tools/call",
            json!({"name": "get_weather", "arguments": {"location": "Tokyo"}}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert_eq!(messages[0]["method"], "notifications/message");
    assert_eq!(messages[1]["id"], 2);
    assert_eq!(messages[1]["result"]["content"][0]["text"], "Sunny");
}

#[tokio::test]
async fn a_server_request_goes_out_on_the_stream_and_its_answer_back_to_stdin() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let response = bridge
        .post(
            Some(&session),
            &json!({"jsonrpc": "2.0", "id": 3, "method": "test/ask"}),
        )
        .send()
        .await
        .expect("test/ask");
    assert_eq!(response.status(), 200);
    let mut events = Events::new(response);
    let asked = events.next().await.expect("the server's request");
    assert_eq!(asked["method"], "elicitation/create");
    assert_eq!(asked["id"], "srv-1");

    let answer = json!({"jsonrpc": "2.0", "id": "srv-1", "result": {"action": "accept", "content": {"city": "Tokyo"}}});
    let accepted = bridge
        .post(Some(&session), &answer)
        .send()
        .await
        .expect("answer");
    assert_eq!(accepted.status(), 202);

    let result = events.next().await.expect("the result");
    assert_eq!(result["id"], 3);
    assert_eq!(
        result["result"]["answer"], answer,
        "the child got the answer as sent"
    );
    assert!(
        events.next().await.is_none(),
        "the stream ends with the result"
    );
}

#[tokio::test]
async fn later_server_messages_go_on_the_get_stream_and_only_one_may_be_open() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let get = || {
        bridge
            .client
            .get(&bridge.url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &session)
            .send()
    };
    let stream = get().await.expect("GET");
    assert_eq!(stream.status(), 200);
    assert_eq!(stream.headers()["content-type"], "text/event-stream");
    let second = get().await.expect("second GET");
    assert_eq!(second.status(), 409, "one GET stream per session");

    let (status, _) = bridge
        .call(&session, 4, "test/notify-later", json!({}))
        .await;
    assert_eq!(status, 200);
    let mut events = Events::new(stream);
    let later = events
        .next()
        .await
        .expect("a notification on the GET stream");
    assert_eq!(later["method"], "notifications/tools/list_changed");

    let legs = bridge.legs(&session).await;
    assert!(
        legs["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .any(|e| e["note"] == "notifications/tools/list_changed: on the GET stream"),
        "the record says where it went"
    );
}

#[tokio::test]
async fn modern_requests_share_one_child_and_unknown_sessions_get_404() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let mut pids = Vec::new();
    for id in [1, 2] {
        let response = bridge
            .post(
                None,
                &json!({"jsonrpc": "2.0", "id": id, "method": "test/pids",
                        "params": {"_meta": meta}}),
            )
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "test/pids")
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 200);
        assert!(
            response.headers().get("mcp-session-id").is_none(),
            "2026-07-28 has no sessions"
        );
        let record = response.headers()["mcp-flow-bridge-session"]
            .to_str()
            .expect("ascii")
            .to_owned();
        let answer = common::messages(response).await.remove(0);
        assert_eq!(answer["id"], id);
        pids.push(answer["result"]["pid"].as_u64().expect("pid"));
        let legs = bridge.legs(&record).await;
        assert_eq!(legs["sessionless"], true);
        assert_eq!(
            legs["pid"].as_u64(),
            Some(pids[0]),
            "the header names the record"
        );
    }
    assert_eq!(
        pids[0], pids[1],
        "one child for every request without a session"
    );
    let legacy = bridge.initialize().await;
    assert_ne!(
        u64::from(bridge.child_pid(&legacy).await),
        pids[0],
        "a 2025-11-25 session has its own child"
    );
    let (status, _) = bridge.call("no-such-session", 1, "ping", json!({})).await;
    assert_eq!(status, 404);
    for method in [reqwest::Method::GET, reqwest::Method::DELETE] {
        let response = bridge
            .client
            .request(method.clone(), &bridge.url)
            .header("mcp-protocol-version", "2026-07-28")
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 405, "{method} in 2026-07-28");
        assert_eq!(response.headers()["allow"], "POST");
    }
}

#[tokio::test]
async fn a_request_without_a_session_needs_the_modern_envelope_before_any_child_sees_it() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let legacy = bridge.post(None, &ping).send().await.expect("POST");
    assert_eq!(legacy.status(), 400, "2025-11-25 starts with initialize");
    let answer: Value = legacy.json().await.expect("json");
    assert!(
        answer["error"]["message"]
            .as_str()
            .expect("message")
            .contains("initialize")
    );

    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let no_meta = bridge
        .post(None, &list)
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/list")
        .send()
        .await
        .expect("POST");
    assert_eq!(no_meta.status(), 400);
    let answer: Value = no_meta.json().await.expect("json");
    assert_eq!(answer["id"], 2);
    assert_eq!(answer["error"]["code"], -32602);

    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "get_weather", "arguments": {},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}});
    let wrong_name = bridge
        .post(None, &call)
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "other_tool")
        .send()
        .await
        .expect("POST");
    assert_eq!(wrong_name.status(), 400);
    let answer: Value = wrong_name.json().await.expect("json");
    assert_eq!(answer["error"]["code"], -32020);

    let listed: Value = bridge.record("").await;
    assert_eq!(
        listed["sessions"],
        json!([]),
        "no child was started for them"
    );
}

#[tokio::test]
async fn a_tools_mirrored_argument_must_match_its_mcp_param_header_before_the_child_sees_it() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let send = |id: u64, method: &'static str, params: Value, units: Option<&'static str>| {
        let mut request = bridge
            .post(
                None,
                &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
            )
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method);
        if method == "tools/call" {
            request = request.header("mcp-name", "get_weather");
        }
        if let Some(units) = units {
            request = request.header("mcp-param-units", units);
        }
        request.send()
    };
    let call = json!({"name": "get_weather",
                      "arguments": {"location": "Tokyo", "units": "fahrenheit"},
                      "_meta": meta});

    // Before the tool was listed, the bridge knows no schema and lets the call through.
    let unlisted = send(1, "tools/call", call.clone(), None)
        .await
        .expect("POST");
    assert_eq!(unlisted.status(), 200);
    let listed = send(2, "tools/list", json!({"_meta": meta}), None)
        .await
        .expect("POST");
    assert_eq!(listed.status(), 200);
    let record = listed.headers()["mcp-flow-bridge-session"]
        .to_str()
        .expect("ascii")
        .to_owned();
    common::messages(listed).await;

    for (id, units, why) in [
        (3, None, "Mcp-Param-Units is missing"),
        (4, Some("celsius"), "Mcp-Param-Units is \"celsius\""),
    ] {
        let refused = send(id, "tools/call", call.clone(), units)
            .await
            .expect("POST");
        assert_eq!(refused.status(), 400);
        let answer: Value = refused.json().await.expect("json");
        assert_eq!(answer["id"], id);
        assert_eq!(answer["error"]["code"], -32020);
        let message = answer["error"]["message"].as_str().expect("message");
        assert!(message.contains(why), "{message}");
    }
    let encoded = send(
        5,
        "tools/call",
        call.clone(),
        Some("=?base64?ZmFocmVuaGVpdA==?="),
    )
    .await
    .expect("POST");
    assert_eq!(
        encoded.status(),
        200,
        "a Base64 header value is decoded first"
    );
    common::messages(encoded).await;

    let legs = bridge.legs(&record).await;
    let calls: Vec<u64> = legs["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["leg"] == "stdin")
        .filter_map(|e| serde_json::from_str::<Value>(e["text"].as_str()?).ok())
        .filter(|m| m["method"] == "tools/call")
        .filter_map(|m| m["id"].as_u64())
        .collect();
    assert_eq!(calls, [1, 5], "the refused calls never reached the child");
}

#[tokio::test]
async fn delete_ends_the_session_and_kills_the_child_and_what_it_started() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let (_, messages) = bridge.call(&session, 2, "test/pids", json!({})).await;
    let pid = u32::try_from(messages[0]["result"]["pid"].as_u64().expect("pid")).expect("pid");
    let grandchild =
        u32::try_from(messages[0]["result"]["grandchild"].as_u64().expect("pid")).expect("pid");
    assert_eq!(
        pid,
        bridge.child_pid(&session).await,
        "the record names the child"
    );
    assert!(process_alive(pid) && process_alive(grandchild));

    let deleted = bridge
        .client
        .delete(&bridge.url)
        .header("mcp-session-id", &session)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(deleted.status(), 200);
    assert!(process_gone(pid).await, "the child is gone");
    assert!(process_gone(grandchild).await, "its own child is gone too");

    let (status, _) = bridge.call(&session, 3, "ping", json!({})).await;
    assert_eq!(status, 404, "the session is over");
    let legs = bridge.legs(&session).await;
    assert_eq!(
        legs["open"], false,
        "an ended session's record stays readable"
    );
    assert_eq!(legs["exit"]["killed_by_bridge"], "DELETE");
}

#[tokio::test]
async fn an_idle_session_expires_with_its_child() {
    let bridge = Bridge::start(&["--idle-secs", "1"], &scripted()).await;
    let session = bridge.initialize().await;
    let pid = bridge.child_pid(&session).await;
    assert!(
        process_gone(pid).await,
        "the idle session's child is killed"
    );
    let (status, _) = bridge.call(&session, 2, "ping", json!({})).await;
    assert_eq!(status, 404);
    let legs = bridge.legs(&session).await;
    assert_eq!(legs["exit"]["killed_by_bridge"], "idle for 1 s");
}

#[tokio::test]
async fn stopping_the_bridge_kills_every_child() {
    let mut bridge = Bridge::start(&[], &scripted()).await;
    let first = bridge.initialize().await;
    let second = bridge.initialize().await;
    let (_, messages) = bridge.call(&first, 2, "test/pids", json!({})).await;
    let grandchild =
        u32::try_from(messages[0]["result"]["grandchild"].as_u64().expect("pid")).expect("pid");
    let pids = [
        bridge.child_pid(&first).await,
        bridge.child_pid(&second).await,
        grandchild,
    ];
    bridge.signal(libc::SIGTERM);
    assert_eq!(bridge.exited().await, Some(0));
    for pid in pids {
        assert!(process_gone(pid).await, "process {pid} outlived the bridge");
    }
}

#[tokio::test]
async fn a_killed_bridge_takes_its_children_with_it() {
    let mut bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let pid = bridge.child_pid(&session).await;
    bridge.signal(libc::SIGKILL);
    bridge.exited().await;
    assert!(
        process_gone(pid).await,
        "the parent-death signal ends the child"
    );
}

#[tokio::test]
async fn the_record_is_read_incrementally_from_a_position() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let before = bridge.legs(&session).await;
    let next = before["next"].as_u64().expect("next");
    let (status, _) = bridge.call(&session, 7, "ping", json!({})).await;
    assert_eq!(status, 200);
    let later: Value = bridge
        .client
        .get(format!(
            "{}/legs?session={session}&since={next}",
            bridge.base()
        ))
        .send()
        .await
        .expect("legs")
        .json()
        .await
        .expect("json");
    let entries = later["entries"].as_array().expect("entries");
    assert!(
        entries.iter().all(|e| e["seq"].as_u64() >= Some(next)),
        "{entries:?}"
    );
    // Stdout and stderr are separate pipes: only the protocol lines have a fixed order.
    let protocol: Vec<&Value> = entries
        .iter()
        .filter(|e| e["leg"] == "stdin" || e["leg"] == "stdout")
        .collect();
    assert_eq!(protocol.len(), 2, "{entries:?}");
    assert_eq!(protocol[0]["leg"], "stdin");
    assert!(
        protocol[0]["text"]
            .as_str()
            .expect("text")
            .contains("\"ping\"")
    );
    assert_eq!(protocol[1]["leg"], "stdout");
    assert_eq!(protocol[1]["note"], "answers POST ping (id 7)");
    assert!(protocol[0]["at_ms"].as_f64() <= protocol[1]["at_ms"].as_f64());
    assert_eq!(
        later["next"].as_u64(),
        entries
            .last()
            .and_then(|e| e["seq"].as_u64())
            .map(|seq| seq + 1)
    );
}
