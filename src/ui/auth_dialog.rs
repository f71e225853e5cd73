//! "The MCP server asks for authorization": the Authorization diagram's row a-8, the host putting
//! the authorization page to the user. The button opens it in a popup inside the click, so no
//! popup blocker stands in the way. It only shows during a run: its view comes with the run's
//! module.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{Msg, tr};
use super::lazy_view::{ViewFn, lazy_view};
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};

fn auth_dialog(ctl: Controller) -> impl IntoView {
    let prompt = ctl.prompts.authorize;
    view! {
        <div class="mf-dialog" role="dialog" aria-modal="true" aria-labelledby="mf-auth-title">
            <h2 id="mf-auth-title">{tr(ctl.settings.lang, Msg::AuthTitle)}</h2>
            <p>{tr(ctl.settings.lang, Msg::AuthBody)}</p>
            <pre class="mf-auth-url">{move || prompt.get().unwrap_or_default()}</pre>
            <button id="mf-auth-open" on:click=move |_| ctl.authorize(true)>
                {tr(ctl.settings.lang, Msg::AuthOpen)}
            </button>
            <button id="mf-auth-cancel" on:click=move |_| ctl.authorize(false)>
                {tr(ctl.settings.lang, Msg::AuthCancel)}
            </button>
        </div>
    }
}

on_demand!(
    run,
    fn auth_dialog_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| auth_dialog(ctl).into_any())
    }
);

/// The dialog, while the host waits for the user to open the authorization page.
#[component]
pub fn AuthDialog(ctl: Controller) -> impl IntoView {
    lazy_view(
        ctl,
        move || ctl.prompts.authorize.with(Option::is_some),
        || async { call_on_demand!(auth_dialog_fn()) },
    )
}
