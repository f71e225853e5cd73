//! MCP Flow: a real MCP client in the browser, made visible as the tutorial's sequence diagrams.

pub use mcp_flow_core::{
    clock, diagram, export, flow, llm, mcp, on_demand, output_check, placeholders, record,
    worker_link,
};
pub mod ui;
