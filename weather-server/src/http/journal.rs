//! `--journal`: every request the server received, in order (HTTP method, path, session id,
//! JSON-RPC method and id), readable as JSON at `GET /journal`. Off unless the flag is given;
//! the test command turns it on where a test must see what a client really sent (for example
//! that a run the user ended sends nothing more, and closes its session). Under `--auth`, each
//! entry names the client whose token sent it, and a reader sees only its own client's.

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
    /// Under `--auth`: the client whose token the request carried (none: no valid token).
    #[serde(skip)]
    pub client: Option<String>,
}

/// The client a request's valid token belongs to, put on the request (for the reader) and on
/// the response (for the record) by the `/mcp` guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller(pub String);

#[derive(Clone, Default)]
pub struct Journal {
    entries: Arc<Mutex<(u64, Vec<Entry>)>>,
}

impl Journal {
    /// Adds `entry` in arrival order; its number.
    fn push(&self, mut entry: Entry) -> u64 {
        let Ok(mut guard) = self.entries.lock() else {
            return 0;
        };
        let (next, entries) = &mut *guard;
        entry.seq = *next;
        *next += 1;
        if entries.len() == MAX_ENTRIES {
            entries.remove(0);
        }
        entries.push(entry);
        *next - 1
    }

    /// Names the client that sent entry `seq`, once its token was checked.
    fn sent_by(&self, seq: u64, client: &str) {
        let Ok(mut guard) = self.entries.lock() else {
            return;
        };
        if let Ok(at) = guard.1.binary_search_by_key(&seq, |e| e.seq) {
            guard.1[at].client = Some(client.to_owned());
        }
    }

    pub fn entries(&self) -> Vec<Entry> {
        self.entries.lock().map(|g| g.1.clone()).unwrap_or_default()
    }

    /// What `caller` may read: everything without `--auth`, its own client's entries with it.
    pub fn entries_for(&self, caller: Option<&Caller>) -> Vec<Entry> {
        let mut entries = self.entries();
        if let Some(Caller(client)) = caller {
            entries.retain(|e| e.client.as_deref() == Some(client));
        }
        entries
    }
}

/// `GET /journal`.
pub async fn read(
    State(journal): State<Journal>,
    caller: Option<axum::Extension<Caller>>,
) -> Json<Vec<Entry>> {
    Json(journal.entries_for(caller.as_ref().map(|c| &c.0)))
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
    let seq = journal.push(Entry {
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
        client: None,
    });
    let response = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    if let Some(Caller(client)) = response.extensions().get::<Caller>() {
        journal.sent_by(seq, client);
    }
    response
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
            client: None,
        };
        journal.push(entry("POST"));
        journal.push(entry("DELETE"));
        let all = journal.entries();
        assert_eq!(all.len(), 2);
        assert_eq!((all[0].seq, all[1].seq), (0, 1));
        assert_eq!(all[1].http_method, "DELETE");
    }

    #[test]
    fn a_reader_with_a_token_sees_only_its_own_clients_entries() {
        let journal = Journal::default();
        let entry = |session: &str| Entry {
            seq: 0,
            http_method: "POST".into(),
            path: "/mcp".into(),
            session: Some(session.into()),
            rpc_method: None,
            rpc_id: None,
            client: None,
        };
        let mine = journal.push(entry("mine"));
        let theirs = journal.push(entry("theirs"));
        journal.push(entry("nobody's"));
        journal.sent_by(mine, "me");
        journal.sent_by(theirs, "them");
        let seen = journal.entries_for(Some(&Caller("me".into())));
        let sessions: Vec<_> = seen.iter().filter_map(|e| e.session.as_deref()).collect();
        assert_eq!(sessions, ["mine"]);
        assert_eq!(journal.entries_for(None).len(), 3, "without --auth, all");
    }
}
