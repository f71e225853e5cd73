//! The rules of the MCP wire that more than one part of MCP Flow applies: the client (in the page
//! and in `mcp-flow-cli`) when it sends, the bridge when it checks what a page sent. One place, so
//! the two cannot disagree. serde, serde_json and base64 only.
//!
//! Spec (2026-07-28): `basic/transports/streamable-http` (request metadata headers, value
//! encoding), `server/tools` (`x-mcp-header`), `basic/index` (per-request `_meta`).

pub mod watch;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value};

/// The revision in force, and the first without `initialize` and sessions.
pub const MODERN_VERSION: &str = "2026-07-28";

pub const PROTOCOL_VERSION_HEADER: &str = "MCP-Protocol-Version";
pub const METHOD_HEADER: &str = "Mcp-Method";
pub const NAME_HEADER: &str = "Mcp-Name";
pub const PARAM_HEADER_PREFIX: &str = "Mcp-Param-";

/// The per-request `_meta` keys.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// Whether a header carries a credential, by its name: kept out of every record, feed and
/// export (`[redacted]` in its place). The usual ones by name (`Authorization`, `Cookie`,
/// `DPoP`, …), and any whose name has a word of a key or a token (`X-API-Key`,
/// `X-Auth-Token`, `X-Amz-Security-Token`, `Private-Token`, `X-Goog-Api-Key`, …).
pub fn is_secret_header(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    const WORDS: [&str; 13] = [
        "token",
        "secret",
        "key",
        "apikey",
        "password",
        "passwd",
        "credential",
        "credentials",
        "signature",
        "jwt",
        "assertion",
        "session-token",
        "cookie",
    ];
    matches!(
        name.as_str(),
        "authorization" | "proxy-authorization" | "cookie" | "set-cookie" | "dpop"
    ) || name.contains("authorization")
        || name.split(['-', '_']).any(|word| WORDS.contains(&word))
}

/// JSON-RPC error codes the eras use.
pub mod codes {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    /// 2026-07-28: the request's headers and its body or `_meta` disagree.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// 2026-07-28: the request needs a capability the client did not declare.
    pub const MISSING_CLIENT_CAPABILITY: i64 = -32021;
    /// 2026-07-28: the server does not speak the requested version.
    pub const UNSUPPORTED_VERSION: i64 = -32022;
    /// The errors only a 2026-07-28 server gives.
    pub const MODERN: [i64; 3] = [
        HEADER_MISMATCH,
        MISSING_CLIENT_CAPABILITY,
        UNSUPPORTED_VERSION,
    ];
}

/// The sentinel around a Base64 header value: `=?base64?…?=`.
pub const BASE64_PREFIX: &str = "=?base64?";
pub const BASE64_SUFFIX: &str = "?=";

/// The field of `params` that `Mcp-Name` mirrors for `method`: `name` for tools/call and
/// prompts/get, `uri` for resources/read, `taskId` for the tasks extension's `tasks/get`,
/// `tasks/update` and `tasks/cancel` (SEP-2663); none for other methods.
pub fn name_field(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    }
}

/// A header value as the spec sends it: plain when every byte is visible ASCII or an inner
/// space/tab-free run, else `=?base64?…?=` of the UTF-8 (also for a plain value that looks like
/// the sentinel itself). Tabs are always encoded: browsers and proxies mangle them.
pub fn encode_value(value: &str) -> String {
    let visible = value.bytes().all(|b| (0x20..=0x7e).contains(&b));
    let padded = value.starts_with(' ') || value.ends_with(' ');
    let looks_encoded = value.starts_with(BASE64_PREFIX) && value.ends_with(BASE64_SUFFIX);
    let plain = visible && !padded && !looks_encoded;
    if plain {
        value.to_owned()
    } else {
        format!(
            "{BASE64_PREFIX}{}{BASE64_SUFFIX}",
            STANDARD.encode(value.as_bytes())
        )
    }
}

/// Reads a header value back (for tests and the inspector): the sentinel decoded, anything else
/// as is. `Err` for a sentinel whose Base64 is not valid (padding included).
pub fn decode_value(value: &str) -> Result<String, String> {
    match value
        .strip_prefix(BASE64_PREFIX)
        .and_then(|v| v.strip_suffix(BASE64_SUFFIX))
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
pub fn argument_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

/// Whether a header's text stands for the argument's value: strings as they are, booleans as
/// `true`/`false`, integers compared as numbers (`42.0` is `42`).
pub fn header_matches(text: &str, value: &Value) -> bool {
    match value {
        Value::String(s) => s == text,
        Value::Bool(b) => text == if *b { "true" } else { "false" },
        Value::Number(n) => match (text.parse::<f64>(), n.as_f64()) {
            (Ok(header), Some(body)) => header == body,
            _ => false,
        },
        _ => false,
    }
}

/// The argument at `path` (a chain of keys) in `arguments`; `None` when absent or null (the
/// header is then left out).
pub fn argument_at<'a>(arguments: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter()
        .try_fold(arguments, |at, key| at.get(key))
        .filter(|v| !v.is_null())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_told_by_their_headers_names() {
        for secret in [
            "Authorization",
            "proxy-authorization",
            "Cookie",
            "Set-Cookie",
            "DPoP",
            "X-API-Key",
            "x-api_key",
            "Api-Key",
            "X-Goog-Api-Key",
            "X-Auth-Token",
            "X-Amz-Security-Token",
            "Private-Token",
            "X-Client-Secret",
            "X-Upstream-Authorization",
            "Ocp-Apim-Subscription-Key",
            "X-Hub-Signature",
            "x-password",
        ] {
            assert!(is_secret_header(secret), "{secret}");
        }
        for plain in [
            "Content-Type",
            "Mcp-Session-Id",
            "MCP-Protocol-Version",
            "Last-Event-ID",
            "WWW-Authenticate",
            "Keep-Alive",
            "Accept",
            "Mcp-Method",
            "Mcp-Name",
        ] {
            assert!(!is_secret_header(plain), "{plain}");
        }
    }
    use serde_json::json;

    fn schema(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
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
    fn mirrored_values_compare_as_the_revision_says() {
        assert!(header_matches("celsius", &json!("celsius")));
        assert!(header_matches("42", &json!(42)));
        assert!(header_matches("42.0", &json!(42)));
        assert!(header_matches("true", &json!(true)));
        assert!(!header_matches("True", &json!(true)));
        assert!(!header_matches("41", &json!(42)));
        assert!(!header_matches("x", &json!(null)));
        let args = json!({"a": {"b": 1}, "n": null});
        assert_eq!(
            argument_at(&args, &["a".into(), "b".into()]),
            Some(&json!(1))
        );
        assert_eq!(argument_at(&args, &["n".into()]), None);
        assert_eq!(argument_at(&args, &["missing".into()]), None);
        assert_eq!(name_field("resources/read"), Some("uri"));
        assert_eq!(name_field("tools/list"), None);
        assert_eq!(name_field("tasks/get"), Some("taskId"));
        assert_eq!(
            name_field("tasks/result"),
            None,
            "2025-11-25 has no Mcp-Name"
        );
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
