//! The user in the model's place: their reply reaches the run's desk, and arguments typed as
//! JSON are first checked against the tool's whole `inputSchema` in the schema worker, as a task
//! of the run (it ends with the run).

use leptos::prelude::*;
use serde_json::Value;

use super::Controller;
use crate::llm::LlmReply;
use crate::llm::you::ArgumentsCheck;

impl Controller {
    /// The user's reply at the model's turn (a tool call or the answer).
    pub fn you_reply(&self, reply: LlmReply) {
        if let Some(live) = self.live.get_value() {
            live.desk().reply(reply);
        }
    }

    /// Checks `arguments` against `schema`; `done` gets the outcome unless the run ends first.
    pub fn check_arguments(
        &self,
        schema: Value,
        arguments: Value,
        done: impl FnOnce(ArgumentsCheck) + 'static,
    ) {
        let Some(live) = self.live.get_value() else {
            return;
        };
        let checker = self.workers.schema().checker();
        let task = live.bind(async move { checker(schema, arguments).await });
        leptos::task::spawn_local(async move {
            if let Some(verdict) = task.await {
                done(ArgumentsCheck::from_verdict(verdict));
            }
        });
    }
}
