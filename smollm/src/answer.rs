//! The answer turn: the tool result goes back to the model as the tutorial sends it (a user message
//! with the result text, after the assistant's call), and the model answers in free text, to the
//! end of its turn or [`MAX_ANSWER_TOKENS`].

use serde_json::{Value, json};

use crate::Error;
use crate::chat::Message;
use crate::model::{Generation, Model};
use crate::sampling::Sampling;

/// Bound on the answer's length, in tokens.
pub const MAX_ANSWER_TOKENS: usize = 96;

/// The user message that carries a tool result back, as in the tutorial.
pub fn tool_result_message(tool: &str, result: &str) -> String {
    format!("Tool '{tool}' returned: '{result}'. Answer the original question based on this.")
}

/// The conversation of the answer turn: the question, the assistant's call (the JSON it wrote)
/// and the result.
pub fn answer_messages(
    question: &str,
    tool: &str,
    arguments: &Value,
    result: &str,
) -> Vec<Message> {
    vec![
        Message::user(question),
        Message::assistant(json!({"tool_name": tool, "arguments": arguments}).to_string()),
        Message::user(tool_result_message(tool, result)),
    ]
}

impl Model {
    /// The answer turn for a conversation that ends with the tool result.
    pub fn answer(
        &self,
        messages: &[Message],
        sampling: Sampling,
        on_token: &mut dyn FnMut(&str),
    ) -> Result<Generation, Error> {
        self.generate(messages, MAX_ANSWER_TOKENS, sampling, on_token)
    }
}
