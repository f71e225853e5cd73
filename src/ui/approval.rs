//! "Execute tool?": the dialog where the user allows or declines the tool call the model picked
//! (diagram 2, rows 4 and 5) or an app asked for, naming the server; and "share your roots?", the
//! first time a server asks for them. They only show during a run, so their views come with the
//! run's module.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{by_lang, fill, in_lang};
use super::lazy_view::{ViewFn, lazy_view};
use super::stores::Settings;
use crate::flow::host::Consent;
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
            // Where the call goes: what a look-alike link cannot hide.
            <p id="mf-dialog-server">
                {in_lang(settings.lang, "Tool Server: ", "工具服务器：")}
                <code>{move || ctl.dialogs.dialog.with(|d| d.as_ref().map(|d| d.server.clone()).unwrap_or_default())}</code>
                {move || ctl.dialogs.dialog.with(|d| d.as_ref().and_then(|d| d.upstream.clone())).map(|upstream| view! {
                    <span>{in_lang(settings.lang, ", a bridge on this machine relaying to ", "，本机上的桥接，转发到 ")}<code id="mf-dialog-upstream">{upstream}</code></span>
                })}
            </p>
            {move || ctl.dialogs.dialog.with(|d| d.as_ref().and_then(|d| d.app.clone())).map(|app| view! {
                <p id="mf-dialog-app">{in_lang(settings.lang, "Asked by the app ", "提出请求的是应用 ")}<code>{app}</code>{in_lang(settings.lang, ", not by the model.", "，而不是模型。")}</p>
            })}
            <pre>{move || ctl.dialogs.dialog.with(|d| d.as_ref().map(|d| serde_json::to_string_pretty(&d.arguments).unwrap_or_default()).unwrap_or_default())}</pre>
            <button id="mf-yes" on:click=move |_| ctl.decide(Consent::Once)>{in_lang(settings.lang, "Yes", "执行")}</button>
            <Show when=move || ctl.dialogs.dialog.with(|d| d.as_ref().is_some_and(|d| d.app.is_some()))>
                <button id="mf-yes-run" on:click=move |_| ctl.decide(Consent::ForTheRun)>{in_lang(settings.lang, "Yes, and this app's calls of this tool for the rest of the run", "执行，并在本次运行中不再询问此应用对此工具的调用")}</button>
            </Show>
            <button id="mf-no" on:click=move |_| ctl.decide(Consent::Declined)>{in_lang(settings.lang, "Decline", "拒绝")}</button>
        </div>
    }
}

on_demand!(
    run,
    fn approval_dialog_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| approval_dialog(ctl).into_any())
    }
);

/// "Share your roots with this server?": asked the first time a server asks for them.
fn roots_dialog(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let asked = move || ctl.dialogs.roots.get();
    view! {
        <div class="mf-dialog" role="dialog" aria-modal="true" aria-labelledby="mf-roots-title">
            <h2 id="mf-roots-title">{in_lang(settings.lang, "Share your roots with this server?", "与此服务器共享你的根目录吗？")}</h2>
            <p>{in_lang(settings.lang, "The server ", "服务器 ")}<code id="mf-roots-server">{move || asked().map(|q| q.server).unwrap_or_default()}</code>{in_lang(settings.lang, " asks for the roots listed in the settings:", " 请求设置中列出的根目录：")}</p>
            <pre>{move || asked().map(|q| q.roots.join("\n")).unwrap_or_default()}</pre>
            <p class="mf-note">{in_lang(settings.lang, "Your answer holds for this server until the page is closed. No: it gets an empty list.", "你的回答对此服务器一直有效，直到关闭页面。选“否”：它得到空列表。")}</p>
            <button id="mf-roots-share" on:click=move |_| ctl.share_roots(true)>{in_lang(settings.lang, "Share", "共享")}</button>
            <button id="mf-roots-no" on:click=move |_| ctl.share_roots(false)>{in_lang(settings.lang, "Don't share", "不共享")}</button>
        </div>
    }
}

on_demand!(
    run,
    fn roots_dialog_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| roots_dialog(ctl).into_any())
    }
);

/// The roots dialog, while the host waits for the user's answer.
#[component]
pub fn RootsDialog(ctl: Controller) -> impl IntoView {
    lazy_view(
        ctl,
        Box::new(move || ctl.dialogs.roots.with(Option::is_some)),
        || Box::pin(async { call_on_demand!(roots_dialog_fn()) }),
    )
}

/// The dialog, while the host waits for the user's yes or no.
#[component]
pub fn ApprovalDialog(ctl: Controller) -> impl IntoView {
    lazy_view(
        ctl,
        Box::new(move || ctl.dialogs.dialog.with(Option::is_some)),
        || Box::pin(async { call_on_demand!(approval_dialog_fn()) }),
    )
}
