//! The comparison of the eras: the question in the legacy era, then in the modern one, each a
//! normal run, and the figures of both. It comes with the comparison's module, fetched when the
//! user asks for it.

use futures_util::future::LocalBoxFuture;
use leptos::prelude::*;

use super::{COMPARE_WAIT_MS, Compared, Controller};
use crate::clock::{BrowserClock, Clock};
use crate::flow::engine::After;
use crate::flow::gate::Mode;
use crate::flow::host::Approval;
use crate::mcp::era::{Era, EraChoice};
use crate::on_demand::{OnDemandError, on_demand};
use crate::record::compare::EraFigures;

/// Runs a comparison started as `generation` (a newer one stops it).
pub type Runner = fn(Controller, u32) -> LocalBoxFuture<'static, ()>;

on_demand!(
    ui_compare,
    pub fn runner() -> Result<Runner, OnDemandError> {
        Ok(|this, generation| Box::pin(compare(this, generation)))
    }
);

async fn compare(this: Controller, generation: u32) {
    let clock = BrowserClock;
    let mut figures = Vec::new();
    for era in [Era::Legacy, Era::Modern] {
        let choice = if era == Era::Legacy {
            EraChoice::Legacy
        } else {
            EraChoice::Modern
        };
        let question = this.settings.question.get_untracked();
        this.begin_as(
            Mode::Play,
            After::Ask(question),
            choice,
            Approval::Auto,
            None,
        );
        let mut waited = 0;
        while this.running.get_untracked() && waited < COMPARE_WAIT_MS {
            clock.sleep(50).await;
            waited += 50;
        }
        if this.comparison.generation.get_untracked() != generation {
            return;
        }
        let run = this.run.get_untracked();
        if run.answer().is_none() {
            let error = run
                .first_error()
                .map(|(row, e)| format!("{row}: {e}"))
                .unwrap_or_else(|| format!("no answer within {COMPARE_WAIT_MS} ms"));
            this.end_run(None);
            this.comparison
                .compared
                .set(Some(Compared::Failed(era, error)));
            return;
        }
        figures.push(EraFigures::of(era, &run));
    }
    if let [legacy, modern] = figures.as_slice() {
        this.comparison.compared.set(Some(Compared::Done(Box::new([
            legacy.clone(),
            modern.clone(),
        ]))));
    }
}
