//! "Execute tool?": the dialog where the user allows or declines the tool call the model picked
//! (diagram 2, rows 4 and 5) or an app asked for, naming the server; and "share your roots?", the
//! first time a server asks for them. They only show during a run, so their views come with the
//! run's module.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{by_lang, fill};
use super::lazy_view::{ViewFn, lazy_view};
use super::stores::Settings;
use crate::flow::host::Consent;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};

fn approval_dialog(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    // One view per request: the dialog is drawn again only when another call is put to the user.
    move || {
        let d = ctl.dialogs.dialog.get()?;
        let lang = settings.lang.get();
        let say = |en, zh| by_lang(lang, en, zh);
        let linked = settings.link_auto.with(Option::is_some);
        let arguments = serde_json::to_string_pretty(&d.arguments).unwrap_or_default();
        let title = fill(
            say(
                "Execute '{tool}' on Tool Server?",
                "在工具服务器上执行“{tool}”吗？",
            ),
            &[("tool", &d.tool)],
        );
        Some(view! {
            <div class="mf-dialog" role="dialog" aria-modal="true" aria-labelledby="mf-dialog-title">
                <h2 id="mf-dialog-title">{title}</h2>
                // Why the dialog shows though the link said approve=auto.
                {linked.then(|| view! {
                    <p id="mf-link-auto">{say("The link you opened asked to run tools without asking, for a server other than the one that serves this page. Yes here also lets this page's later calls to this server go without asking.", "你打开的链接要求不经询问就运行工具，而此服务器不是提供本页面的服务器。在此点“是”，本页面之后对此服务器的调用也将不再询问。")}</p>
                })}
                // Where the call goes: what a look-alike link cannot hide.
                <p id="mf-dialog-server">
                    {say("Tool Server: ", "工具服务器：")}<code>{d.server}</code>
                    {d.upstream.map(|upstream| view! {
                        <span>{say(", a bridge on this machine relaying to ", "，本机上的桥接，转发到 ")}<code id="mf-dialog-upstream">{upstream}</code></span>
                    })}
                </p>
                {d.app.clone().map(|app| view! {
                    <p id="mf-dialog-app">{say("Asked by the app ", "提出请求的是应用 ")}<code>{app}</code>{say(", not by the model.", "，而不是模型。")}</p>
                })}
                <pre>{arguments}</pre>
                <button id="mf-yes" on:click=move |_| ctl.decide(Consent::Once)>{say("Yes", "执行")}</button>
                {d.app.map(|_| view! {
                    <button id="mf-yes-run" on:click=move |_| ctl.decide(Consent::ForTheRun)>{say("Yes, and this app's calls of this tool for the rest of the run", "执行，并在本次运行中不再询问此应用对此工具的调用")}</button>
                })}
                <button id="mf-no" on:click=move |_| ctl.decide(Consent::Declined)>{say("Decline", "拒绝")}</button>
            </div>
        })
    }
}

on_demand!(
    run,
    fn approval_dialog_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| approval_dialog(ctl).into_any())
    }
);

/// "Share your roots with this server?": asked the first time a server asks for them (with the
/// server's other questions' views).
fn roots_dialog(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    move || {
        let q = ctl.dialogs.roots.get()?;
        let lang = settings.lang.get();
        let say = |en, zh| by_lang(lang, en, zh);
        Some(view! {
            <div class="mf-dialog" role="dialog" aria-modal="true" aria-labelledby="mf-roots-title">
                <h2 id="mf-roots-title">{say("Share your roots with this server?", "与此服务器共享你的根目录吗？")}</h2>
                <p>{say("The server ", "服务器 ")}<code id="mf-roots-server">{q.server}</code>{say(" asks for the roots listed in the settings:", " 请求设置中列出的根目录：")}</p>
                <pre>{q.roots.join("\n")}</pre>
                <p class="mf-note">{say("Your answer holds for this server until the page is closed. No: it gets an empty list.", "你的回答对此服务器一直有效，直到关闭页面。选“否”：它得到空列表。")}</p>
                <button id="mf-roots-share" on:click=move |_| ctl.share_roots(true)>{say("Share", "共享")}</button>
                <button id="mf-roots-no" on:click=move |_| ctl.share_roots(false)>{say("Don't share", "不共享")}</button>
            </div>
        })
    }
}

on_demand!(
    server_questions,
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
