//! The Anthropic Messages API: `POST {base}/messages` with `x-api-key`, tools with
//! `input_schema`, `tool_use` blocks in the reply and `tool_result` blocks going back.

use serde_json::{Value, json};

use super::{ChatMessage, LlmReply, ToolSpec, wire};

pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com/v1";
pub const API_VERSION: &str = "2023-06-01";
const MAX_TOKENS: u32 = 1024;

/// The tools in Anthropic's format: `{"name", "description", "input_schema"}`.
pub fn tools(tools: &[ToolSpec]) -> Value {
    Value::Array(
        tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}))
            .collect(),
    )
}

/// `POST {base}/messages` (the model goes in the body).
pub fn url(base_url: &str, _model: &str) -> String {
    wire::endpoint(base_url, "messages")
}

/// The request headers, including the one that lets a browser page call the API directly.
pub fn headers(key: Option<&str>) -> Vec<(String, String)> {
    wire::json_headers(
        &[
            ("anthropic-version", API_VERSION),
            ("anthropic-dangerous-direct-browser-access", "true"),
        ],
        key,
        "x-api-key",
        "",
    )
}

/// System messages go to the top-level `system`; tool results are user messages made of
/// `tool_result` blocks, consecutive ones merged into one message.
pub fn request_body(model: &str, conversation: &[ChatMessage], tool_list: &[ToolSpec]) -> Value {
    let mut system = Vec::new();
    let mut messages: Vec<Value> = Vec::new();
    for m in conversation {
        match m {
            ChatMessage::System(text) => system.push(text.as_str()),
            ChatMessage::User(text) => messages.push(json!({"role": "user", "content": text})),
            ChatMessage::Assistant { text, tool_calls } => {
                let mut blocks = Vec::new();
                if !text.is_empty() {
                    blocks.push(json!({"type": "text", "text": text}));
                }
                blocks.extend(tool_calls.iter().map(|c| {
                    json!({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments})
                }));
                messages.push(json!({"role": "assistant", "content": blocks}));
            }
            ChatMessage::ToolResult {
                call_id,
                content,
                is_error,
                ..
            } => {
                let block = json!({"type": "tool_result", "tool_use_id": call_id,
                                   "content": content, "is_error": is_error});
                match messages.last_mut() {
                    Some(last)
                        if last["role"] == "user"
                            && last["content"][0]["type"] == "tool_result" =>
                    {
                        if let Some(blocks) = last["content"].as_array_mut() {
                            blocks.push(block);
                        }
                    }
                    _ => messages.push(json!({"role": "user", "content": [block]})),
                }
            }
        }
    }
    let mut body = json!({"model": model, "max_tokens": MAX_TOKENS, "messages": messages});
    if !system.is_empty() {
        body["system"] = Value::String(system.join("\n\n"));
    }
    if !tool_list.is_empty() {
        body["tools"] = tools(tool_list);
    }
    body
}

/// Reads a Messages response: `tool_use` blocks become tool calls, otherwise the text blocks.
pub fn parse_response(response: &Value) -> Result<LlmReply, String> {
    if let Some(error) = response.get("error") {
        return Err(wire::error_message(error));
    }
    let blocks = response
        .get("content")
        .and_then(Value::as_array)
        .ok_or("the response has no content array")?;
    wire::calls_or_text(
        blocks.iter().filter(|b| b["type"] == "tool_use"),
        "input",
        blocks,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::weather_tool;

    /// The documented shape of a Messages reply that uses a tool.
    const TOOL_USE: &str = r#"{"id":"msg_01Aq9w938a90dw8q","type":"message","role":"assistant",
        "model":"claude-sonnet-4-5","content":[{"type":"text","text":"I'll check the weather."},
        {"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"get_weather",
        "input":{"location":"Tokyo"}}],"stop_reason":"tool_use","stop_sequence":null,
        "usage":{"input_tokens":384,"output_tokens":61}}"#;

    const TEXT: &str = r#"{"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-4-5",
        "content":[{"type":"text","text":"The weather in Tokyo is sunny."}],"stop_reason":"end_turn",
        "usage":{"input_tokens":450,"output_tokens":9}}"#;

    const ERROR: &str =
        r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#;

    #[test]
    fn tools_use_input_schema() {
        let t = tools(&[weather_tool()]);
        assert_eq!(t[0]["name"], "get_weather");
        assert_eq!(t[0]["input_schema"]["required"], json!(["location"]));
        assert!(t[0].get("parameters").is_none());
    }

    #[test]
    fn tool_use_blocks_become_tool_calls_and_text_blocks_text() {
        let v: Value = serde_json::from_str(TOOL_USE).unwrap();
        match parse_response(&v).unwrap() {
            LlmReply::ToolCalls(c) => {
                assert_eq!(c[0].id, "toolu_01A09q90qw90lq917835lq9");
                assert_eq!(c[0].arguments, json!({"location": "Tokyo"}));
            }
            other => panic!("{other:?}"),
        }
        let v: Value = serde_json::from_str(TEXT).unwrap();
        assert_eq!(
            parse_response(&v).unwrap(),
            LlmReply::Text("The weather in Tokyo is sunny.".into())
        );
        let v: Value = serde_json::from_str(ERROR).unwrap();
        assert_eq!(parse_response(&v).unwrap_err(), "invalid x-api-key");
        assert!(parse_response(&json!({"type": "message"})).is_err());
    }

    #[test]
    fn requests_put_system_on_top_and_results_in_tool_result_blocks() {
        let mut conversation = crate::llm::tokyo_conversation();
        conversation.insert(0, ChatMessage::System("be brief".into()));
        let body = request_body("claude", &conversation, &[weather_tool()]);
        assert_eq!(body["system"], "be brief");
        assert_eq!(body["max_tokens"], 1024);
        assert_eq!(body["messages"].as_array().unwrap().len(), 3);
        assert_eq!(body["messages"][1]["content"][0]["type"], "tool_use");
        assert_eq!(
            body["messages"][1]["content"][0]["input"]["location"],
            "Tokyo"
        );
        assert_eq!(body["messages"][2]["role"], "user");
        assert_eq!(body["messages"][2]["content"][0]["tool_use_id"], "call_1");
        assert_eq!(body["tools"][0]["input_schema"]["required"][0], "location");
        let h = headers(Some("sk-ant"));
        assert!(h.contains(&(
            "anthropic-dangerous-direct-browser-access".into(),
            "true".into()
        )));
        assert!(h.contains(&("x-api-key".into(), "sk-ant".into())));
        assert!(h.contains(&("anthropic-version".into(), API_VERSION.into())));
        assert_eq!(
            url("https://a.example/v1/", "claude"),
            "https://a.example/v1/messages"
        );
    }
}
