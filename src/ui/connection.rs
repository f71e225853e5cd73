//! The connection panel: what the run learned about the server and the link to it (from the real
//! exchanges, see `record::facts`), and the server's log lines with a level filter.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{Msg, text, tr};
use super::lazy_view::{ViewFn, lazy_view};
use crate::mcp::era::Era;
use crate::mcp::log_level::{self, LogLevel};
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};
use crate::record::facts::{Facts, log_lines};

fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn connection_body(ctl: Controller) -> impl IntoView {
    let level = RwSignal::new(LogLevel::Debug);
    let facts = Memo::new(move |_| ctl.run.with(Facts::of));
    let rows = move || {
        let lang = ctl.settings.lang.get();
        let t = move |m: Msg| text(m, lang);
        let f = facts.get();
        let mut out: Vec<(Msg, String, bool)> = Vec::new();
        let mut add = |m: Msg, v: Option<String>, code: bool| {
            if let Some(v) = v {
                out.push((m, v, code));
            }
        };
        add(
            Msg::ConnServer,
            f.server.clone().map(|s| match &f.server_title {
                Some(title) => format!("{s} ({title})"),
                None => s,
            }),
            false,
        );
        add(
            Msg::ConnVersion,
            f.version.clone().map(|v| match f.era {
                Some(Era::Modern) => format!("{v} (2026-07-28 era)"),
                Some(Era::Legacy) => format!("{v} (2025-11-25 era)"),
                None => v,
            }),
            false,
        );
        add(
            Msg::ConnSession,
            match f.era {
                Some(Era::Legacy) => Some(match &f.session {
                    Some(id) if f.session_closed => format!("{id} ({})", t(Msg::ConnClosed)),
                    Some(id) => id.clone(),
                    None => t(Msg::ConnStateless).to_owned(),
                }),
                Some(Era::Modern) => Some(t(Msg::ConnNoSession).to_owned()),
                None => None,
            },
            false,
        );
        add(
            Msg::ConnVersions,
            (!f.supported_versions.is_empty()).then(|| f.supported_versions.join(", ")),
            false,
        );
        add(
            Msg::ConnFresh,
            f.ttl_ms.map(|ms| match &f.cache_scope {
                Some(scope) => format!("{ms} ms, {scope}"),
                None => format!("{ms} ms"),
            }),
            false,
        );
        add(Msg::ConnInstructions, f.instructions.clone(), false);
        add(
            Msg::ConnServerCaps,
            f.server_capabilities.as_ref().map(pretty),
            true,
        );
        add(
            Msg::ConnClientCaps,
            f.client_capabilities.as_ref().map(pretty),
            true,
        );
        if out.is_empty() {
            return view! { <p class="mf-hint">{t(Msg::ConnNothing)}</p> }.into_any();
        }
        view! {
            <dl class="mf-values">
                {out.into_iter().map(|(m, v, code)| view! {
                    <dt>{t(m)}</dt>
                    <dd>{if code { view! { <pre class="mf-json">{v}</pre> }.into_any() } else { v.into_any() }}</dd>
                }).collect_view()}
            </dl>
        }
        .into_any()
    };
    let logs = move || {
        let lines = ctl.run.with(|r| log_lines(r, level.get()));
        if lines.is_empty() {
            return view! { <p class="mf-hint">{tr(ctl.settings.lang, Msg::LogsNone)}</p> }
                .into_any();
        }
        view! {
            <ol id="mf-logs" class="mf-logs">
                {lines.into_iter().map(|l| view! {
                    <li data-level=l.level.clone()>
                        <span class="mf-log-level">{l.level.clone()}</span>" "
                        {l.logger.map(|g| view! { <span class="mf-log-logger">{g}</span>" " })}
                        <span class="mf-log-text">{l.text}</span>
                    </li>
                }).collect_view()}
            </ol>
        }
        .into_any()
    };
    view! {
            <div id="mf-connection-facts">{rows}</div>
            <h3>{tr(ctl.settings.lang, Msg::Logs)}</h3>
            <label>
                {tr(ctl.settings.lang, Msg::LogAsk)}
                <select
                    id="mf-log-ask"
                    on:change=move |ev| ctl.settings.log_level.set(log_level::asked_from_str(&event_target_value(&ev)))
                >
                    <option value="off" selected=move || ctl.settings.log_level.get().is_none()>
                        {tr(ctl.settings.lang, Msg::LogAskOff)}
                    </option>
                    {LogLevel::ALL.into_iter().map(|l| view! {
                        <option value=l.as_str() selected=move || ctl.settings.log_level.get() == Some(l)>
                            {l.as_str()}
                        </option>
                    }).collect_view()}
                </select>
            </label>
            <p class="mf-hint">{tr(ctl.settings.lang, Msg::LogAskHint)}</p>
            <label>
                {tr(ctl.settings.lang, Msg::LogLevel)}
                <select
                    id="mf-log-level"
                    on:change=move |ev| level.set(LogLevel::parse(&event_target_value(&ev)).unwrap_or(LogLevel::Debug))
                >
                    {LogLevel::ALL.into_iter().map(|l| view! { <option value=l.as_str()>{l.as_str()}</option> }).collect_view()}
                </select>
            </label>
            {logs}
    }
}

on_demand!(
    ui_panels,
    fn connection_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| connection_body(ctl).into_any())
    }
);

/// The connection's facts and the server's logs, closed at first: the body is fetched the first
/// time the user opens it.
#[component]
pub fn ConnectionPanel(ctl: Controller) -> impl IntoView {
    let opened = RwSignal::new(false);
    view! {
        // The first toggle of a closed <details> opens it.
        <details id="mf-connection" class="mf-connection" on:toggle=move |_| opened.set(true)>
            <summary>{tr(ctl.settings.lang, Msg::Connection)}</summary>
            {lazy_view(ctl, move || opened.get(), || async { call_on_demand!(connection_fn()) })}
        </details>
    }
}
