//! The settings' advanced part (request headers, roots, a pre-registered client): a closed panel
//! whose body is fetched the first time it opens (the `ui_panels` group), outside the first load.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{Msg, by_lang, in_lang};
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
                {in_lang(settings.lang, "Request headers (one per line, Name: value)", "请求头（每行一个，名称: 值）")}
                <textarea id="mf-headers" rows="2" spellcheck="false" autocomplete="off"
                    placeholder="Authorization: Bearer …"
                    prop:value=move || settings.headers.get()
                    on:input=move |ev| settings.headers.set(event_target_value(&ev))></textarea>
                <small>{in_lang(settings.lang, "Sent with every MCP request. Kept in this page's memory only: never saved, put in a link, recorded or exported (they show as [redacted]).", "随每个 MCP 请求发送。只保存在本页面的内存中：不会保存、放进链接、记录或导出（显示为 [redacted]）。")}</small>
            </label>
            <label class="mf-wide">
                {in_lang(settings.lang, "Roots (a URI and a name per line)", "根目录（每行一个 URI 和名称）")}
                <textarea id="mf-roots" rows="2" spellcheck="false" autocomplete="off"
                    placeholder="file:///home/me/project My project"
                    prop:value=move || settings.roots.get()
                    on:input=move |ev| settings.roots.set(event_target_value(&ev))
                    on:change=move |_| ctl.roots_changed()></textarea>
                // The note, or why the text does not read (the page answers with no roots then).
                <small id="mf-roots-note" role="status">{move || {
                    settings.roots.with(|t| crate::mcp::roots::parse(t).err())
                        .unwrap_or_else(|| by_lang(settings.lang.get(), "The answer to roots/list; none by default. In memory only.", "对 roots/list 的回答；默认没有。只保存在内存中。").to_owned())
                }}</small>
            </label>
            <label>
                {in_lang(settings.lang, "Pre-registered client ID (authorization)", "预注册的客户端 ID（授权）")}
                <input id="mf-client-id" type="text" spellcheck="false" autocomplete="off"
                    placeholder="mcp-flow-demo"
                    prop:value=move || settings.client_id.get()
                    on:input=move |ev| settings.client_id.set(event_target_value(&ev)) />
            </label>
            <label>
                {in_lang(settings.lang, "Its client secret, if any", "其客户端密钥（如有）")}
                <input id="mf-client-secret" type="password" autocomplete="off"
                    prop:value=move || settings.client_secret.get()
                    on:input=move |ev| settings.client_secret.set(event_target_value(&ev)) />
                <small>{in_lang(settings.lang, "Used instead of registering when the server asks for authorization; kept in this page's memory only", "服务器要求授权时代替注册使用；只保存在本页面的内存中")}</small>
            </label>
            </div>
    }
}
