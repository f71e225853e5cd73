//! The MCP handler: server info, the `get_weather` tool, and logging.

// rmcp marks MCP logging as deprecated (SEP-2577), but the protocol
// versions this demo speaks still have it and the demo shows it.
#![allow(deprecated)]

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
        ListToolsResult, LoggingLevel, LoggingMessageNotification, LoggingMessageNotificationParam,
        PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities, ServerConfig,
        ServerNotification, SetLevelRequestParams, Tool, ToolAnnotations,
    },
    schemars::JsonSchema,
    service::RequestContext,
};
use serde::{Deserialize, Serialize};

use crate::{cities, streams::RelatedRequest};

/// The tool's name on the wire.
pub const TOOL_NAME: &str = "get_weather";
/// Logger name used in `notifications/message`.
pub const LOGGER: &str = "weather-server";

const INSTRUCTIONS: &str = "Demo weather service with a fixed table of world cities. \
Call get_weather with a city name (\"Tokyo\", \"Tokyo, Japan\" or \"東京\") to get its \
current condition, temperature, humidity and wind.";

/// Arguments of `get_weather`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct GetWeatherArgs {
    /// City name, e.g. "Tokyo", "Tokyo, Japan" or "東京".
    pub location: String,
}

/// Structured result of `get_weather` (the tool's `outputSchema`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct WeatherReport {
    /// Canonical city name.
    pub location: String,
    /// Current condition, e.g. "Sunny".
    pub condition: String,
    /// Temperature in degrees Celsius.
    pub temperature_c: f64,
    /// Relative humidity in percent.
    #[schemars(schema_with = "percent_schema")]
    pub humidity_pct: u8,
    /// Wind speed in km/h.
    pub wind_kph: f64,
}

/// An integer 0–100, without schemars' `"format": "uint8"`, which JSON Schema validators (such
/// as the TypeScript SDK's) report as unknown.
fn percent_schema(_: &mut rmcp::schemars::SchemaGenerator) -> rmcp::schemars::Schema {
    rmcp::schemars::json_schema!({"type": "integer", "minimum": 0, "maximum": 100})
}

impl From<&cities::City> for WeatherReport {
    fn from(city: &cities::City) -> Self {
        Self {
            location: city.name.to_string(),
            condition: city.condition.to_string(),
            temperature_c: city.temperature_c,
            humidity_pct: city.humidity_pct,
            wind_kph: city.wind_kph,
        }
    }
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
    .with_annotations(
        ToolAnnotations::with_title("Get weather")
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    )
}

/// Builds the tool result for a location: on a hit, one text block holding
/// just the condition (e.g. "Sunny") plus the structured report; otherwise an
/// `isError` result with a helpful message.
pub fn weather_result(location: &str) -> CallToolResult {
    match cities::lookup(location) {
        Ok(city) => {
            let report = WeatherReport::from(city);
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

/// The MCP server. One instance per session (rmcp calls the factory for each
/// new session), so the logging level set here is per session.
#[derive(Debug, Clone, Default)]
pub struct WeatherServer {
    log_level: Arc<Mutex<Option<LoggingLevel>>>,
}

impl WeatherServer {
    pub fn new() -> Self {
        Self::default()
    }

    /// The minimum level the client asked for: the request's own
    /// `_meta` log level (stateless protocol) wins over `logging/setLevel`.
    fn effective_level(&self, context: &RequestContext<RoleServer>) -> Option<LoggingLevel> {
        context.meta.log_level().or_else(|| {
            *self
                .log_level
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        })
    }

    /// Sends `notifications/message` when the client admits `level`. The
    /// notification is marked with the request id so it travels on that
    /// request's SSE stream.
    async fn log(&self, context: &RequestContext<RoleServer>, level: LoggingLevel, text: String) {
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

    async fn progress(&self, context: &RequestContext<RoleServer>, progress: f64, message: &str) {
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

    async fn get_weather(
        &self,
        arguments: Option<rmcp::model::JsonObject>,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let arguments = serde_json::Value::Object(arguments.unwrap_or_default());
        let args: GetWeatherArgs = match serde_json::from_value(arguments) {
            Ok(args) => args,
            Err(error) => {
                return CallToolResult::error(vec![ContentBlock::text(format!(
                    "Invalid arguments for {TOOL_NAME}: {error}. Expected {{\"location\": \"Tokyo\"}}."
                ))]);
            }
        };
        let location = args.location.trim();
        let shown = cities::clip(location, 80);
        tracing::info!(location = %shown, "get_weather called");
        self.log(
            context,
            LoggingLevel::Info,
            format!("get_weather called for {shown}"),
        )
        .await;
        self.progress(context, 0.0, &format!("Looking up {shown}"))
            .await;
        let result = weather_result(location);
        self.progress(context, 1.0, "Done").await;
        result
    }
}

impl ServerHandler for WeatherServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_logging()
                .build(),
        )
        .with_server_info(
            Implementation::new("weather-server", env!("CARGO_PKG_VERSION"))
                .with_title("Weather Server"),
        )
        .with_instructions(INSTRUCTIONS)
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
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(vec![get_weather_tool()]))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        (name == TOOL_NAME).then(get_weather_tool)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if request.name != TOOL_NAME {
            return Err(McpError::invalid_params(
                format!("Unknown tool: {}", request.name),
                None,
            ));
        }
        Ok(self.get_weather(request.arguments, &context).await.into())
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
        assert_eq!(tool["outputSchema"]["type"], "object");
        assert_eq!(
            tool["outputSchema"]["properties"]["humidity_pct"],
            json!({"type": "integer", "minimum": 0, "maximum": 100, "description": "Relative humidity in percent."})
        );
        for field in [
            "location",
            "condition",
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
        let result = serde_json::to_value(weather_result("Tokyo")).expect("serialize");
        assert_eq!(
            result["content"],
            json!([{"type": "text", "text": "Sunny"}])
        );
        assert_eq!(result["structuredContent"]["location"], "Tokyo");
        assert_eq!(result["structuredContent"]["condition"], "Sunny");
        assert!(result["structuredContent"]["temperature_c"].is_number());
        assert_eq!(result["isError"], false);
    }

    #[test]
    fn unknown_city_is_a_tool_error() {
        let result = weather_result("Atlantis");
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
        let result = serde_json::to_value(weather_result(&huge)).expect("serialize");
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
