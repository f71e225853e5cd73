//! SmolLM2-135M-Instruct in Rust, natively and (later) in a browser worker: the GGUF file's
//! weights run by candle's quantized llama, a tokenizer built from the file's own vocabulary, the
//! ChatML template, and the two turns of a tool-using conversation:
//!
//! - [`Model::tool_call`]: the model picks one of the MCP tools, or none, and writes its
//!   arguments, with decoding constrained by the tool's `inputSchema` ([`constraint`]); the
//!   [`Decision`] keeps the probability of every choice and the alternatives of every argument
//!   token.
//! - [`Model::answer`]: free text after the tool result, to the end of the turn.

pub mod answer;
pub mod chat;
pub mod constraint;
pub mod decision;
mod engine;
pub mod model;
pub mod sampling;
pub mod tokenizer;
pub mod tool_call;

pub use answer::{answer_messages, tool_result_message};
pub use chat::{Message, Role};
pub use decision::{ArgumentTrace, Choice, Decision, TokenStep};
pub use model::{Generation, Model, ModelInfo};
pub use sampling::Sampling;
pub use tool_call::{Tool, ToolCallOutcome, ToolTurn, system_prompt};

/// Everything that can go wrong, as text a person can act on.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The file is not a GGUF model this crate can run.
    Format(String),
    /// The engine failed while running the model.
    Engine(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Format(m) => write!(f, "not a usable model file: {m}"),
            Self::Engine(m) => write!(f, "the model failed: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<candle_core::Error> for Error {
    fn from(e: candle_core::Error) -> Self {
        Self::Engine(e.to_string())
    }
}
