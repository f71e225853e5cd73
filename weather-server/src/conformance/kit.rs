//! What the conformance fixtures build with: tools without arguments, and the input requests
//! and answers of MRTR (`input_required`). Used by `conformance.rs` and `conformance_tasks.rs`.

use std::sync::Arc;

use rmcp::{
    ErrorData as McpError,
    model::{CallToolResponse, InputRequest, InputRequests, InputRequiredResult, Tool},
};
use serde_json::{Value, json};

/// Tools that take no arguments, from their names and descriptions.
pub fn no_argument_tools(list: &[(&'static str, &'static str)]) -> Vec<Tool> {
    let schema: Arc<rmcp::model::JsonObject> = Arc::new(
        [
            ("type".to_owned(), json!("object")),
            ("properties".to_owned(), json!({})),
        ]
        .into_iter()
        .collect(),
    );
    list.iter()
        .map(|(name, description)| Tool::new(*name, *description, Arc::clone(&schema)))
        .collect()
}

pub fn input_request(value: Value) -> Result<InputRequest, McpError> {
    serde_json::from_value(value).map_err(|e| McpError::internal_error(e.to_string(), None))
}

pub fn invalid(key: &str, why: &str) -> McpError {
    McpError::invalid_params(format!("Invalid inputResponses.{key}: {why}"), None)
}

/// An `elicitation/create` form asking for one string (or, `boolean`, one flag).
pub fn ask_field(message: &str, field: &str, kind: &str) -> Result<InputRequest, McpError> {
    input_request(json!({
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": { field: { "type": kind } },
                "required": [field],
            }
        }
    }))
}

/// An `ElicitResult`: `Some(value of field)` when accepted, `None` when declined or cancelled.
pub fn elicited(key: &str, value: &Value, field: &str) -> Result<Option<String>, McpError> {
    let action = value
        .get("action")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(key, "expected an ElicitResult object with an action"))?;
    match action {
        "accept" => {
            let answer = value
                .get("content")
                .and_then(|content| content.get(field))
                .ok_or_else(|| {
                    invalid(key, &format!("an accepted answer needs content.{field}"))
                })?;
            Ok(Some(match answer {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            }))
        }
        "decline" | "cancel" => Ok(None),
        _ => Err(invalid(key, "action must be accept, decline or cancel")),
    }
}

pub fn input_required(requests: InputRequests, state: Option<String>) -> CallToolResponse {
    InputRequiredResult::new(Some(requests), state).into()
}

pub fn one(key: &str, request: InputRequest) -> InputRequests {
    InputRequests::from([(key.to_owned(), request)])
}
