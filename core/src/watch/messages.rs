//! The JSON-RPC messages in a body, an SSE event or a stdio line, by kind.

use mcp_flow_client::jsonrpc::{Reply, reply};
use serde_json::Value;

/// One JSON-RPC message.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    Request {
        id: String,
        method: String,
        params: Value,
    },
    Notification {
        method: String,
        params: Value,
    },
    /// A result or an error answering `id`.
    Response {
        id: String,
        answer: Reply,
    },
}

impl Message {
    fn of(value: &Value) -> Option<Self> {
        let id = value
            .get("id")
            .filter(|id| !id.is_null())
            .map(Value::to_string);
        let params = value.get("params").cloned().unwrap_or(Value::Null);
        if let Some(method) = value.get("method").and_then(Value::as_str) {
            let method = method.to_owned();
            return Some(match id {
                Some(id) => Message::Request { id, method, params },
                None => Message::Notification { method, params },
            });
        }
        Some(Message::Response {
            id: id?,
            answer: reply(value)?,
        })
    }
}

/// The messages in `text`: one message or a batch; nothing for text that is not JSON-RPC.
pub fn parse(text: &str) -> Vec<Message> {
    serde_json::from_str::<Value>(text.trim())
        .map(|value| in_value(&value))
        .unwrap_or_default()
}

/// The messages in an already parsed body: one message or a batch.
pub fn in_value(value: &Value) -> Vec<Message> {
    match value {
        Value::Array(batch) => batch.iter().filter_map(Message::of).collect(),
        value => Message::of(value).into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_notifications_answers_and_batches_are_told_apart() {
        let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"},
            {"jsonrpc":"2.0","method":"notifications/initialized"},
            {"jsonrpc":"2.0","id":"a","result":{}},
            {"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}]"#;
        let found = parse(batch);
        assert!(
            matches!(&found[0], Message::Request { id, method, .. } if id == "1" && method == "tools/list")
        );
        assert!(
            matches!(&found[1], Message::Notification { method, .. } if method == "notifications/initialized")
        );
        assert!(
            matches!(&found[2], Message::Response { id, answer: Reply::Result(_) } if id == "\"a\"")
        );
        assert!(matches!(
            &found[3],
            Message::Response {
                answer: Reply::Error { code: -32601, .. },
                ..
            }
        ));
        assert!(parse("not json").is_empty());
        assert!(parse(r#"{"jsonrpc":"2.0"}"#).is_empty());
    }
}
