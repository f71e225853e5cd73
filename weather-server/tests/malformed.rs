//! Malformed and hostile requests, as one table: every row is sent to a fresh server state
//! (its own session where one is needed) and must get the right HTTP status and, where the
//! answer is a JSON-RPC message, the right error code; never a 5xx, a panic or a hang. The
//! server must still answer a normal `tools/call` afterwards.
//!
//! References: MCP 2025-11-25 (basic: "Requests MUST include a string or integer ID ... the ID
//! MUST NOT be null"; basic/transports, Streamable HTTP: one JSON-RPC message per POST, Accept
//! listing both `application/json` and `text/event-stream`, 400 without a session id, 404 for an
//! unknown session, 400 for an unsupported `MCP-Protocol-Version`) and JSON-RPC 2.0 (-32700 for
//! invalid JSON, -32600 for an invalid request object with `id: null` when the id cannot be
//! read, -32601 for an unknown method, -32602 for invalid params).

mod support;

use std::{
    ops::RangeInclusive,
    sync::atomic::{AtomicUsize, Ordering},
    time::Duration,
};

use reqwest::Method;
use serde_json::{Value, json};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Every request (and the whole case) must finish within this time.
const CASE_TIMEOUT: Duration = Duration::from_secs(10);
/// The server's default `--max-body-bytes`.
const DEFAULT_MAX_BODY: usize = 1024 * 1024;

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Which endpoint a row goes to.
#[derive(Debug, Clone, Copy)]
enum Target {
    Weather,
    Calc,
}

/// The `mcp-session-id` a row sends.
#[derive(Debug, Clone, Copy)]
enum Session {
    /// None at all.
    Absent,
    /// A session opened (initialize + initialized) just for this row.
    Fresh,
    /// This literal value.
    Literal(&'static str),
}

/// How a row is put on the wire.
#[derive(Debug, Clone, Copy)]
enum Wire {
    /// reqwest (which always adds `accept: */*` unless told otherwise).
    Reqwest,
    /// A hand-written HTTP/1.1 request on a raw TCP connection: exactly the listed headers.
    Raw,
    /// Like `Raw`, but only the head is sent, declaring the body's length. A server that refuses
    /// a body by its declared length answers at once; sending the body as well would race its
    /// close (the client can get a reset while still writing).
    RawHeadOnly,
}

/// What the answer must carry besides its status.
#[derive(Debug, Clone, PartialEq)]
enum Reply {
    /// A JSON-RPC error with this code, as a JSON body or in the SSE stream.
    RpcError(i64),
    /// A tool result with `isError: true` (a tool error, not a protocol error).
    ToolError,
    /// A successful result (`isError` absent or false).
    Success,
    /// No body at all (202 Accepted).
    Empty,
    /// Any body: an HTTP-level refusal, where the spec leaves the body open.
    Any,
}

struct Case {
    name: &'static str,
    target: Target,
    wire: Wire,
    method: Method,
    session: Session,
    headers: Vec<(&'static str, &'static str)>,
    body: Vec<u8>,
    status: RangeInclusive<u16>,
    reply: Reply,
    /// The `id` the JSON-RPC answer must carry (`Value::Null` when the request's id is unusable).
    id: Option<Value>,
    /// Text the JSON-RPC error message must contain.
    message_contains: Option<&'static str>,
    /// A response header (lower-case name) the answer must carry with this value.
    header: Option<(&'static str, &'static str)>,
}

const CT_JSON: (&str, &str) = ("content-type", "application/json");

/// A well-formed POST in a fresh session, expected to succeed; rows override what they test.
fn base(name: &'static str, body: impl Into<Vec<u8>>) -> Case {
    Case {
        name,
        target: Target::Weather,
        wire: Wire::Reqwest,
        method: Method::POST,
        session: Session::Fresh,
        // The headers a well-behaved client sends.
        headers: vec![CT_JSON, ACCEPT, VERSION],
        body: body.into(),
        status: 200..=200,
        reply: Reply::Success,
        id: None,
        message_contains: None,
        header: None,
    }
}

/// A row expecting HTTP `status` with JSON-RPC error `code` and answer id `id`.
fn rpc_error(
    name: &'static str,
    body: impl Into<Vec<u8>>,
    status: u16,
    code: i64,
    id: Value,
) -> Case {
    Case {
        status: status..=status,
        reply: Reply::RpcError(code),
        id: Some(id),
        ..base(name, body)
    }
}

/// A row expecting an HTTP-level refusal with `status` (body left open by the spec).
fn refused(name: &'static str, body: impl Into<Vec<u8>>, status: u16) -> Case {
    Case {
        status: status..=status,
        reply: Reply::Any,
        ..base(name, body)
    }
}

/// A `ping` with exactly these headers, refused with `status`.
fn refused_headers(
    name: &'static str,
    headers: &[(&'static str, &'static str)],
    status: u16,
) -> Case {
    Case {
        headers: headers.to_vec(),
        ..refused(name, ping(2), status)
    }
}

fn text(value: Value) -> Vec<u8> {
    value.to_string().into_bytes()
}

fn ping(id: i64) -> Vec<u8> {
    text(request(id, "ping", json!({})))
}

fn tool_call(id: i64, params: Value) -> Vec<u8> {
    text(request(id, "tools/call", params))
}

/// `{"jsonrpc":"2.0","id":<id>,"method":"ping"}` with `id` spliced in verbatim.
fn ping_with_raw_id(id: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping","params":{{}}}}"#).into_bytes()
}

fn table() -> Vec<Case> {
    let nested = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"ping","params":{{"x":{}{}}}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let mut invalid_utf8 =
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":""#
            .to_vec();
    invalid_utf8.extend_from_slice(&[0xff, 0xfe, 0xc3, 0x28]);
    invalid_utf8.extend_from_slice(br#""}}}"#);
    let mut with_bom = vec![0xef, 0xbb, 0xbf];
    with_bom.extend_from_slice(&ping(2));
    let huge_location = "x".repeat(200 * 1024);
    let over_limit = call_weather(2, &"y".repeat(DEFAULT_MAX_BODY + 1));
    let divide = |a: Value, b: Value| {
        tool_call(
            2,
            json!({ "name": "divide", "arguments": { "a": a, "b": b } }),
        )
    };

    vec![
        // --- bodies -------------------------------------------------------------------------
        rpc_error("empty body", "", 400, -32700, Value::Null),
        rpc_error(
            "truncated JSON",
            r#"{"jsonrpc":"2.0","id":2,"method":"#,
            400,
            -32700,
            Value::Null,
        ),
        rpc_error(
            "trailing garbage after the object",
            [ping(2), b" x".to_vec()].concat(),
            400,
            -32700,
            Value::Null,
        ),
        rpc_error("10 000 nested arrays", nested, 400, -32700, Value::Null),
        rpc_error("number 42 as body", "42", 400, -32600, Value::Null),
        rpc_error("string as body", r#""str""#, 400, -32600, Value::Null),
        rpc_error("null as body", "null", 400, -32600, Value::Null),
        Case {
            message_contains: Some("batch"),
            ..rpc_error("empty batch []", "[]", 400, -32600, Value::Null)
        },
        Case {
            message_contains: Some("batch"),
            ..rpc_error(
                "batch of two pings",
                [
                    b"[".to_vec(),
                    ping(2),
                    b",".to_vec(),
                    ping(3),
                    b"]".to_vec(),
                ]
                .concat(),
                400,
                -32600,
                Value::Null,
            )
        },
        // --- the JSON-RPC envelope --------------------------------------------------------
        rpc_error(
            "jsonrpc \"1.0\"",
            r#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#,
            400,
            -32600,
            json!(2),
        ),
        rpc_error(
            "jsonrpc missing",
            r#"{"id":2,"method":"ping"}"#,
            400,
            -32600,
            json!(2),
        ),
        rpc_error(
            "jsonrpc as number 2",
            r#"{"jsonrpc":2,"id":2,"method":"ping"}"#,
            400,
            -32600,
            json!(2),
        ),
        rpc_error(
            "method is a number",
            r#"{"jsonrpc":"2.0","id":2,"method":5}"#,
            400,
            -32600,
            json!(2),
        ),
        rpc_error(
            "result and method together",
            r#"{"jsonrpc":"2.0","id":2,"method":"ping","result":{}}"#,
            400,
            -32600,
            json!(2),
        ),
        // --- ids: string or integer only, never null (MCP basic) ---------------------------
        rpc_error(
            "object id",
            ping_with_raw_id(r#"{"a":1}"#),
            400,
            -32600,
            Value::Null,
        ),
        rpc_error(
            "array id",
            ping_with_raw_id("[1]"),
            400,
            -32600,
            Value::Null,
        ),
        rpc_error(
            "float id 1.5",
            ping_with_raw_id("1.5"),
            400,
            -32600,
            Value::Null,
        ),
        rpc_error(
            "integer id beyond 64 bits",
            ping_with_raw_id("100000000000000000000000000000"),
            400,
            -32600,
            Value::Null,
        ),
        rpc_error(
            "bool id",
            ping_with_raw_id("true"),
            400,
            -32600,
            Value::Null,
        ),
        rpc_error(
            "null id",
            ping_with_raw_id("null"),
            400,
            -32600,
            Value::Null,
        ),
        Case {
            id: Some(json!("req-1")),
            ..base("string id is fine", ping_with_raw_id(r#""req-1""#))
        },
        // rmcp reads an integral float as that integer (and answers with it).
        Case {
            id: Some(json!(2)),
            ..base("integral float id 2.0", ping_with_raw_id("2.0"))
        },
        // --- methods and params -----------------------------------------------------------
        rpc_error(
            "unknown method",
            text(request(2, "weather/forecast", json!({}))),
            200,
            -32601,
            json!(2),
        ),
        // Notifications and responses are accepted with 202 and no body (Streamable HTTP).
        Case {
            status: 202..=202,
            reply: Reply::Empty,
            ..base(
                "unknown notification",
                r#"{"jsonrpc":"2.0","method":"notifications/weather"}"#,
            )
        },
        Case {
            status: 202..=202,
            reply: Reply::Empty,
            ..base(
                "response to a request never sent",
                r#"{"jsonrpc":"2.0","id":99,"result":{}}"#,
            )
        },
        Case {
            status: 202..=202,
            reply: Reply::Empty,
            ..base(
                "error object for a request never sent",
                r#"{"jsonrpc":"2.0","id":99,"error":{"code":-1,"message":"no"}}"#,
            )
        },
        // JSON-RPC 2.0: params, when present, MUST be an object or array: an invalid Request.
        rpc_error(
            "ping with params 5",
            r#"{"jsonrpc":"2.0","id":2,"method":"ping","params":5}"#,
            400,
            -32600,
            json!(2),
        ),
        // rmcp reads these as custom requests and would say -32601 "tools/call"; the guard
        // answers -32602 (invalid params) for a method that exists.
        rpc_error(
            "tools/call without name",
            tool_call(2, json!({ "arguments": { "location": "Tokyo" } })),
            400,
            -32602,
            json!(2),
        ),
        rpc_error(
            "tools/call name is null",
            tool_call(2, json!({ "name": null, "arguments": {} })),
            400,
            -32602,
            json!(2),
        ),
        Case {
            session: Session::Absent,
            message_contains: Some("clientInfo"),
            ..rpc_error(
                "initialize without clientInfo",
                text(request(
                    2,
                    "initialize",
                    json!({ "protocolVersion": PROTOCOL, "capabilities": {} }),
                )),
                400,
                -32602,
                json!(2),
            )
        },
        rpc_error(
            "tools/call unknown tool",
            tool_call(2, json!({ "name": "get_time", "arguments": {} })),
            200,
            -32602,
            json!(2),
        ),
        rpc_error(
            "tools/call arguments is a string",
            tool_call(2, json!({ "name": "get_weather", "arguments": "Tokyo" })),
            400,
            -32602,
            json!(2),
        ),
        Case {
            reply: Reply::ToolError,
            id: Some(json!(2)),
            ..base(
                "tools/call location is a number",
                tool_call(
                    2,
                    json!({ "name": "get_weather", "arguments": { "location": 5 } }),
                ),
            )
        },
        Case {
            reply: Reply::ToolError,
            id: Some(json!(2)),
            ..base(
                "tools/call 200 KB location",
                text(call_weather(2, &huge_location)),
            )
        },
        Case {
            message_contains: Some("1048576"),
            wire: Wire::RawHeadOnly,
            headers: vec![CT_JSON, ACCEPT, VERSION],
            ..rpc_error(
                "body over --max-body-bytes",
                text(over_limit),
                413,
                -32600,
                Value::Null,
            )
        },
        // --- headers ----------------------------------------------------------------------
        Case {
            wire: Wire::Raw,
            headers: vec![CT_JSON, VERSION],
            ..refused("no Accept header at all", ping(2), 406)
        },
        refused_headers("Accept */*", &[CT_JSON, VERSION, ("accept", "*/*")], 406),
        refused_headers(
            "Accept without text/event-stream",
            &[CT_JSON, VERSION, ("accept", "application/json")],
            406,
        ),
        refused_headers(
            "Accept without application/json",
            &[CT_JSON, VERSION, ("accept", "text/event-stream")],
            406,
        ),
        refused_headers(
            "Content-Type text/plain",
            &[ACCEPT, VERSION, ("content-type", "text/plain")],
            415,
        ),
        refused_headers("no Content-Type", &[ACCEPT, VERSION], 415),
        Case {
            headers: vec![
                ACCEPT,
                VERSION,
                ("content-type", "application/json; charset=utf-8"),
            ],
            id: Some(json!(2)),
            ..base("Content-Type with charset still works", ping(2))
        },
        Case {
            session: Session::Literal("no-such-session"),
            ..refused("unknown Mcp-Session-Id", ping(2), 404)
        },
        Case {
            session: Session::Absent,
            ..refused(
                "no Mcp-Session-Id on tools/list",
                text(request(2, "tools/list", json!({}))),
                400,
            )
        },
        refused_headers(
            "MCP-Protocol-Version 1999-01-01",
            &[CT_JSON, ACCEPT, ("mcp-protocol-version", "1999-01-01")],
            400,
        ),
        Case {
            session: Session::Absent,
            headers: vec![CT_JSON, ACCEPT, ("mcp-protocol-version", "2025-03-26")],
            ..rpc_error(
                "initialize with a mismatching MCP-Protocol-Version",
                text(initialize_request(2)),
                400,
                -32600,
                json!(2),
            )
        },
        // --- HTTP methods -----------------------------------------------------------------
        Case {
            method: Method::PUT,
            ..refused("PUT", ping(2), 405)
        },
        Case {
            method: Method::PATCH,
            ..refused("PATCH", ping(2), 405)
        },
        // --- encodings --------------------------------------------------------------------
        rpc_error(
            "invalid UTF-8 in a string",
            invalid_utf8,
            400,
            -32700,
            Value::Null,
        ),
        rpc_error("BOM before the JSON", with_bom, 400, -32700, Value::Null),
        Case {
            headers: vec![CT_JSON, ACCEPT, VERSION, ("content-encoding", "gzip")],
            message_contains: Some("Content-Encoding"),
            header: Some(("accept-encoding", "identity")),
            ..rpc_error(
                "Content-Encoding gzip on a plain body",
                ping(2),
                415,
                -32600,
                Value::Null,
            )
        },
        Case {
            headers: vec![CT_JSON, ACCEPT, VERSION, ("content-encoding", "identity")],
            id: Some(json!(2)),
            ..base("Content-Encoding identity still works", ping(2))
        },
        // --- the calculator at /calc ------------------------------------------------------
        Case {
            target: Target::Calc,
            reply: Reply::ToolError,
            id: Some(json!(2)),
            ..base("calc: divide by zero", divide(json!(1), json!(0)))
        },
        Case {
            target: Target::Calc,
            reply: Reply::ToolError,
            id: Some(json!(2)),
            ..base("calc: a is a string", divide(json!("x"), json!(2)))
        },
        Case {
            target: Target::Calc,
            ..rpc_error(
                "calc: unknown tool",
                tool_call(
                    2,
                    json!({ "name": "power", "arguments": { "a": 1, "b": 2 } }),
                ),
                200,
                -32602,
                json!(2),
            )
        },
        Case {
            target: Target::Calc,
            ..rpc_error("calc: truncated JSON", "{", 400, -32700, Value::Null)
        },
    ]
}

/// What came back, raw (a [`Case`] may be sent over a bare TCP connection).
struct Received {
    status: u16,
    /// Response headers, names in lower case.
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn content_type(&self) -> &str {
        self.header("content-type").unwrap_or_default()
    }

    /// The JSON-RPC answer: the JSON body, or the SSE event answering a request.
    fn message(&self) -> Option<Value> {
        if self.content_type().starts_with("text/event-stream") {
            let text = String::from_utf8_lossy(&self.body);
            parse_sse(&text)
                .iter()
                .filter_map(|event| serde_json::from_str::<Value>(&event.data).ok())
                .find(|m| {
                    m.get("method").is_none()
                        && (m.get("result").is_some() || m.get("error").is_some())
                })
        } else if self.content_type().starts_with("application/json") {
            serde_json::from_slice(&self.body).ok()
        } else {
            None
        }
    }

    fn summary(&self) -> String {
        let detail = match self.message() {
            Some(m) if m.get("error").is_some() => format!(
                "error {} id {} {:?}",
                m["error"]["code"],
                m["id"],
                m["error"]["message"].as_str().unwrap_or_default()
            ),
            Some(m) if m["result"]["isError"] == true => {
                format!("isError result id {}", m["id"])
            }
            Some(m) => format!("result id {}", m["id"]),
            None if self.body.is_empty() => "empty body".to_string(),
            None => format!(
                "{} {:?}",
                self.content_type(),
                String::from_utf8_lossy(&self.body[..self.body.len().min(100)])
            ),
        };
        format!("{} {detail}", self.status)
    }
}

/// Every way `answer` differs from what `case` expects.
fn check(case: &Case, answer: &Received) -> Vec<String> {
    let mut problems = Vec::new();
    if answer.status >= 500 {
        problems.push(format!("server error {}", answer.status));
    }
    if !case.status.contains(&answer.status) {
        problems.push(format!("status {} not in {:?}", answer.status, case.status));
    }
    if answer.status == 405 && answer.header("allow").is_none() {
        problems.push("405 without an Allow header".to_string());
    }
    if let Some((name, value)) = case.header
        && answer.header(name) != Some(value)
    {
        problems.push(format!(
            "header {name}: {:?}, expected {value:?}",
            answer.header(name)
        ));
    }
    if answer.content_type().starts_with("application/json") {
        match serde_json::from_slice::<Value>(&answer.body) {
            Ok(body) if body["jsonrpc"] == "2.0" => {}
            _ => problems.push("application/json body is not a JSON-RPC message".to_string()),
        }
    }
    let message = answer.message();
    match (&case.reply, &message) {
        (Reply::Any, _) => {}
        (Reply::Empty, _) => {
            if !answer.body.is_empty() {
                problems.push("expected no body".to_string());
            }
        }
        (_, None) => problems.push("no JSON-RPC answer in the body".to_string()),
        (Reply::RpcError(code), Some(m)) => {
            if m["error"]["code"] != json!(code) {
                problems.push(format!("expected error {code}, got {m}"));
            }
            if let Some(part) = case.message_contains {
                let text = m["error"]["message"].as_str().unwrap_or_default();
                if !text.contains(part) {
                    problems.push(format!("error message {text:?} lacks {part:?}"));
                }
            }
        }
        (Reply::ToolError, Some(m)) => {
            if m["result"]["isError"] != true {
                problems.push(format!("expected an isError result, got {}", short(m)));
            }
        }
        (Reply::Success, Some(m)) => {
            if m.get("result").is_none() || m["result"]["isError"] == true {
                problems.push(format!("expected success, got {}", short(m)));
            }
        }
    }
    if let (Some(id), Some(m)) = (&case.id, &message)
        && m.get("id") != Some(id)
    {
        problems.push(format!("expected id {id}, got {}", m["id"]));
    }
    problems
}

fn short(message: &Value) -> String {
    let text = message.to_string();
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// Sends one row, with its own session when it needs one.
async fn send(server: &TestServer, case: &Case) -> Result<Received, String> {
    let endpoint = match case.target {
        Target::Weather => Endpoint::clone(server),
        Target::Calc => server.calc(),
    };
    let url = &endpoint.url;
    let session = match case.session {
        Session::Absent => None,
        Session::Fresh => Some(endpoint.open_session().await),
        Session::Literal(id) => Some(id.to_string()),
    };
    let mut headers = case.headers.clone();
    if let Some(id) = &session {
        headers.push(("mcp-session-id", id.as_str()));
    }
    let answer = match case.wire {
        Wire::Reqwest => {
            let mut builder = endpoint.client.request(case.method.clone(), url);
            for (name, value) in &headers {
                builder = builder.header(*name, *value);
            }
            let response = builder
                .body(case.body.clone())
                .send()
                .await
                .map_err(|e| format!("request failed: {e}"))?;
            Received {
                status: response.status().as_u16(),
                headers: response
                    .headers()
                    .iter()
                    .map(|(name, value)| {
                        let value = String::from_utf8_lossy(value.as_bytes()).to_string();
                        (name.as_str().to_string(), value)
                    })
                    .collect(),
                body: response
                    .bytes()
                    .await
                    .map_err(|e| format!("reading the body failed: {e}"))?
                    .to_vec(),
            }
        }
        Wire::Raw | Wire::RawHeadOnly => raw_request(server, url, case, &headers).await?,
    };
    if let Some(id) = session.filter(|_| matches!(case.session, Session::Fresh)) {
        let _ = endpoint.delete(&id).send().await;
    }
    Ok(answer)
}

/// A hand-written HTTP/1.1 request (`connection: close`), for header sets reqwest cannot send.
async fn raw_request(
    server: &TestServer,
    url: &str,
    case: &Case,
    headers: &[(&str, &str)],
) -> Result<Received, String> {
    let path = url
        .strip_prefix(&format!("http://{}", server.addr))
        .ok_or("url outside the server")?;
    let mut head = format!(
        "{} {path} HTTP/1.1\r\nhost: {}\r\nconnection: close\r\ncontent-length: {}\r\n",
        case.method,
        server.addr,
        case.body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut stream = tokio::net::TcpStream::connect(server.addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let body = match case.wire {
        Wire::RawHeadOnly => Vec::new(),
        _ => case.body.clone(),
    };
    stream
        .write_all(&[head.into_bytes(), body].concat())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .await
        .map_err(|e| format!("read: {e}"))?;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no end of headers")?;
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .ok_or("no status line")?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(name, value)| name == "transfer-encoding" && value.eq_ignore_ascii_case("chunked"));
    if chunked {
        body = dechunk(&body).ok_or("bad chunked body")?;
    }
    Ok(Received {
        status,
        headers,
        body,
    })
}

fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let end = raw.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&raw[..end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        raw = &raw[end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(raw.get(..size)?);
        raw = raw.get(size + 2..)?;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_hostile_requests_get_clean_errors() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default_hook(info);
    }));

    let server = TestServer::start(&[]).await;
    let cases = table();
    assert!(cases.len() >= 30, "only {} cases", cases.len());

    let mut mismatches = Vec::new();
    for case in &cases {
        let outcome = tokio::time::timeout(CASE_TIMEOUT, send(&server, case)).await;
        let problems = match outcome {
            Err(_) => vec![format!("no answer within {CASE_TIMEOUT:?}")],
            Ok(Err(error)) => vec![error],
            Ok(Ok(answer)) => {
                println!("{:<50} {}", case.name, answer.summary());
                check(case, &answer)
            }
        };
        if !problems.is_empty() {
            mismatches.push(format!("{}: {}", case.name, problems.join("; ")));
        }
    }

    // The server is still healthy: a normal tools/call in a new session works.
    let session = server.open_session().await;
    let messages = server
        .roundtrip(Some(&session), &call_weather(99, "Tokyo"))
        .await;
    assert_eq!(
        response_for(&messages, 99)["result"]["content"][0]["text"],
        "Sunny",
        "tools/call after the malformed requests"
    );
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "something panicked");

    println!(
        "malformed requests: {} cases, {} as expected",
        cases.len(),
        cases.len() - mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} of {} cases differ:\n{}",
        mismatches.len(),
        cases.len(),
        mismatches.join("\n")
    );
    server.stop().await.expect("clean shutdown");
}
