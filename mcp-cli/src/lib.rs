//! The mcp-flow client on the command line: the native [`Http`](mcp_flow::mcp::http::Http)
//! (reqwest on a tokio current-thread runtime) and the exchange printer used by the
//! `mcp-flow-cli` binary.

pub mod http;
pub mod report;

#[cfg(test)]
mod http_tests;
