//! Sharing a run: a versioned JSON recording (which the app can load back), HAR 1.2 for the
//! browser's network panel, and a Mermaid sequence diagram with the real values filled in.
//! Keys never get here: the record holds no LLM headers and MCP credentials are redacted as
//! they are recorded; [`recording::Recording::new`] redacts once more.

pub mod har;
pub mod mermaid;
pub mod recording;

use crate::flow::run::RowRecord;

/// Value keys that are bulky or repeated elsewhere, left out of one-line summaries.
const BULKY: [&str; 3] = ["payload", "capabilities", "structured"];

/// A row's live values on one line, e.g. `tool=get_weather arguments={"location":"Tokyo"}`.
pub fn row_summary(row: &RowRecord, max_chars: usize) -> String {
    let text = row
        .values
        .iter()
        .filter(|(k, _)| !k.starts_with("format:") && !BULKY.contains(&k.as_str()))
        .map(|(k, v)| format!("{k}={}", v.replace('\n', " ")))
        .collect::<Vec<_>>()
        .join(" ");
    crate::mcp::error::clip(&text, max_chars)
}
