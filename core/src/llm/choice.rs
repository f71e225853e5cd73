//! Which model the host talks to, chosen in the settings: the built-in offline model, an
//! OpenAI-compatible endpoint, Anthropic or Gemini. The key lives in memory unless the user asks
//! to keep it for the tab, and is never printed, saved with the other settings or recorded.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::offline::OfflineModel;
use super::remote::{Api, Remote};
use super::smollm::SmolLm;
use super::smollm::worker::ModelWorker;
use super::you::{UserTurns, YouModel};
use super::{ChatMessage, Llm, LlmExchange, LlmReply, Style, ToolSpec, anthropic, gemini};
use mcp_flow_client::clock::SharedClock;
use mcp_flow_client::http::Http;
use std::rc::Rc;

/// The LLM participant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Provider {
    Offline,
    OpenAi,
    Anthropic,
    Gemini,
    /// The user, calling the tools from forms built from their schemas.
    You,
    /// SmolLM2-135M-Instruct, running in a Web Worker in this page.
    SmolLm2,
}

impl Provider {
    pub const ALL: [Provider; 6] = [
        Self::Offline,
        Self::SmolLm2,
        Self::You,
        Self::OpenAi,
        Self::Anthropic,
        Self::Gemini,
    ];

    /// The value of the settings' select.
    pub fn id(self) -> &'static str {
        match self {
            Self::Offline => "offline",
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
            Self::You => "you",
            Self::SmolLm2 => "smollm2",
        }
    }

    pub fn from_id(id: &str) -> Self {
        Self::ALL
            .into_iter()
            .find(|p| p.id() == id)
            .unwrap_or(Self::Offline)
    }

    pub fn title(self) -> &'static str {
        match self {
            Self::Offline => "Built-in offline model (no key, no network)",
            Self::OpenAi => "OpenAI-compatible (OpenAI, Ollama, llama.cpp, LM Studio, vLLM…)",
            Self::Anthropic => "Anthropic Messages",
            Self::Gemini => "Google Gemini",
            Self::You => "You: call the tools yourself, from their schemas",
            Self::SmolLm2 => "SmolLM2-135M in this page (a real model, no key; 145 MB once)",
        }
    }

    fn api(self) -> Option<Api> {
        match self {
            Self::Offline | Self::You | Self::SmolLm2 => None,
            Self::OpenAi => Some(Api::OpenAi),
            Self::Anthropic => Some(Api::Anthropic),
            Self::Gemini => Some(Api::Gemini),
        }
    }

    /// The base URL and model a new choice starts with (Ollama's local endpoint for
    /// OpenAI-compatible).
    pub fn defaults(self) -> (&'static str, &'static str) {
        match self {
            Self::Offline => ("", super::offline::MODEL),
            Self::You => ("", ""),
            Self::SmolLm2 => ("", super::smollm::MODEL),
            Self::OpenAi => ("http://127.0.0.1:11434/v1", "qwen2.5:7b"),
            Self::Anthropic => (anthropic::DEFAULT_BASE_URL, "claude-sonnet-4-5"),
            Self::Gemini => (gemini::DEFAULT_BASE_URL, "gemini-2.5-flash"),
        }
    }
}

/// The settings for the LLM participant.
#[derive(Clone, PartialEq)]
pub struct LlmSettings {
    pub provider: Provider,
    pub base_url: String,
    pub model: String,
    key: String,
    pub style: Style,
    /// Keep the key in this tab's sessionStorage (off unless the user ticks the box).
    pub remember_key: bool,
    /// The in-page model's sampling temperature: 0 always takes the likeliest token.
    pub temperature: f32,
}

impl Default for LlmSettings {
    fn default() -> Self {
        Self::new(Provider::Offline)
    }
}

impl std::fmt::Debug for LlmSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmSettings")
            .field("provider", &self.provider)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field(
                "key",
                &if self.key.is_empty() {
                    "none"
                } else {
                    "[redacted]"
                },
            )
            .field("style", &self.style)
            .field("remember_key", &self.remember_key)
            .finish()
    }
}

/// A text setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    BaseUrl,
    Model,
    Key,
}

/// The settings as saved between visits: everything but the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Saved {
    provider: Provider,
    base_url: String,
    model: String,
    style: Style,
    remember_key: bool,
    #[serde(default)]
    temperature: f32,
}

impl LlmSettings {
    pub fn new(provider: Provider) -> Self {
        let (base_url, model) = provider.defaults();
        Self {
            provider,
            base_url: base_url.into(),
            model: model.into(),
            key: String::new(),
            style: Style::FunctionCalling,
            remember_key: false,
            temperature: 0.0,
        }
    }

    /// The highest temperature the in-page model takes.
    pub const MAX_TEMPERATURE: f32 = 2.0;

    /// Sets the in-page model's temperature from what the user typed.
    pub fn set_temperature(&mut self, text: &str) -> Result<(), String> {
        // Plain decimals only: the float parser is large in wasm.
        match crate::decimal::parse(text.trim()) {
            Some(t) if (0.0..=f64::from(Self::MAX_TEMPERATURE)).contains(&t) => {
                self.temperature = t as f32;
                Ok(())
            }
            _ => Err(format!(
                "the temperature is a number from 0 to {}, not {text:?}",
                crate::decimal::short(f64::from(Self::MAX_TEMPERATURE), 1)
            )),
        }
    }

    /// Switches provider, starting from its defaults; the style and the key choice stay.
    pub fn set_provider(&mut self, provider: Provider) {
        if provider != self.provider {
            *self = Self {
                style: self.style,
                remember_key: self.remember_key,
                temperature: self.temperature,
                ..Self::new(provider)
            };
        }
    }

    pub fn set(&mut self, field: Field, value: String) {
        *match field {
            Field::BaseUrl => &mut self.base_url,
            Field::Model => &mut self.model,
            Field::Key => &mut self.key,
        } = value;
    }

    /// A text setting's value, for showing it (never the key).
    pub fn shown(&self, field: Field) -> String {
        match field {
            Field::BaseUrl => self.base_url.clone(),
            Field::Model => self.model.clone(),
            Field::Key => String::new(),
        }
    }

    pub fn has_key(&self) -> bool {
        !self.key.is_empty()
    }

    /// The key to keep in sessionStorage, only when the user asked for it.
    pub fn key_to_remember(&self) -> Option<&str> {
        Some(self.key.as_str()).filter(|k| self.remember_key && !k.is_empty())
    }

    /// Everything but the key, as JSON for localStorage.
    pub fn to_saved(&self) -> String {
        serde_json::to_string(&Saved {
            provider: self.provider,
            base_url: self.base_url.clone(),
            model: self.model.clone(),
            style: self.style,
            remember_key: self.remember_key,
            temperature: self.temperature,
        })
        .unwrap_or_default()
    }

    /// Settings read back from [`Self::to_saved`] and a remembered key; anything unreadable
    /// gives the defaults.
    pub fn from_saved(saved: Option<&str>, key: Option<String>) -> Self {
        let Some(s) = saved.and_then(|s| serde_json::from_str::<Saved>(s).ok()) else {
            return Self::default();
        };
        Self {
            provider: s.provider,
            base_url: s.base_url,
            model: s.model,
            key: key.filter(|_| s.remember_key).unwrap_or_default(),
            style: s.style,
            remember_key: s.remember_key,
            temperature: s.temperature.clamp(0.0, Self::MAX_TEMPERATURE),
        }
    }

    /// The LLM participant's subtitle.
    pub fn label(&self) -> String {
        match self.provider.api() {
            None if self.provider == Provider::You => super::you::LABEL.to_owned(),
            None if self.provider == Provider::SmolLm2 => super::smollm::LABEL.to_owned(),
            None => super::offline::LABEL.to_owned(),
            Some(api) => format!("{} ({})", self.model, api.name()),
        }
    }

    /// The model these settings name, talking through `http` on the run's `clock`; `seats` are
    /// the page's: where it asks the user when the user is the model, and the in-page model.
    pub fn build<H: Http>(&self, http: H, clock: SharedClock, seats: &ModelSupport) -> AnyLlm<H> {
        match self.provider.api() {
            None if self.provider == Provider::You => {
                AnyLlm::You(YouModel::new(seats.desk.clone(), clock))
            }
            None if self.provider == Provider::SmolLm2 => AnyLlm::SmolLm(SmolLm {
                engine: seats.model.clone(),
                clock,
                sampling: mcp_flow_smollm_wire::Sampling {
                    temperature: self.temperature,
                    ..Default::default()
                },
                style: self.style,
                on_text: seats.on_text.clone(),
            }),
            None => AnyLlm::Offline(OfflineModel::new(clock)),
            Some(api) => AnyLlm::Remote(Remote {
                http,
                clock,
                api,
                base_url: self.base_url.clone(),
                model: self.model.clone(),
                key: Some(self.key.clone()).filter(|k| !k.is_empty()),
                style: self.style,
                timeout_ms: super::remote::DEFAULT_TIMEOUT_MS,
            }),
        }
    }
}

/// What the page lends a run's model: the desk where it asks the user (when the user is the
/// model), and the in-page model's worker with where its text streams to.
#[derive(Clone)]
pub struct ModelSupport {
    pub desk: Rc<UserTurns>,
    pub model: Rc<ModelWorker>,
    pub on_text: super::smollm::OnText,
}

/// One of the backends, behind the one interface.
pub enum AnyLlm<H: Http> {
    Offline(OfflineModel),
    Remote(Remote<H>),
    You(YouModel),
    SmolLm(SmolLm<Rc<ModelWorker>>),
}

impl<H: Http> Llm for AnyLlm<H> {
    fn label(&self) -> String {
        match self {
            Self::Offline(m) => m.label(),
            Self::Remote(m) => m.label(),
            Self::You(m) => m.label(),
            Self::SmolLm(m) => m.label(),
        }
    }

    fn format_tools(&self, tools: &[ToolSpec]) -> Value {
        match self {
            Self::Offline(m) => m.format_tools(tools),
            Self::Remote(m) => m.format_tools(tools),
            Self::You(m) => m.format_tools(tools),
            Self::SmolLm(m) => m.format_tools(tools),
        }
    }

    fn style(&self) -> Style {
        match self {
            Self::Offline(m) => m.style(),
            Self::Remote(m) => m.style(),
            Self::You(m) => m.style(),
            Self::SmolLm(m) => m.style(),
        }
    }

    async fn complete(
        &self,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> (Result<LlmReply, String>, LlmExchange) {
        match self {
            Self::Offline(m) => m.complete(messages, tools).await,
            Self::Remote(m) => m.complete(messages, tools).await,
            Self::You(m) => m.complete(messages, tools).await,
            Self::SmolLm(m) => m.complete(messages, tools).await,
        }
    }

    async fn sample(
        &self,
        request: &mcp_flow_client::sampling::SamplingRequest,
    ) -> (Result<String, String>, LlmExchange) {
        match self {
            Self::Offline(m) => m.sample(request).await,
            Self::Remote(m) => m.sample(request).await,
            Self::You(m) => m.sample(request).await,
            Self::SmolLm(m) => m.sample(request).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_flow_client::scripted::Scripted;
    use std::rc::Rc;

    fn openai() -> LlmSettings {
        let mut s = LlmSettings::new(Provider::OpenAi);
        s.set(Field::Model, "qwen2.5".into());
        s.set(Field::Key, "sk-secret".into());
        s.style = Style::SystemPrompt;
        s
    }

    fn seats() -> ModelSupport {
        ModelSupport {
            desk: UserTurns::new(|_| ()),
            model: ModelWorker::new("/models/m.gguf".into(), |_| ()),
            on_text: Rc::new(|_| ()),
        }
    }

    #[test]
    fn settings_build_the_chosen_backend() {
        let http = Rc::new(Scripted::default());
        assert!(matches!(
            LlmSettings::default().build(http.clone(), http.clone(), &seats()),
            AnyLlm::Offline(_)
        ));
        let you = LlmSettings::new(Provider::You);
        assert_eq!(you.label(), crate::llm::you::LABEL);
        assert!(matches!(
            you.build(http.clone(), http.clone(), &seats()),
            AnyLlm::You(_)
        ));
        match openai().build(http.clone(), http.clone(), &seats()) {
            AnyLlm::Remote(m) => {
                assert_eq!(m.key.as_deref(), Some("sk-secret"));
                assert_eq!(m.api, Api::OpenAi);
                assert_eq!(m.style, Style::SystemPrompt);
                assert_eq!(m.label(), "qwen2.5 (OpenAI-compatible)");
            }
            _ => panic!("expected the OpenAI-compatible backend"),
        }
        assert_eq!(LlmSettings::default().label(), "Built-in offline model");
        let smollm = LlmSettings::new(Provider::SmolLm2);
        assert_eq!(smollm.label(), "SmolLM2-135M in this page");
        assert!(matches!(
            smollm.build(http.clone(), http.clone(), &seats()),
            AnyLlm::SmolLm(_)
        ));
        assert_eq!(Provider::from_id("smollm2"), Provider::SmolLm2);
    }

    #[test]
    fn the_temperature_reaches_the_in_page_model_and_is_kept() {
        let http = Rc::new(Scripted::default());
        let mut s = LlmSettings::new(Provider::SmolLm2);
        assert_eq!(s.temperature, 0.0);
        s.set_temperature("0.7").unwrap();
        for bad in ["-1", "2.5", "warm", "NaN", ""] {
            let said = s.set_temperature(bad).unwrap_err();
            assert!(said.contains("from 0 to 2"), "{said}");
        }
        assert_eq!(s.temperature, 0.7, "a refused value changes nothing");
        match s.build(http.clone(), http.clone(), &seats()) {
            AnyLlm::SmolLm(m) => assert_eq!(m.sampling.temperature, 0.7),
            _ => panic!("expected SmolLM2"),
        }
        s.set_provider(Provider::Offline);
        s.set_provider(Provider::SmolLm2);
        assert_eq!(s.temperature, 0.7, "switching providers keeps it");
        let saved = s.to_saved();
        let back = LlmSettings::from_saved(Some(&saved), None);
        assert_eq!(back.temperature, 0.7);
        // Settings saved before the temperature existed read back at 0; a saved value out of
        // range is brought into it.
        let old = r#"{"provider":"SmolLm2","base_url":"","model":"m","style":"FunctionCalling","remember_key":false}"#;
        let read = LlmSettings::from_saved(Some(old), None);
        assert_eq!(
            read.provider,
            Provider::SmolLm2,
            "the old form is still read"
        );
        assert_eq!(read.temperature, 0.0);
        let hot = s.to_saved().replace("0.7", "9.0");
        assert_eq!(LlmSettings::from_saved(Some(&hot), None).temperature, 2.0);
    }

    #[test]
    fn switching_provider_starts_from_its_defaults_and_keeps_the_style() {
        let mut s = openai();
        s.set_provider(Provider::Gemini);
        assert_eq!(s.base_url, gemini::DEFAULT_BASE_URL);
        assert_eq!(s.model, "gemini-2.5-flash");
        assert!(!s.has_key(), "a key is not carried to another provider");
        assert_eq!(s.style, Style::SystemPrompt);
        assert_eq!(s.label(), "gemini-2.5-flash (Gemini)");
        assert_eq!(Provider::from_id("anthropic"), Provider::Anthropic);
        assert_eq!(Provider::from_id("nonsense"), Provider::Offline);
    }

    #[test]
    fn fields_are_edited_in_place_and_the_key_is_never_shown() {
        let mut s = openai();
        s.set(Field::Model, "llama3.2".into());
        s.set(Field::Key, "sk-other".into());
        assert_eq!(s.shown(Field::Model), "llama3.2");
        assert_eq!(s.shown(Field::Key), "");
        assert_eq!(s.label(), "llama3.2 (OpenAI-compatible)");
        let text = format!("{s:?}");
        assert!(!text.contains("sk-other"), "{text}");
        assert!(text.contains("[redacted]"));
    }

    #[test]
    fn saved_settings_never_hold_the_key_and_it_is_kept_only_on_request() {
        let mut s = openai();
        let saved = s.to_saved();
        assert!(!saved.contains("sk-secret"), "{saved}");
        assert_eq!(s.key_to_remember(), None);
        let back = LlmSettings::from_saved(Some(&saved), Some("sk-secret".into()));
        assert!(
            !back.has_key(),
            "a stray stored key is ignored when not opted in"
        );
        assert_eq!(back.model, "qwen2.5");
        assert_eq!(back.style, Style::SystemPrompt);

        s.remember_key = true;
        assert_eq!(s.key_to_remember(), Some("sk-secret"));
        let saved = s.to_saved();
        assert!(!saved.contains("sk-secret"));
        let back = LlmSettings::from_saved(Some(&saved), Some("sk-secret".into()));
        assert_eq!(back, s);

        assert_eq!(
            LlmSettings::from_saved(Some("{not json"), None),
            LlmSettings::default()
        );
    }
}
