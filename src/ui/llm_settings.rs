//! The LLM participant's settings: the built-in offline model, SmolLM2 in this page, an
//! OpenAI-compatible endpoint (OpenAI, Ollama, llama.cpp, LM Studio, vLLM, OpenRouter, Groq),
//! Anthropic or Gemini.

use leptos::prelude::*;

use super::controller::{Controller, Settings};
use super::i18n::{self, Msg, text, tr};
use super::model_status::ModelStatusView;
use crate::llm::Style;
use crate::llm::choice::{Field, Provider};

/// How the tools reach the model: native function calling or the tutorial's system prompt.
fn style_select(settings: Settings) -> impl IntoView {
    view! {
                <label>
            {tr(settings.lang, Msg::ToolCalling)}
            <select id="mf-llm-style" on:change=move |ev| {
                let style = if event_target_value(&ev) == "prompt" { Style::SystemPrompt } else { Style::FunctionCalling };
                settings.llm.update(|s| s.style = style)
            }>
                <option value="native" selected=move || settings.llm.with(|s| s.style == Style::FunctionCalling)>{move || i18n::style(Style::FunctionCalling, settings.lang.get())}</option>
                <option value="prompt" selected=move || settings.llm.with(|s| s.style == Style::SystemPrompt)>{move || i18n::style(Style::SystemPrompt, settings.lang.get())}</option>
            </select>
        </label>
    }
}

/// The in-page model's sampling temperature; a value out of range is refused where it was typed.
fn temperature_input(settings: Settings) -> impl IntoView {
    let problem = RwSignal::new(String::new());
    view! {
        <label>
            {tr(settings.lang, Msg::Temperature)}
            <input id="mf-llm-temperature" type="number" min="0" max="2" step="0.1"
                prop:value=move || settings.llm.with(|s| String::from(crate::decimal::short(f64::from(s.temperature), 2)))
                on:change=move |ev| {
                    let typed = event_target_value(&ev);
                    let mut llm = settings.llm.get_untracked();
                    match llm.set_temperature(&typed) {
                        Ok(()) => {
                            problem.set(String::new());
                            settings.llm.set(llm);
                        }
                        Err(why) => problem.set(why),
                    }
                } />
        </label>
        <p id="mf-llm-temperature-problem" class="mf-error-line" role="alert">{move || problem.get()}</p>
    }
}

#[component]
pub fn LlmSettingsView() -> impl IntoView {
    let settings = expect_context::<Settings>();
    let ctl = expect_context::<Controller>();
    let provider = move || settings.llm.with(|s| s.provider);
    let is_remote = move || {
        !matches!(
            provider(),
            Provider::Offline | Provider::You | Provider::SmolLm2
        )
    };
    let shown = move |field: Field| move || settings.llm.with(|s| s.shown(field));
    let edit = move |field: Field| {
        move |ev| {
            settings
                .llm
                .update(|s| s.set(field, event_target_value(&ev)))
        }
    };
    Effect::new(move || settings.llm.with(super::storage::save));
    let t = move |m: Msg| text(m, settings.lang.get());
    view! {
        <fieldset class="mf-llm">
            <legend>{tr(settings.lang, Msg::Llm)}</legend>
            <label>
                {tr(settings.lang, Msg::LlmModel)}
                <select id="mf-llm-provider" on:change=move |ev| {
                    let p = Provider::from_id(&event_target_value(&ev));
                    settings.llm.update(|s| s.set_provider(p))
                }>
                    {Provider::ALL.into_iter().map(|p| view! {
                        <option value=p.id() selected=move || provider() == p>{move || i18n::provider(p, settings.lang.get())}</option>
                    }).collect_view()}
                </select>
            </label>
            <Show
                when=is_remote
                fallback=move || view! {
                    <Show
                        when=move || provider() == Provider::SmolLm2
                        fallback=move || view! {
                            <p class="mf-llm-note">{move || text(if provider() == Provider::You { Msg::YouNote } else { Msg::OfflineNote }, settings.lang.get())}</p>
                        }
                    >
                        <ModelStatusView ctl=ctl />
                        {style_select(settings)}
                        {temperature_input(settings)}
                    </Show>
                }
            >
                <label>
                    {tr(settings.lang, Msg::BaseUrl)}
                    <input id="mf-llm-base" type="url"
                        prop:value=shown(Field::BaseUrl)
                        on:change=edit(Field::BaseUrl) />
                </label>
                <label>
                    {tr(settings.lang, Msg::ModelName)}
                    <input id="mf-llm-model" type="text"
                        prop:value=shown(Field::Model)
                        on:change=edit(Field::Model) />
                </label>
                <label>
                    {tr(settings.lang, Msg::ApiKey)}
                    <input id="mf-llm-key" type="password" autocomplete="off"
                        placeholder=move || t(if settings.llm.with(|s| s.has_key()) { Msg::KeySet } else { Msg::KeyNone })
                        on:change=edit(Field::Key) />
                </label>
                <label class="mf-check">
                    <input id="mf-llm-remember" type="checkbox"
                        prop:checked=move || settings.llm.with(|s| s.remember_key)
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            settings.llm.update(|s| s.remember_key = on)
                        } />
                    {tr(settings.lang, Msg::RememberKey)}
                </label>
                {style_select(settings)}
                <p class="mf-llm-note">{tr(settings.lang, Msg::KeyWarning)}</p>
                <Show when=move || provider() == Provider::OpenAi>
                    <p class="mf-llm-note">
                        {tr(settings.lang, Msg::OllamaBefore)}
                        {move || web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default()}
                        {tr(settings.lang, Msg::OllamaAfter)}
                    </p>
                </Show>
            </Show>
        </fieldset>
    }
}
