//! Leptos components. Thin: the logic lives in `flow`, `mcp`, `llm` and `diagram`.

mod controller;
mod diagram_view;
pub mod i18n;
mod inspector;
mod llm_settings;
pub mod params;
mod share;
mod storage;

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

pub use controller::Controller;
use diagram_view::DiagramView;
use inspector::Inspector;
use llm_settings::LlmSettingsView;
use share::Share;

use crate::diagram::{Lang, Row};
use crate::flow::gate::Mode;
use crate::flow::host::Approval;
use params::Preset;

const SPEEDS: [(&str, Option<f64>); 6] = [
    ("0.25×", Some(0.25)),
    ("0.5×", Some(0.5)),
    ("1×", Some(1.0)),
    ("2×", Some(2.0)),
    ("4×", Some(4.0)),
    ("instant", None),
];

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
    let approval = match params::query_param(query, "approve").as_deref() {
        Some("auto") => Approval::Auto,
        _ => Approval::Ask,
    };
    Controller::new(server, question, lang, mode, speed, approval)
}

fn in_text_field(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
        .unwrap_or(false)
}

#[component]
pub fn App() -> impl IntoView {
    // Settings come from the address: ?server, q, mode, speed, lang, approve, autoplay, #row.
    let location = window().location();
    let query = location.search().unwrap_or_default();
    let origin = location.origin().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let ctl = controller_from_query(&query, &origin);
    ctl.llm.set(storage::load());
    if params::flag(&query, "autoplay") {
        ctl.start(ctl.mode.get_untracked());
    }
    // After starting: a row named in the link stays selected while the run goes on.
    if let Some(row) = hash.strip_prefix('#').and_then(Row::from_id) {
        ctl.select(row);
    }
    view! { <Page ctl=ctl /> }
}

/// The whole player for one controller: settings, controls, both diagrams, inspector, answer.
#[component]
pub fn Page(ctl: Controller) -> impl IntoView {
    // Keep the hash on the selected row, so a link opens the same view.
    Effect::new(move |_| {
        if let Some(row) = ctl.selected() {
            let _ = window().location().set_hash(row.id());
        }
    });
    // Leaving the page ends the run and closes its session.
    let hide = window_event_listener(ev::pagehide, move |_| ctl.on_page_hide());
    on_cleanup(move || hide.remove());
    let handle = window_event_listener(ev::keydown, move |e| {
        if in_text_field(&e) {
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

    let progress = move || ctl.run.with(|r| r.progress());
    let playing = move || ctl.running.get() && ctl.mode.get() == Mode::Play;

    view! {
        <main class="mf-app">
            <header class="mf-header">
                <h1 class="mf-title">"MCP Flow"</h1>
                <p class="mf-lede">
                    "A real MCP client in your browser, talking Streamable HTTP. Every arrow lights up from a real request, response or SSE event."
                </p>
            </header>
            <section class="mf-settings" aria-label="Settings">
                <label>
                    "MCP server"
                    <select id="mf-server-preset" on:change=move |ev| {
                        let id = event_target_value(&ev);
                        if let Some(p) = Preset::ALL.into_iter().find(|p| p.id() == id) {
                            ctl.server.update(|url| *url = p.apply(url));
                            if let Some(q) = p.example_question(ctl.lang.get_untracked() == Lang::Zh) {
                                ctl.question.set(q.to_owned());
                            }
                        }
                    }>
                        {Preset::ALL.into_iter().map(|p| view! {
                            <option value=p.id() selected=move || Preset::of(&ctl.server.get()) == p>{p.title()}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label>
                    "MCP server URL"
                    <input id="mf-server" type="url" prop:value=move || ctl.server.get()
                        on:input=move |ev| ctl.server.set(event_target_value(&ev)) />
                </label>
                <label>
                    "Question"
                    <input id="mf-question" type="text" prop:value=move || ctl.question.get()
                        on:input=move |ev| ctl.question.set(event_target_value(&ev)) />
                </label>
                <label>
                    "Language"
                    <select id="mf-lang" on:change=move |ev| {
                        if let Some(l) = Lang::from_code(&event_target_value(&ev)) { ctl.lang.set(l) }
                    }>
                        <option value="en" selected=move || ctl.lang.get() == Lang::En>"English"</option>
                        <option value="zh" selected=move || ctl.lang.get() == Lang::Zh>"中文"</option>
                    </select>
                </label>
                <label class="mf-switch">
                    <input id="mf-approve" type="checkbox"
                        prop:checked=move || ctl.approval.get() == Approval::Ask
                        on:change=move |ev| ctl.approval.set(if event_target_checked(&ev) { Approval::Ask } else { Approval::Auto }) />
                    "Ask before running a tool"
                </label>
                <LlmSettingsView ctl=ctl />
            </section>
            <nav class="mf-player" aria-label="Player">
                <button id="mf-play" aria-label=move || if playing() { "Pause" } else { "Play" }
                    on:click=move |_| ctl.toggle()>
                    {move || if playing() { "❚❚ Pause" } else { "▶ Play" }}
                </button>
                <button id="mf-back" aria-label="Back" on:click=move |_| ctl.select_step(-1)>"← Back"</button>
                <button id="mf-next" aria-label="Next" on:click=move |_| ctl.next()>"Next →"</button>
                <button id="mf-restart" aria-label="Restart" on:click=move |_| ctl.start(ctl.mode.get_untracked())>"↻ Restart"</button>
                <button id="mf-connect" aria-label="Connect (diagram 1 only)" on:click=move |_| ctl.connect(ctl.mode.get_untracked())>"Connect"</button>
                <button id="mf-ask" aria-label="Ask the question (diagram 2)"
                    disabled=move || ctl.running.get()
                    on:click=move |_| ctl.ask(ctl.mode.get_untracked())>"Ask"</button>
                <label>
                    "Speed "
                    <select id="mf-speed" aria-label="Speed" on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if let Some((_, s)) = SPEEDS.iter().find(|(name, _)| *name == v) { ctl.set_speed(*s) }
                    }>
                        {SPEEDS.iter().map(|(name, s)| {
                            let s = *s;
                            view! { <option value=*name selected=move || ctl.speed.get() == s>{*name}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <progress id="mf-progress" aria-label="Rows done"
                    max=move || progress().1 value=move || progress().0></progress>
                <span class="mf-progress-text">{move || { let (a, b) = progress(); format!("{a}/{b}") }}</span>
            </nav>
            <Share ctl=ctl />
            <Show when=move || ctl.recording.with(|r| r.is_some())>
                <p id="mf-recording" class="mf-recording" role="status">
                    {move || ctl.recording.get().unwrap_or_default()}
                    ". Nothing is sent while it is shown; Restart starts a live run."
                </p>
            </Show>
            <Show when=move || ctl.dialog.with(Option::is_some)>
                <div class="mf-dialog" role="dialog" aria-modal="true" aria-labelledby="mf-dialog-title">
                    <h2 id="mf-dialog-title">{move || ctl.dialog.with(|d| d.as_ref().map(|d| format!("Execute '{}' on Tool Server?", d.tool)).unwrap_or_default())}</h2>
                    <pre>{move || ctl.dialog.with(|d| d.as_ref().map(|d| serde_json::to_string_pretty(&d.arguments).unwrap_or_default()).unwrap_or_default())}</pre>
                    <button id="mf-yes" on:click=move |_| ctl.decide(true)>"Yes"</button>
                    <button id="mf-no" on:click=move |_| ctl.decide(false)>"Decline"</button>
                </div>
            </Show>
            <section class="mf-answer" aria-live="polite">
                <h2>"Answer"</h2>
                <p id="mf-answer">{move || ctl.run.with(|r| r.answer().map(str::to_owned)).unwrap_or_default()}</p>
                <p id="mf-error" class="mf-error-line">
                    {move || ctl.run.with(|r| r.first_error().map(|(row, e)| format!("{row}: {e}"))).unwrap_or_default()}
                </p>
            </section>
            <div class="mf-stage">
                <div class="mf-diagrams">
                    <DiagramView ctl=ctl index=0 />
                    <DiagramView ctl=ctl index=1 />
                </div>
                <Inspector ctl=ctl />
            </div>
            <footer class="mf-footer">
                "Keys: Space play/pause, → next, ← back, Home/End"
            </footer>
        </main>
    }
}
