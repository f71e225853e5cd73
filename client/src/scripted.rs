//! A scripted HTTP peer for native tests: records each request, answers from a script.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use serde_json::{Value, json};

use crate::http::{BodyStream, Http, HttpRequest, HttpResponse};

pub enum Script {
    Respond {
        status: u16,
        headers: Vec<(&'static str, String)>,
        chunks: Vec<Vec<u8>>,
    },
    /// The response head and these chunks, then a body that never ends.
    Stall {
        status: u16,
        headers: Vec<(&'static str, String)>,
        chunks: Vec<Vec<u8>>,
    },
    /// A 200 event stream whose events the test sends later through the [`Feed`] (never ends).
    Fed(Feed),
    NoResponse,
    Hang,
    /// An answer made from the request (e.g. a redirect that repeats its `state`).
    From(Box<dyn Fn(&HttpRequest) -> Script>),
}

#[derive(Default)]
pub struct Scripted {
    pub script: RefCell<VecDeque<Script>>,
    pub sent: RefCell<Vec<HttpRequest>>,
    /// Waits the code under test took (recorded when the wait runs, not when it is made).
    pub sleeps: Rc<RefCell<Vec<u32>>>,
    /// Requests still waiting for their head and bodies not dropped yet. Dropping either is
    /// what aborts a fetch in the browser (`browser.rs`), so 0 means nothing is left in flight.
    pub alive: Rc<Cell<usize>>,
    /// [`Scripted::alive`] as each request was sent (before it).
    pub alive_at_send: RefCell<Vec<usize>>,
    clock: Rc<Cell<f64>>,
}

/// Counts itself in [`Scripted::alive`] until dropped.
struct Alive(Rc<Cell<usize>>);

impl Alive {
    fn new(count: &Rc<Cell<usize>>) -> Self {
        count.set(count.get() + 1);
        Self(count.clone())
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

/// The test's end of a [`Script::Fed`] stream: each event sent reaches the reader at once.
#[derive(Clone, Default)]
pub struct Feed(Rc<RefCell<Fed>>);

/// What was sent and not read yet, and the reader waiting for more.
#[derive(Default)]
struct Fed {
    chunks: VecDeque<Vec<u8>>,
    reader: Option<std::task::Waker>,
}

impl Feed {
    /// One SSE event carrying `data`.
    pub fn event(&self, data: &str) {
        let mut fed = self.0.borrow_mut();
        fed.chunks
            .push_back(format!("data: {data}\n\n").into_bytes());
        if let Some(waker) = fed.reader.take() {
            waker.wake();
        }
    }

    /// One SSE event named `event` carrying `data` (the HTTP+SSE transport's `endpoint`).
    pub fn named(&self, event: &str, data: &str) {
        let mut fed = self.0.borrow_mut();
        fed.chunks
            .push_back(format!("event: {event}\ndata: {data}\n\n").into_bytes());
        if let Some(waker) = fed.reader.take() {
            waker.wake();
        }
    }

    async fn next(&self) -> Vec<u8> {
        std::future::poll_fn(|cx| {
            let mut fed = self.0.borrow_mut();
            match fed.chunks.pop_front() {
                Some(chunk) => std::task::Poll::Ready(chunk),
                None => {
                    fed.reader = Some(cx.waker().clone());
                    std::task::Poll::Pending
                }
            }
        })
        .await
    }
}

pub struct Chunks {
    chunks: VecDeque<Vec<u8>>,
    /// After the chunks, wait forever instead of ending.
    stall: bool,
    feed: Option<Feed>,
    _alive: Alive,
}

impl BodyStream for Chunks {
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, String> {
        match self.chunks.pop_front() {
            Some(chunk) => Ok(Some(chunk)),
            None => match &self.feed {
                Some(feed) => Ok(Some(feed.next().await)),
                None if self.stall => std::future::pending().await,
                None => Ok(None),
            },
        }
    }
}

impl Http for Rc<Scripted> {
    type Body = Chunks;
    async fn send(&self, request: &HttpRequest) -> Result<HttpResponse<Chunks>, String> {
        self.sent.borrow_mut().push(request.clone());
        self.alive_at_send.borrow_mut().push(self.alive.get());
        let mut next = self.script.borrow_mut().pop_front();
        while let Some(Script::From(make)) = next {
            next = Some(make(request));
        }
        let mut feed = None;
        let (status, headers, chunks, stall) = match next {
            Some(Script::Fed(fed)) => {
                feed = Some(fed);
                let head = vec![("content-type", "text/event-stream".to_owned())];
                (200, head, Vec::new(), true)
            }
            Some(Script::Respond {
                status,
                headers,
                chunks,
            }) => (status, headers, chunks, false),
            Some(Script::Stall {
                status,
                headers,
                chunks,
            }) => (status, headers, chunks, true),
            Some(Script::NoResponse | Script::From(_)) | None => {
                return Err("connection refused".into());
            }
            Some(Script::Hang) => {
                let _waiting = Alive::new(&self.alive);
                std::future::pending().await
            }
        };
        Ok(HttpResponse {
            status,
            headers: headers
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
            body: Chunks {
                chunks: chunks.into(),
                stall,
                feed,
                _alive: Alive::new(&self.alive),
            },
        })
    }
}

impl Scripted {
    /// Moves the test's clock on, as if this much time passed.
    pub fn advance(&self, ms: f64) {
        self.clock.set(self.clock.get() + ms);
    }
}

/// The scripted peer is the test's clock too: waits end at once and are recorded in `sleeps`.
impl crate::clock::Clock for Scripted {
    fn now_ms(&self) -> f64 {
        self.clock.set(self.clock.get() + 1.0);
        self.clock.get()
    }
    fn sleep(&self, ms: u32) -> crate::clock::Sleep {
        let sleeps = self.sleeps.clone();
        let clock = self.clock.clone();
        Box::pin(async move {
            sleeps.borrow_mut().push(ms);
            clock.set(clock.get() + f64::from(ms));
        })
    }
}

pub fn sse(events: &[&str]) -> Script {
    let mut body = String::from("id: 0\nretry: 3000\ndata:\n\n");
    for (i, data) in events.iter().enumerate() {
        body.push_str(&format!("id: {}\ndata: {data}\n\n", i + 1));
    }
    // Split mid-line to exercise incremental parsing.
    let bytes = body.into_bytes();
    let (a, b) = bytes.split_at(bytes.len() / 2);
    Script::Respond {
        status: 200,
        headers: vec![
            ("content-type", "text/event-stream".into()),
            ("mcp-session-id", "sess-1".into()),
        ],
        chunks: vec![a.to_vec(), b.to_vec()],
    }
}

pub fn json_reply(value: Value) -> Script {
    Script::Respond {
        status: 200,
        headers: vec![("content-type", "application/json".into())],
        chunks: vec![value.to_string().into_bytes()],
    }
}

pub fn status(code: u16, content_type: &str, body: &str) -> Script {
    Script::Respond {
        status: code,
        headers: vec![("content-type", content_type.into())],
        chunks: vec![body.as_bytes().to_vec()],
    }
}

pub fn init_result(id: u64, version: &str) -> String {
    json!({"jsonrpc":"2.0","id":id,"result":{
        "protocolVersion": version, "capabilities": {"tools": {}, "logging": {}},
        "serverInfo": {"name": "weather-server", "version": "0.1.0"}}})
    .to_string()
}

pub fn tools_page(id: u64, name: &str, next: Option<&str>) -> String {
    let mut result = json!({"tools": [{"name": name, "inputSchema": {"type": "object",
        "properties": {"location": {"type": "string"}}, "required": ["location"]}}]});
    if let Some(n) = next {
        result["nextCursor"] = json!(n);
    }
    json!({"jsonrpc":"2.0","id":id,"result":result}).to_string()
}

/// An exchange as the record holds it once a JSON-RPC request `method` with id `seq` was POSTed
/// to the weather server's address at `at_ms`, with no answer yet.
pub fn posted(seq: usize, method: &str, at_ms: f64) -> crate::record::Exchange {
    let body = json!({"jsonrpc": "2.0", "id": seq, "method": method});
    let request = HttpRequest {
        method: "POST",
        url: "http://127.0.0.1:8000/mcp".into(),
        headers: Vec::new(),
        body: Some(body.to_string()),
    };
    crate::record::Exchange::sent(seq, &request, Some(&body), None, at_ms)
}
