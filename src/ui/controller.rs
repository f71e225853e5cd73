//! The page's state and the player's actions. Components read the signals and call these.

use std::rc::Rc;

use leptos::prelude::*;

use crate::diagram::{seeds, spec::Lang};
use crate::flow::gate::{Gate, Mode};
use crate::flow::host::{Approval, Host};
use crate::flow::run::{RowStatus, Run, RunEvent};
use crate::llm::choice::{AnyLlm, LlmSettings};
use crate::mcp::browser::Fetch;
use crate::mcp::client::McpClient;

type BrowserHost = Host<Fetch, AnyLlm<Fetch>>;

/// Every row id of both diagrams, in order.
pub fn all_rows() -> Vec<&'static str> {
    seeds::diagrams()
        .iter()
        .flat_map(|d| d.messages().map(|m| m.id).collect::<Vec<_>>())
        .collect()
}

#[derive(Clone, Copy)]
pub struct Controller {
    pub run: RwSignal<Run>,
    pub lang: RwSignal<Lang>,
    pub selected: RwSignal<Option<String>>,
    /// The selection follows the active row until the user picks one.
    pub follow: RwSignal<bool>,
    pub mode: RwSignal<Mode>,
    pub speed: RwSignal<Option<f64>>,
    pub approval: RwSignal<Approval>,
    pub server: RwSignal<String>,
    pub question: RwSignal<String>,
    pub running: RwSignal<bool>,
    pub wire_detail: RwSignal<bool>,
    /// The LLM participant; its key stays in this page's memory.
    pub llm: RwSignal<LlmSettings>,
    /// Set while a loaded recording is shown: what it is, for the banner.
    pub recording: RwSignal<Option<String>>,
    /// How long the MCP client waits for each response; see [`Controller::set_request_timeout_ms`].
    timeout_ms: RwSignal<u32>,
    generation: RwSignal<u32>,
    host: StoredValue<Option<Rc<BrowserHost>>, LocalStorage>,
    gate: StoredValue<Rc<Gate>, LocalStorage>,
}

impl Controller {
    pub fn new(
        server: String,
        question: String,
        lang: Lang,
        mode: Mode,
        speed: Option<f64>,
        approval: Approval,
    ) -> Self {
        Self {
            run: RwSignal::new(Run::new(all_rows())),
            lang: RwSignal::new(lang),
            selected: RwSignal::new(None),
            follow: RwSignal::new(true),
            mode: RwSignal::new(mode),
            speed: RwSignal::new(speed),
            approval: RwSignal::new(approval),
            server: RwSignal::new(server),
            question: RwSignal::new(question),
            running: RwSignal::new(false),
            wire_detail: RwSignal::new(false),
            llm: RwSignal::new(LlmSettings::default()),
            recording: RwSignal::new(None),
            timeout_ms: RwSignal::new(crate::mcp::client::DEFAULT_TIMEOUT_MS),
            generation: RwSignal::new(0),
            host: StoredValue::new_local(None),
            gate: StoredValue::new_local(Rc::new(Gate::new(mode, speed))),
        }
    }

    fn gate(&self) -> Rc<Gate> {
        self.gate.get_value()
    }

    /// The MCP client's per-request timeout, for this connection and every later one.
    pub fn set_request_timeout_ms(&self, ms: u32) {
        self.timeout_ms.set(ms);
        if let Some(host) = self.host.get_value() {
            host.client.set_timeout_ms(ms);
        }
    }

    /// A new real run of both diagrams.
    pub fn start(&self, mode: Mode) {
        self.begin(mode, true);
    }

    /// A new connection: diagram 1 only (Connect).
    pub fn connect(&self, mode: Mode) {
        self.begin(mode, false);
    }

    /// Whether diagram 1 finished, so questions can be asked on this connection.
    pub fn connected(&self) -> bool {
        self.host.with_value(|h| h.is_some())
            && self
                .run
                .with_untracked(|r| r.status("d1-8") == RowStatus::Done)
    }

    /// Diagram 2 again on the current connection with the current question (Ask). Connects
    /// first when there is no connection yet.
    pub fn ask(&self, mode: Mode) {
        if self.running.get_untracked() {
            return;
        }
        let Some(host) = self.host.get_value().filter(|_| self.connected()) else {
            self.start(mode);
            return;
        };
        let generation = self.generation.get_untracked();
        self.mode.set(mode);
        self.gate().set_mode(mode);
        host.set_approval(self.approval.get_untracked());
        self.run.update(|r| r.reset_rows("d2-"));
        self.follow.set(true);
        self.running.set(true);
        let question = self.question.get_untracked();
        let this = *self;
        leptos::task::spawn_local(async move {
            let _ = host.ask(&question).await;
            if this.generation.get_untracked() == generation {
                this.running.set(false);
            }
        });
    }

    /// Shows a recorded run in the same player and inspector. Nothing is sent; a live run in
    /// progress is abandoned, and Restart starts a new live one.
    pub fn load_recording(&self, rec: crate::export::recording::Recording) {
        self.generation.update(|g| *g += 1);
        self.host.set_value(None);
        self.running.set(false);
        self.recording.set(Some(format!(
            "Recording of a run against {} ({}), exported {}",
            rec.server, rec.llm, rec.created
        )));
        if let Some(lang) = Lang::from_code(&rec.lang) {
            self.lang.set(lang);
        }
        self.server.set(rec.server);
        self.question.set(rec.question);
        self.run.set(rec.run);
        self.follow.set(false);
        self.select_first();
    }

    fn begin(&self, mode: Mode, ask: bool) {
        let generation = self.generation.get_untracked() + 1;
        self.generation.set(generation);
        self.recording.set(None);
        self.run.set(Run::new(all_rows()));
        self.follow.set(true);
        self.mode.set(mode);
        let gate = Rc::new(Gate::new(mode, self.speed.get_untracked()));
        self.gate.set_value(gate.clone());
        let this = *self;
        let emit: Rc<dyn Fn(RunEvent)> = Rc::new(move |event: RunEvent| {
            if this.generation.get_untracked() != generation {
                return; // a restarted run's leftovers
            }
            if let RunEvent::Active { row, .. } = &event
                && this.follow.get_untracked()
            {
                this.selected.set(Some(row.clone()));
            }
            this.run.update(|r| r.apply(event));
        });
        let mcp_emit = emit.clone();
        let client = Rc::new(McpClient::new(
            Fetch,
            self.server.get_untracked(),
            Rc::new(move |u| mcp_emit(RunEvent::Mcp(u))),
        ));
        client.set_timeout_ms(self.timeout_ms.get_untracked());
        let host = Rc::new(Host::new(
            client,
            self.llm.get_untracked().build(Fetch),
            gate,
            self.approval.get_untracked(),
            emit,
        ));
        self.host.set_value(Some(host.clone()));
        self.running.set(true);
        let question = self.question.get_untracked();
        leptos::task::spawn_local(async move {
            let _ = async {
                host.discover().await?;
                if ask {
                    host.ask(&question).await?;
                }
                Ok::<(), crate::flow::host::Stopped>(())
            }
            .await;
            if this.generation.get_untracked() == generation {
                this.running.set(false);
            }
        });
    }

    pub fn play(&self) {
        self.mode.set(Mode::Play);
        if self.running.get_untracked() {
            self.gate().set_mode(Mode::Play);
        } else {
            self.start(Mode::Play);
        }
    }

    pub fn pause(&self) {
        self.mode.set(Mode::Step);
        self.gate().set_mode(Mode::Step);
    }

    pub fn toggle(&self) {
        if self.running.get_untracked() && self.mode.get_untracked() == Mode::Play {
            self.pause();
        } else {
            self.play();
        }
    }

    /// → : after going back, step forward through the rows that have happened; at the newest
    /// one, advance the host one row (starting a run in Step mode if none is going).
    pub fn next(&self) {
        if !self.follow.get_untracked() {
            let rows = self.visited();
            let at = self
                .selected
                .with_untracked(|s| s.as_ref().and_then(|s| rows.iter().position(|r| r == s)));
            if let Some(at) = at
                && at + 1 < rows.len()
            {
                self.selected.set(Some(rows[at + 1].clone()));
                self.follow.set(at + 2 == rows.len());
                return;
            }
        }
        if !self.running.get_untracked() {
            self.start(Mode::Step);
        }
        self.follow.set(true);
        self.gate().next();
    }

    pub fn set_speed(&self, speed: Option<f64>) {
        self.speed.set(speed);
        self.gate().set_speed(speed);
    }

    /// The user's answer to the approval dialog.
    pub fn decide(&self, yes: bool) {
        if let Some(host) = self.host.get_value() {
            host.decide(yes);
        }
    }

    /// Rows that have happened (done, failed, active), in order.
    fn visited(&self) -> Vec<String> {
        self.run
            .get_untracked()
            .rows
            .iter()
            .filter(|r| r.status != RowStatus::Pending && r.status != RowStatus::Skipped)
            .map(|r| r.id.clone())
            .collect()
    }

    /// ← / Home / End: move the selection through rows that have happened (history only).
    pub fn select_step(&self, delta: i32) {
        let rows = self.visited();
        if rows.is_empty() {
            return;
        }
        let current = self.selected.get_untracked();
        let at = current
            .and_then(|c| rows.iter().position(|r| *r == c))
            .unwrap_or(rows.len() - 1);
        let to = (at as i32 + delta).clamp(0, rows.len() as i32 - 1) as usize;
        self.follow.set(false);
        self.selected.set(Some(rows[to].clone()));
    }

    pub fn select_first(&self) {
        if let Some(first) = self.visited().first() {
            self.follow.set(false);
            self.selected.set(Some(first.clone()));
        }
    }

    pub fn select_last(&self) {
        if let Some(last) = self.visited().last() {
            self.follow.set(true);
            self.selected.set(Some(last.clone()));
        }
    }

    pub fn select(&self, row: &str) {
        self.follow.set(false);
        self.selected.set(Some(row.to_owned()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::run::RunEvent;

    fn finished(ctl: &Controller, rows: &[&str]) {
        ctl.run.update(|r| {
            for row in rows {
                r.apply(RunEvent::Done {
                    row: (*row).into(),
                    at_ms: 0.0,
                    values: vec![],
                });
            }
        });
        ctl.selected.set(rows.last().map(|r| (*r).to_owned()));
    }

    fn controller() -> Controller {
        Controller::new(
            "http://127.0.0.1:8000/mcp".into(),
            "q".into(),
            Lang::En,
            Mode::Step,
            None,
            Approval::Auto,
        )
    }

    #[test]
    fn back_and_forward_move_through_history_without_traffic() {
        let ctl = controller();
        finished(&ctl, &["d1-prep", "d1-1", "d1-2"]);
        ctl.select_step(-1);
        ctl.select_step(-1);
        assert_eq!(ctl.selected.get_untracked().as_deref(), Some("d1-prep"));
        ctl.select_step(-1);
        assert_eq!(ctl.selected.get_untracked().as_deref(), Some("d1-prep"));
        ctl.next();
        assert_eq!(ctl.selected.get_untracked().as_deref(), Some("d1-1"));
        assert!(!ctl.follow.get_untracked());
        ctl.next();
        assert_eq!(ctl.selected.get_untracked().as_deref(), Some("d1-2"));
        assert!(
            ctl.follow.get_untracked(),
            "back at the newest row, → advances the host again"
        );
        assert!(
            !ctl.running.get_untracked(),
            "moving through history sends nothing"
        );
    }

    #[test]
    fn home_and_end_jump_to_the_first_and_newest_rows() {
        let ctl = controller();
        finished(&ctl, &["d1-prep", "d1-1", "d1-2"]);
        ctl.select_first();
        assert_eq!(ctl.selected.get_untracked().as_deref(), Some("d1-prep"));
        ctl.select_last();
        assert_eq!(ctl.selected.get_untracked().as_deref(), Some("d1-2"));
    }
}
