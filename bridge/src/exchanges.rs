//! The record of the upstream leg in http mode: each HTTP exchange the bridge made with the
//! upstream (request headers and body, status, response headers, each body chunk with its
//! arrival time), credentials redacted.

use std::{
    collections::VecDeque,
    sync::{Mutex, MutexGuard},
};

use serde::Serialize;

use crate::record::now_ms;

/// Exchanges kept; older ones are forgotten.
pub const EXCHANGES_KEPT: usize = 1000;
/// Request or response body bytes kept per exchange; the rest is counted.
pub const BODY_KEPT_BYTES: usize = 1024 * 1024;
/// Body bytes kept over all exchanges; past it the oldest exchanges are forgotten.
pub const TOTAL_KEPT_BYTES: usize = 64 * 1024 * 1024;

#[derive(Debug, Clone, Serialize)]
pub struct Chunk {
    pub at_ms: f64,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Exchange {
    pub seq: u64,
    pub started_at_ms: f64,
    pub method: String,
    pub url: String,
    /// The MCP session the exchange belongs to, from the request or the response header.
    pub session: Option<String>,
    pub request_headers: Vec<(String, String)>,
    pub request_body: String,
    pub status: Option<u16>,
    pub response_headers: Vec<(String, String)>,
    /// The response body as it arrived.
    pub chunks: Vec<Chunk>,
    /// Body bytes not kept (over [`BODY_KEPT_BYTES`]).
    pub dropped_bytes: u64,
    pub ended_at_ms: Option<f64>,
    /// What went wrong on the upstream leg, if anything.
    pub error: Option<String>,
}

#[derive(Default)]
struct Inner {
    kept: VecDeque<Exchange>,
    next_seq: u64,
    /// Body bytes held by `kept`.
    bytes: usize,
}

impl Inner {
    /// Forgets the oldest exchanges past the limits (the newest always stays).
    fn trim(&mut self) {
        while self.kept.len() > 1
            && (self.kept.len() > EXCHANGES_KEPT || self.bytes > TOTAL_KEPT_BYTES)
        {
            if let Some(old) = self.kept.pop_front() {
                self.bytes = self.bytes.saturating_sub(size(&old));
            }
        }
    }
}

fn size(exchange: &Exchange) -> usize {
    exchange.request_body.len() + exchange.chunks.iter().map(|c| c.text.len()).sum::<usize>()
}

#[derive(Default)]
pub struct Exchanges {
    inner: Mutex<Inner>,
}

impl Exchanges {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn with(&self, seq: u64, change: impl FnOnce(&mut Exchange)) {
        let mut inner = self.lock();
        let Some(exchange) = inner.kept.iter_mut().find(|e| e.seq == seq) else {
            return;
        };
        let before = size(exchange);
        change(exchange);
        let after = size(exchange);
        inner.bytes = inner.bytes.saturating_sub(before) + after;
        inner.trim();
    }

    /// Records a request about to be sent; returns its sequence number.
    pub fn start(
        &self,
        method: &str,
        url: &str,
        session: Option<String>,
        request_headers: Vec<(String, String)>,
        mut request_body: String,
    ) -> u64 {
        let mut dropped_bytes = 0;
        if request_body.len() > BODY_KEPT_BYTES {
            dropped_bytes = request_body.len() as u64;
            request_body = format!("[{} bytes, not kept]", request_body.len());
        }
        let mut inner = self.lock();
        inner.bytes += request_body.len();
        let seq = inner.next_seq;
        inner.next_seq += 1;
        inner.kept.push_back(Exchange {
            seq,
            started_at_ms: now_ms(),
            method: method.to_owned(),
            url: url.to_owned(),
            session,
            request_headers,
            request_body,
            status: None,
            response_headers: Vec::new(),
            chunks: Vec::new(),
            dropped_bytes,
            ended_at_ms: None,
            error: None,
        });
        inner.trim();
        seq
    }

    pub fn respond(&self, seq: u64, status: u16, headers: Vec<(String, String)>) {
        self.with(seq, |exchange| {
            if exchange.session.is_none() {
                exchange.session = headers
                    .iter()
                    .find(|(name, _)| name == "mcp-session-id")
                    .map(|(_, value)| value.clone());
            }
            exchange.status = Some(status);
            exchange.response_headers = headers;
        });
    }

    pub fn chunk(&self, seq: u64, bytes: &[u8]) {
        self.with(seq, |exchange| {
            let kept: usize = exchange.chunks.iter().map(|c| c.text.len()).sum();
            if kept + bytes.len() > BODY_KEPT_BYTES {
                exchange.dropped_bytes += bytes.len() as u64;
                return;
            }
            exchange.chunks.push(Chunk {
                at_ms: now_ms(),
                text: String::from_utf8_lossy(bytes).into_owned(),
            });
        });
    }

    pub fn end(&self, seq: u64, error: Option<String>) {
        self.with(seq, |exchange| {
            if exchange.ended_at_ms.is_none() {
                exchange.ended_at_ms = Some(now_ms());
                exchange.error = error;
            }
        });
    }

    /// Exchanges from `since` on (those still kept).
    pub fn since(&self, since: u64) -> Vec<Exchange> {
        self.lock()
            .kept
            .iter()
            .filter(|exchange| exchange.seq >= since)
            .cloned()
            .collect()
    }

    /// The sequence number the next exchange gets.
    pub fn next_seq(&self) -> u64 {
        self.lock().next_seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exchange_collects_its_answer_in_order() {
        let exchanges = Exchanges::default();
        let seq = exchanges.start("POST", "http://127.0.0.1:9/mcp", None, vec![], "{}".into());
        exchanges.respond(seq, 200, vec![("mcp-session-id".into(), "abc".into())]);
        exchanges.chunk(seq, b"data: 1\n\n");
        exchanges.chunk(seq, b"data: 2\n\n");
        exchanges.end(seq, None);
        let recorded = &exchanges.since(0)[0];
        assert_eq!(recorded.session.as_deref(), Some("abc"));
        assert_eq!(recorded.status, Some(200));
        assert_eq!(recorded.chunks.len(), 2);
        assert!(recorded.chunks[0].at_ms <= recorded.chunks[1].at_ms);
        assert!(recorded.ended_at_ms.is_some());
        assert!(exchanges.since(1).is_empty());
    }

    #[test]
    fn old_exchanges_and_big_bodies_are_bounded() {
        let exchanges = Exchanges::default();
        for _ in 0..EXCHANGES_KEPT + 5 {
            exchanges.start("POST", "u", None, vec![], String::new());
        }
        let kept = exchanges.since(0);
        assert_eq!(kept.len(), EXCHANGES_KEPT);
        assert_eq!(kept[0].seq, 5);
        let last = kept[kept.len() - 1].seq;
        exchanges.chunk(last, &vec![b'x'; BODY_KEPT_BYTES]);
        exchanges.chunk(last, b"more");
        let recorded = exchanges.since(last).remove(0);
        assert_eq!(recorded.dropped_bytes, 4);
    }

    #[test]
    fn the_oldest_exchanges_go_when_the_bodies_pass_the_total() {
        let exchanges = Exchanges::default();
        let body = "x".repeat(BODY_KEPT_BYTES);
        let count = TOTAL_KEPT_BYTES / BODY_KEPT_BYTES + 3;
        for _ in 0..count {
            let seq = exchanges.start("POST", "u", None, vec![], String::new());
            exchanges.chunk(seq, body.as_bytes());
        }
        let kept = exchanges.since(0);
        assert_eq!(kept.len(), TOTAL_KEPT_BYTES / BODY_KEPT_BYTES);
        assert_eq!(
            kept.last().map(|e| e.seq),
            Some(count as u64 - 1),
            "the newest stays"
        );
        let big = exchanges.start("POST", "u", None, vec![], "y".repeat(BODY_KEPT_BYTES + 1));
        let recorded = exchanges.since(big).remove(0);
        assert_eq!(recorded.dropped_bytes, BODY_KEPT_BYTES as u64 + 1);
        assert!(recorded.request_body.contains("not kept"));
    }
}
