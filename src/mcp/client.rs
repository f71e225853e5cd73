//! The MCP client (MCP "Lifecycle", "Tools", "Utilities"): initialize with version negotiation,
//! notifications/initialized, tools/list with pagination, tools/call with progress, ping,
//! logging/setLevel, timeouts with notifications/cancelled, transparent re-initialize on 404,
//! and DELETE on close.

use std::cell::{Cell, RefCell};
use std::pin::pin;

use futures_util::future::{Either, select};
use rmcp::model::{
    CallToolRequestMethod, CallToolRequestParams, CallToolResult, CancelledNotificationMethod,
    CancelledNotificationParam, ConstString, EmptyObject, InitializeResultMethod,
    InitializedNotificationMethod, ListToolsRequestMethod, ListToolsResult, NumberOrString,
    PaginatedRequestParams, PingRequestMethod, ProgressToken, RequestId, RequestParamsMeta,
    SetLevelRequestMethod, Tool,
};
use serde::Serialize;
use serde_json::Value;

use crate::clock::SharedClock;

use super::error::{McpError, TransportError};
use super::http::Http;
use super::jsonrpc::{self, Handshake, Reply};
use super::transport::{Posted, Recorder, Transport};

/// Default time to wait for a response.
pub const DEFAULT_TIMEOUT_MS: u32 = 30_000;
/// tools/list stops following `nextCursor` after this many pages.
const MAX_PAGES: usize = 100;
/// Longest wait for the server to take `notifications/cancelled` after a timeout.
const CANCEL_WAIT_MS: u32 = 2_000;

/// A message the server sent that was not the response being waited for.
pub type Listener = Box<dyn FnMut(&Value)>;

pub struct McpClient<H: Http> {
    pub transport: Transport<H>,
    next_id: Cell<u64>,
    timeout_ms: Cell<u32>,
    handshake: RefCell<Option<Handshake>>,
    listener: RefCell<Option<Listener>>,
    server_requests: RefCell<Vec<Value>>,
}

impl<H: Http> McpClient<H> {
    pub fn new(http: H, clock: SharedClock, url: impl Into<String>, recorder: Recorder) -> Self {
        Self {
            transport: Transport::new(http, clock, url, recorder),
            next_id: Cell::new(1),
            timeout_ms: Cell::new(DEFAULT_TIMEOUT_MS),
            handshake: RefCell::new(None),
            listener: RefCell::new(None),
            server_requests: RefCell::new(Vec::new()),
        }
    }

    pub fn set_timeout_ms(&self, ms: u32) {
        self.timeout_ms.set(ms.max(1));
    }

    /// Receives notifications (and server requests) as they arrive, before the response they
    /// precede.
    pub fn set_listener(&self, listener: Option<Listener>) {
        *self.listener.borrow_mut() = listener;
    }

    pub fn handshake(&self) -> Option<Handshake> {
        self.handshake.borrow().clone()
    }

    fn next_id(&self) -> u64 {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        id
    }

    /// POSTs `message` under the timeout, delivering earlier messages to the listener.
    async fn post(&self, message: &Value) -> Result<Posted, McpError> {
        let ms = self.timeout_ms.get();
        let mut deliver = |m: Value| self.deliver(m);
        let finished = {
            // The loser is dropped at the end of this block: on a timeout, the request and its
            // body (in a browser that aborts the fetch) before the cancellation goes out.
            let exchange = pin!(self.transport.post(message, &mut deliver));
            let timer = pin!(self.transport.clock.sleep(ms));
            match select(exchange, timer).await {
                Either::Left((result, _)) => Some(result),
                Either::Right(((), _)) => None,
            }
        };
        let posted = match finished {
            Some(result) => result?,
            None => {
                self.transport.abandon(&format!("timed out after {ms} ms"));
                if let Some(id) = message
                    .get("id")
                    .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok())
                {
                    let cancel = jsonrpc::notification_with(
                        CancelledNotificationMethod,
                        &CancelledNotificationParam::new(
                            Some(id),
                            Some(format!("timed out after {ms} ms")),
                        ),
                    );
                    // Best effort: the request already failed, whatever this returns. Bounded
                    // too, since a server that stopped answering may not take this either.
                    let wait = ms.min(CANCEL_WAIT_MS);
                    let mut ignore = |_: Value| {};
                    let cancelled = pin!(self.transport.post(&cancel, &mut ignore));
                    let timer = pin!(self.transport.clock.sleep(wait));
                    if let Either::Right(_) = select(cancelled, timer).await {
                        self.transport.abandon(&format!(
                            "the server did not take the cancellation within {wait} ms"
                        ));
                    }
                }
                return Err(TransportError::Timeout { ms }.into());
            }
        };
        self.answer_server_requests().await;
        Ok(posted)
    }

    fn deliver(&self, message: Value) {
        if message.get("id").is_some() && message.get("method").is_some() {
            self.server_requests.borrow_mut().push(message.clone());
        }
        if let Some(listener) = self.listener.borrow_mut().as_mut() {
            listener(&message);
        }
    }

    /// Answers requests the server sent on a stream: `ping` with an empty result, anything else
    /// with "method not found" (this client offers no sampling, roots or elicitation).
    async fn answer_server_requests(&self) {
        let pending = std::mem::take(&mut *self.server_requests.borrow_mut());
        for request in pending {
            let id = request.get("id").cloned().unwrap_or(Value::Null);
            let reply = if jsonrpc::is(&request, PingRequestMethod) {
                jsonrpc::result(&id, &EmptyObject {})
            } else {
                jsonrpc::method_not_found(&id)
            };
            let _ = self.transport.post(&reply, &mut |_| {}).await;
        }
    }

    /// Sends `initialize` and checks the version the server chose. Does not send
    /// `notifications/initialized`: see [`McpClient::initialized`].
    pub async fn initialize(&self) -> Result<Handshake, McpError> {
        self.transport.set_session_id(None);
        self.transport.set_protocol_version(None);
        // rmcp names the marker of the `initialize` request `InitializeResultMethod`.
        let msg = jsonrpc::request(
            self.next_id(),
            InitializeResultMethod,
            &jsonrpc::initialize_params(),
        );
        let result = self.expect_result(self.post(&msg).await?)?;
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
                "expected 202 Accepted for a notification, got a response: {other:?}"
            ))),
        }
    }

    /// initialize + notifications/initialized.
    pub async fn connect(&self) -> Result<Handshake, McpError> {
        let hs = self.initialize().await?;
        self.initialized().await?;
        Ok(hs)
    }

    fn expect_result(&self, posted: Posted) -> Result<Value, McpError> {
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
            }),
            None => Err(McpError::Invalid(format!(
                "not a JSON-RPC response: {response}"
            ))),
        }
    }

    /// Sends a request for `method` (an rmcp method marker such as [`PingRequestMethod`]) and
    /// returns its result. A 404 on a request that carried a session id means the session is
    /// gone: re-initialize once and retry.
    pub async fn request<M: ConstString>(
        &self,
        method: M,
        params: &impl Serialize,
    ) -> Result<Value, McpError> {
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

    /// tools/list, following `nextCursor` until the last page.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, McpError> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let params = PaginatedRequestParams::default().with_cursor(cursor.clone());
            let result = self.request(ListToolsRequestMethod, &params).await?;
            let page: ListToolsResult = serde_json::from_value(result)
                .map_err(|e| McpError::Invalid(format!("tools/list result does not parse: {e}")))?;
            tools.extend(page.tools);
            match page.next_cursor {
                Some(next) if !next.is_empty() => cursor = Some(next),
                _ => return Ok(tools),
            }
        }
        Err(McpError::Invalid(format!(
            "tools/list still had a nextCursor after {MAX_PAGES} pages"
        )))
    }

    /// tools/call with `arguments`, a JSON object (`null` sends none). A tool that failed is a
    /// normal result with `is_error == Some(true)`.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
        progress_token: Option<&str>,
    ) -> Result<CallToolResult, McpError> {
        let mut params = CallToolRequestParams::new(name.to_owned());
        match arguments {
            Value::Object(arguments) => params = params.with_arguments(arguments),
            Value::Null => {}
            other => {
                return Err(McpError::Invalid(format!(
                    "the arguments of {name} must be a JSON object, not {other}"
                )));
            }
        }
        if let Some(token) = progress_token {
            params.set_progress_token(ProgressToken(NumberOrString::String(token.into())));
        }
        let result = self.request(CallToolRequestMethod, &params).await?;
        serde_json::from_value(result)
            .map_err(|e| McpError::Invalid(format!("tools/call result does not parse: {e}")))
    }

    pub async fn ping(&self) -> Result<(), McpError> {
        self.request(PingRequestMethod, &EmptyObject {})
            .await
            .map(|_| ())
    }

    /// logging/setLevel: ask the server to send log notifications at `level` ("debug", "info",
    /// … "emergency") and above.
    // rmcp 3.11 marks logging deprecated (SEP-2577, a later revision); 2025-11-25 has it.
    #[allow(deprecated)]
    pub async fn set_level(&self, level: &str) -> Result<(), McpError> {
        use rmcp::model::{LoggingLevel, SetLevelRequestParams};
        let level: LoggingLevel = serde_json::from_value(Value::String(level.to_owned()))
            .map_err(|_| McpError::Invalid(format!("{level:?} is not an MCP logging level")))?;
        self.request(SetLevelRequestMethod, &SetLevelRequestParams::new(level))
            .await
            .map(|_| ())
    }

    /// Ends the session with DELETE (if there is one).
    pub async fn close(&self) -> Result<(), McpError> {
        self.transport.delete_session().await?;
        Ok(())
    }
}

/// The text blocks of a tool result, joined by newlines.
pub fn result_text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}
