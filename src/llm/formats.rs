//! MCP tools in each provider's format (seed `001_…`): OpenAI `parameters`, Anthropic
//! `input_schema`, Gemini `functionDeclarations` (with the schema keywords Gemini rejects removed).

use serde_json::{Map, Value, json};

use super::ToolSpec;

/// Anthropic Messages API: `{"name", "description", "input_schema"}`.
pub fn anthropic(tools: &[ToolSpec]) -> Value {
    Value::Array(
        tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}))
            .collect(),
    )
}

/// Google Gemini: `[{"functionDeclarations": [{"name", "description", "parameters"}]}]`.
pub fn gemini(tools: &[ToolSpec]) -> Value {
    let declarations: Vec<Value> = tools
        .iter()
        .map(|t| {
            json!({"name": t.name, "description": t.description,
                   "parameters": gemini_schema(&t.input_schema)})
        })
        .collect();
    json!([{ "functionDeclarations": declarations }])
}

/// Keywords of JSON Schema that Gemini's OpenAPI-subset schema refuses.
const GEMINI_DROPS: [&str; 7] = [
    "$schema",
    "additionalProperties",
    "$id",
    "$defs",
    "definitions",
    "default",
    "examples",
];

/// A copy of `schema` without the keywords Gemini rejects, recursively.
pub fn gemini_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                if GEMINI_DROPS.contains(&k.as_str()) {
                    continue;
                }
                let v = if k == "properties" {
                    match v {
                        Value::Object(props) => Value::Object(
                            props
                                .iter()
                                .map(|(name, s)| (name.clone(), gemini_schema(s)))
                                .collect(),
                        ),
                        other => other.clone(),
                    }
                } else {
                    gemini_schema(v)
                };
                out.insert(k.clone(), v);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(gemini_schema).collect()),
        other => other.clone(),
    }
}

/// The tools in every provider's format and the system-prompt style, pretty-printed, for the
/// inspector's "same tools, other formats".
pub fn all(tools: &[ToolSpec]) -> Vec<(&'static str, String)> {
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    vec![
        ("OpenAI", pretty(&super::openai::tools(tools))),
        ("Anthropic", pretty(&anthropic(tools))),
        ("Gemini", pretty(&gemini(tools))),
        ("system prompt", super::prompt_style::system_prompt(tools)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weather() -> ToolSpec {
        ToolSpec {
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
        }
    }

    #[test]
    fn anthropic_uses_input_schema() {
        let t = anthropic(&[weather()]);
        assert_eq!(t[0]["name"], "get_weather");
        assert_eq!(t[0]["input_schema"]["required"], json!(["location"]));
        assert!(t[0].get("parameters").is_none());
    }

    #[test]
    fn gemini_wraps_declarations_and_strips_rejected_keywords() {
        let t = gemini(&[weather()]);
        let params = &t[0]["functionDeclarations"][0]["parameters"];
        assert!(params.get("$schema").is_none());
        assert!(params.get("additionalProperties").is_none());
        assert!(params["properties"]["location"].get("default").is_none());
        // A property that happens to be named like a keyword stays.
        assert_eq!(params["properties"]["default"]["type"], "string");
        assert_eq!(params["required"], json!(["location"]));
    }
}
