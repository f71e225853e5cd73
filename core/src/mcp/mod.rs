//! The MCP client in both protocol eras: wire messages, SSE, version negotiation and era
//! detection, the modern era's metadata rules, the Streamable HTTP transport and the exchange
//! record. Free of Leptos; the browser's HTTP lives in `browser.rs`.

pub mod auth;
pub mod bridge;
pub mod browse;
pub mod browser;
pub mod client;
#[cfg(test)]
mod client_tests;
pub mod content;
pub mod custom_headers;
pub mod discover;
pub mod era;
pub mod error;
pub mod http;
pub mod jsonrpc;
pub mod listen;
pub mod log_level;
pub mod modern;
#[cfg(test)]
mod modern_tests;
pub mod questions;
pub mod record;
pub mod replay;
pub mod resources;
pub mod saved;
#[cfg(test)]
pub(crate) mod scripted;
pub mod sse;
pub mod tasks;
pub mod tools;
pub mod transport;
pub mod version;
