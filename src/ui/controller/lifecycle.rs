//! A run's life: beginning one (its lifetime, gate, engine and the events it sends the page),
//! going on with the live connection, ending it (its session closed), and showing a recording
//! instead.

use std::rc::Rc;

use leptos::prelude::*;

use super::{Controller, RecordingInfo, all_rows, engine};
use crate::clock::{BrowserClock, Clock};
use crate::diagram::{Row, diagrams_for, spec::Lang};
use crate::flow::engine::After;
use crate::flow::gate::{Gate, Mode};
use crate::flow::host::{Approval, HostEvent};
use crate::flow::session::RunSession;
use crate::llm::choice::ModelSupport;
use crate::llm::you::UserTurns;
use crate::mcp::era::{Era, EraChoice};
use crate::on_demand::call_on_demand;
use crate::record::run::{Run, RunEvent};
use crate::ui::history::Cursor;
use crate::ui::stores::PastRun;

/// What a new run speaks and how it plays (the page's settings, or a comparison's).
struct Chosen {
    era: EraChoice,
    approval: Approval,
    speed: Option<f64>,
}

/// Longest wait for the DELETE that closes an ended run's session.
const CLOSE_WAIT_MS: u32 = 2_000;

impl Controller {
    /// Moves the shown run's exchanges to the message log's past (a recording's are not the
    /// page's traffic), and counts the next run.
    pub(super) fn keep_for_the_log(&self) {
        if self.recording.get_untracked().is_some() {
            return;
        }
        let (era, exchanges, mismatch, llm, diagnosis) = self.run.with_untracked(|r| {
            (
                r.era.as_ref().map(|d| d.era),
                r.mcp.exchanges.clone(),
                r.output_mismatch_exchange(),
                r.llm.clone(),
                r.diagnosis.clone(),
            )
        });
        if exchanges.is_empty() {
            return;
        }
        self.past.keep(PastRun {
            run: self.past.run_number.get_untracked(),
            era,
            exchanges,
            mismatch,
            llm,
            diagnosis,
        });
    }

    /// Ends the run in progress: its tasks are dropped (fetches aborted, the gate and any
    /// dialog released), nothing more of it reaches the page, and its session is closed with
    /// DELETE in the background. `why` marks the row that was active, if any.
    pub fn end_run(&self, why: Option<&str>) {
        let Some(live) = self.live.try_update_value(Option::take).flatten() else {
            return;
        };
        self.alive.set(false);
        let engine = live.end();
        self.dialogs.clear();
        self.running.set(false);
        if let Some(why) = why {
            let at_ms = BrowserClock.now_ms();
            self.run.update(|run| run.fail_active(at_ms, why));
        }
        let Some(engine) = engine else {
            return;
        };
        // Not bound to any run, but bounded in time: nothing it does is recorded.
        leptos::task::spawn_local(async move {
            let close = engine.close();
            let timer = std::pin::pin!(BrowserClock.sleep(CLOSE_WAIT_MS));
            let _ = futures_util::future::select(close, timer).await;
        });
    }

    /// Stop: the MCP request in flight is cancelled the era's way and its row fails; with none
    /// in flight (the model writing, a question waiting for the user), the run ends at the row
    /// that was active.
    pub fn stop(&self) {
        self.dialogs.clear();
        let lang = self.settings.lang.get_untracked();
        let why = crate::ui::i18n::text(crate::ui::i18n::Msg::StoppedByYou, lang);
        if self.engine().is_some_and(|e| e.stop()) {
            // Rows waiting on the request (a question the user was answering) end with it; the
            // request's own row then says how it was cancelled.
            let at_ms = BrowserClock.now_ms();
            self.run.update(|run| run.fail_active(at_ms, why));
            return;
        }
        self.end_run(Some(why));
    }

    /// The page is going away: end the run, and close its session with a request the browser
    /// sends even as the page unloads.
    pub fn on_page_hide(&self) {
        let Some(live) = self.live.try_update_value(Option::take).flatten() else {
            return;
        };
        self.alive.set(false);
        if let Some(request) = live.end().and_then(|e| e.delete_request()) {
            crate::mcp::browser::send_keepalive(&request);
        }
    }

    /// `then` on the live connection, its rows pending again; a new run that connects first
    /// when there is no connection. The app shown is torn down first.
    pub(super) fn on_connection(&self, mode: Mode, then: After) {
        if self.running.get_untracked() {
            return;
        }
        let this = *self;
        self.after_app("the run goes on without it", move || {
            this.on_connection_now(mode, then)
        });
    }

    fn on_connection_now(&self, mode: Mode, then: After) {
        if self.running.get_untracked() {
            return;
        }
        let live = self.live.get_value().filter(|_| self.connected());
        let (Some(live), Some(engine)) = (live, self.engine()) else {
            self.stop_comparing();
            self.begin(mode, then);
            return;
        };
        self.mode.set(mode);
        self.gate().set_mode(mode);
        engine.set_approval(self.settings.approval.get_untracked());
        let rows: Vec<Row> = match &then {
            After::Ask(_) | After::Call { .. } => [Era::Legacy, Era::Modern]
                .into_iter()
                .flat_map(|era| diagrams_for(era)[1].rows())
                .collect(),
            After::Browse => crate::diagram::browse_rows().collect(),
            After::Nothing => Vec::new(),
        };
        self.run.update(|r| r.reset(rows));
        self.cursor.update(|c| c.follow = true);
        self.running.set(true);
        let this = *self;
        let task = live.bind(async move {
            match then {
                After::Ask(question) => {
                    if engine.clone().ask(question).await.is_ok() {
                        this.show_app(&engine);
                    }
                }
                After::Call { tool, arguments } => {
                    if engine.clone().call(tool, arguments).await.is_ok() {
                        this.show_app(&engine);
                    }
                }
                After::Browse => {
                    let _ = engine.browse().await;
                }
                After::Nothing => {}
            }
        });
        leptos::task::spawn_local(async move {
            if task.await.is_some() {
                this.running.set(false);
            }
        });
    }

    /// Shows a recorded run in the same player and inspector. Nothing is sent; a live run in
    /// progress is ended, and Restart starts a new live one.
    pub fn load_recording(&self, rec: crate::export::recording::Recording) {
        let this = *self;
        self.after_app("a recording is shown", move || this.show_recording(rec));
    }

    fn show_recording(&self, rec: crate::export::recording::Recording) {
        self.stop_comparing();
        self.end_run(None);
        self.app.set(false);
        // The run shown until now stays in the log (and can be compared with the recording).
        self.keep_for_the_log();
        self.recording.set(Some(RecordingInfo {
            server: rec.server.clone(),
            llm: rec.llm,
            created: rec.created,
        }));
        if let Some(lang) = Lang::from_code(&rec.lang) {
            self.settings.lang.set(lang);
        }
        self.settings.server.set(rec.server);
        self.settings.question.set(rec.question);
        self.run.set(rec.run);
        self.select_first();
    }

    pub(super) fn begin(&self, mode: Mode, then: After) {
        self.begin_as(
            mode,
            then,
            self.settings.era.get_untracked(),
            self.settings.approval.get_untracked(),
            self.settings.speed.get_untracked(),
        );
    }

    /// A new run with these settings (the page's own unless a comparison overrides them), once
    /// the last run's app is torn down.
    pub(super) fn begin_as(
        &self,
        mode: Mode,
        then: After,
        era: EraChoice,
        approval: Approval,
        speed: Option<f64>,
    ) {
        let this = *self;
        let chosen = Chosen {
            era,
            approval,
            speed,
        };
        self.after_app("a new run starts", move || {
            this.begin_now(mode, then, chosen)
        });
    }

    fn begin_now(&self, mode: Mode, then: After, chosen: Chosen) {
        let Chosen {
            era,
            approval,
            speed,
        } = chosen;
        self.end_run(None);
        self.keep_for_the_log();
        self.recording.set(None);
        self.app.set(false);
        self.run.set(Run::new(all_rows()));
        self.cursor.set(Cursor::default());
        self.mode.set(mode);
        let gate = Rc::new(Gate::new(mode, speed));
        self.gate.set_value(gate.clone());
        let you_turn = self.dialogs.you_turn;
        let desk = UserTurns::new(move |turn| you_turn.set(turn));
        let session = RunSession::new(desk.clone());
        let this = *self;
        let emit = session
            .lifetime()
            .guard(Rc::new(move |event: HostEvent| match event {
                HostEvent::Run(event) => {
                    if let RunEvent::Active { row, .. } = &event {
                        this.cursor.update(|c| c.on_active(*row));
                    }
                    this.run.update(|r| r.apply(event));
                }
                HostEvent::Approval(request) => this.dialogs.dialog.set(request),
                HostEvent::Form(request) => this.dialogs.form.set(request),
                HostEvent::Sampling(dialog) => this.dialogs.sampling.set(dialog),
                HostEvent::Roots(question) => this.dialogs.roots.set(question),
                HostEvent::Authorize(prompt) => this.dialogs.authorize.set(prompt),
            }));
        let model_text = self.workers.model_text;
        model_text.set(String::new());
        let seats = ModelSupport {
            desk: desk.clone(),
            model: self.workers.model_worker(),
            on_text: Rc::new(move |text: Option<&str>| match text {
                Some(text) => model_text.update(|t| t.push_str(text)),
                None => model_text.set(String::new()),
            }),
        };
        let parts = engine::EngineParts {
            server: self.settings.server.get_untracked(),
            llm: self.settings.llm.get_untracked(),
            seats,
            gate,
            approval,
            emit: emit.clone(),
            era,
            memory: self.memory.get_value(),
            headers: self.settings.headers.get_untracked(),
            log_level: self.settings.log_level.get_untracked(),
            client: self.pre_registered(),
            schema: self.workers.schema(),
            roots: self.roots(),
            session: session.clone(),
        };
        self.alive.set(true);
        self.live.set_value(Some(session.clone()));
        self.running.set(true);
        let after = then;
        let slot = session.clone();
        let task = session.bind(async move {
            // A module that cannot be fetched fails the first row with the reason, and the
            // inspector goes to it.
            let fail_first_row = |error: String| {
                let at_ms = BrowserClock.now_ms();
                let row = Row::Prepare;
                emit(HostEvent::Run(RunEvent::Active { row, at_ms }));
                emit(HostEvent::Run(RunEvent::Failed { row, at_ms, error }));
            };
            let build = match call_on_demand!(engine::engine_builder()) {
                Ok(build) => build,
                Err(e) => {
                    fail_first_row(
                        e.into_message("runs the protocol (the MCP client and the model)"),
                    );
                    return;
                }
            };
            let engine = match build(parts).await {
                Ok(engine) => engine,
                Err(e) => {
                    fail_first_row(e);
                    return;
                }
            };
            // The timeout as it is now (it may have changed while the module was on its way).
            engine.set_timeout_ms(this.settings.timeout_ms.get_untracked());
            slot.set_engine(engine.clone());
            match engine.clone().connect_then(after).await {
                Ok(()) => this.show_app(&engine),
                Err(stopped) => {
                    let first = crate::diagnose::request_row(stopped.row);
                    if let Some(row) = first.filter(|_| stopped.unreached) {
                        this.diagnose(row).await;
                    }
                }
            }
        });
        leptos::task::spawn_local(async move {
            if task.await.is_some() {
                this.running.set(false);
            }
        });
    }

    /// Why the run's first request, which failed at `row`, found no MCP server: the page's
    /// checks, kept in the run (shown at the row, exported with it).
    async fn diagnose(&self, row: Row) {
        let Ok(diagnose) = call_on_demand!(crate::ui::diagnosis::diagnose_fn()) else {
            return;
        };
        let page = window().location().origin().unwrap_or_default();
        let url = self.settings.server.get_untracked();
        let from_link = self.settings.link_server.get_untracked().as_deref() == Some(&*url);
        let diagnosis = diagnose(page, url, row, from_link).await;
        self.run
            .update(|r| r.apply(RunEvent::Diagnosed(Box::new(diagnosis))));
    }

    /// The pre-registered client the settings name, if any (bound to no issuer: the user named
    /// it for this server).
    pub(super) fn pre_registered(&self) -> Option<crate::mcp::auth::PreRegistered> {
        let id = self.settings.client_id.get_untracked().trim().to_owned();
        let secret = self.settings.client_secret.get_untracked();
        (!id.is_empty()).then(|| crate::mcp::auth::PreRegistered {
            client_id: id,
            secret: (!secret.is_empty()).then_some(secret),
            issuer: None,
        })
    }

    /// The roots in the settings, as typed (read where the run is: none while the text does not
    /// read, and the settings say why).
    fn roots(&self) -> String {
        self.settings.roots.get_untracked()
    }

    /// The roots in the settings changed: the live run answers with them from now on, and a
    /// 2025-11-25 server is told (`notifications/roots/list_changed`).
    pub fn roots_changed(&self) {
        let (Some(live), Some(engine)) = (self.live.get_value(), self.engine()) else {
            return;
        };
        let task = live.bind(engine.set_roots(self.roots()));
        leptos::task::spawn_local(async move {
            let _ = task.await;
        });
    }
}
