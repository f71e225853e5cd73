//! One MCP session of the watched host: its exchanges as the record's, its messages on the rows.

use std::collections::HashMap;

use serde_json::Value;

use super::messages::{self, Message};
use super::rows::{Rows, Step};
use crate::diagram::all_rows;
use crate::record::run::{Run, RunEvent};
use mcp_flow_client::era::Era;
use mcp_flow_client::http::HttpRequest;
use mcp_flow_client::record::{Exchange, RecordedEvent, Update, redact};
use mcp_flow_sse::SseParser;
use mcp_flow_wire::META_CLIENT_INFO;

/// An exchange of the feed being read into the session's record.
#[derive(Default)]
struct Reading {
    seq: usize,
    /// Set when the answer is an event stream.
    sse: Option<SseParser>,
    body: String,
    status: Option<u16>,
    /// The session the answer opened (`Mcp-Session-Id` on an `initialize` answer).
    session: Option<String>,
    /// The host's requests this exchange carried.
    asked: Vec<String>,
}

/// What the page lists of a session.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub key: String,
    /// The host's `clientInfo` ("name version"), once it said it.
    pub client: Option<String>,
    pub era: Option<Era>,
    pub messages: usize,
    /// When something of it last passed (so the list notices any change).
    pub last_ms: f64,
    /// The host closed it (DELETE), or the tapped server ended.
    pub ended: bool,
}

/// One session of the watched host.
pub struct WatchedSession {
    pub run: Run,
    rows: Rows,
    readings: HashMap<u64, Reading>,
    summary: Summary,
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// "name version" of the client, from `initialize` or a 2026-07-28 request's `_meta`.
pub(super) fn client_info(message: &Message) -> Option<String> {
    let Message::Request { params, .. } = message else {
        return None;
    };
    let info = params
        .get("clientInfo")
        .or_else(|| params.get("_meta").and_then(|m| m.get(META_CLIENT_INFO)))?;
    let part = |k: &str| {
        info.get(k)
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_owned()
    };
    Some(format!("{} {}", part("name"), part("version")))
}

impl WatchedSession {
    pub fn new(key: String, at_ms: f64) -> Self {
        let mut run = Run::new(all_rows());
        for event in Rows::at_start() {
            run.apply(event);
        }
        Self {
            run,
            rows: Rows::default(),
            readings: HashMap::new(),
            summary: Summary {
                key,
                client: None,
                era: None,
                messages: 0,
                last_ms: at_ms,
                ended: false,
            },
        }
    }

    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    fn apply_all(&mut self, events: Vec<RunEvent>) {
        for event in events {
            self.run.apply(event);
        }
        self.summary.era = self.rows.era();
    }

    fn touch(&mut self, at_ms: f64) {
        self.summary.last_ms = self.summary.last_ms.max(at_ms);
    }

    /// The host's HTTP request `exchange` (feed numbering).
    pub fn request(&mut self, exchange: u64, at_ms: f64, request: Request<'_>) {
        self.touch(at_ms);
        let body = serde_json::from_str::<Value>(request.body.trim()).ok();
        let found = body.as_ref().map(messages::in_value).unwrap_or_default();
        self.summary.messages += found.len();
        if request.method == "DELETE" {
            self.summary.ended = true;
        }
        let x = as_exchange(self.run.mcp.exchanges.len(), &request, body, at_ms);
        let asked = found
            .iter()
            .filter_map(|m| match m {
                Message::Request { id, .. } => Some(id.clone()),
                _ => None,
            })
            .collect();
        self.readings.insert(
            exchange,
            Reading {
                seq: x.seq,
                asked,
                ..Reading::default()
            },
        );
        self.sent(x, &found, at_ms);
    }

    /// Joins `x` to the record with the rows its messages start: the exchange lands on the first
    /// row one of them starts (or on none).
    fn sent(&mut self, x: Exchange, found: &[Message], at_ms: f64) {
        if self.summary.client.is_none() {
            self.summary.client = found.iter().find_map(client_info);
        }
        let steps: Vec<Step> = found
            .iter()
            .map(|m| self.rows.host_sent(m, at_ms))
            .collect();
        let lead = steps.iter().position(Step::starts_a_row);
        let mut after = Vec::new();
        for (i, step) in steps.into_iter().enumerate() {
            self.apply_all(step.before);
            if Some(i) == lead {
                self.run
                    .apply(RunEvent::Mcp(Update::Sent(Box::new(x.clone()))));
            }
            after.extend(step.after);
        }
        if lead.is_none() {
            self.run.mcp.apply(Update::Sent(Box::new(x)));
        }
        self.apply_all(after);
    }

    /// The upstream's status and headers for `exchange`.
    pub fn response(
        &mut self,
        exchange: u64,
        at_ms: f64,
        status: u16,
        headers: &[(String, String)],
    ) {
        self.touch(at_ms);
        let Some(reading) = self.readings.get_mut(&exchange) else {
            return;
        };
        let stream = header(headers, "content-type")
            .is_some_and(|t| t.trim_start().starts_with("text/event-stream"));
        if stream {
            reading.sse = Some(SseParser::new());
        }
        reading.status = Some(status);
        reading.session = header(headers, "mcp-session-id").map(str::to_owned);
        let seq = reading.seq;
        self.run.mcp.apply(Update::Headers {
            seq,
            at_ms,
            status,
            headers: redact(headers),
        });
    }

    /// A piece of `exchange`'s answer as it arrived.
    pub fn chunk(&mut self, exchange: u64, at_ms: f64, text: &str) {
        self.touch(at_ms);
        let Some(reading) = self.readings.get_mut(&exchange) else {
            return;
        };
        let seq = reading.seq;
        let session = reading.session.clone();
        let Some(parser) = reading.sse.as_mut() else {
            reading.body.push_str(text);
            return;
        };
        for event in parser.push(text.as_bytes()) {
            self.run.mcp.apply(Update::Event {
                seq,
                event: RecordedEvent {
                    at_ms,
                    id: event.id.clone(),
                    event: event.event.clone(),
                    data: event.data.clone(),
                    retry: event.retry,
                },
            });
            self.heard(&event.data, at_ms, session.as_deref());
        }
    }

    /// The server's messages in `text`, on the rows.
    fn heard(&mut self, text: &str, at_ms: f64, session: Option<&str>) {
        let found = messages::parse(text);
        self.summary.messages += found.len();
        for message in &found {
            let events = self.rows.server_sent(message, at_ms, session);
            self.apply_all(events);
        }
    }

    /// `exchange` ended (with `error` when it broke off).
    pub fn end(&mut self, exchange: u64, at_ms: f64, error: Option<&str>) {
        self.touch(at_ms);
        let Some(reading) = self.readings.remove(&exchange) else {
            return;
        };
        if reading.sse.is_none() && !reading.body.is_empty() {
            self.run.mcp.apply(Update::Body {
                seq: reading.seq,
                text: reading.body.clone(),
            });
            self.heard(&reading.body, at_ms, reading.session.as_deref());
        }
        // A 2xx without the answer may still answer on the GET stream (2025-03-26 allows it).
        let why = match (error, reading.status) {
            (Some(error), _) => Some(error.to_owned()),
            (None, Some(status)) if status >= 400 => Some(format!(
                "the server answered HTTP {status} and no JSON-RPC answer"
            )),
            _ => None,
        };
        if let Some(why) = why {
            for id in &reading.asked {
                let events = self.rows.unanswered(id, at_ms, &why);
                self.apply_all(events);
            }
        }
        self.run.mcp.apply(match error {
            Some(error) => Update::Failed {
                seq: reading.seq,
                at_ms,
                error: error.to_owned(),
            },
            None => Update::Done {
                seq: reading.seq,
                at_ms,
            },
        });
    }

    /// A stdio line between the tapped host and its server. Each line of the host's is an
    /// exchange; the server's answer to it joins that exchange, its other lines are exchanges of
    /// their own.
    pub fn line(&mut self, exchange: u64, at_ms: f64, from_host: bool, text: &str) {
        self.touch(at_ms);
        if from_host {
            let key = self.next_line_key(exchange);
            self.request(
                key,
                at_ms,
                Request {
                    method: "stdin",
                    url: "stdio",
                    headers: &[],
                    body: text,
                },
            );
            // A notification or an answer of the host's waits for nothing.
            if self.readings.get(&key).is_some_and(|r| r.asked.is_empty()) {
                self.end(key, at_ms, None);
            }
            return;
        }
        let answers = messages::parse(text).into_iter().find_map(|m| match m {
            Message::Response { id, .. } => Some(id),
            _ => None,
        });
        let opened = answers.and_then(|id| {
            self.readings
                .iter()
                .find(|(_, r)| r.asked.contains(&id))
                .map(|(k, _)| *k)
        });
        match opened {
            Some(key) => {
                self.chunk(key, at_ms, text);
                self.end(key, at_ms, None);
            }
            None => {
                let mut x = as_exchange(
                    self.run.mcp.exchanges.len(),
                    &Request {
                        method: "stdout",
                        url: "stdio",
                        headers: &[],
                        body: "",
                    },
                    None,
                    at_ms,
                );
                x.headers_ms = Some(at_ms);
                x.response_body = Some(text.to_owned());
                x.finished_ms = Some(at_ms);
                self.run.mcp.apply(Update::Sent(Box::new(x)));
                self.heard(text, at_ms, None);
            }
        }
    }

    /// A fresh key for a stdio line's exchange (the tap's number is shared by all its lines).
    fn next_line_key(&self, tap: u64) -> u64 {
        let base = (tap << 32) | self.run.mcp.exchanges.len() as u64;
        (base..)
            .find(|k| !self.readings.contains_key(k))
            .unwrap_or(base)
    }

    /// The tapped server ended.
    pub fn close(&mut self, at_ms: f64) {
        self.touch(at_ms);
        self.summary.ended = true;
    }
}

/// `request` as an exchange of the record (the feed's method in place of the client's own).
fn as_exchange(seq: usize, request: &Request<'_>, rpc: Option<Value>, at_ms: f64) -> Exchange {
    let sent = HttpRequest {
        method: "POST",
        url: request.url.to_owned(),
        headers: request.headers.to_vec(),
        body: (!request.body.is_empty()).then(|| request.body.to_owned()),
    };
    // A batch is named by its first message.
    let first = match rpc {
        Some(Value::Array(mut batch)) if !batch.is_empty() => Some(batch.swap_remove(0)),
        other => other,
    };
    let mut x = Exchange::sent(seq, &sent, first.as_ref(), None, at_ms);
    x.method = request.method.to_owned();
    x
}

/// The host's HTTP request as the feed gave it.
pub struct Request<'a> {
    pub method: &'a str,
    pub url: &'a str,
    pub headers: &'a [(String, String)],
    pub body: &'a str,
}
