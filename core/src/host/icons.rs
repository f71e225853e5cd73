//! The icons a server gives itself and its tools (`icons`: `src`, `mimeType`, `sizes`, `theme`),
//! as the inspector shows them: PNG, JPEG and SVG only, from `https:` (fetched without
//! credentials or referrer) or a `data:` URL; anything else is listed with why it is not
//! fetched.

use serde_json::Value;

/// The types shown.
const SHOWN_TYPES: [&str; 3] = ["image/png", "image/jpeg", "image/svg+xml"];
/// The longest `data:` URL shown (bytes).
pub const MAX_DATA_URL: usize = 256 * 1024;
/// The most icons read for one owner.
const MAX_ICONS: usize = 8;

/// One icon of a server or a tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Icon {
    /// Whose it is: the server's name, or a tool's.
    pub of: String,
    /// The `src` to show, or why it is not fetched (with the `src`, clipped).
    pub src: Result<String, String>,
    /// `sizes` and `theme`, as given ("48x48, any · dark").
    pub note: String,
}

/// The type an icon's `src` claims: a `data:` URL's own, else the `mimeType`, else its
/// extension.
fn claimed_type(src: &str, mime: Option<&str>) -> Option<String> {
    if let Some(rest) = src.strip_prefix("data:") {
        let end = rest.find([';', ',']).unwrap_or(rest.len());
        return Some(rest[..end].to_ascii_lowercase());
    }
    if let Some(mime) = mime {
        return Some(mime.to_ascii_lowercase());
    }
    let path = src
        .split(['?', '#'])
        .next()
        .unwrap_or(src)
        .to_ascii_lowercase();
    [
        (".png", "image/png"),
        (".jpg", "image/jpeg"),
        (".jpeg", "image/jpeg"),
        (".svg", "image/svg+xml"),
    ]
    .iter()
    .find(|(ext, _)| path.ends_with(ext))
    .map(|(_, t)| (*t).to_owned())
}

/// Whether `src` may be shown, or why not.
pub fn check(src: &str, mime: Option<&str>) -> Result<String, String> {
    let lower = src.trim_start().to_ascii_lowercase();
    let data = lower.starts_with("data:");
    if !data && !lower.starts_with("https://") {
        return Err("not fetched: only https: and data: icons are shown".into());
    }
    if data && src.len() > MAX_DATA_URL {
        return Err(format!(
            "not shown: a data: URL of {} bytes (at most {MAX_DATA_URL})",
            src.len()
        ));
    }
    match claimed_type(src, mime) {
        Some(t) if SHOWN_TYPES.contains(&t.as_str()) => Ok(src.trim().to_owned()),
        Some(t) => Err(format!(
            "not fetched: {t} (only PNG, JPEG and SVG are shown)"
        )),
        None => {
            Err("not fetched: its type is not said (no mimeType, no .png, .jpg or .svg)".into())
        }
    }
}

/// The icons in `owner`'s `icons` array, named `of`.
pub fn read(owner: &Value, of: &str) -> Vec<Icon> {
    let Some(list) = owner.get("icons").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .take(MAX_ICONS)
        .map(|icon| {
            let src = icon.get("src").and_then(Value::as_str).unwrap_or("");
            let mime = icon.get("mimeType").and_then(Value::as_str);
            let sizes = icon.get("sizes").and_then(Value::as_array).map(|s| {
                s.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            let theme = icon.get("theme").and_then(Value::as_str);
            let note = [sizes.as_deref(), theme]
                .into_iter()
                .flatten()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" · ");
            let src = check(src, mime).map_err(|why| {
                let shown: String = src.chars().take(80).collect();
                format!("{why}: {shown}")
            });
            Icon {
                of: of.to_owned(),
                src,
                note,
            }
        })
        .collect()
}

/// The server's icons in an `initialize` result (`serverInfo`) or a `server/discover` result
/// (`_meta["io.modelcontextprotocol/serverInfo"]`).
pub fn of_server(result: &Value) -> Vec<Icon> {
    let info = result
        .get("serverInfo")
        .or_else(|| result.pointer("/_meta/io.modelcontextprotocol~1serverInfo"));
    info.map(|info| {
        let name = info
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("the server");
        read(info, name)
    })
    .unwrap_or_default()
}

/// Each listed tool's icons in a `tools/list` result.
pub fn of_tools(result: &Value) -> Vec<Icon> {
    result
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(|tool| {
            read(
                tool,
                tool.get("name").and_then(Value::as_str).unwrap_or("?"),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DOT: &str = "data:image/png;base64,iVBORw0KGgo=";

    #[test]
    fn https_and_data_images_of_the_three_types_are_shown() {
        assert_eq!(check(DOT, None), Ok(DOT.to_owned()));
        assert!(check("https://x.test/i.svg", None).is_ok());
        assert!(check("https://x.test/icon?v=2", Some("image/jpeg")).is_ok());
        assert!(
            check("data:image/svg+xml,<svg/>", Some("image/png")).is_ok(),
            "the URL's own type"
        );
    }

    #[test]
    fn other_schemes_types_and_sizes_are_not_fetched_and_say_why() {
        for (src, mime, why) in [
            ("http://x.test/i.png", None, "only https: and data:"),
            ("javascript:alert(1)", None, "only https: and data:"),
            ("file:///etc/passwd", None, "only https: and data:"),
            ("https://x.test/i.gif", Some("image/gif"), "image/gif"),
            ("data:text/html,<b>hi</b>", None, "text/html"),
            ("https://x.test/icon", None, "type is not said"),
        ] {
            let err = check(src, mime).unwrap_err();
            assert!(err.contains(why), "{src}: {err}");
        }
        let huge = format!("data:image/png;base64,{}", "A".repeat(MAX_DATA_URL));
        assert!(check(&huge, None).unwrap_err().contains("data: URL of"));
    }

    #[test]
    fn a_servers_and_its_tools_icons_are_read_in_either_era() {
        let icon = json!({"src": DOT, "sizes": ["48x48", "any"], "theme": "dark"});
        let legacy = json!({"serverInfo": {"name": "weather", "icons": [icon]}});
        let modern = json!({"_meta": {"io.modelcontextprotocol/serverInfo": {"name": "weather", "icons": [icon]}}});
        for result in [legacy, modern] {
            let read = of_server(&result);
            assert_eq!(read.len(), 1);
            assert_eq!(read[0].of, "weather");
            assert_eq!(read[0].note, "48x48, any · dark");
            assert_eq!(read[0].src, Ok(DOT.to_owned()));
        }
        let tools = json!({"tools": [
            {"name": "a", "icons": [{"src": "http://x.test/a.png"}]},
            {"name": "b"}]});
        let read = of_tools(&tools);
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].of, "a");
        assert!(
            read[0]
                .src
                .as_ref()
                .unwrap_err()
                .ends_with(": http://x.test/a.png")
        );
        assert!(of_server(&json!({})).is_empty());
    }
}
