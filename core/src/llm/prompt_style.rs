//! The system-prompt style of tool calling (tutorial document `004_…`): the tools are described in the system
//! prompt (`format_tools_for_llm`), the model replies with a JSON object
//! `{"tool_name": ..., "arguments": {...}}`, which the host extracts leniently; the tool result
//! goes back as a user message, as in the tutorial.

use serde_json::{Value, json};

use super::{ChatMessage, ToolCall, ToolSpec};

/// The conversation as the system-prompt style sends it: the tools in a system message, tool
/// calls as the JSON the model wrote, tool results as user messages (as in the tutorial).
pub fn prompt_messages(messages: &[ChatMessage], tools: &[ToolSpec]) -> Vec<ChatMessage> {
    let mut out = vec![ChatMessage::System(system_prompt(tools))];
    for m in messages {
        out.push(match m {
            ChatMessage::Assistant { tool_calls, .. } if !tool_calls.is_empty() => {
                let call = &tool_calls[0];
                ChatMessage::Assistant {
                    text: json!({"tool_name": call.name, "arguments": call.arguments}).to_string(),
                    tool_calls: Vec::new(),
                }
            }
            ChatMessage::ToolResult { name, content, .. } => {
                ChatMessage::User(tool_result_message(name, content))
            }
            other => other.clone(),
        });
    }
    out
}

/// The tools as text for a system prompt, one block per tool with its arguments.
pub fn format_tools_for_llm(tools: &[ToolSpec]) -> String {
    let mut out = String::new();
    for tool in tools {
        out.push_str(&format!(
            "Tool: {}\nDescription: {}\nArguments:\n",
            tool.name, tool.description
        ));
        let required: Vec<&str> = tool
            .input_schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(props) = tool
            .input_schema
            .get("properties")
            .and_then(Value::as_object)
        {
            for (name, schema) in props {
                let kind = schema.get("type").and_then(Value::as_str).unwrap_or("any");
                let desc = schema
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let req = if required.contains(&name.as_str()) {
                    " (required)"
                } else {
                    ""
                };
                out.push_str(&format!("- {name}: {kind}{req}"));
                if !desc.is_empty() {
                    out.push_str(&format!(", {desc}"));
                }
                out.push('\n');
            }
        }
        out.push('\n');
    }
    out
}

/// The system prompt: the tools, and how to ask for one.
pub fn system_prompt(tools: &[ToolSpec]) -> String {
    format!(
        "You are a helpful assistant with access to these tools:\n\n{}\
         Choose the appropriate tool based on the user's question. If no tool is needed, reply \
         directly.\n\nIMPORTANT: When you need to use a tool, you must ONLY respond with the exact \
         JSON object format below, nothing else:\n\
         {{\"tool_name\": \"tool-name\", \"arguments\": {{\"argument-name\": \"value\"}}}}\n\n\
         After receiving a tool's response, answer the user's question in natural language.",
        format_tools_for_llm(tools)
    )
}

/// The user message that carries a tool result back, as in the tutorial.
pub fn tool_result_message(tool: &str, result: &str) -> String {
    format!("Tool '{tool}' returned: '{result}'. Answer the original question based on this.")
}

/// Finds a tool call in a model's text reply: plain JSON, fenced in ```json, with prose around
/// it, or in Hermes-style `<tool_call>` tags. Accepts `tool_name`/`tool`/`name` and
/// `arguments`/`args`/`parameters` (an object, or a string holding one). `None` means the reply
/// is a plain answer.
pub fn extract_tool_call(reply: &str) -> Option<ToolCall> {
    let tagged = reply
        .split_once("<tool_call>")
        .map(|(_, rest)| rest.split("</tool_call>").next().unwrap_or(rest));
    let text = tagged.unwrap_or(reply);
    json_objects(text).into_iter().find_map(|v| as_call(&v))
}

fn as_call(v: &Value) -> Option<ToolCall> {
    let name = ["tool_name", "tool", "name"]
        .iter()
        .find_map(|k| v.get(*k).and_then(Value::as_str))?
        .trim();
    if name.is_empty() {
        return None;
    }
    let args = ["arguments", "args", "parameters", "input"]
        .iter()
        .find_map(|k| v.get(*k))
        .cloned()
        .unwrap_or_else(|| Value::Object(Default::default()));
    let args = match args {
        Value::String(s) => serde_json::from_str(&s).ok().filter(Value::is_object)?,
        Value::Object(_) => args,
        Value::Null => Value::Object(Default::default()),
        _ => return None,
    };
    Some(ToolCall {
        id: "call_1".into(),
        name: name.to_owned(),
        arguments: args,
    })
}

/// Every balanced top-level `{…}` in `text` that parses as JSON, in order.
fn json_objects(text: &str) -> Vec<Value> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(offset) = text[start..].find('{') {
        let open = start + offset;
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escaped = false;
        let mut end = None;
        for (i, &b) in bytes.iter().enumerate().skip(open) {
            if in_string {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        match end {
            Some(close) => {
                if let Ok(v) = serde_json::from_str::<Value>(&text[open..=close]) {
                    out.push(v);
                    start = close + 1;
                } else {
                    start = open + 1;
                }
            }
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(reply: &str) -> Option<(String, Value)> {
        extract_tool_call(reply).map(|c| (c.name, c.arguments))
    }

    fn tokyo() -> Option<(String, Value)> {
        Some(("get_weather".into(), json!({"location": "Tokyo"})))
    }

    #[test]
    fn reply_shapes_that_carry_a_tool_call() {
        let shapes = [
            r#"{"tool_name": "get_weather", "arguments": {"location": "Tokyo"}}"#,
            "```json\n{\"tool_name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}\n```",
            "Sure! I'll check.\n{\"tool_name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}\nOne moment.",
            "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}\n</tool_call>",
            r#"{"tool": "get_weather", "args": {"location": "Tokyo"}}"#,
            r#"{"tool_name": "get_weather", "arguments": "{\"location\": \"Tokyo\"}"}"#,
            "  \n\t{\"tool_name\":\"get_weather\",\"arguments\":{\"location\":\"Tokyo\"}}  ",
            r#"I think {not json} but then {"tool_name": "get_weather", "arguments": {"location": "Tokyo"}}"#,
            r#"{"tool_name": "get_weather", "parameters": {"location": "Tokyo"}}"#,
            "```\n{\"tool_name\": \"get_weather\",\n \"arguments\": {\"location\": \"Tokyo\"}}\n```",
        ];
        for shape in shapes {
            assert_eq!(call(shape), tokyo(), "{shape}");
        }
        assert_eq!(
            call(r#"{"tool_name": "get_weather", "arguments": {"location": "a } b \" {"}}"#),
            Some(("get_weather".into(), json!({"location": "a } b \" {"})))
        );
        assert_eq!(
            call(r#"{"tool_name": "list_all"}"#),
            Some(("list_all".into(), json!({})))
        );
    }

    #[test]
    fn replies_without_a_usable_tool_call() {
        for reply in [
            "The weather in Tokyo is sunny.",
            "",
            r#"{"answer": "sunny"}"#,
            r#"{"tool_name": "", "arguments": {}}"#,
            r#"{"tool_name": "get_weather", "arguments": [1, 2]}"#,
            r#"{"tool_name": "get_weather", "arguments": "not json"}"#,
            r#"{"tool_name": "get_weather", "arguments": {"location": "Tokyo""#,
        ] {
            assert_eq!(call(reply), None, "{reply}");
        }
    }

    #[test]
    fn the_prompt_lists_tools_with_required_arguments() {
        let tools = [ToolSpec {
            name: "get_weather".into(),
            description: "Get the weather".into(),
            input_schema: json!({"type": "object", "properties": {
                "location": {"type": "string", "description": "City name"}}, "required": ["location"]}),
            ..Default::default()
        }];
        let prompt = system_prompt(&tools);
        assert!(prompt.contains("Tool: get_weather"));
        assert!(prompt.contains("- location: string (required), City name"));
        assert!(
            prompt
                .contains(r#"{"tool_name": "tool-name", "arguments": {"argument-name": "value"}}"#)
        );
        assert_eq!(
            tool_result_message("get_weather", "Sunny"),
            "Tool 'get_weather' returned: 'Sunny'. Answer the original question based on this."
        );
    }
}
