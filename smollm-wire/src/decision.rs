//! The record of a tool-call turn: what the model was offered, how likely it found each choice,
//! and what it weighed for every argument token. This is what the inspector shows.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One option at the point of choice: a tool, or no tool (`tool: None`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    pub tool: Option<String>,
    /// Normalised over the options (sums to 1).
    pub probability: f32,
    /// The model's own log-probability of writing this option's name there.
    pub log_prob: f32,
}

/// One generated token of an argument value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenStep {
    pub token: String,
    /// Probability among the tokens the constraint allowed.
    pub probability: f32,
    /// The most likely allowed tokens at that step (the chosen one included), best first.
    pub alternatives: Vec<(String, f32)>,
}

/// How one argument's value was written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArgumentTrace {
    pub name: String,
    pub value: Value,
    pub steps: Vec<TokenStep>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The prompt as the model saw it, chat template applied.
    pub prompt: String,
    /// How decoding was constrained, e.g. "JSON shaped by the input schema of get_weather".
    pub constraint: String,
    /// Every option, most likely first.
    pub choices: Vec<Choice>,
    pub arguments: Vec<ArgumentTrace>,
    /// The assistant's text, as generated.
    pub text: String,
    pub prompt_tokens: usize,
    pub generated_tokens: usize,
}

impl Decision {
    /// The probability given to `tool` (`None`: to "no tool").
    pub fn probability_of(&self, tool: Option<&str>) -> Option<f32> {
        self.choices
            .iter()
            .find(|c| c.tool.as_deref() == tool)
            .map(|c| c.probability)
    }
}

/// What a tool-call turn decided.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ToolCallOutcome {
    Call {
        name: String,
        arguments: Value,
    },
    /// The model chose "none": no listed tool fits.
    NoTool,
    /// The model chose this tool, but its arguments, written without a constraint (a schema the
    /// constraint cannot express), hold no JSON object: the decision's text shows what it wrote.
    Unparsed {
        name: String,
    },
}
