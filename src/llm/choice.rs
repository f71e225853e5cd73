//! Which model the host talks to, chosen in the settings: the built-in offline model, or an
//! OpenAI-compatible endpoint. The key lives in memory only and is never printed.

use serde_json::Value;

use super::offline::OfflineModel;
use super::openai_compat::{OpenAiCompatible, Style};
use super::{ChatMessage, Llm, LlmExchange, LlmReply, ToolSpec};
use crate::mcp::http::Http;

/// The settings for the LLM participant.
#[derive(Clone, PartialEq)]
pub enum LlmSettings {
    Offline,
    OpenAi {
        base_url: String,
        model: String,
        key: String,
        style: Style,
    },
}

impl std::fmt::Debug for LlmSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Offline => write!(f, "Offline"),
            Self::OpenAi {
                base_url,
                model,
                key,
                style,
            } => write!(
                f,
                "OpenAi {{ base_url: {base_url:?}, model: {model:?}, key: {}, style: {style:?} }}",
                if key.is_empty() { "none" } else { "[redacted]" }
            ),
        }
    }
}

/// A text setting of an OpenAI-compatible endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    BaseUrl,
    Model,
    Key,
}

impl LlmSettings {
    /// Changes one text setting (nothing for the offline model).
    pub fn set(&mut self, field: Field, value: String) {
        if let Self::OpenAi {
            base_url,
            model,
            key,
            ..
        } = self
        {
            *match field {
                Field::BaseUrl => base_url,
                Field::Model => model,
                Field::Key => key,
            } = value;
        }
    }

    pub fn set_style(&mut self, new: Style) {
        if let Self::OpenAi { style, .. } = self {
            *style = new;
        }
    }

    /// A text setting's value, for showing it (never the key).
    pub fn shown(&self, field: Field) -> String {
        match (self, field) {
            (Self::OpenAi { base_url, .. }, Field::BaseUrl) => base_url.clone(),
            (Self::OpenAi { model, .. }, Field::Model) => model.clone(),
            _ => String::new(),
        }
    }

    /// The LLM participant's subtitle.
    pub fn label(&self) -> String {
        match self {
            Self::Offline => OfflineModel.label(),
            Self::OpenAi { model, .. } => format!("{model} (OpenAI-compatible)"),
        }
    }

    pub fn build<H: Http>(&self, http: H) -> AnyLlm<H> {
        match self {
            Self::Offline => AnyLlm::Offline(OfflineModel),
            Self::OpenAi {
                base_url,
                model,
                key,
                style,
            } => AnyLlm::OpenAi(OpenAiCompatible {
                http,
                base_url: base_url.clone(),
                model: model.clone(),
                key: Some(key.clone()).filter(|k| !k.is_empty()),
                style: *style,
            }),
        }
    }
}

/// One of the backends, behind the one interface.
pub enum AnyLlm<H: Http> {
    Offline(OfflineModel),
    OpenAi(OpenAiCompatible<H>),
}

impl<H: Http> Llm for AnyLlm<H> {
    fn label(&self) -> String {
        match self {
            Self::Offline(m) => m.label(),
            Self::OpenAi(m) => m.label(),
        }
    }

    fn format_tools(&self, tools: &[ToolSpec]) -> Value {
        match self {
            Self::Offline(m) => m.format_tools(tools),
            Self::OpenAi(m) => m.format_tools(tools),
        }
    }

    async fn complete(
        &self,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> (Result<LlmReply, String>, LlmExchange) {
        match self {
            Self::Offline(m) => m.complete(messages, tools).await,
            Self::OpenAi(m) => m.complete(messages, tools).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::scripted::Scripted;
    use std::rc::Rc;

    fn openai() -> LlmSettings {
        LlmSettings::OpenAi {
            base_url: "http://127.0.0.1:11434/v1".into(),
            model: "qwen2.5".into(),
            key: "sk-secret".into(),
            style: Style::SystemPrompt,
        }
    }

    #[test]
    fn settings_build_the_chosen_backend() {
        let http = Rc::new(Scripted::default());
        assert!(matches!(
            LlmSettings::Offline.build(http.clone()),
            AnyLlm::Offline(_)
        ));
        match openai().build(http) {
            AnyLlm::OpenAi(m) => {
                assert_eq!(m.key.as_deref(), Some("sk-secret"));
                assert_eq!(m.style, Style::SystemPrompt);
                assert_eq!(m.label(), "qwen2.5 (OpenAI-compatible)");
            }
            AnyLlm::Offline(_) => panic!("expected the OpenAI-compatible backend"),
        }
        assert_eq!(LlmSettings::Offline.label(), "Built-in offline model");
    }

    #[test]
    fn fields_are_edited_in_place_and_the_key_is_never_shown() {
        let mut s = openai();
        s.set(Field::Model, "llama3.2".into());
        s.set(Field::Key, "sk-other".into());
        s.set_style(Style::FunctionCalling);
        assert_eq!(s.shown(Field::Model), "llama3.2");
        assert_eq!(s.shown(Field::Key), "");
        assert_eq!(s.label(), "llama3.2 (OpenAI-compatible)");
        let mut offline = LlmSettings::Offline;
        offline.set(Field::Model, "x".into());
        assert_eq!(offline, LlmSettings::Offline);
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let text = format!("{:?}", openai());
        assert!(!text.contains("sk-secret"), "{text}");
        assert!(text.contains("[redacted]"));
    }
}
