//! Leptos components. Thin: the logic lives in `flow`, `mcp`, `llm` and `diagram`.

mod advanced_settings;
mod app_panel;
mod approval;
mod auth_dialog;
mod bounded_get;
mod bridge_leg;
mod compare;
mod connection;
mod content_view;
mod controller;
mod decision_view;
mod diagnosis;
mod diagram_view;
mod follow;
mod form;
pub mod history;
pub mod i18n;
mod inspector;
mod lazy_view;
mod llm_settings;
mod message_log;
mod model_status;
pub mod params;
mod player;
mod replay;
mod sampling_dialog;
mod saved_servers;
mod settings;
mod share;
mod storage;
pub mod stores;
mod theme;
mod timeline;
mod watch_panel;
mod you;

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::on_demand::call_on_demand;

use approval::{ApprovalDialog, RootsDialog};
use auth_dialog::AuthDialog;
use compare::CompareView;
use connection::ConnectionPanel;
pub use controller::{Compared, Controller};
use diagram_view::DiagramView;
use form::FormDialog;
use i18n::{Msg, fill, text, tr};
use inspector::Inspector;
use message_log::MessageLog;
use params::Preset;
use player::PlayerBar;
use sampling_dialog::SamplingDialogView;
use settings::SettingsPanel;
use share::Share;
use stores::Settings;
use theme::Theme;
use timeline::TimelinePanel;
use you::YouDialog;

use crate::diagram::{Lang, Row};
use crate::flow::gate::Mode;
use crate::flow::host::Approval;

fn controller_from_query(query: &str, origin: &str) -> Controller {
    let lang = params::query_param(query, "lang")
        .and_then(|l| Lang::from_code(&l))
        .unwrap_or_default();
    let server = params::server_url(query, origin);
    let default_question = Preset::of(&server)
        .example_question(lang == Lang::Zh)
        .or(Preset::Weather.example_question(lang == Lang::Zh))
        .unwrap_or_default();
    let question = params::query_param(query, "q")
        .filter(|q| !q.trim().is_empty())
        .unwrap_or_else(|| default_question.to_owned());
    let mode = match params::query_param(query, "mode").as_deref() {
        Some("step") => Mode::Step,
        _ => Mode::Play,
    };
    let speed = params::speed(query);
    let link = params::approval(query, &server, origin);
    let approval = match link {
        params::LinkApproval::Auto => Approval::Auto,
        _ => Approval::Ask,
    };
    let asked_for = (link == params::LinkApproval::AutoOnceConfirmed).then(|| server.clone());
    // A link's call: the named tool with its arguments, without a model.
    let call = params::query_param(query, "call")
        .filter(|tool| !tool.trim().is_empty())
        .map(|tool| (tool, params::query_param(query, "args").unwrap_or_default()));
    let question = match &call {
        Some((tool, args)) => format!("{tool} {args}"),
        None => question,
    };
    let ctl = Controller::new(server, question, lang, mode, speed, approval);
    if let Some((tool, args)) = call {
        ctl.settings.call_tool.set(tool);
        ctl.settings.call_args.set(args);
    }
    ctl.settings.link_auto.set(asked_for);
    let named = params::query_param(query, "server").filter(|s| !s.trim().is_empty());
    ctl.settings.link_server.set(named);
    ctl.settings.era.set(params::era(query));
    if let Some(asked) = params::query_param(query, "log") {
        ctl.settings
            .log_level
            .set(crate::mcp::log_level::asked_from_str(&asked));
    }
    ctl
}

/// Whether the key belongs to where it was pressed: a text field, or an element with keys of
/// its own (`data-own-keys`, e.g. the timeline's plot).
fn keys_belong_there(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| {
            matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                || el.closest("[data-own-keys]").ok().flatten().is_some()
        })
        .unwrap_or(false)
}

#[component]
pub fn App() -> impl IntoView {
    // Settings come from the address: ?server, q, mode, speed, lang, approve, era, llm, log,
    // autoplay, #row.
    let location = window().location();
    let query = location.search().unwrap_or_default();
    let origin = location.origin().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let ctl = controller_from_query(&query, &origin);
    let mut llm = storage::load();
    if let Some(provider) = params::llm(&query) {
        llm.set_provider(provider);
    }
    ctl.settings.llm.set(llm);
    if params::flag(&query, "autoplay") {
        ctl.start(ctl.mode.get_untracked());
    }
    // After starting: a row named in the link stays selected while the run goes on.
    if let Some(row) = hash.strip_prefix('#').and_then(Row::from_id) {
        ctl.select(row);
    }
    view! { <Page ctl=ctl /> }
}

/// The whole player for one controller: header, player bar, settings, both diagrams, inspector,
/// answer.
#[component]
pub fn Page(ctl: Controller) -> impl IntoView {
    let settings = ctl.settings;
    ctl.provide();
    let t = move |m: Msg| text(m, settings.lang.get());
    let watching = watch_asked();
    // Through mcp-flow-bridge: name what the bridge runs on the server's box.
    bridge_leg::watch();
    // Keep the hash on the selected row, so a link opens the same view.
    Effect::new(move |_| {
        if let Some(row) = ctl.selected() {
            let _ = window().location().set_hash(row.id());
        }
    });
    // The page's own language, for screen readers and fonts.
    Effect::new(move |_| {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", html_lang(settings.lang.get()));
        }
    });
    // The era spoken, on the root element once known (for tests and styles).
    Effect::new(move |_| {
        let era = ctl.run.with(|r| r.era.as_ref().map(|d| d.era.id()));
        if let Some(root) = document().document_element() {
            let _ = match era {
                Some(era) => root.set_attribute("data-era", era),
                None => root.remove_attribute("data-era"),
            };
        }
    });
    let theme = RwSignal::new(storage::load_theme());
    Effect::new(move |_| theme::apply(theme.get()));
    follow::keep_in_view(ctl);
    // Leaving the page ends the run and closes its session.
    let hide = window_event_listener(ev::pagehide, move |_| ctl.on_page_hide());
    on_cleanup(move || hide.remove());
    let handle = window_event_listener(ev::keydown, move |e| {
        if keys_belong_there(&e) {
            return;
        }
        match e.key().as_str() {
            " " => ctl.toggle(),
            "ArrowRight" => ctl.next(),
            "ArrowLeft" => ctl.select_step(-1),
            "Home" => ctl.select_first(),
            "End" => ctl.select_last(),
            _ => return,
        }
        e.prevent_default();
    });
    on_cleanup(move || handle.remove());

    view! {
        <main class="mf-app">
            <header class="mf-header">
                <div class="mf-heading">
                    <h1 class="mf-title">"MCP Flow"</h1>
                    <p class="mf-lede">{tr(settings.lang, Msg::Lede)}</p>
                </div>
                <div class="mf-prefs">
                    <label>
                        {tr(settings.lang, Msg::Language)}
                        <select id="mf-lang" on:change=move |ev| {
                            if let Some(l) = Lang::from_code(&event_target_value(&ev)) { set_lang(settings, l) }
                        }>
                            <option value="en" selected=move || settings.lang.get() == Lang::En>"English"</option>
                            <option value="zh" selected=move || settings.lang.get() == Lang::Zh>"中文"</option>
                        </select>
                    </label>
                    <label>
                        {tr(settings.lang, Msg::Theme)}
                        <select id="mf-theme" on:change=move |ev| {
                            let picked = Theme::from_id(&event_target_value(&ev));
                            storage::save_theme(picked);
                            theme.set(picked);
                        }>
                            {Theme::ALL.into_iter().map(|th| view! {
                                <option value=th.id() selected=move || theme.get() == th>{tr(settings.lang, th.label())}</option>
                            }).collect_view()}
                        </select>
                    </label>
                </div>
            </header>
            <PlayerBar ctl=ctl />
            // Opened on a bridge's watch feed: the watched host's sessions.
            {lazy_view::lazy_view(ctl, Box::new(move || watching), || Box::pin(async { call_on_demand!(watch_panel::watch_panel_fn()) }))}
            <SettingsPanel ctl=ctl />
            <Share ctl=ctl />
            <Show when=move || ctl.recording.with(|r| r.as_ref().is_some_and(|r| !r.created.is_empty()))>
                <p id="mf-recording" class="mf-recording" role="status">
                    {move || ctl.recording.with(|r| r.as_ref().map(|r| fill(t(Msg::RecordingBanner), &[
                        ("server", &r.server),
                        ("llm", &r.llm),
                        ("created", &r.created),
                    ]))).unwrap_or_default()}
                </p>
            </Show>
            <ApprovalDialog ctl=ctl />
            <RootsDialog ctl=ctl />
            <AuthDialog ctl=ctl />
            <FormDialog ctl=ctl />
            <SamplingDialogView ctl=ctl />
            <YouDialog ctl=ctl />
            <CompareView ctl=ctl />
            <section class="mf-answer" aria-live="polite">
                <p id="mf-era-line" class="mf-era-line">{move || era_line(ctl)}</p>
                <h2>{tr(settings.lang, Msg::Answer)}</h2>
                <p id="mf-answer">{move || ctl.run.with(|r| r.answer().map(str::to_owned)).unwrap_or_default()}</p>
                <p id="mf-error" class="mf-error-line">
                    {move || ctl.run.with(|r| r.first_error().map(|(row, e)| format!("{row}: {e}"))).unwrap_or_default()}
                </p>
                // The app of the tool the model called (MCP Apps), when it has one.
                {lazy_view::lazy_view(ctl, Box::new(move || ctl.app.get()), || Box::pin(async { call_on_demand!(app_panel::app_panel_fn()) }))}
            </section>
            <ConnectionPanel ctl=ctl />
            <MessageLog ctl=ctl />
            <TimelinePanel ctl=ctl open=timeline_asked() />
            <div class="mf-stage">
                <div class="mf-diagrams">
                    // Drawn once the server asked for authorization in this run.
                    {lazy_view::lazy_view(ctl, Box::new(move || ctl.authorized()), || Box::pin(async { call_on_demand!(diagram_view::authorization_view_fn()) }))}
                    <DiagramView ctl=ctl pick=diagram_view::first />
                    <DiagramView ctl=ctl pick=diagram_view::second />
                    // Drawn once the run browsed the server's resources and prompts.
                    {lazy_view::lazy_view(ctl, Box::new(move || ctl.browsed()), || Box::pin(async { call_on_demand!(diagram_view::browse_view_fn()) }))}
                    // Drawn once the run hosted a tool's app.
                    {lazy_view::lazy_view(ctl, Box::new(move || ctl.hosted_app()), || Box::pin(async { call_on_demand!(diagram_view::app_view_fn()) }))}
                </div>
                <Inspector ctl=ctl />
            </div>
            <footer class="mf-footer">{tr(settings.lang, Msg::Keys)}</footer>
        </main>
    }
}

/// Whether the page is opened on a bridge's watch feed (`?watch=URL`).
fn watch_asked() -> bool {
    let query = window().location().search().unwrap_or_default();
    params::query_param(&query, "watch").is_some()
}

/// Whether the link asks for the timeline (`?view=timeline`).
fn timeline_asked() -> bool {
    let query = window().location().search().unwrap_or_default();
    params::query_param(&query, "view").as_deref() == Some("timeline")
}

/// Which era the run speaks and why, or that it is not known yet.
fn era_line(ctl: Controller) -> String {
    let settings = expect_context::<Settings>();
    let lang = settings.lang.get();
    ctl.run.with(|r| {
        let Some(d) = &r.era else {
            return text(Msg::EraNotYet, lang).to_owned();
        };
        let why = r.era_said.as_deref().unwrap_or_default();
        // The probe failed as any server can fail; initialize will tell.
        if !d.why.is_evidence() {
            return format!("{}: {why}", text(Msg::EraNotYet, lang));
        }
        let name = match d.era {
            crate::mcp::era::Era::Modern => text(Msg::EraModernName, lang),
            crate::mcp::era::Era::Legacy => text(Msg::EraLegacyName, lang),
        };
        fill(text(Msg::EraInUse, lang), &[("era", name), ("why", why)])
    })
}

/// The root element's `lang` for the page's language.
fn html_lang(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::Zh => "zh-CN",
    }
}

/// Switches the page's language; a question still at its example follows the language too.
fn set_lang(settings: Settings, lang: Lang) {
    let server = settings.server.get_untracked();
    let question = settings.question.get_untracked();
    if let Some(q) = Preset::of(&server).example_in(&question, lang == Lang::Zh) {
        settings.question.set(q.to_owned());
    }
    settings.lang.set(lang);
}
