//! Replaying a request from the message log, as it was or edited. Before anything is sent the
//! body is checked, and the user sees what this connection will send with it and where that
//! differs from the original: the session and version headers (2025-11-25), or the metadata
//! headers that 2026-07-28 rebuilds from the body (`MCP-Protocol-Version`, `Mcp-Method`,
//! `Mcp-Name`, `Mcp-Param-*`). The id is replaced when sent: an id must not repeat.

use std::collections::HashMap;

use serde_json::Value;

use crate::era::Era;
use crate::modern::{self, PROTOCOL_VERSION_HEADER, ParamHeader};

/// The largest body a replay sends (1 MiB, as much as the record keeps of a body).
pub const MAX_REPLAY_BODY: usize = 1024 * 1024;

/// The `_meta` key of a 2026-07-28 request's protocol version.
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// What the connection sends with a request now.
pub struct Connection<'a> {
    pub era: Era,
    pub url: &'a str,
    /// The session and negotiated-version headers (2025-11-25; none in 2026-07-28).
    pub connection_headers: Vec<(String, String)>,
    /// The version a 2026-07-28 request names when its body names none.
    pub modern_version: &'a str,
    /// Each tool's `x-mcp-header` arguments, from tools/list.
    pub annotated: &'a HashMap<String, Vec<ParamHeader>>,
}

/// The request that was recorded: where it went and the headers it carried.
pub struct Original<'a> {
    pub url: &'a str,
    pub headers: &'a [(String, String)],
}

/// A replay ready to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    /// The message; its id (if it has one) is replaced when sent.
    pub message: Value,
    /// Headers the client adds for this body beyond the connection's own (2026-07-28's
    /// metadata headers).
    pub extra_headers: Vec<(String, String)>,
    /// The protocol headers that go with it: the connection's and the extra ones.
    pub protocol_headers: Vec<(String, String)>,
    /// What the user should know before sending.
    pub notes: Vec<String>,
}

/// Checks `text` as a replay on `conn` of the request `original`.
pub fn prepare(
    text: &str,
    original: &Original<'_>,
    conn: &Connection<'_>,
) -> Result<Prepared, String> {
    if text.len() > MAX_REPLAY_BODY {
        return Err(format!(
            "The body is {} bytes; a replay sends at most 1 MiB ({MAX_REPLAY_BODY} bytes).",
            text.len()
        ));
    }
    let message: Value =
        serde_json::from_str(text).map_err(|e| format!("The body is not JSON: {e}."))?;
    let Some(object) = message.as_object() else {
        return Err("A replay sends one JSON-RPC message: a JSON object.".into());
    };
    let Some(method) = object.get("method").and_then(Value::as_str) else {
        return Err(
            "Only a request or a notification can be replayed: the body has no \
                    \"method\" string."
                .into(),
        );
    };
    let mut notes = Vec::new();
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        notes.push(
            "\"jsonrpc\" is not \"2.0\": the server should answer with an error (-32600)."
                .to_owned(),
        );
    }
    if object.contains_key("id") {
        notes.push(
            "The id is replaced by a new one when sent: an id must not repeat on a connection."
                .to_owned(),
        );
    }
    let params = object.get("params").cloned().unwrap_or(Value::Null);
    let body_version = params
        .get("_meta")
        .and_then(|m| m.get(META_VERSION))
        .and_then(Value::as_str);
    let extra_headers = match conn.era {
        Era::Legacy => {
            if let Some(v) = body_version {
                notes.push(format!(
                    "The body's _meta names {v} (a 2026-07-28 request), but this connection \
                     speaks the 2025-11-25 era: the server reads it as a request of its session."
                ));
            }
            Vec::new()
        }
        Era::Modern => {
            let version = match body_version {
                Some(v) => {
                    if v != conn.modern_version {
                        notes.push(format!(
                            "The body's _meta names version {v}; this connection speaks {}. \
                             {PROTOCOL_VERSION_HEADER} follows the body.",
                            conn.modern_version
                        ));
                    }
                    v
                }
                None => {
                    notes.push(format!(
                        "The body's _meta names no protocol version: a 2026-07-28 server \
                         refuses a request without it ({PROTOCOL_VERSION_HEADER}: {} is sent \
                         all the same).",
                        conn.modern_version
                    ));
                    conn.modern_version
                }
            };
            let annotated = params
                .get("name")
                .and_then(Value::as_str)
                .filter(|_| method == "tools/call")
                .and_then(|name| conn.annotated.get(name))
                .map(Vec::as_slice)
                .unwrap_or_default();
            modern::headers(version, method, &params, annotated)
        }
    };
    let mut protocol_headers = conn.connection_headers.clone();
    protocol_headers.extend(extra_headers.iter().cloned());
    if original.url != conn.url {
        notes.push(format!(
            "Recorded against {}; sent to this connection's {}.",
            original.url, conn.url
        ));
    }
    notes.extend(header_changes(original.headers, &protocol_headers));
    Ok(Prepared {
        message,
        extra_headers,
        protocol_headers,
        notes,
    })
}

/// Whether `name` is a header the protocol sets (the ones a replay may send differently).
fn is_protocol_header(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "mcp-session-id" | "mcp-protocol-version" | "mcp-method" | "mcp-name"
    ) || lower.starts_with("mcp-param-")
}

/// The protocol headers that differ between the original request and the replay, one line each.
fn header_changes(before: &[(String, String)], after: &[(String, String)]) -> Vec<String> {
    let find = |list: &[(String, String)], name: &str| {
        list.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let mut names: Vec<&str> = Vec::new();
    for (name, _) in before.iter().chain(after) {
        if is_protocol_header(name) && !names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
            names.push(name);
        }
    }
    names
        .into_iter()
        .filter_map(|name| {
            let (old, new) = (find(before, name), find(after, name));
            let line = match (old, new) {
                (Some(old), Some(new)) if old != new => format!("{name}: {old} → {new}"),
                (Some(old), None) => format!("{name}: {old} → not sent"),
                (None, Some(new)) => format!("{name}: not sent before → {new}"),
                _ => return None,
            };
            Some(format!("Headers differ from the original: {line}."))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const URL: &str = "http://127.0.0.1:8000/mcp";

    fn h(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    fn legacy(session: &str) -> Connection<'static> {
        static NONE: std::sync::OnceLock<HashMap<String, Vec<ParamHeader>>> =
            std::sync::OnceLock::new();
        Connection {
            era: Era::Legacy,
            url: URL,
            connection_headers: h(&[
                ("Mcp-Session-Id", session),
                ("MCP-Protocol-Version", "2025-11-25"),
            ]),
            modern_version: modern::VERSION,
            annotated: NONE.get_or_init(HashMap::new),
        }
    }

    fn modern_conn(annotated: &HashMap<String, Vec<ParamHeader>>) -> Connection<'_> {
        Connection {
            era: Era::Modern,
            url: URL,
            connection_headers: Vec::new(),
            modern_version: modern::VERSION,
            annotated,
        }
    }

    fn call(name: &str, location: &str) -> String {
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": {"name": name, "arguments": {"location": location},
                "_meta": {META_VERSION: modern::VERSION}}})
        .to_string()
    }

    #[test]
    fn a_legacy_replay_goes_in_the_open_session_and_says_so_when_it_differs() {
        let original_headers = h(&[
            ("Accept", "application/json, text/event-stream"),
            ("Mcp-Session-Id", "old"),
            ("MCP-Protocol-Version", "2025-11-25"),
        ]);
        let original = Original {
            url: URL,
            headers: &original_headers,
        };
        let body = r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}"#;
        let same = prepare(body, &original, &legacy("old")).unwrap();
        assert!(
            same.extra_headers.is_empty(),
            "the transport adds the session"
        );
        assert_eq!(
            same.notes,
            ["The id is replaced by a new one when sent: an id must not repeat on a connection."]
        );
        let other = prepare(body, &original, &legacy("new")).unwrap();
        assert_eq!(
            other.notes[1],
            "Headers differ from the original: Mcp-Session-Id: old → new."
        );
        assert_eq!(
            other.protocol_headers,
            h(&[
                ("Mcp-Session-Id", "new"),
                ("MCP-Protocol-Version", "2025-11-25")
            ])
        );
        // A notification has no id to replace.
        let note = prepare(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            &original,
            &legacy("old"),
        )
        .unwrap();
        assert!(note.notes.is_empty(), "{:?}", note.notes);
    }

    #[test]
    fn a_modern_replay_rebuilds_its_headers_from_the_edited_body() {
        let annotated = HashMap::new();
        let sent = modern::headers(
            modern::VERSION,
            "tools/call",
            &json!({"name": "get_weather"}),
            &[],
        );
        let original = Original {
            url: URL,
            headers: &sent,
        };
        let conn = modern_conn(&annotated);
        let as_was = prepare(&call("get_weather", "Tokyo"), &original, &conn).unwrap();
        assert_eq!(as_was.extra_headers, sent);
        assert_eq!(as_was.notes.len(), 1, "only the id: {:?}", as_was.notes);

        let edited = prepare(&call("get_forecast", "Tokyo"), &original, &conn).unwrap();
        assert!(
            edited
                .extra_headers
                .contains(&("Mcp-Name".to_owned(), "get_forecast".to_owned()))
        );
        assert_eq!(
            edited.notes[1],
            "Headers differ from the original: Mcp-Name: get_weather → get_forecast."
        );

        // No version in the body: said before sending, and the connection's is sent.
        let bare = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
        let p = prepare(bare, &original, &conn).unwrap();
        assert!(
            p.notes
                .iter()
                .any(|n| n.contains("names no protocol version")),
            "{:?}",
            p.notes
        );
        assert_eq!(p.extra_headers[0].1, modern::VERSION);
        assert!(
            p.notes
                .iter()
                .any(|n| n.contains("Mcp-Name: get_weather → not sent")),
            "{:?}",
            p.notes
        );

        // Another version in the body: the header follows it, and the user is told.
        let old = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
            "params": {"_meta": {META_VERSION: "2026-01-01"}}})
        .to_string();
        let p = prepare(&old, &original, &conn).unwrap();
        assert_eq!(p.extra_headers[0].1, "2026-01-01");
        assert!(p.notes.iter().any(|n| n.contains("follows the body")));
    }

    #[test]
    fn a_modern_replay_carries_the_tools_param_headers() {
        let mut annotated = HashMap::new();
        annotated.insert(
            "get_weather".to_owned(),
            vec![ParamHeader {
                name: "Location".into(),
                path: vec!["location".into()],
            }],
        );
        let conn = modern_conn(&annotated);
        let original = Original {
            url: URL,
            headers: &[],
        };
        let p = prepare(&call("get_weather", "Paris"), &original, &conn).unwrap();
        assert!(
            p.extra_headers
                .contains(&("Mcp-Param-Location".to_owned(), "Paris".to_owned())),
            "{:?}",
            p.extra_headers
        );
    }

    #[test]
    fn bodies_that_cannot_be_replayed_are_refused_with_the_reason() {
        let original = Original {
            url: "http://127.0.0.1:9999/mcp",
            headers: &[],
        };
        let conn = legacy("s");
        let refused = |text: &str| prepare(text, &original, &conn).unwrap_err();
        assert!(refused("{\"jsonrpc\": ").starts_with("The body is not JSON: "));
        assert_eq!(
            refused("[1, 2]"),
            "A replay sends one JSON-RPC message: a JSON object."
        );
        assert!(refused(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).contains("no \"method\""));
        let huge = format!(
            r#"{{"jsonrpc":"2.0","method":"x","params":{{"pad":"{}"}}}}"#,
            "a".repeat(MAX_REPLAY_BODY)
        );
        assert!(
            refused(&huge).contains("at most 1 MiB"),
            "{}",
            refused(&huge)
        );
        // Exactly at the limit is sent.
        let pad = MAX_REPLAY_BODY - r#"{"jsonrpc":"2.0","method":"x","params":{"pad":""}}"#.len();
        let at_limit = format!(
            r#"{{"jsonrpc":"2.0","method":"x","params":{{"pad":"{}"}}}}"#,
            "a".repeat(pad)
        );
        assert_eq!(at_limit.len(), MAX_REPLAY_BODY);
        let p = prepare(&at_limit, &original, &conn).unwrap();
        assert!(
            p.notes
                .iter()
                .any(|n| n.starts_with("Recorded against http://127.0.0.1:9999/mcp"))
        );
        // A body that is not JSON-RPC 2.0 is sent (a debugger may want the server's answer),
        // with a warning.
        let p = prepare(r#"{"method":"ping","id":1}"#, &original, &conn).unwrap();
        assert!(p.notes[0].contains("-32600"), "{:?}", p.notes);
    }
}
