//! The in-page model's state, in two places: its panel in the LLM settings (what it is, how far
//! loading is, how fast it last wrote) and, while a run uses it, a live box in the inspector
//! (the download's progress bar and the text the model is writing now).

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::in_lang;
use super::lazy_view::{ViewFn, lazy_view};
use super::stores::Settings;
use crate::llm::choice::Provider;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};

/// The status line and, while loading, the progress bar.
fn progress(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let status = ctl.workers.model_status;
    view! {
        // The data-* figures are for bench/smollm-page.mjs.
        <p class="mf-smollm-status" role="status"
            data-load-ms=move || status.with(|s| s.loaded().map(|l| l.load_ms.round().to_string()))
            data-from-cache=move || status.with(|s| s.loaded().map(|l| l.from_cache.to_string()))
            data-turns=move || status.with(|s| s.turns_json())>
            {move || status.with(|s| s.describe(settings.lang.get()))}
        </p>
        <Show when=move || status.with(|s| s.is_busy())>
            <progress class="mf-smollm-progress" max="1"
                value=move || status.with(|s| s.fraction()).map(|f| f.to_string()).unwrap_or_default() />
        </Show>
    }
}

// Both views (and the status' wording) come with the in-page model's module: fetched when the
// user picks the model, not with the page.
on_demand!(
    smollm_page,
    fn status_view_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| {
            let settings = expect_context::<Settings>();

            view! {
                <div id="mf-smollm" class="mf-smollm">
                    <p class="mf-llm-note">{in_lang(settings.lang, "A real language model, SmolLM2-135M-Instruct (Apache-2.0), runs in a Web Worker in this tab: no key, nothing leaves this machine. Its tool choice is decoding constrained by each tool's inputSchema; the inspector on d2-3 shows the probability it gave each tool.", "真实的语言模型 SmolLM2-135M-Instruct（Apache-2.0）在本标签页的 Web Worker 中运行：无需密钥，数据不离开本机。它选择工具时，解码受每个工具的 inputSchema 约束；d2-3 的检查器显示它给每个工具的概率。")}</p>
                    <p class="mf-llm-note">{in_lang(settings.lang, "How often it is right: on the project's 42-question table (weather, calculations, questions no tool fits) it picks the right tool with the right arguments 20 times in this page, as often as always calling get_weather with the city would. It shows a real model at work; it chooses no better than that guess. The offline rules model gets 41 of the 42.", "它有多准：在本项目的 42 题测试表（天气、计算、没有合适工具的问题）上，它在本页面中有 20 题选对工具和参数，与「总是用城市名调用 get_weather」一样多。它展示的是真实模型的运行过程，选择并不比这种猜测更好。离线规则模型答对 42 题中的 41 题。")}</p>
                    {progress(ctl)}
                </div>
            }
            .into_any()
        })
    }
);

on_demand!(
    smollm_page,
    fn live_view_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| {
            let settings = expect_context::<Settings>();

            view! {
                <div id="mf-model-live" class="mf-smollm mf-model-live">
                    {progress(ctl)}
                    <Show when=move || ctl.workers.model_text.with(|t| !t.is_empty())>
                        <p class="mf-smollm-text">
                            {in_lang(settings.lang, "The model is writing: ", "模型正在写：")}
                            <code id="mf-smollm-text">{move || ctl.workers.model_text.get()}</code>
                        </p>
                    </Show>
                </div>
            }
            .into_any()
        })
    }
);

/// The in-page model's panel in the LLM settings, while it is the model picked.
#[component]
pub fn ModelStatusView(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    lazy_view(
        ctl,
        Box::new(move || settings.llm.with(|s| s.provider == Provider::SmolLm2)),
        || Box::pin(async { call_on_demand!(status_view_fn()) }),
    )
}

/// Shown in the inspector while a run uses the in-page model and it loads or writes.
#[component]
pub fn ModelLiveView(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    lazy_view(
        ctl,
        Box::new(move || {
            ctl.running.get()
                && settings.llm.with(|s| s.provider == Provider::SmolLm2)
                && (ctl.workers.model_status.with(|s| s.is_busy())
                    || ctl.workers.model_text.with(|t| !t.is_empty()))
        }),
        || Box::pin(async { call_on_demand!(live_view_fn()) }),
    )
}
