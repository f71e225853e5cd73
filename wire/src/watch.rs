//! The watch feed: what the bridge saw pass between a host and its server, as the bridge writes
//! it (`GET /s/SECRET/watch?since=N`) and the page reads it. One definition for both.

use serde::{Deserialize, Serialize};

/// The feed's path under the bridge's secret.
pub const PATH: &str = "watch";
/// Text kept per event (a body, a chunk, a line); the rest is replaced by a note of its size.
pub const TEXT_KEPT_BYTES: usize = 1024 * 1024;
/// Events one answer carries at most (the page asks again at once for more).
pub const EVENTS_PER_PAGE: usize = 500;
/// Text one answer carries at most, past its first event (a page reads up to 64 MiB).
pub const PAGE_BYTES: usize = 8 * 1024 * 1024;

/// One thing the bridge saw pass, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Its place in the feed, from 0; a gap is what the feed dropped.
    pub n: u64,
    /// When the bridge saw it (milliseconds since the Unix epoch).
    pub at_ms: f64,
    /// The HTTP exchange (http) or the tapped host (stdio) it belongs to.
    pub exchange: u64,
    /// The MCP session it belongs to, once known (`Mcp-Session-Id`, or the tap's own name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(flatten)]
    pub what: What,
}

/// What passed. HTTP: a request from the host, then the upstream's status and headers, the body
/// as it arrived, its end. stdio: each line between the host and the server, and the server's
/// stderr.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum What {
    Request {
        method: String,
        url: String,
        headers: Vec<(String, String)>,
        body: String,
    },
    Response {
        status: u16,
        headers: Vec<(String, String)>,
    },
    Chunk {
        text: String,
    },
    End {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// A line of the stdio transport: written by the host to the server (`from_host`), or by
    /// the server to the host.
    Line {
        from_host: bool,
        text: String,
    },
    /// A line the server wrote to stderr.
    Stderr {
        text: String,
    },
    /// The tapped server's process ended, and how.
    Closed {
        why: String,
    },
}

/// The path under the bridge's secret where `mcp-flow-bridge tap` sends its copies.
pub const TAP_PATH: &str = "tap";

/// What a tap sends the bridge at once: the lines it copied since the last batch, and how many
/// it could not send (its queue was full or the bridge did not answer).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TapBatch {
    pub events: Vec<What>,
    pub dropped: u64,
}

/// One answer of the feed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Page {
    /// `http` or `stdio`.
    pub mode: String,
    /// What the host reaches through the bridge: the upstream URL, or the server's command.
    pub target: String,
    /// Ask with `since=next` for what follows.
    pub next: u64,
    /// Events asked for that the feed no longer holds (it keeps the newest).
    pub missed: u64,
    /// Events the feed has let go since it started, in all.
    pub dropped: u64,
    pub events: Vec<Event>,
}

/// `text` as the feed keeps it: whole up to [`TEXT_KEPT_BYTES`], else a note of its size.
pub fn kept(text: String) -> String {
    if text.len() <= TEXT_KEPT_BYTES {
        text
    } else {
        format!("[{} bytes, not kept]", text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_flat_with_its_kind() {
        let event = Event {
            n: 3,
            at_ms: 1.5,
            exchange: 2,
            session: Some("abc".into()),
            what: What::Response {
                status: 200,
                headers: vec![("content-type".into(), "text/event-stream".into())],
            },
        };
        let json = serde_json::to_value(&event).expect("serializes");
        assert_eq!(json["kind"], "response");
        assert_eq!(json["status"], 200);
        assert_eq!(json["session"], "abc");
        let back: Event = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, event);
    }

    #[test]
    fn a_big_text_is_replaced_by_its_size() {
        assert_eq!(kept("x".into()), "x");
        let big = "y".repeat(TEXT_KEPT_BYTES + 1);
        assert_eq!(
            kept(big),
            format!("[{} bytes, not kept]", TEXT_KEPT_BYTES + 1)
        );
    }
}
