//! The page's state and the player's actions. Components read the signals and call these.

use std::rc::Rc;

use futures_util::future::LocalBoxFuture;
use leptos::prelude::*;

use crate::diagram::{Row, spec::Lang};
use crate::flow::engine::{After, Engine};
use crate::flow::gate::{Gate, Mode};
use crate::flow::host::{Approval, Consent, ServerMemory};
use crate::flow::session::RunSession;
use crate::on_demand::call_on_demand;
use crate::record::run::{RowStatus, Run};
use crate::ui::history::Cursor;
pub use crate::ui::stores::{Compared, Comparison, Dialogs, PastRuns, Settings, Stores, Workers};

mod compare;
mod engine;
pub(super) use engine::PageHost;
mod lifecycle;
mod player;
mod replay;
mod shown;
mod watched;
mod you;
pub use replay::NO_CONNECTION;

/// Longest wait for each run of a comparison.
const COMPARE_WAIT_MS: u32 = 60_000;

/// Every row of every diagram (both eras), in order.
pub fn all_rows() -> Vec<Row> {
    crate::diagram::all_rows()
}

/// The hosted app's teardown, held by its panel while the app lives: tells the app why it goes
/// (`ui/resource-teardown`) and ends once it has answered or its wait has passed.
pub type AppRelease = Rc<dyn Fn(&'static str) -> LocalBoxFuture<'static, ()>>;

/// What a loaded recording is: the banner says it in the page's language. `created` is empty
/// for a watched host's session (the watch panel says what it is).
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
    pub dialogs: Dialogs,
    pub workers: Workers,
    pub past: PastRuns,
    pub comparison: Comparison,
    live: StoredValue<Option<RunSession>, LocalStorage>,
    /// Whether a run is alive (`live` is set), for views that depend on it.
    alive: RwSignal<bool>,
    /// The page shows the app of the tool the run called last (MCP Apps; the engine has the
    /// call). Off and on again for the next call's app.
    pub app: RwSignal<bool>,
    /// The teardown of the app shown, while there is one.
    app_release: StoredValue<Option<AppRelease>, LocalStorage>,
    /// Each server's era and fresh tool lists, for the page's lifetime.
    memory: StoredValue<ServerMemory, LocalStorage>,
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
            dialogs: stores.dialogs,
            workers: stores.workers,
            past: stores.past,
            comparison: stores.comparison,
            live: StoredValue::new_local(None),
            alive: RwSignal::new(false),
            app: RwSignal::new(false),
            app_release: StoredValue::new_local(None),
            memory: StoredValue::new_local(ServerMemory::default()),
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
            dialogs: self.dialogs,
            workers: self.workers,
            past: self.past,
            comparison: self.comparison,
        }
    }

    /// The engine of the run in progress, once its module is fetched.
    fn engine(&self) -> Option<Rc<dyn Engine>> {
        self.live
            .with_value(|l| l.as_ref().and_then(RunSession::engine))
    }

    /// Runs `task` for as long as the run lives (nothing, when no run is alive); `then` once it
    /// ends by itself.
    pub fn in_run(&self, task: LocalBoxFuture<'static, ()>, then: impl FnOnce() + 'static) {
        let Some(bound) = self.live.with_value(|l| l.as_ref().map(|l| l.bind(task))) else {
            return;
        };
        leptos::task::spawn_local(async move {
            if bound.await.is_some() {
                then();
            }
        });
    }

    /// The run's engine, for the code fetched on demand that drives it.
    pub fn run_engine(&self) -> Option<Rc<dyn Engine>> {
        self.engine()
    }

    /// Shows the app of the tool the run called last, if it has one (its rows pending again).
    pub(super) fn show_app(&self, engine: &Rc<dyn Engine>) {
        self.app.set(false);
        if engine.app_call().is_some() {
            self.run.update(|r| r.reset(crate::diagram::app_rows()));
            self.app.set(true);
        }
    }

    /// The app panel's teardown, while its app lives.
    pub(super) fn hold_app(&self, release: AppRelease) {
        self.app_release.set_value(Some(release));
    }

    /// `then` now, or once the app shown has been told to tear down and has answered (its wait
    /// bounded): the host tears an app down before its run gives way to anything else.
    pub(super) fn after_app(&self, reason: &'static str, then: impl FnOnce() + 'static) {
        let release = self.app_release.try_update_value(Option::take).flatten();
        // Only an app that initialized is sent the teardown (and is waited for).
        let live = self.run.with_untracked(|r| {
            r.status(Row::AppInitialized) == RowStatus::Done
                && !matches!(
                    r.status(Row::AppTornDown),
                    RowStatus::Done | RowStatus::Failed
                )
        });
        match release.filter(|_| live) {
            Some(release) => leptos::task::spawn_local(async move {
                release(reason).await;
                then();
            }),
            None => then(),
        }
    }

    fn gate(&self) -> Rc<Gate> {
        self.gate.get_value()
    }

    /// The selected row.
    pub fn selected(&self) -> Option<Row> {
        self.cursor.with(|c| c.selected)
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
        self.begin(mode, self.asking());
    }

    /// What diagram 2 does next: ask the model the question, or call a link's tool itself.
    fn asking(&self) -> After {
        let tool = self.settings.call_tool.get_untracked();
        if tool.is_empty() {
            return After::Ask(self.settings.question.get_untracked());
        }
        After::Call {
            tool,
            arguments: self.settings.call_args.get_untracked(),
        }
    }

    /// A new connection: diagram 1 only (Connect).
    pub fn connect(&self, mode: Mode) {
        self.stop_comparing();
        self.begin(mode, After::Nothing);
    }

    /// The diagram "Resources, prompts, completion and tasks" on the current connection (connecting
    /// first when there is none).
    pub fn browse(&self, mode: Mode) {
        self.on_connection(mode, After::Browse);
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

    /// Diagram 2 again on the current connection with the current question (Ask). Connects
    /// first when there is no connection yet.
    pub fn ask(&self, mode: Mode) {
        self.on_connection(mode, self.asking());
    }

    pub fn answer_form(&self, answer: rmcp::model::ElicitResult) {
        if let Some(engine) = self.engine() {
            engine.answer_form(answer);
        }
    }

    /// The user's verdict on the server's sampling request (`None`: refused).
    pub fn review_sampling(&self, request: Option<crate::mcp::sampling::SamplingRequest>) {
        if let Some(engine) = self.engine() {
            engine.review_sampling(request);
        }
    }

    /// The user's verdict on the model's answer to it (`None`: refused).
    pub fn approve_sampling(&self, answer: Option<String>) {
        if let Some(engine) = self.engine() {
            engine.approve_sampling(answer);
        }
    }

    /// The user's answer to the approval dialog.
    pub fn decide(&self, consent: Consent) {
        // A link's approve=auto for another server holds from the user's first yes to the
        // model's call on (the dialog named the server).
        let asked = self.settings.link_auto.get_untracked();
        let of_model = self
            .dialogs
            .dialog
            .with_untracked(|d| d.as_ref().is_some_and(|d| d.app.is_none()));
        if asked.is_some() && of_model {
            self.settings.link_auto.set(None);
        }
        let granted = consent != Consent::Declined
            && of_model
            && asked.as_deref() == Some(&*self.settings.server.get_untracked());
        if granted {
            self.settings.approval.set(Approval::Auto);
        }
        if let Some(engine) = self.engine() {
            if granted {
                engine.set_approval(Approval::Auto);
            }
            engine.decide(consent);
        }
    }

    /// The user's answer to "share your roots with this server?".
    pub fn share_roots(&self, share: bool) {
        if let Some(engine) = self.engine() {
            engine.share_roots(share);
        }
    }

    /// The user's answer to "open the authorization page?" (called in the click, so the page
    /// may open a popup).
    pub fn authorize(&self, open: bool) {
        if let Some(engine) = self.engine() {
            engine.authorize(open);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::run::RunEvent;

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
