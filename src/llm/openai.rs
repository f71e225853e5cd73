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

/// `POST {base}/chat/completions`.
pub fn url(base_url: &str) -> String {
    format!("{}/chat/completions", base_url.trim_end_matches('/'))
}

/// The request headers; the key goes in `Authorization: Bearer …`.
pub fn headers(key: Option<&str>) -> Vec<(String, String)> {
    let mut headers = vec![("Content-Type".to_owned(), "application/json".to_owned())];
    if let Some(key) = key {
        headers.push(("Authorization".to_owned(), format!("Bearer {key}")));
    }
    headers
}

/// A chat-completions request; `tools` is left out when there are none.
pub fn request_body(model: &str, conversation: &[ChatMessage], tool_list: &[ToolSpec]) -> Value {
    let mut body = json!({"model": model, "messages": messages(conversation)});
    if !tool_list.is_empty() {
        body["tools"] = tools(tool_list);
    }
    body
}

/// Reads a chat-completion response: `tool_calls` (arguments as a JSON string) or text.
pub fn parse_response(response: &Value) -> Result<LlmReply, String> {
    if let Some(error) = response.get("error") {
        return Err(super::remote::error_message(error));
    }
    let message = response
        .pointer("/choices/0/message")
        .ok_or("the response has no choices[0].message")?;
    if let Some(calls) = message.get("tool_calls").and_then(Value::as_array)
        && !calls.is_empty()
    {
        return calls
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let name = c
                    .pointer("/function/name")
                    .and_then(Value::as_str)
                    .ok_or("a tool call without function.name")?;
                let arguments = match c.pointer("/function/arguments") {
                    Some(Value::String(s)) if s.trim().is_empty() => json!({}),
                    Some(Value::String(s)) => serde_json::from_str(s)
                        .map_err(|e| format!("the arguments of {name} are not JSON ({e}): {s}"))?,
                    Some(v @ Value::Object(_)) => v.clone(),
                    _ => json!({}),
                };
                Ok(super::ToolCall {
                    id: super::remote::call_id(c.get("id"), i),
                    name: name.to_owned(),
                    arguments,
                })
            })
            .collect::<Result<Vec<_>, String>>()
            .map(LlmReply::ToolCalls);
    }
    Ok(LlmReply::Text(
        message
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
    ))
}
