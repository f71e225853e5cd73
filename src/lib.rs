//! MCP Flow: a real MCP client in the browser, made visible as the seeds' sequence diagrams.

pub mod mcp;
pub mod ui;
