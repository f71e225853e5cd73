//! The page's side of an app's frame as the host sees it: messages in, messages out, the frame's
//! height, and the few things only the page can do (ask the user to open a link, ask the model
//! the app's message). The browser's frame is in the app crate; tests script one.

use futures_util::future::LocalBoxFuture;
use serde_json::Value;

use super::context::HostFacts;

/// What happened at the frame.
#[derive(Debug, Clone, PartialEq)]
pub enum FrameEvent {
    /// A message from the app (or its sandbox proxy), stamped when it arrived.
    Message { at_ms: f64, message: Value },
    /// A message the page could not take (too large, not JSON), and why.
    Unreadable { at_ms: f64, why: String },
    /// The page changed (theme, language, room): the host tells the app.
    ContextChanged,
    /// The app is about to be removed, for this reason: the host asks it to finish first.
    Closing(String),
}

/// An app's frame.
pub trait Frame {
    /// Posts `message` to the app, through its proxy.
    fn post(&self, message: Value);
    /// What happens next at the frame; `None` once it is gone.
    fn next(&self) -> LocalBoxFuture<'static, Option<FrameEvent>>;
    /// Gives the frame `height` px.
    fn resize(&self, height: u32);
    /// The page as it is now.
    fn facts(&self) -> HostFacts;
    /// Asks the user to open `url` (a web page); whether it was opened.
    fn open_link(&self, url: String) -> LocalBoxFuture<'static, bool>;
    /// The app's message to the conversation: the page asks the model with it.
    fn ask(&self, text: String);
}
