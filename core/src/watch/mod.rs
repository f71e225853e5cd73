//! Watching a real host: the bridge's feed of what passed between a host and its server, folded
//! into one run record per MCP session, so the page draws a third party's traffic on the same
//! diagrams as its own (`docs/watch.md`). Only what crossed the wire lights a row; what the host
//! does inside itself (its model, its user) stays skipped with why.

mod messages;
mod rows;
mod session;
mod sessions;

pub use mcp_flow_wire::watch::{PATH, Page};
pub use session::{Summary, WatchedSession};
pub use sessions::{SESSIONLESS, Watch};

use mcp_flow_client::origin::is_loopback_url;

/// The feed a page was asked to watch (`?watch=URL`), checked: a bridge's feed on this machine
/// (`http://127.0.0.1:PORT/s/SECRET/watch`), so a link cannot point the page elsewhere.
pub fn feed_url(asked: &str) -> Result<String, String> {
    let asked = asked.trim();
    let path_ok = asked
        .strip_suffix(&format!("/{}", mcp_flow_wire::watch::PATH))
        .and_then(|rest| rest.rsplit_once('/'))
        .is_some_and(|(before, secret)| before.ends_with("/s") && !secret.is_empty());
    if is_loopback_url(asked) && path_ok && !asked.contains(['?', '#']) {
        Ok(asked.to_owned())
    } else {
        Err(format!(
            "{asked:?} is not a bridge's watch feed on this machine (http://127.0.0.1:PORT/s/SECRET/watch, as `mcp-flow-bridge --watch` prints it)"
        ))
    }
}

#[cfg(test)]
mod tests;
