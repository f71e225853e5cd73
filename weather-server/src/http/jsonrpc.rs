//! JSON-RPC answers the HTTP layer writes itself (before or instead of rmcp).

use axum::{
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use serde_json::{Value, json};

/// A JSON-RPC error object, with `data` when given, as the HTTP response body.
pub fn jsonrpc_error_response(
    status: StatusCode,
    id: Value,
    code: i64,
    message: String,
    data: Option<Value>,
) -> Response {
    let mut error = json!({ "code": code, "message": message });
    if let Some(data) = data {
        error["data"] = data;
    }
    let body = json!({ "jsonrpc": "2.0", "id": id, "error": error });
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// 413 with a JSON-RPC error (−32600) naming the body limit.
pub fn too_large(limit: usize) -> Response {
    jsonrpc_error_response(
        StatusCode::PAYLOAD_TOO_LARGE,
        Value::Null,
        -32600,
        format!("Request body too large: the limit is {limit} bytes"),
        None,
    )
}
