//! OpenAI-compatible chat completions (OpenAI, Ollama, llama.cpp server, LM Studio, vLLM,
//! OpenRouter, Groq): POST `{base}/chat/completions` through the same [`Http`] the MCP client
//! uses, in either tool-calling style.

use serde_json::{Value, json};

use super::{ChatMessage, Llm, LlmExchange, LlmReply, ToolCall, ToolSpec, openai, prompt_style};
use crate::mcp::http::{BodyStream, Http, HttpRequest};

/// How tools reach the model (seed `004_…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `tools` in the request, `tool_calls` in the reply.
    FunctionCalling,
    /// Tools described in the system prompt, a JSON object in the reply.
    SystemPrompt,
}

pub struct OpenAiCompatible<H: Http> {
    pub http: H,
    /// E.g. `http://127.0.0.1:11434/v1` for Ollama.
    pub base_url: String,
    pub model: String,
    /// Kept in memory only; sent as `Authorization: Bearer …`, never recorded.
    pub key: Option<String>,
    pub style: Style,
}

/// The request body for `messages` and `tools` in `style`.
pub fn request_body(
    model: &str,
    style: Style,
    messages: &[ChatMessage],
    tools: &[ToolSpec],
) -> Value {
    match style {
        Style::FunctionCalling => {
            let mut body = json!({"model": model, "messages": openai::messages(messages)});
            if !tools.is_empty() {
                body["tools"] = openai::tools(tools);
            }
            body
        }
        Style::SystemPrompt => json!({
            "model": model,
            "messages": openai::messages(&prompt_messages(messages, tools)),
        }),
    }
}

/// The conversation as the system-prompt style sends it: the tools in a system message, tool
/// calls as the JSON the model wrote, tool results as user messages (as in the seeds).
pub fn prompt_messages(messages: &[ChatMessage], tools: &[ToolSpec]) -> Vec<ChatMessage> {
    let mut out = vec![ChatMessage::System(prompt_style::system_prompt(tools))];
    for m in messages {
        out.push(match m {
            ChatMessage::Assistant { text, tool_calls } if !tool_calls.is_empty() => {
                let call = &tool_calls[0];
                ChatMessage::Assistant {
                    text: json!({"tool_name": call.name, "arguments": call.arguments}).to_string(),
                    tool_calls: Vec::new(),
                }
            }
            ChatMessage::ToolResult { name, content, .. } => {
                ChatMessage::User(prompt_style::tool_result_message(name, content))
            }
            other => other.clone(),
        });
    }
    out
}

/// Reads a chat-completion response in `style`.
pub fn parse_response(response: &Value, style: Style) -> Result<LlmReply, String> {
    if let Some(error) = response.get("error") {
        let message = error
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_else(|| error.to_string());
        return Err(message);
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
                    id: c
                        .get("id")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                        .unwrap_or_else(|| format!("call_{}", i + 1)),
                    name: name.to_owned(),
                    arguments,
                })
            })
            .collect::<Result<Vec<_>, String>>()
            .map(LlmReply::ToolCalls);
    }
    let text = message
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    if style == Style::SystemPrompt
        && let Some(call) = prompt_style::extract_tool_call(&text)
    {
        return Ok(LlmReply::ToolCalls(vec![call]));
    }
    Ok(LlmReply::Text(text))
}

impl<H: Http> Llm for OpenAiCompatible<H> {
    fn label(&self) -> String {
        format!("{} (OpenAI-compatible)", self.model)
    }

    fn format_tools(&self, tools: &[ToolSpec]) -> Value {
        match self.style {
            Style::FunctionCalling => openai::tools(tools),
            Style::SystemPrompt => Value::String(prompt_style::system_prompt(tools)),
        }
    }

    async fn complete(
        &self,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> (Result<LlmReply, String>, LlmExchange) {
        let url = format!("{}/chat/completions", self.base_url.trim_end_matches('/'));
        let body = request_body(&self.model, self.style, messages, tools);
        let mut headers = vec![("Content-Type".to_owned(), "application/json".to_owned())];
        if let Some(key) = self.key.as_ref().filter(|k| !k.is_empty()) {
            headers.push(("Authorization".to_owned(), format!("Bearer {key}")));
        }
        let mut exchange = LlmExchange {
            provider: "openai-compatible".into(),
            url: url.clone(),
            request: body.clone(),
            response: None,
            status: None,
            started_ms: self.http.now_ms(),
            finished_ms: 0.0,
            error: None,
        };
        let request = HttpRequest {
            method: "POST",
            url,
            headers,
            body: Some(body.to_string()),
        };
        let result = async {
            let mut response = self.http.send(&request).await.map_err(|e| {
                format!("no response from the model's endpoint (network or CORS): {e}")
            })?;
            exchange.status = Some(response.status);
            let mut bytes = Vec::new();
            while let Some(chunk) = response.body.chunk().await? {
                bytes.extend_from_slice(&chunk);
            }
            let text = String::from_utf8_lossy(&bytes);
            let value: Value = serde_json::from_str(&text).map_err(|e| {
                format!(
                    "HTTP {}: the reply is not JSON ({e}): {}",
                    response.status,
                    crate::mcp::error::clip(&text, 200)
                )
            })?;
            exchange.response = Some(value.clone());
            let reply = parse_response(&value, self.style);
            match reply {
                Err(e) => Err(format!("HTTP {}: {e}", response.status)),
                Ok(r) if (200..300).contains(&response.status) => Ok(r),
                Ok(_) => Err(format!("HTTP {}", response.status)),
            }
        }
        .await;
        exchange.finished_ms = self.http.now_ms();
        exchange.error = result.as_ref().err().cloned();
        (result, exchange)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weather() -> ToolSpec {
        crate::llm::weather_tool()
    }

    /// The documented OpenAI shape of a tool-call reply.
    const OPENAI_TOOL_CALL: &str = r#"{"id":"chatcmpl-abc","object":"chat.completion","created":1700000000,
        "model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":null,
        "tool_calls":[{"id":"call_Q1","type":"function","function":{"name":"get_weather",
        "arguments":"{\"location\":\"Tokyo\"}"}}]},"finish_reason":"tool_calls"}],
        "usage":{"prompt_tokens":80,"completion_tokens":17,"total_tokens":97}}"#;

    /// Ollama's OpenAI-compatible endpoint answering in text (system-prompt style).
    const OLLAMA_TEXT: &str = r#"{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,
        "model":"qwen2.5:7b","system_fingerprint":"fp_ollama","choices":[{"index":0,
        "message":{"role":"assistant","content":"```json\n{\"tool_name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}\n```"},
        "finish_reason":"stop"}]}"#;

    const OPENAI_ERROR: &str = r#"{"error":{"message":"Incorrect API key provided: sk-...","type":"invalid_request_error","code":"invalid_api_key"}}"#;

    #[test]
    fn native_tool_calls_are_read() {
        let v: Value = serde_json::from_str(OPENAI_TOOL_CALL).unwrap();
        match parse_response(&v, Style::FunctionCalling).unwrap() {
            LlmReply::ToolCalls(calls) => {
                assert_eq!(calls[0].id, "call_Q1");
                assert_eq!(calls[0].name, "get_weather");
                assert_eq!(calls[0].arguments, json!({"location": "Tokyo"}));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn system_prompt_replies_are_extracted_and_plain_text_stays_text() {
        let v: Value = serde_json::from_str(OLLAMA_TEXT).unwrap();
        assert!(matches!(
            parse_response(&v, Style::SystemPrompt).unwrap(),
            LlmReply::ToolCalls(c) if c[0].arguments == json!({"location": "Tokyo"})
        ));
        // In function-calling style the same text is just text.
        assert!(matches!(
            parse_response(&v, Style::FunctionCalling).unwrap(),
            LlmReply::Text(_)
        ));
        let answer = json!({"choices":[{"message":{"role":"assistant","content":"The weather in Tokyo is sunny."}}]});
        assert_eq!(
            parse_response(&answer, Style::SystemPrompt).unwrap(),
            LlmReply::Text("The weather in Tokyo is sunny.".into())
        );
    }

    #[test]
    fn provider_errors_and_malformed_replies_say_what_is_wrong() {
        let v: Value = serde_json::from_str(OPENAI_ERROR).unwrap();
        assert!(
            parse_response(&v, Style::FunctionCalling)
                .unwrap_err()
                .contains("Incorrect API key")
        );
        assert!(parse_response(&json!({"choices": []}), Style::FunctionCalling).is_err());
        let bad_args = json!({"choices":[{"message":{"tool_calls":[{"id":"c","type":"function",
            "function":{"name":"get_weather","arguments":"{location: Tokyo"}}]}}]});
        assert!(
            parse_response(&bad_args, Style::FunctionCalling)
                .unwrap_err()
                .contains("not JSON")
        );
    }

    #[test]
    fn requests_carry_tools_natively_or_in_the_system_prompt() {
        let messages = vec![
            ChatMessage::User("What's the weather in Tokyo?".into()),
            ChatMessage::Assistant {
                text: String::new(),
                tool_calls: vec![ToolCall {
                    id: "call_1".into(),
                    name: "get_weather".into(),
                    arguments: json!({"location": "Tokyo"}),
                }],
            },
            ChatMessage::ToolResult {
                call_id: "call_1".into(),
                name: "get_weather".into(),
                content: "Sunny".into(),
                is_error: false,
            },
        ];
        let native = request_body("m", Style::FunctionCalling, &messages, &[weather()]);
        assert_eq!(native["tools"][0]["function"]["name"], "get_weather");
        assert_eq!(native["messages"][2]["role"], "tool");
        assert_eq!(
            native["messages"][1]["tool_calls"][0]["function"]["arguments"],
            r#"{"location":"Tokyo"}"#
        );

        let prompt = request_body("m", Style::SystemPrompt, &messages, &[weather()]);
        assert!(prompt.get("tools").is_none());
        let msgs = prompt["messages"].as_array().unwrap();
        assert_eq!(msgs[0]["role"], "system");
        assert!(
            msgs[0]["content"]
                .as_str()
                .unwrap()
                .contains("Tool: get_weather")
        );
        assert_eq!(
            msgs[2]["content"],
            r#"{"arguments":{"location":"Tokyo"},"tool_name":"get_weather"}"#
        );
        assert_eq!(msgs[3]["role"], "user");
        assert_eq!(
            msgs[3]["content"],
            "Tool 'get_weather' returned: 'Sunny'. Answer the original question based on this."
        );
    }

    #[test]
    fn a_completion_goes_over_http_and_the_key_stays_out_of_the_record() {
        use crate::mcp::scripted::{Scripted, json_reply};
        use std::rc::Rc;
        let http = Rc::new(Scripted::default());
        http.script
            .borrow_mut()
            .push_back(json_reply(serde_json::from_str(OPENAI_TOOL_CALL).unwrap()));
        let llm = OpenAiCompatible {
            http: http.clone(),
            base_url: "http://127.0.0.1:11434/v1/".into(),
            model: "qwen2.5".into(),
            key: Some("sk-secret".into()),
            style: Style::FunctionCalling,
        };
        let messages = [ChatMessage::User("What's the weather in Tokyo?".into())];
        let (reply, exchange) = futures_executor::block_on(llm.complete(&messages, &[weather()]));
        assert!(matches!(reply, Ok(LlmReply::ToolCalls(_))));
        let sent = &http.sent.borrow()[0];
        assert_eq!(sent.url, "http://127.0.0.1:11434/v1/chat/completions");
        assert!(
            sent.headers
                .contains(&("Authorization".into(), "Bearer sk-secret".into()))
        );
        assert_eq!(exchange.status, Some(200));
        assert!(
            !serde_json::to_string(&exchange)
                .unwrap()
                .contains("sk-secret")
        );
    }
}
