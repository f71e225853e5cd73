//! Models behind a box, for a page that fetches every model but the offline one as a module of
//! its own (see `mcp_flow_on_demand`): the run holds its model as a `Box<dyn DynLlm>`, so the run's
//! module links only the offline model's code and the others come with theirs.

use futures_util::future::LocalBoxFuture;
use serde_json::Value;

use super::{ChatMessage, Llm, LlmExchange, LlmReply, Style, ToolSpec};
use mcp_flow_client::sampling::SamplingRequest;

/// [`Llm`] with its completion boxed, so a model can be a trait object.
pub trait DynLlm {
    fn label(&self) -> String;
    fn format_tools(&self, tools: &[ToolSpec]) -> Value;
    fn style(&self) -> Style;
    fn complete<'a>(
        &'a self,
        messages: &'a [ChatMessage],
        tools: &'a [ToolSpec],
    ) -> LocalBoxFuture<'a, (Result<LlmReply, String>, LlmExchange)>;
    fn sample<'a>(
        &'a self,
        request: &'a SamplingRequest,
    ) -> LocalBoxFuture<'a, (Result<String, String>, LlmExchange)>;
}

impl<T: Llm> DynLlm for T {
    fn label(&self) -> String {
        Llm::label(self)
    }

    fn format_tools(&self, tools: &[ToolSpec]) -> Value {
        Llm::format_tools(self, tools)
    }

    fn style(&self) -> Style {
        Llm::style(self)
    }

    fn complete<'a>(
        &'a self,
        messages: &'a [ChatMessage],
        tools: &'a [ToolSpec],
    ) -> LocalBoxFuture<'a, (Result<LlmReply, String>, LlmExchange)> {
        Box::pin(Llm::complete(self, messages, tools))
    }

    fn sample<'a>(
        &'a self,
        request: &'a SamplingRequest,
    ) -> LocalBoxFuture<'a, (Result<String, String>, LlmExchange)> {
        Box::pin(Llm::sample(self, request))
    }
}

/// A boxed model is a model: the page holds its run's model as `Box<dyn DynLlm>`.
impl Llm for Box<dyn DynLlm> {
    fn label(&self) -> String {
        DynLlm::label(&**self)
    }

    fn format_tools(&self, tools: &[ToolSpec]) -> Value {
        DynLlm::format_tools(&**self, tools)
    }

    fn style(&self) -> Style {
        DynLlm::style(&**self)
    }

    async fn complete(
        &self,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> (Result<LlmReply, String>, LlmExchange) {
        DynLlm::complete(&**self, messages, tools).await
    }

    async fn sample(&self, request: &SamplingRequest) -> (Result<String, String>, LlmExchange) {
        DynLlm::sample(&**self, request).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::choice::{LlmSettings, ModelSupport, Provider};
    use crate::llm::offline::OfflineModel;
    use crate::llm::smollm::worker::ModelWorker;
    use crate::llm::you::UserTurns;
    use mcp_flow_client::scripted::Scripted;
    use std::rc::Rc;

    /// A boxed model answers as the model in the box: its label, its tool format, its reply.
    #[test]
    fn a_boxed_model_is_the_model_it_holds() {
        let http = Rc::new(Scripted::default());
        let seats = ModelSupport {
            desk: UserTurns::new(|_| ()),
            model: ModelWorker::new("/models/m.gguf".into(), |_| ()),
            on_text: Rc::new(|_| ()),
        };
        let mut settings = LlmSettings::new(Provider::Anthropic);
        settings.set(crate::llm::choice::Field::Model, "claude".into());
        let inner = settings.build(http.clone(), http.clone(), &seats);
        let boxed: Box<dyn DynLlm> = Box::new(settings.build(http.clone(), http.clone(), &seats));
        let tools = [crate::llm::weather_tool()];
        assert_eq!(Llm::label(&boxed), Llm::label(&inner));
        let formatted = Llm::format_tools(&boxed, &tools);
        assert_eq!(formatted, Llm::format_tools(&inner, &tools));
        assert!(
            formatted[0].get("input_schema").is_some(),
            "Anthropic's format: {formatted}"
        );

        let offline: Box<dyn DynLlm> = Box::new(OfflineModel::new(http.clone()));
        let question = [ChatMessage::User("What's the weather in Tokyo?".into())];
        let (reply, _) = futures_executor::block_on(Llm::complete(&offline, &question, &tools));
        match reply {
            Ok(LlmReply::ToolCalls(calls)) => assert_eq!(calls[0].name, "get_weather"),
            other => panic!("the offline model in place did not call the tool: {other:?}"),
        }
    }
}
