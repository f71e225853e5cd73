//! An open HTTP+SSE connection (2024-11-05): its one stream, where to POST, and the requests
//! waiting for their responses on it. The transport holds it; `old_sse.rs` drives it.

use std::cell::RefCell;
use std::collections::HashMap;

use futures_channel::oneshot;
use futures_util::lock::Mutex;
use serde_json::Value;

use crate::error::{TransportError, clip};
use crate::listen::Listening;
use crate::sse::SseEvent;

/// Why the old transport could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// The server answered the GET without an event stream (or not at all): not that transport.
    NoStream,
    /// An event stream came but is not a usable HTTP+SSE one (or came too late).
    Failed(TransportError),
}

/// An open HTTP+SSE connection: its stream and where to POST.
pub struct OldSse<B> {
    /// The URL the `endpoint` event named, resolved against the stream's (same origin).
    pub endpoint: String,
    pub(crate) stream: Mutex<Option<Listening<B>>>,
    /// Each waiting request's way to its response (with the event that carried it), by id.
    pub(crate) waiting: RefCell<HashMap<String, oneshot::Sender<(SseEvent, Value)>>>,
    /// Why the stream is gone, once it is: every later wait fails with it.
    pub(crate) ended: RefCell<Option<String>>,
}

/// Where the `endpoint` event says to POST, checked: a URL of the stream's own origin.
pub fn endpoint_url(stream_url: &str, data: &str) -> Result<String, String> {
    crate::origin::same_origin_uri(stream_url, data).map_err(|why| {
        format!(
            "the endpoint event names {:?} ({why}): this client POSTs only to the server it \
             was given",
            clip(data, 120)
        )
    })
}

/// Forgets a request's wait when its future ends, however it ends (a timeout drops it).
pub(crate) struct Wait<'a> {
    pub(crate) waiting: &'a RefCell<HashMap<String, oneshot::Sender<(SseEvent, Value)>>>,
    pub(crate) key: String,
}

impl Drop for Wait<'_> {
    fn drop(&mut self) {
        self.waiting.borrow_mut().remove(&self.key);
    }
}

impl<B> OldSse<B> {
    /// The stream is gone: every request still waiting fails with `why`.
    pub(crate) fn end(&self, why: &str) {
        *self.ended.borrow_mut() = Some(why.to_owned());
        self.waiting.borrow_mut().clear();
    }
}
