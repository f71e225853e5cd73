//! Shared set-up for the integration tests: an in-process server on 127.0.0.1:0 with a client,
//! the requests a client sends (legacy and 2026-07-28), and the answers read back, SSE with the
//! workspace's parser (`mcp-flow-sse`).

// Every test file is its own crate and uses only some of these helpers.
#![allow(dead_code)]

use std::{net::SocketAddr, ops::Deref, path::PathBuf, time::Duration};

use serde_json::{Value, json};
use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};
use weather_server::{Config, endpoint_url, serve};

pub const ACCEPT_BOTH: &str = "application/json, text/event-stream";
pub const PROTOCOL: &str = "2025-11-25";
/// The `Accept` and version headers of a well-behaved legacy client.
pub const ACCEPT: (&str, &str) = ("accept", ACCEPT_BOTH);
pub const VERSION: (&str, &str) = ("mcp-protocol-version", PROTOCOL);

// --- the server ---------------------------------------------------------------------------------

/// A server running in this process. It derefs to its `/mcp` [`Endpoint`], so
/// `server.roundtrip(…)` talks to the weather server.
pub struct TestServer {
    pub addr: SocketAddr,
    mcp: Endpoint,
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
            mcp: Endpoint {
                client: client(),
                url: endpoint_url(addr),
            },
            shutdown: Some(tx),
            task,
        }
    }

    /// The server's own origin, e.g. `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The calculator beside the weather server, at `/calc`.
    pub fn calc(&self) -> Endpoint {
        Endpoint {
            client: self.client.clone(),
            url: self.url.replace("/mcp", "/calc"),
        }
    }

    /// The weather server with the long-running forecast, at `/forecast`.
    pub fn forecast(&self) -> Endpoint {
        Endpoint {
            client: self.client.clone(),
            url: self.url.replace("/mcp", "/forecast"),
        }
    }

    /// `/packing`: the weather server with a tool that asks the client's model and roots.
    pub fn packing(&self) -> Endpoint {
        Endpoint {
            client: self.client.clone(),
            url: self.url.replace("/mcp", "/packing"),
        }
    }

    /// A plain GET of `path` (e.g. `/`, `/models/x`) on this server.
    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.client.get(format!("{}{path}", self.origin()))
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

impl Deref for TestServer {
    type Target = Endpoint;

    fn deref(&self) -> &Endpoint {
        &self.mcp
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client")
}

/// One MCP endpoint (`/mcp` or `/calc`) and the client that talks to it.
#[derive(Clone)]
pub struct Endpoint {
    pub client: reqwest::Client,
    pub url: String,
}

impl Endpoint {
    /// A POST with the headers a well-behaved legacy client sends.
    pub fn post(&self, session: Option<&str>) -> reqwest::RequestBuilder {
        let builder = self.post_with(&[ACCEPT, VERSION]);
        match session {
            Some(id) => builder.header("mcp-session-id", id),
            None => builder,
        }
    }

    /// A POST with a JSON content type and exactly these other headers (for requests that leave
    /// one out or get one wrong).
    pub fn post_with(&self, headers: &[(&str, &str)]) -> reqwest::RequestBuilder {
        let builder = self
            .client
            .post(&self.url)
            .header("content-type", "application/json");
        headers.iter().fold(builder, |builder, (name, value)| {
            builder.header(*name, *value)
        })
    }

    /// A legacy DELETE ending `session`.
    pub fn delete(&self, session: &str) -> reqwest::RequestBuilder {
        self.client
            .delete(&self.url)
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", PROTOCOL)
    }

    /// A CORS preflight for a POST from `origin`, asking for `headers` if any.
    pub async fn preflight(&self, origin: &str, headers: Option<&str>) -> reqwest::Response {
        let builder = self
            .client
            .request(reqwest::Method::OPTIONS, &self.url)
            .header("origin", origin)
            .header("access-control-request-method", "POST");
        let builder = match headers {
            Some(headers) => builder.header("access-control-request-headers", headers),
            None => builder,
        };
        builder.send().await.expect("preflight")
    }

    /// Sends `initialize` and `notifications/initialized`; returns the session id.
    pub async fn open_session(&self) -> String {
        self.open_session_with(json!({})).await
    }

    /// [`Endpoint::open_session`] for a client declaring `capabilities`.
    pub async fn open_session_with(&self, capabilities: Value) -> String {
        let mut body = initialize_request(1);
        body["params"]["capabilities"] = capabilities;
        let response = self.send(None, &body).await;
        assert_eq!(response.status(), 200, "initialize status");
        let session = header(&response, "mcp-session-id")
            .expect("mcp-session-id header")
            .to_owned();
        let _ = response.text().await;
        let response = self.send(Some(&session), &initialized()).await;
        assert_eq!(response.status(), 202, "initialized status");
        session
    }

    /// POSTs `body` as a legacy client would and returns the response, whatever its status.
    pub async fn send(&self, session: Option<&str>, body: &Value) -> reqwest::Response {
        self.post(session).json(body).send().await.expect("send")
    }

    /// Sends a legacy request and returns every message of its SSE stream (asserting 200).
    pub async fn roundtrip(&self, session: Option<&str>, body: &Value) -> Vec<Value> {
        let response = self.send(session, body).await;
        assert_eq!(response.status(), 200, "status for {body}");
        sse_messages(response).await
    }

    /// Opens `session`'s standalone GET stream (2025-11-25).
    pub async fn get_stream(&self, session: &str) -> reqwest::Result<reqwest::Response> {
        self.client
            .get(&self.url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", PROTOCOL)
            .send()
            .await
    }

    /// A POST of `body` with the headers a modern client derives from it: `MCP-Protocol-Version`,
    /// `Mcp-Method` and `Mcp-Name` (the tool's or prompt's name, a read's URI). (`Mcp-Param-*` are the
    /// caller's to add.)
    pub fn modern_post(&self, body: &Value) -> reqwest::RequestBuilder {
        let method = body["method"].as_str().unwrap_or_default();
        let mut builder = self.post_with(&[
            ACCEPT,
            ("mcp-protocol-version", MODERN),
            ("mcp-method", method),
        ]);
        let name = match method {
            "tools/call" | "prompts/get" => body["params"]["name"].as_str(),
            "resources/read" => body["params"]["uri"].as_str(),
            _ => None,
        };
        if let Some(name) = name {
            builder = builder.header("mcp-name", name);
        }
        builder.json(body)
    }

    /// Sends a modern request and reads the whole answer.
    pub async fn modern(&self, body: &Value) -> Answer {
        Answer::send(self.modern_post(body)).await
    }
}

// --- request bodies -----------------------------------------------------------------------------

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

/// The notification that ends the legacy handshake.
pub fn initialized() -> Value {
    json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })
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

/// The per-request `_meta` of a modern client that takes tasks (SEP-2663).
pub fn with_tasks() -> Value {
    modern_meta(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}))
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

/// A modern `server/discover`.
pub fn discover(id: i64) -> Value {
    modern_request(id, "server/discover", json!({}))
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

// --- answers ------------------------------------------------------------------------------------

/// A response header as text.
pub fn header<'a>(response: &'a reqwest::Response, name: &str) -> Option<&'a str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}

/// Asserts that the comma-separated header `name` lists each of `expected` (lower case).
pub fn assert_lists(response: &reqwest::Response, name: &str, expected: &[&str]) {
    let listed: Vec<String> = response
        .headers()
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|v| v.trim().to_ascii_lowercase())
        .collect();
    for item in expected {
        assert!(
            listed.iter().any(|l| l == item),
            "{item} in {name}: {listed:?}"
        );
    }
}

/// Asserts that a page at `origin` may read `response`, including the session headers.
pub fn assert_readable_from(response: &reqwest::Response, origin: &str) {
    assert_eq!(
        header(response, "access-control-allow-origin"),
        Some(origin)
    );
    assert_lists(
        response,
        "access-control-expose-headers",
        &["mcp-session-id", "mcp-protocol-version"],
    );
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
    let content_type = header(&response, "content-type")
        .unwrap_or_default()
        .to_owned();
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

/// Whether `message` is a log notification.
pub fn is_log(message: &Value) -> bool {
    message["method"] == "notifications/message"
}

/// A whole answer: status, headers and the JSON-RPC messages (a JSON body or an SSE stream).
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub messages: Vec<Value>,
}

impl Answer {
    /// Sends a request and reads the whole answer.
    pub async fn send(request: reqwest::RequestBuilder) -> Self {
        Self::read(request.send().await.expect("send")).await
    }

    pub async fn read(response: reqwest::Response) -> Self {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let content_type = header(&response, "content-type")
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

// --- files --------------------------------------------------------------------------------------

/// A directory of files for `--static` or `--models`, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh directory holding `files` (name, contents); `label` keeps test files apart.
    pub fn with_files(label: &str, files: &[(&str, &[u8])]) -> Self {
        let dir =
            std::env::temp_dir().join(format!("weather-server-{label}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        for (name, contents) in files {
            if let Some(parent) = dir.join(name).parent() {
                std::fs::create_dir_all(parent).expect("temp folder");
            }
            std::fs::write(dir.join(name), contents).expect("write a temp file");
        }
        Self(dir)
    }

    /// The path as a command-line argument.
    pub fn arg(&self) -> &str {
        self.0.to_str().expect("utf-8 temp path")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// --- fuzzing ------------------------------------------------------------------------------------

static PANICS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static PANIC_HOOK: std::sync::Once = std::sync::Once::new();

/// Counts every panic from now on (in this thread, the runtime's workers and spawned tasks
/// alike); returns the count so far.
pub fn panics() -> usize {
    PANIC_HOOK.call_once(|| {
        let default_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            default_hook(info);
        }));
    });
    PANICS.load(std::sync::atomic::Ordering::SeqCst)
}
