//! The MCP client core: one connection to one server, in one era.
//!
//! Legacy (2025-11-25 and older): initialize with version negotiation, notifications/initialized,
//! a session, transparent re-initialize on 404, DELETE on close, server requests (ping,
//! elicitation) answered while their stream is open. Modern (2026-07-28): no handshake and no
//! session; every request carries `_meta` and the metadata headers, and the server's own errors
//! come back as HTTP 400/404 with a JSON-RPC body. Both: timeouts with notifications/cancelled
//! (legacy) or a dropped stream (modern). Discovery lives in `discover.rs`, tools in `tools.rs`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::{Pin, pin};
use std::rc::Rc;

use futures_util::future::FusedFuture;
use futures_util::future::{Either, select};
use futures_util::{FutureExt, StreamExt};
use rmcp::model::{
    CancelledNotificationMethod, CancelledNotificationParam, ConstString, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationCreateRequestMethod, EmptyObject,
    InitializeResultMethod, InitializedNotificationMethod, ListRootsRequestMethod,
    PingRequestMethod, RequestId, RootsListChangedNotificationMethod, SetLevelRequestMethod,
};
use serde::Serialize;
use serde_json::{Value, json};

use crate::clock::SharedClock;
use mcp_flow_on_demand::call_on_demand;

use crate::era::Era;
use crate::error::{McpError, TransportError};
use crate::http::Http;
use crate::jsonrpc::{self, Handshake, Reply};
use crate::log_level::LogLevel;
use crate::modern::{self, ParamHeader};
use crate::old_sse::{FALLBACK_STATUSES, OpenError};
use crate::questions::read_elicit_params;
use crate::record::ReplayOf;
use crate::replay;
use crate::roots::{self, Root};
use crate::sampling::{self, SampleAnswer, SamplingRequest};
use crate::transport::{Posted, Recorder, Transport};

/// Default time to wait for a response.
pub const DEFAULT_TIMEOUT_MS: u32 = 30_000;
/// Longest wait for the server to take `notifications/cancelled` after a timeout.
const CANCEL_WAIT_MS: u32 = 2_000;

/// A message the server sent that was not the response being waited for.
pub type Listener = Box<dyn FnMut(&Value)>;

/// Answers a server's `elicitation/create` (2025-11-25): the question, or why it could not be
/// read.
pub type Elicitor =
    Rc<dyn Fn(Result<ElicitRequestParams, String>) -> Pin<Box<dyn Future<Output = ElicitResult>>>>;

/// Gives the roots a server's `roots/list` (2025-11-25) is answered with, once the host has shown
/// the question.
pub type RootsGiver = Rc<dyn Fn() -> Pin<Box<dyn Future<Output = Vec<Root>>>>>;

/// Answers a server's `sampling/createMessage` (2025-11-25) with the model's answer as the user
/// approved it, or why not (the user refused, or the request could not be read).
pub type Sampler = Rc<
    dyn Fn(
        Result<SamplingRequest, String>,
    ) -> Pin<Box<dyn Future<Output = Result<SampleAnswer, String>>>>,
>;

pub struct McpClient<H: Http> {
    pub transport: Transport<H>,
    next_id: Cell<u64>,
    timeout_ms: Cell<u32>,
    pub(super) era: Cell<Era>,
    /// The modern version this client sends (2026-07-28).
    pub(super) modern_version: RefCell<String>,
    /// The modern era's per-request log level (`_meta["io.modelcontextprotocol/logLevel"]`).
    log_level: Cell<Option<LogLevel>>,
    /// Each tool's `x-mcp-header` annotations, from tools/list.
    pub(super) annotations: RefCell<HashMap<String, Vec<ParamHeader>>>,
    handshake: RefCell<Option<Handshake>>,
    listener: RefCell<Option<Listener>>,
    elicitor: RefCell<Option<Elicitor>>,
    roots: RefCell<Option<RootsGiver>>,
    /// With one, the client declares `sampling`.
    sampler: RefCell<Option<Sampler>>,
    /// The host renders apps: the client declares the MCP Apps extension.
    hosts_apps: Cell<bool>,
    /// Elicitations waiting for the user: the request timeout does not run out meanwhile.
    waiting_for_user: Cell<u32>,
    /// One per request in flight: [`McpClient::stop`] fires them.
    stoppers: RefCell<Vec<futures_channel::oneshot::Sender<()>>>,
    /// Each gets every message the server sends outside a response (see [`McpClient::tap`]).
    taps: RefCell<Vec<futures_channel::mpsc::UnboundedSender<Value>>>,
    /// The session's GET stream is being read (`hear.rs`).
    pub(crate) hearing: Cell<bool>,
}

impl<H: Http> McpClient<H> {
    pub fn new(http: H, clock: SharedClock, url: impl Into<String>, recorder: Recorder) -> Self {
        let transport = Transport::new(http, clock, url, recorder);
        // The HTTP+SSE code in place, except in the page's split build: it gives a loader.
        #[cfg(not(feature = "split"))]
        transport.set_old_sse_code(crate::old_sse::old_sse_code());
        Self {
            transport,
            next_id: Cell::new(1),
            timeout_ms: Cell::new(DEFAULT_TIMEOUT_MS),
            era: Cell::new(Era::Legacy),
            modern_version: RefCell::new(modern::VERSION.to_owned()),
            log_level: Cell::new(None),
            annotations: RefCell::new(HashMap::new()),
            handshake: RefCell::new(None),
            listener: RefCell::new(None),
            elicitor: RefCell::new(None),
            roots: RefCell::new(None),
            sampler: RefCell::new(None),
            hosts_apps: Cell::new(false),
            waiting_for_user: Cell::new(0),
            stoppers: RefCell::new(Vec::new()),
            taps: RefCell::new(Vec::new()),
            hearing: Cell::new(false),
        }
    }

    /// Every message the server sends from now on that is not a response (on a request's
    /// stream or the GET stream), until the receiver is dropped.
    pub fn tap(&self) -> futures_channel::mpsc::UnboundedReceiver<Value> {
        let (tx, rx) = futures_channel::mpsc::unbounded();
        self.taps.borrow_mut().push(tx);
        rx
    }

    /// A message the server sent outside a response: to the listener and every tap.
    pub(crate) fn heard(&self, message: &Value) {
        self.taps
            .borrow_mut()
            .retain(|tap| tap.unbounded_send(message.clone()).is_ok());
        if let Some(listener) = self.listener.borrow_mut().as_mut() {
            listener(message);
        }
    }

    /// Stops every request in flight the era's way (2025-11-25: `notifications/cancelled`;
    /// 2026-07-28: its stream closed); each fails with [`TransportError::Stopped`]. Whether one
    /// was in flight.
    pub fn stop(&self) -> bool {
        let stoppers = std::mem::take(&mut *self.stoppers.borrow_mut());
        let mut stopped = false;
        for stop in stoppers {
            stopped |= stop.send(()).is_ok();
        }
        stopped
    }

    pub fn set_timeout_ms(&self, ms: u32) {
        self.timeout_ms.set(ms.max(1));
    }

    /// The era this connection speaks (legacy until told otherwise).
    pub fn era(&self) -> Era {
        self.era.get()
    }

    pub fn set_era(&self, era: Era) {
        self.era.set(era);
    }

    /// The modern era's log level, sent with every request (`None`: no log lines).
    pub fn set_log_level(&self, level: Option<LogLevel>) {
        self.log_level.set(level);
    }

    /// Receives notifications (and server requests) as they arrive, before the response they
    /// precede.
    pub fn set_listener(&self, listener: Option<Listener>) {
        *self.listener.borrow_mut() = listener;
    }

    /// Answers the server's `elicitation/create` requests (legacy era). Without one, they are
    /// declined.
    pub fn set_elicitor(&self, elicitor: Option<Elicitor>) {
        *self.elicitor.borrow_mut() = elicitor;
    }

    /// Answers the server's `roots/list` requests (legacy era). Without one, the answer lists
    /// no roots.
    pub fn set_roots_giver(&self, giver: Option<RootsGiver>) {
        *self.roots.borrow_mut() = giver;
    }

    /// Answers the server's `sampling/createMessage` requests (legacy era); with one, the
    /// client declares `sampling` in both eras. Without one, sampling is not declared and a
    /// request for it is answered "method not found".
    pub fn set_sampler(&self, sampler: Option<Sampler>) {
        *self.sampler.borrow_mut() = sampler;
    }

    /// The sampler, if this client answers sampling (for a 2026-07-28 `input_required`).
    pub fn sampler(&self) -> Option<Sampler> {
        self.sampler.borrow().clone()
    }

    /// What this client declares it can do in its era now.
    pub fn capabilities(&self) -> rmcp::model::ClientCapabilities {
        let capabilities = modern::capabilities_in(self.era.get(), self.sampler.borrow().is_some());
        if self.hosts_apps.get() {
            crate::apps::declaring(capabilities)
        } else {
            capabilities
        }
    }

    /// Whether the host renders apps (the client then declares the MCP Apps extension, in
    /// `initialize` and in each 2026-07-28 request's `_meta`).
    pub fn set_hosts_apps(&self, hosts: bool) {
        self.hosts_apps.set(hosts);
    }

    /// Whether the host renders apps.
    pub fn hosts_apps(&self) -> bool {
        self.hosts_apps.get()
    }

    /// The roots the host gives now (none without a giver): the answer to a `roots/list`, in
    /// either era.
    pub async fn give_roots(&self) -> Vec<Root> {
        let giver = self.roots.borrow().clone();
        match giver {
            Some(giver) => self.while_the_user_answers(giver()).await,
            None => Vec::new(),
        }
    }

    /// Awaits `answer` (the host asking the user) with the request timeout held meanwhile.
    async fn while_the_user_answers<T>(&self, answer: impl Future<Output = T>) -> T {
        self.waiting_for_user.set(self.waiting_for_user.get() + 1);
        let answer = answer.await;
        self.waiting_for_user.set(self.waiting_for_user.get() - 1);
        answer
    }

    /// Tells a legacy server that the client's roots changed
    /// (`notifications/roots/list_changed`); 2026-07-28 has no such notification, and a client
    /// without a session has no one to tell.
    pub async fn roots_changed(&self) -> Result<(), McpError> {
        if self.era.get() == Era::Modern || self.handshake.borrow().is_none() {
            return Ok(());
        }
        let changed = jsonrpc::notification(RootsListChangedNotificationMethod);
        self.post(&changed).await.map(|_| ())
    }

    pub fn handshake(&self) -> Option<Handshake> {
        self.handshake.borrow().clone()
    }

    pub(super) fn next_id(&self) -> u64 {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        id
    }

    /// POSTs `message` (with `extra_headers`) under the timeout. Messages that arrive before the
    /// response go to the listener; requests among them (ping, elicitation) are answered while
    /// the stream stays open, and the timeout does not run while the user answers one.
    pub(super) async fn post_with(
        &self,
        message: &Value,
        extra_headers: Vec<(String, String)>,
    ) -> Result<Posted, McpError> {
        let ms = self.timeout_ms.get();
        let (requests, mut incoming) = futures_channel::mpsc::unbounded::<Value>();
        let mut deliver = move |m: Value| {
            if m.get("id").is_some() && m.get("method").is_some() {
                let _ = requests.unbounded_send(m.clone());
            }
            self.heard(&m);
        };
        // Answers the server's requests as they come; ends once the stream is done and every
        // request that came on it is answered.
        let mut answering = pin!(
            async {
                while let Some(request) = incoming.next().await {
                    self.answer(request).await;
                }
            }
            .fuse()
        );
        let (stopper, mut stopped) = futures_channel::oneshot::channel::<()>();
        {
            let mut stoppers = self.stoppers.borrow_mut();
            stoppers.retain(|s| !s.is_canceled());
            stoppers.push(stopper);
        }
        let finished = {
            let mut exchange = pin!(
                self.transport
                    .post_with(message, extra_headers, &mut deliver)
            );
            loop {
                let timer = pin!(self.transport.clock.sleep(ms));
                let work = select(exchange.as_mut(), answering.as_mut());
                match select(select(work, &mut stopped), timer).await {
                    Either::Left((Either::Left((Either::Left((result, _)), _)), _)) => {
                        break Ok(result);
                    }
                    // Not before the stream ends (the channel stays open until then).
                    Either::Left((Either::Left((Either::Right(((), _)), _)), _)) => continue,
                    Either::Left((Either::Right(_), _)) => break Err(TransportError::Stopped),
                    Either::Right(((), _))
                        if self.waiting_for_user.get() > 0 || self.transport.authorizing() =>
                    {
                        continue;
                    }
                    Either::Right(((), _)) => break Err(TransportError::Timeout { ms }),
                }
            }
            // The exchange (and its borrow of `deliver`) ends here. On a timeout or a stop that
            // drops the request and its body, which in a browser aborts the fetch.
        };
        match finished {
            Ok(result) => {
                // Closing the channel lets the answering end after the last request.
                drop(deliver);
                if !answering.is_terminated() {
                    answering.await;
                }
                Ok(result?)
            }
            Err(why) => {
                let reason = match why {
                    TransportError::Stopped => "the user stopped it".to_owned(),
                    _ => format!("timed out after {ms} ms"),
                };
                self.transport.abandon(&reason);
                self.cancel(message, &reason, ms.min(CANCEL_WAIT_MS)).await;
                Err(why.into())
            }
        }
    }

    pub(super) async fn post(&self, message: &Value) -> Result<Posted, McpError> {
        self.post_with(message, Vec::new()).await
    }

    /// After a timeout or a stop: a legacy server is told with `notifications/cancelled` (best
    /// effort, at most `wait` ms); in the modern era closing the stream was the cancellation.
    async fn cancel(&self, message: &Value, reason: &str, wait: u32) {
        if self.era.get() == Era::Modern {
            return;
        }
        let Some(id) = message
            .get("id")
            .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok())
        else {
            return;
        };
        let cancel = jsonrpc::notification_with(
            CancelledNotificationMethod,
            &CancelledNotificationParam::new(Some(id), Some(reason.to_owned())),
        );
        let mut ignore = |_: Value| {};
        let cancelled = pin!(self.transport.post(&cancel, &mut ignore));
        let timer = pin!(self.transport.clock.sleep(wait));
        if let Either::Right(_) = select(cancelled, timer).await {
            self.transport.abandon(&format!(
                "the server did not take the cancellation within {wait} ms"
            ));
        }
    }

    /// Answers a request the server sent on a stream: `ping` with an empty result,
    /// `elicitation/create` with the user's answer (declined when nobody can answer), `roots/list`
    /// with the host's roots, anything else with "method not found" naming it. Every request gets
    /// an answer.
    pub(crate) async fn answer(&self, request: Value) {
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        let reply = if jsonrpc::is(&request, PingRequestMethod) {
            jsonrpc::result(&id, &EmptyObject {})
        } else if jsonrpc::is(&request, ElicitationCreateRequestMethod) {
            // A question that does not parse, or whose reader could not be fetched, reaches the
            // elicitor as the reason, which says so and declines.
            let question = match request.get("params").cloned() {
                Some(p) => call_on_demand!(read_elicit_params(p))
                    .map_err(|e| e.into_message("reads the server's question")),
                None => Err("the request has no params".into()),
            };
            let elicitor = self.elicitor.borrow().clone();
            let answer = match elicitor {
                Some(elicitor) => self.while_the_user_answers(elicitor(question)).await,
                None => ElicitResult::new(ElicitationAction::Decline),
            };
            jsonrpc::result(&id, &answer)
        } else if jsonrpc::is(&request, ListRootsRequestMethod) {
            let roots = self.give_roots().await;
            json!({ "jsonrpc": "2.0", "id": id, "result": roots::list_result(&roots) })
        } else if let Some(sampler) = self.sampler_for(&request) {
            self.sample(&id, &request, sampler).await
        } else {
            let method = jsonrpc::method(&request).unwrap_or("(no method)");
            jsonrpc::method_not_found_for(&id, method)
        };
        let _ = self.transport.post(&reply, &mut |_| {}).await;
    }

    /// The sampler, when `request` is a sampling request and this client has one.
    fn sampler_for(&self, request: &Value) -> Option<Sampler> {
        (jsonrpc::method(request) == Some(crate::questions::SAMPLING))
            .then(|| self.sampler.borrow().clone())
            .flatten()
    }

    /// The answer to a `sampling/createMessage`: the sampler's (the user's approved answer), or
    /// an error saying why not: -32602 for a request no model can take, -1 for a refusal.
    async fn sample(&self, id: &Value, request: &Value, sampler: Sampler) -> Value {
        let asked = match request.get("params").cloned() {
            Some(p) => call_on_demand!(crate::questions::read_sampling_params(p))
                .map_err(|e| e.into_message("reads the server's sampling request")),
            None => Err("the request has no params".into()),
        };
        let unreadable = asked.is_err();
        match self.while_the_user_answers(sampler(asked)).await {
            Ok(answer) => json!({ "jsonrpc": "2.0", "id": id, "result": answer.result() }),
            Err(why) if unreadable => sampling::error(id, sampling::INVALID_PARAMS, &why),
            Err(why) => sampling::error(id, sampling::USER_REJECTED, &why),
        }
    }

    /// Sends `initialize` and checks the version the server chose. Does not send
    /// `notifications/initialized`: see [`McpClient::initialized`].
    pub async fn initialize(&self) -> Result<Handshake, McpError> {
        self.era.set(Era::Legacy);
        self.transport.set_session_id(None);
        self.transport.set_protocol_version(None);
        // rmcp names the marker of the `initialize` request `InitializeResultMethod`.
        let params = jsonrpc::initialize_params(self.capabilities());
        let msg = jsonrpc::request(self.next_id(), InitializeResultMethod, &params);
        let posted = match self.post(&msg).await {
            Err(McpError::Transport(TransportError::Status { status, body }))
                if FALLBACK_STATUSES.contains(&status) && self.transport.old_sse().is_none() =>
            {
                let refused = McpError::Transport(TransportError::Status { status, body });
                self.transport.note_next(format!(
                    "the POST of initialize was answered HTTP {status}: is it a server of the \
                     HTTP+SSE transport (2024-11-05)? GET for its event stream"
                ));
                let code = self.transport.old_sse_code().await?;
                match (code.open)(&self.transport, self.timeout_ms.get()).await {
                    Ok(()) => {}
                    // No stream there: the POST's answer says more.
                    Err(OpenError::NoStream) => return Err(refused),
                    Err(OpenError::Failed(e)) => return Err(e.into()),
                }
                self.transport.note_next(
                    "initialize over HTTP+SSE (2024-11-05): POSTed to the endpoint the stream \
                     named; the response comes on the stream",
                );
                let msg = jsonrpc::request(self.next_id(), InitializeResultMethod, &params);
                self.post(&msg).await?
            }
            other => other?,
        };
        let result = self.expect_result(posted)?;
        let handshake = jsonrpc::read_initialize(result).map_err(McpError::Invalid)?;
        self.transport
            .set_protocol_version(Some(handshake.protocol_version.to_owned()));
        *self.handshake.borrow_mut() = Some(handshake.clone());
        Ok(handshake)
    }

    /// Sends `notifications/initialized`; the server must accept it with 202.
    pub async fn initialized(&self) -> Result<(), McpError> {
        match self
            .post(&jsonrpc::notification(InitializedNotificationMethod))
            .await?
        {
            Posted::Accepted => Ok(()),
            other => Err(McpError::Invalid(format!(
                "expected 202 Accepted for a notification, got a response: {}",
                other.response().map(|v| v.to_string()).unwrap_or_default()
            ))),
        }
    }

    /// initialize + notifications/initialized.
    pub async fn connect(&self) -> Result<Handshake, McpError> {
        let hs = self.initialize().await?;
        self.initialized().await?;
        Ok(hs)
    }

    pub(super) fn expect_result(&self, posted: Posted) -> Result<Value, McpError> {
        let Some(response) = posted.response() else {
            return Err(McpError::Invalid(
                "the server answered a request with 202 Accepted and no response".into(),
            ));
        };
        match jsonrpc::reply(&response) {
            Some(Reply::Result(v)) => Ok(v),
            Some(Reply::Error {
                code,
                message,
                data,
            }) => Err(McpError::Protocol {
                code,
                message,
                data,
                status: None,
            }),
            None => Err(McpError::Invalid(format!(
                "not a JSON-RPC response: {response}"
            ))),
        }
    }

    /// Sends a request for `method` (an rmcp method marker such as [`PingRequestMethod`]) and
    /// returns its result, in the connection's era. Legacy: a 404 on a request that carried a
    /// session id means the session is gone: re-initialize once and retry.
    pub async fn request<M: ConstString>(
        &self,
        method: M,
        params: &impl Serialize,
    ) -> Result<Value, McpError> {
        if self.era.get() == Era::Modern {
            let params = serde_json::to_value(params).map_err(|e| {
                McpError::Invalid(format!("the {} params do not serialise: {e}", M::VALUE))
            })?;
            return self.modern_request(M::VALUE, params).await;
        }
        let had_session = self.transport.session_id().is_some();
        let msg = jsonrpc::request(self.next_id(), method, params);
        match self.post(&msg).await {
            Err(McpError::Transport(TransportError::Status { status: 404, .. })) if had_session => {
                self.transport.note_next(
                    "re-initialize: the server answered 404 to a request with a session id, \
                     so the session is gone",
                );
                self.connect().await?;
                self.transport
                    .note_next(format!("retry of {} in the new session", M::VALUE));
                let retry = jsonrpc::request(self.next_id(), M::default(), params);
                self.expect_result(self.post(&retry).await?)
            }
            other => self.expect_result(other?),
        }
    }

    /// [`McpClient::request`] for a method rmcp names no marker for (2025-11-25's `tasks/result`)
    /// or whose params are built by hand.
    pub(crate) async fn request_named(
        &self,
        method: &str,
        params: Value,
    ) -> Result<Value, McpError> {
        if self.era.get() == Era::Modern {
            return self.modern_request(method, params).await;
        }
        let msg = jsonrpc::request_for(self.next_id(), method, &params);
        self.expect_result(self.post(&msg).await?)
    }

    /// A modern request: `_meta` merged into `params`, the metadata headers beside it, and the
    /// server's 4xx JSON-RPC errors read as protocol errors.
    pub(super) async fn modern_request(
        &self,
        method: &str,
        params: Value,
    ) -> Result<Value, McpError> {
        let version = self.modern_version.borrow().clone();
        let meta = modern::meta(&version, self.log_level.get(), self.capabilities());
        let params = modern::with_meta(params, meta);
        let annotated = match (method, params.get("name").and_then(Value::as_str)) {
            ("tools/call", Some(name)) => self
                .annotations
                .borrow()
                .get(name)
                .cloned()
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let headers = modern::headers(&version, method, &params, &annotated);
        let msg = jsonrpc::request_for(self.next_id(), method, &params);
        match self.post_with(&msg, headers).await {
            Ok(posted) => self.expect_result(posted),
            Err(e) => Err(protocol_in_status(e)),
        }
    }

    /// logging/setLevel: ask the server to send log notifications at `level` and above.
    // rmcp 3.11 marks logging deprecated (SEP-2577, a later revision); 2025-11-25 has it.
    #[allow(deprecated)]
    pub async fn set_level(&self, level: LogLevel) -> Result<(), McpError> {
        use rmcp::model::SetLevelRequestParams;
        self.request(
            SetLevelRequestMethod,
            &SetLevelRequestParams::new(level.to_rmcp()),
        )
        .await
        .map(|_| ())
    }

    /// Checks `text` as a replay, on this connection, of the request `original` recorded (see
    /// [`replay::prepare`]): nothing is sent.
    pub fn prepare_replay(
        &self,
        text: &str,
        original: &replay::Original<'_>,
    ) -> Result<replay::Prepared, String> {
        let version = self.modern_version.borrow();
        let annotated = self.annotations.borrow();
        let conn = replay::Connection {
            era: self.era.get(),
            url: &self.transport.url,
            connection_headers: self.transport.connection_headers(),
            modern_version: &version,
            annotated: &annotated,
        };
        replay::prepare(text, original, &conn)
    }

    /// Sends a prepared replay (with a new id, if it has one) on this connection, under the
    /// timeout, recorded as a replay of `of`. The answer is in the record.
    pub async fn replay(&self, prepared: replay::Prepared, of: ReplayOf) -> Result<(), McpError> {
        let mut message = prepared.message;
        if let Some(id) = message.get_mut("id") {
            *id = Value::from(self.next_id());
        }
        self.transport.replay_next(of);
        self.post_with(&message, prepared.extra_headers).await?;
        Ok(())
    }

    pub async fn ping(&self) -> Result<(), McpError> {
        self.request(PingRequestMethod, &EmptyObject {})
            .await
            .map(|_| ())
    }

    /// Ends the session with DELETE (if there is one: the modern era has none).
    pub async fn close(&self) -> Result<(), McpError> {
        self.transport.close_old_sse();
        self.transport.delete_session().await?;
        Ok(())
    }
}

/// A non-2xx answer whose body is a JSON-RPC error (how the modern era answers its own errors,
/// with 400 or 404) as the protocol error it is; anything else unchanged.
pub(super) fn protocol_in_status(e: McpError) -> McpError {
    let McpError::Transport(TransportError::Status { status, body }) = &e else {
        return e;
    };
    let reply = serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| jsonrpc::reply(&v).or_else(|| id_less_error(&v)));
    match reply {
        Some(Reply::Error {
            code,
            message,
            data,
        }) => McpError::Protocol {
            code,
            message,
            data,
            status: Some(*status),
        },
        _ => e,
    }
}

/// An error object without an `id` (allowed for errors a server cannot tie to a request).
fn id_less_error(v: &Value) -> Option<Reply> {
    let error = v.get("error")?;
    Some(Reply::Error {
        code: error.get("code")?.as_i64()?,
        message: error
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        data: error.get("data").cloned(),
    })
}
