//! The same question in both eras, side by side: what each put on the wire, and what changed
//! between the revisions and why.

use leptos::prelude::*;

use super::controller::{Compared, Controller};
use super::i18n::{Msg, fill, text, tr};
use super::lazy_view::{ViewFn, lazy_view};
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
        format!("{:.0} ms", f.time_ms),
    ]
}

fn compare_view(ctl: Controller) -> impl IntoView {
    // The module is in now: a comparison that could not start without it starts.
    if ctl.comparison.compared.get_untracked() == Some(Compared::NotStarted) {
        ctl.compare();
    }
    move || {
        let lang = ctl.settings.lang.get();
        let t = move |m: Msg| text(m, lang);
        let body = match ctl.comparison.compared.get()? {
            Compared::Running | Compared::NotStarted => view! { <p class="mf-hint">{t(Msg::CompareRunning)}</p> }.into_any(),
            Compared::Failed(era, error) => view! {
                <p class="mf-error-line">{fill(t(Msg::CompareFailed), &[("era", era_name(era, lang)), ("error", &error)])}</p>
            }
            .into_any(),
            Compared::Done(both) => {
                let [legacy, modern] = *both;
                let labels = [
                    Msg::CompareRequests,
                    Msg::CompareMethods,
                    Msg::CompareSent,
                    Msg::CompareReceived,
                    Msg::CompareTime,
                ];
                let (l, m) = (column(&legacy), column(&modern));
                view! {
                    <table id="mf-compare-table" class="mf-compare-table">
                        <thead><tr>
                            <th>{t(Msg::CompareEra)}</th>
                            <th data-era="legacy">{era_name(Era::Legacy, lang)}</th>
                            <th data-era="modern">{era_name(Era::Modern, lang)}</th>
                        </tr></thead>
                        <tbody>
                            {labels.iter().enumerate().map(|(i, label)| view! {
                                <tr><th>{t(*label)}</th><td>{l[i].clone()}</td><td>{m[i].clone()}</td></tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    <h3>{t(Msg::CompareChanges)}</h3>
                    <ul class="mf-changes">
                        {(0..CHANGES.len()).map(|i| view! { <li>{change(i, lang)}</li> }).collect_view()}
                    </ul>
                    <p><a href=CHANGELOG target="_blank" rel="noopener noreferrer">{t(Msg::CompareChangelog)}</a></p>
                }
                .into_any()
            }
        };
        Some(view! {
            <section id="mf-compare" class="mf-compare" aria-labelledby="mf-compare-title">
                <h2 id="mf-compare-title">{tr(ctl.settings.lang, Msg::CompareTitle)}</h2>
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
        move || ctl.comparison.compared.with(Option::is_some),
        || async { call_on_demand!(compare_view_fn()) },
    )
}
