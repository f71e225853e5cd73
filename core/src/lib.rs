//! MCP Flow without its views: the host that runs the diagrams' rows for real with the MCP
//! client (`mcp-flow-client`) and records them, the host of apps, the models, the diagrams as data, the exports.
//! No Leptos: the app (`mcp-flow`) draws it.

pub mod app;
pub mod decimal;
pub mod diagnose;
pub mod diagram;
pub mod export;
pub mod flow;
pub mod host;
pub mod llm;
pub mod output_check;
pub mod placeholders;
pub mod record;
pub mod watch;
pub mod worker_link;
