//! MCP Flow: a real MCP client in the browser, made visible as the seeds' sequence diagrams.

pub mod clock;
pub mod diagram;
pub mod export;
pub mod flow;
pub mod llm;
pub mod mcp;
pub mod on_demand;
pub mod output_check;
pub mod ui;
pub mod worker_link;
