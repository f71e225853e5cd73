//! Resources, templates, prompts and completion, in either era: the lists, `resources/read` (its
//! `Mcp-Name` is the URI), `prompts/get` (its `Mcp-Name` is the prompt's name) and
//! `completion/complete`. The app's diagrams use tools only so far; the command-line client
//! (`--browse`) and the conformance suite use these.

use rmcp::model::{
    ArgumentInfo, CompleteRequestMethod, CompleteRequestParams, GetPromptRequestMethod,
    GetPromptRequestParams, ListPromptsRequestMethod, ListResourceTemplatesRequestMethod,
    ListResourcesRequestMethod, PaginatedRequestParams, ReadResourceRequestMethod,
    ReadResourceRequestParams, Reference,
};
use serde_json::{Map, Value};

use crate::client::McpClient;
use crate::error::McpError;
use crate::http::Http;

impl<H: Http> McpClient<H> {
    /// resources/list (the first page), as the server sent it.
    pub async fn list_resources(&self) -> Result<Value, McpError> {
        self.request(
            ListResourcesRequestMethod,
            &PaginatedRequestParams::default(),
        )
        .await
    }

    /// resources/templates/list (the first page), as the server sent it.
    pub async fn list_resource_templates(&self) -> Result<Value, McpError> {
        self.request(
            ListResourceTemplatesRequestMethod,
            &PaginatedRequestParams::default(),
        )
        .await
    }

    /// completion/complete of `argument`, typed so far as `value`, for a template
    /// (`ref/resource`) or a prompt (`ref/prompt`).
    pub async fn complete(
        &self,
        reference: Reference,
        argument: &str,
        value: &str,
    ) -> Result<Value, McpError> {
        let params = CompleteRequestParams::new(reference, ArgumentInfo::new(argument, value));
        self.request(CompleteRequestMethod, &params).await
    }

    /// resources/read of `uri` (sent exactly as given: percent-encoding stays).
    pub async fn read_resource(&self, uri: &str) -> Result<Value, McpError> {
        self.request(
            ReadResourceRequestMethod,
            &ReadResourceRequestParams::new(uri),
        )
        .await
    }

    /// prompts/list (the first page), as the server sent it.
    pub async fn list_prompts(&self) -> Result<Value, McpError> {
        self.request(ListPromptsRequestMethod, &PaginatedRequestParams::default())
            .await
    }

    /// prompts/get of `name` with string `arguments`.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<Value, McpError> {
        let mut params = GetPromptRequestParams::new(name);
        if !arguments.is_empty() {
            params.arguments = Some(arguments);
        }
        self.request(GetPromptRequestMethod, &params).await
    }
}
