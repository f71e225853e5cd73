//! The 2026-07-28 era on the wire: every request carries its protocol version, client info and
//! capabilities in `params._meta`, and mirrors its method, name and `x-mcp-header` arguments into
//! HTTP headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-{Name}`), with the
//! spec's Base64 sentinel for values that are not plain ASCII.
//! Spec: `basic/index` (per-request fields), `basic/transports/streamable-http` (request metadata
//! headers, value encoding), `server/tools` (`x-mcp-header`).

use rmcp::model::{
    ClientCapabilities, ElicitationCapability, FormElicitationCapability, Implementation,
    ProtocolVersion, RequestMetaObject, RootsCapabilities, SamplingCapability,
    UrlElicitationCapability,
};
use serde_json::{Map, Value};

use crate::era::Era;
use crate::log_level::LogLevel;

/// The revision in force.
pub use mcp_flow_wire::MODERN_VERSION as VERSION;
// The rules the bridge applies too live in one place.
pub use mcp_flow_wire::{
    METHOD_HEADER, NAME_HEADER, PARAM_HEADER_PREFIX, PROTOCOL_VERSION_HEADER, ParamHeader,
    argument_at, argument_text, decode_value, encode_value, param_headers,
};

/// What this client can do: answer form elicitations (a question the server asks the user) and
/// list its roots (what the user listed; none is an answer too). 2025-11-25 also says the roots
/// may change (`listChanged`); 2026-07-28 has no such notification.
#[allow(deprecated)] // rmcp marks roots deprecated (SEP-2577); both eras still specify them.
pub fn capabilities_in(era: Era, sampling: bool) -> ClientCapabilities {
    let mut elicitation = ElicitationCapability::default();
    elicitation.form = Some(FormElicitationCapability::default());
    elicitation.url = Some(UrlElicitationCapability::default());
    let mut roots = RootsCapabilities::default();
    roots.list_changed = (era == Era::Legacy).then_some(true);
    let mut caps = ClientCapabilities::default();
    caps.elicitation = Some(elicitation);
    caps.roots = Some(roots);
    // Text sampling only: no `tools`, no `context` (only `includeContext: none` is honoured).
    caps.sampling = sampling.then(SamplingCapability::default);
    caps
}

/// The client's name and version, as `clientInfo` says it.
pub fn client_info() -> Implementation {
    Implementation::new("mcp-flow", env!("CARGO_PKG_VERSION"))
}

/// The per-request `_meta` of a modern request at `version`, asking for log lines at `log_level`
/// if given.
pub fn meta(version: &str, log_level: Option<LogLevel>, caps: ClientCapabilities) -> Value {
    // rmcp reads any version string (unknown ones included) through serde.
    let version = serde_json::from_value(Value::String(version.to_owned()))
        .unwrap_or(ProtocolVersion::LATEST);
    let meta = RequestMetaObject::with_client_context(version, client_info(), caps);
    let mut value = serde_json::to_value(&meta).unwrap_or_else(|_| Value::Object(Map::new()));
    if let (Some(level), Some(map)) = (log_level, value.as_object_mut()) {
        map.insert(
            mcp_flow_wire::META_LOG_LEVEL.into(),
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
    let name = mcp_flow_wire::name_field(method).and_then(|field| params.get(field));
    if let Some(name) = name.and_then(Value::as_str) {
        out.push((NAME_HEADER.to_owned(), encode_value(name)));
    }
    if method == "tools/call"
        && let Some(arguments) = params.get("arguments")
    {
        for h in annotated {
            let value = argument_at(arguments, &h.path).and_then(argument_text);
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

    #[test]
    fn meta_carries_version_client_info_and_capabilities() {
        let m = meta(VERSION, None, capabilities_in(Era::Modern, false));
        assert_eq!(m["io.modelcontextprotocol/protocolVersion"], VERSION);
        assert_eq!(m["io.modelcontextprotocol/clientInfo"]["name"], "mcp-flow");
        assert_eq!(
            m["io.modelcontextprotocol/clientCapabilities"],
            json!({"elicitation": {"form": {}, "url": {}}, "roots": {}})
        );
        assert!(m.get("io.modelcontextprotocol/logLevel").is_none());
        let m = meta(
            VERSION,
            Some(LogLevel::Info),
            capabilities_in(Era::Modern, true),
        );
        assert_eq!(
            m["io.modelcontextprotocol/clientCapabilities"]["sampling"],
            json!({})
        );
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
}
