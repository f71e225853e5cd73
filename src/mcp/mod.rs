//! The MCP client: wire messages, SSE, version negotiation and the browser transport.

pub mod body;
pub mod browser;
pub mod jsonrpc;
pub mod sse;
pub mod version;
