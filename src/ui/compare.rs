//! The same question in both eras, side by side: what each put on the wire, and what changed
//! between the revisions and why.

use leptos::prelude::*;

use super::controller::{Compared, Controller};
use super::i18n::{Msg, by_lang, fill, in_lang, text};
use super::lazy_view::{ViewFn, lazy_view};
use super::stores::Settings;
use crate::decimal::fixed;
use crate::mcp::era::Era;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};
use crate::record::compare::{CHANGELOG, CHANGES, EraFigures, change};

fn era_name(era: Era, lang: crate::diagram::Lang) -> &'static str {
    match era {
        Era::Modern => text(Msg::EraModernName, lang),
        Era::Legacy => text(Msg::EraLegacyName, lang),
    }
}

fn column(f: &EraFigures) -> [String; 5] {
    [
        f.requests.to_string(),
        f.methods.join(", "),
        f.bytes_sent.to_string(),
        f.bytes_received.to_string(),
        format!("{} ms", fixed(f.time_ms, 0)),
    ]
}

fn compare_view(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    // The module is in now: a comparison that could not start without it starts.
    if ctl.comparison.compared.get_untracked() == Some(Compared::NotStarted) {
        ctl.compare();
    }
    move || {
        let lang = settings.lang.get();
        let body = match ctl.comparison.compared.get()? {
            Compared::Running | Compared::NotStarted => view! { <p class="mf-hint">{by_lang(lang, "Running the question in both eras…", "正在用两个版本运行这个问题…")}</p> }.into_any(),
            Compared::Failed(era, error) => view! {
                <p class="mf-error-line">{fill(by_lang(lang, "The {era} run did not finish: {error}", "{era} 的运行没有完成：{error}"), &[("era", era_name(era, lang)), ("error", &error)])}</p>
            }
            .into_any(),
            Compared::Done(both) => {
                let [legacy, modern] = *both;
                let labels = [
                    by_lang(lang, "HTTP requests", "HTTP 请求数"),
                    by_lang(lang, "What was sent", "发送了什么"),
                    by_lang(lang, "Bytes sent", "发送字节数"),
                    by_lang(lang, "Bytes received", "接收字节数"),
                    by_lang(lang, "Time", "耗时"),
                ];
                let (l, m) = (column(&legacy), column(&modern));
                view! {
                    <table id="mf-compare-table" class="mf-compare-table">
                        <thead><tr>
                            <th>{by_lang(lang, "Era", "版本")}</th>
                            <th data-era="legacy">{era_name(Era::Legacy, lang)}</th>
                            <th data-era="modern">{era_name(Era::Modern, lang)}</th>
                        </tr></thead>
                        <tbody>
                            {labels.iter().enumerate().map(|(i, label)| view! {
                                <tr><th>{*label}</th><td>{l[i].clone()}</td><td>{m[i].clone()}</td></tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    <h3>{by_lang(lang, "What changed, and why", "变了什么，为什么")}</h3>
                    <ul class="mf-changes">
                        {(0..CHANGES.len()).map(|i| view! { <li>{change(i, lang)}</li> }).collect_view()}
                    </ul>
                    <p><a href=CHANGELOG target="_blank" rel="noopener noreferrer">{by_lang(lang, "The 2026-07-28 changelog", "2026-07-28 变更日志")}</a></p>
                }
                .into_any()
            }
        };
        Some(view! {
            <section id="mf-compare" class="mf-compare" aria-labelledby="mf-compare-title">
                <h2 id="mf-compare-title">{in_lang(settings.lang, "The same question in both eras", "同一个问题，两个协议版本")}</h2>
                {body}
            </section>
        })
    }
}

on_demand!(
    ui_compare,
    fn compare_view_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| compare_view(ctl).into_any())
    }
);

/// The comparison of the eras, fetched the first time the user asks for it.
#[component]
pub fn CompareView(ctl: Controller) -> impl IntoView {
    lazy_view(
        ctl,
        Box::new(move || ctl.comparison.compared.with(Option::is_some)),
        || Box::pin(async { call_on_demand!(compare_view_fn()) }),
    )
}
