//! The tutorial's calculator server (`001_…`, `004_…`), served at `/calc` beside the weather tool:
//! `add`, `subtract`, `multiply` and `divide` (division by zero is a tool error, not a protocol
//! error) and the resource `config://app`.

use std::{borrow::Cow, sync::Arc};

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
        ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
        ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
        ResourceContents, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
    },
    schemars::JsonSchema,
    service::RequestContext,
};
use serde::{Deserialize, Serialize};

use crate::era::Era;

/// The app configuration resource, as in tutorial document `001_…`.
pub const CONFIG_URI: &str = "config://app";
const CONFIG: &str = r#"{"version": "1.0.0", "theme": "dark"}"#;

/// Arguments of every operation.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Operands {
    /// First number.
    pub a: f64,
    /// Second number.
    pub b: f64,
}

/// Structured result: the operation, its operands and the result (tutorial document `001_…`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Calculation {
    pub operation: String,
    pub a: f64,
    pub b: f64,
    pub result: f64,
}

/// (name, description) of each operation.
pub const OPERATIONS: [(&str, &str); 4] = [
    ("add", "Add two numbers: a + b"),
    ("subtract", "Subtract two numbers: a - b"),
    ("multiply", "Multiply two numbers: a times b"),
    (
        "divide",
        "Divide two numbers: a divided by b (b must not be zero)",
    ),
];

pub fn tools() -> Vec<Tool> {
    OPERATIONS
        .iter()
        .map(|(name, description)| {
            Tool::new(*name, *description, Arc::new(Default::default()))
                .with_input_schema::<Operands>()
                .with_output_schema::<Calculation>()
                .with_annotations(
                    ToolAnnotations::new()
                        .read_only(true)
                        .destructive(false)
                        .idempotent(true)
                        .open_world(false),
                )
        })
        .collect()
}

/// Runs one operation; `None` for an unknown name.
pub fn calculate(name: &str, args: &Operands) -> Option<CallToolResult> {
    let (a, b) = (args.a, args.b);
    let result = match name {
        "add" => a + b,
        "subtract" => a - b,
        "multiply" => a * b,
        "divide" if b == 0.0 => {
            return Some(CallToolResult::error(vec![ContentBlock::text(
                "Division by zero is not allowed",
            )]));
        }
        "divide" => a / b,
        _ => return None,
    };
    let mut out = CallToolResult::success(vec![ContentBlock::text(format_number(result))]);
    out.structured_content = serde_json::to_value(Calculation {
        operation: name.to_owned(),
        a,
        b,
        result,
    })
    .ok();
    Some(out)
}

/// 333 rather than 333.0; other values as Rust prints them.
fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

#[derive(Debug, Clone, Default)]
pub struct CalculatorServer {
    era: Era,
}

impl CalculatorServer {
    pub fn new(era: Era) -> Self {
        Self { era }
    }
}

impl ServerHandler for CalculatorServer {
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(self.era.supported_versions())
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(
            Implementation::new("calculator-server", env!("CARGO_PKG_VERSION"))
                .with_title("Calculator Server"),
        )
        .with_instructions("A calculator: add, subtract, multiply and divide two numbers a and b.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if !OPERATIONS.iter().any(|(n, _)| *n == request.name) {
            return Err(McpError::invalid_params(
                format!("Unknown tool: {}", request.name),
                None,
            ));
        }
        let args = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let result = match serde_json::from_value::<Operands>(args) {
            Ok(args) => calculate(&request.name, &args),
            Err(e) => Some(CallToolResult::error(vec![ContentBlock::text(format!(
                "Invalid arguments for {}: {e}. Expected {{\"a\": 3, \"b\": 111}}.",
                request.name
            ))])),
        };
        result
            .map(Into::into)
            .ok_or_else(|| McpError::invalid_params("Unknown tool", None))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new(CONFIG_URI, "config")
                .with_description("The application's configuration")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        if request.uri != CONFIG_URI {
            return Err(McpError::resource_not_found(
                format!("No resource {}", request.uri),
                None,
            ));
        }
        Ok(ReadResourceResult::new(vec![ResourceContents::text(CONFIG, CONFIG_URI)]).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(name: &str, a: f64, b: f64) -> serde_json::Value {
        serde_json::to_value(calculate(name, &Operands { a, b }).expect("known tool")).unwrap()
    }

    #[test]
    fn the_four_operations_and_division_by_zero() {
        assert_eq!(run("multiply", 3.0, 111.0)["content"][0]["text"], "333");
        assert_eq!(
            run("multiply", 3.0, 111.0)["structuredContent"],
            json!({"operation": "multiply", "a": 3.0, "b": 111.0, "result": 333.0})
        );
        assert_eq!(run("add", 2.0, 40.0)["content"][0]["text"], "42");
        assert_eq!(run("subtract", 10.0, 4.5)["content"][0]["text"], "5.5");
        assert_eq!(run("divide", 1.0, 4.0)["content"][0]["text"], "0.25");
        let zero = run("divide", 1.0, 0.0);
        assert_eq!(zero["isError"], true);
        assert_eq!(
            zero["content"][0]["text"],
            "Division by zero is not allowed"
        );
        assert!(calculate("power", &Operands { a: 1.0, b: 2.0 }).is_none());
    }

    #[test]
    fn tools_declare_numeric_operands() {
        let tools = serde_json::to_value(tools()).unwrap();
        assert_eq!(tools.as_array().unwrap().len(), 4);
        assert_eq!(tools[2]["name"], "multiply");
        assert_eq!(tools[2]["inputSchema"]["properties"]["a"]["type"], "number");
        assert_eq!(tools[2]["inputSchema"]["required"], json!(["a", "b"]));
    }
}
