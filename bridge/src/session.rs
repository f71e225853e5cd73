//! One MCP session of the stdio mode: its child process and the routing of what the child
//! writes. A response goes to the POST that carries its id; a request or notification from
//! the child goes on the SSE stream of an open POST, else on the GET stream, else waits for
//! one. Only ids and methods are read; the lines pass through as they are.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex, MutexGuard},
    time::{Duration, Instant},
};

use axum::http::StatusCode;
use tokio::sync::mpsc;

use crate::{
    child::{Child, ChildEnv, Exit, Output},
    jsonrpc::{Failure, Kind, NotAMessage, classify},
    record::{Budget, Leg, Record, now_ms},
};

/// Messages from the child kept for a GET stream that is not open yet.
const QUEUE_LIMIT: usize = 1000;
/// How much of a bad stdout line an error message quotes.
const QUOTE_CHARS: usize = 200;

/// What reaches an open POST.
#[derive(Debug)]
pub enum Delivery {
    /// A request or notification from the child, sent before the response.
    Interim(String),
    /// The response carrying the POST's id: the last delivery.
    Response(String),
    /// The server cannot answer (it exited, wrote garbage, …): the last delivery.
    Failed(Failure),
}

struct Pending {
    id: String,
    method: String,
    tx: mpsc::UnboundedSender<Delivery>,
}

#[derive(Default)]
struct Routes {
    /// Open POSTs, oldest first.
    pending: Vec<Pending>,
    get_stream: Option<mpsc::UnboundedSender<String>>,
    queued: VecDeque<String>,
    /// Set once the child is gone: why every later request fails.
    ended: Option<Failure>,
}

type SharedRoutes = Arc<Mutex<Routes>>;

fn lock(routes: &SharedRoutes) -> MutexGuard<'_, Routes> {
    routes
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A session: one child process.
pub struct Session {
    pub id: String,
    /// The one child shared by requests without a session (the 2026-07-28 era), rather than a
    /// 2025-11-25 session started by `initialize`.
    pub sessionless: bool,
    pub started_at_ms: f64,
    pub child: Arc<Child>,
    pub record: Arc<Record>,
    routes: SharedRoutes,
    last_active: Mutex<Instant>,
}

/// An open POST: receives its deliveries; dropping it (answered, timed out, client gone)
/// forgets the request.
pub struct OpenRequest {
    pub rx: mpsc::UnboundedReceiver<Delivery>,
    routes: SharedRoutes,
    id: String,
}

impl Drop for OpenRequest {
    fn drop(&mut self) {
        lock(&self.routes)
            .pending
            .retain(|pending| pending.id != self.id);
    }
}

/// How each session's child is started, fixed when the bridge starts.
pub struct Launch {
    /// The server's command.
    pub command: Vec<String>,
    pub env: ChildEnv,
    /// What every session's record may keep, together.
    pub budget: Arc<Budget>,
}

impl Session {
    /// Starts the child for a new session.
    pub fn start(id: String, launch: &Launch, sessionless: bool) -> std::io::Result<Arc<Self>> {
        let record = Arc::new(Record::new(Arc::clone(&launch.budget)));
        let (child, output) = Child::spawn(&launch.command, &launch.env, Arc::clone(&record))?;
        let routes = SharedRoutes::default();
        tokio::spawn(route_output(
            output,
            Arc::clone(&routes),
            Arc::clone(&record),
        ));
        Ok(Arc::new(Self {
            id,
            sessionless,
            started_at_ms: now_ms(),
            child,
            record,
            routes,
            last_active: Mutex::new(Instant::now()),
        }))
    }

    /// Notes a request: the session is in use.
    pub fn touch(&self) {
        *self
            .last_active
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Instant::now();
    }

    /// Whether the session has had no request for `idle` and none is open.
    pub fn is_idle(&self, idle: Duration) -> bool {
        let since = self
            .last_active
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .elapsed();
        since >= idle && lock(&self.routes).pending.is_empty()
    }

    /// Why the session cannot serve any more, once its child is gone.
    pub fn ended(&self) -> Option<Failure> {
        lock(&self.routes).ended.clone()
    }

    /// Registers a POSTed request before it is written to the child, so that no answer can
    /// arrive unrouted.
    pub fn open_request(&self, id: &str, method: &str) -> Result<OpenRequest, Failure> {
        let mut routes = lock(&self.routes);
        if let Some(ended) = &routes.ended {
            return Err(ended.clone());
        }
        if routes.pending.iter().any(|pending| pending.id == id) {
            return Err(Failure::new(
                StatusCode::CONFLICT,
                "bridge",
                "duplicate-id",
                format!("A request with id {id} is still open in this session"),
            ));
        }
        let (tx, rx) = mpsc::unbounded_channel();
        routes.pending.push(Pending {
            id: id.to_owned(),
            method: method.to_owned(),
            tx,
        });
        Ok(OpenRequest {
            rx,
            routes: Arc::clone(&self.routes),
            id: id.to_owned(),
        })
    }

    /// Opens the GET stream, with what the child sent while none was open. `None` when one is
    /// open already.
    pub fn open_get_stream(&self) -> Option<mpsc::UnboundedReceiver<String>> {
        let mut routes = lock(&self.routes);
        if routes
            .get_stream
            .as_ref()
            .is_some_and(|stream| !stream.is_closed())
        {
            return None;
        }
        let (tx, rx) = mpsc::unbounded_channel();
        for message in routes.queued.drain(..) {
            let _ = tx.send(message);
        }
        if routes.ended.is_none() {
            routes.get_stream = Some(tx);
        }
        Some(rx)
    }

    /// Ends the session: kills the child's process group and waits for it to be gone.
    pub async fn stop(&self, reason: &str) {
        self.child.stop(reason).await;
        lock(&self.routes).get_stream = None;
    }
}

/// Routes the child's stdout until it exits.
async fn route_output(
    mut output: mpsc::Receiver<Output>,
    routes: SharedRoutes,
    record: Arc<Record>,
) {
    while let Some(item) = output.recv().await {
        match item {
            Output::Line(bytes) => route_line(&routes, &record, bytes),
            Output::TooLong(length) => {
                record.push(
                    Leg::Stdout,
                    "",
                    Some(format!(
                        "a line of {length} bytes, over the bridge's limit, skipped"
                    )),
                );
                let failure = Failure::new(
                    StatusCode::BAD_GATEWAY,
                    "stdio",
                    "line-too-long",
                    format!(
                        "The server wrote a line of {length} bytes to stdout, over the bridge's \
                         limit of {} bytes",
                        crate::child::MAX_LINE_BYTES
                    ),
                );
                fail_all(&routes, &failure);
            }
            Output::Exited(exit) => {
                let failure = exited(&exit, &record.stderr_tail());
                let mut routes = lock(&routes);
                fail_pending(&mut routes, &failure);
                routes.ended = Some(failure);
                routes.get_stream = None;
                break;
            }
        }
    }
}

fn route_line(routes: &SharedRoutes, record: &Record, bytes: Vec<u8>) {
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let text = String::from_utf8_lossy(error.as_bytes()).into_owned();
            not_a_message(routes, record, text, "not UTF-8");
            return;
        }
    };
    if text.trim().is_empty() {
        return;
    }
    match classify(&text) {
        Ok(Kind::Response { id }) => {
            let pending = {
                let mut locked = lock(routes);
                let position = locked.pending.iter().position(|pending| pending.id == id);
                position.map(|position| locked.pending.remove(position))
            };
            let note = match &pending {
                Some(pending) => format!("answers POST {} (id {id})", pending.method),
                None => format!("answers no open request (id {id}): not delivered"),
            };
            // Recorded before it is delivered: whoever got the answer finds it in the record.
            record.push(Leg::Stdout, text.clone(), Some(note));
            if let Some(pending) = pending {
                let _ = pending.tx.send(Delivery::Response(text));
            }
        }
        Ok(Kind::Request { method, .. } | Kind::Notification { method }) => {
            let mut locked = lock(routes);
            let note = deliver_from_server(&mut locked, &text);
            drop(locked);
            record.push(Leg::Stdout, text, Some(format!("{method}: {note}")));
        }
        Err(NotAMessage::NotJson(error)) => {
            not_a_message(routes, record, text, &format!("not JSON ({error})"));
        }
        Err(NotAMessage::NotJsonRpc) => {
            not_a_message(routes, record, text, "JSON but not one JSON-RPC message");
        }
    }
}

/// A request or notification from the child: on an open POST's stream, else on the GET
/// stream, else queued for it. Returns where it went.
fn deliver_from_server(routes: &mut Routes, text: &str) -> String {
    for pending in &routes.pending {
        if pending.tx.send(Delivery::Interim(text.to_owned())).is_ok() {
            return format!(
                "on the SSE stream of POST {} (id {})",
                pending.method, pending.id
            );
        }
    }
    if let Some(stream) = &routes.get_stream
        && stream.send(text.to_owned()).is_ok()
    {
        return "on the GET stream".to_owned();
    }
    if routes.queued.len() >= QUEUE_LIMIT {
        return format!("dropped: no stream open and {QUEUE_LIMIT} messages already wait");
    }
    routes.queued.push_back(text.to_owned());
    "queued for the GET stream".to_owned()
}

/// A stdout line that breaks the stdio transport (only JSON-RPC messages may appear there):
/// recorded, and the open requests fail with it.
fn not_a_message(routes: &SharedRoutes, record: &Record, text: String, why: &str) {
    let quoted: String = text.chars().take(QUOTE_CHARS).collect();
    record.push(
        Leg::Stdout,
        text,
        Some(format!(
            "{why}: the stdio transport allows only JSON-RPC messages on stdout"
        )),
    );
    let failure = Failure::new(
        StatusCode::BAD_GATEWAY,
        "stdio",
        "not-json",
        format!("The server wrote a line to stdout that is {why}: {quoted:?}"),
    )
    .with("line", quoted);
    fail_all(routes, &failure);
}

fn fail_all(routes: &SharedRoutes, failure: &Failure) {
    fail_pending(&mut lock(routes), failure);
}

fn fail_pending(routes: &mut Routes, failure: &Failure) {
    for pending in routes.pending.drain(..) {
        let mut failure = failure.clone();
        failure.message = format!(
            "{} (while {} id {} was open)",
            failure.message, pending.method, pending.id
        );
        let _ = pending.tx.send(Delivery::Failed(failure));
    }
}

/// The failure for a child that is gone: how it ended and its last stderr lines.
pub fn exited(exit: &Exit, stderr_tail: &[String]) -> Failure {
    let stderr = if stderr_tail.is_empty() {
        "it wrote nothing to stderr".to_owned()
    } else {
        format!("its last stderr lines: {}", stderr_tail.join(" | "))
    };
    Failure::new(
        StatusCode::BAD_GATEWAY,
        "stdio",
        "child-exited",
        format!("The server process {exit}; {stderr}"),
    )
    .with("exit", exit)
    .with("stderr_tail", stderr_tail)
}
