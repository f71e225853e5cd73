//! "The MCP server asks for authorization": the Authorization diagram's row a-8, the host putting
//! the authorization page to the user. The button opens it in a popup inside the click, so no
//! popup blocker stands in the way. It only shows during a run: its view comes with the run's
//! module.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::in_lang;
use super::lazy_view::{ViewFn, lazy_view};
use super::stores::Settings;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};

fn auth_dialog(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let prompt = ctl.dialogs.authorize;
    view! {
        <div class="mf-dialog" role="dialog" aria-modal="true" aria-labelledby="mf-auth-title">
            <h2 id="mf-auth-title">{in_lang(settings.lang, "The MCP server asks for authorization", "MCP 服务器要求授权")}</h2>
            <p>{in_lang(settings.lang, "Open the authorization server's page to log in and consent. It comes back to this page with a code, which MCP Flow redeems for an access token (kept in this page's memory only). The request:", "打开授权服务器的页面登录并同意。它会带着授权码回到本页面，MCP Flow 用授权码换取访问令牌（只保存在本页面的内存中）。请求：")}</p>
            <pre class="mf-auth-url">{move || prompt.get().unwrap_or_default()}</pre>
            <button id="mf-auth-open" on:click=move |_| ctl.authorize(true)>
                {in_lang(settings.lang, "Open the authorization page", "打开授权页面")}
            </button>
            <button id="mf-auth-cancel" on:click=move |_| ctl.authorize(false)>
                {in_lang(settings.lang, "Cancel", "取消")}
            </button>
        </div>
    }
}

on_demand!(
    authorize,
    fn auth_dialog_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| auth_dialog(ctl).into_any())
    }
);

/// The dialog, while the host waits for the user to open the authorization page.
#[component]
pub fn AuthDialog(ctl: Controller) -> impl IntoView {
    lazy_view(
        ctl,
        Box::new(move || ctl.dialogs.authorize.with(Option::is_some)),
        || Box::pin(async { call_on_demand!(auth_dialog_fn()) }),
    )
}
