//! Just enough of an MCP Streamable HTTP client for load: initialize, initialized, tools/call
//! (JSON or SSE answers), DELETE; or 2026-07-28's stateless calls (no handshake, `_meta` and the
//! `Mcp-Method`/`Mcp-Name` headers on each). Every answer is checked, so a fast wrong answer is
//! an error.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

const ACCEPT: &str = "application/json, text/event-stream";
const VERSION: &str = "2025-11-25";
const MODERN: &str = "2026-07-28";

pub struct Call {
    pub tool: String,
    pub args: Value,
    /// Text the first content block must hold.
    pub expect: Option<String>,
}

pub struct Session {
    http: reqwest::Client,
    url: String,
    id: Option<String>,
    version: String,
    next_id: AtomicU64,
    /// 2026-07-28: every call carries its own `_meta`; there is no session.
    modern: bool,
}

impl Session {
    /// The session's id (none for a server without sessions, or 2026-07-28).
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// `initialize` then `notifications/initialized`.
    pub async fn open(http: &reqwest::Client, url: &str) -> Result<Self, String> {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": VERSION, "capabilities": {},
            "clientInfo": {"name": "mcp-flow-load", "version": env!("CARGO_PKG_VERSION")}}});
        let response = http
            .post(url)
            .header("Accept", ACCEPT)
            .header("Content-Type", "application/json")
            .body(init.to_string())
            .send()
            .await
            .map_err(|e| format!("initialize: {e}"))?;
        let id = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let answer = read_answer(response, 0).await?;
        let version = answer
            .pointer("/result/protocolVersion")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("initialize: no protocolVersion in {answer}"))?
            .to_owned();
        let session = Self {
            http: http.clone(),
            url: url.to_owned(),
            id,
            version,
            next_id: AtomicU64::new(1),
            modern: false,
        };
        let status = session
            .post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .send()
            .await
            .map_err(|e| format!("initialized: {e}"))?
            .status();
        if !status.is_success() {
            return Err(format!("notifications/initialized: HTTP {status}"));
        }
        Ok(session)
    }

    /// A 2026-07-28 client: nothing to open.
    pub fn stateless(http: &reqwest::Client, url: &str) -> Self {
        Self {
            http: http.clone(),
            url: url.to_owned(),
            id: None,
            version: MODERN.to_owned(),
            next_id: AtomicU64::new(1),
            modern: true,
        }
    }

    fn post(&self, body: &Value) -> reqwest::RequestBuilder {
        let mut r = self
            .http
            .post(&self.url)
            .header("Accept", ACCEPT)
            .header("Content-Type", "application/json")
            .header("MCP-Protocol-Version", &self.version)
            .body(body.to_string());
        if let Some(id) = &self.id {
            r = r.header("Mcp-Session-Id", id);
        }
        r
    }

    pub async fn call(&self, call: &Call) -> Result<(), String> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": call.tool, "arguments": call.args}});
        if self.modern {
            body["params"]["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo":
                    {"name": "mcp-flow-load", "version": env!("CARGO_PKG_VERSION")},
            });
        }
        let mut request = self.post(&body);
        if self.modern {
            request = request
                .header("Mcp-Method", "tools/call")
                .header("Mcp-Name", &call.tool);
        }
        let response = request
            .send()
            .await
            .map_err(|e| format!("tools/call: {e}"))?;
        let answer = read_answer(response, id).await?;
        if let Some(error) = answer.get("error") {
            return Err(format!("tools/call: JSON-RPC error {error}"));
        }
        let text = answer
            .pointer("/result/content/0/text")
            .and_then(Value::as_str)
            .unwrap_or("");
        match &call.expect {
            Some(want) if text != want => {
                Err(format!("tools/call: expected {want:?}, got {answer}"))
            }
            _ => Ok(()),
        }
    }

    /// DELETE the session (servers without sessions are left alone).
    pub async fn close(&self) {
        if let Some(id) = &self.id {
            let _ = self
                .http
                .delete(&self.url)
                .header("Mcp-Session-Id", id)
                .header("MCP-Protocol-Version", &self.version)
                .send()
                .await;
        }
    }
}

/// The JSON-RPC response with `id`, from a JSON body or an SSE stream.
async fn read_answer(response: reqwest::Response, id: u64) -> Result<Value, String> {
    let status = response.status();
    let sse = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let text = response
        .text()
        .await
        .map_err(|e| format!("reading the body: {e}"))?;
    if !status.is_success() {
        return Err(format!(
            "HTTP {status}: {}",
            text.chars().take(200).collect::<String>()
        ));
    }
    answer_in(&text, sse, id)
}

/// The JSON-RPC response with `id` in a body: the JSON object, or the data of one of the SSE
/// events. Only events ended by their blank line count, as the SSE specification says: a
/// stream that stops inside an event has not delivered it.
fn answer_in(text: &str, sse: bool, id: u64) -> Result<Value, String> {
    let (messages, unfinished): (Vec<Value>, _) = if sse {
        let parsed = mcp_flow_sse::parse(text.as_bytes());
        let messages = parsed
            .events
            .iter()
            .filter(|e| !e.is_empty())
            .filter_map(|e| serde_json::from_str(&e.data).ok())
            .collect();
        (messages, parsed.unfinished)
    } else {
        let message = serde_json::from_str(text).map_err(|e| format!("not JSON ({e}): {text}"))?;
        (vec![message], None)
    };
    messages
        .into_iter()
        .find(|m| m.get("id").and_then(Value::as_u64) == Some(id))
        .ok_or_else(|| match unfinished {
            Some(part) => {
                format!("no response with id {id}; the stream ended inside an event: {part}")
            }
            None => format!("no response with id {id} in: {text}"),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_events_are_split_and_priming_events_are_skipped() {
        let text = "id: 0\nretry: 3000\ndata:\n\nid: 1\ndata: {\"id\":1}\n\n\
                    data: {\"id\":\ndata: 2}\n\n";
        assert_eq!(answer_in(text, true, 1), Ok(json!({"id": 1})));
        assert_eq!(answer_in(text, true, 2), Ok(json!({"id": 2})));
        assert_eq!(answer_in("{\"id\":3}", false, 3), Ok(json!({"id": 3})));
    }

    #[test]
    fn a_response_in_an_unterminated_final_event_is_not_taken() {
        // SSE dispatches an event only on a blank line: a stream that ends right after the
        // response's data line has not delivered it.
        let text = "id: 0\nretry: 3000\ndata:\n\nid: 1\ndata: {\"id\":1,\"result\":{}}\n";
        let err = answer_in(text, true, 1).unwrap_err();
        assert!(err.contains("ended inside an event"), "{err}");
        assert!(err.contains("\"result\""), "{err}");
        assert_eq!(
            answer_in(&format!("{text}\n"), true, 1),
            Ok(json!({"id": 1, "result": {}}))
        );
    }
}
