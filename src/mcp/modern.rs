//! The 2026-07-28 era on the wire: every request carries its protocol version, client info and
//! capabilities in `params._meta`, and mirrors its method, name and `x-mcp-header` arguments into
//! HTTP headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-{Name}`), with the
//! spec's Base64 sentinel for values that are not plain ASCII.
//! Spec: `basic/index` (per-request fields), `basic/transports/streamable-http` (request metadata
//! headers, value encoding), `server/tools` (`x-mcp-header`).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rmcp::model::{
    ClientCapabilities, ElicitationCapability, FormElicitationCapability, Implementation,
    ProtocolVersion, RequestMetaObject,
};
use serde_json::{Map, Value};

use super::log_level::LogLevel;

/// The revision in force.
pub const VERSION: &str = "2026-07-28";

pub const PROTOCOL_VERSION_HEADER: &str = "MCP-Protocol-Version";
pub const METHOD_HEADER: &str = "Mcp-Method";
pub const NAME_HEADER: &str = "Mcp-Name";
pub const PARAM_HEADER_PREFIX: &str = "Mcp-Param-";

/// What this client can do: answer form elicitations (a question the server asks the user).
pub fn capabilities() -> ClientCapabilities {
    let mut elicitation = ElicitationCapability::default();
    elicitation.form = Some(FormElicitationCapability::default());
    let mut caps = ClientCapabilities::default();
    caps.elicitation = Some(elicitation);
    caps
}

/// The client's name and version, as `clientInfo` says it.
pub fn client_info() -> Implementation {
    Implementation::new("mcp-flow", env!("CARGO_PKG_VERSION"))
}

/// The per-request `_meta` of a modern request at `version`, asking for log lines at `log_level`
/// if given.
pub fn meta(version: &str, log_level: Option<LogLevel>) -> Value {
    // rmcp reads any version string (unknown ones included) through serde.
    let version = serde_json::from_value(Value::String(version.to_owned()))
        .unwrap_or(ProtocolVersion::LATEST);
    let meta = RequestMetaObject::with_client_context(version, client_info(), capabilities());
    let mut value = serde_json::to_value(&meta).unwrap_or_else(|_| Value::Object(Map::new()));
    if let (Some(level), Some(map)) = (log_level, value.as_object_mut()) {
        map.insert(
            "io.modelcontextprotocol/logLevel".into(),
            Value::String(level.as_str().into()),
        );
    }
    value
}

/// `params` with `_meta` merged in (keys already in `params._meta`, such as a progress token,
/// stay).
pub fn with_meta(params: Value, meta: Value) -> Value {
    let mut params = match params {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let mut merged = match meta {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    if let Some(Value::Object(existing)) = params.remove("_meta") {
        merged.extend(existing);
    }
    params.insert("_meta".into(), Value::Object(merged));
    Value::Object(params)
}

/// A header value as the spec sends it: plain when every byte is visible ASCII or an inner
/// space/tab-free run, else `=?base64?…?=` of the UTF-8 (also for a plain value that looks like
/// the sentinel itself). Tabs are always encoded: browsers and proxies mangle them.
pub fn encode_value(value: &str) -> String {
    let visible = value.bytes().all(|b| (0x20..=0x7e).contains(&b));
    let padded = value.starts_with(' ') || value.ends_with(' ');
    let looks_encoded = value.starts_with("=?base64?") && value.ends_with("?=");
    let plain = visible && !padded && !looks_encoded;
    if plain {
        value.to_owned()
    } else {
        format!("=?base64?{}?=", STANDARD.encode(value.as_bytes()))
    }
}

/// Reads a header value back (for tests and the inspector): the sentinel decoded, anything else
/// as is. `Err` for a sentinel whose Base64 is not valid (padding included).
pub fn decode_value(value: &str) -> Result<String, String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        Some(encoded) => STANDARD
            .decode(encoded)
            .map_err(|e| format!("invalid Base64 in {value:?}: {e}"))
            .and_then(|bytes| {
                String::from_utf8(bytes).map_err(|_| format!("{value:?} is not UTF-8"))
            }),
        None => Ok(value.to_owned()),
    }
}

/// A tool argument as a header value: strings as they are, integers in decimal, booleans as
/// `true`/`false`. `None` for an absent or null argument (the header is then left out).
fn argument_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

/// One `x-mcp-header` annotation: the property path from the schema root and the header name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    pub path: Vec<String>,
    pub name: String,
}

/// An RFC 9110 token character.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Keywords whose values are subschemas, where an annotation would be off the `properties` chain.
const SUBSCHEMA_KEYWORDS: [&str; 16] = [
    "items",
    "prefixItems",
    "additionalProperties",
    "patternProperties",
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$defs",
    "definitions",
    "dependentSchemas",
    "contains",
    "unevaluatedProperties",
];

/// Whether `value` (anywhere inside) holds an `x-mcp-header` key.
fn mentions_annotation(value: &Value) -> bool {
    match value {
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| k == "x-mcp-header" || mentions_annotation(v)),
        Value::Array(items) => items.iter().any(mentions_annotation),
        _ => false,
    }
}

/// Walks `schema` along `properties` only, collecting annotations; an annotation anywhere else
/// is an error.
fn collect(
    schema: &Map<String, Value>,
    path: &[String],
    out: &mut Vec<ParamHeader>,
) -> Result<(), String> {
    for (key, value) in schema {
        match key.as_str() {
            "x-mcp-header" if path.is_empty() => {
                return Err("x-mcp-header must annotate a property, not the schema root".into());
            }
            "x-mcp-header" => {
                let prop = path.join(".");
                let Some(name) = value.as_str() else {
                    return Err(format!("property `{prop}`: x-mcp-header must be a string"));
                };
                out.push(ParamHeader {
                    path: path.to_vec(),
                    name: name.to_owned(),
                });
            }
            "properties" => {
                let Some(props) = value.as_object() else {
                    continue;
                };
                for (name, sub) in props {
                    if let Some(sub) = sub.as_object() {
                        let mut next = path.to_vec();
                        next.push(name.clone());
                        collect(sub, &next, out)?;
                    }
                }
            }
            k if (SUBSCHEMA_KEYWORDS.contains(&k) || k == "$ref") && mentions_annotation(value) => {
                let at = if path.is_empty() {
                    "the schema root".to_owned()
                } else {
                    format!("property `{}`", path.join("."))
                };
                return Err(format!(
                    "{at}: an x-mcp-header under `{k}` is not statically reachable through \
                     `properties` alone"
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The schema at `path` under `root`'s `properties`.
fn property<'a>(root: &'a Map<String, Value>, path: &[String]) -> Option<&'a Map<String, Value>> {
    let mut at = root;
    for name in path {
        at = at.get("properties")?.get(name)?.as_object()?;
    }
    Some(at)
}

/// The `x-mcp-header` annotations of a tool's input schema, checked against the spec's rules
/// (non-empty token names, unique ignoring case, on `string`/`integer`/`boolean` properties
/// reachable through `properties` alone). `Err` says why the tool is invalid; a client over
/// Streamable HTTP must then leave the tool out.
pub fn param_headers(input_schema: &Map<String, Value>) -> Result<Vec<ParamHeader>, String> {
    let mut found = Vec::new();
    collect(input_schema, &[], &mut found)?;
    let mut seen: Vec<String> = Vec::new();
    for h in &found {
        let prop = h.path.join(".");
        if h.name.is_empty() {
            return Err(format!("property `{prop}`: x-mcp-header must not be empty"));
        }
        if !h.name.chars().all(is_tchar) {
            return Err(format!(
                "property `{prop}`: x-mcp-header {:?} is not an HTTP header-name token",
                h.name
            ));
        }
        let lower = h.name.to_ascii_lowercase();
        if seen.contains(&lower) {
            return Err(format!(
                "property `{prop}`: x-mcp-header {:?} is used twice (names compare without case)",
                h.name
            ));
        }
        seen.push(lower);
        let kind = property(input_schema, &h.path)
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str);
        if !matches!(kind, Some("string" | "integer" | "boolean")) {
            return Err(format!(
                "property `{prop}`: x-mcp-header needs a string, integer or boolean property \
                 (this one is {})",
                kind.map_or("untyped".to_owned(), |k| format!("`{k}`"))
            ));
        }
    }
    Ok(found)
}

/// The request metadata headers of a modern request: `MCP-Protocol-Version`, `Mcp-Method`,
/// `Mcp-Name` (tools/call and prompts/get: `params.name`; resources/read: `params.uri`) and one
/// `Mcp-Param-{Name}` per annotated argument present in `params.arguments`.
pub fn headers(
    version: &str,
    method: &str,
    params: &Value,
    annotated: &[ParamHeader],
) -> Vec<(String, String)> {
    let mut out = vec![
        (PROTOCOL_VERSION_HEADER.to_owned(), version.to_owned()),
        (METHOD_HEADER.to_owned(), method.to_owned()),
    ];
    let name = match method {
        "tools/call" | "prompts/get" => params.get("name"),
        "resources/read" => params.get("uri"),
        _ => None,
    };
    if let Some(name) = name.and_then(Value::as_str) {
        out.push((NAME_HEADER.to_owned(), encode_value(name)));
    }
    if method == "tools/call"
        && let Some(arguments) = params.get("arguments")
    {
        for h in annotated {
            let value = h
                .path
                .iter()
                .try_fold(arguments, |at, key| at.get(key))
                .and_then(argument_text);
            if let Some(value) = value {
                out.push((
                    format!("{PARAM_HEADER_PREFIX}{}", h.name),
                    encode_value(&value),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn meta_carries_version_client_info_and_capabilities() {
        let m = meta(VERSION, None);
        assert_eq!(m["io.modelcontextprotocol/protocolVersion"], VERSION);
        assert_eq!(m["io.modelcontextprotocol/clientInfo"]["name"], "mcp-flow");
        assert_eq!(
            m["io.modelcontextprotocol/clientCapabilities"],
            json!({"elicitation": {"form": {}}})
        );
        assert!(m.get("io.modelcontextprotocol/logLevel").is_none());
        let m = meta(VERSION, Some(LogLevel::Info));
        assert_eq!(m["io.modelcontextprotocol/logLevel"], "info");
        let p = with_meta(json!({"name": "x", "_meta": {"progressToken": "t"}}), m);
        assert_eq!(p["name"], "x");
        assert_eq!(p["_meta"]["progressToken"], "t");
        assert_eq!(
            p["_meta"]["io.modelcontextprotocol/protocolVersion"],
            VERSION
        );
        assert!(with_meta(Value::Null, json!({}))["_meta"].is_object());
    }

    #[test]
    fn values_follow_the_specs_encoding_table() {
        assert_eq!(encode_value("us-west1"), "us-west1");
        assert_eq!(encode_value("us west 1"), "us west 1");
        assert_eq!(
            encode_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(encode_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(
            encode_value("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        assert_eq!(encode_value("\tindented"), "=?base64?CWluZGVudGVk?=");
        assert_eq!(encode_value(""), "");
        for v in [
            "Hello, 世界",
            " padded ",
            "line1\r\nline2",
            "=?base64?x?=",
            "plain",
        ] {
            assert_eq!(decode_value(&encode_value(v)).unwrap(), v);
        }
        assert!(
            decode_value("=?base64?SGVsbG8?=").is_err(),
            "padding is required"
        );
        assert!(decode_value("=?base64?SGVs!!!bG8=?=").is_err());
        assert_eq!(decode_value("=?base64?abc").unwrap(), "=?base64?abc");
    }

    #[test]
    fn headers_mirror_method_name_and_annotated_arguments() {
        let annotated = vec![
            ParamHeader {
                path: vec!["units".into()],
                name: "Units".into(),
            },
            ParamHeader {
                path: vec!["priority".into()],
                name: "Priority".into(),
            },
            ParamHeader {
                path: vec!["verbose".into()],
                name: "Verbose".into(),
            },
        ];
        let params = json!({"name": "get_weather",
            "arguments": {"location": "東京", "units": "celsius", "priority": 42, "verbose": null}});
        let h = headers(VERSION, "tools/call", &params, &annotated);
        assert_eq!(
            h,
            [
                ("MCP-Protocol-Version".into(), VERSION.into()),
                ("Mcp-Method".into(), "tools/call".into()),
                ("Mcp-Name".into(), "get_weather".into()),
                ("Mcp-Param-Units".into(), "celsius".into()),
                ("Mcp-Param-Priority".into(), "42".into()),
            ]
        );
        let read = headers(
            VERSION,
            "resources/read",
            &json!({"uri": "file:///a b"}),
            &[],
        );
        assert_eq!(read[2], ("Mcp-Name".into(), "file:///a b".into()));
        let list = headers(VERSION, "tools/list", &json!({}), &annotated);
        assert_eq!(list.len(), 2, "no Mcp-Name or params for tools/list");
        let odd = headers(VERSION, "tools/call", &json!({"name": "météo"}), &[]);
        assert_eq!(odd[2].1, "=?base64?bcOpdMOpbw==?=");
    }

    #[test]
    fn valid_annotations_are_found_along_properties() {
        let s = schema(json!({"type": "object", "properties": {
            "units": {"type": "string", "x-mcp-header": "Units"},
            "nested": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"}}},
            "count": {"type": "integer", "x-mcp-header": "Count"},
            "plain": {"type": "string"}}}));
        let found = param_headers(&s).unwrap();
        let names: Vec<&str> = found.iter().map(|h| h.name.as_str()).collect();
        // In property-name order (serde_json's map is sorted).
        assert_eq!(names, ["Count", "Region", "Units"]);
        assert_eq!(found[1].path, ["nested", "region"]);
        assert_eq!(
            param_headers(&schema(json!({"type": "object"}))).unwrap(),
            []
        );
    }

    #[test]
    fn invalid_annotations_make_the_tool_invalid_with_a_reason() {
        let one = |prop: Value| schema(json!({"type": "object", "properties": {"p": prop}}));
        let cases = [
            (
                one(json!({"type": "string", "x-mcp-header": ""})),
                "must not be empty",
            ),
            (
                one(json!({"type": "object", "x-mcp-header": "P"})),
                "`object`",
            ),
            (
                one(json!({"type": "array", "x-mcp-header": "P"})),
                "`array`",
            ),
            (one(json!({"type": "null", "x-mcp-header": "P"})), "`null`"),
            (
                one(json!({"type": "number", "x-mcp-header": "P"})),
                "`number`",
            ),
            (
                one(json!({"type": ["string", "null"], "x-mcp-header": "P"})),
                "untyped",
            ),
            (
                one(json!({"type": "string", "x-mcp-header": "My Region"})),
                "token",
            ),
            (
                one(json!({"type": "string", "x-mcp-header": "Region:Primary"})),
                "token",
            ),
            (
                one(json!({"type": "string", "x-mcp-header": "Région"})),
                "token",
            ),
            (
                one(json!({"type": "string", "x-mcp-header": "Region\t1"})),
                "token",
            ),
            (
                one(json!({"type": "string", "x-mcp-header": 5})),
                "must be a string",
            ),
            (
                schema(json!({"properties": {
                    "a": {"type": "string", "x-mcp-header": "MyField"},
                    "b": {"type": "string", "x-mcp-header": "myfield"}}})),
                "used twice",
            ),
            (
                schema(json!({"properties": {"list": {"type": "array",
                    "items": {"type": "string", "x-mcp-header": "Item"}}}})),
                "under `items`",
            ),
            (
                schema(json!({"oneOf": [{"properties": {"a": {"type": "string",
                    "x-mcp-header": "A"}}}]})),
                "under `oneOf`",
            ),
            (
                schema(
                    json!({"$defs": {"x": {"type": "string", "x-mcp-header": "X"}},
                    "properties": {"a": {"$ref": "#/$defs/x"}}}),
                ),
                "not statically reachable",
            ),
            (
                schema(json!({"x-mcp-header": "Root"})),
                "not the schema root",
            ),
        ];
        for (s, why) in cases {
            let err = param_headers(&s).expect_err(&format!("{s:?} should be invalid"));
            assert!(err.contains(why), "{s:?}: {err}");
        }
    }
}
