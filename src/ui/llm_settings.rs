//! The LLM participant's settings: the built-in offline model, an OpenAI-compatible endpoint
//! (OpenAI, Ollama, llama.cpp, LM Studio, vLLM, OpenRouter, Groq), Anthropic or Gemini.

use leptos::prelude::*;

use super::controller::Controller;
use crate::llm::Style;
use crate::llm::choice::{Field, Provider};

#[component]
pub fn LlmSettingsView(ctl: Controller) -> impl IntoView {
    let provider = move || ctl.llm.with(|s| s.provider);
    let is_remote = move || provider() != Provider::Offline;
    let shown = move |field: Field| move || ctl.llm.with(|s| s.shown(field));
    let edit =
        move |field: Field| move |ev| ctl.llm.update(|s| s.set(field, event_target_value(&ev)));
    Effect::new(move || ctl.llm.with(super::storage::save));
    view! {
        <fieldset class="mf-llm">
            <legend>"LLM"</legend>
            <label>
                "Model"
                <select id="mf-llm-provider" on:change=move |ev| {
                    let p = Provider::from_id(&event_target_value(&ev));
                    ctl.llm.update(|s| s.set_provider(p))
                }>
                    {Provider::ALL.into_iter().map(|p| view! {
                        <option value=p.id() selected=move || provider() == p>{p.title()}</option>
                    }).collect_view()}
                </select>
            </label>
            <Show
                when=is_remote
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
                    "API key"
                    <input id="mf-llm-key" type="password" autocomplete="off"
                        placeholder=move || if ctl.llm.with(|s| s.has_key()) { "(set)" } else { "(none)" }
                        on:change=edit(Field::Key) />
                </label>
                <label class="mf-check">
                    <input id="mf-llm-remember" type="checkbox"
                        prop:checked=move || ctl.llm.with(|s| s.remember_key)
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            ctl.llm.update(|s| s.remember_key = on)
                        } />
                    "Keep the key for this tab (sessionStorage)"
                </label>
                <label>
                    "Tool calling"
                    <select id="mf-llm-style" on:change=move |ev| {
                        let style = if event_target_value(&ev) == "prompt" { Style::SystemPrompt } else { Style::FunctionCalling };
                        ctl.llm.update(|s| s.style = style)
                    }>
                        <option value="native" selected=move || ctl.llm.with(|s| s.style == Style::FunctionCalling)>"Native function calling"</option>
                        <option value="prompt" selected=move || ctl.llm.with(|s| s.style == Style::SystemPrompt)>"System prompt + JSON reply"</option>
                    </select>
                </label>
                <p class="mf-llm-note">
                    "A key typed into a web page is exposed to that page. It stays in memory unless you tick the box above; it is never in the address, the record or an export."
                </p>
                <Show when=move || provider() == Provider::OpenAi>
                    <p class="mf-llm-note">
                        "Ollama: run it with OLLAMA_ORIGINS=" {move || web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default()}
                        " so it answers this page, and use a model you have pulled."
                    </p>
                </Show>
            </Show>
        </fieldset>
    }
}
