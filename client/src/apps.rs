//! The MCP Apps extension (`io.modelcontextprotocol/ui`, 2026-01-26) as a client sees it: the
//! declaration a host of apps sends, and where a tool names its app and who may call it.

use rmcp::model::ClientCapabilities;
use serde_json::{Map, Value, json};

/// The extension's id in `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of an app's HTML.
pub const APP_MIME: &str = "text/html;profile=mcp-app";
/// The scheme of an app's resource.
pub const APP_SCHEME: &str = "ui://";

/// `capabilities` with the extension declared (beside any other extension).
pub fn declaring(mut capabilities: ClientCapabilities) -> ClientCapabilities {
    let mut settings = Map::new();
    settings.insert("mimeTypes".into(), json!([APP_MIME]));
    capabilities
        .extensions
        .get_or_insert_with(Default::default)
        .insert(EXTENSION.to_owned(), settings);
    capabilities
}

/// The `ui://` resource of `tool`'s app: `_meta.ui.resourceUri`, else the older flat key
/// `_meta["ui/resourceUri"]`. Any other scheme is no app.
pub fn app_uri(tool: &Value) -> Option<&str> {
    let meta = tool.get("_meta")?;
    let uri = meta
        .pointer("/ui/resourceUri")
        .or_else(|| meta.get("ui/resourceUri"))?
        .as_str()?;
    uri.starts_with(APP_SCHEME).then_some(uri)
}

/// Who may call a tool (`_meta.ui.visibility`; both when it says nothing readable).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visibility {
    /// The model sees it in its tool list.
    pub model: bool,
    /// An app of the same server may call it.
    pub app: bool,
}

impl Visibility {
    /// `tool`'s visibility.
    pub fn of(tool: &Value) -> Self {
        let Some(listed) = tool
            .pointer("/_meta/ui/visibility")
            .and_then(Value::as_array)
        else {
            return Self {
                model: true,
                app: true,
            };
        };
        let has = |who: &str| listed.iter().any(|v| v.as_str() == Some(who));
        Self {
            model: has("model"),
            app: has("app"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declaration_keeps_other_extensions() {
        let mut caps = ClientCapabilities::default();
        let mut tasks = Map::new();
        tasks.insert("x".into(), json!(1));
        caps.extensions = Some([("io.modelcontextprotocol/tasks".to_owned(), tasks)].into());
        let value = serde_json::to_value(declaring(caps)).expect("json");
        assert_eq!(
            value["extensions"][EXTENSION],
            json!({"mimeTypes": ["text/html;profile=mcp-app"]})
        );
        assert_eq!(value["extensions"]["io.modelcontextprotocol/tasks"]["x"], 1);
    }

    #[test]
    fn a_tool_names_its_app_in_either_key_and_only_as_ui() {
        let new = json!({"name": "a", "_meta": {"ui": {"resourceUri": "ui://w/card.html"}}});
        assert_eq!(app_uri(&new), Some("ui://w/card.html"));
        let flat = json!({"name": "a", "_meta": {"ui/resourceUri": "ui://w/old.html"}});
        assert_eq!(app_uri(&flat), Some("ui://w/old.html"));
        let both =
            json!({"_meta": {"ui": {"resourceUri": "ui://new"}, "ui/resourceUri": "ui://old"}});
        assert_eq!(app_uri(&both), Some("ui://new"));
        for none in [
            json!({"name": "a"}),
            json!({"_meta": {"ui": {"resourceUri": "https://evil.example/app.html"}}}),
            json!({"_meta": {"ui": {"resourceUri": 7}}}),
        ] {
            assert_eq!(app_uri(&none), None, "{none}");
        }
    }

    #[test]
    fn visibility_defaults_to_both_and_reads_the_list() {
        let both = Visibility {
            model: true,
            app: true,
        };
        assert_eq!(Visibility::of(&json!({"name": "a"})), both);
        assert_eq!(
            Visibility::of(&json!({"_meta": {"ui": {"visibility": "app"}}})),
            both,
            "not a list: the default"
        );
        let app_only = Visibility::of(&json!({"_meta": {"ui": {"visibility": ["app"]}}}));
        assert!(!app_only.model && app_only.app);
        let model_only = Visibility::of(&json!({"_meta": {"ui": {"visibility": ["model"]}}}));
        assert!(model_only.model && !model_only.app);
    }
}
