//! The page's state and the player's actions. Components read the signals and call these.

use std::cell::OnceCell;
use std::rc::Rc;

use leptos::prelude::*;

use crate::clock::{BrowserClock, Clock};
use crate::diagram::diagrams_for;
use crate::diagram::{Row, spec::Lang};
use crate::flow::engine::{After, Engine};
use crate::flow::gate::{Gate, Mode};
use crate::flow::host::{Approval, HostEvent, Memory};
use crate::flow::lifetime::Lifetime;
use crate::llm::choice::Seats;
use crate::llm::you::Desk;
use crate::mcp::era::{Era, EraChoice};
use crate::on_demand::call_on_demand;
use crate::record::run::{RowStatus, Run, RunEvent};
use crate::ui::history::{self, Cursor, Next};
pub use crate::ui::stores::{
    Compared, Comparison, Past, PastRun, Prompts, Settings, Stores, Workers,
};

mod compare;
mod engine;
mod replay;
mod you;
pub use replay::NO_CONNECTION;

/// Longest wait for each run of a comparison.
const COMPARE_WAIT_MS: u32 = 60_000;

/// Longest wait for the DELETE that closes an ended run's session.
const CLOSE_WAIT_MS: u32 = 2_000;

/// What a new run does after connecting.
#[derive(Clone, Copy)]
enum Then {
    Nothing,
    Ask,
    Browse,
}

/// Every row of every diagram (both eras), in order.
pub fn all_rows() -> Vec<Row> {
    crate::diagram::all_rows()
}

/// The run in progress: its lifetime and the engine doing its steps (set once its module is
/// fetched, a moment after the run starts).
#[derive(Clone)]
struct Live {
    lifetime: Rc<Lifetime>,
    engine: Rc<OnceCell<Rc<dyn Engine>>>,
    /// Where the user answers the model's turns, when the user is the model.
    desk: Rc<Desk>,
}

/// What a loaded recording is: the banner says it in the page's language.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordingInfo {
    pub server: String,
    pub llm: String,
    pub created: String,
}

/// The run shown and the player's actions on it; the rest of the page's state is in the
/// [`stores`](super::stores), which it holds too.
#[derive(Clone, Copy)]
pub struct Controller {
    /// The record of the run shown (live, or loaded from a recording).
    pub run: RwSignal<Run>,
    /// The row the inspector shows, and whether it follows the run.
    pub cursor: RwSignal<Cursor>,
    pub mode: RwSignal<Mode>,
    pub running: RwSignal<bool>,
    /// Set while a loaded recording is shown: what it is, for the banner.
    pub recording: RwSignal<Option<RecordingInfo>>,
    pub settings: Settings,
    pub prompts: Prompts,
    pub workers: Workers,
    pub past: Past,
    pub comparison: Comparison,
    live: StoredValue<Option<Live>, LocalStorage>,
    /// Whether a run is alive (`live` is set), for views that depend on it.
    alive: RwSignal<bool>,
    /// Each server's era and fresh tool lists, for the page's lifetime.
    memory: StoredValue<Memory, LocalStorage>,
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
        let stores = Stores::new(Settings::new(server, question, lang, speed, approval));
        Self {
            run: RwSignal::new(Run::new(all_rows())),
            cursor: RwSignal::new(Cursor::default()),
            mode: RwSignal::new(mode),
            running: RwSignal::new(false),
            recording: RwSignal::new(None),
            settings: stores.settings,
            prompts: stores.prompts,
            workers: stores.workers,
            past: stores.past,
            comparison: stores.comparison,
            live: StoredValue::new_local(None),
            alive: RwSignal::new(false),
            memory: StoredValue::new_local(Memory::default()),
            gate: StoredValue::new_local(Rc::new(Gate::new(mode, speed))),
        }
    }

    /// Gives the controller and each store to the views below through context.
    pub fn provide(&self) {
        provide_context(*self);
        self.stores().provide();
    }

    fn stores(&self) -> Stores {
        Stores {
            settings: self.settings,
            prompts: self.prompts,
            workers: self.workers,
            past: self.past,
            comparison: self.comparison,
        }
    }

    /// The engine of the run in progress, once its module is fetched.
    fn engine(&self) -> Option<Rc<dyn Engine>> {
        self.live
            .with_value(|l| l.as_ref().and_then(|l| l.engine.get().cloned()))
    }

    fn gate(&self) -> Rc<Gate> {
        self.gate.get_value()
    }

    /// The selected row.
    pub fn selected(&self) -> Option<Row> {
        self.cursor.with(|c| c.selected)
    }

    /// Moves the shown run's exchanges to the message log's past (a recording's are not the
    /// page's traffic), and counts the next run.
    fn keep_for_the_log(&self) {
        if self.recording.get_untracked().is_some() {
            return;
        }
        let (era, exchanges, mismatch, llm) = self.run.with_untracked(|r| {
            (
                r.era.as_ref().map(|d| d.era),
                r.mcp.exchanges.clone(),
                r.output_mismatch_exchange(),
                r.llm.clone(),
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
        });
    }

    /// The MCP client's per-request timeout.
    pub fn request_timeout_ms(&self) -> u32 {
        self.settings.timeout_ms.get()
    }

    /// The MCP client's per-request timeout, for this connection and every later one.
    pub fn set_request_timeout_ms(&self, ms: u32) {
        self.settings.timeout_ms.set(ms);
        if let Some(engine) = self.engine() {
            engine.set_timeout_ms(ms);
        }
    }

    /// A new real run of both diagrams.
    pub fn start(&self, mode: Mode) {
        self.stop_comparing();
        self.begin(mode, Then::Ask);
    }

    /// A new connection: diagram 1 only (Connect).
    pub fn connect(&self, mode: Mode) {
        self.stop_comparing();
        self.begin(mode, Then::Nothing);
    }

    /// The diagram "Resources, prompts, completion and tasks" on the current connection (connecting
    /// first when there is none).
    pub fn browse(&self, mode: Mode) {
        self.on_connection(mode, Then::Browse);
    }

    /// Whether the run shown has browsed the server (the browse diagram is drawn then).
    pub fn browsed(&self) -> bool {
        self.run.with(|r| {
            r.rows
                .iter()
                .any(|x| x.id.is_browse() && x.status != RowStatus::Pending)
        })
    }

    fn stop_comparing(&self) {
        self.comparison.stop();
    }

    /// The question in the legacy era, then in the modern one (instant, no approval), and the
    /// figures of both side by side. Each run is a normal run (it ends like any other); the
    /// comparison waits for each, at most [`COMPARE_WAIT_MS`], and stops if the user starts
    /// something else.
    pub fn compare(&self) {
        self.stop_comparing();
        let generation = self.comparison.generation.get_untracked();
        self.comparison.compared.set(Some(Compared::Running));
        let this = *self;
        leptos::task::spawn_local(async move {
            match call_on_demand!(compare::runner()) {
                Ok(run) => run(this, generation).await,
                // Its view comes from the same module: said there, with Try again.
                Err(_) => this.comparison.compared.set(Some(Compared::NotStarted)),
            }
        });
    }

    /// Whether diagram 1 finished on a run that is still alive, so questions can be asked on
    /// its connection.
    pub fn connected(&self) -> bool {
        self.live.with_value(|l| l.is_some())
            && self
                .run
                .with_untracked(|r| r.status(Row::ToolsToLlm) == RowStatus::Done)
    }

    /// Ends the run in progress: its tasks are dropped (fetches aborted, the gate and any
    /// dialog released), nothing more of it reaches the page, and its session is closed with
    /// DELETE in the background. `why` marks the row that was active, if any.
    pub fn end_run(&self, why: Option<&str>) {
        let Some(live) = self.live.try_update_value(Option::take).flatten() else {
            return;
        };
        self.alive.set(false);
        live.lifetime.end();
        live.desk.clear();
        self.prompts.clear();
        self.running.set(false);
        if let Some(why) = why {
            let at_ms = BrowserClock.now_ms();
            self.run.update(|run| {
                let active: Vec<Row> = run
                    .rows
                    .iter()
                    .filter(|r| r.status == RowStatus::Active)
                    .map(|r| r.id)
                    .collect();
                for row in active {
                    run.apply(RunEvent::Failed {
                        row,
                        at_ms,
                        error: why.to_owned(),
                    });
                }
            });
        }
        let Some(engine) = live.engine.get().cloned() else {
            return;
        };
        // Not bound to any run, but bounded in time: nothing it does is recorded.
        leptos::task::spawn_local(async move {
            let close = engine.close();
            let timer = std::pin::pin!(BrowserClock.sleep(CLOSE_WAIT_MS));
            let _ = futures_util::future::select(close, timer).await;
        });
    }

    /// The page is going away: end the run, and close its session with a request the browser
    /// sends even as the page unloads.
    pub fn on_page_hide(&self) {
        let Some(live) = self.live.try_update_value(Option::take).flatten() else {
            return;
        };
        self.alive.set(false);
        live.lifetime.end();
        if let Some(request) = live.engine.get().and_then(|e| e.delete_request()) {
            crate::mcp::browser::send_keepalive(&request);
        }
    }

    /// Diagram 2 again on the current connection with the current question (Ask). Connects
    /// first when there is no connection yet.
    pub fn ask(&self, mode: Mode) {
        self.on_connection(mode, Then::Ask);
    }

    /// `then` on the live connection, its rows pending again; a new run that connects first
    /// when there is no connection.
    fn on_connection(&self, mode: Mode, then: Then) {
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
        let rows: Vec<Row> = match then {
            Then::Ask => [Era::Legacy, Era::Modern]
                .into_iter()
                .flat_map(|era| diagrams_for(era)[1].rows())
                .collect(),
            Then::Browse => crate::diagram::browse_rows().collect(),
            Then::Nothing => Vec::new(),
        };
        self.run.update(|r| r.reset(rows));
        self.cursor.update(|c| c.follow = true);
        self.running.set(true);
        let question = self.settings.question.get_untracked();
        let this = *self;
        let task = live.lifetime.bind(async move {
            let _ = match then {
                Then::Ask => engine.ask(question).await,
                Then::Browse => engine.browse().await,
                Then::Nothing => return,
            };
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
        self.stop_comparing();
        self.end_run(None);
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

    fn begin(&self, mode: Mode, then: Then) {
        self.begin_as(
            mode,
            then,
            self.settings.era.get_untracked(),
            self.settings.approval.get_untracked(),
            self.settings.speed.get_untracked(),
        );
    }

    /// A new run with these settings (the page's own unless a comparison overrides them).
    fn begin_as(
        &self,
        mode: Mode,
        then: Then,
        era: EraChoice,
        approval: Approval,
        speed: Option<f64>,
    ) {
        self.end_run(None);
        self.keep_for_the_log();
        self.recording.set(None);
        self.run.set(Run::new(all_rows()));
        self.cursor.set(Cursor::default());
        self.mode.set(mode);
        let gate = Rc::new(Gate::new(mode, speed));
        self.gate.set_value(gate.clone());
        let lifetime = Lifetime::new();
        let this = *self;
        let emit = lifetime.guard(Rc::new(move |event: HostEvent| match event {
            HostEvent::Run(event) => {
                if let RunEvent::Active { row, .. } = &event {
                    this.cursor.update(|c| c.on_active(*row));
                }
                this.run.update(|r| r.apply(event));
            }
            HostEvent::Approval(request) => this.prompts.dialog.set(request),
            HostEvent::Form(request) => this.prompts.form.set(request),
            HostEvent::Authorize(prompt) => this.prompts.authorize.set(prompt),
        }));
        let you_turn = self.prompts.you_turn;
        let desk = Desk::new(move |turn| you_turn.set(turn));
        let model_text = self.workers.model_text;
        model_text.set(String::new());
        let seats = Seats {
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
        };
        let slot = Rc::new(OnceCell::new());
        self.alive.set(true);
        self.live.set_value(Some(Live {
            lifetime: lifetime.clone(),
            engine: slot.clone(),
            desk,
        }));
        self.running.set(true);
        let after = match then {
            Then::Nothing => After::Nothing,
            Then::Ask => After::Ask(self.settings.question.get_untracked()),
            Then::Browse => After::Browse,
        };
        let task = lifetime.bind(async move {
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
            let _ = slot.set(engine.clone());
            let _ = engine.connect_then(after).await;
        });
        leptos::task::spawn_local(async move {
            if task.await.is_some() {
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

    fn visited(&self) -> Vec<Row> {
        self.run.with_untracked(history::visited)
    }

    /// → : after going back, step forward through the rows that have happened; at the newest
    /// one, advance the host one row (starting a run in Step mode if none is going).
    pub fn next(&self) {
        let visited = self.visited();
        let mut cursor = self.cursor.get_untracked();
        let next = cursor.next(&visited);
        self.cursor.set(cursor);
        if next == Next::Advance {
            if !self.running.get_untracked() {
                self.start(Mode::Step);
            }
            self.gate().next();
        }
    }

    pub fn set_speed(&self, speed: Option<f64>) {
        self.settings.speed.set(speed);
        self.gate().set_speed(speed);
    }

    pub fn answer_form(&self, answer: rmcp::model::ElicitResult) {
        if let Some(engine) = self.engine() {
            engine.answer_form(answer);
        }
    }

    /// The era shown: the run's once known, else the setting's (modern while `auto` probes).
    pub fn shown_era(&self) -> Era {
        self.run
            .with(|r| r.era.as_ref().map(|d| d.era))
            .or(self.settings.era.get().forced())
            .unwrap_or(Era::Modern)
    }

    /// The pre-registered client the settings name, if any (bound to no issuer: the user named
    /// it for this server).
    fn pre_registered(&self) -> Option<crate::mcp::auth::PreRegistered> {
        let id = self.settings.client_id.get_untracked().trim().to_owned();
        let secret = self.settings.client_secret.get_untracked();
        (!id.is_empty()).then(|| crate::mcp::auth::PreRegistered {
            client_id: id,
            secret: (!secret.is_empty()).then_some(secret),
            issuer: None,
        })
    }

    /// Whether the server asked for authorization in the run shown (the Authorization diagram
    /// is drawn then).
    pub fn authorized(&self) -> bool {
        self.run.with(|r| {
            r.rows
                .iter()
                .any(|x| x.id.is_auth() && x.status != RowStatus::Pending)
        })
    }

    /// The rows of the diagrams shown (the Authorization diagram's first, when it is drawn;
    /// the browse diagram's last, when it is).
    pub fn shown_rows(&self) -> Vec<Row> {
        let auth = Row::ALL
            .iter()
            .copied()
            .filter(|r| r.is_auth() && self.authorized());
        let browsed = self.browsed();
        let browse = crate::diagram::browse_rows().filter(move |_| browsed);
        auth.chain(diagrams_for(self.shown_era()).iter().flat_map(|d| d.rows()))
            .chain(browse)
            .collect()
    }

    /// The user's answer to the approval dialog.
    pub fn decide(&self, yes: bool) {
        // A link's approve=auto for another server holds from the user's first yes on.
        let asked = self.settings.link_auto.get_untracked();
        if asked.is_some() {
            self.settings.link_auto.set(None);
        }
        let granted = yes && asked.as_deref() == Some(&*self.settings.server.get_untracked());
        if granted {
            self.settings.approval.set(Approval::Auto);
        }
        if let Some(engine) = self.engine() {
            if granted {
                engine.set_approval(Approval::Auto);
            }
            engine.decide(yes);
        }
    }

    /// The user's answer to "open the authorization page?" (called in the click, so the page
    /// may open a popup).
    pub fn authorize(&self, open: bool) {
        if let Some(engine) = self.engine() {
            engine.authorize(open);
        }
    }

    /// ← / Home / End: move the selection through rows that have happened (history only).
    pub fn select_step(&self, delta: i32) {
        let visited = self.visited();
        self.cursor.update(|c| c.step(&visited, delta));
    }

    pub fn select_first(&self) {
        let visited = self.visited();
        self.cursor.update(|c| c.first(&visited));
    }

    pub fn select_last(&self) {
        let visited = self.visited();
        self.cursor.update(|c| c.last(&visited));
    }

    pub fn select(&self, row: Row) {
        self.cursor.update(|c| c.select(row));
    }

    /// Follow the run again (the "follow" toggle).
    pub fn follow(&self) {
        let visited = self.visited();
        self.cursor.update(|c| c.resume(&visited));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn moving_through_history_sends_nothing() {
        let ctl = controller();
        ctl.run.update(|r| {
            for row in [Row::Prepare, Row::Initialize] {
                r.apply(RunEvent::Done {
                    row,
                    at_ms: 0.0,
                    payload: None,
                });
            }
        });
        ctl.select_step(-1);
        assert_eq!(ctl.selected(), Some(Row::Prepare));
        ctl.next();
        assert_eq!(ctl.selected(), Some(Row::Initialize));
        assert!(!ctl.running.get_untracked());
    }
}
