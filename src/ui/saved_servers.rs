//! Saved servers in the settings: pick one (its URL, era and timeout), save the current one
//! under a name, remove one, and the per-request timeout. Kept in localStorage; request headers
//! are never saved.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{Msg, text, tr};
use super::storage;
use super::stores::Settings;
use crate::host::saved::SavedServer;
use crate::mcp::record::url_has_secrets;

#[component]
pub fn SavedServersView(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let servers = RwSignal::new(storage::load_servers());
    let name = RwSignal::new(String::new());
    let problem = RwSignal::new(String::new());
    // A URL with a secret in it (a bridge path, query values) is saved on the second press.
    let warned = RwSignal::new(None::<String>);
    let pick = move |ev| {
        let picked = event_target_value(&ev);
        let Some(server) = servers.with_untracked(|s| s.get(&picked).cloned()) else {
            return;
        };
        ctl.end_run(Some("ended: another saved server was picked"));
        settings.server.set(server.url.clone());
        settings.era.set(server.era_choice());
        ctl.set_request_timeout_ms(server.timeout_ms);
        name.set(server.name);
    };
    let save = move |_| match SavedServer::new(
        &name.get_untracked(),
        &settings.server.get_untracked(),
        settings.era.get_untracked(),
        ctl.request_timeout_ms(),
    ) {
        Ok(server)
            if url_has_secrets(&server.url)
                && warned.get_untracked().as_ref() != Some(&server.url) =>
        {
            warned.set(Some(server.url));
            problem.set(text(Msg::SaveSecretWarning, settings.lang.get_untracked()).into());
        }
        Ok(server) => {
            warned.set(None);
            servers.update(|s| s.put(server));
            servers.with_untracked(storage::save_servers);
            problem.set(String::new());
        }
        Err(why) => problem.set(why),
    };
    let remove = move |_| {
        servers.update(|s| s.remove(name.get_untracked().trim()));
        servers.with_untracked(storage::save_servers);
    };
    view! {
        <div class="mf-saved">
            <label>
                {tr(settings.lang, Msg::SavedServers)}
                <select id="mf-saved" on:change=pick>
                    <option value="">"—"</option>
                    {move || servers.with(|s| s.0.iter().map(|x| view! {
                        <option value=x.name.clone()>{x.name.clone()}</option>
                    }).collect_view())}
                </select>
            </label>
            <label>
                {tr(settings.lang, Msg::SaveAs)}
                <input id="mf-saved-name" type="text" prop:value=move || name.get()
                    on:input=move |ev| name.set(event_target_value(&ev)) />
            </label>
            <button id="mf-save-server" on:click=save>{tr(settings.lang, Msg::SaveServer)}</button>
            <button id="mf-remove-server" on:click=remove>{tr(settings.lang, Msg::RemoveServer)}</button>
            <label>
                {tr(settings.lang, Msg::TimeoutMs)}
                <input id="mf-timeout" type="number" min="500" max="600000" step="500"
                    prop:value=move || ctl.request_timeout_ms().to_string()
                    on:change=move |ev| {
                        if let Ok(ms) = event_target_value(&ev).parse::<u32>() {
                            ctl.set_request_timeout_ms(ms.clamp(500, 600_000));
                        }
                    } />
            </label>
            <p id="mf-saved-problem" class="mf-error-line" role="alert">{move || problem.get()}</p>
        </div>
    }
}
