//! The OpenAI chat-completions wire format: tools as `{"type":"function","function":{...}}`,
//! messages with `tool_calls` and `role: "tool"` results. Used by the offline model to answer in
//! the same shape a real provider would.

use serde_json::{Value, json};

use super::{ChatMessage, LlmReply, ToolSpec};

pub fn tools(tools: &[ToolSpec]) -> Value {
    Value::Array(
        tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name, "description": t.description, "parameters": t.input_schema}})
            })
            .collect(),
    )
}

pub fn messages(messages: &[ChatMessage]) -> Value {
    Value::Array(
        messages
            .iter()
            .map(|m| match m {
                ChatMessage::System(text) => json!({"role": "system", "content": text}),
                ChatMessage::User(text) => json!({"role": "user", "content": text}),
                ChatMessage::Assistant { text, tool_calls } => {
                    let mut msg = json!({"role": "assistant", "content": text});
                    if !tool_calls.is_empty() {
                        msg["tool_calls"] = tool_calls
                            .iter()
                            .map(|c| {
                                json!({"id": c.id, "type": "function", "function": {
                                    "name": c.name, "arguments": c.arguments.to_string()}})
                            })
                            .collect();
                    }
                    msg
                }
                ChatMessage::ToolResult {
                    call_id, content, ..
                } => json!({"role": "tool", "tool_call_id": call_id, "content": content}),
            })
            .collect(),
    )
}

/// A chat-completion response object carrying `reply`.
pub fn response(id: &str, model: &str, reply: &LlmReply) -> Value {
    let (message, finish) = match reply {
        LlmReply::Text(text) => (json!({"role": "assistant", "content": text}), "stop"),
        LlmReply::ToolCalls(calls) => (
            json!({"role": "assistant", "content": null, "tool_calls": calls.iter().map(|c| json!({
                "id": c.id, "type": "function",
                "function": {"name": c.name, "arguments": c.arguments.to_string()}
            })).collect::<Vec<_>>()}),
            "tool_calls",
        ),
    };
    json!({"id": id, "object": "chat.completion", "model": model,
           "choices": [{"index": 0, "message": message, "finish_reason": finish}]})
}
