//! Starting the bridge binary and talking to it, for the integration tests. Every wait is
//! bounded so a broken bridge fails a test instead of hanging it.

#![allow(dead_code)]

pub mod upstream;

use std::{
    process::Stdio,
    sync::OnceLock,
    time::{Duration, Instant},
};

use futures::StreamExt;
use mcp_flow_sse::SseParser;
use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, BufReader},
    process::{Child, Command},
};

/// Upper bound for anything a test waits for.
pub const WAIT: Duration = Duration::from_secs(30);

pub const ACCEPT: &str = "application/json, text/event-stream";

/// The Python interpreter the test children run on (resolved once: pyenv shims are slow).
pub fn python() -> &'static str {
    static PYTHON: OnceLock<String> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let out = std::process::Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 must be on PATH for the bridge's tests");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    })
}

/// A test child script from `tests/children/`.
pub fn child(name: &str) -> String {
    format!("{}/tests/children/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The scripted test server as a command.
pub fn scripted() -> Vec<String> {
    vec![python().to_owned(), "-u".into(), child("scripted.py")]
}

pub struct Bridge {
    pub process: Child,
    /// `http://127.0.0.1:PORT/s/SECRET/mcp`
    pub url: String,
    pub port: u16,
    pub client: reqwest::Client,
    /// The second line on stdout with `--watch`: `Watch in the page: URL`.
    pub watch_line: Option<String>,
}

impl Bridge {
    /// Starts `mcp-flow-bridge stdio --bind 127.0.0.1:0 FLAGS -- COMMAND` and reads its
    /// endpoint line.
    pub async fn start(flags: &[&str], command: &[String]) -> Self {
        Self::start_env(flags, command, &[]).await
    }

    /// The same, with these variables added to the bridge's environment.
    pub async fn start_env(flags: &[&str], command: &[String], env: &[(&str, &str)]) -> Self {
        let mut args: Vec<String> = ["stdio", "--bind", "127.0.0.1:0"]
            .iter()
            .chain(flags)
            .map(|arg| (*arg).to_owned())
            .collect();
        args.push("--".to_owned());
        args.extend(command.iter().cloned());
        Self::start_args_env(&args, env).await
    }

    /// Starts `mcp-flow-bridge http --bind 127.0.0.1:0 FLAGS URL`.
    pub async fn start_http(flags: &[&str], upstream: &str) -> Self {
        let args: Vec<String> = ["http", "--bind", "127.0.0.1:0"]
            .iter()
            .chain(flags)
            .chain(&[upstream])
            .map(|arg| (*arg).to_owned())
            .collect();
        Self::start_args(&args).await
    }

    /// Starts the bridge with these arguments and reads its endpoint line.
    pub async fn start_args(args: &[String]) -> Self {
        Self::start_args_env(args, &[]).await
    }

    /// The same, with these variables added to the bridge's environment.
    pub async fn start_args_env(args: &[String], env: &[(&str, &str)]) -> Self {
        let mut process = Command::new(env!("CARGO_BIN_EXE_mcp-flow-bridge"))
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start the bridge");
        let stdout = process.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let line = tokio::time::timeout(WAIT, lines.next_line())
            .await
            .expect("the bridge prints its endpoint in time")
            .expect("read stdout")
            .expect("an endpoint line");
        let url = line
            .strip_prefix("MCP endpoint: ")
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .to_owned();
        // With --watch and an --allow-origin, the page's address follows.
        let watching =
            args.iter().any(|a| a == "--watch") && args.iter().any(|a| a == "--allow-origin");
        let watch_line = if watching {
            tokio::time::timeout(WAIT, lines.next_line())
                .await
                .ok()
                .and_then(Result::ok)
                .flatten()
        } else {
            None
        };
        let port = url
            .trim_start_matches("http://127.0.0.1:")
            .split('/')
            .next()
            .and_then(|port| port.parse().ok())
            .expect("a port in the endpoint");
        let client = reqwest::Client::builder()
            .timeout(WAIT)
            .build()
            .expect("client");
        Self {
            process,
            url,
            port,
            client,
            watch_line,
        }
    }

    /// The base under the secret: `http://127.0.0.1:PORT/s/SECRET`.
    pub fn base(&self) -> &str {
        self.url.trim_end_matches("/mcp")
    }

    pub fn post(&self, session: Option<&str>, body: &Value) -> reqwest::RequestBuilder {
        let mut request = self
            .client
            .post(&self.url)
            .header("accept", ACCEPT)
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        request
    }

    /// `initialize`; returns the session id.
    pub async fn initialize(&self) -> String {
        let response = self
            .post(None, &initialize(1))
            .send()
            .await
            .expect("initialize");
        assert_eq!(response.status(), 200, "initialize is answered");
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .expect("a session id")
            .to_owned();
        let accepted = self
            .post(
                Some(&session),
                &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            )
            .send()
            .await
            .expect("initialized");
        assert_eq!(accepted.status(), 202);
        session
    }

    /// A request in the session, answered (JSON or SSE); returns the HTTP status and every
    /// message of the answer.
    pub async fn call(
        &self,
        session: &str,
        id: u64,
        method: &str,
        params: Value,
    ) -> (u16, Vec<Value>) {
        let response = self
            .post(
                Some(session),
                &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
            )
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, messages(response).await)
    }

    /// The record of one session.
    pub async fn legs(&self, session: &str) -> Value {
        self.record(&format!("?session={session}")).await
    }

    /// The record at `/legs` with `query` (`""` for the whole list).
    pub async fn record(&self, query: &str) -> Value {
        self.client
            .get(format!("{}/legs{query}", self.base()))
            .send()
            .await
            .expect("legs")
            .json()
            .await
            .expect("legs JSON")
    }

    /// The pid of the session's child, from the record.
    pub async fn child_pid(&self, session: &str) -> u32 {
        let legs = self.legs(session).await;
        u32::try_from(legs["pid"].as_u64().expect("pid")).expect("pid fits")
    }

    pub fn signal(&self, signal: i32) {
        let pid = self.process.id().expect("bridge running");
        // SAFETY: sends a signal to the bridge this test started.
        unsafe {
            libc::kill(libc::pid_t::try_from(pid).expect("pid"), signal);
        }
    }

    /// Waits (bounded) for the bridge to exit; returns its exit code.
    pub async fn exited(&mut self) -> Option<i32> {
        tokio::time::timeout(WAIT, self.process.wait())
            .await
            .expect("the bridge exits in time")
            .expect("wait")
            .code()
    }
}

pub fn initialize(id: u64) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "bridge-test", "version": "1.0.0"},
        },
    })
}

/// The JSON-RPC messages of a response: its JSON body, or each SSE event's data.
pub async fn messages(response: reqwest::Response) -> Vec<Value> {
    let is_sse = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"));
    let body = tokio::time::timeout(WAIT, response.bytes())
        .await
        .expect("the body ends in time")
        .expect("body");
    if !is_sse {
        return vec![serde_json::from_slice(&body).expect("a JSON body")];
    }
    mcp_flow_sse::parse(&body)
        .events
        .into_iter()
        .filter(|event| !event.is_empty())
        .map(|event| serde_json::from_str(&event.data).expect("JSON in each event"))
        .collect()
}

/// Reads SSE events from a streaming response as they arrive.
pub struct Events {
    stream: futures::stream::BoxStream<'static, reqwest::Result<bytes::Bytes>>,
    parser: SseParser,
    ready: std::collections::VecDeque<Value>,
}

impl Events {
    pub fn new(response: reqwest::Response) -> Self {
        Self {
            stream: response.bytes_stream().boxed(),
            parser: SseParser::new(),
            ready: Default::default(),
        }
    }

    /// The next message, waiting at most `WAIT`; `None` when the stream ends.
    pub async fn next(&mut self) -> Option<Value> {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(message) = self.ready.pop_front() {
                return Some(message);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let chunk = tokio::time::timeout(left, self.stream.next())
                .await
                .expect("an SSE event in time")?
                .expect("stream read");
            for event in self.parser.push(&chunk) {
                if !event.is_empty() {
                    self.ready
                        .push_back(serde_json::from_str(&event.data).expect("JSON event"));
                }
            }
        }
    }
}

/// Whether process `pid` is gone (absent, or a zombie nobody reaped yet), waiting up to
/// `WAIT` for it.
pub async fn process_gone(pid: u32) -> bool {
    let deadline = Instant::now() + WAIT;
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
        let gone = match stat {
            Err(_) => true,
            // The state follows the command name in parentheses: "PID (comm) S ...".
            Ok(stat) => stat
                .rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
        };
        if gone {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether process `pid` is alive now.
pub fn process_alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X']))
    })
}

/// Runs the bridge binary with `args` and returns its exit code and stderr (bounded).
pub async fn run_to_exit(args: &[&str]) -> (Option<i32>, String) {
    let mut process = Command::new(env!("CARGO_BIN_EXE_mcp-flow-bridge"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start the bridge");
    let mut stderr = String::new();
    let mut pipe = process.stderr.take().expect("stderr");
    tokio::time::timeout(WAIT, pipe.read_to_string(&mut stderr))
        .await
        .expect("stderr ends in time")
        .expect("read stderr");
    let status = tokio::time::timeout(WAIT, process.wait())
        .await
        .expect("the bridge exits in time")
        .expect("wait");
    (status.code(), stderr)
}
