//! The era guard: what rmcp 3.11 does not decide by itself about a POSTed request, by era.
//!
//! rmcp already serves 2026-07-28 beside the legacy revisions on one endpoint (`server/discover`,
//! per-request `_meta`, the `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name`/`Mcp-Param-*`
//! checks with −32020, −32022 for an unsupported `_meta` version, 405 for a modern GET or
//! DELETE). This module adds, before the request reaches rmcp:
//!
//! - the removed methods (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`,
//!   `resources/unsubscribe`) under modern headers or `_meta`: 404 + −32601, after the version
//!   and header checks that come first (rmcp would open a legacy session for such an
//!   `initialize`, or set a session log level);
//! - an `MCP-Protocol-Version` header naming a version this server does not serve: 400 + −32022
//!   with `data.supported`/`data.requested` (rmcp answers plain text unless `_meta` names one);
//! - `--era modern`: a legacy `initialize` gets 400 + −32022 naming the supported versions;
//! - `--era legacy`: a modern request gets what a legacy server says (400 with a −32600 body,
//!   never a modern error), so a client's era detection falls back to `initialize`.

use axum::{
    http::{HeaderMap, StatusCode, header::HeaderName},
    response::Response,
};
use serde_json::{Map, Value, json};

use crate::{
    era::{Era, LATEST_LEGACY, MODERN, is_modern_version},
    http::jsonrpc::jsonrpc_error_response,
};

const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");

/// `_meta` keys of a modern request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// Methods 2026-07-28 removed; under modern headers or `_meta` they are unknown methods.
pub const REMOVED_METHODS: [&str; 5] = [
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

const HEADER_MISMATCH: i64 = -32020;
const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const INVALID_REQUEST: i64 = -32600;

/// What the guard reads from one JSON-RPC request.
struct Request<'a> {
    id: &'a Value,
    method: &'a str,
    meta: Option<&'a Map<String, Value>>,
    /// `_meta`'s protocol version: `Some(None)` when the key is there but not a string.
    meta_version: Option<Option<&'a str>>,
    /// The `MCP-Protocol-Version` header: `Some(None)` when present but not readable.
    header_version: Option<Option<&'a str>>,
}

impl<'a> Request<'a> {
    fn read(headers: &'a HeaderMap, body: &'a Value) -> Option<Self> {
        let method = body.get("method")?.as_str()?;
        // Requests only: notifications are answered 202 whatever they say, and an unusable id
        // is the transport's business.
        let id = body.get("id").filter(|id| id.is_string() || id.is_i64())?;
        let meta = body
            .get("params")
            .and_then(|params| params.get("_meta"))
            .and_then(Value::as_object);
        let meta_version = meta
            .and_then(|meta| meta.get(META_PROTOCOL_VERSION))
            .map(Value::as_str);
        let header_version = headers
            .get(PROTOCOL_VERSION)
            .map(|value| value.to_str().ok().map(str::trim));
        Some(Self {
            id,
            method,
            meta,
            meta_version,
            header_version,
        })
    }

    /// Whether the request speaks 2026-07-28: `_meta` names a protocol version, or the header
    /// names a modern one. An `initialize` without `_meta` selects the legacy handshake whatever
    /// its header says (rmcp negotiates it down to a legacy version).
    fn is_modern(&self) -> bool {
        self.meta_version.is_some()
            || (self.method != "initialize"
                && matches!(self.header_version, Some(Some(v)) if is_modern_version(v)))
    }

    /// The version the request names: `_meta` first, then the header.
    fn version(&self) -> Option<&'a str> {
        match (self.meta_version, self.header_version) {
            (Some(Some(v)), _) => Some(v),
            (_, Some(Some(v))) => Some(v),
            _ => None,
        }
    }

    fn missing_meta_keys(&self) -> Vec<&'static str> {
        let has = |key: &str, ok: fn(&Value) -> bool| {
            self.meta.and_then(|meta| meta.get(key)).is_some_and(ok)
        };
        let mut missing = Vec::new();
        if !has(META_PROTOCOL_VERSION, Value::is_string) {
            missing.push(META_PROTOCOL_VERSION);
        }
        if !has(META_CLIENT_CAPABILITIES, Value::is_object) {
            missing.push(META_CLIENT_CAPABILITIES);
        }
        missing
    }
}

/// The answer the era rules give `body` before rmcp sees it, if any.
pub fn screen(era: Era, headers: &HeaderMap, body: &Value) -> Option<Response> {
    let request = Request::read(headers, body)?;
    match era {
        Era::Legacy => screen_legacy(&request),
        Era::Modern | Era::Both => screen_modern(era, headers, &request, body),
    }
}

/// `--era legacy`: a modern request (other than `initialize`, which a legacy server answers
/// whatever `_meta` it carries) gets a legacy server's refusal.
fn screen_legacy(request: &Request<'_>) -> Option<Response> {
    if request.method == "initialize" || !request.is_modern() {
        return None;
    }
    Some(jsonrpc_error_response(
        StatusCode::BAD_REQUEST,
        request.id.clone(),
        INVALID_REQUEST,
        format!(
            "Bad Request: this server speaks MCP {} and older, which begin with initialize and a \
             session; it does not serve {} requests (no Mcp-Session-Id)",
            LATEST_LEGACY.as_str(),
            request.version().unwrap_or(MODERN.as_str())
        ),
        None,
    ))
}

fn screen_modern(
    era: Era,
    headers: &HeaderMap,
    request: &Request<'_>,
    body: &Value,
) -> Option<Response> {
    let modern = request.is_modern();
    if era == Era::Modern && request.method == "initialize" && !modern {
        let requested = body
            .pointer("/params/protocolVersion")
            .and_then(Value::as_str)
            .or(request.version())
            .unwrap_or_default();
        return Some(unsupported_version(
            era,
            request.id,
            requested,
            format!(
                "Unsupported protocol version: this server speaks only MCP {} (no initialize \
                 handshake; send server/discover or any request with _meta). Supported \
                 versions: {}",
                MODERN.as_str(),
                supported_list(era)
            ),
        ));
    }
    if !modern && era == Era::Both {
        // Legacy traffic: only an unserved header version is answered here (an `initialize`
        // whose header disagrees with its body is rmcp's to refuse).
        return match request.header_version {
            Some(Some(version)) if request.method != "initialize" && !era.supports(version) => {
                Some(unsupported_version(
                    era,
                    request.id,
                    version,
                    unsupported_message(era),
                ))
            }
            _ => None,
        };
    }

    // Modern requests (and, with --era modern, everything): the version checks first.
    if let (Some(Some(meta)), Some(Some(header))) = (request.meta_version, request.header_version)
        && meta != header
    {
        return Some(error(
            request.id,
            HEADER_MISMATCH,
            format!(
                "Header mismatch: MCP-Protocol-Version header ({header}) does not match request \
                 _meta protocolVersion ({meta})"
            ),
        ));
    }
    if let Some(version) = request.version()
        && !era.supports(version)
    {
        return Some(unsupported_version(
            era,
            request.id,
            version,
            unsupported_message(era),
        ));
    }
    if !modern || !REMOVED_METHODS.contains(&request.method) {
        return None;
    }
    // A removed method: the standard-header and `_meta` checks still come first.
    match mcp_method_header(headers) {
        Ok(Some(value)) if value == request.method => {}
        Ok(Some(value)) => {
            return Some(error(
                request.id,
                HEADER_MISMATCH,
                format!(
                    "Header mismatch: Mcp-Method header `{value}` does not match body method `{}`",
                    request.method
                ),
            ));
        }
        Ok(None) => {
            return Some(error(
                request.id,
                HEADER_MISMATCH,
                format!(
                    "Header mismatch: missing required Mcp-Method header for `{}`",
                    request.method
                ),
            ));
        }
        Err(why) => return Some(error(request.id, HEADER_MISMATCH, why)),
    }
    let missing = request.missing_meta_keys();
    if !missing.is_empty() {
        return Some(error(
            request.id,
            INVALID_PARAMS,
            format!(
                "Invalid params: request _meta is missing or has malformed required fields: {}",
                missing.join(", ")
            ),
        ));
    }
    Some(jsonrpc_error_response(
        StatusCode::NOT_FOUND,
        request.id.clone(),
        METHOD_NOT_FOUND,
        format!(
            "Method not found: {} does not exist in MCP {}",
            request.method,
            MODERN.as_str()
        ),
        None,
    ))
}

/// The single `Mcp-Method` value: `Err` when it is repeated or not visible ASCII.
fn mcp_method_header(headers: &HeaderMap) -> Result<Option<&str>, String> {
    let mut values = headers.get_all(MCP_METHOD).iter();
    let Some(first) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err("Header mismatch: Mcp-Method header is repeated".to_owned());
    }
    first
        .to_str()
        .map(|value| Some(value.trim()))
        .map_err(|_| "Header mismatch: Mcp-Method header is not visible ASCII".to_owned())
}

fn error(id: &Value, code: i64, message: String) -> Response {
    jsonrpc_error_response(StatusCode::BAD_REQUEST, id.clone(), code, message, None)
}

fn supported_list(era: Era) -> String {
    era.supported_versions()
        .iter()
        .map(|v| v.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn unsupported_message(era: Era) -> String {
    format!(
        "Unsupported protocol version (supported: {})",
        supported_list(era)
    )
}

/// 400 + −32022 with `data.supported` and `data.requested`.
fn unsupported_version(era: Era, id: &Value, requested: &str, message: String) -> Response {
    let supported: Vec<String> = era
        .supported_versions()
        .iter()
        .map(|v| v.as_str().to_owned())
        .collect();
    jsonrpc_error_response(
        StatusCode::BAD_REQUEST,
        id.clone(),
        UNSUPPORTED_PROTOCOL_VERSION,
        message,
        Some(json!({ "supported": supported, "requested": requested })),
    )
}
