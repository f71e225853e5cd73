//! The MCP handler: server info, the `get_weather` tool, and logging.

// rmcp marks MCP logging as deprecated (SEP-2577), but the protocol
// versions this demo speaks still have it and the demo shows it.
#![allow(deprecated)]

use std::{
    borrow::Cow,
    pin::Pin,
    sync::{Arc, Mutex, PoisonError},
};

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler,
    model::{
        CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
        CompleteRequestParams, CompleteResult, ContentBlock, DiscoverResult,
        GetPromptRequestParams, GetPromptResponse, GetTaskParams, GetTaskResult, Icon,
        Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
        ListToolsResult, LoggingLevel, LoggingMessageNotification, LoggingMessageNotificationParam,
        MetaObject, PaginatedRequestParams, ProgressNotificationParam, Prompt, ProtocolVersion,
        ReadResourceRequestParams, ReadResourceResponse, Resource, ResourceContents,
        ResourceTemplate, ServerCapabilities, ServerConfig, ServerNotification,
        SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter, Tool, ToolAnnotations,
        UnsubscribeRequestParams, UpdateTaskParams,
    },
    schemars::JsonSchema,
    service::{RequestContext, SubscriptionContext},
    task_manager::TaskManager,
};

pub use crate::handlers::report::WeatherReport;
use crate::handlers::updates::{Clock, Subscriptions};
use serde::Deserialize;
use serde_json::Value;

use super::cities::{self, City, LookupError};
use super::elicit::{self, Answer};
use super::units::{self, Units};
use crate::http::streams::RelatedRequest;
use crate::{
    era::{Era, is_modern_version},
    sealed::Sealer,
};

/// The tool's name on the wire.
pub const TOOL_NAME: &str = "get_weather";
/// Logger name used in `notifications/message`.
pub const LOGGER: &str = "weather-server";
/// How long a modern client may cache `server/discover` and `tools/list` (they change only
/// when the server restarts with other flags).
pub const CACHE_TTL_MS: u64 = 5 * 60 * 1000;
/// The result `_meta` key naming the server (2026-07-28).
pub const SERVER_INFO_META: &str = "io.modelcontextprotocol/serverInfo";

const INSTRUCTIONS: &str = "Demo weather service with a fixed table of world cities. \
Call get_weather with a city name (\"Tokyo\", \"Tokyo, Japan\" or \"東京\") to get its \
current condition, temperature, humidity and wind; `units` picks celsius (default) or \
fahrenheit. A name several places share (\"Springfield\") is asked back through elicitation.";

/// Arguments of `get_weather`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct GetWeatherArgs {
    /// City name, e.g. "Tokyo", "Tokyo, Japan" or "東京".
    pub location: String,
    // Temperature units (default celsius), mirrored in the `Mcp-Param-Units` header. The schema
    // (and its description) is `units::input_schema`: optional (serde `default`; skipping `None`
    // keeps schemars from writing `"default": null`), not nullable, no `$ref`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "units::input_schema")]
    pub units: Option<Units>,
}

/// The server's and `get_weather`'s icon: a sun, an SVG as a `data:` URL (a client shows it
/// without fetching anything).
pub const SUN_ICON: &str = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PGNpcmNsZSBjeD0iMTYiIGN5PSIxNiIgcj0iNyIgZmlsbD0iI2Y1OWUwYiIvPjxnIHN0cm9rZT0iI2Y1OWUwYiIgc3Ryb2tlLXdpZHRoPSIyLjUiIHN0cm9rZS1saW5lY2FwPSJyb3VuZCI+PHBhdGggZD0iTTE2IDJ2NE0xNiAyNnY0TTIgMTZoNE0yNiAxNmg0TTYgNmwzIDNNMjMgMjNsMyAzTTYgMjZsMy0zTTIzIDlsMy0zIi8+PC9nPjwvc3ZnPg==";

/// [`SUN_ICON`] as an icon, for any size.
pub fn sun_icon() -> Icon {
    Icon::new(SUN_ICON)
        .with_mime_type("image/svg+xml")
        .with_sizes(vec!["any".to_owned()])
}

/// The `get_weather` tool definition.
pub fn get_weather_tool() -> Tool {
    // `with_input_schema` only panics for a schema that is not an object,
    // which `GetWeatherArgs` (a struct) never produces.
    Tool::new(
        TOOL_NAME,
        "Get the current weather for a city",
        Arc::new(Default::default()),
    )
    .with_input_schema::<GetWeatherArgs>()
    .with_output_schema::<WeatherReport>()
    .with_title("Get weather")
    .with_icons(vec![sun_icon()])
    .with_annotations(
        ToolAnnotations::with_title("Get weather")
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    )
    .with_meta(super::app::tool_meta())
}

/// The tool result for one city: one text block holding just the condition (e.g. "Sunny")
/// plus the structured report.
pub fn report_result(city: &City, units: Units) -> CallToolResult {
    let report = WeatherReport::new(city, units);
    let mut result = CallToolResult::success(vec![ContentBlock::text(city.condition)]);
    match serde_json::to_value(&report) {
        Ok(value) => result.structured_content = Some(value),
        Err(error) => {
            return CallToolResult::error(vec![ContentBlock::text(format!(
                "Internal error while encoding the report: {error}"
            ))]);
        }
    }
    result
}

/// Builds the tool result for a location that names one city; otherwise an `isError` result
/// with a helpful message (an ambiguous name lists the candidates).
pub fn weather_result(location: &str, units: Units) -> CallToolResult {
    match cities::lookup(location) {
        Ok(city) => report_result(city, units),
        Err(error) => CallToolResult::error(vec![ContentBlock::text(error.to_string())]),
    }
}

/// Numeric severity for comparing logging levels (debug = 0 … emergency = 7).
pub fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// Whether the request speaks 2026-07-28 (its `_meta` names a modern version).
/// What the client of this request declares it can do. Modern: this request's `_meta`. Legacy:
/// the session's `initialize` (a server-to-client request goes to the session, whatever `_meta`
/// says).
pub fn client_capabilities(
    context: &RequestContext<RoleServer>,
) -> Option<rmcp::model::ClientCapabilities> {
    if is_modern(context) {
        context.meta.client_capabilities()
    } else {
        context
            .peer
            .peer_info()
            .map(|info| info.capabilities.clone())
    }
}

pub fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .meta
        .protocol_version()
        .is_some_and(|version| is_modern_version(version.as_str()))
}

// Tools and prompts served beside `get_weather`. The shipped server has none; a build with the
// `conformance-fixtures` feature adds the conformance suite's (src/conformance.rs) when started
// with `--conformance-fixtures`.

/// What a tool call of an extra tool gives: `None` when the name is not one of its tools.
pub type CallOutcome<'a> =
    Pin<Box<dyn Future<Output = Option<Result<CallToolResponse, McpError>>> + Send + 'a>>;

/// Tools and prompts added to the weather server's.
pub trait Extra: Send + Sync {
    fn tools(&self) -> Vec<Tool>;
    fn prompts(&self) -> Vec<Prompt> {
        Vec::new()
    }
    fn call_tool<'a>(
        &'a self,
        server: &'a WeatherServer,
        request: &'a CallToolRequestParams,
        context: &'a RequestContext<RoleServer>,
    ) -> CallOutcome<'a>;
    fn get_prompt(
        &self,
        _server: &WeatherServer,
        request: &GetPromptRequestParams,
        _context: &RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        Err(crate::handlers::prompts::unknown_prompt(&request.name))
    }
    /// Some of its tools run as tasks (the server then declares the tasks extension).
    fn runs_tasks(&self) -> bool {
        false
    }
    fn resources(&self) -> Vec<Resource> {
        Vec::new()
    }
    fn resource_templates(&self) -> Vec<ResourceTemplate> {
        Vec::new()
    }
    /// The contents at `uri`, when it is one of its resources.
    fn read_resource(&self, _uri: &str) -> Option<ResourceContents> {
        None
    }
    /// Completion for one of its prompts or templates; `None` for another reference.
    fn complete(&self, _request: &CompleteRequestParams) -> Option<CompleteResult> {
        None
    }
}

impl std::fmt::Debug for dyn Extra {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self
            .tools()
            .into_iter()
            .map(|t| t.name.to_string())
            .collect();
        f.debug_struct("Extra").field("tools", &names).finish()
    }
}

/// What every handler instance shares (rmcp makes one per session, or per stateless request).
#[derive(Clone)]
pub struct Shared {
    pub era: Era,
    /// Seals `requestState` for the questions asked in the modern era.
    pub sealer: Arc<Sealer>,
    /// Tools, prompts and resources served beside the weather server's own (the conformance
    /// suite's, in tests).
    pub extra: Option<Arc<dyn Extra>>,
    /// The tasks (SEP-2663) every handler instance answers `tasks/*` from.
    pub tasks: TaskManager,
    /// When city reports are observed anew (and subscribers told).
    pub clock: Clock,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("era", &self.era)
            .field("extra", &self.extra)
            .field("clock", &self.clock)
            .finish_non_exhaustive()
    }
}

impl Default for Shared {
    fn default() -> Self {
        Self {
            era: Era::default(),
            sealer: Arc::new(Sealer::random().expect("OS randomness")),
            extra: None,
            tasks: TaskManager::default(),
            clock: Clock::default(),
        }
    }
}

/// The MCP server. One instance per session (rmcp calls the factory for each
/// new session), so the logging level set here is per session.
#[derive(Debug, Clone, Default)]
pub struct WeatherServer {
    log_level: Arc<Mutex<Option<LoggingLevel>>>,
    /// A 2025-11-25 session's `resources/subscribe`s.
    subscriptions: Subscriptions,
    shared: Shared,
}

impl WeatherServer {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_shared(shared: Shared) -> Self {
        Self {
            log_level: Arc::default(),
            subscriptions: Subscriptions::default(),
            shared,
        }
    }

    pub fn sealer(&self) -> &Sealer {
        &self.shared.sealer
    }

    pub fn tasks(&self) -> &TaskManager {
        &self.shared.tasks
    }

    /// What is at `uri` (the weather server's resources, then the extra ones), with how long it
    /// stays fresh.
    fn find_resource(&self, uri: &str) -> Option<(ResourceContents, u64)> {
        if let Some(card) = super::app::read(uri) {
            return Some((card, CACHE_TTL_MS));
        }
        crate::handlers::resources::read(uri, self.shared.clock.observed_at()).or_else(|| {
            let extra = self.shared.extra.as_ref()?;
            Some((extra.read_resource(uri)?, CACHE_TTL_MS))
        })
    }

    /// The extra prompts, when there are any (the server then declares prompts).
    fn extra_prompts(&self) -> Option<Vec<rmcp::model::Prompt>> {
        let prompts = self.shared.extra.as_ref()?.prompts();
        (!prompts.is_empty()).then_some(prompts)
    }

    /// The minimum level the client asked for. A modern request: only its own `_meta` log
    /// level (no level, no log notifications). A legacy request: its `_meta` level, else the
    /// session's `logging/setLevel`.
    fn effective_level(&self, context: &RequestContext<RoleServer>) -> Option<LoggingLevel> {
        let own = context.meta.log_level();
        if is_modern(context) {
            return own;
        }
        own.or_else(|| {
            *self
                .log_level
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        })
    }

    /// Sends `notifications/message` when the client admits `level`. The
    /// notification is marked with the request id so it travels on that
    /// request's SSE stream.
    pub(crate) async fn log(
        &self,
        context: &RequestContext<RoleServer>,
        level: LoggingLevel,
        text: String,
    ) {
        let Some(minimum) = self.effective_level(context) else {
            return;
        };
        if severity(level) < severity(minimum) {
            return;
        }
        let params = LoggingMessageNotificationParam::new(level, text.into()).with_logger(LOGGER);
        let mut notification = LoggingMessageNotification::new(params);
        notification
            .extensions
            .insert(RelatedRequest(context.id.clone()));
        if let Err(error) = context
            .peer
            .send_notification(ServerNotification::LoggingMessageNotification(notification))
            .await
        {
            tracing::debug!(%error, "could not send log notification");
        }
    }

    pub(crate) async fn progress(
        &self,
        context: &RequestContext<RoleServer>,
        progress: f64,
        message: &str,
    ) {
        let Some(token) = context.meta.get_progress_token() else {
            return;
        };
        let mut params = ProgressNotificationParam::new(token, progress);
        params.total = Some(1.0);
        params.message = Some(message.to_string());
        if let Err(error) = context.peer.notify_progress(params).await {
            tracing::debug!(%error, "could not send progress notification");
        }
    }

    /// `_meta` naming this server, for results to modern requests (2026-07-28: servers SHOULD
    /// identify themselves in every result). The icons stay out of it: they would add a few
    /// hundred bytes to every answer.
    pub fn result_meta(&self, context: &RequestContext<RoleServer>) -> Option<MetaObject> {
        if !is_modern(context) {
            return None;
        }
        // Who answered, without the icons: they come once, with server/discover.
        let mut server = self.get_info().server_info;
        server.icons = None;
        let info = serde_json::to_value(server).ok()?;
        let mut meta = MetaObject::new();
        meta.insert(SERVER_INFO_META.to_owned(), info);
        Some(meta)
    }

    async fn get_weather(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        let args: GetWeatherArgs = match serde_json::from_value(arguments) {
            Ok(args) => args,
            Err(error) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "Invalid arguments for {TOOL_NAME}: {error}. Expected {{\"location\": \
                     \"Tokyo\"}} and optionally \"units\": \"celsius\" or \"fahrenheit\"."
                ))])
                .into());
            }
        };
        let units = args.units.unwrap_or_default();
        let location = args.location.trim();
        let shown = cities::clip(location, 80);
        tracing::info!(location = %shown, units = units.as_str(), "get_weather called");
        self.log(
            context,
            LoggingLevel::Info,
            format!("get_weather called for {shown}"),
        )
        .await;
        self.progress(context, 0.0, &format!("Looking up {shown}"))
            .await;
        let found = cities::lookup(location);
        // For a client that asked for debug lines: how the place was read.
        let how = match &found {
            Ok(city) => format!("{shown} is {}", city.full_name()),
            Err(error) => format!("{shown} not found: {error}"),
        };
        self.log(context, LoggingLevel::Debug, how).await;
        let response = match found {
            Ok(city) => report_result(city, units).into(),
            Err(LookupError::Ambiguous(input, candidates)) => {
                self.ask_which(request, context, &input, &candidates, units)
                    .await?
            }
            Err(error) => CallToolResult::error(vec![ContentBlock::text(error.to_string())]).into(),
        };
        if matches!(response, CallToolResponse::Complete(_)) {
            self.progress(context, 1.0, "Done").await;
        }
        Ok(response)
    }

    /// A place name several cities share: ask the user which one (see [`elicit`]).
    async fn ask_which(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        input: &str,
        candidates: &[&'static City],
        units: Units,
    ) -> Result<CallToolResponse, McpError> {
        let capabilities = client_capabilities(context);
        if !elicit::answers_forms(capabilities.as_ref()) {
            return Ok(elicit::cannot_ask(
                input,
                candidates,
                "This client cannot be asked which one (it declares no form elicitation \
                 capability).",
            )
            .into());
        }
        let answer = if is_modern(context) {
            let binding = elicit::binding(input, units);
            match elicit::resume(
                self.sealer(),
                request.request_state.as_deref(),
                request.input_responses.as_ref(),
                &binding,
            )? {
                Some(answer) => answer,
                None => {
                    return Ok(elicit::ask(self.sealer(), input, candidates, &binding)?.into());
                }
            }
        } else {
            match elicit::ask_in_session(&context.peer, input, candidates).await {
                Ok(answer) => answer,
                Err(why) => {
                    return Ok(elicit::cannot_ask(
                        input,
                        candidates,
                        &format!("Asking which one failed: {why}."),
                    )
                    .into());
                }
            }
        };
        Ok(match answer {
            Answer::Chosen(city) => report_result(city, units),
            other => elicit::not_answered(&other, candidates),
        }
        .into())
    }
}

/// A list result with the 2026-07-28 caching hints and the server's `_meta`; a legacy client gets
/// the list as before.
macro_rules! hinted {
    ($server:expr, $context:expr, $result:expr) => {{
        let mut result = $result;
        if is_modern($context) {
            result = result
                .with_ttl_ms(CACHE_TTL_MS)
                .with_cache_scope(CacheScope::Public);
            result.meta = $server.result_meta($context);
        }
        result
    }};
}

impl ServerHandler for WeatherServer {
    fn get_info(&self) -> ServerConfig {
        let builder = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .enable_prompts()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_completions();
        let capabilities = if self.shared.extra.as_ref().is_some_and(|e| e.runs_tasks()) {
            builder.enable_tasks().build()
        } else {
            builder.build()
        };
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new("weather-server", env!("CARGO_PKG_VERSION"))
                    .with_title("Weather Server")
                    .with_icons(vec![sun_icon()]),
            )
            .with_instructions(INSTRUCTIONS)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(self.shared.era.supported_versions())
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, McpError> {
        Ok(
            DiscoverResult::from_server_info(self.shared.era.supported_versions(), self.get_info())
                .with_ttl_ms(CACHE_TTL_MS)
                .with_cache_scope(CacheScope::Public),
        )
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        tracing::info!(level = ?request.level, "client set logging level");
        *self
            .log_level
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(request.level);
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let mut tools = vec![get_weather_tool()];
        if let Some(extra) = &self.shared.extra {
            tools.extend(extra.tools());
        }
        let result = ListToolsResult::with_all_items(tools);
        Ok(hinted!(self, &context, result))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        if name == TOOL_NAME {
            return Some(get_weather_tool());
        }
        self.shared
            .extra
            .as_ref()
            .and_then(|extra| extra.tools().into_iter().find(|t| t.name == name))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let mut response = if request.name == TOOL_NAME {
            self.get_weather(&request, &context).await?
        } else if let Some(extra) = &self.shared.extra
            && let Some(response) = extra.call_tool(self, &request, &context).await
        {
            response?
        } else {
            return Err(McpError::invalid_params(
                format!("Unknown tool: {}", request.name),
                None,
            ));
        };
        match &mut response {
            CallToolResponse::Complete(result) => result.meta = self.result_meta(&context),
            CallToolResponse::InputRequired(result) => result.meta = self.result_meta(&context),
            _ => {}
        }
        Ok(response)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let mut prompts = crate::handlers::prompts::list();
        prompts.extend(self.extra_prompts().unwrap_or_default());
        let result = ListPromptsResult::with_all_items(prompts);
        Ok(hinted!(self, &context, result))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        if let Some(result) =
            crate::handlers::prompts::get(&request, self.shared.clock.observed_at())
        {
            let mut result = result?;
            result.meta = self.result_meta(&context);
            return Ok(result.into());
        }
        match &self.shared.extra {
            Some(extra) => extra.get_prompt(self, &request, &context),
            None => Err(crate::handlers::prompts::unknown_prompt(&request.name)),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let mut resources = crate::handlers::resources::list();
        if let Some(extra) = &self.shared.extra {
            resources.extend(extra.resources());
        }
        let result = ListResourcesResult::with_all_items(resources);
        Ok(hinted!(self, &context, result))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let mut templates = crate::handlers::resources::templates();
        if let Some(extra) = &self.shared.extra {
            templates.extend(extra.resource_templates());
        }
        let result = ListResourceTemplatesResult::with_all_items(templates);
        Ok(hinted!(self, &context, result))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let found = self.find_resource(&request.uri);
        let mut result =
            crate::handlers::resources::read_result(&request.uri, found, is_modern(&context))?;
        result.meta = self.result_meta(&context);
        Ok(result.into())
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        if self.find_resource(&request.uri).is_none() {
            return Err(crate::handlers::resources::not_found(&request.uri, false));
        }
        self.subscriptions
            .add(request.uri, &context.peer, self.shared.clock);
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.subscriptions.remove(&request.uri);
        Ok(())
    }

    /// A listen request gets the notifications this server can send: updates of the resources
    /// it has (its lists never change).
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = requested.supported_by(&self.get_info().capabilities);
        if let Some(uris) = &mut accepted.resource_subscriptions {
            uris.retain(|uri| self.find_resource(uri).is_some());
        }
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), McpError> {
        let due: Vec<String> = context
            .accepted()
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| crate::handlers::updates::changes(uri))
            .cloned()
            .collect();
        loop {
            tokio::select! {
                _ = context.cancelled() => return Ok(()),
                _ = tokio::time::sleep(self.shared.clock.until_next()) => {
                    for uri in &due {
                        if context.sink().notify_resource_updated(uri.clone()).await.is_err() {
                            return Ok(());
                        }
                    }
                }
            }
        }
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        Ok(GetTaskResult::new(
            self.shared.tasks.get_task(&request.task_id)?,
        ))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.shared
            .tasks
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.shared.tasks.cancel_task(&request.task_id)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        let extra = self
            .shared
            .extra
            .as_ref()
            .and_then(|extra| extra.complete(&request));
        let mut result = match extra {
            Some(result) => result,
            None => crate::handlers::prompts::complete(&request)?,
        };
        result.meta = self.result_meta(&context);
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tool_definition() {
        let tool = serde_json::to_value(get_weather_tool()).expect("serialize tool");
        assert_eq!(tool["name"], "get_weather");
        assert_eq!(tool["title"], "Get weather");
        assert_eq!(tool["description"], "Get the current weather for a city");
        assert_eq!(tool["inputSchema"]["type"], "object");
        assert_eq!(tool["inputSchema"]["required"], json!(["location"]));
        assert_eq!(
            tool["inputSchema"]["properties"]["location"]["type"],
            "string"
        );
        // `units`: optional, a plain string enum (a primitive type, as `x-mcp-header` requires)
        // mirrored in `Mcp-Param-Units`.
        let units = &tool["inputSchema"]["properties"]["units"];
        assert_eq!(units["type"], "string", "{units}");
        assert_eq!(units["enum"], json!(["celsius", "fahrenheit"]));
        assert_eq!(units["x-mcp-header"], "Units");
        assert_eq!(units["default"], "celsius");
        assert!(
            tool["inputSchema"].get("$defs").is_none(),
            "no $ref: {tool}"
        );
        assert_eq!(tool["outputSchema"]["type"], "object");
        assert_eq!(
            tool["outputSchema"]["properties"]["units"]["enum"],
            json!(["celsius", "fahrenheit"])
        );
        assert_eq!(
            tool["outputSchema"]["properties"]["humidity_pct"],
            json!({"type": "integer", "minimum": 0, "maximum": 100, "description": "Relative humidity in percent."})
        );
        for field in [
            "location",
            "condition",
            "temperature",
            "units",
            "temperature_c",
            "humidity_pct",
            "wind_kph",
        ] {
            assert!(
                tool["outputSchema"]["properties"].get(field).is_some(),
                "outputSchema lacks {field}"
            );
        }
        let annotations = &tool["annotations"];
        assert_eq!(annotations["readOnlyHint"], true);
        assert_eq!(annotations["destructiveHint"], false);
        assert_eq!(annotations["idempotentHint"], true);
        assert_eq!(annotations["openWorldHint"], false);
    }

    #[test]
    fn tokyo_result_is_sunny_with_structured_content() {
        let result =
            serde_json::to_value(weather_result("Tokyo", Units::Celsius)).expect("serialize");
        assert_eq!(
            result["content"],
            json!([{"type": "text", "text": "Sunny"}])
        );
        assert_eq!(result["structuredContent"]["location"], "Tokyo");
        assert_eq!(result["structuredContent"]["condition"], "Sunny");
        assert_eq!(result["structuredContent"]["temperature_c"], 22.0);
        assert_eq!(result["structuredContent"]["temperature"], 22.0);
        assert_eq!(result["structuredContent"]["units"], "celsius");
        assert_eq!(result["isError"], false);
    }

    #[test]
    fn fahrenheit_converts_the_temperature_only() {
        let result =
            serde_json::to_value(weather_result("Tokyo", Units::Fahrenheit)).expect("serialize");
        let report = &result["structuredContent"];
        assert_eq!(report["temperature"], 71.6);
        assert_eq!(report["units"], "fahrenheit");
        assert_eq!(report["temperature_c"], 22.0);
        assert_eq!(result["content"][0]["text"], "Sunny");
    }

    #[test]
    fn springfield_names_its_state() {
        let result = serde_json::to_value(weather_result("Springfield, MO", Units::Celsius))
            .expect("serialize");
        assert_eq!(
            result["structuredContent"]["location"],
            "Springfield, Missouri"
        );
        let ambiguous = weather_result("Springfield", Units::Celsius);
        assert_eq!(ambiguous.is_error, Some(true));
    }

    #[test]
    fn unknown_city_is_a_tool_error() {
        let result = weather_result("Atlantis", Units::Celsius);
        assert_eq!(result.is_error, Some(true));
        assert!(result.structured_content.is_none());
        let text = serde_json::to_value(&result.content).expect("serialize");
        let text = text[0]["text"].as_str().unwrap_or_default().to_string();
        assert!(
            text.contains("Atlantis") && text.contains("Tokyo"),
            "{text}"
        );
    }

    #[test]
    fn a_huge_location_is_clipped_in_the_error() {
        let huge = "x".repeat(200_000);
        let result =
            serde_json::to_value(weather_result(&huge, Units::Celsius)).expect("serialize");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.len() < 1_000, "{} bytes", text.len());
        assert!(text.contains("xxx…"));
    }

    #[test]
    fn severity_orders_levels() {
        assert!(severity(LoggingLevel::Debug) < severity(LoggingLevel::Info));
        assert!(severity(LoggingLevel::Info) < severity(LoggingLevel::Warning));
        assert!(severity(LoggingLevel::Alert) < severity(LoggingLevel::Emergency));
    }

    #[test]
    fn server_info() {
        let info = WeatherServer::new().get_info();
        assert_eq!(info.server_info.name, "weather-server");
        assert_eq!(info.server_info.version, env!("CARGO_PKG_VERSION"));
        assert!(info.capabilities.tools.is_some());
        assert!(info.capabilities.logging.is_some());
        assert!(info.instructions.is_some());
    }
}
