//! The second leg behind `mcp-flow-bridge`: what the real server behind the bridge got and said.
//! The bridge serves a record of every line it wrote to the child's stdin and read from its
//! stdout and stderr (or every upstream HTTP exchange) at `…/s/SECRET/legs`; this module finds
//! that address from the MCP endpoint's, reads the record, and picks the lines that belong to one
//! JSON-RPC exchange, so the inspector can show them under the row they belong to.

use serde_json::Value;

/// The record's address for an MCP endpoint served by the bridge (`…/s/SECRET/mcp`), or `None`
/// for any other server.
pub fn legs_url(server: &str) -> Option<String> {
    let base = server.split(['?', '#']).next()?;
    let rest = base.strip_suffix("/mcp")?;
    let (before, secret) = rest.rsplit_once('/')?;
    if secret.is_empty() || !before.ends_with("/s") {
        return None;
    }
    Some(format!("{rest}/legs"))
}

/// Which stream a line is from, as the bridge names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leg {
    Stdin,
    Stdout,
    Stderr,
    Bridge,
}

impl Leg {
    fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "stdin" => Self::Stdin,
            "stdout" => Self::Stdout,
            "stderr" => Self::Stderr,
            "bridge" => Self::Bridge,
            _ => return None,
        })
    }

    /// Which way the line went, for a reader.
    pub fn arrow(self) -> &'static str {
        match self {
            Self::Stdin => "→ stdin",
            Self::Stdout => "← stdout",
            Self::Stderr => "← stderr",
            Self::Bridge => "· bridge",
        }
    }
}

/// One line of the record.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub seq: u64,
    pub at_ms: f64,
    pub leg: Leg,
    pub text: String,
    pub note: Option<String>,
}

impl Entry {
    fn read(v: &Value) -> Option<Self> {
        Some(Self {
            seq: v.get("seq")?.as_u64()?,
            at_ms: v.get("at_ms")?.as_f64()?,
            leg: Leg::from_name(v.get("leg")?.as_str()?)?,
            text: v.get("text")?.as_str()?.to_owned(),
            note: v.get("note").and_then(Value::as_str).map(str::to_owned),
        })
    }
}

/// The record as the bridge serves it: the command it runs (stdio) or its upstream (http), and
/// one session's lines when asked for one. (Read by hand from a `Value`: a derived `Deserialize`
/// would add its own parser to the page's first load.)
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Legs {
    pub command: Vec<String>,
    pub upstream: Option<String>,
    pub entries: Vec<Entry>,
}

impl Legs {
    /// The record from the bridge's JSON.
    pub fn read(text: &str) -> Result<Self, String> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| format!("not a bridge record: {e}"))?;
        if !v.is_object() {
            return Err("not a bridge record: not a JSON object".into());
        }
        let strings = |key: &str| -> Vec<String> {
            v.get(key)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        let entries = match v.get("entries").and_then(Value::as_array) {
            Some(list) => list
                .iter()
                .map(|e| Entry::read(e).ok_or_else(|| format!("not a bridge record line: {e}")))
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        Ok(Self {
            command: strings("command"),
            upstream: v.get("upstream").and_then(Value::as_str).map(str::to_owned),
            entries,
        })
    }

    /// What the bridge stands for: the command it runs (each path by its file name, so the
    /// participant's box stays short), or the upstream it forwards to.
    pub fn describe(&self) -> Option<String> {
        if !self.command.is_empty() {
            let short: Vec<&str> = self
                .command
                .iter()
                .map(|part| part.rsplit('/').next().unwrap_or(part))
                .collect();
            return Some(short.join(" "));
        }
        self.upstream.clone()
    }

    /// The lines about the JSON-RPC message with `id` (the request written to stdin, the answer
    /// read from stdout, and what the child sent while it was open), plus stderr lines written
    /// between the request and its answer.
    pub fn for_id(&self, id: &Value) -> Vec<&Entry> {
        let has_id = |e: &Entry| {
            serde_json::from_str::<Value>(&e.text)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .as_ref()
                == Some(id)
        };
        let Some(first) = self
            .entries
            .iter()
            .position(|e| e.leg == Leg::Stdin && has_id(e))
        else {
            return Vec::new();
        };
        let last = self
            .entries
            .iter()
            .rposition(|e| e.leg == Leg::Stdout && has_id(e))
            .unwrap_or(first);
        self.entries[first..=last.max(first)]
            .iter()
            .filter(|e| e.leg != Leg::Stdin || has_id(e))
            .collect()
    }
}

/// The session header the bridge adds to its answers (stdio mode): whose record holds them.
pub const SESSION_HEADER: &str = "mcp-flow-bridge-session";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_bridge_endpoints_have_a_record() {
        assert_eq!(
            legs_url("http://127.0.0.1:8001/s/abc123/mcp").as_deref(),
            Some("http://127.0.0.1:8001/s/abc123/legs")
        );
        assert_eq!(
            legs_url("http://127.0.0.1:8001/s/abc123/mcp?x=1").as_deref(),
            Some("http://127.0.0.1:8001/s/abc123/legs")
        );
        for other in [
            "http://127.0.0.1:8000/mcp",
            "http://127.0.0.1:8001/s//mcp",
            "http://127.0.0.1:8001/x/abc/mcp",
            "http://127.0.0.1:8001/s/abc/other",
            "",
        ] {
            assert_eq!(legs_url(other), None, "{other}");
        }
    }

    fn record() -> Legs {
        let line = |seq, leg: &str, text: Value| {
            json!({"seq": seq, "at_ms": 1.0e12 + seq as f64, "leg": leg,
                "text": if text.is_string() { text } else { Value::String(text.to_string()) }})
        };
        Legs::read(
            &json!({"mode": "stdio", "command": ["/venv/bin/python", "/srv/weather.py"], "entries": [
                line(0, "bridge", json!("started pid 42")),
                line(1, "stdin", json!({"jsonrpc": "2.0", "id": 1, "method": "initialize"})),
                line(2, "stdout", json!({"jsonrpc": "2.0", "id": 1, "result": {}})),
                line(3, "stdin", json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call"})),
                line(4, "stderr", json!("looking up Tokyo")),
                line(5, "stdout", json!({"jsonrpc": "2.0", "method": "notifications/message"})),
                line(6, "stdout", json!({"jsonrpc": "2.0", "id": 2, "result": {"content": []}})),
                line(7, "stdin", json!({"jsonrpc": "2.0", "id": 3, "method": "ping"})),
            ]})
            .to_string(),
        )
        .expect("a record")
    }

    #[test]
    fn an_exchange_gets_its_own_lines_and_what_came_while_it_was_open() {
        let legs = record();
        assert_eq!(legs.describe().as_deref(), Some("python weather.py"));
        let seqs = |id: Value| -> Vec<u64> { legs.for_id(&id).iter().map(|e| e.seq).collect() };
        assert_eq!(seqs(json!(1)), [1, 2]);
        assert_eq!(seqs(json!(2)), [3, 4, 5, 6]);
        assert_eq!(seqs(json!(3)), [7], "no answer yet: the request alone");
        assert!(seqs(json!(9)).is_empty());
        assert!(seqs(json!("2")).is_empty(), "ids compare as JSON values");
    }

    #[test]
    fn an_http_bridge_names_its_upstream_and_bad_json_is_an_error() {
        let legs =
            Legs::read(r#"{"mode":"http","upstream":"http://127.0.0.1:9/mcp","exchanges":[]}"#)
                .expect("http record");
        assert_eq!(legs.describe().as_deref(), Some("http://127.0.0.1:9/mcp"));
        assert!(
            Legs::read("<html>")
                .unwrap_err()
                .contains("not a bridge record")
        );
    }
}
