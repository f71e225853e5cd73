//! The MCP client in both protocol eras: wire messages, SSE, version negotiation and era
//! detection, the modern era's metadata rules, the Streamable HTTP transport, authorization and
//! the exchange record. The HTTP underneath is a trait ([`Http`]): the browser's fetch is
//! [`browser::Fetch`] (feature `browser`), the command line brings reqwest.

pub mod apps;
pub mod auth;
pub mod browse;
#[cfg(feature = "browser")]
pub mod browser;
pub mod client;
#[cfg(test)]
mod client_tests;
pub mod clock;
pub mod custom_headers;
pub mod discover;
pub mod era;
pub mod error;
pub mod hear;
pub mod http;
pub mod jsonrpc;
pub mod listen;
pub mod log_level;
pub mod modern;
#[cfg(test)]
mod modern_tests;
pub mod old_sse;
mod old_sse_link;
#[cfg(test)]
mod old_sse_tests;
pub mod origin;
pub mod questions;
pub mod record;
pub mod replay;
pub mod resources;
pub mod roots;
pub mod sampling;
#[cfg(any(test, feature = "scripted"))]
pub mod scripted;
pub mod sse;
pub mod tasks;
pub mod tools;
pub mod transport;
pub mod version;

pub use client::McpClient;
pub use clock::{Clock, SharedClock};
pub use era::{Detection, Era, EraChoice};
pub use error::McpError;
pub use http::{Http, HttpRequest, HttpResponse};
pub use record::{Exchange, Log};
