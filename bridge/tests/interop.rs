//! Stdio servers nobody here wrote, through the bridge, driven by a plain HTTP client:
//! the official Python SDK (`mcp` 2.3.0) serving the tutorial's `get_weather`
//! (`test-servers/peers/py_stdio_weather.py`) and the official reference server
//! `mcp-server-time`. `cargo xtask test` installs both (pinned) and passes their paths in
//! `MCP_FLOW_BRIDGE_PYTHON_SDK` and `MCP_FLOW_BRIDGE_TIME_SERVER`; without those variables the
//! tests look in the tools folder (`$MCP_FLOW_TOOLS`, else `~/.cache/mcp-flow`).

mod common;

use std::path::PathBuf;

use common::{Bridge, process_gone};
use serde_json::{Value, json};

/// A peer's path: the variable, else its place in the tools folder; a clear failure when
/// neither exists.
fn peer(variable: &str, in_tools: &str) -> String {
    let path = std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let tools = std::env::var_os("MCP_FLOW_TOOLS")
                .map(PathBuf::from)
                .or_else(|| {
                    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/mcp-flow"))
                })
                .unwrap_or_default();
            tools.join(in_tools)
        });
    assert!(
        path.exists(),
        "{} is missing: `cargo xtask test` installs it (or set {variable})",
        path.display()
    );
    path.display().to_string()
}

fn workspace_file(path: &str) -> String {
    format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))
}

/// initialize, notifications/initialized, tools/list, tools/call, DELETE through the bridge;
/// returns the initialize result, the tool names and the call's result.
async fn full_run(bridge: &Bridge, tool: &str, arguments: Value) -> (Value, Vec<String>, Value) {
    let response = bridge
        .post(None, &common::initialize(1))
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .expect("ascii")
        .to_owned();
    let initialized = common::messages(response).await.pop().expect("answer");
    let accepted = bridge
        .post(
            Some(&session),
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .send()
        .await
        .expect("initialized");
    assert_eq!(accepted.status(), 202);

    let (status, listed) = bridge.call(&session, 2, "tools/list", json!({})).await;
    assert_eq!(status, 200);
    let listed = listed.last().expect("tools/list answer");
    let tools: Vec<String> = listed["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("tools in {listed}"))
        .iter()
        .filter_map(|tool| tool["name"].as_str().map(str::to_owned))
        .collect();

    let (status, called) = bridge
        .call(
            &session,
            3,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        )
        .await;
    assert_eq!(status, 200);
    let called = called.last().expect("tools/call answer").clone();
    assert_eq!(called["id"], 3);

    let pid = bridge.child_pid(&session).await;
    let legs = bridge.legs(&session).await;
    let entries = legs["entries"].as_array().expect("entries");
    for leg in ["stdin", "stdout"] {
        assert!(
            entries.iter().filter(|e| e["leg"] == leg).count() >= 3,
            "{leg} is recorded: {entries:?}"
        );
    }
    let deleted = bridge
        .client
        .delete(&bridge.url)
        .header("mcp-session-id", &session)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(deleted.status(), 200);
    assert!(
        process_gone(pid).await,
        "the server process ends with its session"
    );
    (
        initialized["result"].clone(),
        tools,
        called["result"].clone(),
    )
}

#[tokio::test]
async fn the_python_sdk_stdio_weather_server_answers_tokyo_through_the_bridge() {
    let python = peer("MCP_FLOW_BRIDGE_PYTHON_SDK", "interop/py/bin/python");
    let command = vec![
        python,
        workspace_file("test-servers/peers/py_stdio_weather.py"),
    ];
    let bridge = Bridge::start(&[], &command).await;
    let (initialized, tools, result) =
        full_run(&bridge, "get_weather", json!({"location": "Tokyo"})).await;
    assert_eq!(initialized["serverInfo"]["name"], "py-stdio-weather");
    assert_eq!(initialized["protocolVersion"], "2025-11-25");
    assert_eq!(tools, ["get_weather", "unlock_forecast"]);
    assert_eq!(result["isError"], false);
    assert_eq!(result["content"][0]["text"], "Sunny");
}

#[tokio::test]
async fn the_reference_time_server_answers_through_the_bridge() {
    let server = peer(
        "MCP_FLOW_BRIDGE_TIME_SERVER",
        "interop/time-py/bin/mcp-server-time",
    );
    let command = vec![server, "--local-timezone".to_owned(), "UTC".to_owned()];
    let bridge = Bridge::start(&[], &command).await;
    let (initialized, tools, result) = full_run(
        &bridge,
        "get_current_time",
        json!({"timezone": "Asia/Tokyo"}),
    )
    .await;
    assert_eq!(initialized["serverInfo"]["name"], "mcp-time");
    assert!(tools.contains(&"get_current_time".to_owned()), "{tools:?}");
    assert!(tools.contains(&"convert_time".to_owned()), "{tools:?}");
    assert_ne!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().expect("text");
    let time: Value = serde_json::from_str(text).expect("the tool answers JSON text");
    assert_eq!(time["timezone"], "Asia/Tokyo");
    assert!(
        time["datetime"]
            .as_str()
            .is_some_and(|t| t.ends_with("+09:00")),
        "{time}"
    );
}

/// The Python SDK's Streamable HTTP server with its DNS-rebinding protection on
/// (`test-servers/peers/py_weather.py`, admitting only the Origin it is given): it refuses a
/// page on another origin directly, and answers the same page through `bridge http`.
#[tokio::test]
async fn the_python_sdk_http_server_refuses_the_page_directly_and_answers_through_the_bridge() {
    use tokio::io::AsyncBufReadExt;

    let python = peer("MCP_FLOW_BRIDGE_PYTHON_SDK", "interop/py/bin/python");
    let mut server = tokio::process::Command::new(python)
        .arg(workspace_file("test-servers/peers/py_weather.py"))
        .arg("http://127.0.0.1:1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start the Python SDK server");
    let stdout = server.stdout.take().expect("stdout");
    let line = tokio::time::timeout(
        common::WAIT,
        tokio::io::BufReader::new(stdout).lines().next_line(),
    )
    .await
    .expect("the server starts in time")
    .expect("read")
    .expect("a line");
    let url = line
        .rsplit(' ')
        .next()
        .expect("py-sdk-weather listening on URL")
        .to_owned();
    let page = "http://127.0.0.1:8000";

    // The script prints its address before uvicorn listens: retry the connection (bounded).
    let deadline = std::time::Instant::now() + common::WAIT;
    let direct = loop {
        let sent = reqwest::Client::new()
            .post(&url)
            .header("origin", page)
            .header("accept", common::ACCEPT)
            .header("content-type", "application/json")
            .body(common::initialize(1).to_string())
            .send()
            .await;
        match sent {
            Ok(response) => break response,
            Err(error) if error.is_connect() && std::time::Instant::now() < deadline => {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            Err(error) => panic!("the Python SDK server does not answer: {error}"),
        }
    };
    assert_eq!(direct.status(), 403, "the SDK refuses the page's Origin");

    let bridge = Bridge::start_http(&["--allow-origin", page], &url).await;
    let response = bridge
        .post(None, &common::initialize(1))
        .header("origin", page)
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["access-control-allow-origin"], page);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .expect("ascii")
        .to_owned();
    let initialized = common::messages(response).await.pop().expect("answer");
    assert_eq!(
        initialized["result"]["serverInfo"]["name"],
        "py-sdk-weather"
    );
    let accepted = bridge
        .post(
            Some(&session),
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .header("mcp-protocol-version", "2025-11-25")
        .header("origin", page)
        .send()
        .await
        .expect("initialized");
    assert_eq!(accepted.status(), 202);
    let response = bridge
        .post(
            Some(&session),
            &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "get_weather", "arguments": {"location": "Tokyo"}}}),
        )
        .header("mcp-protocol-version", "2025-11-25")
        .header("origin", page)
        .send()
        .await
        .expect("tools/call");
    assert_eq!(response.status(), 200);
    let called = common::messages(response).await.pop().expect("answer");
    assert_eq!(called["result"]["content"][0]["text"], "Sunny");

    let legs: Value = bridge.record("").await;
    let exchanges = legs["exchanges"].as_array().expect("exchanges");
    assert_eq!(exchanges.len(), 3, "{exchanges:?}");
    assert!(exchanges.iter().all(|e| e["session"] == session.as_str()));
    assert!(exchanges.iter().all(|e| e["ended_at_ms"].is_number()));
}

/// The same server in the 2026-07-28 era: no initialize and no session; `server/discover`,
/// then `tools/call` carrying its `_meta`, each request standing alone.
#[tokio::test]
async fn the_python_sdk_stdio_weather_server_answers_in_the_2026_era_through_the_bridge() {
    let python = peer("MCP_FLOW_BRIDGE_PYTHON_SDK", "interop/py/bin/python");
    let command = vec![
        python,
        workspace_file("test-servers/peers/py_stdio_weather.py"),
    ];
    let bridge = Bridge::start(&[], &command).await;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "bridge-test", "version": "1.0.0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let send = |id: u64, method: &str, mut params: Value, name: Option<&str>| {
        params["_meta"] = meta.clone();
        let mut request = bridge
            .post(
                None,
                &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
            )
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method);
        if let Some(name) = name {
            request = request.header("mcp-name", name);
        }
        request.send()
    };
    let discovered = send(1, "server/discover", json!({}), None)
        .await
        .expect("discover");
    assert_eq!(discovered.status(), 200);
    assert!(discovered.headers().get("mcp-session-id").is_none());
    let discovered = common::messages(discovered).await.pop().expect("answer");
    let versions = discovered["result"]["supportedVersions"]
        .as_array()
        .unwrap_or_else(|| panic!("supportedVersions in {discovered}"));
    assert!(versions.contains(&json!("2026-07-28")), "{discovered}");

    let called = send(
        2,
        "tools/call",
        json!({"name": "get_weather", "arguments": {"location": "Tokyo"}}),
        Some("get_weather"),
    )
    .await
    .expect("tools/call");
    assert_eq!(called.status(), 200);
    let called = common::messages(called).await.pop().expect("answer");
    assert_eq!(called["id"], 2);
    assert_eq!(called["result"]["content"][0]["text"], "Sunny", "{called}");

    let listed: Value = bridge.record("").await;
    let sessions = listed["sessions"].as_array().expect("sessions");
    assert_eq!(sessions.len(), 1, "one shared child: {sessions:?}");
    assert_eq!(sessions[0]["sessionless"], true);
}

fn everything() -> String {
    peer(
        "MCP_FLOW_BRIDGE_EVERYTHING",
        "interop/everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    )
}

/// The reference `server-everything` over stdio through the bridge. It sends
/// `notifications/tools/list_changed` before its initialize result, so that answer comes as an
/// SSE stream carrying both.
#[tokio::test]
async fn the_reference_everything_server_answers_over_stdio_through_the_bridge() {
    let command = vec!["node".to_owned(), everything(), "stdio".to_owned()];
    let bridge = Bridge::start(&[], &command).await;
    let (initialized, tools, result) =
        full_run(&bridge, "echo", json!({"message": "through the bridge"})).await;
    let name = initialized["serverInfo"]["name"].as_str().expect("name");
    assert!(name.contains("everything"), "{name}");
    assert!(tools.contains(&"echo".to_owned()), "{tools:?}");
    assert_eq!(result["content"][0]["text"], "Echo: through the bridge");
}

/// The same server in its Streamable HTTP mode, through `bridge http`.
#[tokio::test]
async fn the_reference_everything_server_answers_over_http_through_the_bridge() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let _server = tokio::process::Command::new("node")
        .arg(everything())
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start server-everything");
    let deadline = std::time::Instant::now() + common::WAIT;
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "server-everything did not listen"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let url = format!("http://127.0.0.1:{port}/mcp");
    let bridge = Bridge::start_http(&[], &url).await;
    let response = bridge
        .post(None, &common::initialize(1))
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .expect("ascii")
        .to_owned();
    let initialized = common::messages(response).await.pop().expect("answer");
    assert!(
        initialized["result"]["serverInfo"]["name"]
            .as_str()
            .is_some_and(|name| name.contains("everything")),
        "{initialized}"
    );
    let accepted = bridge
        .post(
            Some(&session),
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .expect("initialized");
    assert_eq!(accepted.status(), 202);
    let response = bridge
        .post(
            Some(&session),
            &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"message": "hi"}}}),
        )
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .expect("tools/call");
    assert_eq!(response.status(), 200);
    let called = common::messages(response).await.pop().expect("answer");
    assert_eq!(called["result"]["content"][0]["text"], "Echo: hi");
    let deleted = bridge
        .client
        .delete(&bridge.url)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .expect("DELETE");
    assert!(deleted.status().is_success(), "{}", deleted.status());
}
