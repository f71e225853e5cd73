//! Sharing a run: a versioned JSON recording (which the app can load back), HAR 1.2 for the
//! browser's network panel, and a Mermaid sequence diagram with the real values filled in.
//! Keys never get here: the record holds no LLM headers and MCP credentials are redacted as
//! they are recorded; [`recording::Recording::new`] redacts once more.

pub mod har;
pub mod mermaid;
pub mod recording;

use crate::record::payload::{Field, FieldValue};
use crate::record::run::RowRecord;

/// Fields that are bulky or repeated elsewhere, left out of one-line summaries.
const BULKY: [Field; 2] = [Field::Capabilities, Field::Structured];

/// A row's live values on one line, e.g. `tool=get_weather arguments={"location":"Tokyo"}`.
pub fn row_summary(row: &RowRecord, max_chars: usize) -> String {
    let fields = row.payload.as_ref().map(|p| p.fields()).unwrap_or_default();
    let text = fields
        .into_iter()
        .filter(|(f, _)| !BULKY.contains(f))
        .filter_map(|(f, v)| match v {
            FieldValue::Value(v) => Some(format!("{}={}", f.name(), v.replace('\n', " "))),
            FieldValue::Absent => None,
        })
        .collect::<Vec<_>>()
        .join(" ");
    mcp_flow_client::error::clip(&text, max_chars)
}
