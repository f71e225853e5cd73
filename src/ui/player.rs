//! The player bar: play/pause, history, restart, connect, ask, speed, progress and the
//! "follow" toggle. It stays at the top of the screen while the diagrams scroll.

use leptos::prelude::*;

use super::controller::Controller;
use super::follow;
use super::i18n::{Msg, text, tr};
use super::stores::Settings;
use crate::flow::gate::Mode;

/// The speeds offered: the option's value and multiplier (`None`: instant).
const SPEEDS: [(&str, Option<f64>); 6] = [
    ("0.25×", Some(0.25)),
    ("0.5×", Some(0.5)),
    ("1×", Some(1.0)),
    ("2×", Some(2.0)),
    ("4×", Some(4.0)),
    ("instant", None),
];

#[component]
pub fn PlayerBar(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let progress = move || {
        let rows = ctl.shown_rows();
        ctl.run.with(|r| r.progress(&rows))
    };
    let playing = move || ctl.running.get() && ctl.mode.get() == Mode::Play;
    let following = move || ctl.cursor.with(|c| c.follow);
    view! {
        <nav class="mf-player" aria-label=tr(settings.lang, Msg::Player)>
            <button id="mf-play" on:click=move |_| ctl.toggle()
                aria-label=move || text(if playing() { Msg::Pause } else { Msg::Play }, settings.lang.get())>
                {move || {
                    let (icon, msg) = if playing() { ("❚❚ ", Msg::Pause) } else { ("▶ ", Msg::Play) };
                    (icon, text(msg, settings.lang.get()))
                }}
            </button>
            <button id="mf-back" aria-label=tr(settings.lang, Msg::Back) on:click=move |_| ctl.select_step(-1)>
                "← "{tr(settings.lang, Msg::Back)}
            </button>
            <button id="mf-next" aria-label=tr(settings.lang, Msg::Next) on:click=move |_| ctl.next()>
                {tr(settings.lang, Msg::Next)}" →"
            </button>
            <button id="mf-restart" aria-label=tr(settings.lang, Msg::Restart) on:click=move |_| ctl.start(ctl.mode.get_untracked())>
                "↻ "{tr(settings.lang, Msg::Restart)}
            </button>
            <button id="mf-stop" title=tr(settings.lang, Msg::StopHint) aria-label=tr(settings.lang, Msg::Stop)
                disabled=move || !ctl.running.get()
                on:click=move |_| ctl.stop()>
                "■"
            </button>
            <button id="mf-connect" aria-label=tr(settings.lang, Msg::ConnectHint) on:click=move |_| ctl.connect(ctl.mode.get_untracked())>
                {tr(settings.lang, Msg::Connect)}
            </button>
            <button id="mf-ask" aria-label=tr(settings.lang, Msg::AskHint)
                disabled=move || ctl.running.get()
                on:click=move |_| ctl.ask(ctl.mode.get_untracked())>
                {tr(settings.lang, Msg::Ask)}
            </button>
            <label class="mf-speed">
                <span class="mf-speed-word">{tr(settings.lang, Msg::Speed)}</span>
                <select id="mf-speed" on:change=move |ev| {
                    let v = event_target_value(&ev);
                    if let Some((_, s)) = SPEEDS.iter().find(|(name, _)| *name == v) { ctl.set_speed(*s) }
                }>
                    {SPEEDS.iter().map(|(name, s)| {
                        let s = *s;
                        let shown = move || if s.is_none() { text(Msg::Instant, settings.lang.get()) } else { name };
                        view! { <option value=*name selected=move || settings.speed.get() == s>{shown}</option> }
                    }).collect_view()}
                </select>
            </label>
            <progress id="mf-progress" aria-label=tr(settings.lang, Msg::RowsDone)
                max=move || progress().1 value=move || progress().0></progress>
            <span class="mf-progress-text">{move || { let (a, b) = progress(); format!("{a}/{b}") }}</span>
            <button id="mf-follow" class="mf-follow" aria-pressed=move || following().to_string()
                title=tr(settings.lang, Msg::FollowHint)
                on:click=move |_| {
                    if ctl.cursor.with_untracked(|c| c.follow) { follow::stop_following(ctl) } else { ctl.follow() }
                }>
                {move || if following() { "◉ " } else { "○ " }}{tr(settings.lang, Msg::Follow)}
            </button>
        </nav>
    }
}
