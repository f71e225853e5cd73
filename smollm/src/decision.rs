//! The record of a tool-call turn (what the model was offered, how likely it found each choice,
//! and what it weighed for every argument token), defined beside the worker's messages so the
//! page reads it without the engine.

pub use mcp_flow_smollm_wire::decision::{ArgumentTrace, Choice, Decision, TokenStep};
