//! A cap on open response streams. Each POST or GET to an MCP endpoint holds a slot until its
//! response body ends (an SSE answer or a GET stream may stay open for long); past the cap for
//! the endpoint, or for one session, the request gets 503 with `Retry-After`, in session and in
//! stateless mode alike.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
};

use axum::{
    body::Body,
    extract::{Request, State},
    http::{Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use http_body_util::BodyExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Open streams by session id.
type Counts = Arc<Mutex<HashMap<String, usize>>>;

#[derive(Clone)]
pub struct StreamCap {
    total: Arc<Semaphore>,
    max_total: usize,
    per_session: usize,
    sessions: Counts,
}

/// One open stream's slot, given back when the response body is dropped.
struct Slot {
    _permit: OwnedSemaphorePermit,
    session: Option<(String, Counts)>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some((id, counts)) = &self.session {
            let mut counts = counts.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(n) = counts.get_mut(id) {
                *n -= 1;
                if *n == 0 {
                    counts.remove(id);
                }
            }
        }
    }
}

/// Why a stream was refused.
#[derive(Debug, PartialEq, Eq)]
enum Full {
    Server(usize),
    Session(usize),
}

impl StreamCap {
    pub fn new(max_total: usize, per_session: usize) -> Self {
        Self {
            total: Arc::new(Semaphore::new(max_total)),
            max_total,
            per_session,
            sessions: Arc::default(),
        }
    }

    fn take(&self, session: Option<&str>) -> Result<Slot, Full> {
        let permit = Arc::clone(&self.total)
            .try_acquire_owned()
            .map_err(|_| Full::Server(self.max_total))?;
        let session = match session {
            Some(id) => {
                let mut counts = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
                let n = counts.entry(id.to_owned()).or_default();
                if *n >= self.per_session {
                    return Err(Full::Session(self.per_session));
                }
                *n += 1;
                Some((id.to_owned(), Arc::clone(&self.sessions)))
            }
            None => None,
        };
        Ok(Slot {
            _permit: permit,
            session,
        })
    }
}

/// Middleware for an MCP endpoint: a slot per POST or GET for as long as its answer streams.
pub async fn cap_streams(State(cap): State<StreamCap>, request: Request, next: Next) -> Response {
    if !matches!(*request.method(), Method::POST | Method::GET) {
        return next.run(request).await;
    }
    let session = request
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok());
    let slot = match cap.take(session) {
        Ok(slot) => slot,
        Err(full) => {
            let why = match full {
                Full::Server(n) => format!("the server has {n} open streams, its limit"),
                Full::Session(n) => format!("this session has {n} open streams, its limit"),
            };
            tracing::warn!(%why, "stream refused");
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                [
                    (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                    (header::RETRY_AFTER, "1"),
                ],
                format!("Service Unavailable: {why}. Close a stream or retry later."),
            )
                .into_response();
        }
    };
    next.run(request).await.map(|body| {
        Body::new(body.map_frame(move |frame| {
            let _held = &slot;
            frame
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_capped_per_session_and_in_all_and_come_back_when_dropped() {
        let cap = StreamCap::new(3, 2);
        let a1 = cap.take(Some("a")).expect("a1");
        let _a2 = cap.take(Some("a")).expect("a2");
        assert_eq!(cap.take(Some("a")).err(), Some(Full::Session(2)));
        let _none = cap.take(None).expect("stateless");
        assert_eq!(cap.take(Some("b")).err(), Some(Full::Server(3)));
        assert_eq!(cap.take(None).err(), Some(Full::Server(3)));
        drop(a1);
        let _a3 = cap.take(Some("a")).expect("a slot came back");
        assert_eq!(cap.sessions.lock().expect("counts")["a"], 2);
    }

    #[test]
    fn a_session_with_no_open_stream_leaves_no_entry() {
        let cap = StreamCap::new(4, 4);
        drop(cap.take(Some("gone")).expect("slot"));
        assert!(cap.sessions.lock().expect("counts").is_empty());
        // A refused session slot gives its server permit back.
        let cap = StreamCap::new(2, 1);
        let _s = cap.take(Some("s")).expect("s");
        assert!(cap.take(Some("s")).is_err());
        let _t = cap
            .take(Some("t"))
            .expect("the refused one's permit came back");
    }
}
