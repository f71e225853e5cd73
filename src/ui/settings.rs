//! The run's settings in a collapsible panel whose summary line says what is set: open on a
//! wide screen until a run starts, then out of the way of the diagrams.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{Msg, fill, text, tr};
use super::llm_settings::LlmSettingsView;
use super::params::Preset;
use super::saved_servers::SavedServersView;
use super::stores::Settings;
use crate::diagram::Lang;
use crate::flow::host::Approval;
use crate::llm::choice::Provider;
use crate::mcp::era::EraChoice;

/// From this width up the settings start open (until a run starts).
pub const WIDE_PX: f64 = 1024.0;

/// Whether the panel is open: as the user last left it, else open only on a wide screen before
/// any run has started.
pub fn settings_open(width: f64, started: bool, user: Option<bool>) -> bool {
    user.unwrap_or(width >= WIDE_PX && !started)
}

#[component]
pub fn SettingsPanel(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let user = RwSignal::new(None::<bool>);
    let started = move || {
        ctl.running.get()
            || ctl.recording.with(Option::is_some)
            || ctl
                .run
                .with(|r| r.rows.iter().any(|x| x.status.is_finished()))
    };
    let width = || window().inner_width().ok().and_then(|w| w.as_f64());
    let open = Memo::new(move |_| settings_open(width().unwrap_or(WIDE_PX), started(), user.get()));
    let summary = move || {
        let lang = settings.lang.get();
        let llm = settings.llm.with(|s| {
            if s.provider == Provider::Offline {
                text(Msg::OfflineShort, lang).to_owned()
            } else {
                s.model.clone()
            }
        });
        let approval = match settings.approval.get() {
            Approval::Ask => text(Msg::ApprovalAsk, lang),
            Approval::Auto => text(Msg::ApprovalAuto, lang),
        };
        format!("{} · {llm} · {approval}", settings.server.get())
    };
    view! {
        <details id="mf-settings-panel" class="mf-settings-panel" prop:open=move || open.get()
            on:toggle=move |ev| {
                // The toggle event also follows the page's own changes: only a difference from
                // what the page set is the user's choice.
                let now = event_target::<web_sys::Element>(&ev).has_attribute("open");
                if now != open.get_untracked() {
                    user.set(Some(now));
                }
            }>
            <summary>
                <span class="mf-settings-title">{tr(settings.lang, Msg::Settings)}</span>
                <span id="mf-settings-summary" class="mf-settings-summary">{summary}</span>
            </summary>
            <section class="mf-settings" aria-label=tr(settings.lang, Msg::Settings)>
                <label>
                    {tr(settings.lang, Msg::McpServer)}
                    <select id="mf-server-preset" on:change=move |ev| {
                        let id = event_target_value(&ev);
                        if let Some(p) = Preset::ALL.into_iter().find(|p| p.id() == id) {
                            settings.server.update(|url| *url = p.apply(url));
                            ctl.end_run(Some("ended: the server changed in the settings"));
                            if let Some(q) = p.example_question(settings.lang.get_untracked() == Lang::Zh) {
                                settings.question.set(q.to_owned());
                            }
                        }
                    }>
                        {Preset::ALL.into_iter().map(|p| view! {
                            <option value=p.id() selected=move || Preset::of(&settings.server.get()) == p>
                                {move || p.title(settings.lang.get())}
                            </option>
                        }).collect_view()}
                    </select>
                </label>
                <label class="mf-wide">
                    {tr(settings.lang, Msg::McpServerUrl)}
                    <input id="mf-server" type="url" prop:value=move || settings.server.get()
                        on:input=move |ev| {
                            settings.link_server.set(None);
                            settings.server.set(event_target_value(&ev));
                        }
                        on:change=move |_| ctl.end_run(Some("ended: the server changed in the settings")) />
                    <Show when=move || Preset::of(&settings.server.get()) == Preset::Bridge>
                        <small id="mf-bridge-hint">
                            {move || match settings.bridge.get() {
                                Some(what) => fill(text(Msg::ViaBridge, settings.lang.get()), &[("what", &what)]),
                                None => text(Msg::BridgeHint, settings.lang.get()).to_owned(),
                            }}
                        </small>
                    </Show>
                </label>
                <label>
                    {tr(settings.lang, Msg::Era)}
                    <select id="mf-era" on:change=move |ev| {
                        if let Some(choice) = EraChoice::from_id(&event_target_value(&ev)) {
                            settings.era.set(choice);
                            // A run of the other era is not this setting's run any more.
                            ctl.end_run(Some("ended: the era changed in the settings"));
                        }
                    }>
                        {EraChoice::ALL.into_iter().map(|c| {
                            let label = match c {
                                EraChoice::Auto => Msg::EraAuto,
                                EraChoice::Modern => Msg::EraModern,
                                EraChoice::Legacy => Msg::EraLegacy,
                            };
                            view! { <option value=c.id() selected=move || settings.era.get() == c>{tr(settings.lang, label)}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label class="mf-switch">
                    <input id="mf-approve" type="checkbox"
                        prop:checked=move || settings.approval.get() == Approval::Ask
                        on:change=move |ev| settings.approval.set(if event_target_checked(&ev) { Approval::Ask } else { Approval::Auto }) />
                    {tr(settings.lang, Msg::AskBeforeTool)}
                </label>
                <SavedServersView ctl=ctl />
                {super::advanced_settings::advanced_settings(ctl)}
                <LlmSettingsView />
                <label class="mf-wide">
                    {tr(settings.lang, Msg::Question)}
                    <input id="mf-question" type="text" prop:value=move || settings.question.get()
                        on:input=move |ev| {
                            settings.call_tool.set(String::new());
                            settings.question.set(event_target_value(&ev));
                        } />
                </label>
            </section>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_on_a_wide_screen_until_a_run_starts_unless_the_user_says_otherwise() {
        assert!(settings_open(1280.0, false, None));
        assert!(settings_open(1024.0, false, None));
        assert!(!settings_open(1280.0, true, None));
        assert!(!settings_open(390.0, false, None), "a phone starts closed");
        assert!(settings_open(1280.0, true, Some(true)));
        assert!(settings_open(390.0, true, Some(true)));
        assert!(!settings_open(1280.0, false, Some(false)));
    }
}
