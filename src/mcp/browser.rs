//! The browser side of the HTTP transport: fetch through gloo-net.

use gloo_net::http::Request;
use serde_json::Value;

use super::{body, jsonrpc};

/// What one POST returned.
pub struct Posted {
    pub status: u16,
    pub session_id: Option<String>,
    pub messages: Vec<Value>,
}

async fn post(
    url: &str,
    message: &Value,
    session: Option<&str>,
    version: Option<&str>,
) -> Result<Posted, String> {
    let mut builder = Request::post(url)
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json");
    if let Some(session) = session {
        builder = builder.header("Mcp-Session-Id", session);
    }
    if let Some(version) = version {
        builder = builder.header("MCP-Protocol-Version", version);
    }
    let request = builder
        .body(message.to_string())
        .map_err(|e| format!("could not build the request: {e}"))?;
    let response = request.send().await.map_err(|e| {
        format!(
            "the request to {url} failed before any response (server down, or CORS refused): {e}"
        )
    })?;
    let status = response.status();
    let session_id = response.headers().get("mcp-session-id");
    let content_type = response.headers().get("content-type").unwrap_or_default();
    let bytes = response
        .binary()
        .await
        .map_err(|e| format!("reading the response body failed: {e}"))?;
    if status == 202 {
        return Ok(Posted {
            status,
            session_id,
            messages: Vec::new(),
        });
    }
    if !(200..300).contains(&status) {
        let text = String::from_utf8_lossy(&bytes);
        return Err(format!("HTTP {status}: {}", text.trim()));
    }
    let messages = body::messages(&content_type, &bytes)?;
    Ok(Posted {
        status,
        session_id,
        messages,
    })
}

/// Performs `initialize` and `notifications/initialized` against `url`.
pub async fn connect(url: &str) -> Result<jsonrpc::Handshake, String> {
    let init = jsonrpc::request(
        1,
        "initialize",
        serde_json::json!(jsonrpc::initialize_params()),
    );
    let posted = post(url, &init, None, None).await?;
    let result = posted
        .messages
        .iter()
        .find_map(jsonrpc::reply)
        .ok_or("the initialize response carried no JSON-RPC reply")?;
    let handshake = match result {
        jsonrpc::Reply::Result(value) => jsonrpc::read_initialize(value)?,
        jsonrpc::Reply::Error { code, message, .. } => {
            return Err(format!(
                "initialize failed: JSON-RPC error {code}: {message}"
            ));
        }
    };
    let done = post(
        url,
        &jsonrpc::notification("notifications/initialized"),
        posted.session_id.as_deref(),
        Some(handshake.protocol_version),
    )
    .await?;
    if done.status != 202 {
        return Err(format!(
            "notifications/initialized: expected 202 Accepted, got {}",
            done.status
        ));
    }
    Ok(handshake)
}
