//! MCP tools in every format a model may receive them (the tutorial documents `001_…` and `004_…`), side by side
//! for the row that shows them. Each format lives with its provider (`openai::tools`,
//! `anthropic::tools`, `gemini::tools`) and the system-prompt style in
//! `prompt_style::system_prompt`; this module lists them.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ToolSpec;

/// A form in which tools reach a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ToolFormat {
    /// OpenAI chat completions: `{"type": "function", "function": {…, "parameters"}}`.
    OpenAi,
    /// Anthropic Messages: `{"name", "description", "input_schema"}`.
    Anthropic,
    /// Google Gemini: `functionDeclarations` with a trimmed schema.
    Gemini,
    /// No tools in the request: a system prompt describes them (tutorial document `004_…`).
    SystemPrompt,
}

impl ToolFormat {
    /// Every format, in the order they are shown.
    pub const ALL: [ToolFormat; 4] = [
        Self::OpenAi,
        Self::Anthropic,
        Self::Gemini,
        Self::SystemPrompt,
    ];

    /// The display name: "OpenAI", "Anthropic", "Gemini" or "system prompt".
    pub fn name(self) -> &'static str {
        match self {
            Self::OpenAi => "OpenAI",
            Self::Anthropic => "Anthropic",
            Self::Gemini => "Gemini",
            Self::SystemPrompt => "system prompt",
        }
    }

    /// The tools in this format: the JSON a provider receives, or the system prompt as a string.
    pub fn value(self, tools: &[ToolSpec]) -> Value {
        match self {
            Self::OpenAi => super::openai::tools(tools),
            Self::Anthropic => super::anthropic::tools(tools),
            Self::Gemini => super::gemini::tools(tools),
            Self::SystemPrompt => Value::String(super::prompt_style::system_prompt(tools)),
        }
    }

    /// The tools in this format as text to show: pretty-printed JSON, or the prompt itself.
    pub fn render(self, tools: &[ToolSpec]) -> String {
        match self.value(tools) {
            Value::String(prompt) => prompt,
            json => serde_json::to_string_pretty(&json).unwrap_or_default(),
        }
    }
}

impl fmt::Display for ToolFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The tools in every format, each rendered as text ([`ToolFormat::render`]).
pub fn all(tools: &[ToolSpec]) -> Vec<(ToolFormat, String)> {
    ToolFormat::ALL
        .iter()
        .map(|format| (*format, format.render(tools)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::weather_tool;

    #[test]
    fn every_format_is_listed_once_with_its_name() {
        let tools = [weather_tool()];
        let listed = all(&tools);
        let names: Vec<String> = listed.iter().map(|(f, _)| f.to_string()).collect();
        assert_eq!(names, ["OpenAI", "Anthropic", "Gemini", "system prompt"]);
        for (format, text) in &listed {
            assert!(text.contains("get_weather"), "{format}");
            assert_eq!(*text, format.render(&tools));
        }
        let json = |i: usize| serde_json::from_str::<Value>(&listed[i].1).unwrap();
        assert_eq!(json(0), crate::llm::openai::tools(&tools));
        assert_eq!(json(1), super::super::anthropic::tools(&tools));
        assert_eq!(json(2), super::super::gemini::tools(&tools));
        assert_eq!(listed[3].1, crate::llm::prompt_style::system_prompt(&tools));
    }
}
