//! Hearing the server outside a request's answer: resource subscriptions in either era. In
//! 2025-11-25 the client opens the session's GET stream and sends `resources/subscribe`; updates
//! come on the GET stream. In 2026-07-28 there is no GET stream: `subscriptions/listen` is a
//! request whose SSE answer stays open, acknowledged first, then carrying the updates. Either
//! stream is read message by message and closed by dropping it (in a browser, the fetch is
//! aborted); every event lands in the record as it comes.

use std::collections::VecDeque;
use std::pin::pin;

use futures_util::future::{Either, select};
use rmcp::model::{
    SubscribeRequestMethod, SubscribeRequestParams, UnsubscribeRequestMethod,
    UnsubscribeRequestParams,
};
use serde_json::{Value, json};

use crate::client::{McpClient, protocol_in_status};
use crate::error::{McpError, TransportError};
use crate::http::{BodyStream, Http, HttpRequest};
use crate::jsonrpc;
use crate::modern;
use crate::sse::{SseEvent, SseParser};
use crate::transport::{MAX_BODY, Transport, essence};

/// A stream the client keeps open to hear the server.
pub struct Listening<B> {
    pub(crate) seq: usize,
    body: B,
    parser: SseParser,
    ready: VecDeque<SseEvent>,
}

/// The notification that acknowledges `subscriptions/listen` (2026-07-28).
pub const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";
/// The notification that says a subscribed resource changed.
pub const UPDATED: &str = "notifications/resources/updated";

/// The notification that says the server's tools changed (2025-11-25).
pub const TOOLS_CHANGED: &str = "notifications/tools/list_changed";

/// The notifications that say the server's resources (and templates) or prompts changed.
pub const RESOURCES_CHANGED: &str = "notifications/resources/list_changed";
pub const PROMPTS_CHANGED: &str = "notifications/prompts/list_changed";

/// Whether `message` says the server's tools changed.
pub fn says_tools_changed(message: &Value) -> bool {
    is_notification(message, TOOLS_CHANGED)
}

/// The list methods whose answers `message` says changed (resources' or prompts').
pub fn lists_changed(message: &Value) -> &'static [&'static str] {
    if is_notification(message, RESOURCES_CHANGED) {
        &["resources/list", "resources/templates/list"]
    } else if is_notification(message, PROMPTS_CHANGED) {
        &["prompts/list"]
    } else {
        &[]
    }
}

/// Whether `message` is the notification `method` (no id).
fn is_notification(message: &Value, method: &str) -> bool {
    message.get("method").and_then(Value::as_str) == Some(method) && message.get("id").is_none()
}

/// The URIs an acknowledgment says the server accepted.
pub fn accepted(ack: &Value) -> Vec<String> {
    crate::jsonrpc::strings(ack.pointer("/params/notifications/resourceSubscriptions"))
}

/// Whether `message` says that `uri` was updated.
pub fn is_update_of(message: &Value, uri: &str) -> bool {
    message.get("method").and_then(Value::as_str) == Some(UPDATED)
        && message.pointer("/params/uri").and_then(Value::as_str) == Some(uri)
}

impl<H: Http> Transport<H> {
    /// Sends `request` and keeps its answer open if it is an event stream; otherwise reads the
    /// whole answer: a 2xx body comes back as `Err(Ok(body))` (a JSON answer, no stream), any
    /// other status as an error.
    pub(crate) async fn open(
        &self,
        request: HttpRequest,
        rpc: Option<&Value>,
    ) -> Result<Result<Listening<H::Body>, String>, TransportError> {
        let get = request.method == "GET";
        let (seq, mut response) = self.send(request, rpc).await?;
        let status = response.status;
        let content_type = essence(response.header("content-type").unwrap_or(""));
        if status == 200 && content_type == "text/event-stream" {
            return Ok(Ok(Listening {
                seq,
                body: response.body,
                parser: SseParser::new(),
                ready: VecDeque::new(),
            }));
        }
        let body = self.read_text(seq, &mut response.body).await?;
        if (200..300).contains(&status) {
            self.done(seq);
            return Ok(Err(body));
        }
        let err = TransportError::Status { status, body };
        if get && status == 405 {
            // A server without a GET stream says so with 405: an answer, not a failure.
            self.done(seq);
        } else {
            self.fail(seq, &err);
        }
        Err(err)
    }

    /// The next JSON-RPC message on `stream` (the empty priming event skipped); `None` once the
    /// server ended the stream.
    pub async fn next_message(
        &self,
        stream: &mut Listening<H::Body>,
    ) -> Result<Option<Value>, TransportError> {
        while let Some(event) = self.next_event(stream).await? {
            if let Some(message) = self.take_event(stream.seq, event)? {
                return Ok(Some(message));
            }
        }
        Ok(None)
    }

    /// The next event on `stream`, not yet recorded; `None` once the server ended the stream
    /// (its exchange is then done). Dropping this future loses nothing: a chunk is only taken
    /// once it has arrived.
    pub(crate) async fn next_event(
        &self,
        stream: &mut Listening<H::Body>,
    ) -> Result<Option<SseEvent>, TransportError> {
        let mut pending = 0;
        loop {
            if let Some(event) = stream.ready.pop_front() {
                return Ok(Some(event));
            }
            match stream.body.chunk().await {
                Ok(Some(chunk)) => {
                    let events = stream.parser.push(&chunk);
                    pending = if events.is_empty() {
                        pending + chunk.len()
                    } else {
                        0
                    };
                    if pending > MAX_BODY {
                        let err = TransportError::TooLarge { limit: MAX_BODY };
                        self.fail(stream.seq, &err);
                        return Err(err);
                    }
                    stream.ready.extend(events);
                }
                Ok(None) => {
                    self.done(stream.seq);
                    return Ok(None);
                }
                Err(detail) => {
                    let err = TransportError::Stream { detail };
                    self.fail(stream.seq, &err);
                    return Err(err);
                }
            }
        }
    }

    /// Closes `stream`: the record marks its exchange finished, then dropping the body aborts
    /// the request.
    pub fn close(&self, stream: Listening<H::Body>) {
        self.done(stream.seq);
        drop(stream);
    }
}

impl<H: Http> McpClient<H> {
    /// 2025-11-25: opens the session's GET stream, where the server sends what belongs to no
    /// request (resource updates among them).
    pub async fn open_stream(&self) -> Result<Listening<H::Body>, McpError> {
        let t = &self.transport;
        let request = HttpRequest {
            method: "GET",
            url: t.url.clone(),
            headers: t.headers("text/event-stream", false),
            body: None,
        };
        match t.open(request, None).await? {
            Ok(stream) => Ok(stream),
            Err(body) => Err(McpError::Invalid(format!(
                "the GET stream was answered without an event stream: {}",
                crate::error::clip(&body, 200)
            ))),
        }
    }

    /// 2025-11-25: `resources/subscribe` to `uri`.
    pub async fn subscribe(&self, uri: &str) -> Result<Value, McpError> {
        self.request(SubscribeRequestMethod, &SubscribeRequestParams::new(uri))
            .await
    }

    /// 2025-11-25: `resources/unsubscribe` from `uri`.
    pub async fn unsubscribe(&self, uri: &str) -> Result<Value, McpError> {
        self.request(
            UnsubscribeRequestMethod,
            &UnsubscribeRequestParams::new(uri),
        )
        .await
    }

    /// 2026-07-28: `subscriptions/listen` for updates of `uris`; its answer stays open. A server
    /// that answers with JSON (an error) gets that error back.
    pub async fn listen(&self, uris: &[String]) -> Result<Listening<H::Body>, McpError> {
        let version = self.modern_version.borrow().clone();
        let method = "subscriptions/listen";
        let params = modern::with_meta(
            json!({"notifications": {"resourceSubscriptions": uris}}),
            modern::meta(&version, None, self.capabilities()),
        );
        let mut headers = self.transport.headers(crate::transport::ACCEPT_POST, true);
        headers.extend(modern::headers(&version, method, &params, &[]));
        let message = jsonrpc::request_for(self.next_id(), method, &params);
        let request = HttpRequest {
            method: "POST",
            url: self.transport.url.clone(),
            headers,
            body: Some(message.to_string()),
        };
        let opened = self
            .transport
            .open(request, Some(&message))
            .await
            .map_err(|e| protocol_in_status(e.into()))?;
        match opened {
            Ok(stream) => Ok(stream),
            Err(body) => {
                let answer = serde_json::from_str::<Value>(&body).map_err(|e| {
                    McpError::Invalid(format!("subscriptions/listen answered {body:?}: {e}"))
                })?;
                self.expect_result(crate::transport::Posted::Json(answer))
                    .and_then(|result| {
                        Err(McpError::Invalid(format!(
                            "subscriptions/listen answered with a result, not a stream: {result}"
                        )))
                    })
            }
        }
    }

    /// The next message on `stream` within `ms`: `Ok(None)` when the server ended the stream,
    /// a timeout error when nothing came in time.
    pub async fn next_on(
        &self,
        stream: &mut Listening<H::Body>,
        ms: u32,
    ) -> Result<Option<Value>, McpError> {
        let next = pin!(self.transport.next_message(stream));
        let timer = pin!(self.transport.clock.sleep(ms));
        match select(next, timer).await {
            Either::Left((message, _)) => Ok(message?),
            Either::Right(((), _)) => Err(TransportError::Timeout { ms }.into()),
        }
    }

    /// Closes a stream this client opened.
    pub fn close_stream(&self, stream: Listening<H::Body>) {
        self.transport.close(stream);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_acknowledgment_says_which_uris_were_accepted() {
        let ack = json!({"jsonrpc": "2.0", "method": ACKNOWLEDGED, "params": {"notifications":
            {"resourceSubscriptions": ["weather://city/Tokyo", 3]}}});
        assert_eq!(accepted(&ack), ["weather://city/Tokyo"]);
        assert!(accepted(&json!({"method": ACKNOWLEDGED})).is_empty());
    }

    #[test]
    fn only_the_notification_says_the_tools_changed() {
        assert!(says_tools_changed(
            &json!({"jsonrpc": "2.0", "method": TOOLS_CHANGED})
        ));
        assert!(!says_tools_changed(
            &json!({"jsonrpc": "2.0", "id": 1, "method": TOOLS_CHANGED})
        ));
        assert!(!says_tools_changed(
            &json!({"method": "notifications/resources/list_changed"})
        ));
    }

    #[test]
    fn a_list_change_names_the_lists_to_ask_again() {
        let said = |method: &str| lists_changed(&json!({"jsonrpc": "2.0", "method": method}));
        assert_eq!(
            said(RESOURCES_CHANGED),
            ["resources/list", "resources/templates/list"]
        );
        assert_eq!(said(PROMPTS_CHANGED), ["prompts/list"]);
        assert!(said(TOOLS_CHANGED).is_empty());
        assert!(lists_changed(&json!({"id": 1, "method": PROMPTS_CHANGED})).is_empty());
    }

    #[test]
    fn an_update_is_of_one_uri() {
        let update = json!({"method": UPDATED, "params": {"uri": "weather://city/Tokyo"}});
        assert!(is_update_of(&update, "weather://city/Tokyo"));
        assert!(!is_update_of(&update, "weather://city/Paris"));
        assert!(!is_update_of(
            &json!({"method": "notifications/message"}),
            "x"
        ));
    }
}
