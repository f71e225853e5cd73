//! OpenAI-compatible chat completions (OpenAI, Ollama, llama.cpp server, LM Studio, vLLM,
//! OpenRouter, Groq): `POST {base}/chat/completions` with `Authorization: Bearer`, tools as
//! `{"type":"function","function":{...}}`, messages with `tool_calls` and `role: "tool"`
//! results. The offline model also answers in this shape, as a real provider would.

use serde_json::{Value, json};

use super::{ChatMessage, LlmReply, ToolCall, ToolSpec, wire};

/// The tools in OpenAI's format: `{"type": "function", "function": {"name", "description",
/// "parameters"}}`.
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

/// The conversation as chat-completion messages.
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

/// `POST {base}/chat/completions` (the model goes in the body).
pub fn url(base_url: &str, _model: &str) -> String {
    wire::endpoint(base_url, "chat/completions")
}

/// The request headers; the key goes in `Authorization: Bearer …`.
pub fn headers(key: Option<&str>) -> Vec<(String, String)> {
    wire::json_headers(&[], key, "Authorization", "Bearer ")
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
        return Err(wire::error_message(error));
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
                Ok(ToolCall {
                    id: wire::call_id(c.get("id"), i),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::weather_tool;

    /// The documented OpenAI shape of a tool-call reply.
    const TOOL_CALL: &str = r#"{"id":"chatcmpl-abc","object":"chat.completion","created":1700000000,
        "model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":null,
        "tool_calls":[{"id":"call_Q1","type":"function","function":{"name":"get_weather",
        "arguments":"{\"location\":\"Tokyo\"}"}}]},"finish_reason":"tool_calls"}],
        "usage":{"prompt_tokens":80,"completion_tokens":17,"total_tokens":97}}"#;

    const ERROR: &str = r#"{"error":{"message":"Incorrect API key provided: sk-...","type":"invalid_request_error","code":"invalid_api_key"}}"#;

    fn value(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn native_tool_calls_are_read() {
        match parse_response(&value(TOOL_CALL)).unwrap() {
            LlmReply::ToolCalls(calls) => {
                assert_eq!(calls[0].id, "call_Q1");
                assert_eq!(calls[0].name, "get_weather");
                assert_eq!(calls[0].arguments, json!({"location": "Tokyo"}));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn provider_errors_and_malformed_replies_say_what_is_wrong() {
        assert!(
            parse_response(&value(ERROR))
                .unwrap_err()
                .contains("Incorrect API key")
        );
        assert!(parse_response(&json!({"choices": []})).is_err());
        let bad_args = json!({"choices":[{"message":{"tool_calls":[{"id":"c","type":"function",
            "function":{"name":"get_weather","arguments":"{location: Tokyo"}}]}}]});
        assert!(parse_response(&bad_args).unwrap_err().contains("not JSON"));
    }

    #[test]
    fn requests_carry_the_tools_in_function_objects() {
        let body = request_body("gpt", &crate::llm::tokyo_conversation(), &[weather_tool()]);
        assert_eq!(body["model"], "gpt");
        assert_eq!(body["tools"][0]["type"], "function");
        assert_eq!(
            body["tools"][0]["function"]["parameters"]["required"][0],
            "location"
        );
        assert_eq!(body["messages"][2]["role"], "tool");
        assert!(request_body("gpt", &[], &[]).get("tools").is_none());
        assert_eq!(
            url("http://127.0.0.1:11434/v1/", "qwen"),
            "http://127.0.0.1:11434/v1/chat/completions"
        );
        assert!(headers(Some("sk")).contains(&("Authorization".into(), "Bearer sk".into())));
    }
}
