//! Shared helpers for the integration tests: an in-process server on
//! 127.0.0.1:0, raw MCP-over-HTTP requests and SSE bodies read with the
//! workspace's parser (`mcp-flow-sse`).

#![allow(dead_code)]

use std::{net::SocketAddr, time::Duration};

use serde_json::{Value, json};
use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};
use weather_server::{Config, endpoint_url, serve};

pub const ACCEPT_BOTH: &str = "application/json, text/event-stream";
pub const PROTOCOL: &str = "2025-11-25";

/// A server running in this process.
pub struct TestServer {
    pub addr: SocketAddr,
    pub url: String,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    /// Starts a server with these flags (plus `--bind 127.0.0.1:0`).
    pub async fn start(flags: &[&str]) -> Self {
        let config = Config::try_from_args(flags.iter().copied()).expect("valid flags");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("local addr");
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(serve(config, listener, async move {
            let _ = rx.await;
        }));
        Self {
            addr,
            url: endpoint_url(addr),
            shutdown: Some(tx),
            task,
        }
    }

    /// The server's own origin, e.g. `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Triggers graceful shutdown and waits for `serve` to return.
    pub async fn stop(mut self) -> std::io::Result<()> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        tokio::time::timeout(Duration::from_secs(10), &mut self.task)
            .await
            .expect("server stops within 10 s")
            .expect("server task did not panic")
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client")
}

pub fn initialize_request(id: i64) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL,
            "capabilities": {},
            "clientInfo": { "name": "weather-server-tests", "version": "0.0.0" }
        }
    })
}

pub fn request(id: i64, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

pub fn call_weather(id: i64, location: &str) -> Value {
    request(
        id,
        "tools/call",
        json!({ "name": "get_weather", "arguments": { "location": location } }),
    )
}

/// A POST with the headers a well-behaved client sends.
pub fn post(client: &reqwest::Client, url: &str, session: Option<&str>) -> reqwest::RequestBuilder {
    let builder = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", ACCEPT_BOTH)
        .header("mcp-protocol-version", PROTOCOL);
    match session {
        Some(id) => builder.header("mcp-session-id", id),
        None => builder,
    }
}

/// Sends `initialize` and `notifications/initialized`; returns the session id.
pub async fn open_session(client: &reqwest::Client, url: &str) -> String {
    let response = post(client, url, None)
        .json(&initialize_request(1))
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), 200, "initialize status");
    let session = response
        .headers()
        .get("mcp-session-id")
        .expect("mcp-session-id header")
        .to_str()
        .expect("ascii session id")
        .to_string();
    let _ = response.text().await;
    let response = post(client, url, Some(&session))
        .json(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
        .send()
        .await
        .expect("initialized");
    assert_eq!(response.status(), 202, "initialized status");
    session
}

pub use mcp_flow_sse::SseEvent;

/// The JSON-RPC message an event carries.
pub trait EventJson {
    /// The message in `data`, if any (priming events have none).
    fn json(&self) -> Option<Value>;
}

impl EventJson for SseEvent {
    fn json(&self) -> Option<Value> {
        if self.data.trim().is_empty() {
            None
        } else {
            Some(serde_json::from_str(&self.data).expect("event data is JSON"))
        }
    }
}

/// Parses an SSE body with the workspace's parser (the one the app uses). Events are kept even
/// when their data is empty, so the priming event can be checked; comment lines (keep-alives)
/// are skipped. A final event without its blank line is not an event (the SSE specification
/// dispatches only on a blank line), so a body cut short loses it.
pub fn parse_sse(body: &str) -> Vec<SseEvent> {
    mcp_flow_sse::parse(body.as_bytes()).events
}

/// Reads a whole SSE response and returns its JSON-RPC messages in order.
pub async fn sse_messages(response: reqwest::Response) -> Vec<Value> {
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        content_type.starts_with("text/event-stream"),
        "expected SSE, got {content_type:?}"
    );
    let body = response.text().await.expect("body");
    parse_sse(&body).iter().filter_map(SseEvent::json).collect()
}

/// The message answering request `id` (result or error).
pub fn response_for(messages: &[Value], id: i64) -> Value {
    messages
        .iter()
        .find(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
        .cloned()
        .unwrap_or_else(|| panic!("no response with id {id} in {messages:#?}"))
}

/// Sends a request in a session and returns every message of its SSE stream.
pub async fn roundtrip(
    client: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    body: &Value,
) -> Vec<Value> {
    let response = post(client, url, session)
        .json(body)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200, "status for {body}");
    sse_messages(response).await
}

// --- the modern era (2026-07-28) --------------------------------------------------------------

pub const MODERN: &str = "2026-07-28";
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The per-request `_meta` of a modern client with these capabilities.
pub fn modern_meta(capabilities: Value) -> Value {
    json!({
        META_VERSION: MODERN,
        META_CAPABILITIES: capabilities,
        META_CLIENT_INFO: { "name": "weather-server-tests", "version": "0.0.0" },
    })
}

/// A modern request: `params` plus a `_meta` declaring no capabilities (unless `params` has its
/// own `_meta`).
pub fn modern_request(id: i64, method: &str, params: Value) -> Value {
    let mut params = match params {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    params
        .entry("_meta")
        .or_insert_with(|| modern_meta(json!({})));
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

/// A modern `tools/call` of `get_weather` declaring `capabilities`.
pub fn modern_weather(id: i64, arguments: Value, capabilities: Value) -> Value {
    modern_request(
        id,
        "tools/call",
        json!({
            "name": "get_weather",
            "arguments": arguments,
            "_meta": modern_meta(capabilities),
        }),
    )
}

/// A POST of `body` with the headers a modern client derives from it: `MCP-Protocol-Version`,
/// `Mcp-Method` and, for `tools/call`/`prompts/get`, `Mcp-Name`. (`Mcp-Param-*` are the
/// caller's to add.)
pub fn modern_post(client: &reqwest::Client, url: &str, body: &Value) -> reqwest::RequestBuilder {
    let method = body["method"].as_str().unwrap_or_default();
    let mut builder = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", ACCEPT_BOTH)
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", method);
    if let Some(name) = body["params"]["name"].as_str()
        && matches!(method, "tools/call" | "prompts/get")
    {
        builder = builder.header("mcp-name", name);
    }
    builder.json(body)
}

/// A whole answer: status, headers and the JSON-RPC messages (a JSON body or an SSE stream).
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub messages: Vec<Value>,
}

impl Answer {
    pub async fn read(response: reqwest::Response) -> Self {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let content_type = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let body = response.text().await.expect("body");
        let messages = if content_type.starts_with("text/event-stream") {
            parse_sse(&body).iter().filter_map(SseEvent::json).collect()
        } else if body.trim().is_empty() {
            Vec::new()
        } else {
            match serde_json::from_str::<Value>(&body) {
                Ok(message) => vec![message],
                Err(_) => Vec::new(),
            }
        };
        Self {
            status,
            headers,
            messages,
        }
    }

    /// The one message that answers a request (a result or an error).
    pub fn reply(&self) -> Value {
        self.messages
            .iter()
            .find(|m| {
                m.get("method").is_none() && (m.get("result").is_some() || m.get("error").is_some())
            })
            .cloned()
            .unwrap_or_else(|| panic!("no reply in {self:#?}"))
    }

    /// Asserts HTTP `status` and a JSON-RPC error `code` answering request `id`.
    pub fn assert_error(&self, status: u16, code: i64, id: i64) -> Value {
        let reply = self.reply();
        assert_eq!(self.status, status, "{reply}");
        assert_eq!(reply["error"]["code"], code, "{reply}");
        assert_eq!(
            reply["id"], id,
            "every error echoes the request id: {reply}"
        );
        reply
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// Sends a modern request and reads the whole answer.
pub async fn modern(client: &reqwest::Client, url: &str, body: &Value) -> Answer {
    Answer::read(modern_post(client, url, body).send().await.expect("send")).await
}

/// The JSON-RPC messages of an SSE response, as they arrive (for a stream that waits on the
/// client, such as a legacy elicitation request).
pub struct MessageStream {
    body: std::pin::Pin<Box<dyn futures::Stream<Item = reqwest::Result<Vec<u8>>> + Send>>,
    parser: mcp_flow_sse::SseParser,
    ready: std::collections::VecDeque<Value>,
}

impl MessageStream {
    pub fn new(response: reqwest::Response) -> Self {
        use futures::StreamExt;
        Self {
            body: Box::pin(
                response
                    .bytes_stream()
                    .map(|chunk| chunk.map(|b| b.to_vec())),
            ),
            parser: mcp_flow_sse::SseParser::new(),
            ready: std::collections::VecDeque::new(),
        }
    }

    /// The next message, or `None` when the stream ends first.
    pub async fn next(&mut self) -> Option<Value> {
        use futures::StreamExt;
        loop {
            if let Some(message) = self.ready.pop_front() {
                return Some(message);
            }
            let chunk = self.body.next().await?.expect("stream chunk");
            let events = self.parser.push(&chunk);
            self.ready.extend(events.iter().filter_map(SseEvent::json));
        }
    }

    /// Every message until the stream ends.
    pub async fn rest(mut self) -> Vec<Value> {
        let mut all = Vec::new();
        while let Some(message) = self.next().await {
            all.push(message);
        }
        all
    }
}
