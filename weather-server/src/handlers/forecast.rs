//! `get_forecast`, the long-running tool served at `/forecast`: a few days' outlook for a city,
//! worked out one day at a time (a second a day). A request that declared the tasks extension
//! (2026-07-28, SEP-2663) gets a task at once and follows it with `tasks/get`; any other
//! request waits for the result in the answer. Served on its own endpoint so the default
//! endpoint's `tools/list` stays the one tool the seeds draw.

use std::{sync::Arc, time::Duration};

use rmcp::{
    ErrorData as McpError, RoleServer,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CreateTaskResult,
        Tool, ToolAnnotations,
    },
    schemars::JsonSchema,
    service::RequestContext,
    task_manager::{TaskContext, TaskExit, TaskOptions},
};
use serde::{Deserialize, Serialize};

use crate::{
    handlers::cities::{self, City},
    handlers::weather::{CallOutcome, Extra, WeatherServer},
};

/// The tool's name on the wire.
pub const FORECAST_TOOL: &str = "get_forecast";
/// Days forecast when the call names none, and at most.
pub const DEFAULT_DAYS: u8 = 3;
pub const MAX_DAYS: u8 = 5;
/// How often a client should poll the task (its `pollIntervalMs`).
pub const POLL_INTERVAL_MS: u64 = 500;
/// How long a finished task stays readable (its `ttlMs`).
pub const TASK_TTL_MS: u64 = 5 * 60 * 1000;

/// Arguments of `get_forecast`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct ForecastArgs {
    /// City name, e.g. "Tokyo".
    pub location: String,
    /// Days to forecast, 1 to 5 (default 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 5))]
    pub days: Option<u8>,
}

/// One day of the outlook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct ForecastDay {
    /// 1 for tomorrow.
    pub day: u8,
    pub condition: String,
    pub high_c: f64,
    pub low_c: f64,
}

/// Structured result of `get_forecast` (its `outputSchema`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Forecast {
    pub location: String,
    pub days: Vec<ForecastDay>,
}

/// The conditions a forecast cycles through, from the city's current one.
const CONDITIONS: [&str; 5] = ["Sunny", "Partly cloudy", "Cloudy", "Rain", "Clear"];

/// Day `day` (1-based) of `city`'s outlook: demo data derived from today's report, the same for
/// the same city and day.
pub fn day(city: &City, day: u8) -> ForecastDay {
    let start = CONDITIONS
        .iter()
        .position(|c| c.eq_ignore_ascii_case(city.condition))
        .unwrap_or(0);
    let swing = f64::from(day % 3) - 1.0;
    let high = city.temperature_c + swing;
    ForecastDay {
        day,
        condition: CONDITIONS[(start + usize::from(day)) % CONDITIONS.len()].to_owned(),
        high_c: (high * 10.0).round() / 10.0,
        low_c: ((high - 6.0) * 10.0).round() / 10.0,
    }
}

/// The tool's result: one line per day, and the structured forecast.
pub fn result(city: &City, days: &[ForecastDay]) -> CallToolResult {
    let lines: Vec<String> = days
        .iter()
        .map(|d| {
            format!(
                "Day {}: {}, {}–{} °C",
                d.day, d.condition, d.low_c, d.high_c
            )
        })
        .collect();
    let forecast = Forecast {
        location: city.full_name(),
        days: days.to_vec(),
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(format!(
        "{}\n{}",
        forecast.location,
        lines.join("\n")
    ))]);
    result.structured_content = serde_json::to_value(&forecast).ok();
    result
}

/// The `get_forecast` definition: it may run as a task (`execution.taskSupport` is not part of
/// SEP-2663; the server's tasks extension is what a client reads).
pub fn forecast_tool() -> Tool {
    Tool::new(
        FORECAST_TOOL,
        "Get a city's weather forecast for the next days (takes about a second per day)",
        Arc::new(Default::default()),
    )
    .with_input_schema::<ForecastArgs>()
    .with_output_schema::<Forecast>()
    .with_title("Get forecast")
    .with_annotations(
        ToolAnnotations::with_title("Get forecast")
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    )
}

/// How long one day takes to work out.
#[derive(Debug, Clone, Copy)]
pub struct ForecastTool {
    pub per_day: Duration,
}

impl Default for ForecastTool {
    fn default() -> Self {
        Self {
            per_day: Duration::from_secs(1),
        }
    }
}

/// The city and day count a call asks for, or its error as the tool's result.
fn parse(request: &CallToolRequestParams) -> Result<(&'static City, u8), CallToolResult> {
    let value = serde_json::Value::Object(request.arguments.clone().unwrap_or_default());
    let args: ForecastArgs = serde_json::from_value(value).map_err(|e| {
        CallToolResult::error(vec![ContentBlock::text(format!(
            "Invalid arguments for get_forecast: {e}"
        ))])
    })?;
    let days = args.days.unwrap_or(DEFAULT_DAYS);
    if !(1..=MAX_DAYS).contains(&days) {
        return Err(CallToolResult::error(vec![ContentBlock::text(format!(
            "days must be 1 to {MAX_DAYS}, not {days}"
        ))]));
    }
    let city = cities::lookup(&args.location)
        .map_err(|e| CallToolResult::error(vec![ContentBlock::text(e.to_string())]))?;
    Ok((city, days))
}

impl ForecastTool {
    /// Works out `days` days, saying which one in the task's status message when there is a
    /// task; stops when the task is cancelled.
    async fn work(
        self,
        city: &'static City,
        days: u8,
        task: Option<&TaskContext>,
    ) -> Result<CallToolResult, TaskExit> {
        let mut outlook = Vec::new();
        for d in 1..=days {
            if let Some(task) = task {
                task.set_status_message(format!(
                    "Forecasting day {d} of {days} for {}",
                    city.full_name()
                ));
                tokio::select! {
                    _ = task.cancelled() => return Err(TaskExit::Cancelled),
                    _ = tokio::time::sleep(self.per_day) => {}
                }
            } else {
                tokio::time::sleep(self.per_day).await;
            }
            outlook.push(day(city, d));
        }
        Ok(result(city, &outlook))
    }

    async fn call(
        self,
        server: &WeatherServer,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let (city, days) = match parse(request) {
            Ok(asked) => asked,
            Err(error) => return Ok(error.into()),
        };
        let takes_tasks = context
            .client_capabilities()
            .is_some_and(|caps| caps.supports_tasks());
        if !takes_tasks {
            return match self.work(city, days, None).await {
                Ok(result) => Ok(result.into()),
                Err(_) => Err(McpError::internal_error("the forecast stopped", None)),
            };
        }
        let options = TaskOptions::new()
            .with_poll_interval_ms(POLL_INTERVAL_MS)
            .with_ttl_ms(TASK_TTL_MS)
            .with_status_message(format!("Forecast for {} queued", city.full_name()));
        let task = server.tasks().spawn(options, move |ctx| {
            Box::pin(async move { self.work(city, days, Some(&ctx)).await })
        });
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }
}

impl Extra for ForecastTool {
    fn tools(&self) -> Vec<Tool> {
        vec![forecast_tool()]
    }

    fn call_tool<'a>(
        &'a self,
        server: &'a WeatherServer,
        request: &'a CallToolRequestParams,
        context: &'a RequestContext<RoleServer>,
    ) -> CallOutcome<'a> {
        Box::pin(async move {
            (request.name == FORECAST_TOOL).then_some(())?;
            Some(self.call(server, request, context).await)
        })
    }

    fn runs_tasks(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tokyo() -> &'static City {
        cities::lookup("Tokyo").expect("Tokyo")
    }

    #[test]
    fn an_outlook_goes_on_from_todays_condition_and_temperature() {
        // Tokyo is sunny at 22 °C today: the days after cycle on from "Sunny", the high
        // swinging by a degree around today's temperature, the low six under it.
        assert_eq!((tokyo().condition, tokyo().temperature_c), ("Sunny", 22.0));
        let days: Vec<(String, f64, f64)> = (1..=5)
            .map(|d| day(tokyo(), d))
            .map(|d| (d.condition, d.high_c, d.low_c))
            .collect();
        let want = [
            ("Partly cloudy", 22.0, 16.0),
            ("Cloudy", 23.0, 17.0),
            ("Rain", 21.0, 15.0),
            ("Clear", 22.0, 16.0),
            ("Sunny", 23.0, 17.0),
        ];
        let want: Vec<(String, f64, f64)> = want
            .iter()
            .map(|(c, h, l)| (c.to_string(), *h, *l))
            .collect();
        assert_eq!(days, want);
    }

    #[test]
    fn the_result_has_a_line_per_day_and_the_structured_days() {
        let days = [day(tokyo(), 1), day(tokyo(), 2)];
        let result = result(tokyo(), &days);
        let text = result.content[0].as_text().map(|t| t.text.clone());
        let text = text.unwrap_or_default();
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.starts_with("Tokyo\nDay 1: Partly cloudy"), "{text}");
        let structured = result.structured_content.expect("structured");
        assert_eq!(structured["days"].as_array().map(Vec::len), Some(2));
        assert_eq!(structured["days"][1]["day"], json!(2));
    }

    #[test]
    fn bad_arguments_are_the_tools_error_not_a_protocol_error() {
        let mut request = CallToolRequestParams::new(FORECAST_TOOL);
        request.arguments = json!({"location": "Tokyo", "days": 9}).as_object().cloned();
        let error = parse(&request).expect_err("9 days");
        assert_eq!(error.is_error, Some(true));
        request.arguments = json!({"location": "Atlantis"}).as_object().cloned();
        assert!(parse(&request).is_err());
        request.arguments = json!({"location": "東京"}).as_object().cloned();
        assert_eq!(parse(&request).map(|(c, d)| (c.name, d)), Ok(("Tokyo", 3)));
    }
}
