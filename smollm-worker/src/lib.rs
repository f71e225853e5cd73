//! The worker's work in plain Rust: one [`Session`] holds the loaded model and turns each
//! [`Request`] into [`Event`]s (the tokens as they are written, then the turn's result). The
//! browser glue (`main.rs`) only moves bytes and messages.

use mcp_flow_smollm::{Model, Tool, answer_messages};
use mcp_flow_smollm_wire::{Event, Request, Sampling};

/// The model, once loaded.
#[derive(Default)]
pub struct Session {
    model: Option<Model>,
}

fn sampling(s: Sampling) -> mcp_flow_smollm::Sampling {
    if s.temperature > 0.0 {
        mcp_flow_smollm::Sampling::with_temperature(s.temperature, s.seed)
    } else {
        mcp_flow_smollm::Sampling::GREEDY
    }
}

impl Session {
    pub fn is_loaded(&self) -> bool {
        self.model.is_some()
    }

    /// Loads the model from the file's bytes; the `Ready` event's fields other than the
    /// model's own are the caller's to fill.
    pub fn load(&mut self, bytes: &[u8]) -> Result<(String, String), String> {
        let model = Model::from_bytes(bytes).map_err(|e| e.to_string())?;
        let info = (model.info().name.clone(), model.info().quantization.clone());
        self.model = Some(model);
        Ok(info)
    }

    /// Runs a turn: `emit` receives each piece of text as it is written, then the result (or
    /// `Failed`). `now_ms` is the clock the durations are measured on. `Load` is the glue's, so
    /// it fails here.
    pub fn run(&self, request: Request, now_ms: &dyn Fn() -> f64, emit: &mut dyn FnMut(Event)) {
        let id = match &request {
            Request::Load { .. } => None,
            Request::ToolCall { id, .. }
            | Request::Answer { id, .. }
            | Request::Reply { id, .. } => Some(*id),
        };
        let started = now_ms();
        let first_text = std::cell::Cell::new(None);
        let mut timed = |event: Event| {
            if matches!(event, Event::Token { .. }) && first_text.get().is_none() {
                first_text.set(Some(now_ms()));
            }
            emit(event)
        };
        let result = match (&self.model, request) {
            (_, Request::Load { .. }) => Err("loading is done by the worker's glue".to_owned()),
            (None, _) => Err("the model is not loaded yet".to_owned()),
            (Some(model), request) => Self::turn(model, request, now_ms, &mut timed),
        };
        let read = first_text.get().map(|at| at - started);
        match result {
            Ok(mut event) => {
                if let Event::ToolTurn { read_ms, .. } | Event::Answer { read_ms, .. } = &mut event
                {
                    *read_ms = read;
                }
                emit(event)
            }
            Err(message) => emit(Event::Failed { id, message }),
        }
    }

    fn turn(
        model: &Model,
        request: Request,
        now_ms: &dyn Fn() -> f64,
        emit: &mut dyn FnMut(Event),
    ) -> Result<Event, String> {
        let started = now_ms();
        match request {
            Request::Load { .. } => Err("loading is done by the worker's glue".to_owned()),
            Request::ToolCall {
                id,
                question,
                tools,
                system,
                sampling: s,
            } => {
                let tools = tools
                    .into_iter()
                    .map(serde_json::from_value::<Tool>)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| format!("a tool could not be read: {e}"))?;
                let messages: Vec<_> = system
                    .map(mcp_flow_smollm::Message::system)
                    .into_iter()
                    .chain([mcp_flow_smollm::Message::user(question)])
                    .collect();
                let mut on_text = |text: &str| {
                    emit(Event::Token {
                        id,
                        text: text.to_owned(),
                    })
                };
                let turn = model
                    .tool_call(&messages, &tools, sampling(s), &mut on_text)
                    .map_err(|e| e.to_string())?;
                Ok(Event::ToolTurn {
                    id,
                    outcome: turn.outcome,
                    decision: turn.decision,
                    ms: now_ms() - started,
                    read_ms: None,
                })
            }
            Request::Answer {
                id,
                question,
                tool,
                arguments,
                result,
                sampling: s,
            } => {
                let messages = answer_messages(&question, &tool, &arguments, &result);
                Self::free_text(model, id, &messages, s, started, now_ms, emit)
            }
            Request::Reply {
                id,
                question,
                sampling: s,
            } => {
                let messages = [mcp_flow_smollm::Message::user(question)];
                Self::free_text(model, id, &messages, s, started, now_ms, emit)
            }
        }
    }

    /// An answer in free text, to the end of the model's turn or its length bound.
    fn free_text(
        model: &Model,
        id: u32,
        messages: &[mcp_flow_smollm::Message],
        s: Sampling,
        started: f64,
        now_ms: &dyn Fn() -> f64,
        emit: &mut dyn FnMut(Event),
    ) -> Result<Event, String> {
        let mut on_text = |text: &str| {
            emit(Event::Token {
                id,
                text: text.to_owned(),
            })
        };
        let generation = model
            .answer(messages, sampling(s), &mut on_text)
            .map_err(|e| e.to_string())?;
        Ok(Event::Answer {
            id,
            text: generation.text,
            prompt_tokens: generation.prompt_tokens,
            generated_tokens: generation.generated_tokens,
            finished: generation.finished,
            ms: now_ms() - started,
            read_ms: None,
        })
    }
}
