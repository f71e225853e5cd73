//! Diagram 2 without a model: a tool called with the arguments a link (`?call=TOOL&args=JSON`) or
//! the connection panel's form gives, the model's rows skipped saying so.

use serde_json::{Value, json};

use super::host::{Host, Stopped};
use crate::diagram::Row;
use crate::llm::{Llm, ToolCall};
use crate::record::payload::SkipReason;
use mcp_flow_client::error::clip;
use mcp_flow_client::http::Http;

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// Diagram 2 without a model: the tool `name` called with `arguments` (a JSON object, as a
    /// link's `?call=TOOL&args=JSON` gives them), the model's turns skipped, the result's text
    /// shown as the answer. Its app, if it has one, is then the page's to render.
    pub async fn call_from_link(&self, name: &str, arguments: &str) -> Result<String, Stopped> {
        *self.last_call.borrow_mut() = None;
        let model = [Row::Question, Row::AskLlm, Row::LlmChoice];
        self.skip(&model, SkipReason::CalledFromLink);
        let arguments: Value = match arguments.trim() {
            "" => json!({}),
            text => serde_json::from_str(text)
                .ok()
                .filter(Value::is_object)
                .ok_or_else(|| {
                    self.fail(
                        Row::CallToolAsk,
                        format!("the link's args are not a JSON object: {}", clip(text, 120)),
                    )
                })?,
        };
        let call = ToolCall {
            id: "link-1".into(),
            name: name.to_owned(),
            arguments,
        };
        let text = if self.approve(&call, 1).await {
            let (content, _, _) = self.call_tool(&call, 1).await?;
            self.relist_if_changed().await?;
            content
        } else {
            self.skip_declined();
            format!("The user declined to run the tool '{name}'.")
        };
        self.skip(
            &[Row::ResultToLlm, Row::LlmAnswer],
            SkipReason::CalledFromLink,
        );
        self.show(text).await
    }
}
