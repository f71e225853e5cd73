//! Streamable HTTP (MCP "Transports"): POST for every message, JSON or SSE answers, resuming a
//! broken SSE stream with GET and `Last-Event-ID`, DELETE to end a session. Every exchange is
//! reported to the record as it happens.

use std::cell::{Cell, RefCell};
use std::pin::pin;
use std::rc::Rc;

use rmcp::model::InitializeResultMethod;
use serde_json::Value;

use crate::clock::SharedClock;

use crate::auth::{self, AuthStep, Authorizer, Challenge};
use crate::custom_headers::{CustomHeaders, REDACTED};
use crate::error::{TransportError, clip};
use crate::http::{BodyStream, Http, HttpRequest, HttpResponse};
use crate::jsonrpc;
use crate::old_sse_link::{OldSse, OpenError};
use crate::record::{Exchange, RecordedEvent, ReplayOf, Update};
use crate::sse::SseParser;
use futures_util::future::LocalBoxFuture;

pub const ACCEPT_POST: &str = "application/json, text/event-stream";
/// The header on `mcp-flow-bridge http`'s answers naming the upstream it relays to; the client
/// believes it only from a server on this machine (where the bridge runs).
pub const BRIDGE_UPSTREAM: &str = "mcp-flow-bridge-upstream";
/// How many times a broken SSE stream is resumed before giving up.
const MAX_RESUMES: u32 = 3;
/// Wait before resuming when the server sent no `retry`.
const DEFAULT_RETRY_MS: u64 = 1000;
/// The longest a request of the authorization flow may take.
const AUTH_TIMEOUT_MS: u32 = 30_000;
/// Bodies kept in the record are cut at this size.
pub const MAX_RECORDED_BODY: usize = 1024 * 1024;
/// The most this client reads of one response body, or of one SSE event: more would freeze the
/// page for seconds, or exhaust its memory, before the timeout could fire.
pub const MAX_BODY: usize = 4 * 1024 * 1024;

pub use crate::record::Recorder;

/// The HTTP+SSE transport's code (`old_sse.rs`), which the page fetches when a server first
/// needs it: opening the stream, and a POST whose answer comes on it.
pub struct OldSseCode<H: Http> {
    pub open: OpenOldSse<H>,
    pub post: PostOldSse<H>,
}

/// Opens the HTTP+SSE stream within the milliseconds given.
pub type OpenOldSse<H> =
    for<'a> fn(&'a Transport<H>, u32) -> LocalBoxFuture<'a, Result<(), OpenError>>;

/// POSTs a message to the stream's endpoint; a request's answer is read off the stream.
pub type PostOldSse<H> = for<'a> fn(
    &'a Transport<H>,
    Rc<OldSse<<H as Http>::Body>>,
    &'a Value,
    &'a mut dyn FnMut(Value),
) -> LocalBoxFuture<'a, Result<Posted, TransportError>>;

impl<H: Http> Clone for OldSseCode<H> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<H: Http> Copy for OldSseCode<H> {}

/// Fetches [`OldSseCode`] (the page's split point); why not, when it cannot.
pub type LoadOldSse<H> = fn() -> LocalBoxFuture<'static, Result<OldSseCode<H>, String>>;

/// What a POST came back with.
#[derive(Debug, Clone, PartialEq)]
pub enum Posted {
    /// 202: the server took a notification or response.
    Accepted,
    /// An `application/json` body with the response.
    Json(Value),
    /// A `text/event-stream` that ended with the response.
    Sse(Value),
}

impl Posted {
    pub fn response(self) -> Option<Value> {
        match self {
            Posted::Accepted => None,
            Posted::Json(v) | Posted::Sse(v) => Some(v),
        }
    }
}

/// A whole answer to a request of the authorization flow.
#[derive(Debug, Clone, PartialEq)]
pub struct Fetched {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// The connection's transport as the flow uses it: the MCP server's URL, the run's clock, and
/// whole requests recorded as a step of the flow (one flow for every kind of HTTP client).
pub trait FlowTransport {
    fn url(&self) -> &str;
    /// The protected resource this connection reaches: the MCP server's URL, or, through
    /// `mcp-flow-bridge http`, the upstream it relays to (see [`BRIDGE_UPSTREAM`]).
    fn resource_url(&self) -> String;
    fn now_ms(&self) -> f64;
    fn fetch<'a>(
        &'a self,
        request: HttpRequest,
        step: AuthStep,
    ) -> futures_util::future::LocalBoxFuture<'a, Result<Fetched, TransportError>>;
}

impl<H: Http> FlowTransport for Transport<H> {
    fn url(&self) -> &str {
        &self.url
    }

    fn resource_url(&self) -> String {
        self.upstream().unwrap_or_else(|| self.url.clone())
    }

    fn now_ms(&self) -> f64 {
        self.clock.now_ms()
    }

    fn fetch<'a>(
        &'a self,
        request: HttpRequest,
        step: AuthStep,
    ) -> futures_util::future::LocalBoxFuture<'a, Result<Fetched, TransportError>> {
        Box::pin(Transport::fetch(self, request, step))
    }
}

/// Session state shared by every request of one connection.
pub struct Transport<H: Http> {
    pub http: H,
    /// The run's clock: exchange times, and the wait before resuming a stream.
    pub clock: SharedClock,
    pub url: String,
    session: RefCell<Option<String>>,
    version: RefCell<Option<String>>,
    recorder: Recorder,
    next_seq: Cell<usize>,
    open: RefCell<Vec<usize>>,
    note: RefCell<Option<String>>,
    /// Set for the next exchange when it is the user's replay of an earlier request.
    replay: Cell<Option<ReplayOf>>,
    /// The user's own headers, sent with every request and never recorded.
    custom: RefCell<CustomHeaders>,
    /// Answers 401 and 403 `insufficient_scope` with an authorization; `None`: they are errors.
    auth: RefCell<Option<Rc<Authorizer>>>,
    /// Set for the next exchange when it is a step of the authorization flow.
    auth_next: Cell<Option<AuthStep>>,
    /// Exchanges of the authorization flow: their bodies are recorded without secrets.
    secret: RefCell<Vec<usize>>,
    /// The upstream a bridge on this machine said it relays to ([`BRIDGE_UPSTREAM`]).
    upstream: RefCell<Option<String>>,
    /// The HTTP+SSE connection (2024-11-05), when the server speaks only that (`old_sse.rs`).
    pub(crate) old: RefCell<Option<Rc<OldSse<H::Body>>>>,
    /// The HTTP+SSE code, once fetched, and where to fetch it from (in place without a loader).
    old_code: Cell<Option<OldSseCode<H>>>,
    load_old: Cell<Option<LoadOldSse<H>>>,
}

impl<H: Http> Transport<H> {
    pub fn new(http: H, clock: SharedClock, url: impl Into<String>, recorder: Recorder) -> Self {
        Self {
            http,
            clock,
            url: url.into(),
            session: RefCell::new(None),
            version: RefCell::new(None),
            recorder,
            next_seq: Cell::new(0),
            open: RefCell::new(Vec::new()),
            note: RefCell::new(None),
            replay: Cell::new(None),
            custom: RefCell::new(CustomHeaders::default()),
            auth: RefCell::new(None),
            auth_next: Cell::new(None),
            secret: RefCell::new(Vec::new()),
            upstream: RefCell::new(None),
            old: RefCell::new(None),
            old_code: Cell::new(None),
            load_old: Cell::new(None),
        }
    }

    /// Authorizes when the server asks (`None`: a 401 is an error like any other status).
    pub fn set_authorizer(&self, authorizer: Option<Rc<Authorizer>>) {
        *self.auth.borrow_mut() = authorizer;
    }

    pub fn authorizer(&self) -> Option<Rc<Authorizer>> {
        self.auth.borrow().clone()
    }

    /// Whether an authorization is running (its pace is the user's: no request timeout then).
    pub fn authorizing(&self) -> bool {
        self.auth.borrow().as_ref().is_some_and(|a| a.busy())
    }

    /// The HTTP+SSE code in place (nothing to fetch).
    pub fn set_old_sse_code(&self, code: OldSseCode<H>) {
        self.old_code.set(Some(code));
    }

    /// Where the page fetches the HTTP+SSE code from (its release build holds none in place).
    pub fn set_old_sse_loader(&self, load: LoadOldSse<H>) {
        self.load_old.set(Some(load));
    }

    /// The HTTP+SSE code: fetched once with the loader, in place without one.
    pub async fn old_sse_code(&self) -> Result<OldSseCode<H>, TransportError> {
        if let Some(code) = self.old_code.get() {
            return Ok(code);
        }
        let code = match self.load_old.get() {
            Some(load) => load().await.map_err(|why| TransportError::Stream {
                detail: format!("the HTTP+SSE transport's code could not be fetched: {why}"),
            })?,
            // The command line's client has it in place (`McpClient::new`); the page gives a loader.
            None => {
                return Err(TransportError::Stream {
                    detail: "the HTTP+SSE transport's code is not in this build's run module"
                        .into(),
                });
            }
        };
        self.old_code.set(Some(code));
        Ok(code)
    }

    /// The upstream the bridge at this URL relays to, once one of its answers said so.
    pub fn upstream(&self) -> Option<String> {
        self.upstream.borrow().clone()
    }

    /// Notes a bridge's upstream from an answer's headers, only where a bridge of this machine
    /// really is ([`crate::origin::bridge_upstream`]); anywhere else the header is ignored, and a token stays
    /// with the server that asked for it.
    fn learn_upstream(&self, headers: &[(String, String)]) {
        let named = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(BRIDGE_UPSTREAM))
            .and_then(|(_, named)| crate::origin::bridge_upstream(&self.url, named));
        if let Some(named) = named {
            *self.upstream.borrow_mut() = Some(named);
        }
    }

    pub fn session_id(&self) -> Option<String> {
        self.session.borrow().clone()
    }

    pub fn set_session_id(&self, id: Option<String>) {
        *self.session.borrow_mut() = id;
    }

    /// The negotiated version, sent as `MCP-Protocol-Version` on every later request.
    pub fn set_protocol_version(&self, version: Option<String>) {
        *self.version.borrow_mut() = version;
    }

    /// A note attached to the next exchange (e.g. "retry after 404").
    pub fn note_next(&self, note: impl Into<String>) {
        *self.note.borrow_mut() = Some(note.into());
    }

    /// Marks the next exchange as the user's replay of an earlier request.
    pub fn replay_next(&self, of: ReplayOf) {
        self.replay.set(Some(of));
    }

    /// The headers this connection adds to every request it sends now: the session and the
    /// negotiated version (not the user's own, not content negotiation).
    pub fn connection_headers(&self) -> Vec<(String, String)> {
        self.headers(ACCEPT_POST, true)
            .into_iter()
            .filter(|(name, _)| {
                name.eq_ignore_ascii_case("Mcp-Session-Id")
                    || name.eq_ignore_ascii_case("MCP-Protocol-Version")
            })
            .collect()
    }

    /// Marks every exchange still in flight as failed, e.g. when the caller gave up waiting.
    pub fn abandon(&self, why: &str) {
        let open = std::mem::take(&mut *self.open.borrow_mut());
        for seq in open {
            self.emit(Update::Failed {
                seq,
                at_ms: self.clock.now_ms(),
                error: why.to_owned(),
            });
        }
    }

    pub(super) fn emit(&self, update: Update) {
        (self.recorder)(update);
    }

    pub(super) fn headers(&self, accept: &str, with_body: bool) -> Vec<(String, String)> {
        let mut h = vec![("Accept".to_owned(), accept.to_owned())];
        if with_body {
            h.push(("Content-Type".to_owned(), "application/json".to_owned()));
        }
        if let Some(id) = self.session.borrow().as_ref() {
            h.push(("Mcp-Session-Id".to_owned(), id.clone()));
        }
        if let Some(v) = self.version.borrow().as_ref() {
            h.push(("MCP-Protocol-Version".to_owned(), v.clone()));
        }
        let custom = self.custom.borrow();
        // A user's own Authorization header wins over the flow's token.
        if !custom.names("authorization")
            && let Some(bearer) = self.auth.borrow().as_ref().and_then(|a| a.bearer())
        {
            h.push(("Authorization".to_owned(), bearer));
        }
        h.extend(custom.0.iter().cloned());
        h
    }

    /// Headers the user adds to every request from now on (see [`CustomHeaders`]).
    pub fn set_custom_headers(&self, headers: CustomHeaders) {
        *self.custom.borrow_mut() = headers;
    }

    /// Sends a request and records it; returns its sequence number and the response head.
    pub(super) async fn send(
        &self,
        request: HttpRequest,
        rpc: Option<&Value>,
    ) -> Result<(usize, HttpResponse<H::Body>), TransportError> {
        let seq = self.next_seq.get();
        self.next_seq.set(seq + 1);
        self.open.borrow_mut().push(seq);
        let note = self.note.borrow_mut().take();
        let mut sent = Exchange::sent(seq, &request, rpc, note, self.clock.now_ms());
        sent.replay = self.replay.take();
        let step = self.auth_next.take();
        if let Some(step) = step {
            self.secret.borrow_mut().push(seq);
            sent.auth = Some(step);
            sent.url = auth::redact::url(&sent.url);
            sent.request_body = sent.request_body.as_deref().map(auth::redact::body);
        }
        {
            let custom = self.custom.borrow();
            for (name, value) in &mut sent.request_headers {
                if custom.names(name) {
                    *value = REDACTED.to_owned();
                }
            }
        }
        self.emit(Update::Sent(Box::new(sent)));
        match self.http.send(&request).await {
            Ok(response) => {
                if step.is_none() {
                    self.learn_upstream(&response.headers);
                }
                self.emit(Update::Headers {
                    seq,
                    at_ms: self.clock.now_ms(),
                    status: response.status,
                    // Credentials by name, and the flow's secrets in its URLs, never recorded.
                    headers: crate::record::redact(&if step.is_some() {
                        auth::redact::headers(&response.headers)
                    } else {
                        response.headers.clone()
                    }),
                });
                Ok((seq, response))
            }
            Err(detail) => {
                let err = TransportError::Network {
                    url: request.url.clone(),
                    detail,
                };
                self.fail(seq, &err);
                Err(err)
            }
        }
    }

    pub(super) fn done(&self, seq: usize) {
        self.open.borrow_mut().retain(|s| *s != seq);
        self.emit(Update::Done {
            seq,
            at_ms: self.clock.now_ms(),
        });
    }

    pub(super) fn fail(&self, seq: usize, err: &TransportError) {
        self.open.borrow_mut().retain(|s| *s != seq);
        self.emit(Update::Failed {
            seq,
            at_ms: self.clock.now_ms(),
            error: err.to_string(),
        });
    }

    /// Reads a whole body as text and records it.
    pub(super) async fn read_text(
        &self,
        seq: usize,
        body: &mut H::Body,
    ) -> Result<String, TransportError> {
        let mut bytes = Vec::new();
        loop {
            match body.chunk().await {
                Ok(Some(chunk)) => {
                    bytes.extend_from_slice(&chunk);
                    if bytes.len() > MAX_BODY {
                        let err = TransportError::TooLarge { limit: MAX_BODY };
                        self.record_body(seq, &bytes);
                        self.fail(seq, &err);
                        return Err(err);
                    }
                }
                Ok(None) => break,
                Err(detail) => {
                    let err = TransportError::Stream { detail };
                    self.record_body(seq, &bytes);
                    self.fail(seq, &err);
                    return Err(err);
                }
            }
        }
        self.record_body(seq, &bytes);
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn record_body(&self, seq: usize, bytes: &[u8]) {
        let text = recorded_text(bytes);
        let text = if self.secret.borrow().contains(&seq) {
            auth::redact::body(&text)
        } else {
            text
        };
        self.emit(Update::Body { seq, text });
    }

    /// Sends a request of the authorization flow and reads its whole answer, recorded as
    /// `step` with its secrets redacted.
    pub async fn fetch(
        &self,
        request: HttpRequest,
        step: AuthStep,
    ) -> Result<Fetched, TransportError> {
        self.auth_next.set(Some(step));
        let exchange = pin!(async {
            let (seq, mut response) = self.send(request, None).await?;
            let body = self.read_text(seq, &mut response.body).await?;
            self.done(seq);
            Ok(Fetched {
                status: response.status,
                headers: response.headers,
                body,
            })
        });
        let timer = pin!(self.clock.sleep(AUTH_TIMEOUT_MS));
        match futures_util::future::select(exchange, timer).await {
            futures_util::future::Either::Left((result, _)) => result,
            futures_util::future::Either::Right(((), _)) => {
                let err = TransportError::Timeout {
                    ms: AUTH_TIMEOUT_MS,
                };
                self.abandon(&err.to_string());
                Err(err)
            }
        }
    }

    /// POSTs one JSON-RPC message. Messages that arrive on an SSE answer before the response
    /// (notifications, server requests) go to `on_message` in order, as they arrive.
    pub async fn post(
        &self,
        message: &Value,
        on_message: &mut dyn FnMut(Value),
    ) -> Result<Posted, TransportError> {
        self.post_with(message, Vec::new(), on_message).await
    }

    /// [`Transport::post`] with more request headers (the modern era's metadata headers).
    pub async fn post_with(
        &self,
        message: &Value,
        extra_headers: Vec<(String, String)>,
        on_message: &mut dyn FnMut(Value),
    ) -> Result<Posted, TransportError> {
        if let Some(old) = self.old_sse() {
            let code = self.old_sse_code().await?;
            return (code.post)(self, old, message, on_message).await;
        }
        let authorizer = self.authorizer();
        let (seq, mut response) = loop {
            if let Some(auth) = &authorizer {
                auth.refresh_if_expired(self).await;
            }
            let mut headers = self.headers(ACCEPT_POST, true);
            headers.extend(extra_headers.iter().cloned());
            let request = HttpRequest {
                method: "POST",
                url: self.url.clone(),
                headers,
                body: Some(message.to_string()),
            };
            let (seq, mut response) = self.send(request, Some(message)).await?;
            let status = response.status;
            let challenge = match Challenge::from_headers(&response.headers) {
                Some(c) if status == 401 || (status == 403 && c.insufficient_scope()) => Some(c),
                // A 401 with no challenge the client can read (none sent, or a CORS answer that
                // does not expose WWW-Authenticate): the well-known metadata is the way left.
                None if status == 401 => Some(Challenge::default()),
                _ => None,
            };
            let (Some(auth), Some(challenge)) = (&authorizer, challenge) else {
                if let Some(auth) = &authorizer
                    && (200..300).contains(&status)
                {
                    auth.accepted();
                }
                break (seq, response);
            };
            self.read_text(seq, &mut response.body).await?;
            self.done(seq);
            auth.on_challenge(self, status, &challenge)
                .await
                .map_err(TransportError::Auth)?;
            self.note_next(format!(
                "again after HTTP {status}, with the access token the authorization gave"
            ));
        };
        let status = response.status;
        if status == 202 {
            self.read_text(seq, &mut response.body).await?;
            self.done(seq);
            return Ok(Posted::Accepted);
        }
        if message.get("id").is_none() && (200..300).contains(&status) {
            // A notification must be answered with 202; anything else 2xx is still an acceptance,
            // but the record shows what came.
            self.read_text(seq, &mut response.body).await?;
            self.done(seq);
            return Ok(Posted::Accepted);
        }
        if !(200..300).contains(&status) {
            let body = self.read_text(seq, &mut response.body).await?;
            let err = TransportError::Status { status, body };
            self.fail(seq, &err);
            return Err(err);
        }
        if status == 200
            && let Some(id) = response.header("mcp-session-id")
            && jsonrpc::is(message, InitializeResultMethod)
        {
            self.set_session_id(Some(id.to_owned()));
        }
        let content_type = essence(response.header("content-type").unwrap_or(""));
        match content_type.as_str() {
            "application/json" => {
                let body = self.read_text(seq, &mut response.body).await?;
                match serde_json::from_str::<Value>(&body) {
                    Ok(value) if value.is_object() => {
                        self.done(seq);
                        Ok(Posted::Json(value))
                    }
                    Ok(_) => {
                        let err = TransportError::BadBody {
                            detail: "expected a JSON-RPC object".into(),
                            body,
                        };
                        self.fail(seq, &err);
                        Err(err)
                    }
                    Err(e) => {
                        let err = TransportError::BadBody {
                            detail: e.to_string(),
                            body,
                        };
                        self.fail(seq, &err);
                        Err(err)
                    }
                }
            }
            "text/event-stream" => {
                let id = message.get("id").cloned().unwrap_or(Value::Null);
                self.read_sse(seq, response.body, &id, on_message).await
            }
            _ => {
                let body = self.read_text(seq, &mut response.body).await?;
                let err = TransportError::ContentType {
                    status,
                    content_type,
                    body,
                };
                self.fail(seq, &err);
                Err(err)
            }
        }
    }

    /// Records an SSE event of exchange `seq` and reads its JSON-RPC message (`None`: an empty,
    /// priming event). Data that is not JSON fails the exchange.
    pub(super) fn take_event(
        &self,
        seq: usize,
        event: crate::sse::SseEvent,
    ) -> Result<Option<Value>, TransportError> {
        self.record_event(seq, &event);
        if event.is_empty() {
            return Ok(None);
        }
        match serde_json::from_str(&event.data) {
            Ok(value) => Ok(Some(value)),
            Err(e) => {
                let err = TransportError::BadBody {
                    detail: format!("SSE event data is not JSON: {e}"),
                    body: event.data,
                };
                self.fail(seq, &err);
                Err(err)
            }
        }
    }

    /// Records an SSE event as part of exchange `seq`, as it arrived.
    pub(super) fn record_event(&self, seq: usize, event: &crate::sse::SseEvent) {
        self.emit(Update::Event {
            seq,
            event: RecordedEvent {
                at_ms: self.clock.now_ms(),
                id: event.id.clone(),
                event: event.event.clone(),
                data: event.data.clone(),
                retry: event.retry,
            },
        });
    }

    /// Reads an SSE answer until the response to `id` arrives, resuming with GET if it breaks.
    async fn read_sse(
        &self,
        mut seq: usize,
        mut body: H::Body,
        id: &Value,
        on_message: &mut dyn FnMut(Value),
    ) -> Result<Posted, TransportError> {
        let mut parser = SseParser::new();
        let mut retry_ms = DEFAULT_RETRY_MS;
        let mut resumes = 0;
        loop {
            // Bytes read since the last complete event (counted by chunks).
            let mut pending = 0;
            let broke = loop {
                match body.chunk().await {
                    Ok(Some(chunk)) => {
                        let events = parser.push(&chunk);
                        pending = if events.is_empty() {
                            pending + chunk.len()
                        } else {
                            0
                        };
                        if pending > MAX_BODY {
                            let err = TransportError::TooLarge { limit: MAX_BODY };
                            self.fail(seq, &err);
                            return Err(err);
                        }
                        for event in events {
                            if let Some(r) = event.retry {
                                retry_ms = r;
                            }
                            let Some(value) = self.take_event(seq, event)? else {
                                continue;
                            };
                            if is_response_to(&value, id) {
                                self.done(seq);
                                return Ok(Posted::Sse(value));
                            }
                            on_message(value);
                        }
                    }
                    Ok(None) => break "the stream ended before the response".to_owned(),
                    Err(e) => break e,
                }
            };
            // What came of an event the break cut off, so the record shows it.
            let broke = match parser.unfinished() {
                Some(part) => format!(
                    "{broke}, in the middle of an event (discarded: {})",
                    clip(&part.replace('\n', "\\n"), 200)
                ),
                None => broke,
            };
            parser.finish();
            let Some(last_id) = parser.last_event_id().map(str::to_owned) else {
                let err = TransportError::Stream {
                    detail: format!("{broke}, and it carried no event id to resume from"),
                };
                self.fail(seq, &err);
                return Err(err);
            };
            if resumes == MAX_RESUMES {
                let err = TransportError::Stream {
                    detail: format!("{broke}; gave up after {MAX_RESUMES} resumptions"),
                };
                self.fail(seq, &err);
                return Err(err);
            }
            self.done(seq);
            resumes += 1;
            self.clock.sleep(retry_ms.min(60_000) as u32).await;
            let mut headers = self.headers("text/event-stream", false);
            headers.push(("Last-Event-ID".to_owned(), last_id.clone()));
            self.note_next(format!(
                "resume {resumes}: the stream broke ({broke}); GET with Last-Event-ID {last_id} \
                 after waiting {retry_ms} ms"
            ));
            let (next, mut response) = self
                .send(
                    HttpRequest {
                        method: "GET",
                        url: self.url.clone(),
                        headers,
                        body: None,
                    },
                    None,
                )
                .await?;
            if response.status != 200
                || essence(response.header("content-type").unwrap_or("")) != "text/event-stream"
            {
                let status = response.status;
                let body = self.read_text(next, &mut response.body).await?;
                let err = TransportError::Status { status, body };
                self.fail(next, &err);
                return Err(err);
            }
            seq = next;
            body = response.body;
        }
    }

    /// The DELETE that ends this connection's session, if it has one.
    pub fn delete_request(&self) -> Option<HttpRequest> {
        self.session.borrow().as_ref()?;
        Some(HttpRequest {
            method: "DELETE",
            url: self.url.clone(),
            headers: self.headers(ACCEPT_POST, false),
            body: None,
        })
    }

    /// DELETE the session (MCP "Session Management"). A 405 means the server does not allow
    /// clients to end sessions, which is fine.
    pub async fn delete_session(&self) -> Result<u16, TransportError> {
        let Some(request) = self.delete_request() else {
            return Ok(0);
        };
        let (seq, mut response) = self.send(request, None).await?;
        let status = response.status;
        let body = self.read_text(seq, &mut response.body).await?;
        if (200..300).contains(&status) || status == 405 || status == 404 {
            self.done(seq);
            self.set_session_id(None);
            Ok(status)
        } else {
            let err = TransportError::Status { status, body };
            self.fail(seq, &err);
            Err(err)
        }
    }
}

/// A body as the record keeps it: text, cut at [`MAX_RECORDED_BODY`] bytes with a note of what
/// was left out.
pub fn recorded_text(bytes: &[u8]) -> String {
    let mut text =
        String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_RECORDED_BODY)]).into_owned();
    if bytes.len() > MAX_RECORDED_BODY {
        text.push_str(&format!(
            "\n[… {} more bytes not kept in the record]",
            bytes.len() - MAX_RECORDED_BODY
        ));
    }
    text
}

/// The media type without parameters, lower case.
pub fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

fn is_response_to(message: &Value, id: &Value) -> bool {
    message.get("method").is_none()
        && message.get("id") == Some(id)
        && (message.get("result").is_some() || message.get("error").is_some())
}
