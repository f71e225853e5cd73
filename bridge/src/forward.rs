//! The http mode: every request to the bridge's endpoint is forwarded to the one upstream URL
//! fixed on the command line (never an open proxy), without the browser's Origin, Referer and
//! cookies, so an upstream with DNS-rebinding protection or without CORS answers; the answer
//! streams back as it arrives and both are recorded in [`Exchanges`].

use std::{
    collections::HashMap,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
};

use axum::{
    body::{Body, Bytes},
    extract::{Query, State},
    http::{HeaderMap, HeaderName, Method, StatusCode, Uri},
    response::Response,
};
use futures::{Stream, StreamExt, stream::BoxStream};
use mcp_flow_wire::watch::What;

use crate::{
    body::read_body,
    config::Options,
    exchanges::Exchanges,
    feed::Feed,
    jsonrpc::{Failure, Kind, classify},
    old_sse::{self, Announced},
};

/// The upstream and its record.
pub struct Forward {
    pub upstream: reqwest::Url,
    pub options: Options,
    client: reqwest::Client,
    pub exchanges: Arc<Exchanges>,
    /// The upstream's HTTP+SSE endpoints (2024-11-05) the page may POST to through the bridge.
    announced: Arc<Announced>,
    /// With `--watch`: what passes, for a watching page.
    pub feed: Option<Arc<Feed>>,
}

impl Forward {
    pub fn new(
        upstream: reqwest::Url,
        options: Options,
        feed: Option<Arc<Feed>>,
    ) -> Result<Self, String> {
        let client = reqwest::Client::builder()
            // The upstream is fixed: a redirect elsewhere is not followed.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| format!("cannot build the HTTP client: {error}"))?;
        Ok(Self {
            upstream,
            options,
            client,
            exchanges: Arc::default(),
            announced: Arc::default(),
            feed,
        })
    }
}

/// Request headers not passed on: hop-by-hop ones, the browser's identity (Origin, Referer,
/// cookies, `Sec-*`), CORS preflight fields, and `Accept-Encoding` (so recorded bodies stay
/// readable). Host and Content-Length are set for the upstream request.
fn forwards_request_header(name: &HeaderName) -> bool {
    let name = name.as_str();
    !(matches!(
        name,
        "host"
            | "content-length"
            | "connection"
            | "keep-alive"
            | "te"
            | "trailer"
            | "transfer-encoding"
            | "upgrade"
            | "origin"
            | "referer"
            | "cookie"
            | "accept-encoding"
    ) || name.starts_with("proxy-")
        || name.starts_with("sec-")
        || name.starts_with("access-control-"))
}

/// Response headers not passed back: hop-by-hop ones, the length (the body streams), the
/// upstream's cookies (they would land in the page's origin) and its CORS fields (the bridge
/// grants CORS itself, to its allowed origins).
fn forwards_response_header(name: &HeaderName) -> bool {
    let name = name.as_str();
    !(matches!(
        name,
        "content-length"
            | "connection"
            | "keep-alive"
            | "te"
            | "trailer"
            | "transfer-encoding"
            | "upgrade"
            | "set-cookie"
    ) || name.starts_with("proxy-")
        || name.starts_with("access-control-"))
}

/// A header as recorded (and fed to a watching page): credentials replaced.
fn recorded(name: &HeaderName, value: &axum::http::HeaderValue) -> (String, String) {
    let shown = if mcp_flow_wire::is_secret_header(name.as_str()) {
        "[redacted]".to_owned()
    } else {
        String::from_utf8_lossy(value.as_bytes()).into_owned()
    };
    (name.as_str().to_owned(), shown)
}

/// Any method: forwarded to the upstream (or, with `?endpoint=N`, to the HTTP+SSE endpoint the
/// upstream announced as N).
pub async fn forward(
    State(forward): State<Arc<Forward>>,
    method: Method,
    uri: Uri,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let bytes = match read_body(body, &headers, forward.options.max_body()).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let id = match classify(&text) {
        Ok(Kind::Request { id, .. }) => id,
        _ => "null".to_owned(),
    };
    let target = match query.get(old_sse::PARAM) {
        None => forward.upstream.clone(),
        Some(number) => match forward.announced.get(number) {
            Some(url) => url,
            None => {
                return Failure::new(
                    StatusCode::NOT_FOUND,
                    "bridge",
                    "unknown-endpoint",
                    format!(
                        "The upstream announced no HTTP+SSE endpoint {number:?} on this bridge \
                         (or it was forgotten: the bridge keeps the latest 1024)"
                    ),
                )
                .response_for(&id);
            }
        },
    };
    let url = target.as_str().to_owned();

    let mut request = forward.client.request(method.clone(), target);
    let mut sent = Vec::new();
    for (name, value) in &headers {
        if forwards_request_header(name) {
            request = request.header(name, value);
            sent.push(recorded(name, value));
        }
    }
    let session = headers
        .get("mcp-session-id")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let watched = forward.feed.as_ref().map(|feed| {
        (
            Arc::clone(feed),
            What::Request {
                method: method.as_str().to_owned(),
                url: url.clone(),
                headers: sent.clone(),
                body: text.clone(),
            },
        )
    });
    let seq = forward
        .exchanges
        .start(method.as_str(), &url, session.clone(), sent, text);
    let watch = watched.map(|(feed, request)| {
        feed.push(seq, session.clone(), request);
        Watched { feed, session }
    });
    let request = request.body(bytes);

    let timeout = forward.options.timeout();
    let answer = match tokio::time::timeout(timeout, request.send()).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(error)) => {
            let failure = Failure::new(
                StatusCode::BAD_GATEWAY,
                "upstream",
                "unreachable",
                format!("Cannot reach the upstream {url}: {}", chain(&error)),
            );
            forward.exchanges.end(seq, Some(failure.message.clone()));
            if let Some(watch) = &watch {
                watch.end(seq, Some(failure.message.clone()));
            }
            return with_exchange(failure.response_for(&id), seq);
        }
        Err(_) => {
            let failure = Failure::new(
                StatusCode::GATEWAY_TIMEOUT,
                "upstream",
                "timeout",
                format!(
                    "The upstream {url} did not answer within {} s (--timeout)",
                    timeout.as_secs()
                ),
            );
            forward.exchanges.end(seq, Some(failure.message.clone()));
            if let Some(watch) = &watch {
                watch.end(seq, Some(failure.message.clone()));
            }
            return with_exchange(failure.response_for(&id), seq);
        }
    };

    let status = answer.status();
    let mut response = Response::builder()
        .status(status.as_u16())
        .header(EXCHANGE, seq)
        .header(LEG, "upstream")
        .header(UPSTREAM, forward.upstream.as_str());
    let mut received = Vec::new();
    for (name, value) in answer.headers() {
        received.push(recorded(name, value));
        if forwards_response_header(name) {
            response = response.header(name, value);
        }
    }
    let watch = watch.map(|mut watch| {
        let opened = answer
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok());
        if watch.session.is_none() {
            watch.session = opened.map(str::to_owned);
        }
        watch.feed.push(
            seq,
            watch.session.clone(),
            What::Response {
                status: status.as_u16(),
                headers: received.clone(),
            },
        );
        watch
    });
    forward.exchanges.respond(seq, status.as_u16(), received);
    let event_stream = answer
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("text/event-stream"));
    let recorded = Recorded {
        inner: answer.bytes_stream().boxed(),
        exchanges: Arc::clone(&forward.exchanges),
        seq,
        ended: false,
        watch,
    };
    let body = if method == Method::GET && event_stream {
        Body::from_stream(old_sse::Rewriting::new(
            recorded.boxed(),
            forward.upstream.clone(),
            uri.path().to_owned(),
            Arc::clone(&forward.announced),
        ))
    } else {
        Body::from_stream(recorded)
    };
    response.body(body).unwrap_or_else(|error| {
        Failure::new(
            StatusCode::BAD_GATEWAY,
            "upstream",
            "bad-response",
            format!("The upstream's answer cannot be passed on: {error}"),
        )
        .response_for(&id)
    })
}

/// On every answer: the recorded exchange (`legs?since=SEQ`, its `seq`) behind it.
pub const EXCHANGE: HeaderName = HeaderName::from_static("mcp-flow-bridge-exchange");
/// On answers passed on from the upstream: `upstream` (the bridge's own errors carry
/// `error.data.leg` instead).
pub const LEG: HeaderName = HeaderName::from_static("mcp-flow-bridge-leg");
/// On answers passed on from the upstream: its URL, the protected resource a page authorizes
/// for when the upstream asks (its metadata names the upstream, not the bridge).
pub const UPSTREAM: HeaderName = HeaderName::from_static("mcp-flow-bridge-upstream");

fn with_exchange(mut response: Response, seq: u64) -> Response {
    response.headers_mut().insert(EXCHANGE, seq.into());
    response
}

/// An error with its causes, joined.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The feed an exchange goes to, and the session it belongs to.
struct Watched {
    feed: Arc<Feed>,
    session: Option<String>,
}

impl Watched {
    fn end(&self, seq: u64, error: Option<String>) {
        self.feed
            .push(seq, self.session.clone(), What::End { error });
    }
}

/// The upstream's body on its way to the page, each chunk recorded as it passes.
struct Recorded {
    inner: BoxStream<'static, reqwest::Result<Bytes>>,
    exchanges: Arc<Exchanges>,
    seq: u64,
    ended: bool,
    watch: Option<Watched>,
}

impl Recorded {
    fn end(&mut self, error: Option<String>) {
        self.exchanges.end(self.seq, error.clone());
        if let Some(watch) = &self.watch {
            watch.end(self.seq, error);
        }
        self.ended = true;
    }
}

impl Stream for Recorded {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let polled = self.inner.poll_next_unpin(cx);
        match polled {
            Poll::Ready(Some(Ok(chunk))) => {
                self.exchanges.chunk(self.seq, &chunk);
                if let Some(watch) = &self.watch {
                    let text = String::from_utf8_lossy(&chunk).into_owned();
                    watch
                        .feed
                        .push(self.seq, watch.session.clone(), What::Chunk { text });
                }
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(Some(Err(error))) => {
                let message = format!("The upstream's body broke off: {}", chain(&error));
                self.end(Some(message.clone()));
                Poll::Ready(Some(Err(std::io::Error::other(message))))
            }
            Poll::Ready(None) => {
                self.end(None);
                Poll::Ready(None)
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Drop for Recorded {
    fn drop(&mut self) {
        if !self.ended {
            self.end(Some(
                "the client closed the stream before it ended".to_owned(),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browsers_identity_stays_behind() {
        for name in [
            "origin",
            "referer",
            "cookie",
            "host",
            "sec-fetch-mode",
            "accept-encoding",
        ] {
            assert!(
                !forwards_request_header(&HeaderName::from_static(name)),
                "{name}"
            );
        }
        for name in [
            "content-type",
            "accept",
            "mcp-session-id",
            "mcp-protocol-version",
            "mcp-method",
            "mcp-param-units",
            "last-event-id",
            "authorization",
        ] {
            assert!(
                forwards_request_header(&HeaderName::from_static(name)),
                "{name}"
            );
        }
        assert!(!forwards_response_header(&HeaderName::from_static(
            "access-control-allow-origin"
        )));
        assert!(forwards_response_header(&HeaderName::from_static(
            "mcp-session-id"
        )));
    }

    #[test]
    fn credentials_are_not_recorded() {
        for name in ["authorization", "x-api-key", "x-auth-token", "cookie"] {
            let (_, shown) = recorded(
                &HeaderName::from_static(name),
                &axum::http::HeaderValue::from_static("Bearer secret"),
            );
            assert_eq!(shown, "[redacted]", "{name}");
        }
        let (_, shown) = recorded(
            &HeaderName::from_static("mcp-session-id"),
            &axum::http::HeaderValue::from_static("abc"),
        );
        assert_eq!(shown, "abc");
    }
}
