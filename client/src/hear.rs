//! Hearing the server outside any request (2025-11-25): once the session is ready the client
//! opens the session's GET stream and keeps reading it for the connection's life. Requests on
//! it (ping, elicitation, roots, sampling) are answered one after another as on a call's stream;
//! every message goes to the listener and the taps. A server without a GET stream answers 405.

use std::cell::Cell;
use std::pin::pin;

use futures_util::StreamExt;
use futures_util::future::{Either, join, select};
use serde_json::Value;

use crate::client::McpClient;
use crate::era::Era;
use crate::error::{McpError, TransportError};
use crate::http::Http;
use crate::listen::Listening;

/// Marks the GET stream as read while it is; cleared however the reading ends.
struct Reading<'a>(&'a Cell<bool>);

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

impl<H: Http> McpClient<H> {
    /// Opens the session's GET stream (2025-11-25, with a session), within the request
    /// timeout: `Ok(None)` when there is nothing to open (another era, no session) or the
    /// server offers none (405).
    pub async fn open_hearing(&self, ms: u32) -> Result<Option<Listening<H::Body>>, McpError> {
        if self.era() != Era::Legacy || self.transport.session_id().is_none() {
            return Ok(None);
        }
        let opening = pin!(self.open_stream());
        let timer = pin!(self.transport.clock.sleep(ms));
        match select(opening, timer).await {
            Either::Left((Ok(stream), _)) => Ok(Some(stream)),
            Either::Left((
                Err(McpError::Transport(TransportError::Status { status: 405, .. })),
                _,
            )) => Ok(None),
            Either::Left((Err(e), _)) => Err(e),
            Either::Right(((), _)) => {
                self.transport
                    .abandon(&format!("no answer to the GET stream within {ms} ms"));
                Err(TransportError::Timeout { ms }.into())
            }
        }
    }

    /// Reads `stream` until the server ends it: its requests are answered in order, every
    /// message is heard (listener and taps). While it runs, [`McpClient::is_hearing`].
    pub async fn hear(&self, mut stream: Listening<H::Body>) -> Result<(), McpError> {
        self.hearing.set(true);
        let _reading = Reading(&self.hearing);
        let (requests, mut incoming) = futures_channel::mpsc::unbounded::<Value>();
        let reading = async move {
            let ended = loop {
                match self.transport.next_message(&mut stream).await {
                    Ok(Some(message)) => {
                        if message.get("id").is_some() && message.get("method").is_some() {
                            let _ = requests.unbounded_send(message.clone());
                        }
                        self.heard(&message);
                    }
                    Ok(None) => break Ok(()),
                    Err(e) => break Err(McpError::from(e)),
                }
            };
            // Closing the channel lets the answering end after the last request.
            drop(requests);
            ended
        };
        let answering = async {
            while let Some(request) = incoming.next().await {
                self.answer(request).await;
            }
        };
        join(reading, answering).await.0
    }

    /// Whether the session's GET stream is being read ([`McpClient::hear`]).
    pub fn is_hearing(&self) -> bool {
        self.hearing.get()
    }
}
