//! Everything watched: the feed's events routed to their sessions, in the order they came.

use std::collections::HashMap;

use mcp_flow_wire::watch::{Event, Page, What};

use super::messages::{self, Message};
use super::session::{Request, Summary, WatchedSession, client_info};

/// The key of the traffic that belongs to no session (2026-07-28, or a stateless server), when
/// it names no client.
pub const SESSIONLESS: &str = "no session";
/// Sessions kept; past it the oldest is forgotten.
pub const SESSIONS_KEPT: usize = 64;

/// The watched host's sessions, from the feed.
#[derive(Default)]
pub struct Watch {
    sessions: Vec<WatchedSession>,
    /// Feed exchange → its session's key, once known.
    routes: HashMap<u64, String>,
    /// Exchanges that wait to learn their session (an `initialize` until its answer names one).
    waiting: HashMap<u64, Vec<Event>>,
    /// The feed's time of its first event: the record's zero.
    origin_ms: Option<f64>,
    /// Ask the feed from here on.
    pub next: u64,
    /// Events the page asked for that the feed no longer held.
    pub missed: u64,
    /// Events the feed let go, in all.
    pub dropped: u64,
    /// `http` or `stdio`, and what the host reaches through the bridge.
    pub mode: String,
    pub target: String,
    /// Sessions forgotten past [`SESSIONS_KEPT`].
    pub forgotten: usize,
}

/// Whether a request's body opens a session: an `initialize` (its answer names the session).
fn opens_a_session(body: &str) -> bool {
    messages::parse(body)
        .iter()
        .any(|m| matches!(m, Message::Request { method, .. } if method == "initialize"))
}

/// The key of a request without a session: one entry per client that names itself (two modern
/// hosts stay apart; two copies of the same host cannot be told apart without sessions).
fn sessionless_key(body: &str) -> String {
    match messages::parse(body).iter().find_map(client_info) {
        Some(client) => format!("{SESSIONLESS}: {client}"),
        None => SESSIONLESS.to_owned(),
    }
}

impl Watch {
    /// Folds in one answer of the feed.
    pub fn apply(&mut self, page: Page) {
        self.mode = page.mode;
        self.target = page.target;
        self.missed += page.missed;
        self.dropped = page.dropped;
        self.next = self.next.max(page.next);
        for event in page.events {
            self.event(event);
        }
    }

    /// The sessions, in the order they began.
    pub fn sessions(&self) -> impl Iterator<Item = &Summary> {
        self.sessions.iter().map(WatchedSession::summary)
    }

    pub fn session(&self, key: &str) -> Option<&WatchedSession> {
        self.sessions.iter().find(|s| s.summary().key == key)
    }

    /// The session `event` belongs to; `None` when it waits (held until its session is known)
    /// or belongs to nothing the page holds (an exchange whose start the feed let go).
    fn key_of(&mut self, exchange: u64, event: &Event) -> Option<String> {
        match &event.what {
            What::Line { .. } | What::Stderr { .. } | What::Closed { .. } => Some(
                event
                    .session
                    .clone()
                    .unwrap_or_else(|| format!("stdio {exchange}")),
            ),
            _ if self.routes.contains_key(&exchange) => self.routes.get(&exchange).cloned(),
            What::Request { body, .. } => match &event.session {
                Some(session) => Some(session.clone()),
                None if opens_a_session(body) => {
                    self.waiting.insert(exchange, vec![event.clone()]);
                    None
                }
                None => Some(sessionless_key(body)),
            },
            // The answer of a held `initialize` names its session (or ends without one): the
            // held events go first, then this one.
            What::Response { .. } | What::End { .. } if self.waiting.contains_key(&exchange) => {
                let held = self.waiting.remove(&exchange).unwrap_or_default();
                let key = event.session.clone().unwrap_or_else(|| match held.first() {
                    Some(Event {
                        what: What::Request { body, .. },
                        ..
                    }) => sessionless_key(body),
                    _ => SESSIONLESS.to_owned(),
                });
                self.routes.insert(exchange, key.clone());
                for earlier in held {
                    self.event(earlier);
                }
                Some(key)
            }
            _ => {
                if let Some(held) = self.waiting.get_mut(&exchange) {
                    held.push(event.clone());
                }
                None
            }
        }
    }

    fn session_mut(&mut self, key: &str, at_ms: f64) -> &mut WatchedSession {
        let found = self.sessions.iter().position(|s| s.summary().key == key);
        let index = match found {
            Some(index) => index,
            None => {
                if self.sessions.len() >= SESSIONS_KEPT {
                    self.sessions.remove(0);
                    self.forgotten += 1;
                }
                self.sessions
                    .push(WatchedSession::new(key.to_owned(), at_ms));
                self.sessions.len() - 1
            }
        };
        &mut self.sessions[index]
    }

    fn event(&mut self, event: Event) {
        let origin = *self.origin_ms.get_or_insert(event.at_ms);
        let at_ms = event.at_ms - origin;
        let Some(key) = self.key_of(event.exchange, &event) else {
            return;
        };
        // An HTTP exchange's later events follow its first (its `end` lets it go).
        if matches!(
            event.what,
            What::Request { .. } | What::Response { .. } | What::Chunk { .. }
        ) {
            self.routes.insert(event.exchange, key.clone());
        }
        let exchange = event.exchange;
        let session = self.session_mut(&key, at_ms);
        match &event.what {
            What::Request {
                method,
                url,
                headers,
                body,
            } => session.request(
                exchange,
                at_ms,
                Request {
                    method,
                    url,
                    headers,
                    body,
                },
            ),
            What::Response { status, headers } => {
                session.response(exchange, at_ms, *status, headers);
            }
            What::Chunk { text } => session.chunk(exchange, at_ms, text),
            What::End { error } => {
                session.end(exchange, at_ms, error.as_deref());
                self.routes.remove(&exchange);
            }
            What::Line { from_host, text } => session.line(exchange, at_ms, *from_host, text),
            What::Closed { .. } => session.close(at_ms),
            What::Stderr { .. } => {}
        }
    }
}
