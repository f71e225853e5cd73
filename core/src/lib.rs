//! MCP Flow without its views: the MCP client in both eras and its transport, the host that runs
//! the diagrams' rows for real and records them, the models, the diagrams as data, the exports.
//! No Leptos: the app (`mcp-flow`) draws it, `mcp-flow-cli` runs it natively.

pub mod clock;
pub mod diagram;
pub mod export;
pub mod flow;
pub mod llm;
pub mod mcp;
pub mod on_demand;
pub mod output_check;
pub mod placeholders;
pub mod record;
pub mod worker_link;
