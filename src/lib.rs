//! MCP Flow: a real MCP client in the browser, made visible as the tutorial's sequence diagrams.

pub use mcp_flow_client::{self as mcp, clock};
pub use mcp_flow_core::{
    app, decimal, diagnose, diagram, export, flow, host, llm, output_check, placeholders, record,
    watch, worker_link,
};
pub use mcp_flow_on_demand as on_demand;
pub mod ui;
