//! The session's GET stream for the connection's life (2025-11-25). The page asks to hear the
//! server before the run starts ([`Host::hear`], a task of the run); diagram 1 opens the stream
//! once the session is ready (row Ready, so its exchange is drawn there) and hands it over. What
//! comes on it is answered and recorded like what comes on a call's stream; a question outside a
//! tool call is put to the user on no row.
//!
//! The code a 2025-11-25 session needs beyond the run's (reading the GET stream, waiting for
//! error -32042's pages) is [`LegacyCode`], which the page fetches when such a session opens.

use std::rc::Rc;

use futures_channel::mpsc::UnboundedReceiver;
use futures_channel::oneshot;
use serde_json::Value;

use super::host::{Host, LegacyCode};
use crate::llm::Llm;
use mcp_flow_client::http::Http;
use mcp_flow_client::listen::Listening;
use mcp_flow_on_demand::OnDemandError;

/// The longest diagram 1 waits for the GET stream's answer before it goes on without it.
const OPEN_WAIT_MS: u32 = 5_000;

/// The code itself, for the page's split point (and in place where nothing is split).
pub fn legacy_code<H: Http + 'static, L: Llm + 'static>() -> LegacyCode<H, L> {
    LegacyCode {
        hear: |host, opened| {
            Box::pin(async move {
                let stream = host.client.open_hearing(OPEN_WAIT_MS).await;
                drop(opened);
                if let Ok(Some(stream)) = stream {
                    let _ = host.client.hear(stream).await;
                }
            })
        },
        pages: |host, answered, ids, heard| Box::pin(host.until_pages_done(answered, ids, heard)),
    }
}

#[cfg(not(feature = "split"))]
fn in_place<H: Http + 'static, L: Llm + 'static>() -> Result<LegacyCode<H, L>, OnDemandError> {
    Ok(legacy_code())
}

/// The release build's page always gives a loader: the run's module does not hold the code.
#[cfg(feature = "split")]
fn in_place<H: Http + 'static, L: Llm + 'static>() -> Result<LegacyCode<H, L>, OnDemandError> {
    Err(OnDemandError::NotLoaded)
}

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// Fetches [`LegacyCode`] with the host's loader when it has one.
    pub(super) async fn legacy(&self) -> Result<LegacyCode<H, L>, OnDemandError> {
        match self.load_legacy.get() {
            Some(load) => load().await,
            None => in_place(),
        }
    }

    /// Opens the session's GET stream once diagram 1 says the session is ready (at row Ready,
    /// which waits for it, so the exchange is drawn there) and reads it until the server ends it
    /// (or the run ends and drops this). Nothing is opened when the connection has no GET stream
    /// (2026-07-28, no session, a 405).
    pub fn hear(self: &Rc<Self>) -> impl Future<Output = ()> + use<H, L> {
        let (ready, is_ready) = oneshot::channel();
        let (opened, is_opened) = oneshot::channel::<()>();
        *self.hearer.borrow_mut() = Some((ready, is_opened));
        let host = self.clone();
        async move {
            if is_ready.await.is_ok()
                && let Ok(code) = host.legacy().await
            {
                (code.hear)(host, opened).await;
            }
        }
    }
}

/// Where a subscription's updates come from: a stream of the subscription's own (the modern
/// `subscriptions/listen`, or a GET stream when the page hears nothing else), or the session's
/// GET stream that is already being read (a server keeps one GET stream a session).
pub enum Updates<B> {
    Stream(Listening<B>),
    Heard(UnboundedReceiver<Value>),
}

impl<B: mcp_flow_client::http::BodyStream> Updates<B> {
    /// The next message within `ms`: `Ok(None)` when the stream ended, a timeout error when
    /// nothing came in time.
    pub async fn next_within<H: Http<Body = B>>(
        &mut self,
        client: &mcp_flow_client::McpClient<H>,
        ms: u32,
    ) -> Result<Option<Value>, mcp_flow_client::McpError> {
        use futures_util::StreamExt;
        use futures_util::future::{Either, select};
        match self {
            Updates::Stream(stream) => client.next_on(stream, ms).await,
            Updates::Heard(heard) => {
                let timer = std::pin::pin!(client.transport.clock.sleep(ms));
                match select(heard.next(), timer).await {
                    Either::Left((message, _)) => Ok(message),
                    Either::Right(((), _)) => {
                        Err(mcp_flow_client::error::TransportError::Timeout { ms }.into())
                    }
                }
            }
        }
    }

    /// Done with it: a stream of its own is closed; the session's GET stream stays open.
    pub fn close<H: Http<Body = B>>(self, client: &mcp_flow_client::McpClient<H>) {
        if let Updates::Stream(stream) = self {
            client.close_stream(stream);
        }
    }
}
