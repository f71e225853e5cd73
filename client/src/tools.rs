//! tools/list and tools/call in both eras. Modern answers carry caching hints on tools/list and
//! may ask for input before a tool completes (`resultType: "input_required"`, MRTR): the caller
//! gets the server's questions and retries with the answers under a new request id.

use rmcp::model::{
    CallToolRequestMethod, CallToolRequestParams, CallToolResult, ConstString,
    ListToolsRequestMethod, ListToolsResult, NumberOrString, PaginatedRequestParams, ProgressToken,
    RequestParamsMeta, Tool,
};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{Map, Value};

use crate::client::McpClient;
use crate::era::Era;
use crate::error::McpError;

use crate::http::Http;
use crate::modern;
pub use crate::questions::{InputRequired, Question};
use crate::questions::{URL_REQUIRED, read_input_required, read_url_required};
use mcp_flow_on_demand::{OnDemandError, call_on_demand};

/// tools/list stops following `nextCursor` after this many pages.
const MAX_PAGES: usize = 100;

/// What tools/list gave.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolList {
    pub tools: Vec<Tool>,
    /// Tools left out, with why (modern era: an invalid `x-mcp-header`).
    pub dropped: Vec<(String, String)>,
    /// The caching hints of the (first) page, modern era.
    pub ttl_ms: Option<u64>,
    pub cache_scope: Option<String>,
    /// Tools whose `execution.taskSupport` is `optional` or `required` (2025-11-25 tasks; the
    /// field is not in rmcp's `Tool`, so it is read from the page as sent).
    pub task_tools: Vec<String>,
}

/// How a tools/call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum CallOutcome {
    Complete(CallToolResult),
    /// The server needs answers first (modern era).
    InputRequired(InputRequired),
}

/// The answers to an [`InputRequired`], for the retry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Retry {
    /// `inputResponses`: each key's answer (an `ElicitResult` for a form).
    pub responses: Map<String, Value>,
    /// `requestState`, exactly as the server sent it.
    pub state: Option<String>,
}

impl<H: Http> McpClient<H> {
    /// tools/list, following `nextCursor` until the last page.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, McpError> {
        Ok(self.tool_list().await?.tools)
    }

    /// tools/list with what the modern era adds: tools with invalid `x-mcp-header` annotations
    /// left out (and named), and the caching hints.
    pub async fn tool_list(&self) -> Result<ToolList, McpError> {
        let mut list = ToolList {
            tools: Vec::new(),
            dropped: Vec::new(),
            ttl_ms: None,
            cache_scope: None,
            task_tools: Vec::new(),
        };
        let mut cursor: Option<String> = None;
        for page_number in 0..MAX_PAGES {
            let params = PaginatedRequestParams::default().with_cursor(cursor.clone());
            let result = self.request(ListToolsRequestMethod, &params).await?;
            if page_number == 0 {
                list.ttl_ms = result.get("ttlMs").and_then(Value::as_u64);
                list.cache_scope = result
                    .get("cacheScope")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
            list.task_tools.extend(crate::tasks::task_tools(&result));
            let page: ListToolsResult = serde_json::from_value(result)
                .map_err(|e| McpError::Invalid(format!("tools/list result does not parse: {e}")))?;
            for tool in page.tools {
                self.admit(tool, &mut list);
            }
            match page.next_cursor {
                Some(next) if !next.is_empty() => cursor = Some(next),
                _ => return Ok(list),
            }
        }
        Err(McpError::Invalid(format!(
            "tools/list still had a nextCursor after {MAX_PAGES} pages"
        )))
    }

    /// Takes the header annotations of a list read earlier (reused from the page's cache).
    pub fn remember_annotations(&self, list: &ToolList) {
        for tool in &list.tools {
            if let Ok(annotated) = modern::param_headers(&tool.input_schema) {
                self.annotations
                    .borrow_mut()
                    .insert(tool.name.to_string(), annotated);
            }
        }
    }

    /// Keeps `tool` (remembering its header annotations) or, in the modern era, drops it when
    /// its annotations break the spec's rules.
    fn admit(&self, tool: Tool, list: &mut ToolList) {
        if self.era() != Era::Modern {
            list.tools.push(tool);
            return;
        }
        match modern::param_headers(&tool.input_schema) {
            Ok(annotated) => {
                self.annotations
                    .borrow_mut()
                    .insert(tool.name.to_string(), annotated);
                list.tools.push(tool);
            }
            Err(why) => list.dropped.push((tool.name.to_string(), why)),
        }
    }

    /// tools/call with `arguments`, a JSON object (`null` sends none). A tool that failed is a
    /// normal result with `is_error == Some(true)`. A server that asks for input first is an
    /// error here: see [`McpClient::call`].
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
        progress_token: Option<&str>,
    ) -> Result<CallToolResult, McpError> {
        match self.call(name, arguments, progress_token, None).await? {
            CallOutcome::Complete(result) => Ok(result),
            CallOutcome::InputRequired(asked) if asked.url_required => {
                Err(McpError::Invalid(format!(
                    "{name} needs pages opened first (error -32042): {}",
                    asked.pages().join(", ")
                )))
            }
            CallOutcome::InputRequired(_) => Err(McpError::Invalid(format!(
                "{name} asked for input (input_required) and this call cannot answer"
            ))),
        }
    }

    /// tools/call, or its retry with the answers to what the server asked. Every call has a new
    /// request id.
    pub async fn call(
        &self,
        name: &str,
        arguments: Value,
        progress_token: Option<&str>,
        retry: Option<Retry>,
    ) -> Result<CallOutcome, McpError> {
        let mut params = CallToolRequestParams::new(name.to_owned());
        match arguments {
            Value::Object(arguments) => params = params.with_arguments(arguments),
            Value::Null => {}
            other => {
                return Err(McpError::Invalid(format!(
                    "the arguments of {name} must be a JSON object, not {other}"
                )));
            }
        }
        if let Some(token) = progress_token {
            params.set_progress_token(ProgressToken(NumberOrString::String(token.into())));
        }
        if let Some(retry) = retry {
            params = params.with_input_responses(retry.responses.into_iter().collect());
            if let Some(state) = retry.state {
                params = params.with_request_state(state);
            }
        }
        let result = match self.request(CallToolRequestMethod, &params).await {
            Err(McpError::Protocol {
                code: URL_REQUIRED,
                data: Some(data),
                ..
            }) => return read_url_required_error(data).await,
            other => other?,
        };
        read_call(result).await
    }
}

/// The pages an error -32042 asks to be opened first, as the server's questions (read by the
/// reader fetched on demand, like `input_required`).
async fn read_url_required_error(data: Value) -> Result<CallOutcome, McpError> {
    match call_on_demand!(read_url_required(data)) {
        Ok(asked) => Ok(CallOutcome::InputRequired(asked)),
        Err(OnDemandError::Failed(e)) => Err(McpError::Invalid(e)),
        Err(OnDemandError::NotLoaded) => Err(McpError::NotLoaded {
            what: "an error -32042 (URL elicitation required)",
        }),
    }
}

/// Reads a tools/call result by its `resultType` (absent means complete, as older servers send).
/// An `input_required` result is read by [`read_input_required`], which the release build
/// fetches on demand: only servers that ask the user something need it.
pub async fn read_call(result: Value) -> Result<CallOutcome, McpError> {
    let method = CallToolRequestMethod::VALUE;
    match result.get("resultType").and_then(Value::as_str) {
        None | Some("complete") => serde_json::from_value(result)
            .map(CallOutcome::Complete)
            .map_err(|e| McpError::Invalid(format!("{method} result does not parse: {e}"))),
        Some("input_required") => match call_on_demand!(read_input_required(result)) {
            Ok(asked) => Ok(CallOutcome::InputRequired(asked)),
            Err(OnDemandError::Failed(e)) => Err(McpError::Invalid(e)),
            Err(OnDemandError::NotLoaded) => Err(McpError::NotLoaded {
                what: "an input_required result",
            }),
        },
        Some(other) => Err(McpError::Invalid(format!(
            "{method}: unrecognised resultType {other:?} (a client must treat it as invalid)"
        ))),
    }
}

/// tools/list answers that said how long they stay fresh (`ttlMs`), by server URL, for the
/// page's lifetime: a later run within the time reuses the list instead of asking again.
#[derive(Debug, Clone, Default)]
pub struct ToolsCache(Rc<RefCell<HashMap<String, (f64, ToolList)>>>);

impl ToolsCache {
    /// The list `url` gave at most its `ttlMs` ago (`now_ms` on the same clock as [`Self::put`]),
    /// with when it came.
    pub fn fresh(&self, url: &str, now_ms: f64) -> Option<(f64, ToolList)> {
        let cache = self.0.borrow();
        let (at, list) = cache.get(url)?;
        let ttl = list.ttl_ms.unwrap_or(0) as f64;
        (ttl > 0.0 && now_ms - at < ttl).then(|| (*at, list.clone()))
    }

    /// Drops what `url` gave (the server said its tools changed).
    pub fn forget(&self, url: &str) {
        self.0.borrow_mut().remove(url);
    }

    pub fn put(&self, url: &str, now_ms: f64, list: &ToolList) {
        if list.ttl_ms.unwrap_or(0) > 0 {
            self.0
                .borrow_mut()
                .insert(url.to_owned(), (now_ms, list.clone()));
        }
    }
}

/// The text blocks of a tool result, joined by newlines.
pub fn result_text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ElicitRequestParams;
    use serde_json::json;

    #[test]
    fn a_list_is_reused_only_within_its_ttl() {
        let cache = ToolsCache::default();
        let list = |ttl| ToolList {
            tools: Vec::new(),
            dropped: Vec::new(),
            ttl_ms: ttl,
            cache_scope: Some("public".into()),
            task_tools: Vec::new(),
        };
        cache.put("a", 1000.0, &list(Some(500)));
        assert!(cache.fresh("a", 1499.0).is_some());
        assert!(cache.fresh("a", 1500.0).is_none());
        assert!(cache.fresh("b", 1000.0).is_none());
        cache.put("z", 0.0, &list(Some(0)));
        cache.put("n", 0.0, &list(None));
        assert!(cache.fresh("z", 0.0).is_none() && cache.fresh("n", 0.0).is_none());
    }

    #[test]
    fn results_are_read_by_their_result_type() {
        let read = |v| futures_executor::block_on(read_call(v));
        let done = json!({"content": [{"type": "text", "text": "Sunny"}]});
        assert!(
            matches!(read(done).unwrap(), CallOutcome::Complete(r) if result_text(&r) == "Sunny")
        );
        let explicit = json!({"resultType": "complete", "content": []});
        assert!(matches!(read(explicit).unwrap(), CallOutcome::Complete(_)));
        let asked = json!({"resultType": "input_required", "requestState": "s-1",
            "inputRequests": {"city": {"method": "elicitation/create", "params": {
                "mode": "form", "message": "Which Springfield?",
                "requestedSchema": {"type": "object", "properties": {"city": {"type": "string",
                    "enum": ["Springfield, IL", "Springfield, MA"]}}, "required": ["city"]}}},
              "roots": {"method": "roots/list"}}});
        let CallOutcome::InputRequired(ir) = read(asked).unwrap() else {
            panic!("expected input_required");
        };
        assert_eq!(ir.state.as_deref(), Some("s-1"));
        assert_eq!(ir.questions.len(), 2);
        assert_eq!(ir.questions[0].0, "city");
        assert!(
            matches!(&ir.questions[0].1, Question::Form(ElicitRequestParams::FormElicitationParams { message, .. }) if message == "Which Springfield?")
        );
        assert_eq!(ir.questions[1].1, Question::Roots);
        let odd = read(json!({"resultType": "task", "content": []})).unwrap_err();
        assert!(
            odd.to_string().contains("unrecognised resultType \"task\""),
            "{odd}"
        );
        let empty = read(json!({"resultType": "input_required"})).unwrap_err();
        assert!(empty.to_string().contains("does not parse"), "{empty}");
    }
}
