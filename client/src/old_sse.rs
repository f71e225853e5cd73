//! The HTTP+SSE transport of 2024-11-05, for servers that never moved to Streamable HTTP: the
//! client GETs an event stream whose first event, `endpoint`, names where to POST; every POST is
//! taken with 202 and its response comes back as a `message` event on that one stream. The
//! client falls back to it as the 2025-03-26 transports' "Backwards compatibility" says: when the
//! POST of `initialize` is answered 400, 404 or 405.
//!
//! One stream serves every request, so whichever request is waiting reads it (one at a time),
//! keeps responses to other requests for them, and hands everything else to its listener.

use std::cell::RefCell;
use std::pin::pin;
use std::rc::Rc;

use futures_channel::oneshot;
use futures_util::future::{Either, select};
use futures_util::lock::Mutex;
use serde_json::Value;

use crate::error::TransportError;
use crate::http::{Http, HttpRequest};
use crate::listen::Listening;
use crate::old_sse_link::Wait;
pub use crate::old_sse_link::{OldSse, OpenError, endpoint_url};
use crate::sse::SseEvent;
use crate::transport::{OldSseCode, Posted, Transport};

/// The event that names the POST endpoint.
pub const ENDPOINT_EVENT: &str = "endpoint";
/// The statuses of a POSTed `initialize` after which the old transport is tried.
pub const FALLBACK_STATUSES: [u16; 3] = [400, 404, 405];

impl<H: Http> Transport<H> {
    /// The open HTTP+SSE connection, if this transport speaks the old transport.
    pub fn old_sse(&self) -> Option<Rc<OldSse<H::Body>>> {
        self.old.borrow().clone()
    }

    /// GETs the server's URL for an HTTP+SSE stream and waits for its `endpoint` event, all
    /// within `ms`; from then on every message goes through it.
    pub async fn open_old_sse(&self, ms: u32) -> Result<(), OpenError> {
        let opening = pin!(self.open_old_sse_unbounded());
        let timer = pin!(self.clock.sleep(ms));
        match select(opening, timer).await {
            Either::Left((opened, _)) => opened,
            Either::Right(((), _)) => {
                let err = TransportError::Stream {
                    detail: format!("no event stream with an `endpoint` event within {ms} ms"),
                };
                self.abandon(&err.to_string());
                Err(OpenError::Failed(err))
            }
        }
    }

    async fn open_old_sse_unbounded(&self) -> Result<(), OpenError> {
        let request = HttpRequest {
            method: "GET",
            url: self.url.clone(),
            headers: vec![("Accept".to_owned(), "text/event-stream".to_owned())],
            body: None,
        };
        let mut stream = match self.open(request, None).await {
            Ok(Ok(stream)) => stream,
            Ok(Err(_)) | Err(TransportError::Status { .. } | TransportError::Network { .. }) => {
                return Err(OpenError::NoStream);
            }
            Err(e) => return Err(OpenError::Failed(e)),
        };
        let seq = stream.seq;
        let endpoint = self.first_event(&mut stream).await.and_then(|event| {
            if event.event != ENDPOINT_EVENT {
                return Err(TransportError::BadBody {
                    detail: format!(
                        "an HTTP+SSE stream starts with an `endpoint` event; this one started \
                         with `{}`",
                        event.event
                    ),
                    body: event.data,
                });
            }
            endpoint_url(&self.url, &event.data).map_err(|detail| TransportError::BadBody {
                detail,
                body: event.data.clone(),
            })
        });
        match endpoint {
            Ok(endpoint) => {
                *self.old.borrow_mut() = Some(Rc::new(OldSse {
                    endpoint,
                    stream: Mutex::new(Some(stream)),
                    waiting: RefCell::default(),
                    ended: RefCell::default(),
                }));
                Ok(())
            }
            Err(e) => {
                self.fail(seq, &e);
                Err(OpenError::Failed(e))
            }
        }
    }

    /// The stream's first event with data, recorded (a priming event without data is skipped).
    async fn first_event(
        &self,
        stream: &mut Listening<H::Body>,
    ) -> Result<SseEvent, TransportError> {
        loop {
            let Some(event) = self.next_event(stream).await? else {
                return Err(TransportError::Stream {
                    detail: "the stream ended before its `endpoint` event".into(),
                });
            };
            self.record_event(stream.seq, &event);
            if !event.is_empty() {
                return Ok(event);
            }
        }
    }

    /// Ends the HTTP+SSE connection: its stream is closed (the server ends the session).
    pub fn close_old_sse(&self) {
        let Some(old) = self.old.borrow_mut().take() else {
            return;
        };
        old.end("the client closed the connection");
        if let Some(mut stream) = old.stream.try_lock()
            && let Some(stream) = stream.take()
        {
            self.close(stream);
        }
    }

    /// POSTs `message` to the endpoint; a request's response is read off the stream.
    pub(crate) async fn post_old_sse(
        &self,
        old: &OldSse<H::Body>,
        message: &Value,
        on_message: &mut dyn FnMut(Value),
    ) -> Result<Posted, TransportError> {
        // 2024-11-05 has neither sessions in headers nor the version header.
        let headers = self
            .headers("application/json, text/event-stream", true)
            .into_iter()
            .filter(|(name, _)| {
                !name.eq_ignore_ascii_case("Mcp-Session-Id")
                    && !name.eq_ignore_ascii_case("MCP-Protocol-Version")
            })
            .collect();
        let request = HttpRequest {
            method: "POST",
            url: old.endpoint.clone(),
            headers,
            body: Some(message.to_string()),
        };
        let is_request = message.get("method").is_some() && message.get("id").is_some();
        let key = message.get("id").map(Value::to_string).unwrap_or_default();
        // Waiting before the POST goes: a server may answer on the stream before its 202.
        let (answer, answered) = oneshot::channel();
        let _wait = is_request.then(|| {
            old.waiting.borrow_mut().insert(key.clone(), answer);
            Wait {
                waiting: &old.waiting,
                key: key.clone(),
            }
        });
        let (seq, mut response) = self.send(request, Some(message)).await?;
        let status = response.status;
        let body = self.read_text(seq, &mut response.body).await?;
        if !(200..300).contains(&status) {
            let err = TransportError::Status { status, body };
            self.fail(seq, &err);
            return Err(err);
        }
        if !is_request {
            self.done(seq);
            return Ok(Posted::Accepted);
        }
        // A server that answers on the POST itself (outside the transport's rules) is taken at
        // its word.
        if let Ok(value) = serde_json::from_str::<Value>(&body)
            && value.get("id").map(Value::to_string).as_deref() == Some(key.as_str())
            && value.get("method").is_none()
        {
            self.done(seq);
            return Ok(Posted::Json(value));
        }
        match self
            .response_from_stream(old, answered, seq, on_message)
            .await
        {
            Ok(value) => Ok(Posted::Sse(value)),
            Err(e) => {
                self.fail(seq, &e);
                Err(e)
            }
        }
    }

    /// Waits for the response `answered` brings, reading the stream while no other request
    /// does; the response is recorded on exchange `seq` (the POST). Responses read for other
    /// waiting requests go to them; everything else is recorded on the stream's exchange and
    /// goes to `on_message`.
    async fn response_from_stream(
        &self,
        old: &OldSse<H::Body>,
        mut answered: oneshot::Receiver<(SseEvent, Value)>,
        seq: usize,
        on_message: &mut dyn FnMut(Value),
    ) -> Result<Value, TransportError> {
        let gone = |old: &OldSse<H::Body>| TransportError::Stream {
            detail: old
                .ended
                .borrow()
                .clone()
                .unwrap_or_else(|| "the HTTP+SSE stream is closed".into()),
        };
        loop {
            let locking = pin!(old.stream.lock());
            let mut guard = match select(&mut answered, locking).await {
                Either::Left((Ok((event, value)), _)) => {
                    self.record_event(seq, &event);
                    self.done(seq);
                    return Ok(value);
                }
                Either::Left((Err(_), _)) => return Err(gone(old)),
                Either::Right((guard, _)) => guard,
            };
            if let Ok(Some((event, value))) = answered.try_recv() {
                self.record_event(seq, &event);
                self.done(seq);
                return Ok(value);
            }
            let Some(stream) = guard.as_mut().filter(|_| old.ended.borrow().is_none()) else {
                return Err(gone(old));
            };
            let event = match self.next_event(stream).await {
                Ok(Some(event)) => event,
                Ok(None) => {
                    old.end("the server ended the HTTP+SSE stream before the response");
                    return Err(gone(old));
                }
                Err(e) => {
                    old.end(&format!("the HTTP+SSE stream broke: {e}"));
                    return Err(e);
                }
            };
            let stream_seq = stream.seq;
            let message = serde_json::from_str::<Value>(&event.data)
                .ok()
                .filter(|_| event.event == "message");
            let Some(message) = message else {
                // A priming event, or one that carries no message: recorded, nothing else.
                self.record_event(stream_seq, &event);
                continue;
            };
            let waiter = (message.get("method").is_none())
                .then(|| message.get("id").map(Value::to_string))
                .flatten()
                .and_then(|id| old.waiting.borrow_mut().remove(&id));
            match waiter {
                Some(waiter) => {
                    if let Err((event, _)) = waiter.send((event, message)) {
                        self.record_event(stream_seq, &event);
                    }
                }
                None => {
                    // A notification, a server request, or a response nobody waits for any
                    // more (its request timed out).
                    self.record_event(stream_seq, &event);
                    on_message(message);
                }
            }
        }
    }
}

/// The code itself: in place on the command line, and where the page's release build fetches it
/// (the page's `legacy_session` module: a server of this transport is rare).
pub fn old_sse_code<H: Http>() -> OldSseCode<H> {
    OldSseCode {
        open: |t, ms| Box::pin(t.open_old_sse(ms)),
        post: |t, old, message, on_message| {
            Box::pin(async move { t.post_old_sse(&old, message, on_message).await })
        },
    }
}
