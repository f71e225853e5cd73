//! An app's document as `resources/read` gives it: HTML of the extension's MIME type, with what
//! its `_meta.ui` asks for (the domains of its policy, device permissions, a border).

use base64::Engine;
use serde_json::Value;

use mcp_flow_client::apps::APP_MIME;
use mcp_flow_client::jsonrpc::strings;

/// The largest app document the host renders (its HTML, after base64 decoding).
pub const MAX_HTML_BYTES: usize = 4 * 1024 * 1024;

/// The domains an app declares for its policy (`_meta.ui.csp`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CspDomains {
    pub connect: Vec<String>,
    pub resource: Vec<String>,
    pub frame: Vec<String>,
    pub base_uri: Vec<String>,
    /// Whether the resource declared a `csp` at all (none: the spec's restrictive default).
    pub declared: bool,
}

/// Device permissions an app asks for (`_meta.ui.permissions`: `{camera: {}, …}`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Permissions {
    pub camera: bool,
    pub microphone: bool,
    pub geolocation: bool,
    pub clipboard_write: bool,
}

/// A tool's app, ready to be rendered.
#[derive(Debug, Clone, PartialEq)]
pub struct AppResource {
    pub uri: String,
    pub html: String,
    pub csp: CspDomains,
    pub permissions: Permissions,
    /// `true`: the app asks for a border; `false`: none; `None`: the host decides.
    pub prefers_border: Option<bool>,
}

/// Why a tool's app cannot be rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppError {
    /// The read gave no content for the URI.
    NoContent,
    /// The content is not `text/html;profile=mcp-app` (what it was, if it said).
    Mime(Option<String>),
    /// Larger than [`MAX_HTML_BYTES`] (its size in bytes).
    TooLarge(usize),
    /// A `blob` that is not base64 of UTF-8 text.
    Unreadable,
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoContent => f.write_str("the server's answer holds no content for the app"),
            Self::Mime(Some(found)) => write!(
                f,
                "the app's content is {found:?}, not {APP_MIME:?}: the host renders only the \
                 extension's HTML"
            ),
            Self::Mime(None) => write!(f, "the app's content names no MIME type ({APP_MIME:?})"),
            Self::TooLarge(size) => write!(
                f,
                "the app's HTML is {size} bytes; the host renders at most {MAX_HTML_BYTES}"
            ),
            Self::Unreadable => f.write_str("the app's blob is not base64 of UTF-8 HTML"),
        }
    }
}

/// Whether `found` is the app MIME type (case and spaces around `;` aside).
fn is_app_mime(found: &str) -> bool {
    let squeezed: String = found.chars().filter(|c| !c.is_whitespace()).collect();
    squeezed.eq_ignore_ascii_case(APP_MIME)
}

impl CspDomains {
    fn of(ui: Option<&Value>) -> Self {
        let Some(csp) = ui.and_then(|ui| ui.get("csp")).filter(|c| c.is_object()) else {
            return Self::default();
        };
        Self {
            connect: strings(csp.get("connectDomains")),
            resource: strings(csp.get("resourceDomains")),
            frame: strings(csp.get("frameDomains")),
            base_uri: strings(csp.get("baseUriDomains")),
            declared: true,
        }
    }
}

impl Permissions {
    fn of(ui: Option<&Value>) -> Self {
        let asked = |name: &str| {
            ui.and_then(|ui| ui.get("permissions"))
                .and_then(|p| p.get(name))
                .is_some_and(|v| !v.is_null() && v != &Value::Bool(false))
        };
        Self {
            camera: asked("camera"),
            microphone: asked("microphone"),
            geolocation: asked("geolocation"),
            clipboard_write: asked("clipboardWrite"),
        }
    }
}

impl AppResource {
    /// The app at `uri` from a `resources/read` result; `listed` is the resource's entry in
    /// `resources/list`, if the host has it (its `_meta.ui` counts where the content has none).
    pub fn read(uri: &str, result: &Value, listed: Option<&Value>) -> Result<Self, AppError> {
        let contents = result.get("contents").and_then(Value::as_array);
        let content = contents
            .into_iter()
            .flatten()
            .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
            .or_else(|| contents.and_then(|c| c.first()))
            .ok_or(AppError::NoContent)?;
        let mime = content.get("mimeType").and_then(Value::as_str);
        if !mime.is_some_and(is_app_mime) {
            return Err(AppError::Mime(mime.map(str::to_owned)));
        }
        let html = if let Some(text) = content.get("text").and_then(Value::as_str) {
            if text.len() > MAX_HTML_BYTES {
                return Err(AppError::TooLarge(text.len()));
            }
            text.to_owned()
        } else if let Some(blob) = content.get("blob").and_then(Value::as_str) {
            // Base64 is 4 characters for 3 bytes: refuse before decoding a huge one.
            if blob.len() / 4 * 3 > MAX_HTML_BYTES {
                return Err(AppError::TooLarge(blob.len() / 4 * 3));
            }
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(blob.trim())
                .map_err(|_| AppError::Unreadable)?;
            String::from_utf8(bytes).map_err(|_| AppError::Unreadable)?
        } else {
            return Err(AppError::NoContent);
        };
        // The content's `_meta.ui` first, then the listing's (the draft's order).
        let ui = content
            .pointer("/_meta/ui")
            .filter(|u| u.is_object())
            .or_else(|| listed.and_then(|l| l.pointer("/_meta/ui")));
        Ok(Self {
            uri: uri.to_owned(),
            html,
            csp: CspDomains::of(ui),
            permissions: Permissions::of(ui),
            prefers_border: ui
                .and_then(|u| u.get("prefersBorder"))
                .and_then(Value::as_bool),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const URI: &str = "ui://weather/card.html";

    fn read(content: Value) -> Result<AppResource, AppError> {
        AppResource::read(URI, &json!({ "contents": [content] }), None)
    }

    #[test]
    fn html_of_the_app_type_is_read_with_its_meta() {
        let app = read(json!({
            "uri": URI, "mimeType": "text/html; profile=mcp-app", "text": "<!doctype html><p>hi",
            "_meta": {"ui": {
                "csp": {"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://cdn.example.com"]},
                "permissions": {"camera": {}, "clipboardWrite": {}},
                "prefersBorder": false,
            }},
        }))
        .expect("an app");
        assert_eq!(app.html, "<!doctype html><p>hi");
        assert!(app.csp.declared);
        assert_eq!(app.csp.connect, ["https://api.example.com"]);
        assert_eq!(app.csp.resource, ["https://cdn.example.com"]);
        assert!(app.csp.frame.is_empty());
        assert!(app.permissions.camera && app.permissions.clipboard_write);
        assert!(!app.permissions.microphone && !app.permissions.geolocation);
        assert_eq!(app.prefers_border, Some(false));
    }

    #[test]
    fn the_listing_meta_counts_where_the_content_has_none() {
        let listed =
            json!({"uri": URI, "_meta": {"ui": {"csp": {"frameDomains": ["https://f.example"]}}}});
        let result = json!({"contents": [{"uri": URI, "mimeType": APP_MIME, "text": "<p>"}]});
        let app = AppResource::read(URI, &result, Some(&listed)).expect("an app");
        assert_eq!(app.csp.frame, ["https://f.example"]);
        let none = read(json!({"uri": URI, "mimeType": APP_MIME, "text": "<p>"})).expect("app");
        assert!(!none.csp.declared, "no csp: the restrictive default");
    }

    #[test]
    fn a_blob_is_decoded() {
        let blob = base64::engine::general_purpose::STANDARD.encode("<p>from a blob");
        let app = read(json!({"uri": URI, "mimeType": APP_MIME, "blob": blob})).expect("app");
        assert_eq!(app.html, "<p>from a blob");
        let bad = read(json!({"uri": URI, "mimeType": APP_MIME, "blob": "%%%"}));
        assert_eq!(bad, Err(AppError::Unreadable));
    }

    #[test]
    fn the_wrong_type_a_huge_document_or_nothing_is_refused_with_why() {
        let plain = read(json!({"uri": URI, "mimeType": "text/html", "text": "<p>"}));
        assert_eq!(plain, Err(AppError::Mime(Some("text/html".into()))));
        assert!(
            plain
                .unwrap_err()
                .to_string()
                .contains("text/html;profile=mcp-app")
        );
        assert_eq!(
            read(json!({"uri": URI, "text": "<p>"})),
            Err(AppError::Mime(None))
        );
        let huge = "x".repeat(MAX_HTML_BYTES + 1);
        let too_large = read(json!({"uri": URI, "mimeType": APP_MIME, "text": huge}));
        assert_eq!(too_large, Err(AppError::TooLarge(MAX_HTML_BYTES + 1)));
        let empty = AppResource::read(URI, &json!({"contents": []}), None);
        assert_eq!(empty, Err(AppError::NoContent));
        assert_eq!(
            read(json!({"uri": URI, "mimeType": APP_MIME})),
            Err(AppError::NoContent)
        );
    }
}
