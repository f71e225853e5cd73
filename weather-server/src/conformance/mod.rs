//! `--conformance-fixtures` (in a build with the `conformance-fixtures` feature): the diagnostic
//! tools and the prompt the official conformance suite (2026-07-28 scenarios `server-stateless` and `input-required-result-*`) calls by name.
//! Only the test command builds and turns them on; the shipped server has none, and lists
//! `get_weather` alone. They reach the server as an [`Extra`] ([`Fixtures`]).
//!
//! - `test_missing_capability`: needs `sampling`; without it, −32021 (HTTP 400).
//! - `test_logging_tool`: logs at info, so only a request with `_meta` logLevel sees a
//!   `notifications/message`.
//! - `test_streaming_elicitation`: asks through MRTR, never a request on the response stream.
//! - `test_input_required_result_*` and the prompt `test_input_required_result_prompt`: the
//!   MRTR shapes the suite checks (one or several input requests, requestState sealed like the
//!   Springfield question's, several rounds, input requests only for declared capabilities).
//!
//! Every input request needs the matching client capability; a missing one is −32021.

// `test_logging_tool` logs; rmcp marks MCP logging deprecated (SEP-2577).
#![allow(deprecated)]

pub mod content;
pub mod kit;
pub mod tasks;

use rmcp::{
    ErrorData as McpError, RoleServer,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock,
        GetPromptRequestParams, GetPromptResponse, GetPromptResult, InputRequest, InputRequests,
        InputRequiredResult, InputResponses, LoggingLevel, Prompt, PromptMessage, Role, Tool,
    },
    service::RequestContext,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::conformance::kit::{
    ask_field, elicited, input_request, input_required, invalid, no_argument_tools, one,
};
use crate::handlers::weather::{CallOutcome, Extra, WeatherServer};
use crate::sealed::REFUSED;

pub const MISSING_CAPABILITY: &str = "test_missing_capability";
pub const LOGGING: &str = "test_logging_tool";
pub const STREAMING_ELICITATION: &str = "test_streaming_elicitation";
pub const ELICITATION: &str = "test_input_required_result_elicitation";
pub const SAMPLING: &str = "test_input_required_result_sampling";
pub const LIST_ROOTS: &str = "test_input_required_result_list_roots";
pub const REQUEST_STATE: &str = "test_input_required_result_request_state";
pub const MULTIPLE_INPUTS: &str = "test_input_required_result_multiple_inputs";
pub const MULTI_ROUND: &str = "test_input_required_result_multi_round";
pub const TAMPERED_STATE: &str = "test_input_required_result_tampered_state";
pub const CAPABILITIES: &str = "test_input_required_result_capabilities";
pub const PROMPT: &str = "test_input_required_result_prompt";

const TOOLS: [(&str, &str); 11] = [
    (
        MISSING_CAPABILITY,
        "Conformance diagnostic: needs the sampling capability (-32021 without it)",
    ),
    (
        LOGGING,
        "Conformance diagnostic: logs at info (only with _meta logLevel)",
    ),
    (
        STREAMING_ELICITATION,
        "Conformance diagnostic: asks through input_required, never a request on the stream",
    ),
    (
        ELICITATION,
        "Conformance diagnostic: asks user_name through elicitation",
    ),
    (
        SAMPLING,
        "Conformance diagnostic: asks capital_question through sampling",
    ),
    (
        LIST_ROOTS,
        "Conformance diagnostic: asks client_roots through roots/list",
    ),
    (
        REQUEST_STATE,
        "Conformance diagnostic: input request plus a sealed requestState",
    ),
    (
        MULTIPLE_INPUTS,
        "Conformance diagnostic: elicitation, sampling and roots at once",
    ),
    (
        MULTI_ROUND,
        "Conformance diagnostic: two questions in two rounds",
    ),
    (
        TAMPERED_STATE,
        "Conformance diagnostic: refuses a tampered requestState",
    ),
    (
        CAPABILITIES,
        "Conformance diagnostic: asks only through declared capabilities",
    ),
];

/// The diagnostic tools (no arguments).
pub fn tools() -> Vec<Tool> {
    let mut tools = no_argument_tools(&TOOLS);
    tools.extend(crate::conformance::content::tools());
    tools.extend(crate::conformance::tasks::tools());
    tools
}

/// The diagnostic prompts.
pub fn prompts() -> Vec<Prompt> {
    let mut prompts = vec![Prompt::new(
        PROMPT,
        Some("Conformance diagnostic: asks user_context through elicitation"),
        None,
    )];
    prompts.extend(crate::conformance::content::prompts());
    prompts
}

/// A capability an input request needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    Elicitation,
    Sampling,
    Roots,
}

impl Need {
    fn declared(self, caps: &ClientCapabilities) -> bool {
        match self {
            Need::Elicitation => caps.elicitation.is_some(),
            Need::Sampling => caps.sampling.is_some(),
            Need::Roots => caps.roots.is_some(),
        }
    }

    fn key(self) -> &'static str {
        match self {
            Need::Elicitation => "elicitation",
            Need::Sampling => "sampling",
            Need::Roots => "roots",
        }
    }
}

/// −32021 naming the capabilities in `needs` the client did not declare, if any.
fn require(caps: &ClientCapabilities, needs: &[Need]) -> Result<(), McpError> {
    let missing: serde_json::Map<String, Value> = needs
        .iter()
        .filter(|need| !need.declared(caps))
        .map(|need| (need.key().to_owned(), json!({})))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let required: ClientCapabilities = serde_json::from_value(Value::Object(missing))
        .map_err(|e| McpError::internal_error(e.to_string(), None))?;
    Err(McpError::missing_required_client_capability(required))
}

fn ask_model(question: &str) -> Result<InputRequest, McpError> {
    input_request(json!({
        "method": "sampling/createMessage",
        "params": {
            "messages": [{ "role": "user", "content": { "type": "text", "text": question } }],
            "maxTokens": 100,
        }
    }))
}

fn ask_roots() -> Result<InputRequest, McpError> {
    input_request(json!({ "method": "roots/list" }))
}

/// A `CreateMessageResult`'s text.
fn sampled(key: &str, value: &Value) -> Result<String, McpError> {
    value
        .pointer("/content/text")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| invalid(key, "expected a CreateMessageResult with text content"))
}

/// A `ListRootsResult`'s URIs.
fn rooted(key: &str, value: &Value) -> Result<Vec<String>, McpError> {
    value
        .get("roots")
        .and_then(Value::as_array)
        .map(|roots| {
            roots
                .iter()
                .filter_map(|root| root.get("uri").and_then(Value::as_str))
                .map(str::to_owned)
                .collect()
        })
        .ok_or_else(|| invalid(key, "expected a ListRootsResult with roots"))
}

/// What a fixture's sealed `requestState` holds.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Step {
    step: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

fn binding(method: &str, name: &str) -> String {
    format!("{method}\u{0}{name}")
}

struct Call<'a> {
    server: &'a WeatherServer,
    name: &'a str,
    caps: ClientCapabilities,
    responses: Option<&'a InputResponses>,
    state: Option<&'a str>,
}

impl Call<'_> {
    fn response(&self, key: &str) -> Option<&Value> {
        self.responses.and_then(|responses| responses.get(key))
    }

    fn seal(&self, step: &Step) -> Result<String, McpError> {
        self.server
            .sealer()
            .seal(step, &binding("tools/call", self.name))
            .map_err(|e| McpError::internal_error(e, None))
    }

    /// The verified state. A retry that answers without one is refused like a bad one.
    fn step(&self) -> Result<Option<Step>, McpError> {
        match self.state {
            Some(sealed) => self
                .server
                .sealer()
                .open(sealed, &binding("tools/call", self.name))
                .map(Some)
                .map_err(|why| {
                    tracing::info!(%why, tool = self.name, "refused a requestState");
                    McpError::invalid_params(REFUSED, None)
                }),
            None if self.responses.is_some_and(|r| !r.is_empty()) => Err(McpError::invalid_params(
                "Invalid params: inputResponses without the requestState they answer",
                None,
            )),
            None => Ok(None),
        }
    }
}

fn text(text: impl Into<String>) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(text.into())]).into()
}

/// Runs a diagnostic tool; `None` for a name that is not one.
pub async fn call_tool(
    server: &WeatherServer,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResponse, McpError>> {
    let name = TOOLS
        .iter()
        .map(|(name, _)| *name)
        .find(|name| *name == request.name)?;
    let call = Call {
        server,
        name,
        caps: context.client_capabilities().unwrap_or_default(),
        responses: request.input_responses.as_ref(),
        state: request.request_state.as_deref(),
    };
    if name == LOGGING {
        server
            .log(context, LoggingLevel::Info, format!("{LOGGING} ran"))
            .await;
        return Some(Ok(text(
            "Logged at info (seen only with _meta io.modelcontextprotocol/logLevel)",
        )));
    }
    Some(run(&call))
}

fn run(call: &Call<'_>) -> Result<CallToolResponse, McpError> {
    match call.name {
        MISSING_CAPABILITY => {
            require(&call.caps, &[Need::Sampling])?;
            Ok(text("The sampling capability is declared"))
        }
        STREAMING_ELICITATION => {
            require(&call.caps, &[Need::Elicitation])?;
            match call.response("confirm") {
                Some(value) => Ok(text(format!(
                    "Answered through inputResponses: {}",
                    elicited("confirm", value, "confirm")?.unwrap_or_else(|| "no".into())
                ))),
                None => Ok(input_required(
                    one("confirm", ask_field("Continue?", "confirm", "boolean")?),
                    None,
                )),
            }
        }
        ELICITATION => {
            require(&call.caps, &[Need::Elicitation])?;
            match call.response("user_name") {
                Some(value) => Ok(text(match elicited("user_name", value, "name")? {
                    Some(name) => format!("Hello, {name}!"),
                    None => "Hello, whoever you are!".to_owned(),
                })),
                None => Ok(input_required(
                    one(
                        "user_name",
                        ask_field("What is your name?", "name", "string")?,
                    ),
                    None,
                )),
            }
        }
        SAMPLING => {
            require(&call.caps, &[Need::Sampling])?;
            match call.response("capital_question") {
                Some(value) => Ok(text(format!(
                    "The model answered: {}",
                    sampled("capital_question", value)?
                ))),
                None => Ok(input_required(
                    one(
                        "capital_question",
                        ask_model("What is the capital of France?")?,
                    ),
                    None,
                )),
            }
        }
        LIST_ROOTS => {
            require(&call.caps, &[Need::Roots])?;
            match call.response("client_roots") {
                Some(value) => {
                    let roots = rooted("client_roots", value)?;
                    Ok(text(format!(
                        "{} root(s): {}",
                        roots.len(),
                        roots.join(", ")
                    )))
                }
                None => Ok(input_required(one("client_roots", ask_roots()?), None)),
            }
        }
        REQUEST_STATE | TAMPERED_STATE => {
            require(&call.caps, &[Need::Elicitation])?;
            let step = call.step()?;
            match (step, call.response("confirm")) {
                (Some(_), Some(value)) => {
                    elicited("confirm", value, "ok")?;
                    Ok(text("state-ok: the requestState verified"))
                }
                _ => Ok(input_required(
                    one(
                        "confirm",
                        ask_field("Confirm to continue", "ok", "boolean")?,
                    ),
                    Some(call.seal(&Step {
                        step: 1,
                        name: None,
                    })?),
                )),
            }
        }
        MULTIPLE_INPUTS => multiple_inputs(call),
        MULTI_ROUND => multi_round(call),
        CAPABILITIES => {
            if call.responses.is_some_and(|r| !r.is_empty()) {
                return Ok(text("Answered with the declared capabilities"));
            }
            let mut requests = InputRequests::new();
            if Need::Elicitation.declared(&call.caps) {
                requests.insert(
                    "user_name".into(),
                    ask_field("What is your name?", "name", "string")?,
                );
            }
            if Need::Sampling.declared(&call.caps) {
                requests.insert("greeting".into(), ask_model("Generate a greeting")?);
            }
            if Need::Roots.declared(&call.caps) {
                requests.insert("client_roots".into(), ask_roots()?);
            }
            if requests.is_empty() {
                return Ok(text(
                    "Nothing to ask: the client declares no elicitation, sampling or roots",
                ));
            }
            Ok(input_required(requests, None))
        }
        _ => Err(McpError::invalid_params(
            format!("Unknown tool: {}", call.name),
            None,
        )),
    }
}

fn multiple_inputs(call: &Call<'_>) -> Result<CallToolResponse, McpError> {
    require(
        &call.caps,
        &[Need::Elicitation, Need::Sampling, Need::Roots],
    )?;
    let step = call.step()?;
    let name = call.response("user_name");
    let greeting = call.response("greeting");
    let roots = call.response("client_roots");
    if let (Some(_), Some(name), Some(greeting), Some(roots)) = (&step, name, greeting, roots) {
        let name = elicited("user_name", name, "name")?.unwrap_or_else(|| "nobody".into());
        let greeting = sampled("greeting", greeting)?;
        let roots = rooted("client_roots", roots)?;
        return Ok(text(format!("{greeting} {name} ({} root(s))", roots.len())));
    }
    // Ask again for whatever is missing (all of it the first time).
    let mut requests = InputRequests::new();
    if step.is_none() || name.is_none() {
        requests.insert(
            "user_name".into(),
            ask_field("What is your name?", "name", "string")?,
        );
    }
    if step.is_none() || greeting.is_none() {
        requests.insert("greeting".into(), ask_model("Generate a greeting")?);
    }
    if step.is_none() || roots.is_none() {
        requests.insert("client_roots".into(), ask_roots()?);
    }
    Ok(input_required(
        requests,
        Some(call.seal(&Step {
            step: 1,
            name: None,
        })?),
    ))
}

fn multi_round(call: &Call<'_>) -> Result<CallToolResponse, McpError> {
    require(&call.caps, &[Need::Elicitation])?;
    let ask_name = || -> Result<CallToolResponse, McpError> {
        Ok(input_required(
            one(
                "step1",
                ask_field("Step 1: What is your name?", "name", "string")?,
            ),
            Some(call.seal(&Step {
                step: 1,
                name: None,
            })?),
        ))
    };
    match call.step()? {
        None => ask_name(),
        Some(Step { step: 1, .. }) => match call.response("step1") {
            None => ask_name(),
            Some(value) => {
                let name = elicited("step1", value, "name")?.unwrap_or_else(|| "nobody".into());
                Ok(input_required(
                    one(
                        "step2",
                        ask_field("Step 2: What is your favorite color?", "color", "string")?,
                    ),
                    Some(call.seal(&Step {
                        step: 2,
                        name: Some(name),
                    })?),
                ))
            }
        },
        Some(Step { step: 2, name }) => match call.response("step2") {
            Some(value) => {
                let color = elicited("step2", value, "color")?.unwrap_or_else(|| "no color".into());
                Ok(text(format!(
                    "{}'s favorite color is {color}",
                    name.unwrap_or_else(|| "nobody".into())
                )))
            }
            None => Err(invalid("step2", "the answer to step 2 is missing")),
        },
        Some(_) => Err(McpError::invalid_params(REFUSED, None)),
    }
}

/// `prompts/get` of the diagnostic prompt.
pub fn get_prompt(
    server: &WeatherServer,
    request: &GetPromptRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<GetPromptResponse, McpError> {
    if request.name != PROMPT {
        return Err(crate::handlers::prompts::unknown_prompt(&request.name));
    }
    let caps = context.client_capabilities().unwrap_or_default();
    require(&caps, &[Need::Elicitation])?;
    let meta = server.result_meta(context);
    match request
        .input_responses
        .as_ref()
        .and_then(|responses| responses.get("user_context"))
    {
        Some(value) => {
            let context_text =
                elicited("user_context", value, "context")?.unwrap_or_else(|| "no context".into());
            let mut result = GetPromptResult::new(vec![PromptMessage::new_text(
                Role::User,
                format!("Use this context: {context_text}"),
            )]);
            result.meta = meta;
            Ok(result.into())
        }
        None => {
            let mut asked = InputRequiredResult::from_input_requests(one(
                "user_context",
                ask_field("What context should the prompt use?", "context", "string")?,
            ));
            asked.meta = meta;
            Ok(asked.into())
        }
    }
}

/// The fixtures, as the weather server takes extra tools and prompts.
pub struct Fixtures;

impl Extra for Fixtures {
    fn tools(&self) -> Vec<Tool> {
        tools()
    }

    fn prompts(&self) -> Vec<Prompt> {
        prompts()
    }

    fn call_tool<'a>(
        &'a self,
        server: &'a WeatherServer,
        request: &'a CallToolRequestParams,
        context: &'a RequestContext<RoleServer>,
    ) -> CallOutcome<'a> {
        Box::pin(async move {
            if let Some(outcome) =
                crate::conformance::tasks::call_tool(server.tasks(), request, context)
            {
                return Some(outcome);
            }
            match crate::conformance::content::call_tool(server, request, context).await {
                Some(outcome) => Some(outcome),
                None => call_tool(server, request, context).await,
            }
        })
    }

    fn get_prompt(
        &self,
        server: &WeatherServer,
        request: &GetPromptRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        match crate::conformance::content::get_prompt(request) {
            Some(mut result) => {
                result.meta = server.result_meta(context);
                Ok(result.into())
            }
            None => get_prompt(server, request, context),
        }
    }

    fn runs_tasks(&self) -> bool {
        true
    }

    fn resources(&self) -> Vec<rmcp::model::Resource> {
        crate::conformance::content::resources()
    }

    fn resource_templates(&self) -> Vec<rmcp::model::ResourceTemplate> {
        crate::conformance::content::templates()
    }

    fn read_resource(&self, uri: &str) -> Option<rmcp::model::ResourceContents> {
        crate::conformance::content::read(uri)
    }

    fn complete(
        &self,
        request: &rmcp::model::CompleteRequestParams,
    ) -> Option<rmcp::model::CompleteResult> {
        crate::conformance::content::complete(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_requests_serialize_as_the_spec_shows() {
        let elicit = serde_json::to_value(ask_field("What is your name?", "name", "string").ok())
            .expect("serialize");
        assert_eq!(elicit["method"], "elicitation/create");
        assert_eq!(
            elicit["params"]["requestedSchema"]["properties"]["name"]["type"],
            "string"
        );
        let model = serde_json::to_value(ask_model("Q?").ok()).expect("serialize");
        assert_eq!(model["method"], "sampling/createMessage");
        assert_eq!(model["params"]["maxTokens"], 100);
        let roots = serde_json::to_value(ask_roots().ok()).expect("serialize");
        assert_eq!(roots["method"], "roots/list");
    }

    #[test]
    fn missing_capabilities_are_named_as_an_object() {
        let caps: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {}})).expect("caps");
        assert!(require(&caps, &[Need::Elicitation]).is_ok());
        let error = require(&caps, &[Need::Elicitation, Need::Sampling, Need::Roots])
            .expect_err("sampling and roots are missing");
        assert_eq!(error.code.0, -32021);
        let data = error.data.expect("data");
        assert_eq!(data["requiredCapabilities"]["sampling"], json!({}));
        assert!(data["requiredCapabilities"]["roots"].is_object());
        assert!(data["requiredCapabilities"].get("elicitation").is_none());
    }

    #[test]
    fn the_tool_list_has_unique_names() {
        let tools = tools();
        let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            TOOLS.len()
                + crate::conformance::content::TOOLS.len()
                + 1 // json_schema_2020_12_tool
                + crate::conformance::tasks::TOOLS.len()
        );
    }
}
