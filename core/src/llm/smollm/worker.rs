//! The page's side of the model's Web Worker: starts it on first use (so the engine's wasm is
//! fetched only then), asks it to load the model, sends turns, and routes what it posts: progress
//! to the settings, text to the turn's stream, results to the waiting turn. A turn dropped
//! before its end (the run ended) stops the worker: nothing the run started outlives it.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use super::Engine;
use super::status::{Status, TurnFigures};
use crate::worker_link::{WorkerLink, read_json};
use futures_channel::oneshot;
use mcp_flow_on_demand::{OnDemandError, call_on_demand, on_demand};
use mcp_flow_smollm_wire::{PageEvent as Event, Request, WORKER_SCRIPT};

/// Parses one message of the worker.
type ReadEvent = fn(&str) -> Result<Event, String>;

// The worker's messages are read by code only the in-page model needs (`Deserialize` of its
// events and the model's decision): the release build fetches it when the model is first used.
on_demand!(
    smollm_page,
    fn event_reader() -> Result<ReadEvent, OnDemandError> {
        Ok(read_json::<Event>)
    }
);

async fn reader() -> Result<ReadEvent, String> {
    call_on_demand!(event_reader()).map_err(|e| e.into_message("reads the model's worker"))
}

type Waiter = oneshot::Sender<Result<Event, String>>;
/// A turn waiting for its result, and where its text goes meanwhile.
type Turn = (Waiter, Rc<dyn Fn(&str)>);

/// What the worker's messages reach.
struct Routes {
    status: Rc<dyn Fn(Status)>,
    loaded: Cell<bool>,
    /// The worker died (an uncaught error): the next use starts a new one.
    failed: Cell<bool>,
    loading: RefCell<Vec<oneshot::Sender<Result<(), String>>>>,
    turns: RefCell<HashMap<u32, Turn>>,
    /// The last `Ready`, for adding the rate of each turn.
    ready: RefCell<Option<Status>>,
}

impl Routes {
    fn on_event(&self, event: Event) {
        match event {
            // The link holds requests until then (crate::worker_link).
            Event::Started => {}
            Event::Progress { phase, done, total } => {
                (self.status)(Status::Loading { phase, done, total })
            }
            Event::Ready(loaded) => {
                let status = Status::Ready {
                    loaded,
                    turns: Vec::new(),
                };
                *self.ready.borrow_mut() = Some(status.clone());
                self.loaded.set(true);
                (self.status)(status);
                for waiter in self.loading.borrow_mut().drain(..) {
                    let _ = waiter.send(Ok(()));
                }
            }
            Event::Failed { id: None, message } => {
                (self.status)(Status::Failed(message.clone()));
                for waiter in self.loading.borrow_mut().drain(..) {
                    let _ = waiter.send(Err(message.clone()));
                }
            }
            Event::Token { id, text } => {
                let on_text = self.turns.borrow().get(&id).map(|(_, f)| f.clone());
                if let Some(on_text) = on_text {
                    on_text(&text);
                }
            }
            Event::ToolTurn { id, .. }
            | Event::Answer { id, .. }
            | Event::Failed { id: Some(id), .. } => {
                self.rate(&event);
                if let Some((waiter, _)) = self.turns.borrow_mut().remove(&id) {
                    let _ = waiter.send(Ok(event));
                }
            }
        }
    }

    fn rate(&self, event: &Event) {
        let figures = match event {
            Event::ToolTurn {
                decision,
                ms,
                read_ms,
                ..
            } => TurnFigures {
                tokens: decision["generated_tokens"].as_u64().unwrap_or(0) as usize,
                ms: *ms,
                read_ms: *read_ms,
            },
            Event::Answer {
                generated_tokens,
                ms,
                read_ms,
                ..
            } => TurnFigures {
                tokens: *generated_tokens,
                ms: *ms,
                read_ms: *read_ms,
            },
            _ => return,
        };
        let updated = {
            let mut ready = self.ready.borrow_mut();
            if let Some(status) = ready.as_mut() {
                status.add_turn(figures);
            }
            ready.clone()
        };
        if let Some(status) = updated {
            (self.status)(status);
        }
    }

    /// Everything waiting fails with `message` (the worker stopped).
    fn fail_all(&self, message: &str) {
        self.loaded.set(false);
        for waiter in self.loading.borrow_mut().drain(..) {
            let _ = waiter.send(Err(message.to_owned()));
        }
        for (_, (waiter, _)) in self.turns.borrow_mut().drain() {
            let _ = waiter.send(Err(message.to_owned()));
        }
    }
}

struct Running {
    link: WorkerLink,
    routes: Rc<Routes>,
}

/// The model's worker for the page's lifetime (started on first use, restarted after a stop).
pub struct ModelWorker {
    model_url: String,
    status: Rc<dyn Fn(Status)>,
    running: RefCell<Option<Running>>,
    next_id: Cell<u32>,
}

impl ModelWorker {
    /// A worker that loads the model from `model_url` and reports its state to `status`.
    pub fn new(model_url: String, status: impl Fn(Status) + 'static) -> Rc<Self> {
        Rc::new(Self {
            model_url,
            status: Rc::new(status),
            running: RefCell::new(None),
            next_id: Cell::new(1),
        })
    }

    /// Starts the worker unless it runs; `read` parses what it posts ([`event_reader`]).
    fn start(&self, read: ReadEvent) -> Result<Rc<Routes>, String> {
        if let Some(running) = self.running.borrow().as_ref()
            && !running.routes.failed.get()
        {
            return Ok(running.routes.clone());
        }
        // A worker that died is ended (dropping its link terminates it) and replaced.
        let dead = self.running.borrow_mut().take();
        drop(dead);
        let routes = Rc::new(Routes {
            status: self.status.clone(),
            loaded: Cell::new(false),
            failed: Cell::new(false),
            loading: RefCell::new(Vec::new()),
            turns: RefCell::new(HashMap::new()),
            ready: RefCell::new(None),
        });
        let on_message = {
            let routes = routes.clone();
            move |text: Result<String, String>| match text.and_then(|t| read(&t)) {
                Ok(event) => routes.on_event(event),
                Err(_) => {
                    routes.fail_all("the model's worker posted a message this page cannot read")
                }
            }
        };
        let on_error = {
            let routes = routes.clone();
            let status = self.status.clone();
            move |message: String| {
                routes.failed.set(true);
                status(Status::Failed(message.clone()));
                routes.fail_all(&message);
            }
        };
        let link = WorkerLink::start(WORKER_SCRIPT, "the model's worker", on_message, on_error)?;
        *self.running.borrow_mut() = Some(Running {
            link,
            routes: routes.clone(),
        });
        Ok(routes)
    }

    fn post(&self, request: &Request) -> Result<(), String> {
        let text = serde_json::to_string(request).map_err(|e| e.to_string())?;
        let running = self.running.borrow();
        let Some(running) = running.as_ref() else {
            return Err("the model's worker is not running".into());
        };
        running.link.post(text)
    }

    /// Ends the worker and whatever it was doing; the next use starts a new one.
    pub fn stop(&self) {
        let running = self.running.borrow_mut().take();
        if let Some(running) = running {
            drop(running.link);
            running.routes.fail_all("the model's worker was stopped");
            (self.status)(Status::Stopped);
        }
    }
}

/// Stops the worker if the turn it belongs to is dropped before its end.
struct Unfinished<'a> {
    worker: &'a ModelWorker,
    done: bool,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.worker.stop();
        }
    }
}

impl ModelWorker {
    /// Waits for the worker's answer on `rx`; dropped before it (the run ended), stops the worker.
    async fn answer<T>(&self, rx: oneshot::Receiver<Result<T, String>>) -> Result<T, String> {
        let mut guard = Unfinished {
            worker: self,
            done: false,
        };
        let result = rx
            .await
            .unwrap_or_else(|_| Err("the model's worker was stopped".into()));
        guard.done = true;
        result
    }
}

impl Engine for Rc<ModelWorker> {
    fn source(&self) -> String {
        format!("{} (in a Web Worker in this page)", self.model_url)
    }

    async fn ready(&self) -> Result<(), String> {
        let routes = self.start(reader().await?)?;
        if routes.loaded.get() {
            return Ok(());
        }
        let (tx, rx) = oneshot::channel();
        let first = routes.loading.borrow().is_empty();
        routes.loading.borrow_mut().push(tx);
        if first {
            self.post(&Request::Load {
                url: self.model_url.clone(),
            })?;
        }
        self.answer(rx).await
    }

    fn next_id(&self) -> u32 {
        let id = self.next_id.get();
        self.next_id.set(id.wrapping_add(1));
        id
    }

    async fn run(&self, request: Request, on_text: Rc<dyn Fn(&str)>) -> Result<Event, String> {
        let id = match &request {
            Request::ToolCall { id, .. }
            | Request::Answer { id, .. }
            | Request::Reply { id, .. } => *id,
            Request::Load { .. } => return Err("loading is not a turn".into()),
        };
        let routes = self.start(reader().await?)?;
        let (tx, rx) = oneshot::channel();
        routes.turns.borrow_mut().insert(id, (tx, on_text));
        self.post(&request)?;
        self.answer(rx).await
    }
}
