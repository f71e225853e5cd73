//! The mcp-flow client on the command line: the native [`Http`](mcp_flow_client::http::Http)
//! (reqwest on a tokio current-thread runtime) and the exchange printer used by the
//! `mcp-flow-cli` binary, and what that client does with a server in either era (`session`).

pub mod http;
pub mod report;
pub mod session;

#[cfg(test)]
mod http_tests;
