//! The in-page model's decision in the inspector (row d2-3): how likely it found each tool and
//! "no tool" at the point of choice, and what it weighed for each token of each argument.

use leptos::prelude::*;

use crate::decimal::fixed;
use crate::llm::smollm::decision::Summary;

fn percent(p: f64) -> String {
    format!("{}%", fixed(p * 100.0, 1))
}

pub fn decision_view(s: Summary) -> impl IntoView {
    let choices = s
        .choices
        .into_iter()
        .map(|(name, p)| {
            let width = format!("width: {}%", fixed((p * 100.0).clamp(0.0, 100.0), 1));
            view! {
                <tr>
                    <td><code>{name}</code></td>
                    <td class="mf-p">{percent(p)}</td>
                    <td class="mf-bar-cell"><span class="mf-bar" style=width></span></td>
                </tr>
            }
        })
        .collect_view();
    let arguments = s
        .arguments
        .into_iter()
        .map(|a| {
            let steps = a
                .steps
                .into_iter()
                .map(|step| {
                    let (token, p) = (step.token, step.probability);
                    let others = step
                        .alternatives
                        .iter()
                        .map(|(t, p)| format!("{t:?} {}", percent(*p)))
                        .collect::<Vec<_>>()
                        .join(" · ");
                    view! {
                        <li><code>{format!("{token:?}")}</code>" "{percent(p)}<span class="mf-alternatives">{format!(" — weighed: {others}")}</span></li>
                    }
                })
                .collect_view();
            view! {
                <p><code>{a.name}</code>" = "<code>{a.value}</code></p>
                <ol class="mf-tokens">{steps}</ol>
            }
        })
        .collect_view();
    view! {
        <section class="mf-decision" id="mf-decision">
            <h5>"Decision (probability at the point of choice)"</h5>
            <table class="mf-choices"><tbody>{choices}</tbody></table>
            <p class="mf-llm-note">{s.constraint}</p>
            {arguments}
            <details class="mf-format">
                <summary>"The prompt as the model saw it (chat template applied)"</summary>
                <pre class="mf-json">{s.prompt}</pre>
            </details>
        </section>
    }
}
