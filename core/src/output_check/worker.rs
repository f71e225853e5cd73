//! The page's side of the output-schema checker's Web Worker (`schema-worker/`): started the first
//! time a result needs checking, one request at a time per check, and stopped when a check takes
//! longer than [`LIMIT_MS`] (a hostile schema cannot hold the run) or when the run that asked is
//! dropped before the answer came.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use futures_channel::oneshot;
use futures_util::future::{Either, select};
use mcp_flow_schema_worker::{Event, Request, Verdict, WORKER_SCRIPT};
use serde_json::Value;

use super::Checker;
use crate::worker_link::{WorkerLink, read_json};
use mcp_flow_on_demand::{OnDemandError, call_on_demand, on_demand};

/// How long a check may take before its worker is stopped.
pub const LIMIT_MS: u32 = 10_000;
/// Bound on what is sent to the worker (schema and instance, as JSON text).
pub const MAX_BYTES: usize = 4 * 1024 * 1024;

/// Parses one message of the worker.
type ReadEvent = fn(&str) -> Result<Event, String>;

// The worker's messages (`Deserialize` of its verdicts) are read by code in the run's module,
// which the release build fetches when a run starts (not with the page).
on_demand!(
    run,
    fn event_reader() -> Result<ReadEvent, OnDemandError> {
        Ok(read_json::<Event>)
    }
);

type Waiters = Rc<RefCell<HashMap<u32, oneshot::Sender<Result<Verdict, String>>>>>;

/// A started worker: its link, the checks waiting on it, and whether it has failed (then the
/// next check starts a new one instead of waiting on a worker that will never answer).
struct Running {
    link: WorkerLink,
    waiters: Waiters,
    failed: Rc<Cell<bool>>,
}

/// The checker's worker for the page's lifetime (started on first use, again after a stop).
#[derive(Default)]
pub struct SchemaWorker {
    running: RefCell<Option<Running>>,
    next_id: Cell<u32>,
}

impl SchemaWorker {
    pub fn new() -> Rc<Self> {
        Rc::new(Self::default())
    }

    /// The checker the host uses.
    pub fn checker(self: &Rc<Self>) -> Checker {
        let this = self.clone();
        Rc::new(move |schema, instance| {
            let this = this.clone();
            Box::pin(async move { this.check(schema, instance).await })
        })
    }

    /// Starts the worker unless it runs; `read` parses what it posts ([`event_reader`]).
    fn start(&self, read: ReadEvent) -> Result<Waiters, String> {
        if let Some(running) = self.running.borrow().as_ref()
            && !running.failed.get()
        {
            return Ok(running.waiters.clone());
        }
        self.stop("the checker's worker failed");
        let waiters: Waiters = Rc::default();
        let failed = Rc::new(Cell::new(false));
        let on_message = {
            let waiters = waiters.clone();
            move |text: Result<String, String>| {
                let event = text.and_then(|t| read(&t));
                match event {
                    Ok(Event::Checked { id, verdict }) => {
                        if let Some(waiter) = waiters.borrow_mut().remove(&id) {
                            let _ = waiter.send(Ok(verdict));
                        }
                    }
                    Ok(Event::Started) => {}
                    Ok(Event::Unreadable { message }) => fail_all(
                        &waiters,
                        &format!("the checker could not read the page's request: {message}"),
                    ),
                    Err(e) => fail_all(
                        &waiters,
                        &format!("the checker posted a message this page cannot read: {e}"),
                    ),
                }
            }
        };
        let on_error = {
            let waiters = waiters.clone();
            let failed = failed.clone();
            move |message: String| {
                failed.set(true);
                fail_all(&waiters, &message)
            }
        };
        let link = WorkerLink::start(
            WORKER_SCRIPT,
            "the schema checker's worker",
            on_message,
            on_error,
        )?;
        *self.running.borrow_mut() = Some(Running {
            link,
            waiters: waiters.clone(),
            failed,
        });
        Ok(waiters)
    }

    fn stop(&self, why: &str) {
        let running = self.running.borrow_mut().take();
        if let Some(running) = running {
            drop(running.link);
            fail_all(&running.waiters, why);
        }
    }

    async fn check(&self, schema: Value, instance: Value) -> Result<Verdict, String> {
        let id = self.next_id.get().wrapping_add(1);
        self.next_id.set(id);
        let text = serde_json::to_string(&Request::Check {
            id,
            schema,
            instance,
        })
        .map_err(|e| e.to_string())?;
        if text.len() > MAX_BYTES {
            return Err(format!(
                "the schema and the content are {} bytes together, more than this page checks ({MAX_BYTES})",
                text.len()
            ));
        }
        let read = call_on_demand!(event_reader())
            .map_err(|e| e.into_message("reads the schema checker's worker"))?;
        let waiters = self.start(read)?;
        let (tx, rx) = oneshot::channel();
        waiters.borrow_mut().insert(id, tx);
        let posted = self
            .running
            .borrow()
            .as_ref()
            .map(|running| running.link.post(text))
            .unwrap_or_else(|| Err("the checker's worker is not running".into()));
        posted?;
        let mut guard = Unfinished {
            worker: self,
            done: false,
        };
        let timer = gloo_timers::future::TimeoutFuture::new(LIMIT_MS);
        let result = match select(rx, timer).await {
            Either::Left((answer, _)) => {
                answer.unwrap_or_else(|_| Err("the checker's worker was stopped".into()))
            }
            Either::Right(((), _)) => {
                let why = format!(
                    "the check did not end within {} s; its worker was stopped",
                    LIMIT_MS / 1000
                );
                self.stop(&why);
                Err(why)
            }
        };
        guard.done = true;
        result
    }
}

fn fail_all(waiters: &Waiters, why: &str) {
    for (_, waiter) in waiters.borrow_mut().drain() {
        let _ = waiter.send(Err(why.to_owned()));
    }
}

/// Stops the worker if the check it belongs to is dropped before its end (the run ended).
struct Unfinished<'a> {
    worker: &'a SchemaWorker,
    done: bool,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.worker.stop("the run ended");
        }
    }
}
