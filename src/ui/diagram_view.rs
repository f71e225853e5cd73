//! One sequence diagram as inline SVG, each row's state taken from the run record.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{self, Msg, fill, text};
use super::lazy_view::ViewFn;
use super::stores::Settings;
use crate::decimal::short;
use crate::diagram::{
    Actor, ArrowKind, Lang, LayoutOptions, NoteGeom, RowGeom, TextLine, diagrams_for,
    layout_labeled,
};
use crate::diagram::{Diagram, Row};
use crate::llm::choice::{LlmSettings, Provider};
use crate::llm::smollm::status::stream_tail;
use crate::mcp::era::Era;
use crate::on_demand::{OnDemandError, on_demand};
use crate::record::live::{LiveValues, browse_line};
use crate::record::run::Run;

/// The most of the model's text shown on its row while it writes.
const STREAM_CHARS: usize = 48;

fn lines(lines: Vec<TextLine>, class: &'static str) -> impl IntoView {
    lines
        .into_iter()
        .map(|l| {
            view! {
                // The trailing space keeps lines apart in the element's text (its accessible
                // content); SVG drops it when drawing.
                <text class=class x=px(l.x) y=px(l.y) text-anchor="middle" dominant-baseline="middle">
                    {format!("{} ", l.text)}
                </text>
            }
        })
        .collect_view()
}

/// An SVG coordinate or size: at most one decimal.
fn px(v: f32) -> String {
    short(f64::from(v), 1).into()
}

fn points(row: &RowGeom) -> String {
    row.path
        .iter()
        .map(|p| format!("{},{}", px(p.x), px(p.y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The width of a row's progress bar.
const PROGRESS_WIDTH: f32 = 120.0;

fn row_view(ctl: Controller, row: RowGeom, diagram_id: &'static str) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let id = row.id;
    let status = move || ctl.run.with(|r| r.status(id));
    let state = move || status().as_str();
    let selected = move || ctl.selected() == Some(id);
    let error = move || ctl.run.with(|r| r.row(id).and_then(|x| x.error.clone()));
    let tool_failed = move || ctl.run.with(|r| r.tool_failed(id));
    let mismatch = move || ctl.run.with(|r| r.output_mismatch(id).is_some());
    let motion = {
        let p = &row.path;
        let mut d = String::new();
        for (i, pt) in p.iter().enumerate() {
            d.push_str(&format!(
                "{}{} {} ",
                if i == 0 { "M" } else { "L" },
                px(pt.x),
                px(pt.y)
            ));
        }
        d
    };
    // The arrowhead of this row's diagram (row ids do not all start with it: `a-1` is in `da`).
    let head = format!("url(#mf-head-{diagram_id})");
    let dashed = row.kind == ArrowKind::Dashed;
    let badge = row.badge;
    let pts = points(&row);
    let from_color = format!("var({})", row.from.css_var());
    let hit_top = px(row.top);
    let hit_h = px((row.bottom - row.top).max(1.0));
    // The in-page model's text, as it writes it, on the arrow of the turn it is taking (the
    // model writes while the question's arrow is active, before its reply's arrow lights up).
    let asked_by = match id {
        Row::LlmChoice => Some(Row::AskLlm),
        Row::LlmAnswer => Some(Row::ResultToLlm),
        _ => None,
    };
    let stream = move || {
        let asked_by = asked_by?;
        let writing = ctl.run.with(|r| {
            r.current().is_some_and(|c| c == asked_by || c == id)
                && r.status(id) != crate::record::run::RowStatus::Done
        });
        (writing && settings.llm.with(|s| s.provider == Provider::SmolLm2))
            .then(|| {
                ctl.workers
                    .model_text
                    .with(|t| stream_tail(t, STREAM_CHARS))
            })
            .filter(|t| !t.is_empty())
    };
    let (stream_x, stream_y) = (px((row.x1 + row.x2) / 2.0), px(row.y + 14.0));
    // Its name starts with the text it shows (the label, then the step's number), so what a
    // user sees is what a screen reader or voice control calls it (WCAG 2.5.3).
    let mut shown: Vec<String> = row.label.iter().map(|l| l.text.clone()).collect();
    shown.extend(badge.map(|b| b.number.to_string()));
    let shown = shown.join(" ");
    view! {
        <g
            class="mf-row"
            class:mf-optional=row.optional
            class:mf-selected=selected
            class:mf-tool-failed=tool_failed
            class:mf-output-mismatch=mismatch
            data-row=id.id()
            data-state=state
            tabindex="0"
            role="button"
            aria-label=move || {
                let lang = settings.lang.get();
                fill(text(Msg::RowAria, lang), &[("label", &shown), ("id", id.id()), ("state", i18n::status(status(), lang))])
            }
            on:click=move |_| ctl.select(id)
        >
            <rect class="mf-row-hit" x="0" y=hit_top width="100%" height=hit_h />
            <polyline
                class="mf-arrow"
                class:mf-dashed=dashed
                points=pts
                fill="none"
                marker-end=head
                style:stroke=from_color.clone()
            />
            {lines(row.label.clone(), "mf-label")}
            {badge.map(|b| {
                view! {
                    <circle class="mf-badge" cx=px(b.cx) cy=px(b.cy) r=px(b.r) style:fill=from_color.clone() />
                    <text class="mf-badge-num" x=px(b.cx) y=px(b.cy) text-anchor="middle" dominant-baseline="central">
                        {b.number}
                    </text>
                }
            })}
            <Show when=move || state() == "active">
                <circle class="mf-marker" r="5">
                    <animateMotion dur="1s" repeatCount="indefinite" path=motion.clone() />
                </circle>
            </Show>
            {move || stream().map(|tail| view! {
                <text class="mf-stream" x=stream_x.clone() y=stream_y.clone() text-anchor="middle" dominant-baseline="middle">
                    {tail}
                </text>
            })}
            <title>{move || error().unwrap_or_default()}</title>
        </g>
    }
}

/// The server's latest progress for the request of a row in flight, drawn under its arrow at
/// `(x, y)`: beside the row, not in it, for the eye only (the row's name stays its label, and the
/// inspector says the same in text).
fn progress_view(id: Row, x: f32, y: f32, p: crate::record::progress::Progress) -> impl IntoView {
    let width = PROGRESS_WIDTH * p.fraction().unwrap_or(0.0) as f32;
    view! {
        <g class="mf-row-progress" data-progress-of=id.id() aria-hidden="true">
            <rect class="mf-row-progress-track" x=px(x - PROGRESS_WIDTH / 2.0) y=px(y - 2.0)
                width=px(PROGRESS_WIDTH) height="4" rx="2" />
            <rect class="mf-row-progress-done" x=px(x - PROGRESS_WIDTH / 2.0) y=px(y - 2.0)
                width=px(width) height="4" rx="2" />
            <text class="mf-progress-said" x=px(x) y=px(y + 12.0) text-anchor="middle" dominant-baseline="middle">
                {p.said()}
            </text>
        </g>
    }
}

fn note_view(note: NoteGeom) -> impl IntoView {
    view! {
        <g class="mf-note">
            <rect x=px(note.rect.x) y=px(note.rect.y) width=px(note.rect.width) height=px(note.rect.height) rx="3" />
            {lines(note.lines, "mf-note-text")}
        </g>
    }
}

/// The LLM participant's subtitle names the model actually in use.
fn subtitle(actor: Actor, lang: Lang, original: String, llm: &LlmSettings) -> String {
    match (actor, lang, llm) {
        (Actor::Llm, Lang::Zh, s) if s.provider == Provider::Offline => "内置离线模型".into(),
        (Actor::Llm, _, _) => llm.label(),
        _ => original,
    }
}

/// Which diagram a [`DiagramView`] draws, for the era shown.
pub type Pick = fn(Era) -> &'static Diagram;

/// The era's discovery diagram.
pub fn first(era: Era) -> &'static Diagram {
    &diagrams_for(era)[0]
}

/// The era's execution diagram.
pub fn second(era: Era) -> &'static Diagram {
    &diagrams_for(era)[1]
}

/// The Authorization diagram, drawn once a run was asked to authorize: it comes with the run's
/// module, so its texts are not in the first load.
fn authorization_view(ctl: Controller) -> impl IntoView {
    view! { <DiagramView ctl=ctl pick=|_| crate::diagram::authorization() /> }
}

on_demand!(
    authorize,
    pub fn authorization_view_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| authorization_view(ctl).into_any())
    }
);

/// The diagram "Resources, prompts, completion and tasks", drawn once the run browsed the server: it
/// comes with the run's module too.
fn browse_view(ctl: Controller) -> impl IntoView {
    view! { <DiagramView ctl=ctl pick=|_| crate::diagram::browse() below=browse_line /> }
}

// With the run, not the walk: when the walk cannot be fetched, its diagram shows the first row
// failed with why.
on_demand!(
    run,
    pub fn browse_view_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| browse_view(ctl).into_any())
    }
);

/// The App diagram, drawn once the run hosted a tool's app: it comes with the apps' module.
fn app_view(ctl: Controller) -> impl IntoView {
    view! { <DiagramView ctl=ctl pick=|_| crate::diagram::app() below=browse_line /> }
}

on_demand!(
    apps,
    pub fn app_view_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| app_view(ctl).into_any())
    }
);

/// A line under a row's label from the run (`None`: the label alone).
pub type Below = fn(&Run, Row) -> Option<String>;

#[component]
pub fn DiagramView(
    ctl: Controller,
    pick: Pick,
    /// A line under each finished row's label (the browse diagram's values).
    #[prop(optional)]
    below: Option<Below>,
) -> impl IntoView {
    let settings = expect_context::<Settings>();
    // The era alone: the diagram is drawn again when it changes, not at every event of the run.
    let era = Memo::new(move |_| ctl.shown_era());
    let diagram = move || pick(era.get());
    let id = pick(era.get_untracked()).id;
    // The labels carry the run's real values in place of the tutorial's examples.
    let live = Memo::new(move |_| ctl.run.with(LiveValues::from_run));
    // Only a diagram with lines under its labels is laid out again at every event of the run;
    // the others only when their live values change.
    let geometry = Memo::new(move |_| {
        live.with(|live| {
            let lay = |run: Option<&Run>| {
                layout_labeled(
                    diagram(),
                    settings.lang.get(),
                    &LayoutOptions::default(),
                    &|m, original| {
                        let label = live.label(m.id, original);
                        match below.zip(run).and_then(|(line, run)| line(run, m.id)) {
                            Some(line) => format!("{label}\n{line}"),
                            None => label,
                        }
                    },
                )
            };
            match below {
                Some(_) => ctl.run.with(|run| lay(Some(run))),
                None => lay(None),
            }
        })
    });
    move || {
        let g = geometry.get();
        let lang = settings.lang.get_untracked();
        let llm = settings.llm.get();
        let bridge = settings.bridge.get();
        let boxes = g
            .participants
            .iter()
            .chain(g.footer.iter())
            .cloned()
            .map(|p| {
                let color = format!("var({})", p.actor.css_var());
                let mut sub = p.subtitle.clone();
                if let Some(first) = sub.first_mut() {
                    first.text = match (&bridge, p.actor) {
                        (Some(what), Actor::Server) => fill(
                            text(Msg::ViaBridge, lang),
                            &[("what", &crate::mcp::error::clip(what, 40))],
                        ),
                        _ => subtitle(p.actor, lang, first.text.clone(), &llm),
                    };
                    sub.truncate(1);
                }
                view! {
                    <g class="mf-participant" data-actor=format!("{:?}", p.actor)>
                        <rect x=px(p.rect.x) y=px(p.rect.y) width=px(p.rect.width) height=px(p.rect.height) rx="6" style:stroke=color />
                        {lines(p.name, "mf-pname")}
                        {lines(sub, "mf-psub")}
                    </g>
                }
            })
            .collect_view();
        let lifelines = g
            .lifelines
            .iter()
            .map(|l| view! { <line class="mf-lifeline" x1=px(l.x) y1=px(l.y1) x2=px(l.x) y2=px(l.y2) /> })
            .collect_view();
        let activations = g
            .activations
            .iter()
            .map(|a| {
                let color = format!("var({})", a.actor.css_var());
                view! {
                    <rect class="mf-activation" x=px(a.rect.x) y=px(a.rect.y) width=px(a.rect.width) height=px(a.rect.height) style:stroke=color />
                }
            })
            .collect_view();
        let notes = g.notes.iter().cloned().map(note_view).collect_view();
        let rows = g
            .rows
            .iter()
            .cloned()
            .map(|r| row_view(ctl, r, id))
            .collect_view();
        // Where a row's progress goes: under the middle of its arrow.
        let places: Vec<(Row, f32, f32)> = g
            .rows
            .iter()
            .map(|r| (r.id, (r.x1 + r.x2) / 2.0, r.y + 14.0))
            .collect();
        let progress = move || {
            ctl.run.with(|run| {
                places.iter().find_map(|&(row, x, y)| {
                    let record = run.row(row)?;
                    let p = record.progress.clone()?;
                    (record.status == crate::record::run::RowStatus::Active)
                        .then(|| progress_view(row, x, y, p))
                })
            })
        };
        view! {
            <figure class="mf-figure" id=format!("mf-{id}")>
                <figcaption>{diagram().title.get(lang)}</figcaption>
                <svg
                    class="mf-diagram"
                    viewBox=format!("0 0 {} {}", short(f64::from(g.width), 0), short(f64::from(g.height), 0))
                    width=px(g.width)
                    role="group"
                    aria-label=diagram().title.get(lang)
                    font-size=px(g.font_px)
                >
                    <defs>
                        <marker id=format!("mf-head-{id}") viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                            <path class="mf-head" d="M0,0 L10,5 L0,10 z" />
                        </marker>
                    </defs>
                    {lifelines}
                    {activations}
                    {notes}
                    {boxes}
                    {rows}
                    {progress}
                </svg>
            </figure>
        }
    }
}
