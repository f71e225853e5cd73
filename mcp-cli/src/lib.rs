//! The mcp-flow client on the command line: the native [`Http`](mcp_flow_client::http::Http)
//! (reqwest on a tokio current-thread runtime) and the exchange printer used by the
//! `mcp-flow-cli` binary, what that client does with a server in either era (`session`), and the model it answers a
//! server's sampling requests with (`model`).

pub mod http;
pub mod model;
pub mod report;
pub mod session;

#[cfg(test)]
mod http_tests;
