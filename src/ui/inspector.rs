//! The step inspector: the selected row's explanation, then the raw exchanges behind it.
//! Everything from the server is rendered as text, never as HTML.

use leptos::prelude::*;
use serde_json::Value;

use super::controller::Controller;
use super::i18n::{self, Msg, by_lang, fill, text};
use super::lazy_view::{ViewFn, lazy_view};
use super::model_status::ModelLiveView;
use super::stores::Settings;
use crate::decimal::fixed;
use crate::diagram::{Lang, diagrams_for, find_row};
use crate::llm::{LlmExchange, formats};
use crate::mcp::record::{Exchange, curl};
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};
use crate::record::explain::explain;
use crate::record::freshness::freshness;
use crate::record::payload::{Field, FieldValue, Payload};
use crate::record::row_details::RowDetails;
use crate::record::run::RowStatus;

fn pretty(text: &str) -> String {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| text.to_owned())
}

fn copy(text: String) {
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().clipboard().write_text(&text);
    }
}

fn headers(list: &[(String, String)]) -> String {
    list.iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn exchange_view(x: Exchange, wire: bool, lang: Lang) -> impl IntoView {
    let request_body = x.request_body.clone().map(|b| pretty(&b));
    let curl_text = curl(&x);
    let body_copy = x.request_body.clone().unwrap_or_default();
    let status = match (x.status, &x.error) {
        (Some(s), _) => format!("HTTP {s}"),
        (None, Some(_)) => by_lang(lang, "no response", "无响应").to_owned(),
        (None, None) => by_lang(lang, "waiting…", "等待中…").to_owned(),
    };
    let timing = match x.duration_ms() {
        Some(ms) => format!("{} ms", fixed(ms, 1)),
        None => by_lang(lang, "in flight", "进行中").to_owned(),
    };
    let started = x.started_ms;
    let events = x
        .events
        .iter()
        .filter(|e| wire || !e.data.is_empty())
        .map(|e| {
            let head = format!(
                "+{} ms  id: {}  event: {}{}",
                fixed(e.at_ms - started, 1),
                e.id.as_deref().unwrap_or("-"),
                e.event,
                e.retry.map(|r| format!("  retry: {r}")).unwrap_or_default()
            );
            let data = if e.data.is_empty() {
                by_lang(lang, "(empty data: priming event)", "（空数据：预备事件）").to_owned()
            } else {
                pretty(&e.data)
            };
            view! { <li><div class="mf-ev-head">{head}</div><pre>{data}</pre></li> }
        })
        .collect_view();
    let response_body = x
        .response_body
        .clone()
        .filter(|b| !b.is_empty())
        .map(|b| pretty(&b));
    let second = super::bridge_leg::second_leg(&x, lang);
    view! {
        <section class="mf-exchange" data-seq=x.seq>
            <h4>
                {format!("{} {}", x.method, x.url)}
                {x.rpc_method.clone().map(|m| format!("  ·  {m}"))}
            </h4>
            {x.note.clone().map(|n| view! { <p class="mf-note-line">{n}</p> })}
            <details open=wire>
                <summary>{by_lang(lang, "Request headers", "请求头")}</summary>
                <pre>{headers(&x.request_headers)}</pre>
            </details>
            {request_body.map(|b| view! { <pre class="mf-json">{b}</pre> })}
            <div class="mf-buttons">
                <button on:click=move |_| copy(body_copy.clone())>{by_lang(lang, "Copy body", "复制正文")}</button>
                <button on:click=move |_| copy(curl_text.clone())>{by_lang(lang, "Copy as curl", "复制为 curl 命令")}</button>
            </div>
            <h5>{status}" · "{timing}</h5>
            <details open=wire>
                <summary>{by_lang(lang, "Response headers", "响应头")}</summary>
                <pre>{headers(&x.response_headers)}</pre>
            </details>
            {response_body.map(|b| view! { <pre class="mf-json">{b}</pre> })}
            <ol class="mf-events">{events}</ol>
            {x.error.clone().map(|e| view! { <p class="mf-error-line">{e}</p> })}
            {second}
        </section>
    }
}

fn llm_view(x: LlmExchange, lang: Lang) -> impl IntoView {
    let request = serde_json::to_string_pretty(&x.request).unwrap_or_default();
    let response = x
        .response
        .as_ref()
        .and_then(|r| serde_json::to_string_pretty(r).ok());
    let decision = x
        .response
        .as_ref()
        .and_then(crate::llm::smollm::decision::summary)
        .map(super::decision_view::decision_view);
    view! {
        <section class="mf-exchange mf-llm-exchange">
            <h4>{format!("LLM · {} · {}", x.provider, x.url)}</h4>
            {decision}
            <h5>{by_lang(lang, "Request", "请求")}</h5>
            <pre class="mf-json">{request}</pre>
            <h5>{format!("{} · {} ms", by_lang(lang, "Response", "响应"), fixed(x.finished_ms - x.started_ms, 1))}</h5>
            {response.map(|r| view! { <pre class="mf-json">{r}</pre> })}
            {x.error.clone().map(|e| view! { <p class="mf-error-line">{e}</p> })}
        </section>
    }
}

#[component]
pub fn Inspector(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    view! {
        <aside class="mf-inspector" aria-label=move || text(Msg::Inspector, settings.lang.get())>
            <ModelLiveView ctl=ctl />
            <label class="mf-switch">
                <input
                    type="checkbox"
                    prop:checked=move || settings.wire_detail.get()
                    on:change=move |ev| settings.wire_detail.set(event_target_checked(&ev))
                />
                {move || text(Msg::WireDetail, settings.lang.get())}
            </label>
            {move || ctl.selected().is_none().then(|| view! {
                <p class="mf-hint">{text(Msg::InspectorHint, settings.lang.get())}</p>
            })}
            {lazy_view(ctl, Box::new(move || ctl.selected().is_some()), || Box::pin(async { call_on_demand!(row_details_fn()) }))}
        </aside>
    }
}

on_demand!(
    run,
    fn row_details_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| row_details(ctl).into_any())
    }
);

/// The selected row: what it is and what happened there, with the exchanges behind it.
fn row_details(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    // Read from the run once per change of the run, the selection, the era or the language.
    let details = Memo::new(move |_| {
        let id = ctl.selected()?;
        let lang = settings.lang.get();
        // The row's label as its arrow shows it: the shown era's diagram.
        let original = diagrams_for(ctl.shown_era())
            .iter()
            .find_map(|d| d.message(id))
            .or_else(|| find_row(id).map(|(_, m)| m))
            .map(|m| m.label.get(lang))
            .unwrap_or_default();
        Some((id, ctl.run.with(|run| RowDetails::of(run, id, original))))
    });
    move || {
        let lang = settings.lang.get();
        let Some((id, details)) = details.get() else {
            return ().into_any();
        };
        let wire = settings.wire_detail.get();
        let RowDetails {
            record,
            label,
            tool_failed,
            mismatch,
            exchanges,
            llm,
            decision,
            content,
            notifications,
            icons,
            app,
            diagnosis,
        } = details;
        let (text, link) = explain(id, lang, ctl.shown_era(), record.as_ref());
        let href = link.clone();
        let shown_values = record
            .as_ref()
            .and_then(|r| r.payload.as_ref())
            .map(|p| p.fields())
            .unwrap_or_default()
            .into_iter()
            .map(|(field, value)| {
                let value = match value {
                    FieldValue::Value(v) => v,
                    FieldValue::Absent => by_lang(lang, "(none)", "（无）").to_owned(),
                };
                view! { <dt>{field.name()}</dt><dd>{value}</dd> }
            })
            .collect_view();
        let skipped = record
                    .as_ref()
                    .and_then(|r| r.skipped)
                    .map(|why| view! { <p class="mf-note-line">{fill(by_lang(lang, "skipped: {why}", "已跳过：{why}"), &[("why", &why.describe(lang))])}</p> });
        let (payload, formats) = match record.as_ref().and_then(|r| r.payload.clone()) {
            Some(Payload::ToolsForLlm { sent, tools, .. }) => (Some(sent), formats::all(&tools)),
            _ => (None, Vec::new()),
        };
        let formats = formats
            .into_iter()
            .map(|(format, v)| view! {
                <details class="mf-format"><summary>{fill(by_lang(lang, "Same tools, {format} format", "同样的工具，{format} 格式"), &[("format", format.name())])}</summary><pre class="mf-json">{v}</pre></details>
            })
            .collect_view();
        let status = record
            .as_ref()
            .map(|r| r.status)
            .unwrap_or(RowStatus::Pending);
        let error = record.as_ref().and_then(|r| r.error.clone());
        let decision = decision.map(super::decision_view::decision_view);
        let content = (!content.is_empty()).then(|| super::content_view::content_view(content));
        let icons = (!icons.is_empty()).then(|| icons_view(icons, lang));
        // A live run's result with caching hints: how old it is against its ttlMs.
        let fresh = record
            .as_ref()
            .filter(|_| ctl.recording.with_untracked(Option::is_none))
            .and_then(|r| match (r.field(Field::Ttl), r.finished_ms) {
                (Some(FieldValue::Value(ttl)), Some(at)) => Some((ttl.parse::<u64>().ok()?, at)),
                _ => None,
            })
            .map(|(ttl, at)| {
                let now = crate::clock::Clock::now_ms(&crate::clock::BrowserClock);
                view! { <p class="mf-note-line mf-freshness">{freshness(at, ttl, now, lang)}</p> }
            });
        view! {
            <div class="mf-inspect" data-row=id.id()>
                <h3><span class="mf-row-id">{id.id()}</span>" "<span class="mf-state" data-state=status.as_str()>{i18n::status(status, lang)}</span></h3>
                <p class="mf-row-label">{label}</p>
                {error.map(|e| view! { <p class="mf-error-line" role="alert">{e}</p> })}
                {diagnosis.map(|d| diagnosis_view(d, lang))}
                {tool_failed.then(|| view! { <p class="mf-error-line mf-tool-failed">{by_lang(lang, "The tool failed: its result says isError: true. A tool's failure travels as a result the model reads, not as a JSON-RPC error.", "工具执行失败：结果带有 isError: true。工具的失败作为结果交给模型阅读，而不是 JSON-RPC 错误。")}</p> })}
                {mismatch.map(|m| view! { <p class="mf-error-line mf-output-mismatch">{m}</p> })}
                {skipped}
                {fresh}
                <p class="mf-explain">{text}</p>
                <p><a href=href target="_blank" rel="noopener noreferrer">{by_lang(lang, "Specification: ", "规范：")}{link}</a></p>
                <dl class="mf-values">{shown_values}</dl>
                {payload.map(|p| view! { <pre class="mf-json">{p}</pre> })}
                {content}
                {icons}
                {decision}
                {formats}
                <ul class="mf-notifications">
                    {notifications.into_iter().map(|n| view! { <li><pre>{pretty(&n.to_string())}</pre></li> }).collect_view()}
                </ul>
                {app.into_iter().map(|post| app_post_view(post, lang)).collect_view()}
                {exchanges.into_iter().map(|x| exchange_view(x, wire, lang)).collect_view()}
                {llm.into_iter().map(|x| llm_view(x, lang)).collect_view()}
            </div>
        }
        .into_any()
    }
}

/// Why the first request found no MCP server: what the checks found, the command that fixes it
/// (with a copy button), and each check (passed, failed, not run) with what it sent and got.
fn diagnosis_view(d: crate::diagnose::Diagnosis, lang: Lang) -> impl IntoView {
    use crate::diagnose::Verdict;
    let command = d.finding.command().map(str::to_owned);
    let checks = d
        .checks
        .into_iter()
        .map(|c| {
            let (mark, verdict) = match c.verdict {
                Verdict::Passed => ("✓", "passed"),
                Verdict::Failed => ("✗", "failed"),
                Verdict::NotRun => ("–", "not-run"),
            };
            let said = match c.verdict {
                Verdict::NotRun => by_lang(lang, " (not run)", "（未运行）").to_owned(),
                _ if c.detail.is_empty() => String::new(),
                _ => format!(": {}", c.detail),
            };
            view! { <li data-verdict=verdict>{mark}" "{c.id.name(lang)}{said}</li> }
        })
        .collect_view();
    view! {
        <section id="mf-diagnosis" class="mf-diagnosis">
            <h4>{by_lang(lang, "Diagnosis", "诊断")}</h4>
            <p class="mf-diagnosis-finding">{d.finding.say(lang)}</p>
            {command.map(|c| view! {
                <p><code id="mf-diagnosis-command">{c.clone()}</code>" "
                <button class="mf-secondary" on:click=move |_| copy(c.clone())>{by_lang(lang, "Copy", "复制")}</button></p>
            })}
            <ol class="mf-checks">{checks}</ol>
        </section>
    }
}

/// A message between host and app (MCP Apps): which way it went, why the host refused it, its
/// JSON.
fn app_post_view(post: crate::record::run::AppPost, lang: Lang) -> impl IntoView {
    let way = match (post.to_app, lang) {
        (true, Lang::En) => "host → app (postMessage)",
        (true, Lang::Zh) => "主机 → 应用（postMessage）",
        (false, Lang::En) => "app → host (postMessage)",
        (false, Lang::Zh) => "应用 → 主机（postMessage）",
    };
    view! {
        <div class="mf-app-post">
            <p class="mf-note-line">{way}</p>
            {post.refused.map(|why| view! { <p class="mf-error-line">{why}</p> })}
            {(!post.message.is_null()).then(|| view! { <pre class="mf-json">{pretty(&post.message.to_string())}</pre> })}
        </div>
    }
}

/// The icons of a server or its tools: each shown small (fetched without credentials or
/// referrer), or why it is not fetched.
fn icons_view(icons: Vec<crate::host::icons::Icon>, lang: crate::diagram::Lang) -> impl IntoView {
    let items = icons
        .into_iter()
        .map(|icon| {
            let shown = match icon.src {
                Ok(src) => view! {
                    <img class="mf-icon" src=src width="32" height="32" alt=fill(by_lang(lang, "icon of {of}", "{of} 的图标"), &[("of", &icon.of)])
                        crossorigin="anonymous" referrerpolicy="no-referrer" />
                }
                .into_any(),
                Err(why) => view! { <span class="mf-note-line">{why}</span> }.into_any(),
            };
            view! { <li><code>{icon.of.clone()}</code>" "{shown}" "<small>{icon.note}</small></li> }
        })
        .collect_view();
    view! {
        <h5>{by_lang(lang, "Icons", "图标")}</h5>
        <ul class="mf-icons">{items}</ul>
    }
}
