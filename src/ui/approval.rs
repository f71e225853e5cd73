//! "Execute tool?": the dialog where the user allows or declines the tool call the model picked
//! (diagram 2, rows 4 and 5). It only shows during a run, so its view comes with the run's module.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{by_lang, fill, in_lang};
use super::lazy_view::{ViewFn, lazy_view};
use super::stores::Settings;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};

fn approval_dialog(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    view! {
        <div class="mf-dialog" role="dialog" aria-modal="true" aria-labelledby="mf-dialog-title">
            <h2 id="mf-dialog-title">{move || ctl.dialogs.dialog.with(|d| d.as_ref().map(|d| fill(by_lang(settings.lang.get(), "Execute '{tool}' on Tool Server?", "在工具服务器上执行“{tool}”吗？"), &[("tool", &d.tool)])).unwrap_or_default())}</h2>
            // Why the dialog shows though the link said approve=auto.
            <Show when=move || settings.link_auto.with(Option::is_some)>
                <p id="mf-link-auto">{in_lang(settings.lang, "The link you opened asked to run tools without asking, for a server other than the one that serves this page. Yes here also lets this page's later calls to this server go without asking.", "你打开的链接要求不经询问就运行工具，而此服务器不是提供本页面的服务器。在此点“是”，本页面之后对此服务器的调用也将不再询问。")}</p>
            </Show>
            <pre>{move || ctl.dialogs.dialog.with(|d| d.as_ref().map(|d| serde_json::to_string_pretty(&d.arguments).unwrap_or_default()).unwrap_or_default())}</pre>
            <button id="mf-yes" on:click=move |_| ctl.decide(true)>{in_lang(settings.lang, "Yes", "执行")}</button>
            <button id="mf-no" on:click=move |_| ctl.decide(false)>{in_lang(settings.lang, "Decline", "拒绝")}</button>
        </div>
    }
}

on_demand!(
    run,
    fn approval_dialog_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| approval_dialog(ctl).into_any())
    }
);

/// The dialog, while the host waits for the user's yes or no.
#[component]
pub fn ApprovalDialog(ctl: Controller) -> impl IntoView {
    lazy_view(
        ctl,
        Box::new(move || ctl.dialogs.dialog.with(Option::is_some)),
        || Box::pin(async { call_on_demand!(approval_dialog_fn()) }),
    )
}
