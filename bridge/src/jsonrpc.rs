//! The little the bridge reads of a JSON-RPC message (its id and method, to route it) and the
//! error bodies the bridge itself answers with.

use axum::{
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use serde_json::{Value, json};

/// JSON-RPC codes the bridge uses.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
/// Implementation-defined server error: every failure of the bridge or of the server behind it.
pub const BRIDGE_ERROR: i64 = -32000;

/// What a message is, from its `id` and `method` only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A request: `method` and `id`. The id is kept as its JSON text (`1` and `"1"` differ).
    Request {
        id: String,
        method: String,
    },
    Notification {
        method: String,
    },
    /// A response: `id` and no `method`.
    Response {
        id: String,
    },
}

#[derive(Deserialize)]
struct Peek {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
}

/// Why a line or body is not one JSON-RPC message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAMessage {
    /// Not JSON at all.
    NotJson(String),
    /// JSON, but not an object with a method or an id (a batch, a number, …).
    NotJsonRpc,
}

/// Reads a message's kind; the rest of it is skipped, not interpreted.
pub fn classify(text: &str) -> Result<Kind, NotAMessage> {
    let peek: Peek = match serde_json::from_str(text) {
        Ok(peek) => peek,
        Err(error) if error.is_data() => return Err(NotAMessage::NotJsonRpc),
        Err(error) => return Err(NotAMessage::NotJson(error.to_string())),
    };
    // A struct also deserialises from an array; only an object is one message.
    if !text.trim_start().starts_with('{') {
        return Err(NotAMessage::NotJsonRpc);
    }
    let id = peek.id.filter(|id| !id.is_null()).map(|id| id.to_string());
    match (peek.method, id) {
        (Some(method), Some(id)) => Ok(Kind::Request { id, method }),
        (Some(method), None) => Ok(Kind::Notification { method }),
        (None, Some(id)) => Ok(Kind::Response { id }),
        (None, None) => Err(NotAMessage::NotJsonRpc),
    }
}

/// A message as one stdio line: the bytes as sent, without trailing white space, with any
/// line break inside (JSON allows them only as white space between tokens) turned into a
/// space, so the stdio framing holds.
pub fn as_line(text: &str) -> String {
    text.trim_end().replace(['\r', '\n'], " ")
}

/// A failure the bridge reports as a JSON-RPC error, naming the leg where it happened.
#[derive(Debug, Clone)]
pub struct Failure {
    pub status: StatusCode,
    /// The JSON-RPC code: [`BRIDGE_ERROR`] unless the failure is the client's.
    pub code: i64,
    pub message: String,
    /// `{"leg": …, "kind": …}` plus details (exit code, stderr lines, session).
    pub data: Value,
}

impl Failure {
    pub fn new(status: StatusCode, leg: &str, kind: &str, message: impl Into<String>) -> Self {
        Self {
            status,
            code: BRIDGE_ERROR,
            message: message.into(),
            data: json!({ "leg": leg, "kind": kind }),
        }
    }

    /// Sets the JSON-RPC code (the default is [`BRIDGE_ERROR`]).
    pub fn with_code(mut self, code: i64) -> Self {
        self.code = code;
        self
    }

    /// Adds a field to `data`.
    pub fn with(mut self, key: &str, value: impl serde::Serialize) -> Self {
        if let Some(data) = self.data.as_object_mut() {
            data.insert(key.to_owned(), json!(value));
        }
        self
    }

    /// The error response for request `id` (JSON text, `null` when unknown) as a JSON-RPC
    /// message.
    pub fn message_for(&self, id: &str) -> String {
        let id: Value = serde_json::from_str(id).unwrap_or(Value::Null);
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": self.code, "message": self.message, "data": self.data },
        })
        .to_string()
    }

    /// The HTTP response: the status and the JSON-RPC error for request `id`.
    pub fn response_for(&self, id: &str) -> Response {
        json_response(self.status, self.message_for(id))
    }
}

/// A JSON-RPC error as an HTTP response, for requests the bridge refuses itself.
pub fn error_response(status: StatusCode, code: i64, message: impl Into<String>) -> Response {
    let body = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": code, "message": message.into() },
    });
    json_response(status, body.to_string())
}

/// `body` as an `application/json` response.
pub fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_come_from_id_and_method_only() {
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":[1,2]}}"#),
            Ok(Kind::Request {
                id: "1".into(),
                method: "initialize".into()
            })
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","id":"1","result":{}}"#),
            Ok(Kind::Response { id: "\"1\"".into() })
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Ok(Kind::Notification {
                method: "notifications/initialized".into()
            })
        );
        // A response to a message that could not be parsed has a null id: nothing to route by.
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#),
            Err(NotAMessage::NotJsonRpc)
        );
    }

    #[test]
    fn batches_scalars_and_garbage_are_not_messages() {
        assert_eq!(
            classify(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#),
            Err(NotAMessage::NotJsonRpc)
        );
        assert_eq!(classify("42"), Err(NotAMessage::NotJsonRpc));
        assert!(matches!(
            classify("Server started on stdio"),
            Err(NotAMessage::NotJson(_))
        ));
        assert!(matches!(
            classify(r#"{"id":1"#),
            Err(NotAMessage::NotJson(_))
        ));
        assert_eq!(
            classify(r#"{"id":1,"method":7}"#),
            Err(NotAMessage::NotJsonRpc)
        );
    }

    #[test]
    fn a_pretty_printed_body_becomes_one_line_with_the_same_tokens() {
        let body = "{\r\n  \"id\": 1,\n  \"method\": \"ping\"\n}\n";
        let line = as_line(body);
        assert!(!line.contains('\n') && !line.contains('\r'));
        assert_eq!(
            serde_json::from_str::<Value>(&line).expect("json"),
            serde_json::from_str::<Value>(body).expect("json")
        );
    }

    #[test]
    fn failures_name_the_leg_and_keep_the_request_id() {
        let failure = Failure::new(StatusCode::BAD_GATEWAY, "stdio", "child-exited", "gone")
            .with("exit_code", 3);
        let message: Value = serde_json::from_str(&failure.message_for("\"a\"")).expect("json");
        assert_eq!(message["id"], "a");
        assert_eq!(message["error"]["code"], BRIDGE_ERROR);
        assert_eq!(message["error"]["data"]["leg"], "stdio");
        assert_eq!(message["error"]["data"]["exit_code"], 3);
    }
}
