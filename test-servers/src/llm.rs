//! A fake OpenAI-compatible model for tests. It checks each request against the documented
//! chat-completions protocol (400 with an OpenAI-style error when it is wrong) and answers
//! deterministically:
//!
//! - a question and `tools`: a `tool_calls` reply for the first tool, its first string argument
//!   filled with the place after "in" (`finish_reason: "tool_calls"`);
//! - a question with the tools described in the system prompt: the JSON object
//!   `{"tool_name", "arguments"}` in a fenced block, as a model following the prompt would;
//! - a tool result (a `tool` message, or the prompt style's "Tool '…' returned: '…'" user
//!   message): "The weather in <place> is <result>.";
//! - model `fixture-401` or `fixture-429`: that status with the provider's error object.

use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use tower_http::cors::CorsLayer;

pub fn router() -> Router {
    Router::new()
        .route("/v1/chat/completions", post(complete))
        .layer(CorsLayer::permissive())
}

fn error(status: StatusCode, message: &str, kind: &str) -> Response {
    (
        status,
        axum::Json(json!({"error": {"message": message, "type": kind, "code": null}})),
    )
        .into_response()
}

async fn complete(body: String) -> Response {
    let request: Value = match serde_json::from_str(&body) {
        Ok(v) => v,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                &format!("the body is not JSON: {e}"),
                "invalid_request_error",
            );
        }
    };
    match request.get("model").and_then(Value::as_str) {
        Some("fixture-401") => {
            return error(
                StatusCode::UNAUTHORIZED,
                "Incorrect API key provided: sk-fi***. You can find your API key at https://platform.openai.com/account/api-keys.",
                "invalid_request_error",
            );
        }
        Some("fixture-429") => {
            return error(
                StatusCode::TOO_MANY_REQUESTS,
                "Rate limit reached for requests",
                "requests",
            );
        }
        Some(_) => {}
        None => {
            return error(
                StatusCode::BAD_REQUEST,
                "you must provide a model parameter",
                "invalid_request_error",
            );
        }
    }
    match reply(&request) {
        Ok(message) => {
            let finish = if message.get("tool_calls").is_some() {
                "tool_calls"
            } else {
                "stop"
            };
            axum::Json(json!({
                "id": "chatcmpl-fixture", "object": "chat.completion", "created": 0,
                "model": request["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
            }))
            .into_response()
        }
        Err(message) => error(StatusCode::BAD_REQUEST, &message, "invalid_request_error"),
    }
}

/// Checks the conversation and writes the assistant's message.
fn reply(request: &Value) -> Result<Value, String> {
    let messages = request
        .get("messages")
        .and_then(Value::as_array)
        .filter(|m| !m.is_empty())
        .ok_or("'messages' must be a non-empty array")?;
    let mut call_ids = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("");
        match role {
            "system" | "user" => {
                m.get("content")
                    .and_then(Value::as_str)
                    .ok_or(format!("messages[{i}].content must be a string"))?;
            }
            "assistant" => {
                for call in m
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let args = call
                        .pointer("/function/arguments")
                        .and_then(Value::as_str)
                        .ok_or(format!(
                            "messages[{i}].tool_calls[].function.arguments must be a JSON string"
                        ))?;
                    serde_json::from_str::<Value>(args)
                        .map_err(|e| format!("messages[{i}] tool call arguments: {e}"))?;
                    call_ids.push(call.get("id").cloned().unwrap_or(Value::Null));
                }
            }
            "tool" => {
                let id = m.get("tool_call_id").cloned().unwrap_or(Value::Null);
                if !call_ids.contains(&id) {
                    return Err(format!(
                        "messages[{i}] with role 'tool' must be a response to a preceding message with 'tool_calls' (tool_call_id {id})"
                    ));
                }
            }
            other => return Err(format!("messages[{i}].role '{other}' is not valid")),
        }
    }
    let last = messages.last().ok_or("no messages")?;
    let content = last.get("content").and_then(Value::as_str).unwrap_or("");
    // A tool result: answer from it.
    let result = match last["role"].as_str() {
        Some("tool") => Some(content.to_owned()),
        Some("user") => prompt_style_result(content),
        _ => None,
    };
    if let Some(result) = result {
        let place = messages
            .iter()
            .rev()
            .find_map(called_place)
            .unwrap_or_else(|| "that place".into());
        let condition = result.trim().trim_end_matches('.').to_lowercase();
        return Ok(json!({"role": "assistant",
            "content": format!("The weather in {place} is {condition}.")}));
    }
    let question = content;
    if let Some(tools) = request.get("tools").and_then(Value::as_array) {
        let tool = tools
            .first()
            .ok_or("'tools' must not be empty when present")?;
        let name = tool
            .pointer("/function/name")
            .and_then(Value::as_str)
            .ok_or("tools[0].function.name is missing")?;
        let args = arguments(tool.pointer("/function/parameters"), question);
        return Ok(
            json!({"role": "assistant", "content": null, "tool_calls": [{
            "id": "call_fixture_1", "type": "function",
            "function": {"name": name, "arguments": args.to_string()}}]}),
        );
    }
    // Tools in the system prompt ("Tool: NAME" lines, as the tutorial format them).
    let system = messages
        .iter()
        .find(|m| m["role"] == "system")
        .and_then(|m| m["content"].as_str())
        .unwrap_or("");
    let tool = system
        .lines()
        .find_map(|l| l.strip_prefix("Tool: "))
        .map(str::trim);
    Ok(match tool {
        Some(name) => {
            let call = json!({"tool_name": name, "arguments": {"location": place_in(question)}});
            json!({"role": "assistant", "content": format!("```json\n{call}\n```")})
        }
        None => json!({"role": "assistant", "content": "I have no tools for that."}),
    })
}

/// The result inside the system-prompt style's "Tool 'NAME' returned: 'RESULT'. …".
fn prompt_style_result(content: &str) -> Option<String> {
    let rest = content.strip_prefix("Tool '")?;
    let (_, rest) = rest.split_once("' returned: '")?;
    let end = rest.rfind("'.")?;
    Some(rest[..end].to_owned())
}

/// The place a tool was called for, from a native tool call or a prompt-style JSON reply.
fn called_place(message: &Value) -> Option<String> {
    if message["role"] != "assistant" {
        return None;
    }
    let args: Value = match message.pointer("/tool_calls/0/function/arguments") {
        Some(Value::String(s)) => serde_json::from_str(s).ok()?,
        _ => {
            let text = message["content"].as_str()?;
            let start = text.find('{')?;
            let end = text.rfind('}')?;
            serde_json::from_str::<Value>(text.get(start..=end)?)
                .ok()?
                .get("arguments")?
                .clone()
        }
    };
    args.get("location")?.as_str().map(str::to_owned)
}

/// The words after the last " in ", up to punctuation.
fn place_in(question: &str) -> String {
    let rest = question
        .rfind(" in ")
        .map_or(question, |i| &question[i + 4..]);
    rest.trim_end_matches(['?', '.', '!', ' ']).to_owned()
}

/// The tool's first string parameter, filled with the place.
fn arguments(parameters: Option<&Value>, question: &str) -> Value {
    let name = parameters
        .and_then(|p| p.get("properties"))
        .and_then(Value::as_object)
        .and_then(|props| props.iter().find(|(_, s)| s["type"] == "string"))
        .map(|(k, _)| k.clone())
        .unwrap_or_else(|| "location".into());
    json!({ name: place_in(question) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Value {
        json!([{"type": "function", "function": {"name": "get_weather", "description": "d",
            "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}}])
    }

    #[test]
    fn a_native_conversation_calls_the_tool_then_answers_from_the_result() {
        let first = reply(&json!({"model": "m", "tools": tools(), "messages": [
            {"role": "user", "content": "What's the weather in Tokyo?"}]}))
        .unwrap();
        let call = &first["tool_calls"][0];
        assert_eq!(call["function"]["arguments"], r#"{"location":"Tokyo"}"#);
        let second = reply(&json!({"model": "m", "tools": tools(), "messages": [
            {"role": "user", "content": "What's the weather in Tokyo?"},
            {"role": "assistant", "content": "", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_fixture_1", "content": "Sunny"}]}))
        .unwrap();
        assert_eq!(second["content"], "The weather in Tokyo is sunny.");
    }

    #[test]
    fn the_prompt_style_gets_json_in_text_and_answers_the_user_message_result() {
        let system =
            json!({"role": "system", "content": "Tools:\n\nTool: get_weather\nDescription: d\n"});
        let first = reply(&json!({"model": "m", "messages": [system,
            {"role": "user", "content": "What's the weather in Tokyo?"}]}))
        .unwrap();
        assert!(
            first["content"]
                .as_str()
                .unwrap()
                .contains(r#""tool_name":"get_weather""#)
        );
        let second = reply(&json!({"model": "m", "messages": [system,
            {"role": "user", "content": "What's the weather in Tokyo?"},
            {"role": "assistant", "content": r#"{"tool_name":"get_weather","arguments":{"location":"Tokyo"}}"#},
            {"role": "user", "content": "Tool 'get_weather' returned: 'Sunny'. Answer the original question based on this."}]}))
        .unwrap();
        assert_eq!(second["content"], "The weather in Tokyo is sunny.");
    }

    #[test]
    fn protocol_mistakes_are_refused() {
        assert!(reply(&json!({"model": "m", "messages": []})).is_err());
        let orphan = reply(&json!({"model": "m", "messages": [
            {"role": "user", "content": "q"},
            {"role": "tool", "tool_call_id": "nope", "content": "Sunny"}]}));
        assert!(orphan.unwrap_err().contains("must be a response"));
        let bad_args = reply(&json!({"model": "m", "messages": [
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c", "type": "function",
                "function": {"name": "f", "arguments": {"location": "Tokyo"}}}]}]}));
        assert!(bad_args.unwrap_err().contains("JSON string"));
    }
}
