//! The server's questions: what an `input_required` tools/call result asks (2026-07-28), and the
//! params of an `elicitation/create` the server sends on a stream (2025-11-25). Their readers
//! (rmcp's `Deserialize` of every kind of input request) are fetched on demand: only servers that
//! ask the user something need them.

use rmcp::model::{
    CallToolRequestMethod, ConstString, ElicitRequestParams, InputRequest, InputRequiredResult,
};
use serde_json::Value;

use mcp_flow_on_demand::{OnDemandError, on_demand};

/// A question the server asks before a tool can complete.
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// A form for the user (`elicitation/create`).
    Form(ElicitRequestParams),
    /// The client's roots (`roots/list`).
    Roots,
    /// Something this client did not declare it can do (sampling, roots).
    Unsupported { method: String },
}

/// What an `input_required` result asks.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequired {
    /// By the server's key, in key order.
    pub questions: Vec<(String, Question)>,
    /// Echoed back, byte for byte, with the answers.
    pub state: Option<String>,
}

on_demand!(
    server_questions,
    /// The questions of an `input_required` tools/call result (with rmcp's types for every kind
    /// of input request: forms, sampling, roots).
    pub fn read_input_required(result: Value) -> Result<InputRequired, OnDemandError> {
        let method = CallToolRequestMethod::VALUE;
        let asked: InputRequiredResult = serde_json::from_value(result)
            .map_err(|e| format!("{method}: an input_required result that does not parse: {e}"))?;
        let questions = asked
            .input_requests
            .unwrap_or_default()
            .into_iter()
            .map(|(key, request)| {
                let question = match request {
                    InputRequest::Elicitation(r) => Question::Form(r.params),
                    InputRequest::CreateMessage(_) => Question::Unsupported {
                        method: "sampling/createMessage".into(),
                    },
                    InputRequest::ListRoots(_) => Question::Roots,
                    // rmcp's list is open (non_exhaustive): a kind added later.
                    _ => Question::Unsupported {
                        method: "an input request this client does not know".into(),
                    },
                };
                (key, question)
            })
            .collect();
        Ok(InputRequired {
            questions,
            state: asked.request_state,
        })
    }
);

on_demand!(
    server_questions,
    /// The params of an `elicitation/create` request the server sent on a stream (2025-11-25).
    pub fn read_elicit_params(params: Value) -> Result<ElicitRequestParams, OnDemandError> {
        serde_json::from_value(params).map_err(|e| {
            OnDemandError::Failed(format!("elicitation/create params that do not parse: {e}"))
        })
    }
);
