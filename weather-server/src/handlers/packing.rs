//! `packing_advice`, served at `/packing`: a tool whose answer needs the client. Its model writes
//! the advice from the city's weather (sampling) and its roots say where a packing list could be
//! kept (roots), in both eras:
//!
//! - 2026-07-28: the call returns `input_required` with a `sampling/createMessage` request under
//!   [`ADVICE_KEY`] (and `roots/list` under [`ROOTS_KEY`] when the client declares roots) and a
//!   sealed `requestState`; the retry carries the answers;
//! - 2025-11-25: the server asks on the session, on the call's stream, and waits.
//!
//! Served on its own endpoint so `/mcp` keeps the one tool the seeds draw. Sampling and roots are
//! deprecated by SEP-2577 but still specified in both eras; rmcp marks their types so.
#![allow(deprecated)]

use std::sync::Arc;

use rmcp::{
    ErrorData as McpError, RoleServer,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
        CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult, InputRequest,
        InputRequests, InputRequiredResult, InputResponses, ListRootsRequest, ListRootsResult,
        SamplingMessage, Tool, ToolAnnotations,
    },
    schemars::JsonSchema,
    service::RequestContext,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{
    handlers::cities::{self, City},
    handlers::weather::{CallOutcome, Extra, WeatherServer, client_capabilities, is_modern},
    sealed::{REFUSED, Sealer},
};

/// The tool's name on the wire.
pub const PACKING_TOOL: &str = "packing_advice";
/// The `inputRequests`/`inputResponses` keys.
pub const ADVICE_KEY: &str = "advice";
pub const ROOTS_KEY: &str = "roots";
/// The most tokens the server asks the client's model for.
pub const MAX_TOKENS: u32 = 120;

/// Arguments of `packing_advice`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct PackingArgs {
    /// City name, e.g. "Tokyo".
    pub location: String,
}

/// The `packing_advice` definition.
pub fn packing_tool() -> Tool {
    Tool::new(
        PACKING_TOOL,
        "Packing advice for a trip to a city: the client's model writes it from the city's \
         weather, and the client's roots say where the list could be kept",
        Arc::new(Default::default()),
    )
    .with_input_schema::<PackingArgs>()
    .with_title("Packing advice")
    .with_annotations(
        ToolAnnotations::with_title("Packing advice")
            .read_only(true)
            .destructive(false)
            .idempotent(false)
            .open_world(false),
    )
}

/// What the server asks the client's model.
pub fn sampling_request(city: &City) -> CreateMessageRequestParams {
    let question = format!(
        "The weather in {} is {} at {} °C. Write one short packing tip for a trip there.",
        city.full_name(),
        city.condition.to_lowercase(),
        city.temperature_c
    );
    CreateMessageRequestParams::new(vec![SamplingMessage::user_text(question)], MAX_TOKENS)
        .with_system_prompt("You are a travel assistant. Answer in one sentence.")
}

/// The tool's answer from the model's words and the client's roots (`None`: not declared).
pub fn advice(
    city: &City,
    sampled: &CreateMessageResult,
    roots: Option<&ListRootsResult>,
) -> CallToolResult {
    let words = sampled
        .message
        .content
        .first()
        .and_then(|block| block.as_text())
        .map_or("(the model gave no text)", |t| t.text.as_str());
    let kept = match roots {
        None => "The client declares no roots, so the list stays in the answer.".to_owned(),
        Some(list) if list.roots.is_empty() => {
            "The client shares no roots, so the list stays in the answer.".to_owned()
        }
        Some(list) => format!(
            "The list could be kept in {} (the client's first root of {}).",
            list.roots[0].uri,
            list.roots.len()
        ),
    };
    CallToolResult::success(vec![ContentBlock::text(format!(
        "Packing advice for {} ({}, {} °C), written by the client's model ({}): {} {kept}",
        city.full_name(),
        city.condition,
        city.temperature_c,
        cities::clip(&sampled.model, 80),
        cities::clip(words.trim(), 600),
    ))])
}

/// The tool error for a client that cannot be asked for its model.
fn cannot_sample() -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(
        "packing_advice needs the client's model: this client declares no sampling capability.",
    )])
}

/// What a modern question's `requestState` holds: whether the roots were asked too.
#[derive(Debug, Serialize, Deserialize)]
struct State {
    roots: bool,
}

/// The call the state belongs to.
fn binding(location: &str) -> String {
    format!("tools/call\u{0}{PACKING_TOOL}\u{0}{location}")
}

/// The `input_required` result asking for the model (and the roots).
fn ask(
    sealer: &Sealer,
    city: &City,
    roots: bool,
    binding: &str,
) -> Result<InputRequiredResult, McpError> {
    let sealed = sealer
        .seal(&State { roots }, binding)
        .map_err(|e| McpError::internal_error(format!("sealing requestState: {e}"), None))?;
    let mut requests = InputRequests::new();
    requests.insert(
        ADVICE_KEY.to_owned(),
        InputRequest::CreateMessage(CreateMessageRequest::new(sampling_request(city))),
    );
    if roots {
        requests.insert(
            ROOTS_KEY.to_owned(),
            InputRequest::ListRoots(ListRootsRequest::default()),
        );
    }
    Ok(InputRequiredResult::new(Some(requests), Some(sealed)))
}

/// One answer of the retry, read as `T`: `Ok(None)` when it is not there yet.
fn answer<T: serde::de::DeserializeOwned>(
    responses: Option<&InputResponses>,
    key: &str,
) -> Result<Option<T>, McpError> {
    let Some(value) = responses.and_then(|r| r.get(key)) else {
        return Ok(None);
    };
    serde_json::from_value(value.clone())
        .map(Some)
        .map_err(|e| McpError::invalid_params(format!("Invalid inputResponses.{key}: {e}"), None))
}

/// The tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct PackingTool;

impl PackingTool {
    async fn call(
        &self,
        server: &WeatherServer,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let value = Value::Object(request.arguments.clone().unwrap_or_default());
        let args: PackingArgs = match serde_json::from_value(value) {
            Ok(args) => args,
            Err(e) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "Invalid arguments for {PACKING_TOOL}: {e}"
                ))])
                .into());
            }
        };
        let city = match cities::lookup(&args.location) {
            Ok(city) => city,
            Err(e) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())]).into());
            }
        };
        let modern = is_modern(context);
        let caps = client_capabilities(context).unwrap_or_default();
        if caps.sampling.is_none() {
            return Ok(cannot_sample().into());
        }
        let asks_roots = caps.roots.is_some();
        if modern {
            let bound = binding(&args.location);
            let Some(sealed) = request.request_state.as_deref() else {
                return Ok(ask(server.sealer(), city, asks_roots, &bound)?.into());
            };
            let state: State = server.sealer().open(sealed, &bound).map_err(|why| {
                tracing::info!(%why, "refused a requestState");
                McpError::invalid_params(REFUSED, None)
            })?;
            let responses = request.input_responses.as_ref();
            let sampled: Option<CreateMessageResult> = answer(responses, ADVICE_KEY)?;
            let roots: Option<ListRootsResult> = answer(responses, ROOTS_KEY)?;
            return Ok(match (sampled, state.roots, roots) {
                (Some(sampled), false, _) => advice(city, &sampled, None),
                (Some(sampled), true, Some(roots)) => advice(city, &sampled, Some(&roots)),
                // An answer is missing: ask again.
                _ => return Ok(ask(server.sealer(), city, state.roots, &bound)?.into()),
            }
            .into());
        }
        let roots = if asks_roots {
            match context.peer.list_roots().await {
                Ok(roots) => Some(roots),
                Err(e) => {
                    return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                        "Asking the client for its roots failed: {e}"
                    ))])
                    .into());
                }
            }
        } else {
            None
        };
        Ok(
            match context.peer.create_message(sampling_request(city)).await {
                Ok(sampled) => advice(city, &sampled, roots.as_ref()),
                Err(e) => CallToolResult::error(vec![ContentBlock::text(format!(
                    "The client's model gave no advice: {e}"
                ))]),
            }
            .into(),
        )
    }
}

impl Extra for PackingTool {
    fn tools(&self) -> Vec<Tool> {
        vec![packing_tool()]
    }

    fn call_tool<'a>(
        &'a self,
        server: &'a WeatherServer,
        request: &'a CallToolRequestParams,
        context: &'a RequestContext<RoleServer>,
    ) -> CallOutcome<'a> {
        Box::pin(async move {
            (request.name == PACKING_TOOL).then_some(())?;
            Some(self.call(server, request, context).await)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::Role;
    use serde_json::json;

    fn tokyo() -> &'static City {
        cities::lookup("Tokyo").expect("Tokyo")
    }

    #[test]
    fn the_model_is_asked_for_a_tip_from_the_citys_weather() {
        let asked = serde_json::to_value(sampling_request(tokyo())).expect("params");
        let text = asked["messages"][0]["content"]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(
            text.starts_with("The weather in Tokyo is sunny at "),
            "{text}"
        );
        assert_eq!(asked["maxTokens"], MAX_TOKENS);
        assert_eq!(asked["messages"][0]["role"], "user");
        assert!(asked["systemPrompt"].is_string());
        assert!(asked.get("tools").is_none(), "no tools in the request");
    }

    #[test]
    fn the_advice_quotes_the_model_and_names_the_first_root() {
        let sampled: CreateMessageResult = serde_json::from_value(json!({
            "role": "assistant", "content": {"type": "text", "text": " Pack sunglasses. "},
            "model": "m"}))
        .expect("a result");
        assert_eq!(sampled.message.role, Role::Assistant);
        let roots: ListRootsResult =
            serde_json::from_value(json!({"roots": [{"uri": "file:///trip"}]})).expect("roots");
        let text = |r: CallToolResult| {
            serde_json::to_value(&r.content).expect("content")[0]["text"].clone()
        };
        let with = text(advice(tokyo(), &sampled, Some(&roots)));
        assert!(
            with.as_str().is_some_and(
                |t| t.contains("(m): Pack sunglasses. The list could be kept in file:///trip")
            ),
            "{with}"
        );
        let none = text(advice(
            tokyo(),
            &sampled,
            Some(&ListRootsResult::new(vec![])),
        ));
        assert!(
            none.as_str().is_some_and(|t| t.contains("shares no roots")),
            "{none}"
        );
        let undeclared = text(advice(tokyo(), &sampled, None));
        assert!(
            undeclared
                .as_str()
                .is_some_and(|t| t.contains("declares no roots")),
            "{undeclared}"
        );
    }

    #[test]
    fn a_modern_question_asks_both_and_its_state_is_bound_to_the_call() {
        let sealer = Sealer::random().expect("OS randomness");
        let bound = binding("Tokyo");
        let asked = ask(&sealer, tokyo(), true, &bound).expect("ask");
        let value = serde_json::to_value(&asked).expect("json");
        assert_eq!(value["resultType"], "input_required");
        assert_eq!(
            value["inputRequests"][ADVICE_KEY]["method"],
            "sampling/createMessage"
        );
        assert_eq!(value["inputRequests"][ROOTS_KEY]["method"], "roots/list");
        let sealed = asked.request_state.expect("state");
        let state: State = sealer
            .open(&sealed, &bound)
            .expect("opens for the same call");
        assert!(state.roots);
        assert!(sealer.open::<State>(&sealed, &binding("Paris")).is_err());
        let without = ask(&sealer, tokyo(), false, &bound).expect("ask");
        assert!(
            without
                .input_requests
                .is_some_and(|r| !r.contains_key(ROOTS_KEY))
        );
    }

    #[test]
    fn an_answer_that_is_not_a_result_is_invalid_params() {
        let mut responses = InputResponses::new();
        responses.insert(ADVICE_KEY.into(), json!({"role": "assistant"}));
        let read: Result<Option<CreateMessageResult>, _> = answer(Some(&responses), ADVICE_KEY);
        assert!(read.is_err_and(|e| e.message.contains("inputResponses.advice")));
        let missing: Option<ListRootsResult> = answer(Some(&responses), ROOTS_KEY).expect("absent");
        assert!(missing.is_none());
    }
}
