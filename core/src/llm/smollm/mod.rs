//! SmolLM2-135M-Instruct running in this page: a real language model in a Web Worker
//! (`smollm-worker`, loaded only when the user picks it), fetched once from the server's
//! `/models/` and kept in the browser's Cache API. Its tool-call turn is decoding constrained by
//! the tools' input schemas; the decision (the probability of every tool and of "no tool", the
//! alternatives of every argument token) comes back with the call and is recorded in the
//! exchange's response.
//!
//! - [`status`]: where loading is, for the settings.
//! - [`worker`]: the page's side of the worker's messages.

pub mod decision;
pub mod status;
pub mod worker;

use std::rc::Rc;

use mcp_flow_smollm_wire::{
    PageEvent as Event, Request, Sampling, Tool, ToolCallOutcome, system_prompt,
};
use serde_json::{Value, json};

use super::{ChatMessage, Llm, LlmExchange, LlmReply, Style, ToolCall, ToolSpec};
use mcp_flow_client::clock::SharedClock;

pub const LABEL: &str = "SmolLM2-135M in this page";
pub const MODEL: &str = "SmolLM2-135M-Instruct (Q8_0)";

/// Where the page fetches the model file: its own origin's `/models/` (`weather-server --models`;
/// `trunk serve` proxies it there).
pub fn model_url(origin: &str) -> String {
    format!(
        "{}/models/{}",
        origin.trim_end_matches('/'),
        mcp_flow_smollm_wire::MODEL_FILE
    )
}

/// Receives the model's text as it is written; `None` when a new turn begins.
pub type OnText = Rc<dyn Fn(Option<&str>)>;

/// What runs the model's turns: the worker in the page, or a stand-in in tests.
#[allow(async_fn_in_trait)]
pub trait Engine {
    /// Where the model file comes from, for the exchange's `url`.
    fn source(&self) -> String;
    /// Loads the model if it is not loaded yet.
    async fn ready(&self) -> Result<(), String>;
    /// A fresh request id.
    fn next_id(&self) -> u32;
    /// Runs a turn: `on_text` receives the text as it is written; the result is the turn's last
    /// event (`ToolTurn`, `Answer` or `Failed`).
    async fn run(&self, request: Request, on_text: Rc<dyn Fn(&str)>) -> Result<Event, String>;
}

/// The model as the host's LLM participant.
pub struct SmolLm<E: Engine> {
    pub engine: E,
    pub clock: SharedClock,
    pub sampling: Sampling,
    /// How the tools are presented. SmolLM2's chat template has no tool slot, so both styles put
    /// them in the system message: function signatures built from the input schemas
    /// ([`Style::FunctionCalling`]), or the tutorial's tool prompt ([`Style::SystemPrompt`]).
    pub style: Style,
    /// Receives the text of the turn being written (the page streams it on the row); `None`
    /// when a new turn begins.
    pub on_text: OnText,
}

/// The tools as the model is given them.
fn tools_of(tools: &[ToolSpec]) -> Vec<Tool> {
    tools
        .iter()
        .map(|t| Tool {
            name: t.name.clone(),
            description: t.description.clone(),
            input_schema: t.input_schema.clone(),
        })
        .collect()
}

/// The system message that presents `tools` to the model in `style`.
pub fn system_for(style: Style, tools: &[ToolSpec]) -> String {
    match style {
        Style::FunctionCalling => system_prompt(&tools_of(tools)),
        // The tutorial's prompt, and the one line the constrained decoding needs: how to say that no
        // tool fits (it cannot "reply directly" inside the call's JSON).
        Style::SystemPrompt => format!(
            "{}\nIf no tool fits the question, reply {{\"tool_name\": \"{}\", \"arguments\": {{}}}}.",
            super::prompt_style::system_prompt(tools),
            mcp_flow_smollm_wire::prompt::no_tool_name(&tools_of(tools))
        ),
    }
}

/// The worker request for this point of the conversation: after a tool result the answer turn,
/// otherwise the tool-call turn with the tools presented in `style`.
pub fn request_for(
    id: u32,
    messages: &[ChatMessage],
    tools: &[ToolSpec],
    style: Style,
    sampling: Sampling,
) -> Request {
    let question = super::last_question(messages).to_owned();
    if let Some(ChatMessage::ToolResult {
        call_id, content, ..
    }) = messages.last()
    {
        let call = super::answered_call(messages, call_id);
        if let Some(call) = call {
            return Request::Answer {
                id,
                question,
                tool: call.name,
                arguments: call.arguments,
                result: content.clone(),
                sampling,
            };
        }
    }
    Request::ToolCall {
        id,
        question,
        tools: tools_of(tools)
            .into_iter()
            .filter_map(|t| serde_json::to_value(t).ok())
            .collect(),
        system: Some(system_for(style, tools)),
        sampling,
    }
}

/// What the host gets from the turn's last event: a tool call, text, a reply still to be
/// written (the model chose no tool), or the failure.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Reply(LlmReply),
    /// No tool fits: the model answers the question in its own words next.
    NoTool,
    Failed(String),
}

pub fn outcome_of(event: &Event) -> Outcome {
    match event {
        Event::ToolTurn {
            id,
            outcome,
            decision,
            ..
        } => match outcome {
            ToolCallOutcome::Call { name, arguments } => {
                Outcome::Reply(LlmReply::ToolCalls(vec![ToolCall {
                    id: format!("smollm-{id}"),
                    name: name.clone(),
                    arguments: arguments.clone(),
                }]))
            }
            ToolCallOutcome::NoTool => Outcome::NoTool,
            ToolCallOutcome::Unparsed { name } => Outcome::Failed(format!(
                "SmolLM2 chose {name} but wrote no JSON object for its arguments: {}",
                decision["text"].as_str().unwrap_or_default()
            )),
        },
        Event::Answer { text, .. } => Outcome::Reply(LlmReply::Text(text.clone())),
        Event::Failed { message, .. } => Outcome::Failed(message.clone()),
        other => Outcome::Failed(format!("the worker answered out of turn: {other:?}")),
    }
}

impl<E: Engine> SmolLm<E> {
    async fn turn(&self, request: Request) -> (Result<Event, String>, Value) {
        let sent = serde_json::to_value(&request).unwrap_or(Value::Null);
        (self.on_text)(None);
        let on_text = self.on_text.clone();
        let stream: Rc<dyn Fn(&str)> = Rc::new(move |text| on_text(Some(text)));
        (self.engine.run(request, stream).await, sent)
    }
}

impl<E: Engine> Llm for SmolLm<E> {
    fn label(&self) -> String {
        LABEL.into()
    }

    /// The model is given the tools in its system message (its chat template has no tool
    /// slot): row d1-8 shows that message, as the model reads it.
    fn format_tools(&self, tools: &[ToolSpec]) -> Value {
        json!({ "system": system_for(self.style, tools) })
    }

    fn style(&self) -> Style {
        self.style
    }

    async fn complete(
        &self,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> (Result<LlmReply, String>, LlmExchange) {
        let started_ms = self.clock.now_ms();
        let mut exchange = LlmExchange {
            provider: "smollm2".into(),
            url: self.engine.source(),
            request: Value::Null,
            response: None,
            status: None,
            started_ms,
            finished_ms: started_ms,
            error: None,
        };
        let result = async {
            self.engine.ready().await?;
            let request = request_for(
                self.engine.next_id(),
                messages,
                tools,
                self.style,
                self.sampling,
            );
            let (event, sent) = self.turn(request).await;
            exchange.request = sent;
            let event = event?;
            exchange.response = serde_json::to_value(&event).ok();
            match outcome_of(&event) {
                Outcome::Reply(reply) => Ok(reply),
                Outcome::Failed(message) => Err(message),
                Outcome::NoTool => {
                    let reply = Request::Reply {
                        id: self.engine.next_id(),
                        question: super::last_question(messages).to_owned(),
                        sampling: self.sampling,
                    };
                    let (answer, sent) = self.turn(reply).await;
                    exchange.request = json!({ "turns": [exchange.request.take(), sent] });
                    let answer = answer?;
                    let first = exchange.response.take().unwrap_or(Value::Null);
                    exchange.response = Some(json!({
                        "turns": [first, serde_json::to_value(&answer).unwrap_or(Value::Null)]
                    }));
                    match outcome_of(&answer) {
                        Outcome::Reply(reply) => Ok(reply),
                        Outcome::Failed(message) => Err(message),
                        Outcome::NoTool => Err("SmolLM2 gave no answer".into()),
                    }
                }
            }
        }
        .await;
        exchange.finished_ms = self.clock.now_ms();
        exchange.error = result.as_ref().err().cloned();
        (result, exchange)
    }
}

#[cfg(test)]
mod tests;
