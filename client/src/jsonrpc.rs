//! JSON-RPC envelopes for the MCP messages this client sends, and reading the replies.
//! Method names, parameters and results use the official SDK's wire types (`rmcp::model`): a
//! method is named by its marker type (`CallToolRequestMethod`, …), whose `VALUE` is the wire
//! name, and parameters are serialised from rmcp's parameter structs.

use rmcp::model::{
    ConstString, ErrorCode, InitializeRequestParams, InitializeResult, JsonRpcVersion2_0,
};
use serde::Serialize;
use serde_json::{Value, json};

use crate::version;

/// A JSON-RPC request for `method` (an rmcp method marker) with these parameters.
pub fn request<M: ConstString>(id: u64, _method: M, params: &impl Serialize) -> Value {
    request_for(id, M::VALUE, params)
}

/// [`request`] with the wire name of a marker already read (`M::VALUE`).
pub(crate) fn request_for(id: u64, method: &str, params: &impl Serialize) -> Value {
    json!({ "jsonrpc": JsonRpcVersion2_0, "id": id, "method": method, "params": params })
}

/// A JSON-RPC notification without parameters (no id, no reply).
pub fn notification<M: ConstString>(_method: M) -> Value {
    json!({ "jsonrpc": JsonRpcVersion2_0, "method": M::VALUE })
}

/// A JSON-RPC notification with parameters.
pub fn notification_with<M: ConstString>(_method: M, params: &impl Serialize) -> Value {
    json!({ "jsonrpc": JsonRpcVersion2_0, "method": M::VALUE, "params": params })
}

/// The answer to a request the server sent: `result`.
pub fn result(id: &Value, result: &impl Serialize) -> Value {
    json!({ "jsonrpc": JsonRpcVersion2_0, "id": id, "result": result })
}

/// The answer to a request the server sent for a method this client does not offer.
pub fn method_not_found(id: &Value) -> Value {
    json!({ "jsonrpc": JsonRpcVersion2_0, "id": id,
            "error": { "code": ErrorCode::METHOD_NOT_FOUND.0, "message": "Method not found" } })
}

/// The error answering a server's request for `method`, which this client does not do: said by
/// name, so the server's log shows what it asked.
pub fn method_not_found_for(id: &Value, method: &str) -> Value {
    let message = format!("Method not found: this client does not answer {method}");
    json!({ "jsonrpc": JsonRpcVersion2_0, "id": id,
            "error": { "code": ErrorCode::METHOD_NOT_FOUND.0, "message": message } })
}

/// The method a JSON-RPC message names, if any.
pub fn method(message: &Value) -> Option<&str> {
    message.get("method").and_then(Value::as_str)
}

/// The strings of a JSON array (anything else in it left out; nothing when it is no array).
pub fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// Whether `message` is a request or notification for `method`.
pub fn is<M: ConstString>(message: &Value, _method: M) -> bool {
    method(message) == Some(M::VALUE)
}

/// The `initialize` parameters of a client declaring `capabilities` (its legacy ones: see
/// [`crate::McpClient::capabilities`]).
pub fn initialize_params(capabilities: rmcp::model::ClientCapabilities) -> InitializeRequestParams {
    InitializeRequestParams::new(capabilities, crate::modern::client_info())
        .with_protocol_version(rmcp::model::ProtocolVersion::V_2025_11_25)
}

/// What a JSON-RPC reply carried.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Result(Value),
    Error {
        code: i64,
        message: String,
        data: Option<Value>,
    },
}

/// Reads a JSON-RPC response object; `None` if the value is not one (a notification, say).
pub fn reply(message: &Value) -> Option<Reply> {
    message.get("id")?;
    if let Some(result) = message.get("result") {
        return Some(Reply::Result(result.clone()));
    }
    let error = message.get("error")?;
    Some(Reply::Error {
        code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
        message: error
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        data: error.get("data").cloned(),
    })
}

/// What a successful `initialize` told us.
#[derive(Debug, Clone, PartialEq)]
pub struct Handshake {
    pub protocol_version: &'static str,
    pub server_name: String,
    pub server_version: String,
    pub result: InitializeResult,
    /// The capabilities as the server sent them: rmcp's type drops what it does not model
    /// (2025-11-25's `tasks`).
    pub capabilities: Value,
}

/// Reads an `initialize` result and checks the version the server chose.
pub fn read_initialize(result: Value) -> Result<Handshake, String> {
    let capabilities = result.get("capabilities").cloned().unwrap_or(Value::Null);
    let result: InitializeResult = serde_json::from_value(result)
        .map_err(|e| format!("the initialize result is not a valid InitializeResult: {e}"))?;
    let protocol_version =
        version::accept(result.protocol_version.as_str()).map_err(|e| e.to_string())?;
    Ok(Handshake {
        protocol_version,
        server_name: result.server_info.name.clone(),
        server_version: result.server_info.version.clone(),
        result,
        capabilities,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use rmcp::model::{InitializeResultMethod, LoggingMessageNotificationMethod};

    #[test]
    fn initialize_request_asks_for_the_newest_version() {
        let msg = request(
            1,
            InitializeResultMethod,
            &initialize_params(crate::modern::capabilities_in(
                crate::era::Era::Legacy,
                false,
            )),
        );
        assert_eq!(msg["method"], "initialize");
        assert!(is(&msg, InitializeResultMethod));
        assert_eq!(msg["params"]["protocolVersion"], version::REQUESTED);
        assert_eq!(msg["params"]["clientInfo"]["name"], "mcp-flow");
        assert_eq!(msg["jsonrpc"], "2.0");
    }

    #[test]
    fn reply_tells_results_errors_and_notifications_apart() {
        let ok = json!({"jsonrpc":"2.0","id":1,"result":{"x":1}});
        assert_eq!(reply(&ok), Some(Reply::Result(json!({"x":1}))));
        let err = json!({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}});
        assert!(matches!(
            reply(&err),
            Some(Reply::Error { code: -32601, .. })
        ));
        assert_eq!(reply(&notification(LoggingMessageNotificationMethod)), None);
    }

    #[test]
    fn initialize_result_with_an_old_version_is_refused() {
        let result = json!({
            "protocolVersion": "2024-11-05",
            "capabilities": {},
            "serverInfo": {"name": "s", "version": "1"}
        });
        let err = read_initialize(result).unwrap_err();
        assert!(err.contains("2024-11-05"), "{err}");
    }

    #[test]
    fn initialize_result_is_read() {
        let result = json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "weather-server", "version": "0.1.0"}
        });
        let hs = read_initialize(result).unwrap();
        assert_eq!(hs.protocol_version, "2025-06-18");
        assert_eq!(hs.server_name, "weather-server");
    }
}
