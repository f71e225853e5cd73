//! The page's state in a few small stores, each given to the views through context
//! (`expect_context::<Settings>()` and so on). The [`Controller`](super::controller::Controller)
//! holds them too, and its actions (start, step, end a run) are the only writers of the run's own
//! state; a view that only reads settings or answers a prompt needs nothing else.

use std::rc::Rc;

use leptos::prelude::*;

use crate::diagram::spec::Lang;
use crate::flow::host::{Approval, ApprovalRequest, FormRequest, RootsQuestion, SamplingDialog};
use crate::llm::choice::LlmSettings;
use crate::llm::smollm::status::Status as ModelStatus;
use crate::llm::smollm::worker::ModelWorker;
use crate::llm::you::Turn;
use crate::mcp::era::{Era, EraChoice};
use crate::mcp::log_level::LogLevel;
use crate::output_check::worker::SchemaWorker;
use crate::record::compare::EraFigures;

/// What the user chose: the server, the question, the language, the era, the model, the pace.
#[derive(Clone, Copy)]
pub struct Settings {
    pub lang: RwSignal<Lang>,
    pub server: RwSignal<String>,
    pub question: RwSignal<String>,
    /// The protocol era setting.
    pub era: RwSignal<EraChoice>,
    pub approval: RwSignal<Approval>,
    /// The link asked to run this server's tools with no dialog, and the server is not the
    /// page's own: the user's first yes grants it.
    pub link_auto: RwSignal<Option<String>>,
    /// The server a link's `?server=` chose, until the user enters one: the diagnosis of a
    /// failed first request does not probe a private network for a link.
    pub link_server: RwSignal<Option<String>>,
    pub speed: RwSignal<Option<f64>>,
    /// The LLM participant; its key stays in this page's memory.
    pub llm: RwSignal<LlmSettings>,
    /// The user's own request headers, as typed ("Name: value" lines). In memory only: never
    /// saved, put in a link, recorded or exported.
    pub headers: RwSignal<String>,
    /// The roots a server's `roots/list` is answered with, as typed (a URI and an optional name
    /// a line). In memory only.
    pub roots: RwSignal<String>,
    /// The log level the next run asks the server for (`None`: no log lines).
    pub log_level: RwSignal<Option<LogLevel>>,
    /// A client registered ahead of time at the server's authorization server, used instead of
    /// registering when the server asks for authorization (empty: none). Its secret stays in
    /// this page's memory: never saved, put in a link, recorded or exported.
    pub client_id: RwSignal<String>,
    pub client_secret: RwSignal<String>,
    /// How long the MCP client waits for each response; see
    /// [`Controller::set_request_timeout_ms`](super::controller::Controller::set_request_timeout_ms).
    pub(super) timeout_ms: RwSignal<u32>,
    /// The inspector shows the wire's every header.
    pub wire_detail: RwSignal<bool>,
    /// What the bridge runs or forwards to, when the server is a `mcp-flow-bridge` endpoint.
    pub bridge: RwSignal<Option<String>>,
    /// A link's `?call=TOOL&args=JSON`: diagram 2 calls this tool (empty: none) with these
    /// arguments itself, without a model, until the question is edited.
    pub call_tool: RwSignal<String>,
    pub call_args: RwSignal<String>,
}

impl Settings {
    pub fn new(
        server: String,
        question: String,
        lang: Lang,
        speed: Option<f64>,
        approval: Approval,
    ) -> Self {
        Self {
            lang: RwSignal::new(lang),
            server: RwSignal::new(server),
            question: RwSignal::new(question),
            era: RwSignal::new(EraChoice::Auto),
            approval: RwSignal::new(approval),
            link_auto: RwSignal::new(None),
            link_server: RwSignal::new(None),
            speed: RwSignal::new(speed),
            llm: RwSignal::new(LlmSettings::default()),
            headers: RwSignal::new(String::new()),
            roots: RwSignal::new(String::new()),
            log_level: RwSignal::new(Some(LogLevel::ASKED_BY_DEFAULT)),
            client_id: RwSignal::new(String::new()),
            client_secret: RwSignal::new(String::new()),
            timeout_ms: RwSignal::new(crate::mcp::client::DEFAULT_TIMEOUT_MS),
            wire_detail: RwSignal::new(false),
            bridge: RwSignal::new(None),
            call_tool: RwSignal::new(String::new()),
            call_args: RwSignal::new(String::new()),
        }
    }
}

/// What waits for the user during a run: a tool call to approve, the server's form, the model's
/// turn when the user is the model. A run that ends clears them.
#[derive(Clone, Copy)]
pub struct Dialogs {
    /// The tool call waiting for the user's yes or no.
    pub dialog: RwSignal<Option<ApprovalRequest>>,
    /// The server's form waiting for the user's answer.
    pub form: RwSignal<Option<FormRequest>>,
    /// The server's sampling request (or the model's answer to it) waiting for the user.
    pub sampling: RwSignal<Option<SamplingDialog>>,
    /// The model's turn waiting for the user, when the user is the model.
    pub you_turn: RwSignal<Option<Turn>>,
    /// The authorization request waiting for the user to open it.
    pub authorize: RwSignal<Option<String>>,
    /// A server asking for the roots, the first time, waiting for the user's yes or no.
    pub roots: RwSignal<Option<RootsQuestion>>,
}

impl Dialogs {
    fn new() -> Self {
        Self {
            dialog: RwSignal::new(None),
            form: RwSignal::new(None),
            sampling: RwSignal::new(None),
            you_turn: RwSignal::new(None),
            authorize: RwSignal::new(None),
            roots: RwSignal::new(None),
        }
    }

    /// A run ended: nothing of it waits any more.
    pub(super) fn clear(&self) {
        self.dialog.set(None);
        self.form.set(None);
        self.sampling.set(None);
        self.authorize.set(None);
        self.roots.set(None);
    }
}

/// The page's workers: the in-page model (SmolLM2) and the output-schema checker, each started on
/// first use and kept for the page's lifetime, and what the model is doing.
#[derive(Clone, Copy)]
pub struct Workers {
    /// Where the in-page model is: loading, ready, failed.
    pub model_status: RwSignal<ModelStatus>,
    /// The text the in-page model is writing in the current turn, as it is written.
    pub model_text: RwSignal<String>,
    model: StoredValue<Option<Rc<ModelWorker>>, LocalStorage>,
    schema: StoredValue<Rc<SchemaWorker>, LocalStorage>,
}

impl Workers {
    fn new() -> Self {
        Self {
            model_status: RwSignal::new(ModelStatus::default()),
            model_text: RwSignal::new(String::new()),
            model: StoredValue::new_local(None),
            schema: StoredValue::new_local(SchemaWorker::new()),
        }
    }

    /// The in-page model's worker (made on first use; it starts its thread only when a run
    /// needs the model).
    pub(super) fn model_worker(&self) -> Rc<ModelWorker> {
        if let Some(worker) = self.model.get_value() {
            return worker;
        }
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        let status = self.model_status;
        let worker = ModelWorker::new(crate::llm::smollm::model_url(&origin), move |s| {
            status.set(s)
        });
        self.model.set_value(Some(worker.clone()));
        worker
    }

    pub(super) fn schema(&self) -> Rc<SchemaWorker> {
        self.schema.get_value()
    }
}

/// The most exchanges of earlier runs the message log keeps.
pub const PAST_EXCHANGES: usize = 2_000;

/// An earlier run's exchanges, for the message log.
#[derive(Clone, Debug, PartialEq)]
pub struct PastRun {
    pub run: usize,
    pub era: Option<Era>,
    pub exchanges: Vec<crate::mcp::record::Exchange>,
    /// The exchange whose result broke its tool's `outputSchema`, and what the check found.
    pub mismatch: Option<(usize, String)>,
    /// The run's calls to the model.
    pub llm: Vec<crate::llm::LlmExchange>,
    /// Why its first request reached no MCP server, when it was diagnosed.
    pub diagnosis: Option<crate::diagnose::Diagnosis>,
}

/// The page's earlier runs, for the message log.
#[derive(Clone, Copy)]
pub struct PastRuns {
    /// The newest runs, at most [`PAST_EXCHANGES`] exchanges in all.
    pub runs: RwSignal<Vec<PastRun>>,
    /// The number of the run shown (1 is the page's first).
    pub run_number: RwSignal<usize>,
}

impl PastRuns {
    fn new() -> Self {
        Self {
            runs: RwSignal::new(Vec::new()),
            run_number: RwSignal::new(1),
        }
    }

    /// Keeps a finished run's exchanges, dropping the oldest runs past [`PAST_EXCHANGES`], and
    /// counts the next run.
    pub(super) fn keep(&self, run: PastRun) {
        self.runs.update(|past| {
            past.push(run);
            while past.iter().map(|p| p.exchanges.len()).sum::<usize>() > PAST_EXCHANGES
                && past.len() > 1
            {
                past.remove(0);
            }
        });
        self.run_number.update(|n| *n += 1);
    }
}

/// A comparison of the eras.
#[derive(Debug, Clone, PartialEq)]
pub enum Compared {
    Running,
    /// Legacy, then modern.
    Done(Box<[EraFigures; 2]>),
    /// This era's run did not answer: why.
    Failed(Era, String),
    /// The comparison's module could not be fetched: it starts once its view is in.
    NotStarted,
}

/// The last comparison of the eras, or the one in progress.
#[derive(Clone, Copy)]
pub struct Comparison {
    pub compared: RwSignal<Option<Compared>>,
    /// Bumped when a comparison is forgotten, so one in progress stops at its next step.
    pub(super) generation: RwSignal<u32>,
}

impl Comparison {
    fn new() -> Self {
        Self {
            compared: RwSignal::new(None),
            generation: RwSignal::new(0),
        }
    }

    /// Forgets a comparison: one in progress stops at its next step.
    pub(super) fn stop(&self) {
        self.generation.update(|g| *g += 1);
        self.compared.set(None);
    }
}

/// All stores, made together for a page.
#[derive(Clone, Copy)]
pub struct Stores {
    pub settings: Settings,
    pub dialogs: Dialogs,
    pub workers: Workers,
    pub past: PastRuns,
    pub comparison: Comparison,
}

impl Stores {
    pub fn new(settings: Settings) -> Self {
        Self {
            settings,
            dialogs: Dialogs::new(),
            workers: Workers::new(),
            past: PastRuns::new(),
            comparison: Comparison::new(),
        }
    }

    /// Gives each store to the views below through context.
    pub fn provide(&self) {
        provide_context(self.settings);
        provide_context(self.dialogs);
        provide_context(self.workers);
        provide_context(self.past);
        provide_context(self.comparison);
    }
}
