//! The tool call an app belongs to: what the host hands the app once it is ready.

use serde_json::Value;

use mcp_flow_client::apps::app_uri;

/// A tool call whose tool has an app: what the app is given.
#[derive(Debug, Clone, PartialEq)]
pub struct CalledTool {
    /// The tool as `tools/list` gave it (with its `_meta.ui`).
    pub tool: Value,
    pub arguments: Value,
    /// The `CallToolResult` as the server sent it.
    pub result: Value,
}

impl CalledTool {
    /// The app's `ui://` resource.
    pub fn app_uri(&self) -> Option<&str> {
        app_uri(&self.tool)
    }
}
