//! Google Gemini `generateContent`: `POST {base}/models/{model}:generateContent` with
//! `x-goog-api-key`, tools as `functionDeclarations`, `functionCall` parts in the reply and
//! `functionResponse` parts going back.

use serde_json::{Map, Value, json};

use super::{ChatMessage, LlmReply, ToolSpec, wire};

pub const DEFAULT_BASE_URL: &str = "https://generativelanguage.googleapis.com/v1beta";

/// The tools in Gemini's format: `[{"functionDeclarations": [{"name", "description",
/// "parameters"}]}]`, each schema without the keywords Gemini rejects.
pub fn tools(tools: &[ToolSpec]) -> Value {
    let declarations: Vec<Value> = tools
        .iter()
        .map(|t| {
            json!({"name": t.name, "description": t.description,
                   "parameters": schema(&t.input_schema)})
        })
        .collect();
    json!([{ "functionDeclarations": declarations }])
}

/// Keywords of JSON Schema that Gemini's OpenAPI-subset schema refuses.
const DROPPED_KEYWORDS: [&str; 7] = [
    "$schema",
    "additionalProperties",
    "$id",
    "$defs",
    "definitions",
    "default",
    "examples",
];

/// A copy of a JSON Schema without the keywords Gemini rejects, recursively.
pub fn schema(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                if DROPPED_KEYWORDS.contains(&k.as_str()) {
                    continue;
                }
                let v = if k == "properties" {
                    match v {
                        Value::Object(props) => Value::Object(
                            props
                                .iter()
                                .map(|(name, s)| (name.clone(), schema(s)))
                                .collect(),
                        ),
                        other => other.clone(),
                    }
                } else {
                    schema(v)
                };
                out.insert(k.clone(), v);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(schema).collect()),
        other => other.clone(),
    }
}

/// `POST {base}/models/{model}:generateContent`.
pub fn url(base_url: &str, model: &str) -> String {
    wire::endpoint(base_url, &format!("models/{model}:generateContent"))
}

/// The key travels in a header, never in the URL (which the record keeps).
pub fn headers(key: Option<&str>) -> Vec<(String, String)> {
    wire::json_headers(&[], key, "x-goog-api-key", "")
}

/// System messages become `systemInstruction`; the assistant is the `model` role; tool results
/// are `functionResponse` parts of a user turn. The model is named in the URL, not the body.
pub fn request_body(_model: &str, conversation: &[ChatMessage], tool_list: &[ToolSpec]) -> Value {
    let mut system = Vec::new();
    let mut contents: Vec<Value> = Vec::new();
    for m in conversation {
        match m {
            ChatMessage::System(text) => system.push(text.as_str()),
            ChatMessage::User(text) => {
                contents.push(json!({"role": "user", "parts": [{"text": text}]}))
            }
            ChatMessage::Assistant { text, tool_calls } => {
                let mut parts = Vec::new();
                if !text.is_empty() {
                    parts.push(json!({"text": text}));
                }
                parts.extend(tool_calls.iter().map(
                    |c| json!({"functionCall": {"id": c.id, "name": c.name, "args": c.arguments}}),
                ));
                contents.push(json!({"role": "model", "parts": parts}));
            }
            ChatMessage::ToolResult {
                call_id,
                name,
                content,
                is_error,
                ..
            } => {
                let key = if *is_error { "error" } else { "result" };
                let part = json!({"functionResponse": {"id": call_id, "name": name,
                                                       "response": {key: content}}});
                match contents.last_mut() {
                    Some(last)
                        if last["role"] == "user"
                            && last["parts"][0].get("functionResponse").is_some() =>
                    {
                        if let Some(parts) = last["parts"].as_array_mut() {
                            parts.push(part);
                        }
                    }
                    _ => contents.push(json!({"role": "user", "parts": [part]})),
                }
            }
        }
    }
    let mut body = json!({ "contents": contents });
    if !system.is_empty() {
        body["systemInstruction"] = json!({"parts": [{"text": system.join("\n\n")}]});
    }
    if !tool_list.is_empty() {
        body["tools"] = tools(tool_list);
    }
    body
}

/// Reads a `generateContent` response: `functionCall` parts become tool calls, otherwise the
/// text parts; a blocked prompt says why.
pub fn parse_response(response: &Value) -> Result<LlmReply, String> {
    if let Some(error) = response.get("error") {
        return Err(wire::error_message(error));
    }
    let Some(parts) = response
        .pointer("/candidates/0/content/parts")
        .and_then(Value::as_array)
    else {
        return Err(match response.pointer("/promptFeedback/blockReason") {
            Some(reason) => format!("the prompt was blocked: {reason}"),
            None => "the response has no candidates[0].content.parts".into(),
        });
    };
    wire::calls_or_text(
        parts.iter().filter_map(|p| p.get("functionCall")),
        "args",
        parts,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::weather_tool;

    /// The documented shape of a reply that calls a function.
    const FUNCTION_CALL: &str = r#"{"candidates":[{"content":{"parts":[{"functionCall":
        {"name":"get_weather","args":{"location":"Tokyo"}}}],"role":"model"},
        "finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":60,
        "candidatesTokenCount":6,"totalTokenCount":66},"modelVersion":"gemini-2.5-flash"}"#;

    const TEXT: &str = r#"{"candidates":[{"content":{"parts":[{"text":"The weather in Tokyo is sunny."}],
        "role":"model"},"finishReason":"STOP","index":0}]}"#;

    const ERROR: &str = r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.",
        "status":"INVALID_ARGUMENT"}}"#;

    #[test]
    fn tools_are_wrapped_in_declarations_without_rejected_keywords() {
        let weather = ToolSpec {
            name: "get_weather".into(),
            description: "Get the weather".into(),
            input_schema: json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "location": {"type": "string", "default": "Tokyo"},
                    "default": {"type": "string"}
                },
                "required": ["location"]
            }),
            ..Default::default()
        };
        let t = tools(&[weather]);
        let params = &t[0]["functionDeclarations"][0]["parameters"];
        assert!(params.get("$schema").is_none());
        assert!(params.get("additionalProperties").is_none());
        assert!(params["properties"]["location"].get("default").is_none());
        // A property that happens to be named like a keyword stays.
        assert_eq!(params["properties"]["default"]["type"], "string");
        assert_eq!(params["required"], json!(["location"]));
    }

    #[test]
    fn function_calls_text_errors_and_blocks_are_read() {
        let v: Value = serde_json::from_str(FUNCTION_CALL).unwrap();
        match parse_response(&v).unwrap() {
            LlmReply::ToolCalls(c) => {
                assert_eq!(c[0].id, "call_1");
                assert_eq!(c[0].name, "get_weather");
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
        assert!(
            parse_response(&v)
                .unwrap_err()
                .contains("API key not valid")
        );
        let blocked = json!({"promptFeedback": {"blockReason": "SAFETY"}});
        assert!(parse_response(&blocked).unwrap_err().contains("SAFETY"));
    }

    #[test]
    fn requests_use_contents_model_role_and_function_responses() {
        let mut conversation = crate::llm::tokyo_conversation();
        conversation.insert(0, ChatMessage::System("be brief".into()));
        let body = request_body("gemini-2.5-flash", &conversation, &[weather_tool()]);
        assert_eq!(body["systemInstruction"]["parts"][0]["text"], "be brief");
        assert_eq!(body["contents"][1]["role"], "model");
        assert_eq!(
            body["contents"][1]["parts"][0]["functionCall"]["args"]["location"],
            "Tokyo"
        );
        assert_eq!(
            body["contents"][2]["parts"][0]["functionResponse"]["response"]["result"],
            "Sunny"
        );
        assert_eq!(
            body["tools"][0]["functionDeclarations"][0]["name"],
            "get_weather"
        );
        assert_eq!(
            url("https://g.example/v1beta/", "gemini-2.5-flash"),
            "https://g.example/v1beta/models/gemini-2.5-flash:generateContent"
        );
    }
}
