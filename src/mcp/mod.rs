//! The MCP client: wire messages, SSE, version negotiation, the Streamable HTTP transport and the
//! exchange record. Free of Leptos; the browser's HTTP lives in `browser.rs`.

pub mod browser;
pub mod client;
#[cfg(test)]
mod client_tests;
pub mod error;
pub mod http;
pub mod jsonrpc;
pub mod modern;
pub mod record;
#[cfg(test)]
pub(crate) mod scripted;
pub mod sse;
pub mod transport;
pub mod version;
