//! The message log: every MCP exchange of the page's lifetime (earlier runs and this one, both
//! eras), with how each ended, searchable by method and filtered by outcome.

use leptos::prelude::*;

use super::controller::Controller;
use super::controller::NO_CONNECTION;
use super::i18n::{Msg, in_lang};
use super::lazy_view::{ViewFn, lazy_panel};
use super::replay::{ReplayPanel, shown_body};
use super::stores::Settings;
use crate::decimal::fixed;
use crate::diagram::Lang;
use crate::mcp::era::Era;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};
use crate::record::message_log::{
    Direction, Filters, Kind, LineId, RunExchanges, Source, arrange, rows,
};

fn kind_of(id: &str) -> Option<Kind> {
    match id {
        "ok" => Some(Kind::Ok),
        "tool" => Some(Kind::ToolError),
        "error" => Some(Kind::Error),
        "pending" => Some(Kind::Pending),
        _ => None,
    }
}

fn message_log_body(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let query = RwSignal::new(String::new());
    let kind = RwSignal::new(String::from("all"));
    let direction = RwSignal::new(None::<Direction>);
    let with_llm = RwSignal::new(false);
    let pinned = RwSignal::new(Vec::<LineId>::new());
    let replaying = RwSignal::new(None::<LineId>);
    let replay_body = RwSignal::new(String::new());
    let open_replay = move |line: LineId| {
        let recorded = ctl
            .logged_exchange(line)
            .and_then(|x| x.request_body)
            .unwrap_or_default();
        replay_body.set(shown_body(&recorded));
        replaying.set(Some(line));
    };
    let lines = move || {
        let past = ctl.past.runs.get();
        let current = ctl.run.get();
        let mismatch = current.output_mismatch_exchange();
        let mut runs: Vec<RunExchanges<'_>> = past
            .iter()
            .map(|p| RunExchanges {
                run: p.run,
                era: p.era,
                exchanges: &p.exchanges,
                mismatch: p.mismatch.as_ref(),
                llm: &p.llm,
                diagnosis: p.diagnosis.as_ref(),
            })
            .collect();
        // The run shown, unless it is a loaded recording (a watched session's traffic is shown).
        if ctl
            .recording
            .with(|r| r.as_ref().is_none_or(|r| r.created.is_empty()))
        {
            runs.push(RunExchanges {
                run: ctl.past.run_number.get(),
                era: current.era.as_ref().map(|d| d.era),
                exchanges: &current.mcp.exchanges,
                mismatch: mismatch.as_ref(),
                llm: &current.llm,
                diagnosis: current.diagnosis.as_ref(),
            });
        }
        let filters = Filters {
            query: query.get(),
            kind: kind_of(&kind.get()),
            direction: direction.get(),
            llm: with_llm.get(),
        };
        let shown = arrange(&rows(&runs), &filters, &pinned.get());
        shown
            .into_iter()
            .map(|(r, is_pinned)| {
                let line = r.line_id();
                let toggle = move |_| {
                    pinned.update(|p| {
                        if let Some(i) = p.iter().position(|x| *x == line) {
                            p.remove(i);
                        } else {
                            p.push(line);
                        }
                    })
                };
                let era = match r.era {
                    Some(Era::Modern) => "2026-07-28",
                    Some(Era::Legacy) => "2025-11-25",
                    None => "",
                };
                let what = match (r.replay, r.check) {
                    (Some(of), _) => format!("{} ({})", r.what, of.describe()),
                    (None, Some(check)) => match settings.lang.get() {
                        Lang::En => r.what.clone(),
                        Lang::Zh => format!("检查：{}", check.name(Lang::Zh)),
                    },
                    (None, None) => r.what.clone(),
                };
                let replay = r.replayable.then(|| view! {
                    <button
                        class="mf-replay-open"
                        disabled=move || !ctl.can_replay()
                        title=move || (!ctl.can_replay()).then_some(NO_CONNECTION)
                        on:click=move |_| open_replay(line)
                    >
                        {in_lang(settings.lang, "replay…", "重放…")}
                    </button>
                });
                let state = match r.outcome.kind() {
                    Kind::Ok => "ok",
                    Kind::ToolError => "tool-error",
                    Kind::Error => "error",
                    Kind::Pending => "pending",
                    Kind::NotRun => "not-run",
                };
                view! {
                    <tr
                        data-source=match r.source {
                            Source::Mcp => "mcp",
                            Source::Llm => "llm",
                            Source::Check => "check",
                        }
                        data-direction=match r.direction {
                            Direction::Sent => "sent",
                            Direction::Received => "received",
                        }
                        data-outcome=state
                        data-pinned=is_pinned.to_string()
                        data-replay=r.replay.is_some().to_string()
                    >
                        <td><button class="mf-pin" title="pin" aria-pressed=is_pinned.to_string() on:click=toggle>
                            {if is_pinned { "unpin" } else { "pin" }}
                        </button></td>
                        <td>{r.run}</td>
                        <td>{era}</td>
                        <td>{r.seq}</td>
                        <td title=if r.direction == Direction::Sent { "client → server" } else { "server → client" }>
                            {r.direction.arrow()}
                        </td>
                        <td><code>{what}</code></td>
                        <td>{r.id.unwrap_or_default()}</td>
                        <td class="mf-log-outcome">{r.outcome.describe()}</td>
                        <td>{r.duration_ms.map(|ms| format!("{} ms", fixed(ms, 1))).unwrap_or_default()}</td>
                        <td>{replay}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
            <div class="mf-log-filters">
                <input id="mf-log-search" type="search" placeholder="tools/call"
                    prop:value=move || query.get()
                    on:input=move |ev| query.set(event_target_value(&ev)) />
                <select
                    id="mf-log-direction"
                    on:change=move |ev| direction.set(match event_target_value(&ev).as_str() {
                        "sent" => Some(Direction::Sent),
                        "received" => Some(Direction::Received),
                        _ => None,
                    })
                >
                    <option value="both">{in_lang(settings.lang, "both ways", "双向")}</option>
                    <option value="sent">{in_lang(settings.lang, "→ to the server", "→ 发往服务器")}</option>
                    <option value="received">{in_lang(settings.lang, "← from the server", "← 来自服务器")}</option>
                </select>
                <label>
                    <input
                        id="mf-log-llm"
                        type="checkbox"
                        prop:checked=move || with_llm.get()
                        on:change=move |ev| with_llm.set(event_target_checked(&ev))
                    />
                    {in_lang(settings.lang, "model calls too", "也显示模型调用")}
                </label>
                <select id="mf-log-kind" on:change=move |ev| kind.set(event_target_value(&ev))>
                    <option value="all">{in_lang(settings.lang, "all", "全部")}</option>
                    <option value="ok">"ok"</option>
                    <option value="tool">{in_lang(settings.lang, "tool errors", "工具错误")}</option>
                    <option value="error">{in_lang(settings.lang, "errors", "错误")}</option>
                    <option value="pending">{in_lang(settings.lang, "waiting", "等待中")}</option>
                </select>
            </div>
            <table class="mf-log-table">
                <thead><tr><th></th><th>"run"</th><th>"era"</th><th>"#"</th><th></th><th>"message"</th><th>"id"</th><th>"outcome"</th><th>"time"</th><th></th></tr></thead>
                <tbody id="mf-log-rows">{lines}</tbody>
            </table>
            {move || replaying.get().map(|line| view! {
                <ReplayPanel ctl=ctl line=line body=replay_body open=replaying />
            })}
    }
}

on_demand!(
    ui_panels,
    fn message_log_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| message_log_body(ctl).into_any())
    }
);

/// The message log, closed at first: its body (filters, rows, replay) is fetched the first time
/// the user opens it.
#[component]
pub fn MessageLog(ctl: Controller) -> impl IntoView {
    lazy_panel(
        ctl,
        "mf-message-log",
        "mf-connection",
        Msg::MessageLog,
        false,
        || Box::pin(async { call_on_demand!(message_log_fn()) }),
    )
}
