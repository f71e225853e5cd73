//! The LLM participant's settings: the built-in offline model, or an OpenAI-compatible endpoint
//! (OpenAI, Ollama, llama.cpp, LM Studio, vLLM, OpenRouter, Groq).

use leptos::prelude::*;

use super::controller::Controller;
use crate::llm::choice::{Field, LlmSettings};
use crate::llm::openai_compat::Style;

/// Ollama's OpenAI-compatible endpoint, the usual local choice.
const DEFAULT_BASE_URL: &str = "http://127.0.0.1:11434/v1";

#[component]
pub fn LlmSettingsView(ctl: Controller) -> impl IntoView {
    let is_openai = move || matches!(ctl.llm.get(), LlmSettings::OpenAi { .. });
    let shown = move |field: Field| move || ctl.llm.with(|s| s.shown(field));
    let edit =
        move |field: Field| move |ev| ctl.llm.update(|s| s.set(field, event_target_value(&ev)));
    view! {
        <fieldset class="mf-llm">
            <legend>"LLM"</legend>
            <label>
                "Model"
                <select id="mf-llm-provider" on:change=move |ev| {
                    ctl.llm.set(match event_target_value(&ev).as_str() {
                        "openai" => LlmSettings::OpenAi {
                            base_url: DEFAULT_BASE_URL.into(),
                            model: "qwen2.5:7b".into(),
                            key: String::new(),
                            style: Style::FunctionCalling,
                        },
                        _ => LlmSettings::Offline,
                    })
                }>
                    <option value="offline" selected=move || !is_openai()>"Built-in offline model (no key, no network)"</option>
                    <option value="openai" selected=is_openai>"OpenAI-compatible endpoint"</option>
                </select>
            </label>
            <Show
                when=is_openai
                fallback=|| view! {
                    <p class="mf-llm-note">"The built-in offline model stands in for a real LLM: deterministic, in this page, no network."</p>
                }
            >
                <label>
                    "Base URL"
                    <input id="mf-llm-base" type="url"
                        prop:value=shown(Field::BaseUrl)
                        on:change=edit(Field::BaseUrl) />
                </label>
                <label>
                    "Model name"
                    <input id="mf-llm-model" type="text"
                        prop:value=shown(Field::Model)
                        on:change=edit(Field::Model) />
                </label>
                <label>
                    "API key (optional)"
                    <input id="mf-llm-key" type="password" autocomplete="off"
                        on:change=edit(Field::Key) />
                </label>
                <label>
                    "Tool calling"
                    <select id="mf-llm-style" on:change=move |ev| {
                        let style = if event_target_value(&ev) == "prompt" { Style::SystemPrompt } else { Style::FunctionCalling };
                        ctl.llm.update(|s| s.set_style(style))
                    }>
                        <option value="native">"Native function calling"</option>
                        <option value="prompt">"System prompt + JSON reply"</option>
                    </select>
                </label>
                <p class="mf-llm-note">
                    "A key typed into a web page is exposed to that page. It stays in memory only: not saved, not in the address, never in the record."
                </p>
            </Show>
        </fieldset>
    }
}
