//! `--journal`: every request the server received, in order (HTTP method, path, session id,
//! JSON-RPC method and id), readable as JSON at `GET /journal`. Off unless the flag is given;
//! the test command turns it on where a test must see what a client really sent (for example
//! that a run the user ended sends nothing more, and closes its session).

use std::sync::{Arc, Mutex};

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::Value;

/// The most entries kept; older ones are dropped.
const MAX_ENTRIES: usize = 100_000;

/// One request as it arrived.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// Position in arrival order, from 0.
    pub seq: u64,
    pub http_method: String,
    pub path: String,
    /// The `Mcp-Session-Id` header.
    pub session: Option<String>,
    /// The body's JSON-RPC `method` (absent for responses and for GET/DELETE).
    pub rpc_method: Option<String>,
    /// The body's JSON-RPC `id`.
    pub rpc_id: Option<Value>,
}

#[derive(Clone, Default)]
pub struct Journal {
    entries: Arc<Mutex<(u64, Vec<Entry>)>>,
}

impl Journal {
    fn push(&self, mut entry: Entry) {
        let Ok(mut guard) = self.entries.lock() else {
            return;
        };
        let (next, entries) = &mut *guard;
        entry.seq = *next;
        *next += 1;
        if entries.len() == MAX_ENTRIES {
            entries.remove(0);
        }
        entries.push(entry);
    }

    pub fn entries(&self) -> Vec<Entry> {
        self.entries.lock().map(|g| g.1.clone()).unwrap_or_default()
    }
}

/// `GET /journal`.
pub async fn read(State(journal): State<Journal>) -> Json<Vec<Entry>> {
    Json(journal.entries())
}

/// Middleware: records the request, then passes it on unchanged. Bodies up to `limit` bytes are
/// read to find the JSON-RPC method; a larger one is recorded without it and still passed on
/// (the server's own limit answers it).
pub async fn record(
    State((journal, limit)): State<(Journal, usize)>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let session = parts
        .headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let bytes: Bytes = match axum::body::to_bytes(body, limit).await {
        Ok(bytes) => bytes,
        Err(_) => {
            return (
                axum::http::StatusCode::PAYLOAD_TOO_LARGE,
                "request body too large",
            )
                .into_response();
        }
    };
    let rpc: Option<Value> = serde_json::from_slice(&bytes).ok();
    journal.push(Entry {
        seq: 0,
        http_method: parts.method.to_string(),
        path: parts.uri.path().to_owned(),
        session,
        rpc_method: rpc
            .as_ref()
            .and_then(|v| v.get("method"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        rpc_id: rpc.as_ref().and_then(|v| v.get("id")).cloned(),
    });
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_numbered_in_order_and_capped() {
        let journal = Journal::default();
        let entry = |m: &str| Entry {
            seq: 0,
            http_method: m.into(),
            path: "/mcp".into(),
            session: None,
            rpc_method: None,
            rpc_id: None,
        };
        journal.push(entry("POST"));
        journal.push(entry("DELETE"));
        let all = journal.entries();
        assert_eq!(all.len(), 2);
        assert_eq!((all[0].seq, all[1].seq), (0, 1));
        assert_eq!(all[1].http_method, "DELETE");
    }
}
