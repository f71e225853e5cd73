//! Session management that keeps a request's own notifications on that
//! request's SSE stream.
//!
//! rmcp's [`LocalSessionManager`] routes progress notifications and responses
//! to the POST stream of the request they belong to, but every other
//! server notification (e.g. `notifications/message`) goes to the standalone
//! GET stream, which a browser client may never open. This wrapper lets a tool
//! handler mark a notification with [`RelatedRequest`]; such a notification is
//! written into the SSE stream of that request, ahead of the response.
//!
//! Everything else is delegated to [`LocalSessionManager`] unchanged.

use std::{
    collections::HashMap,
    pin::Pin,
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicU64, Ordering},
    },
    task::{Context, Poll},
};

use futures::{Stream, future::Either};
use rmcp::{
    RoleServer,
    model::{ClientJsonRpcMessage, GetExtensions, JsonRpcMessage, RequestId, ServerJsonRpcMessage},
    service::{RxJsonRpcMessage, TxJsonRpcMessage},
    transport::{
        Transport,
        streamable_http_server::session::{
            RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
            local::{LocalSessionManager, LocalSessionManagerError, SessionTransport},
        },
    },
};
use tokio::sync::mpsc;

/// Marker placed in a server notification's (non-serialised) extensions: the
/// id of the client request the notification belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelatedRequest(pub RequestId);

const SIDE_CHANNEL_CAPACITY: usize = 32;

/// Open request streams of one session, by JSON-RPC request id.
#[derive(Debug, Default)]
struct StreamTable {
    next_generation: AtomicU64,
    senders: Mutex<HashMap<RequestId, (u64, mpsc::Sender<ServerSseMessage>)>>,
}

impl StreamTable {
    fn register(
        self: &Arc<Self>,
        id: RequestId,
    ) -> (Registration, mpsc::Receiver<ServerSseMessage>) {
        let generation = self.next_generation.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel(SIDE_CHANNEL_CAPACITY);
        self.senders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), (generation, tx));
        let registration = Registration {
            table: Arc::clone(self),
            id,
            generation,
        };
        (registration, rx)
    }

    fn sender(&self, id: &RequestId) -> Option<mpsc::Sender<ServerSseMessage>> {
        self.senders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .map(|(_, tx)| tx.clone())
    }
}

/// Removes a request's side channel when its stream is dropped.
#[derive(Debug)]
struct Registration {
    table: Arc<StreamTable>,
    id: RequestId,
    generation: u64,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut senders = self
            .table
            .senders
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if senders
            .get(&self.id)
            .is_some_and(|(generation, _)| *generation == self.generation)
        {
            senders.remove(&self.id);
        }
    }
}

/// [`LocalSessionManager`] plus per-request delivery of marked notifications.
#[derive(Debug)]
pub struct RoutingSessionManager {
    inner: Arc<LocalSessionManager>,
    tables: Mutex<HashMap<SessionId, Arc<StreamTable>>>,
    wait_for_priming: bool,
}

impl RoutingSessionManager {
    pub fn new(inner: LocalSessionManager) -> Self {
        let wait_for_priming = inner.session_config.sse_retry.is_some();
        Self {
            inner: Arc::new(inner),
            tables: Mutex::new(HashMap::new()),
            wait_for_priming,
        }
    }

    /// Number of live sessions (created and not yet closed or expired).
    pub async fn session_count(&self) -> usize {
        self.inner.sessions.read().await.len()
    }

    fn table(&self, id: &SessionId) -> Option<Arc<StreamTable>> {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .cloned()
    }

    fn new_table(&self, id: &SessionId) -> Arc<StreamTable> {
        let table = Arc::new(StreamTable::default());
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), Arc::clone(&table));
        table
    }
}

impl SessionManager for RoutingSessionManager {
    type Error = LocalSessionManagerError;
    type Transport = RoutedTransport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let (id, inner) = self.inner.create_session().await?;
        let table = self.new_table(&id);
        Ok((id, RoutedTransport { inner, table }))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        // Register before the message reaches the session worker, so the
        // handler can already find the stream.
        let side = match (&message, self.table(id)) {
            (JsonRpcMessage::Request(request), Some(table)) => {
                Some(table.register(request.id.clone()))
            }
            _ => None,
        };
        let primary = self.inner.create_stream(id, message).await?;
        let (registration, side) = match side {
            Some((registration, rx)) => (Some(registration), Some(rx)),
            None => (None, None),
        };
        Ok(RequestStream {
            primary: Box::pin(primary),
            side,
            primed: !self.wait_for_priming,
            _registration: registration,
        })
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        Ok(match self.inner.restore_session(id.clone()).await? {
            RestoreOutcome::Restored(inner) => {
                let table = self.new_table(&id);
                RestoreOutcome::Restored(RoutedTransport { inner, table })
            }
            RestoreOutcome::AlreadyPresent => RestoreOutcome::AlreadyPresent,
            _ => RestoreOutcome::NotSupported,
        })
    }

    fn event_store(
        &self,
    ) -> Option<Arc<dyn rmcp::transport::streamable_http_server::session::EventStore>> {
        self.inner.event_store()
    }
}

/// The session transport, diverting marked notifications to request streams.
pub struct RoutedTransport {
    inner: SessionTransport,
    table: Arc<StreamTable>,
}

impl RoutedTransport {
    fn side_channel_for(
        &self,
        message: &ServerJsonRpcMessage,
    ) -> Option<mpsc::Sender<ServerSseMessage>> {
        let JsonRpcMessage::Notification(notification) = message else {
            return None;
        };
        let RelatedRequest(id) = notification.notification.extensions().get()?;
        self.table.sender(id)
    }
}

impl Transport<RoleServer> for RoutedTransport {
    type Error = <SessionTransport as Transport<RoleServer>>::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        match self.side_channel_for(&item) {
            Some(tx) => Either::Left(async move {
                if tx.send(ServerSseMessage::from_message(item)).await.is_err() {
                    tracing::debug!("request stream closed before its notification was sent");
                }
                Ok(())
            }),
            None => Either::Right(self.inner.send(item)),
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// A request's SSE stream: rmcp's own stream, with marked notifications
/// interleaved after the priming event and ahead of anything sent later.
struct RequestStream<S> {
    primary: Pin<Box<S>>,
    side: Option<mpsc::Receiver<ServerSseMessage>>,
    primed: bool,
    _registration: Option<Registration>,
}

impl<S: Stream<Item = ServerSseMessage>> Stream for RequestStream<S> {
    type Item = ServerSseMessage;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.primed
            && let Some(side) = this.side.as_mut()
        {
            match side.poll_recv(cx) {
                Poll::Ready(Some(message)) => return Poll::Ready(Some(message)),
                Poll::Ready(None) => this.side = None,
                Poll::Pending => {}
            }
        }
        match this.primary.as_mut().poll_next(cx) {
            Poll::Ready(Some(message)) => {
                this.primed = true;
                Poll::Ready(Some(message))
            }
            other => other,
        }
    }
}
