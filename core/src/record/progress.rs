//! A request's progress as the server reports it (`notifications/progress` on the request's
//! stream): the latest report is kept on the row whose request carried the token.

use crate::decimal::short;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The token the page puts in `tools/call`'s `_meta.progressToken`.
pub const PROGRESS_TOKEN: &str = "mcp-flow-progress";

/// The latest progress a server reported for a row's request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub progress: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The longest message kept (a server's text, shown on the diagram).
const MAX_MESSAGE_CHARS: usize = 200;

impl Progress {
    /// The report `message` carries when it is a progress notification for the page's token.
    pub fn reported(message: &Value) -> Option<Self> {
        if message.get("method").and_then(Value::as_str) != Some("notifications/progress") {
            return None;
        }
        let params = message.get("params")?;
        let token = params.get("progressToken")?;
        if token.as_str() != Some(PROGRESS_TOKEN) {
            return None;
        }
        let progress = params.get("progress")?.as_f64().filter(|p| p.is_finite())?;
        let total = params
            .get("total")
            .and_then(Value::as_f64)
            .filter(|t| t.is_finite() && *t > 0.0);
        let message = params
            .get("message")
            .and_then(Value::as_str)
            .map(|m| m.chars().take(MAX_MESSAGE_CHARS).collect());
        Some(Self {
            progress,
            total,
            message,
        })
    }

    /// How far along, from 0 to 1, when the server gave a total.
    pub fn fraction(&self) -> Option<f64> {
        self.total.map(|t| (self.progress / t).clamp(0.0, 1.0))
    }

    /// The report in a few words: "3/10 Counting: 3/10" (no total: "3").
    pub fn said(&self) -> String {
        let mut said = match self.total {
            Some(total) => format!("{}/{}", short(self.progress, 3), short(total, 3)),
            None => short(self.progress, 3).to_string(),
        };
        if let Some(message) = self.message.as_deref().filter(|m| !m.is_empty()) {
            said.push(' ');
            said.push_str(message);
        }
        said
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn note(params: Value) -> Value {
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
    }

    #[test]
    fn a_report_for_the_pages_token_is_read() {
        let p = Progress::reported(&note(json!({
            "progressToken": PROGRESS_TOKEN, "progress": 3, "total": 10, "message": "Counting: 3/10"
        })))
        .expect("a report");
        assert_eq!(p.fraction(), Some(0.3));
        assert_eq!(p.said(), "3/10 Counting: 3/10");
    }

    #[test]
    fn without_a_total_there_is_no_fraction() {
        let p = Progress::reported(&note(
            json!({"progressToken": PROGRESS_TOKEN, "progress": 0.5}),
        ))
        .expect("a report");
        assert_eq!(p.fraction(), None);
        assert_eq!(p.said(), "0.5");
    }

    #[test]
    fn a_fraction_past_the_total_is_full_and_a_zero_total_is_none() {
        let over = Progress::reported(&note(
            json!({"progressToken": PROGRESS_TOKEN, "progress": 12, "total": 10}),
        ))
        .expect("a report");
        assert_eq!(over.fraction(), Some(1.0));
        let zero = Progress::reported(&note(
            json!({"progressToken": PROGRESS_TOKEN, "progress": 1, "total": 0}),
        ))
        .expect("a report");
        assert_eq!(zero.fraction(), None);
    }

    #[test]
    fn other_tokens_methods_and_malformed_reports_are_not_read() {
        for m in [
            note(json!({"progressToken": "another", "progress": 1})),
            note(json!({"progressToken": PROGRESS_TOKEN})),
            note(json!({"progressToken": PROGRESS_TOKEN, "progress": "1"})),
            json!({"method": "notifications/message", "params": {"progressToken": PROGRESS_TOKEN, "progress": 1}}),
            json!({"method": "notifications/progress"}),
        ] {
            assert_eq!(Progress::reported(&m), None, "{m}");
        }
    }

    #[test]
    fn a_long_message_is_clipped() {
        let long = "x".repeat(5_000);
        let p = Progress::reported(&note(
            json!({"progressToken": PROGRESS_TOKEN, "progress": 1, "message": long}),
        ))
        .expect("a report");
        assert_eq!(
            p.message.map(|m| m.chars().count()),
            Some(MAX_MESSAGE_CHARS)
        );
    }
}
