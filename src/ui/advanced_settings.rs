//! The settings' advanced part (request headers, roots, a pre-registered client): a closed panel
//! whose body is fetched the first time it opens (the `ui_panels` group), outside the first load.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{Msg, text, tr};
use super::lazy_view::{ViewFn, lazy_panel};
use super::stores::Settings;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};

/// The panel "Request headers and authorization", closed until the user opens it.
pub fn advanced_settings(ctl: Controller) -> impl IntoView {
    lazy_panel(
        ctl,
        "mf-advanced",
        "mf-advanced",
        Msg::AdvancedSettings,
        false,
        || Box::pin(async { call_on_demand!(advanced_fn()) }),
    )
}

on_demand!(
    ui_panels,
    fn advanced_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| advanced_body(ctl).into_any())
    }
);

fn advanced_body(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    view! {
        <div class="mf-advanced-body">
            <label class="mf-wide">
                {tr(settings.lang, Msg::RequestHeadersSetting)}
                <textarea id="mf-headers" rows="2" spellcheck="false" autocomplete="off"
                    placeholder="Authorization: Bearer …"
                    prop:value=move || settings.headers.get()
                    on:input=move |ev| settings.headers.set(event_target_value(&ev))></textarea>
                <small>{tr(settings.lang, Msg::RequestHeadersNote)}</small>
            </label>
            <label class="mf-wide">
                {tr(settings.lang, Msg::RootsSetting)}
                <textarea id="mf-roots" rows="2" spellcheck="false" autocomplete="off"
                    placeholder="file:///home/me/project My project"
                    prop:value=move || settings.roots.get()
                    on:input=move |ev| settings.roots.set(event_target_value(&ev))
                    on:change=move |_| ctl.roots_changed()></textarea>
                // The note, or why the text does not read (the page answers with no roots then).
                <small id="mf-roots-note" role="status">{move || {
                    settings.roots.with(|t| crate::mcp::roots::parse(t).err())
                        .unwrap_or_else(|| text(Msg::RootsNote, settings.lang.get()).to_owned())
                }}</small>
            </label>
            <label>
                {tr(settings.lang, Msg::ClientId)}
                <input id="mf-client-id" type="text" spellcheck="false" autocomplete="off"
                    placeholder="mcp-flow-demo"
                    prop:value=move || settings.client_id.get()
                    on:input=move |ev| settings.client_id.set(event_target_value(&ev)) />
            </label>
            <label>
                {tr(settings.lang, Msg::ClientSecret)}
                <input id="mf-client-secret" type="password" autocomplete="off"
                    prop:value=move || settings.client_secret.get()
                    on:input=move |ev| settings.client_secret.set(event_target_value(&ev)) />
                <small>{tr(settings.lang, Msg::ClientNote)}</small>
            </label>
            </div>
    }
}
