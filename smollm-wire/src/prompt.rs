//! The tool-call turn's system prompt: one line per tool and the reply format. Here, apart from
//! the engine, so the page shows exactly what the model is given (diagram 1, row 8).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An MCP tool as the model is offered it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(rename = "inputSchema", alias = "input_schema")]
    pub input_schema: Value,
}

/// The name that stands for "no tool" (another one if a tool is called "none").
pub fn no_tool_name(tools: &[Tool]) -> &'static str {
    ["none", "no_tool", "no_tool_fits"]
        .into_iter()
        .find(|n| tools.iter().all(|t| t.name != *n))
        .unwrap_or("no_tool_fits")
}

/// The system prompt of the tool-call turn: one line per tool (its name, its arguments with their
/// types, its description), and the reply format. Kept short: every prompt token costs time in
/// the page, and the 135M model chose no better with the full JSON schemas in the prompt.
pub fn system_prompt(tools: &[Tool]) -> String {
    let mut out = String::from("You can call these tools:\n");
    for tool in tools {
        out.push_str(&format!(
            "- {}({}): {}\n",
            tool.name,
            signature(&tool.input_schema),
            tool.description
        ));
    }
    let none = no_tool_name(tools);
    out.push_str(&format!(
        "\nTo call a tool, reply with JSON only: {{\"tool_name\": \"<name>\", \"arguments\": \
         {{<argument>: <value>}}}}. Take argument values from the user's question. If no tool \
         fits the question, reply {{\"tool_name\": \"{none}\", \"arguments\": {{}}}}."
    ));
    out
}

/// `location: string, units?: "celsius" | "fahrenheit"` for an object schema.
fn signature(schema: &Value) -> String {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return String::new();
    };
    props
        .iter()
        .map(|(name, prop)| {
            let kind = match prop.get("enum").and_then(Value::as_array) {
                Some(values) => values
                    .iter()
                    .map(Value::to_string)
                    .collect::<Vec<_>>()
                    .join(" | "),
                None => prop
                    .get("type")
                    .map(|t| {
                        t.as_str()
                            .map(str::to_owned)
                            .unwrap_or_else(|| t.to_string())
                    })
                    .unwrap_or_else(|| "any".into()),
            };
            let optional = if required.contains(&name.as_str()) {
                ""
            } else {
                "?"
            };
            format!("{name}{optional}: {kind}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_no_tool_name_never_shadows_a_tool() {
        let tool = |name: &str| Tool {
            name: name.into(),
            description: String::new(),
            input_schema: json!({"type": "object"}),
        };
        assert_eq!(no_tool_name(&[tool("get_weather")]), "none");
        assert_eq!(no_tool_name(&[tool("none")]), "no_tool");
    }

    #[test]
    fn the_system_prompt_lists_every_tool_and_the_reply_format() {
        let tools: Vec<Tool> =
            serde_json::from_str(include_str!("../../tests/fixtures/calc-tools.json"))
                .expect("fixture");
        let p = system_prompt(&tools);
        assert!(p.contains("- multiply(a: number, b: number): Multiply two numbers: a times b\n"));
        for t in &tools {
            assert!(p.contains(&format!("- {}(", t.name)), "{p}");
        }
        assert!(p.contains(r#"{"tool_name": "none", "arguments": {}}"#));
        let weather: Vec<Tool> =
            serde_json::from_str(include_str!("../../tests/fixtures/weather-tools.json"))
                .expect("fixture");
        assert!(system_prompt(&weather).contains(
            "- get_weather(location: string, units?: \"celsius\" | \"fahrenheit\"): Get the current weather for a city\n"
        ));
    }
}
