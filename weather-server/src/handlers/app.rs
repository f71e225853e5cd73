//! The weather card: `get_weather`'s app for hosts of the MCP Apps extension
//! (`io.modelcontextprotocol/ui`). The tool names the card's `ui://` resource in its `_meta.ui`;
//! a host that reads it renders the HTML in a sandbox and hands it the tool's input and result.
//! The tool's answer is the same for every client: a host without the extension sees only text.

use rmcp::model::{MetaObject, Resource, ResourceContents};
use serde_json::{Value, json};

/// The card's resource.
pub const CARD_URI: &str = "ui://weather/card.html";
/// The MIME type of an app's HTML (the extension's `text/html;profile=mcp-app`).
pub const APP_MIME: &str = "text/html;profile=mcp-app";
/// The card itself: one HTML file, its script and style inline, no network.
const CARD_HTML: &str = include_str!("../../assets/card.html");

/// The card's `_meta.ui`: no network at all (no `csp` domains), drawn with a border.
fn card_ui() -> Value {
    json!({ "csp": {}, "prefersBorder": true })
}

/// `get_weather`'s `_meta`: its app, for the model and for the app's own calls.
pub fn tool_meta() -> MetaObject {
    let mut meta = MetaObject::new();
    meta.insert(
        "ui".to_owned(),
        json!({ "resourceUri": CARD_URI, "visibility": ["model", "app"] }),
    );
    meta
}

fn ui_meta() -> MetaObject {
    let mut meta = MetaObject::new();
    meta.insert("ui".to_owned(), card_ui());
    meta
}

/// The card as `resources/list` gives it.
pub fn card_resource() -> Resource {
    Resource::new(CARD_URI, "weather-card")
        .with_title("Weather card")
        .with_description("get_weather's app: the city, its conditions and temperature")
        .with_mime_type(APP_MIME)
        .with_meta(ui_meta())
}

/// The card's contents, when `uri` is the card's.
pub fn read(uri: &str) -> Option<ResourceContents> {
    (uri == CARD_URI).then(|| {
        ResourceContents::text(CARD_HTML, uri)
            .with_mime_type(APP_MIME)
            .with_meta(ui_meta())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_card_is_an_app_resource_that_asks_for_no_network() {
        let contents = serde_json::to_value(read(CARD_URI).expect("card")).expect("json");
        assert_eq!(contents["mimeType"], APP_MIME);
        assert_eq!(contents["_meta"]["ui"]["csp"], json!({}));
        let html = contents["text"].as_str().expect("text");
        assert!(html.starts_with("<!doctype html>"), "{}", &html[..40]);
        assert!(
            html.contains("ui/initialize"),
            "the card speaks the extension"
        );
        // Everything inline: no script, style or image from elsewhere.
        for outside in ["src=\"http", "href=\"http", "fetch(", "XMLHttpRequest"] {
            assert!(!html.contains(outside), "{outside}");
        }
        assert!(read("ui://weather/other.html").is_none());
    }

    #[test]
    fn the_tool_names_the_card_for_model_and_app() {
        let meta = serde_json::to_value(tool_meta()).expect("json");
        assert_eq!(meta["ui"]["resourceUri"], CARD_URI);
        assert_eq!(meta["ui"]["visibility"], json!(["model", "app"]));
        let listed = serde_json::to_value(card_resource()).expect("json");
        assert_eq!(listed["uri"], CARD_URI);
        assert_eq!(listed["mimeType"], APP_MIME);
    }
}
