//! The HTTP+SSE transport (2024-11-05) through the http mode: the upstream's GET stream starts
//! with an `endpoint` event naming where to POST, a URL of the upstream the page cannot reach.
//! The bridge gives the page its own URL for it instead (its endpoint with `?endpoint=N`) and
//! forwards POSTs there to the announced upstream URL: only URLs the upstream itself announced,
//! on its own origin, so the bridge stays no open proxy.

use std::{
    collections::VecDeque,
    pin::Pin,
    sync::Mutex,
    task::{Context, Poll},
};

use axum::body::Bytes;
use futures::{Stream, StreamExt, stream::BoxStream};

/// Announced endpoints kept (the oldest are forgotten first).
const KEPT: usize = 1024;
/// The most of a stream's start held back while its first event is read.
const FIRST_EVENT_LIMIT: usize = 64 * 1024;
/// The query parameter that names an announced endpoint.
pub const PARAM: &str = "endpoint";

/// The upstream URLs announced by `endpoint` events, numbered in order.
#[derive(Default)]
pub struct Announced {
    urls: Mutex<(u64, VecDeque<(u64, reqwest::Url)>)>,
}

impl Announced {
    /// Numbers `url` (a new number each time it is announced).
    fn add(&self, url: reqwest::Url) -> u64 {
        let mut urls = self
            .urls
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let number = urls.0;
        urls.0 += 1;
        urls.1.push_back((number, url));
        if urls.1.len() > KEPT {
            urls.1.pop_front();
        }
        number
    }

    /// The upstream URL announced as `number`.
    pub fn get(&self, number: &str) -> Option<reqwest::Url> {
        let number: u64 = number.parse().ok()?;
        let urls = self
            .urls
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        urls.1
            .iter()
            .find(|(n, _)| *n == number)
            .map(|(_, url)| url.clone())
    }
}

/// The first event of `head` (its lines, without the blank line that ends it) with an `endpoint` event's data
/// replaced by the bridge's own URL for it; `None` when it is no such event, or names a URL of
/// another origin than `upstream` (passed on unchanged: the page refuses it).
pub fn rewrite_first_event(
    head: &str,
    upstream: &reqwest::Url,
    own_path: &str,
    announced: &Announced,
) -> Option<String> {
    let lines: Vec<&str> = head.lines().collect();
    let field = |line: &str, name: &str| -> Option<String> {
        let rest = line.strip_prefix(name)?.strip_prefix(':')?;
        Some(rest.strip_prefix(' ').unwrap_or(rest).to_owned())
    };
    let is_endpoint = lines
        .iter()
        .any(|l| field(l, "event").as_deref() == Some("endpoint"));
    if !is_endpoint {
        return None;
    }
    let data: Vec<String> = lines.iter().filter_map(|l| field(l, "data")).collect();
    let target = upstream.join(data.join("\n").trim()).ok()?;
    if target.origin() != upstream.origin() {
        return None;
    }
    let number = announced.add(target);
    let mut out: Vec<String> = lines
        .iter()
        .filter(|l| field(l, "data").is_none())
        .map(|l| (*l).to_owned())
        .collect();
    out.push(format!("data: {own_path}?{PARAM}={number}"));
    Some(out.join("\n"))
}

/// A GET stream on its way to the page, its first event rewritten if it is an `endpoint`
/// event (see [`rewrite_first_event`]); everything after passes as it comes.
pub struct Rewriting {
    inner: BoxStream<'static, Result<Bytes, std::io::Error>>,
    held: Vec<u8>,
    passing: bool,
    upstream: reqwest::Url,
    own_path: String,
    announced: std::sync::Arc<Announced>,
}

impl Rewriting {
    pub fn new(
        inner: BoxStream<'static, Result<Bytes, std::io::Error>>,
        upstream: reqwest::Url,
        own_path: String,
        announced: std::sync::Arc<Announced>,
    ) -> Self {
        Self {
            inner,
            held: Vec::new(),
            passing: false,
            upstream,
            own_path,
            announced,
        }
    }

    /// The held bytes once the first event is complete (rewritten or not), or too long to hold.
    fn release(&mut self) -> Option<Bytes> {
        let end = blank_line(&self.held);
        if end.is_none() && self.held.len() <= FIRST_EVENT_LIMIT {
            return None;
        }
        self.passing = true;
        let held = std::mem::take(&mut self.held);
        let Some((head_end, rest)) = end else {
            return Some(Bytes::from(held));
        };
        let head = String::from_utf8_lossy(&held[..head_end]).replace('\r', "");
        match rewrite_first_event(&head, &self.upstream, &self.own_path, &self.announced) {
            Some(event) => {
                let mut out = event.into_bytes();
                out.extend_from_slice(b"\n\n");
                out.extend_from_slice(&held[rest..]);
                Some(Bytes::from(out))
            }
            None => Some(Bytes::from(held)),
        }
    }
}

/// Where the first event of `bytes` ends: the end of its last line and the start of what
/// follows the blank line.
fn blank_line(bytes: &[u8]) -> Option<(usize, usize)> {
    (0..bytes.len()).find_map(|i| {
        let at = &bytes[i..];
        if at.starts_with(b"\r\n\r\n") {
            Some((i, i + 4))
        } else if at.starts_with(b"\n\n") || at.starts_with(b"\r\r") {
            Some((i, i + 2))
        } else {
            None
        }
    })
}

impl Stream for Rewriting {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.passing {
            return self.inner.poll_next_unpin(cx);
        }
        loop {
            match self.inner.poll_next_unpin(cx) {
                Poll::Ready(Some(Ok(chunk))) => {
                    self.held.extend_from_slice(&chunk);
                    if let Some(bytes) = self.release() {
                        return Poll::Ready(Some(Ok(bytes)));
                    }
                }
                Poll::Ready(None) if !self.held.is_empty() => {
                    self.passing = true;
                    let held = std::mem::take(&mut self.held);
                    return Poll::Ready(Some(Ok(Bytes::from(held))));
                }
                other => return other,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upstream() -> reqwest::Url {
        reqwest::Url::parse("http://127.0.0.1:3000/mcp").unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn an_endpoint_of_the_upstream_becomes_the_bridges_own() {
        let announced = Announced::default();
        let head = "event: endpoint\ndata: /messages?sessionId=abc";
        let out = rewrite_first_event(head, &upstream(), "/s/k/mcp", &announced);
        assert_eq!(
            out.as_deref(),
            Some("event: endpoint\ndata: /s/k/mcp?endpoint=0")
        );
        assert_eq!(
            announced.get("0").map(String::from),
            Some("http://127.0.0.1:3000/messages?sessionId=abc".to_owned())
        );
        assert_eq!(announced.get("1"), None);
        assert_eq!(announced.get("x"), None);
    }

    #[test]
    fn another_origin_or_another_event_is_left_alone() {
        let announced = Announced::default();
        for head in [
            "event: endpoint\ndata: http://elsewhere.example/messages",
            "event: endpoint\ndata: javascript:alert(1)",
            "event: message\ndata: {}",
            "id: 1\ndata:",
        ] {
            assert_eq!(
                rewrite_first_event(head, &upstream(), "/s/k/mcp", &announced),
                None,
                "{head}"
            );
        }
        assert_eq!(announced.get("0"), None);
    }

    #[test]
    fn the_stream_is_rewritten_across_chunks_and_then_passed_on() {
        let announced = std::sync::Arc::new(Announced::default());
        let chunks: Vec<Result<Bytes, std::io::Error>> = vec![
            Ok(Bytes::from_static(b"event: endpo")),
            Ok(Bytes::from_static(
                b"int\r\ndata: /messages?sessionId=1\r\n\r\nevent: mess",
            )),
            Ok(Bytes::from_static(b"age\ndata: {}\n\n")),
        ];
        let stream = Rewriting::new(
            futures::stream::iter(chunks).boxed(),
            upstream(),
            "/s/k/mcp".into(),
            announced,
        );
        let out: Vec<u8> = futures::executor::block_on(stream.collect::<Vec<_>>())
            .into_iter()
            .flat_map(|chunk| chunk.map(|b| b.to_vec()).unwrap_or_default())
            .collect();
        assert_eq!(
            String::from_utf8_lossy(&out),
            "event: endpoint\ndata: /s/k/mcp?endpoint=0\n\nevent: message\ndata: {}\n\n"
        );
    }
}
