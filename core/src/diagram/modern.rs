//! The tutorial's two diagrams redrawn for MCP 2026-07-28, in the tutorial's style (same participants,
//! same notes vocabulary): no `initialize`, no `notifications/initialized`, no session; an
//! optional `server/discover`; every request with `_meta` and the metadata headers; a tool may
//! ask for input by returning `input_required`, and the client retries (MRTR).
//! Rows that mean the same as a tutorial row keep its id (`d2-8` is the tools/call response in both
//! eras), so links and the record read the same across eras.

use super::original::the_two;
use super::spec::{Diagram, Text};
use super::tool_discovery;
use super::tool_execution;

static MODERN_DIAGRAMS: [Diagram; 2] = the_two(
    (
        Text::new(
            "Discovery and Tool Listing (MCP 2026-07-28)",
            "发现与工具列表（MCP 2026-07-28）",
        ),
        &tool_discovery::MODERN_ITEMS,
    ),
    (
        Text::new(
            "Tool Execution Flow (MCP 2026-07-28)",
            "工具执行流程（MCP 2026-07-28）",
        ),
        &tool_execution::MODERN_ITEMS,
    ),
);

/// Both diagrams of the 2026-07-28 era.
pub fn modern_diagrams() -> &'static [Diagram; 2] {
    &MODERN_DIAGRAMS
}
