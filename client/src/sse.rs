//! The incremental SSE parser, from the workspace crate `mcp-flow-sse` (shared with the load
//! generator and the weather server's tests, so there is one parser to get right).

pub use mcp_flow_sse::*;
