//! The 2026-07-28 era over the stdio relay. A request without a session is modern when its
//! `MCP-Protocol-Version` header names 2026-07-28 or later, or its `params._meta` names a
//! protocol version (a key only that era has); modern requests share one child.
//!
//! The child never sees HTTP headers, so the checks the revision puts on the HTTP transport
//! are the bridge's, made before anything reaches the shared child (whose era a malformed
//! request could otherwise fix for every later request): the `_meta` envelope is present
//! (−32602), its version matches the header, `Mcp-Method` matches the method and `Mcp-Name`
//! the tool, resource or prompt (−32020); `initialize`, removed in this era, is 404 −32601.
//! A JSON-RPC error from the child gets the status the revision gives it ([`status_of`]).
//! `Mcp-Param-*` are checked against the tools' schemas in [`crate::param_headers`].

use axum::http::{HeaderMap, StatusCode};
use serde_json::Value;

use crate::jsonrpc::Failure;

/// The first protocol revision without sessions.
use mcp_flow_wire::MODERN_VERSION as FIRST_MODERN;
use mcp_flow_wire::codes::{HEADER_MISMATCH, INVALID_PARAMS};
use mcp_flow_wire::{META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};

/// The request's `MCP-Protocol-Version` when it names a modern revision (`YYYY-MM-DD` compare
/// as text).
pub fn modern_version(headers: &HeaderMap) -> Option<&str> {
    let version = headers.get("mcp-protocol-version")?.to_str().ok()?.trim();
    (version.len() == FIRST_MODERN.len() && version >= FIRST_MODERN).then_some(version)
}

/// Whether a request without a session belongs to the 2026-07-28 era.
pub fn is_modern(headers: &HeaderMap, body: &Value) -> bool {
    modern_version(headers).is_some()
        || meta(body).is_some_and(|m| m.contains_key(META_PROTOCOL_VERSION))
}

fn meta(body: &Value) -> Option<&serde_json::Map<String, Value>> {
    body.get("params")?.get("_meta")?.as_object()
}

/// The HTTP status of a modern answer: the revision maps some JSON-RPC errors to statuses
/// (method not found: 404; invalid params, header mismatch, missing capability, unsupported
/// version: 400).
pub fn status_of(answer: &str) -> StatusCode {
    #[derive(serde::Deserialize)]
    struct Answer {
        error: Option<ErrorCode>,
    }
    #[derive(serde::Deserialize)]
    struct ErrorCode {
        code: i64,
    }
    let code = serde_json::from_str::<Answer>(answer)
        .ok()
        .and_then(|answer| answer.error)
        .map(|error| error.code);
    match code {
        Some(-32601) => StatusCode::NOT_FOUND,
        Some(-32600 | -32602 | -32020 | -32021 | -32022) => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

/// A refusal of a modern request: HTTP 400 with a JSON-RPC error code.
#[derive(Debug)]
pub struct Refusal {
    pub status: StatusCode,
    pub code: i64,
    pub message: String,
}

impl Refusal {
    /// HTTP 400, −32020: a header disagrees with the body.
    pub fn header_mismatch(message: impl Into<String>) -> Self {
        Self::new(HEADER_MISMATCH, message)
    }

    fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            code,
            message: message.into(),
        }
    }

    /// As a failure for the page (naming the bridge as the leg that refused).
    pub fn into_failure(self) -> Failure {
        let mut failure = Failure::new(
            self.status,
            "bridge",
            "invalid-modern-request",
            self.message,
        );
        failure.code = self.code;
        failure
    }
}

/// Checks a modern request (`body` parsed).
pub fn check_request(headers: &HeaderMap, body: &Value) -> Result<(), Refusal> {
    let Some(method) = body.get("method").and_then(Value::as_str) else {
        return Ok(());
    };
    let version = headers
        .get("mcp-protocol-version")
        .and_then(|value| value.to_str().ok())
        .map(str::trim)
        .ok_or_else(|| {
            Refusal::new(
                HEADER_MISMATCH,
                "Header mismatch: MCP-Protocol-Version is missing",
            )
        })?;
    if method == "initialize" {
        // Removed in 2026-07-28; a stdio server may answer it otherwise, the HTTP rule is 404.
        return Err(Refusal {
            status: StatusCode::NOT_FOUND,
            code: -32601,
            message: format!("Method not found: initialize was removed in {FIRST_MODERN}"),
        });
    }
    let params = body.get("params");
    let meta = params
        .and_then(|params| params.get("_meta"))
        .and_then(Value::as_object)
        .ok_or_else(|| {
            Refusal::new(
                INVALID_PARAMS,
                format!("Invalid params: a {FIRST_MODERN} request carries params._meta"),
            )
        })?;
    let meta_version = meta
        .get(META_PROTOCOL_VERSION)
        .and_then(Value::as_str)
        .ok_or_else(|| {
            Refusal::new(
                INVALID_PARAMS,
                format!("Invalid params: _meta has no {META_PROTOCOL_VERSION}"),
            )
        })?;
    if !meta
        .get(META_CLIENT_CAPABILITIES)
        .is_some_and(Value::is_object)
    {
        return Err(Refusal::new(
            INVALID_PARAMS,
            format!("Invalid params: _meta has no {META_CLIENT_CAPABILITIES}"),
        ));
    }
    if meta_version != version {
        return Err(Refusal::new(
            HEADER_MISMATCH,
            format!(
                "Header mismatch: MCP-Protocol-Version is {version} but _meta says {meta_version}"
            ),
        ));
    }
    let header = |name: &str| {
        headers
            .get(name)
            .map(|value| value.to_str().map(str::trim).unwrap_or(""))
    };
    match header("mcp-method") {
        Some(named) if named == method => {}
        Some(named) => {
            return Err(Refusal::new(
                HEADER_MISMATCH,
                format!("Header mismatch: Mcp-Method is {named:?} but the method is {method:?}"),
            ));
        }
        None => {
            return Err(Refusal::new(
                HEADER_MISMATCH,
                format!("Header mismatch: Mcp-Method is missing (the method is {method:?})"),
            ));
        }
    }
    if let Some(field) = mcp_flow_wire::name_field(method)
        && let Some(name) = params
            .and_then(|params| params.get(field))
            .and_then(Value::as_str)
    {
        match header("mcp-name").map(|raw| crate::param_headers::decode(raw).ok_or(raw)) {
            Some(Ok(named)) if named == name => {}
            Some(Err(raw)) => {
                return Err(Refusal::new(
                    HEADER_MISMATCH,
                    format!("Header mismatch: Mcp-Name {raw:?} is not valid =?base64?…?="),
                ));
            }
            Some(Ok(named)) => {
                return Err(Refusal::new(
                    HEADER_MISMATCH,
                    format!(
                        "Header mismatch: Mcp-Name is {named:?} but params.{field} is {name:?}"
                    ),
                ));
            }
            None => {
                return Err(Refusal::new(
                    HEADER_MISMATCH,
                    format!("Header mismatch: Mcp-Name is missing (params.{field} is {name:?})"),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().expect("header value"));
        }
        map
    }

    fn call(meta: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "get_weather", "arguments": {}, "_meta": meta}})
    }

    fn meta() -> Value {
        json!({META_PROTOCOL_VERSION: "2026-07-28", META_CLIENT_CAPABILITIES: {}})
    }

    #[test]
    fn modern_is_named_by_the_header() {
        assert_eq!(
            modern_version(&headers(&[("mcp-protocol-version", "2026-07-28")])),
            Some("2026-07-28")
        );
        assert_eq!(
            modern_version(&headers(&[("mcp-protocol-version", "2025-11-25")])),
            None
        );
        assert_eq!(modern_version(&HeaderMap::new()), None);
        assert_eq!(
            modern_version(&headers(&[("mcp-protocol-version", "draft")])),
            None
        );
    }

    #[test]
    fn a_well_formed_request_passes_with_whitespace_around_header_values() {
        let h = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", " tools/call "),
            ("mcp-name", "get_weather "),
        ]);
        assert!(check_request(&h, &call(meta())).is_ok());
        let encoded = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "=?base64?Z2V0X3dlYXRoZXI=?="),
        ]);
        assert!(
            check_request(&encoded, &call(meta())).is_ok(),
            "an encoded Mcp-Name is decoded before it is compared"
        );
    }

    #[test]
    fn envelope_and_header_faults_are_refused_with_their_codes() {
        let good = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "get_weather"),
        ]);
        let refused =
            |h: &HeaderMap, body: &Value| check_request(h, body).expect_err("refused").code;
        let no_meta = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        assert_eq!(refused(&good, &no_meta), INVALID_PARAMS);
        assert_eq!(
            refused(&good, &call(json!({META_CLIENT_CAPABILITIES: {}}))),
            INVALID_PARAMS
        );
        assert_eq!(
            refused(&good, &call(json!({META_PROTOCOL_VERSION: "2026-07-28"}))),
            INVALID_PARAMS
        );
        assert_eq!(
            refused(
                &good,
                &call(json!({META_PROTOCOL_VERSION: "2027-01-01", META_CLIENT_CAPABILITIES: {}}))
            ),
            HEADER_MISMATCH
        );
        let v = ("mcp-protocol-version", "2026-07-28");
        let wrong_name = headers(&[v, ("mcp-method", "tools/call"), ("mcp-name", "other")]);
        assert_eq!(refused(&wrong_name, &call(meta())), HEADER_MISMATCH);
        let no_name = headers(&[v, ("mcp-method", "tools/call")]);
        assert_eq!(refused(&no_name, &call(meta())), HEADER_MISMATCH);
        let wrong_method = headers(&[v, ("mcp-method", "tools/list"), ("mcp-name", "get_weather")]);
        assert_eq!(refused(&wrong_method, &call(meta())), HEADER_MISMATCH);
        assert_eq!(refused(&headers(&[v]), &call(meta())), HEADER_MISMATCH);
        let no_version = headers(&[("mcp-method", "tools/call"), ("mcp-name", "get_weather")]);
        assert_eq!(refused(&no_version, &call(meta())), HEADER_MISMATCH);
    }

    #[test]
    fn a_modern_initialize_is_a_removed_method() {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                          "params": {"_meta": meta()}});
        let h = headers(&[("mcp-protocol-version", "2026-07-28")]);
        let refusal = check_request(&h, &body).expect_err("refused");
        assert_eq!(
            (refusal.status, refusal.code),
            (StatusCode::NOT_FOUND, -32601)
        );
    }

    #[test]
    fn the_era_comes_from_the_header_or_the_meta_version() {
        let v = headers(&[("mcp-protocol-version", "2026-07-28")]);
        let plain = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        assert!(is_modern(&v, &plain));
        assert!(!is_modern(&HeaderMap::new(), &plain));
        assert!(is_modern(&HeaderMap::new(), &call(meta())));
    }

    #[test]
    fn modern_errors_map_to_http_statuses() {
        let error = |code: i64| {
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "m"}}).to_string()
        };
        assert_eq!(status_of(&error(-32601)), StatusCode::NOT_FOUND);
        assert_eq!(status_of(&error(-32022)), StatusCode::BAD_REQUEST);
        assert_eq!(status_of(&error(-32603)), StatusCode::OK);
        assert_eq!(
            status_of(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            StatusCode::OK
        );
    }
}
