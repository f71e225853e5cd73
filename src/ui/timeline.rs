//! The timeline of the run shown: its spans in lanes on a time axis, from the record alone
//! (`record::timeline`). Closed at first; its body is fetched the first time it is opened (or
//! at once with `?view=timeline`). A span selects its row; +/− zoom and ←/→ pan while the plot
//! has the focus, as do the buttons.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::controller::Controller;
use super::i18n::{Msg, by_lang};
use super::lazy_view::{ViewFn, lazy_panel};
use super::stores::Settings;
use crate::decimal::fixed;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};
use crate::record::timeline::{Lane, Timeline, View, format_ms};

/// The plot's width in SVG units (it scales to the panel's width).
const WIDTH: f64 = 900.0;
/// Where the plot starts: the lanes' names are to its left.
const LEFT: f64 = 170.0;
const LANE_HEIGHT: f64 = 34.0;
const BAR: f64 = 16.0;

fn lane_y(lane: Lane) -> f64 {
    let i = Lane::ALL.iter().position(|l| *l == lane).unwrap_or(0);
    36.0 + i as f64 * LANE_HEIGHT
}

fn timeline_body(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let view = RwSignal::new(View::default());
    let timeline = Memo::new(move |_| ctl.run.with(Timeline::of));
    let keys = move |e: ev::KeyboardEvent| {
        let next = match e.key().as_str() {
            "+" | "=" => view.get_untracked().zoomed(true),
            "-" => view.get_untracked().zoomed(false),
            "ArrowRight" => view.get_untracked().panned(true),
            "ArrowLeft" => view.get_untracked().panned(false),
            _ => return,
        };
        e.prevent_default();
        // The spans are drawn again: a focused span gets the focus back once they are (found by
        // its method and start, which a span keeps while the run goes on).
        let focused = document()
            .active_element()
            .and_then(|el| el.get_attribute("data-key"));
        view.set(next);
        if let Some(key) = focused {
            request_animation_frame(move || {
                let Ok(spans) = document().query_selector_all("#mf-timeline g.mf-span") else {
                    return;
                };
                let span = (0..spans.length())
                    .filter_map(|i| spans.item(i))
                    .filter_map(|n| n.dyn_into::<web_sys::SvgElement>().ok())
                    .find(|el| el.get_attribute("data-key").as_deref() == Some(key.as_str()));
                if let Some(span) = span {
                    let _ = span.focus();
                }
            });
        }
    };
    let button = move |id: &'static str,
                       label: &'static str,
                       en: &'static str,
                       zh: &'static str,
                       act: fn(View) -> View| {
        view! {
            <button id=id aria-label=move || by_lang(settings.lang.get(), en, zh) on:click=move |_| view.update(|v| *v = act(*v))>{label}</button>
        }
    };
    let plot = move || {
        let lang = settings.lang.get();
        let v = view.get();
        let t = timeline.get();
        let width = WIDTH - LEFT;
        let x = move |ms: f64| LEFT + v.x(ms, t.duration, width);
        let lanes = Lane::ALL
            .into_iter()
            .map(|lane| {
                let y = lane_y(lane);
                view! {
                    <g class="mf-lane" data-lane=format!("{lane:?}")>
                        <line x1="0" x2=WIDTH y1=y + LANE_HEIGHT / 2.0 y2=y + LANE_HEIGHT / 2.0 />
                        <text x="4" y=y + LANE_HEIGHT / 2.0 - 4.0>{lane.name(lang)}</text>
                    </g>
                }
            })
            .collect_view();
        let selected = ctl.selected();
        let spans = t
            .spans
            .iter()
            .map(|s| {
                let start = x(s.start).max(LEFT);
                let end = x(s.end.unwrap_or(t.duration)).min(WIDTH);
                let y = lane_y(s.lane) + (LANE_HEIGHT - BAR) / 2.0 - 4.0;
                let row = s.row;
                let took = match s.end {
                    Some(end) => format!("{} ms", fixed(end - s.start, 1)),
                    None => by_lang(lang, "still open", "仍在进行").to_owned(),
                };
                let name = match s.round {
                    Some(n) => format!("{} · {} {n} ({took})", s.label, by_lang(lang, "round", "轮次")),
                    None => format!("{} ({took})", s.label),
                };
                let ticks = s
                    .ticks
                    .iter()
                    .map(|t| x(*t))
                    .filter(|tx| (LEFT..=WIDTH).contains(tx))
                    .map(|tx| view! { <line class="mf-tick" x1=tx x2=tx y1=y - 3.0 y2=y + BAR + 3.0 /> })
                    .collect_view();
                let shown = end >= LEFT && start <= WIDTH;
                let select = move || {
                    if let Some(row) = row {
                        ctl.select(row);
                    }
                };
                view! {
                    <g
                        class="mf-span"
                        class:mf-span-failed=s.failed
                        class:mf-span-selected=row.is_some() && row == selected
                        data-span=s.label.clone()
                        data-key=format!("{}@{}", s.label, s.start)
                        data-lane=format!("{:?}", s.lane)
                        data-row=row.map(|r| r.id())
                        tabindex=if shown { "0" } else { "-1" }
                        role="button"
                        aria-label=name
                        on:click=move |_| select()
                        on:keydown=move |e: ev::KeyboardEvent| if e.key() == "Enter" || e.key() == " " { e.prevent_default(); select() }
                    >
                        <title>{name.clone()}</title>
                        <rect x=start y=y width=(end - start).max(2.0) height=BAR rx="3" visibility=if shown { "visible" } else { "hidden" } />
                        {ticks}
                    </g>
                }
            })
            .collect_view();
        // Each MRTR exchange: one bracket over its rounds, above them in the requests' lane.
        let rounds = t
            .rounds
            .iter()
            .map(|r| {
                let (start, end) = (x(r.start).max(LEFT), x(r.end).min(WIDTH));
                let y = lane_y(Lane::Requests) + 2.0;
                let said = match lang {
                    crate::diagram::Lang::En => format!("input_required: {} rounds", r.rounds),
                    crate::diagram::Lang::Zh => format!("input_required：{} 轮", r.rounds),
                };
                let visibility = if end > start { "visible" } else { "hidden" };
                view! {
                    <g class="mf-rounds" data-group="mrtr" data-rounds=r.rounds visibility=visibility>
                        <path d=format!("M{start},{} V{y} H{end} V{}", y + 4.0, y + 4.0) />
                        <text x=start + 2.0 y=y - 2.0>{said}</text>
                    </g>
                }
            })
            .collect_view();
        let scale = format!(
            "{} ms {}",
            fixed(t.duration / v.zoom, 0),
            by_lang(lang, "shown", "可见")
        );
        // The time axis along the top: from the start of the run, in what is shown.
        let axis = v
            .axis(t.duration, 4)
            .into_iter()
            .map(|(fraction, ms)| {
                let at = LEFT + fraction * width;
                let anchor = if fraction == 0.0 { "start" } else if fraction == 1.0 { "end" } else { "middle" };
                view! { <text class="mf-timeline-axis" x=at y="28" text-anchor=anchor>{format_ms(ms)}</text> }
            })
            .collect_view();
        view! {
            {axis}
            {lanes}
            {rounds}
            {spans}
            <text class="mf-timeline-scale" x=WIDTH - 4.0 y="12" text-anchor="end">{scale}</text>
        }
    };
    let height = 36.0 + Lane::ALL.len() as f64 * LANE_HEIGHT;
    // One element for the whole life of the panel, so it keeps the focus as its content changes.
    let plot = view! {
        // The page's own keys (← → step the run) leave it alone: `data-own-keys`.
        <svg class="mf-timeline-plot" data-own-keys="" viewBox=format!("0 0 {WIDTH} {height}") tabindex="0" role="group"
            aria-label=move || by_lang(settings.lang.get(), "Timeline of the run: + and − zoom, ← and → pan", "运行的时间线：+ 和 − 缩放，← 和 → 平移")
            on:keydown=keys>
            {plot}
        </svg>
    };
    view! {
        <div class="mf-timeline-controls">
            {button("mf-timeline-in", "+", "Zoom in", "放大", |v| v.zoomed(true))}
            {button("mf-timeline-out", "−", "Zoom out", "缩小", |v| v.zoomed(false))}
            {button("mf-timeline-earlier", "←", "Earlier", "更早", |v| v.panned(false))}
            {button("mf-timeline-later", "→", "Later", "更晚", |v| v.panned(true))}
            {button("mf-timeline-fit", "⤢", "Whole run", "整个运行", |_| View::default())}
        </div>
        {plot}
    }
}

on_demand!(
    ui_panels,
    fn timeline_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| timeline_body(ctl).into_any())
    }
);

/// The timeline, closed at first (open with `?view=timeline`).
#[component]
pub fn TimelinePanel(ctl: Controller, open: bool) -> impl IntoView {
    lazy_panel(
        ctl,
        "mf-timeline",
        "mf-connection",
        Msg::Timeline,
        open,
        || Box::pin(async { call_on_demand!(timeline_fn()) }),
    )
}
