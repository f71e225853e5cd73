//! Doing a row: pass the gate, mark it active, and report how it ended, all on the run's clock.
//! Shared by the host and by the answers it gives the server while a call is open.

use std::rc::Rc;

use serde_json::Value;

use super::gate::{Gate, Wait};
use crate::diagram::Row;
use crate::record::payload::{Payload, SkipReason};
use crate::record::run::RunEvent;
use mcp_flow_client::clock::SharedClock;
use mcp_flow_client::sampling::SamplingRequest;

/// A tool call waiting for the user's yes or no.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    pub tool: String,
    pub arguments: Value,
    /// Where the call goes: the server's origin, and, through a bridge on this machine, the
    /// server the bridge relays to.
    pub server: String,
    pub upstream: Option<String>,
    /// The app that asks (its `ui://` URI), when an app calls the tool rather than the model.
    pub app: Option<String>,
}

/// The user's answer to a tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consent {
    Declined,
    Once,
    /// This app's calls of this tool run without asking for the rest of the run (asked only
    /// for an app's call).
    ForTheRun,
}

/// A form the server asks the user to fill in (an elicitation).
#[derive(Debug, Clone, PartialEq)]
pub struct FormRequest {
    pub message: String,
    /// The `requestedSchema`: an object of primitive properties (null in URL mode).
    pub schema: Value,
    /// URL mode: the page the server asks the user to open, and its origin.
    pub url: Option<UrlToOpen>,
    /// The pages were opened and the host waits for the server to say they are done
    /// (`notifications/elicitation/complete`); the user may retry at once or cancel.
    pub awaiting: bool,
}

/// A URL-mode elicitation's page: opened only on the user's consent.
#[derive(Debug, Clone, PartialEq)]
pub struct UrlToOpen {
    pub url: String,
    /// `scheme://host[:port]`, shown so the user sees where it leads.
    pub origin: String,
}

/// A server's sampling request waiting for the user: first the request (approve, edit or refuse
/// it), then the model's answer (approve, edit or refuse it).
#[derive(Debug, Clone, PartialEq)]
pub enum SamplingDialog {
    Review(SamplingRequest),
    Approve {
        request: SamplingRequest,
        answer: String,
        model: String,
    },
}

/// A server asks for the client's roots, the first time: may it have them?
#[derive(Debug, Clone, PartialEq)]
pub struct RootsQuestion {
    /// The server that asks (its origin, or through a bridge the server behind it).
    pub server: String,
    /// The roots the settings list.
    pub roots: Vec<String>,
}

/// What the host reports: changes to the run record, and questions for the user.
#[derive(Debug, Clone, PartialEq)]
pub enum HostEvent {
    Run(RunEvent),
    /// The host waits for the user to allow a tool call (`None`: it no longer waits).
    Approval(Option<ApprovalRequest>),
    /// The host waits for the user to answer the server's form (`None`: it no longer waits).
    Form(Option<FormRequest>),
    /// The host waits for the user to review a sampling request or its answer (`None`: it no
    /// longer waits).
    Sampling(Option<SamplingDialog>),
    /// The server asks for authorization: the page waits for the user to open the
    /// authorization page, whose request this is (`None`: it no longer waits).
    Authorize(Option<String>),
    /// A server asks for the roots for the first time: the page waits for the user to share
    /// them with it or not (`None`: it no longer waits).
    Roots(Option<RootsQuestion>),
}

impl From<RunEvent> for HostEvent {
    fn from(e: RunEvent) -> Self {
        HostEvent::Run(e)
    }
}

pub type Emit = Rc<dyn Fn(HostEvent)>;

/// A run stopped at a row.
#[derive(Debug, Clone, PartialEq)]
pub struct Stopped {
    pub row: Row,
    pub error: String,
    /// No MCP server answered the request (`McpError::unreached`): worth a diagnosis.
    pub unreached: bool,
}

/// Rows, done for real: the gate before each, the record after.
pub struct Steps {
    pub emit: Emit,
    pub gate: Rc<Gate>,
    pub clock: SharedClock,
    /// A tool call is open: the server's questions are drawn on its rows.
    pub calling: std::cell::Cell<bool>,
}

/// Marks a tool call open while it lives.
pub struct Calling<'a>(&'a Steps);

impl Drop for Calling<'_> {
    fn drop(&mut self) {
        self.0.calling.set(false);
    }
}

impl Steps {
    pub fn new(emit: Emit, gate: Rc<Gate>, clock: SharedClock) -> Self {
        Self {
            emit,
            gate,
            clock,
            calling: std::cell::Cell::new(false),
        }
    }

    /// A tool call is open until the guard is dropped.
    pub fn calling(&self) -> Calling<'_> {
        self.calling.set(true);
        Calling(self)
    }

    /// The steps for a question the server asks outside any tool call (on the GET stream): the
    /// user's dialogs and the record's exchanges as usual, but no row of a diagram, and no gate.
    pub fn for_question(&self) -> Option<Steps> {
        if self.calling.get() {
            return None;
        }
        let emit = self.emit.clone();
        Some(Steps::new(
            Rc::new(move |event| {
                if !matches!(
                    event,
                    HostEvent::Run(
                        RunEvent::Active { .. }
                            | RunEvent::Done { .. }
                            | RunEvent::Failed { .. }
                            | RunEvent::Skipped { .. }
                    )
                ) {
                    emit(event);
                }
            }),
            Rc::new(Gate::new(super::gate::Mode::Play, None)),
            self.clock.clone(),
        ))
    }

    pub fn now_ms(&self) -> f64 {
        self.clock.now_ms()
    }

    pub fn record(&self, event: RunEvent) {
        (self.emit)(HostEvent::Run(event));
    }

    async fn pass_gate(&self) {
        match self.gate.plan() {
            Wait::Now => {}
            Wait::Sleep(ms) => self.clock.sleep(ms).await,
            Wait::UntilNext => {
                let rx = self.gate.arm();
                let _ = rx.await;
            }
        }
    }

    /// Waits for the gate, then marks `row` active.
    pub async fn begin(&self, row: Row) {
        self.pass_gate().await;
        self.activate(row);
    }

    /// Marks `row` active without waiting (a row that is the user's turn).
    pub fn activate(&self, row: Row) {
        self.record(RunEvent::Active {
            row,
            at_ms: self.now_ms(),
        });
    }

    pub fn done(&self, row: Row, payload: Option<Payload>) {
        self.record(RunEvent::Done {
            row,
            at_ms: self.now_ms(),
            payload,
        });
    }

    pub fn fail(&self, row: Row, error: String) -> Stopped {
        self.record(RunEvent::Failed {
            row,
            at_ms: self.now_ms(),
            error: error.clone(),
        });
        Stopped {
            row,
            error,
            unreached: false,
        }
    }

    pub fn skip(&self, rows: &[Row], why: SkipReason) {
        for &row in rows {
            self.record(RunEvent::Skipped { row, why });
        }
    }
}
