//! What the authorization tests share: the server started with `--auth`, a client that shows
//! redirects, PKCE, the code flow's requests, MCP requests with a token in both eras, and a
//! loopback server for client ID metadata documents.

// Each test file uses only some of these helpers.
#![allow(dead_code)]

use std::{collections::HashMap, time::Duration};

use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use reqwest::{StatusCode, header::HeaderMap};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};
use tokio::{
    io::{AsyncReadExt as _, AsyncWriteExt as _},
    net::TcpListener,
};

use crate::support::TestServer;

pub const DEMO: &str = "mcp-flow-demo";
pub const REDIRECT: &str = "http://127.0.0.1:3000/callback";
pub const MODERN: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";

/// The shared test server, started with `--auth`.
pub struct Server(pub TestServer);

impl Server {
    /// A server with `--auth` and `flags`, on 127.0.0.1:0.
    pub async fn start(flags: &[&str]) -> Self {
        let all: Vec<&str> = std::iter::once("--auth")
            .chain(flags.iter().copied())
            .collect();
        Self(TestServer::start(&all).await)
    }

    pub async fn auto() -> Self {
        Self::start(&["--auth-auto-approve"]).await
    }

    pub fn port(&self) -> u16 {
        self.0.addr.port()
    }

    /// The issuer (and origin) as reached at 127.0.0.1.
    pub fn issuer(&self) -> String {
        self.0.origin()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.issuer())
    }

    pub fn resource(&self) -> String {
        self.url("/mcp")
    }

    pub fn prm_url(&self) -> String {
        self.url("/.well-known/oauth-protected-resource/mcp")
    }

    pub async fn stop(self) {
        self.0.stop().await.expect("clean shutdown");
    }
}

/// An OAuth error answer (RFC 6749 §5.2): its status and `error`.
#[track_caller]
pub fn assert_refused(status: StatusCode, body: &Value, expected: StatusCode, error: &str) {
    assert_eq!((status, body["error"].as_str()), (expected, Some(error)));
}

/// A client that shows redirects instead of following them.
pub fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client")
}

pub fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

pub struct Pkce {
    pub verifier: String,
    pub challenge: String,
}

pub fn pkce() -> Pkce {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("randomness");
    let verifier = URL_SAFE_NO_PAD.encode(bytes);
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    Pkce {
        verifier,
        challenge,
    }
}

/// `GET /oauth/authorize` with the usual parameters for `client_id`, then `extra` (which
/// replaces a usual one of the same name; an empty value leaves it out).
pub async fn authorize(
    server: &Server,
    client_id: &str,
    pkce: &Pkce,
    extra: &[(&str, &str)],
) -> reqwest::Response {
    let mut params: Vec<(&str, &str)> = vec![
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", REDIRECT),
        ("code_challenge", &pkce.challenge),
        ("code_challenge_method", "S256"),
        ("state", "st-1"),
    ];
    for (name, value) in extra {
        params.retain(|(n, _)| n != name);
        if !value.is_empty() {
            params.push((name, value));
        }
    }
    http()
        .get(server.url("/oauth/authorize"))
        .query(&params)
        .send()
        .await
        .expect("authorize")
}

/// The redirect's target without query, and its query parameters.
pub fn redirected(response: &reqwest::Response) -> (String, HashMap<String, String>) {
    assert_eq!(response.status(), StatusCode::FOUND, "a redirect");
    let location = header(response.headers(), "location").expect("Location");
    let url = reqwest::Url::parse(location).expect("absolute Location");
    let params = url.query_pairs().into_owned().collect();
    let base = format!("{}{}", url.origin().ascii_serialization(), url.path());
    (base, params)
}

/// An auto-approved code for the demo client with `extra` authorization parameters.
pub async fn code(server: &Server, pkce: &Pkce, extra: &[(&str, &str)]) -> String {
    let response = authorize(server, DEMO, pkce, extra).await;
    let (base, params) = redirected(&response);
    assert_eq!(base, REDIRECT);
    assert_eq!(params.get("state").map(String::as_str), Some("st-1"));
    assert_eq!(params.get("iss"), Some(&server.issuer()));
    params.get("code").expect("code").clone()
}

/// Sends `request` (`what` names it in a panic): the status, headers and JSON body.
async fn answered(request: reqwest::RequestBuilder, what: &str) -> (StatusCode, HeaderMap, Value) {
    let response = request.send().await.expect(what);
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.json().await.expect("JSON body");
    (status, headers, body)
}

/// `POST /oauth/token` with `form`; the status, headers and JSON body.
pub async fn token_request(
    server: &Server,
    form: &[(&str, &str)],
) -> (StatusCode, HeaderMap, Value) {
    answered(http().post(server.url("/oauth/token")).form(form), "token").await
}

/// The refresh grant of the demo client for `token`.
pub async fn refresh(server: &Server, token: &str) -> (StatusCode, HeaderMap, Value) {
    token_request(
        server,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", token),
            ("client_id", DEMO),
        ],
    )
    .await
}

/// The demo client's code grant (`code`, its `verifier`, the usual redirect), with `extra`.
pub async fn redeem(
    server: &Server,
    code: &str,
    verifier: &str,
    extra: &[(&str, &str)],
) -> (StatusCode, HeaderMap, Value) {
    let mut form = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", REDIRECT),
        ("code_verifier", verifier),
        ("client_id", DEMO),
    ];
    form.extend_from_slice(extra);
    token_request(server, &form).await
}

/// The demo client's token response for `scope` (auto-approve server).
pub async fn tokens(server: &Server, scope: &str) -> Value {
    let pkce = pkce();
    let code = code(server, &pkce, &[("scope", scope)]).await;
    let (status, _, body) = redeem(
        server,
        &code,
        &pkce.verifier,
        &[("resource", &server.resource())],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

pub async fn access_token(server: &Server, scope: &str) -> String {
    tokens(server, scope).await["access_token"]
        .as_str()
        .expect("access_token")
        .to_owned()
}

// --- MCP requests -------------------------------------------------------------------------------

pub fn modern_body(id: i64, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

/// A 2026-07-28 `tools/call` of `get_weather` for Tokyo.
pub fn weather_body(id: i64) -> Value {
    modern_body(
        id,
        "tools/call",
        json!({ "name": "get_weather", "arguments": { "location": "Tokyo" } }),
    )
}

/// A 2026-07-28 POST to `/mcp` with `token` (if any).
pub async fn modern(server: &Server, token: Option<&str>, body: &Value) -> reqwest::Response {
    let mut request = http()
        .post(server.resource())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", body["method"].as_str().unwrap_or_default());
    // Mcp-Name: a tool's or prompt's name, a resource's URI.
    let params = &body["params"];
    if let Some(name) = params["name"].as_str().or(params["uri"].as_str()) {
        request = request.header("mcp-name", name);
    }
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.json(body).send().await.expect("POST /mcp")
}

/// A 2025-11-25 POST to `/mcp`.
pub async fn legacy(
    server: &Server,
    token: &str,
    session: Option<&str>,
    body: &Value,
) -> reqwest::Response {
    let mut request = http()
        .post(server.resource())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", LEGACY)
        .bearer_auth(token);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request.json(body).send().await.expect("POST /mcp")
}

/// The JSON-RPC reply in a JSON or SSE body.
pub async fn reply(response: reqwest::Response) -> Value {
    let sse = header(response.headers(), "content-type")
        .is_some_and(|t| t.starts_with("text/event-stream"));
    let body = response.text().await.expect("body");
    if !sse {
        return serde_json::from_str(&body).expect("JSON");
    }
    mcp_flow_sse::parse(body.as_bytes())
        .events
        .iter()
        .filter(|e| !e.data.trim().is_empty())
        .map(|e| serde_json::from_str::<Value>(&e.data).expect("event JSON"))
        .find(|m| m.get("result").is_some() || m.get("error").is_some())
        .expect("a reply")
}

pub fn tool_names(reply: &Value) -> Vec<&str> {
    reply["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect()
}

pub async fn register(server: &Server, body: &Value) -> (StatusCode, Value) {
    let request = http().post(server.url("/oauth/register")).json(body);
    let (status, _, body) = answered(request, "register").await;
    (status, body)
}

/// The request id in the consent page's form.
pub fn request_id(page: &str) -> String {
    let marker = "name=\"request\" value=\"";
    let start = page.find(marker).expect("the form's request id") + marker.len();
    let end = page[start..].find('"').expect("end of value") + start;
    page[start..end].to_owned()
}

/// A one-document HTTP server on 127.0.0.1 (answers every request with `document`).
pub async fn document_server(document: impl Fn(u16) -> Value + Send + 'static) -> u16 {
    counted_document_server(document).await.0
}

/// The same, with the number of requests it has answered.
pub async fn counted_document_server(
    document: impl Fn(u16) -> Value + Send + 'static,
) -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let body = document(port).to_string();
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = count.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let body = body.clone();
            let counted = counted.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
            });
        }
    });
    (port, count)
}
