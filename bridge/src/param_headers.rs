//! `Mcp-Param-*` headers (2026-07-28, `x-mcp-header`): a tool may name arguments that clients
//! mirror into headers, and a server that reads the body must refuse a request whose header
//! and body disagree (400, −32020). The child behind the stdio relay never sees the headers,
//! so the bridge checks them. It learns which arguments a tool mirrors from the `tools/list`
//! answers the child gives (the only answers it reads beyond routing); a tool it has not seen
//! listed yet is not checked, as a server without the tool's schema could not either.
//!
//! The rules, from the revision's transport page: the value at the annotated property's path
//! (a chain of `properties` keys) is the header's, a string as is, an integer in decimal (compared
//! as a number), a boolean as `true`/`false`; a value that is not safe as plain ASCII comes as
//! `=?base64?…?=`; an absent or `null` value means no header, and a value without its header,
//! a header without its value, or a value that differs is a mismatch.

use std::collections::HashMap;

use axum::http::HeaderMap;
use mcp_flow_wire::{PARAM_HEADER_PREFIX, argument_at, header_matches};
use serde_json::Value;

/// One mirrored argument: where it is in `arguments`, and its header's name (lower case, and
/// as the tool wrote it).
#[derive(Debug, Clone, PartialEq)]
struct Mirrored {
    path: Vec<String>,
    header: String,
    shown: String,
}

/// What the bridge knows of the tools' mirrored arguments, by tool name.
#[derive(Debug, Default)]
pub struct ParamHeaders {
    tools: HashMap<String, Vec<Mirrored>>,
}

impl ParamHeaders {
    /// Reads a `tools/list` answer (a JSON-RPC response, as text) and remembers each listed
    /// tool's mirrored arguments; anything else is ignored.
    pub fn learn(&mut self, answer: &str) {
        let Ok(answer) = serde_json::from_str::<Value>(answer) else {
            return;
        };
        let Some(tools) = answer.pointer("/result/tools").and_then(Value::as_array) else {
            return;
        };
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            // A tool whose annotations break the rules is one a client must leave out: the
            // bridge checks no header of it.
            let mirrored = tool
                .get("inputSchema")
                .and_then(Value::as_object)
                .and_then(|schema| mcp_flow_wire::param_headers(schema).ok())
                .unwrap_or_default()
                .into_iter()
                .map(|h| Mirrored {
                    path: h.path,
                    header: format!("{PARAM_HEADER_PREFIX}{}", h.name).to_ascii_lowercase(),
                    shown: format!("{PARAM_HEADER_PREFIX}{}", h.name),
                })
                .collect();
            self.tools.insert(name.to_owned(), mirrored);
        }
    }

    /// Whether `tool` was listed (its headers can be checked).
    pub fn knows(&self, tool: &str) -> bool {
        self.tools.contains_key(tool)
    }

    /// Checks a `tools/call` request's `Mcp-Param-*` headers against its arguments. `Err` says
    /// what differs, as a `Header mismatch: …` message.
    pub fn check(&self, headers: &HeaderMap, body: &Value) -> Result<(), String> {
        if body.get("method").and_then(Value::as_str) != Some("tools/call") {
            return Ok(());
        }
        let params = body.get("params");
        let Some(mirrored) = params
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str)
            .and_then(|name| self.tools.get(name))
        else {
            return Ok(());
        };
        let arguments = params.and_then(|p| p.get("arguments"));
        for Mirrored {
            path,
            header,
            shown,
        } in mirrored
        {
            let prop = path.join(".");
            let value = arguments.and_then(|a| argument_at(a, path));
            let mut sent = headers.get_all(header.as_str()).iter();
            let first = sent.next();
            if sent.next().is_some() {
                return Err(format!("Header mismatch: {shown} is sent more than once"));
            }
            let raw = match first.map(|v| v.to_str()) {
                None => None,
                Some(Ok(raw)) => Some(raw.trim()),
                Some(Err(_)) => {
                    return Err(format!(
                        "Header mismatch: {shown} has characters a header value cannot carry"
                    ));
                }
            };
            match (raw, value) {
                (None, None) => {}
                (Some(raw), None) => {
                    return Err(format!(
                        "Header mismatch: {shown} is {raw:?} but arguments.{prop} is absent"
                    ));
                }
                (None, Some(value)) => {
                    return Err(format!(
                        "Header mismatch: {shown} is missing (arguments.{prop} is {value})"
                    ));
                }
                (Some(raw), Some(value)) => {
                    let decoded = decode(raw).ok_or_else(|| {
                        format!("Header mismatch: {shown} is not valid =?base64?…?=")
                    })?;
                    if !header_matches(&decoded, value) {
                        return Err(format!(
                            "Header mismatch: {shown} is {decoded:?} but arguments.{prop} is {value}"
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// A header value as the text it carries: `=?base64?…?=` decoded (UTF-8), anything else as is.
/// `Mcp-Name` is encoded the same way.
pub fn decode(raw: &str) -> Option<String> {
    mcp_flow_wire::decode_value(raw).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn listed() -> ParamHeaders {
        let mut known = ParamHeaders::default();
        known.learn(
            &json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [
                {"name": "get_weather", "inputSchema": {"type": "object", "properties": {
                    "location": {"type": "string"},
                    "units": {"type": "string", "x-mcp-header": "Units"}
                }}},
                {"name": "query", "inputSchema": {"type": "object", "properties": {
                    "target": {"type": "object", "properties": {
                        "region": {"type": "string", "x-mcp-header": "Region"},
                        "shard": {"type": "integer", "x-mcp-header": "Shard"}
                    }},
                    "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"}
                }}}
            ]}})
            .to_string(),
        );
        known
    }

    fn call(name: &str, arguments: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": name, "arguments": arguments}})
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().expect("a header value"));
        }
        map
    }

    #[test]
    fn a_mirrored_argument_must_travel_in_its_header_too() {
        let known = listed();
        let tokyo = call(
            "get_weather",
            json!({"location": "Tokyo", "units": "fahrenheit"}),
        );
        assert_eq!(
            known.check(&headers(&[("mcp-param-units", "fahrenheit")]), &tokyo),
            Ok(())
        );
        assert_eq!(
            known.check(&headers(&[("Mcp-Param-Units", "celsius")]), &tokyo),
            Err(
                "Header mismatch: Mcp-Param-Units is \"celsius\" but arguments.units is \"fahrenheit\""
                    .into()
            )
        );
        assert_eq!(
            known.check(&HeaderMap::new(), &tokyo),
            Err(
                "Header mismatch: Mcp-Param-Units is missing (arguments.units is \"fahrenheit\")"
                    .into()
            )
        );
    }

    #[test]
    fn an_absent_or_null_argument_has_no_header() {
        let known = listed();
        let plain = call("get_weather", json!({"location": "Tokyo"}));
        assert_eq!(known.check(&HeaderMap::new(), &plain), Ok(()));
        let null = call("get_weather", json!({"location": "Tokyo", "units": null}));
        assert_eq!(known.check(&HeaderMap::new(), &null), Ok(()));
        assert!(
            known
                .check(&headers(&[("mcp-param-units", "celsius")]), &plain)
                .is_err_and(|why| why.contains("arguments.units is absent"))
        );
    }

    #[test]
    fn nested_integer_boolean_and_base64_values_are_compared_as_the_revision_says() {
        let known = listed();
        let body = call(
            "query",
            json!({"target": {"region": "Hello, 世界", "shard": 42}, "dry": false}),
        );
        let good = headers(&[
            ("mcp-param-region", "=?base64?SGVsbG8sIOS4lueVjA==?="),
            ("mcp-param-shard", "42.0"),
            ("mcp-param-dry-run", "false"),
        ]);
        assert_eq!(known.check(&good, &body), Ok(()));
        let wrong_bool = headers(&[
            ("mcp-param-region", "=?base64?SGVsbG8sIOS4lueVjA==?="),
            ("mcp-param-shard", "42"),
            ("mcp-param-dry-run", "False"),
        ]);
        assert!(known.check(&wrong_bool, &body).is_err());
        let bad_base64 = headers(&[
            ("mcp-param-region", "=?base64?not base64!?="),
            ("mcp-param-shard", "42"),
            ("mcp-param-dry-run", "false"),
        ]);
        assert!(
            known
                .check(&bad_base64, &body)
                .is_err_and(|why| why.contains("not valid =?base64?"))
        );
    }

    #[test]
    fn a_repeated_header_is_refused() {
        let known = listed();
        let body = call(
            "get_weather",
            json!({"location": "Tokyo", "units": "celsius"}),
        );
        let twice = headers(&[
            ("mcp-param-units", "celsius"),
            ("mcp-param-units", "celsius"),
        ]);
        assert!(
            known
                .check(&twice, &body)
                .is_err_and(|why| why.contains("more than once"))
        );
    }

    #[test]
    fn tools_not_listed_yet_and_other_methods_are_not_checked() {
        let known = listed();
        assert!(known.knows("get_weather"));
        assert!(!known.knows("other"));
        let other = call("other", json!({"units": "celsius"}));
        assert_eq!(known.check(&HeaderMap::new(), &other), Ok(()));
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        assert_eq!(known.check(&HeaderMap::new(), &list), Ok(()));
        let mut fresh = ParamHeaders::default();
        fresh.learn("not json");
        fresh.learn(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}}"#);
        assert!(!fresh.knows("get_weather"));
    }

    #[test]
    fn a_new_list_replaces_what_a_tool_mirrors() {
        let mut known = listed();
        known.learn(
            &json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": [
                {"name": "get_weather", "inputSchema": {"type": "object", "properties": {
                    "location": {"type": "string"}}}}
            ]}})
            .to_string(),
        );
        let body = call(
            "get_weather",
            json!({"location": "Tokyo", "units": "celsius"}),
        );
        assert_eq!(known.check(&HeaderMap::new(), &body), Ok(()));
    }
}
