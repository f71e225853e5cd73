//! Property-based fuzzing of the request handling: proptest generates HTTP requests (method,
//! path, headers, body) and sends each one to the axum `Router` in process with
//! `tower::ServiceExt::oneshot` (no sockets).
//!
//! Rounds run against five configurations: sessions (the default), `--stateless`,
//! `--json-response`, `--era modern` (with `--conformance-fixtures`) and `--era legacy`; the
//! generated requests mix both protocol eras (2026-07-28 `_meta`, `Mcp-Method`, `Mcp-Name`,
//! `Mcp-Param-Units`, multi round-trip retries, the ambiguous "Springfield").
//!
//! With sessions, every case first opens a real session (initialize + notifications/initialized)
//! on the endpoint it targets, so the generated `mcp-session-id` can be a valid one (the
//! placeholder `{session}` in a header value is replaced by it), and closes it again afterwards.
//! A case may also ask for the session cap to be reached first, so that a new `initialize` meets
//! the 503.
//!
//! The property, for every request: the router answers without a panic; the status is not a
//! 5xx other than the guard's 503 (session cap); and, except for a GET or HEAD answered 200 (an
//! SSE stream that stays open by design), the whole response body arrives within
//! [`REQUEST_TIMEOUT`].
//!
//! - `fuzz_smoke`: a fixed number of cases with fixed seeds, part of `cargo test`.
//! - `fuzz_for_a_while` (ignored): rounds with fresh seeds until `FUZZ_SECONDS` (default 60)
//!   have passed; `FUZZ_SEED` fixes the first round's seed. Run it as
//!   `cargo test --profile native -p weather-server --test fuzz -- --ignored --nocapture
//!   fuzz_for_a_while`. Its first line starting with `fuzz:` is the summary (`cargo xtask
//!   bench` reads it).
//!
//! With `FUZZ_VERBOSE` set, every request's method, path and body and the answer's status and
//! body are printed (clipped).

use std::{
    cell::{Cell, RefCell},
    collections::{BTreeMap, HashMap},
    fmt,
    net::SocketAddr,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use axum::{
    Router,
    body::Body,
    http::{HeaderValue, Method, Request, StatusCode, Uri, header},
};
use proptest::{
    option::weighted,
    prelude::*,
    sample::{Index, select},
    test_runner::{
        Config as ProptestConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
    },
};
use serde_json::{Map, Value, json};
use tokio::runtime::Runtime;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;
use weather_server::{CALC_PATH, Config, MCP_PATH, router};

mod support;

/// The address the router is told it is bound to (nothing is bound: requests go in process).
const LOCAL_ADDR: &str = "127.0.0.1:8000";
const OWN_HOST: &str = "127.0.0.1:8000";
const PROTOCOL: &str = "2025-11-25";
const ACCEPT_BOTH: &str = "application/json, text/event-stream";
/// Placeholder in a generated header value, replaced by the case's valid session id.
const SESSION_PLACEHOLDER: &str = "{session}";
/// What the placeholder becomes when the server keeps no sessions.
const NO_SESSION: &str = "stateless-mode-has-no-session";
/// Every answer (headers and, where it ends, the whole body) must arrive within this time.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// `--max-sessions` in session mode: small, so that cases can fill it cheaply.
const MAX_SESSIONS: usize = 3;
/// Cases per proptest round in `fuzz_for_a_while`.
const ROUND_CASES: u32 = 256;

// ---------------------------------------------------------------------------------------------
// The generated request
// ---------------------------------------------------------------------------------------------

/// A header value as raw bytes (it may be non-UTF-8), shown escaped.
#[derive(Clone, PartialEq)]
struct Hv(Vec<u8>);

impl From<&str> for Hv {
    fn from(text: &str) -> Self {
        Self(text.as_bytes().to_vec())
    }
}

impl From<String> for Hv {
    fn from(text: String) -> Self {
        Self(text.into_bytes())
    }
}

impl fmt::Debug for Hv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", self.0.escape_ascii())
    }
}

/// A request body.
#[derive(Clone)]
enum FuzzBody {
    Empty,
    /// Arbitrary bytes.
    Raw(Vec<u8>),
    /// A JSON value: arbitrary, a near-valid JSON-RPC message or a batch of them.
    Json(Value),
    /// A JSON value serialised and cut short.
    Cut(Value, Index),
}

impl FuzzBody {
    fn bytes(&self) -> Vec<u8> {
        match self {
            Self::Empty => Vec::new(),
            Self::Raw(bytes) => bytes.clone(),
            Self::Json(value) => serde_json::to_vec(value).expect("a Value serialises"),
            Self::Cut(value, at) => {
                let mut bytes = serde_json::to_vec(value).expect("a Value serialises");
                let keep = at.index(bytes.len().max(1));
                bytes.truncate(keep);
                bytes
            }
        }
    }
}

/// At most this many characters of a body or response are shown.
const SHOWN: usize = 400;

fn clipped(text: &str) -> String {
    if text.chars().count() <= SHOWN {
        return text.to_string();
    }
    let head: String = text.chars().take(SHOWN).collect();
    format!("{head}… ({} bytes)", text.len())
}

impl fmt::Debug for FuzzBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "Empty"),
            Self::Raw(bytes) => write!(
                f,
                "Raw(b\"{}\")",
                clipped(&bytes.escape_ascii().to_string())
            ),
            Self::Json(value) => write!(f, "Json({})", clipped(&value.to_string())),
            Self::Cut(_, _) => write!(
                f,
                "Cut({:?})",
                clipped(&String::from_utf8_lossy(&self.bytes()))
            ),
        }
    }
}

/// One generated request plus the server state it wants.
#[derive(Clone, Debug)]
struct FuzzCase {
    method: Method,
    path: String,
    headers: Vec<(&'static str, Hv)>,
    /// Send `content-length` (as hyper does for a sized body) or not (as for a chunked one).
    content_length: bool,
    body: FuzzBody,
    /// Session mode: reach the session cap (with this case's own session open) first.
    sessions_full: bool,
}

impl FuzzCase {
    fn request(&self, session: &str) -> Request<Body> {
        let body = self.body.bytes();
        let mut builder = Request::builder()
            .method(self.method.clone())
            .uri(self.path.as_str());
        for (name, value) in &self.headers {
            let value = substitute(&value.0, session);
            if let Ok(value) = HeaderValue::from_bytes(&value) {
                builder = builder.header(*name, value);
            }
        }
        if self.content_length {
            builder = builder.header(header::CONTENT_LENGTH, body.len());
        }
        builder.body(Body::from(body)).expect("a valid request")
    }

    /// The endpoint whose session the case uses.
    fn endpoint(&self) -> &'static str {
        if self.path.starts_with(CALC_PATH) {
            CALC_PATH
        } else {
            MCP_PATH
        }
    }

    /// GET and HEAD answered 200 are SSE streams that stay open by design.
    fn may_stream(&self) -> bool {
        self.method == Method::GET || self.method == Method::HEAD
    }
}

fn substitute(value: &[u8], session: &str) -> Vec<u8> {
    let placeholder = SESSION_PLACEHOLDER.as_bytes();
    let mut out = Vec::with_capacity(value.len());
    let mut rest = value;
    while !rest.is_empty() {
        if rest.starts_with(placeholder) {
            out.extend_from_slice(session.as_bytes());
            rest = &rest[placeholder.len()..];
        } else {
            out.push(rest[0]);
            rest = &rest[1..];
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Strategies: JSON
// ---------------------------------------------------------------------------------------------

const MCP_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "logging/setLevel",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
    "completion/complete",
    "prompts/list",
    "prompts/get",
    "server/discover",
    "subscriptions/listen",
    "tasks/get",
    "sampling/createMessage",
    "logging/setLevel",
    "resources/unsubscribe",
    "unknown/method",
];

const PROTOCOL_VERSIONS: &[&str] = &[
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
    "2026-07-28",
];

const LOG_LEVELS: &[&str] = &[
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

const TOOL_NAMES: &[&str] = &[
    "get_weather",
    "test_input_required_result_request_state",
    "test_missing_capability",
    "add",
    "subtract",
    "multiply",
    "divide",
    "unknown",
    "",
];

const KEYS: &[&str] = &[
    "name",
    "arguments",
    "location",
    "a",
    "b",
    "uri",
    "level",
    "cursor",
    "_meta",
    "progressToken",
    "protocolVersion",
    "capabilities",
    "clientInfo",
    "requestId",
    "reason",
    "jsonrpc",
    "id",
    "method",
    "params",
    "result",
    "error",
];

fn text() -> BoxedStrategy<String> {
    prop_oneof![
        3 => "[a-zA-Z0-9 _./:,-]{0,12}",
        2 => "\\PC{0,16}",
        1 => prop::collection::vec(any::<char>(), 0..8).prop_map(String::from_iter),
        2 => select(&[
            "",
            "Tokyo",
            "tokyo, japan",
            "  Paris  ",
            "東京",
            "config://app",
            "get_weather",
            "2.0",
            "null",
            "\u{0}",
            "\u{feff}",
            "../../etc/passwd",
            "%s%n%x",
            "\r\n\r\n",
        ][..])
        .prop_map(String::from),
    ]
    .boxed()
}

fn key() -> BoxedStrategy<String> {
    prop_oneof![2 => select(KEYS).prop_map(String::from), 1 => text()].boxed()
}

fn number() -> BoxedStrategy<Value> {
    prop_oneof![
        3 => (-5i64..1000).prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<u64>().prop_map(Value::from),
        2 => any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        1 => select(&[0.0, -0.0, 1e308, -1e308, 5e-324, 0.1][..]).prop_map(Value::from),
    ]
    .boxed()
}

fn json_leaf() -> BoxedStrategy<Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => number(),
        3 => text().prop_map(Value::String),
    ]
    .boxed()
}

fn arb_json() -> BoxedStrategy<Value> {
    json_leaf()
        .prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec((key(), inner), 0..5)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
        .boxed()
}

/// A leaf wrapped in up to 300 arrays and objects (serde_json stops parsing at 128).
fn deep() -> BoxedStrategy<Value> {
    (1usize..300, json_leaf(), any::<bool>())
        .prop_map(|(depth, leaf, objects)| {
            (0..depth).fold(leaf, |inner, level| {
                if objects && level % 2 == 0 {
                    json!({ "a": inner })
                } else {
                    Value::Array(vec![inner])
                }
            })
        })
        .boxed()
}

fn huge_string() -> BoxedStrategy<String> {
    select(&[4_096usize, 65_536, 300_000, 1_100_000][..])
        .prop_map(|size| "x".repeat(size))
        .boxed()
}

fn request_id() -> BoxedStrategy<Value> {
    prop_oneof![
        12 => (0i64..100).prop_map(Value::from),
        2 => any::<i64>().prop_map(Value::from),
        1 => any::<u64>().prop_map(Value::from),
        4 => text().prop_map(Value::String),
        1 => Just(Value::Null),
        1 => any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => arb_json(),
    ]
    .boxed()
}

fn jsonrpc_version() -> BoxedStrategy<Value> {
    prop_oneof![
        12 => Just(json!("2.0")),
        1 => Just(json!("1.0")),
        1 => Just(json!(2.0)),
        1 => Just(Value::Null),
        1 => text().prop_map(Value::String),
        1 => arb_json(),
    ]
    .boxed()
}

/// `_meta` with the keys rmcp reads, or anything.
fn meta() -> BoxedStrategy<Value> {
    let version = prop_oneof![
        3 => select(PROTOCOL_VERSIONS).prop_map(Value::from),
        1 => arb_json(),
    ];
    let level = prop_oneof![
        3 => select(LOG_LEVELS).prop_map(Value::from),
        1 => arb_json(),
    ];
    let token = prop_oneof![
        2 => text().prop_map(Value::String),
        2 => (0i64..100).prop_map(Value::from),
        1 => arb_json(),
    ];
    // 2026-07-28 requests declare their capabilities in `_meta`.
    let capabilities = prop_oneof![
        3 => Just(json!({})),
        3 => Just(json!({ "elicitation": {} })),
        1 => Just(json!({ "elicitation": { "url": {} }, "sampling": {} })),
        1 => arb_json(),
    ];
    prop_oneof![
        4 => (
            weighted(0.6, token),
            weighted(0.3, level),
            weighted(0.3, version),
            weighted(0.2, (key(), arb_json())),
            weighted(0.3, capabilities),
        )
            .prop_map(|(token, level, version, extra, capabilities)| {
                let mut meta = Map::new();
                if let Some(token) = token {
                    meta.insert("progressToken".into(), token);
                }
                if let Some(level) = level {
                    meta.insert("io.modelcontextprotocol/logLevel".into(), level);
                }
                if let Some(version) = version {
                    meta.insert("io.modelcontextprotocol/protocolVersion".into(), version);
                }
                if let Some((key, value)) = extra {
                    meta.insert(key, value);
                }
                if let Some(capabilities) = capabilities {
                    meta.insert("io.modelcontextprotocol/clientCapabilities".into(), capabilities);
                }
                Value::Object(meta)
            }),
        1 => arb_json(),
    ]
    .boxed()
}

/// An object from optional fields, plus maybe `_meta`.
fn object(fields: Vec<(&'static str, Option<Value>)>, meta: Option<Value>) -> Value {
    let mut map: Map<String, Value> = fields
        .into_iter()
        .filter_map(|(key, value)| value.map(|value| (key.to_string(), value)))
        .collect();
    if let Some(meta) = meta {
        map.insert("_meta".into(), meta);
    }
    Value::Object(map)
}

fn initialize_params() -> BoxedStrategy<Value> {
    // Mostly the version the generated MCP-Protocol-Version header mostly names: rmcp refuses
    // an initialize whose params name another one.
    let version = prop_oneof![
        8 => Just(json!(PROTOCOL)),
        3 => select(PROTOCOL_VERSIONS).prop_map(Value::from),
        1 => text().prop_map(Value::String),
        1 => arb_json(),
    ];
    let capabilities = prop_oneof![
        3 => Just(json!({})),
        1 => Just(json!({ "roots": { "listChanged": true }, "sampling": {}, "elicitation": {} })),
        1 => arb_json(),
    ];
    let client_info = prop_oneof![
        3 => (text(), text()).prop_map(|(name, version)| json!({ "name": name, "version": version })),
        1 => arb_json(),
    ];
    (
        weighted(0.95, version),
        weighted(0.95, capabilities),
        weighted(0.95, client_info),
        weighted(0.2, meta()),
    )
        .prop_map(|(version, capabilities, client_info, meta)| {
            object(
                vec![
                    ("protocolVersion", version),
                    ("capabilities", capabilities),
                    ("clientInfo", client_info),
                ],
                meta,
            )
        })
        .boxed()
}

fn tool_arguments() -> BoxedStrategy<Value> {
    let units = prop_oneof![
        2 => Just(json!("celsius")),
        2 => Just(json!("fahrenheit")),
        1 => arb_json(),
    ];
    prop_oneof![
        4 => text().prop_map(|location| json!({ "location": location })),
        // A place several cities share: the question (MRTR or elicitation), with units.
        2 => (
            prop_oneof![Just("Springfield"), Just("springfield, il"), Just("Springfield, Oregon")],
            weighted(0.5, units),
        )
            .prop_map(|(location, units)| match units {
                Some(units) => json!({ "location": location, "units": units }),
                None => json!({ "location": location }),
            }),
        1 => huge_string().prop_map(|location| json!({ "location": location })),
        4 => (number(), number()).prop_map(|(a, b)| json!({ "a": a, "b": b })),
        1 => (json_leaf(), json_leaf()).prop_map(|(a, b)| json!({ "a": a, "b": b })),
        1 => Just(json!({ "a": 1, "b": 0 })),
        2 => arb_json(),
        1 => deep(),
    ]
    .boxed()
}

fn call_params() -> BoxedStrategy<Value> {
    let name = prop_oneof![
        6 => select(TOOL_NAMES).prop_map(Value::from),
        1 => text().prop_map(Value::String),
        1 => huge_string().prop_map(Value::String),
        1 => arb_json(),
    ];
    // A retry of a multi round-trip call: answers and an echoed (here: made-up) state.
    let responses = prop_oneof![
        2 => Just(json!({ "place": { "action": "accept", "content": { "place": "Springfield, Illinois" } } })),
        1 => Just(json!({ "place": { "action": "decline" } })),
        1 => arb_json(),
    ];
    let state = prop_oneof![
        2 => text().prop_map(Value::String),
        1 => Just(json!("rs1.AAAA.BBBB")),
        1 => arb_json(),
    ];
    (
        weighted(0.95, name),
        weighted(0.85, tool_arguments()),
        weighted(0.3, meta()),
        weighted(0.15, responses),
        weighted(0.15, state),
    )
        .prop_map(|(name, arguments, meta, responses, state)| {
            object(
                vec![
                    ("name", name),
                    ("arguments", arguments),
                    ("inputResponses", responses),
                    ("requestState", state),
                ],
                meta,
            )
        })
        .boxed()
}

fn list_params() -> BoxedStrategy<Value> {
    (
        weighted(0.3, prop_oneof![text().prop_map(Value::String), arb_json()]),
        weighted(0.2, meta()),
    )
        .prop_map(|(cursor, meta)| object(vec![("cursor", cursor)], meta))
        .boxed()
}

/// Params for `method`: a near-valid shape for it, or anything.
fn params_for(method: &str) -> BoxedStrategy<Value> {
    let specific: BoxedStrategy<Value> = match method {
        "initialize" => initialize_params(),
        "tools/call" => call_params(),
        "tools/list" | "resources/list" | "prompts/list" | "resources/templates/list" => {
            list_params()
        }
        "resources/read" | "resources/subscribe" => prop_oneof![
            2 => Just(json!("config://app")),
            2 => text().prop_map(Value::String),
            1 => arb_json(),
        ]
        .prop_map(|uri| json!({ "uri": uri }))
        .boxed(),
        "logging/setLevel" => prop_oneof![
            3 => select(LOG_LEVELS).prop_map(Value::from),
            1 => text().prop_map(Value::String),
            1 => arb_json(),
        ]
        .prop_map(|level| json!({ "level": level }))
        .boxed(),
        "notifications/cancelled" => (request_id(), weighted(0.5, text()))
            .prop_map(|(id, reason)| json!({ "requestId": id, "reason": reason }))
            .boxed(),
        "notifications/progress" => (request_id(), number())
            .prop_map(|(token, progress)| json!({ "progressToken": token, "progress": progress }))
            .boxed(),
        "completion/complete" => (
            prop_oneof![
                Just(json!("ref/prompt")),
                Just(json!("ref/resource")),
                arb_json()
            ],
            text(),
            text(),
            text(),
        )
            .prop_map(|(kind, name, argument, value)| {
                json!({
                    "ref": { "type": kind, "name": name, "uri": name },
                    "argument": { "name": argument, "value": value },
                })
            })
            .boxed(),
        "prompts/get" => (text(), weighted(0.5, arb_json()))
            .prop_map(|(name, arguments)| json!({ "name": name, "arguments": arguments }))
            .boxed(),
        _ => prop_oneof![
            Just(json!({})),
            meta().prop_map(|meta| json!({ "_meta": meta }))
        ]
        .boxed(),
    };
    prop_oneof![4 => specific, 1 => arb_json()].boxed()
}

/// `(method, params)`: a real MCP method with params shaped for it, or random ones.
fn method_and_params() -> BoxedStrategy<(Option<Value>, Option<Value>)> {
    let named = select(MCP_METHODS).prop_flat_map(|method| {
        weighted(0.9, params_for(method)).prop_map(move |params| (Some(json!(method)), params))
    });
    prop_oneof![
        12 => named,
        // So is initialize (with or without a session, and against the session cap).
        4 => weighted(0.95, initialize_params()).prop_map(|params| (Some(json!("initialize")), params)),
        // tools/call is the interesting one: give it extra weight.
        6 => weighted(0.95, call_params()).prop_map(|params| (Some(json!("tools/call")), params)),
        2 => (text(), weighted(0.7, arb_json()))
            .prop_map(|(method, params)| (Some(Value::String(method)), params)),
        1 => (arb_json(), weighted(0.7, arb_json())).prop_map(|(method, params)| (Some(method), params)),
        1 => weighted(0.7, arb_json()).prop_map(|params| (None, params)),
    ]
    .boxed()
}

/// A near-valid JSON-RPC message: a request or notification, or a (client) response.
fn message() -> BoxedStrategy<Value> {
    let request = (
        weighted(0.97, jsonrpc_version()),
        weighted(0.9, request_id()),
        method_and_params(),
        any::<bool>(),
        weighted(0.1, (key(), arb_json())),
    )
        .prop_map(|(version, id, (method, params), keep_id, extra)| {
            let is_notification = method
                .as_ref()
                .and_then(Value::as_str)
                .is_some_and(|m| m.starts_with("notifications/"));
            let id = if is_notification && !keep_id {
                None
            } else {
                id
            };
            let mut map = Map::new();
            if let Some((key, value)) = extra {
                map.insert(key, value);
            }
            for (key, value) in [
                ("jsonrpc", version),
                ("id", id),
                ("method", method),
                ("params", params),
            ] {
                if let Some(value) = value {
                    map.insert(key.into(), value);
                }
            }
            Value::Object(map)
        });
    let response = (
        weighted(0.95, jsonrpc_version()),
        weighted(0.95, request_id()),
        prop_oneof![
            arb_json().prop_map(|result| ("result", result)),
            (number(), text(), weighted(0.3, arb_json())).prop_map(|(code, message, data)| {
                (
                    "error",
                    json!({ "code": code, "message": message, "data": data }),
                )
            }),
        ],
    )
        .prop_map(|(version, id, (key, value))| {
            object(
                vec![("jsonrpc", version), ("id", id), (key, Some(value))],
                None,
            )
        });
    prop_oneof![10 => request, 1 => response].boxed()
}

/// A well-formed message for a real method, with valid params but random values, so that many
/// requests get past validation into the tools and the session machinery.
fn valid_message() -> BoxedStrategy<Value> {
    let with_meta = |params: Value, token: Option<Value>| match (params, token) {
        (Value::Object(mut map), Some(token)) => {
            map.insert("_meta".into(), json!({ "progressToken": token }));
            Value::Object(map)
        }
        (params, _) => params,
    };
    let token = weighted(
        0.3,
        prop_oneof![
            (0i64..100).prop_map(Value::from),
            text().prop_map(Value::String)
        ],
    );
    let operand = prop_oneof![3 => (-5i64..1000).prop_map(Value::from), 1 => number()];
    let request = prop_oneof![
        1 => Just(("initialize", json!({
            "protocolVersion": PROTOCOL,
            "capabilities": {},
            "clientInfo": { "name": "fuzz", "version": "0.0.0" }
        }))),
        1 => Just(("ping", json!({}))),
        1 => Just(("tools/list", json!({}))),
        3 => text().prop_map(|location| ("tools/call", json!({
            "name": "get_weather", "arguments": { "location": location }
        }))),
        1 => Just(("tools/call", json!({ "name": "get_weather", "arguments": { "location": "Tokyo" } }))),
        3 => (select(&["add", "subtract", "multiply", "divide"][..]), operand.clone(), operand)
            .prop_map(|(name, a, b)| ("tools/call", json!({ "name": name, "arguments": { "a": a, "b": b } }))),
        1 => Just(("resources/list", json!({}))),
        1 => prop_oneof![Just("config://app".to_string()), text()]
            .prop_map(|uri| ("resources/read", json!({ "uri": uri }))),
        1 => select(LOG_LEVELS).prop_map(|level| ("logging/setLevel", json!({ "level": level }))),
        1 => (text(), text()).prop_map(|(name, value)| ("completion/complete", json!({
            "ref": { "type": "ref/prompt", "name": name },
            "argument": { "name": "x", "value": value }
        }))),
        1 => Just(("prompts/list", json!({}))),
    ];
    let notification = prop_oneof![
        Just(("notifications/initialized", json!({}))),
        (0i64..100).prop_map(|id| (
            "notifications/cancelled",
            json!({ "requestId": id, "reason": "fuzz" })
        )),
    ];
    prop_oneof![
        5 => (0i64..1000, request, token).prop_map(move |(id, (method, params), token)| {
            json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": with_meta(params, token) })
        }),
        1 => notification.prop_map(|(method, params)| {
            json!({ "jsonrpc": "2.0", "method": method, "params": params })
        }),
    ]
    .boxed()
}

fn body() -> BoxedStrategy<FuzzBody> {
    prop_oneof![
        8 => valid_message().prop_map(FuzzBody::Json),
        10 => message().prop_map(FuzzBody::Json),
        1 => prop::collection::vec(message(), 0..4).prop_map(|batch| FuzzBody::Json(Value::Array(batch))),
        2 => arb_json().prop_map(FuzzBody::Json),
        1 => deep().prop_map(FuzzBody::Json),
        1 => (message(), any::<Index>()).prop_map(|(message, at)| FuzzBody::Cut(message, at)),
        2 => prop::collection::vec(any::<u8>(), 0..256).prop_map(FuzzBody::Raw),
        1 => Just(FuzzBody::Empty),
    ]
    .boxed()
}

// ---------------------------------------------------------------------------------------------
// Strategies: HTTP
// ---------------------------------------------------------------------------------------------

fn http_method() -> BoxedStrategy<Method> {
    prop_oneof![
        24 => Just(Method::POST),
        3 => Just(Method::GET),
        2 => Just(Method::DELETE),
        1 => Just(Method::PUT),
        1 => Just(Method::OPTIONS),
        1 => Just(Method::HEAD),
        1 => Just(Method::PATCH),
    ]
    .boxed()
}

fn path() -> BoxedStrategy<String> {
    prop_oneof![
        16 => Just(MCP_PATH.to_string()),
        4 => Just(CALC_PATH.to_string()),
        2 => select(&[
            "/", "/mcp/", "/MCP", "/mcp?x=1", "/mcp?", "//mcp", "/mcp/../calc", "/calc/",
            "/mcp%2F", "/index.html", "/mcp/sse", "/calc?session=1",
        ][..])
        .prop_map(String::from),
        1 => "/[a-zA-Z0-9._~%!$&'()*+,;=:@/-]{0,24}(\\?[a-zA-Z0-9=&%]{0,12})?",
    ]
    .prop_filter("a valid request target", |path| path.parse::<Uri>().is_ok())
    .boxed()
}

/// Any header value text (printable ASCII), or bytes that are not UTF-8.
fn random_header() -> BoxedStrategy<Hv> {
    prop_oneof![
        3 => "[ -~]{0,24}".prop_map(Hv::from),
        1 => "\\PC{0,8}".prop_map(Hv::from),
        1 => prop::collection::vec(0x80u8..=0xff, 1..4).prop_map(Hv),
    ]
    .boxed()
}

fn fixed(values: &'static [&'static str]) -> BoxedStrategy<Hv> {
    select(values).prop_map(Hv::from).boxed()
}

fn host() -> BoxedStrategy<Hv> {
    prop_oneof![
        24 => Just(Hv::from(OWN_HOST)),
        3 => fixed(&["localhost:8000", "localhost", "127.0.0.1", "[::1]:8000", "LOCALHOST:8000"]),
        2 => fixed(&["127.0.0.1:9999", "evil.example", "evil.example:8000", "10.0.0.1:8000", ""]),
        1 => random_header(),
    ]
    .boxed()
}

fn origin() -> BoxedStrategy<Hv> {
    prop_oneof![
        2 => fixed(&["http://127.0.0.1:8000", "http://localhost:8080", "http://[::1]:8000/"]),
        2 => fixed(&["http://evil.example", "https://127.0.0.1:8000", "null", "http://localhost:9"]),
        1 => random_header(),
    ]
    .boxed()
}

fn accept() -> BoxedStrategy<Hv> {
    prop_oneof![
        20 => Just(Hv::from(ACCEPT_BOTH)),
        1 => fixed(&["text/event-stream, application/json", "application/json;q=0.9, text/event-stream;q=0.1"]),
        1 => fixed(&["application/json", "text/event-stream"]),
        1 => fixed(&["*/*", "application/*, text/*", "text/event-stream;q=0, application/json"]),
        1 => random_header(),
    ]
    .boxed()
}

fn content_type() -> BoxedStrategy<Hv> {
    prop_oneof![
        20 => Just(Hv::from("application/json")),
        2 => fixed(&["application/json; charset=utf-8", "APPLICATION/JSON", "application/json;charset=latin1"]),
        1 => fixed(&["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]),
        1 => random_header(),
    ]
    .boxed()
}

fn session_id() -> BoxedStrategy<Hv> {
    prop_oneof![
        24 => Just(Hv::from(SESSION_PLACEHOLDER)),
        1 => fixed(&["{session}x", " {session}", "{session},{session}"]),
        1 => "[0-9a-f-]{36}".prop_map(Hv::from),
        1 => random_header(),
    ]
    .boxed()
}

fn protocol_version() -> BoxedStrategy<Hv> {
    prop_oneof![
        16 => Just(Hv::from(PROTOCOL)),
        2 => fixed(PROTOCOL_VERSIONS),
        1 => random_header(),
    ]
    .boxed()
}

fn content_encoding() -> BoxedStrategy<Hv> {
    prop_oneof![
        3 => fixed(&["gzip", "identity", "identity, gzip", "br", "IDENTITY", ", ,"]),
        1 => random_header(),
    ]
    .boxed()
}

fn last_event_id() -> BoxedStrategy<Hv> {
    prop_oneof![
        3 => fixed(&["0", "1/0", "0/1", "99/99", "18446744073709551616", "-1", "0/0/0"]),
        1 => random_header(),
    ]
    .boxed()
}

/// The 2026-07-28 request headers: `Mcp-Method`, `Mcp-Name` (maybe Base64) and the
/// `Mcp-Param-Units` that mirrors get_weather's `units`.
fn modern_headers() -> BoxedStrategy<(Option<Hv>, Option<Hv>, Option<Hv>)> {
    (
        weighted(
            0.5,
            prop_oneof![3 => fixed(MCP_METHODS), 1 => random_header()],
        ),
        weighted(
            0.3,
            prop_oneof![
                3 => fixed(TOOL_NAMES),
                1 => fixed(&["=?base64?Z2V0X3dlYXRoZXI=?=", "=?base64?Z2V0X3dlYXRoZXI?=", "=?base64?!!?="]),
                1 => random_header(),
            ],
        ),
        weighted(
            0.15,
            prop_oneof![
                3 => fixed(&["celsius", "fahrenheit", "=?base64?ZmFocmVuaGVpdA==?=", "=?base64?x?="]),
                1 => random_header(),
            ],
        ),
    )
        .boxed()
}

fn headers() -> BoxedStrategy<Vec<(&'static str, Hv)>> {
    (
        (
            weighted(0.97, host()),
            weighted(0.15, origin()),
            weighted(0.95, accept()),
            weighted(0.95, content_type()),
            weighted(0.85, session_id()),
            weighted(0.8, protocol_version()),
            weighted(0.06, content_encoding()),
            weighted(0.06, last_event_id()),
            weighted(0.04, fixed(&["POST", "GET", "DELETE", "PUT"])),
        ),
        modern_headers(),
    )
        .prop_map(
            |(
                (host, origin, accept, ctype, session, version, encoding, last_event, preflight),
                (method, name, units),
            )| {
                [
                    ("host", host),
                    ("origin", origin),
                    ("accept", accept),
                    ("content-type", ctype),
                    ("mcp-session-id", session),
                    ("mcp-protocol-version", version),
                    ("content-encoding", encoding),
                    ("last-event-id", last_event),
                    ("access-control-request-method", preflight),
                    ("mcp-method", method),
                    ("mcp-name", name),
                    ("mcp-param-units", units),
                ]
                .into_iter()
                .filter_map(|(name, value)| value.map(|value| (name, value)))
                .collect()
            },
        )
        .boxed()
}

fn fuzz_case() -> BoxedStrategy<FuzzCase> {
    (
        http_method(),
        path(),
        headers(),
        any::<u8>().prop_map(|n| n < 220),
        body(),
        any::<u8>().prop_map(|n| n < 64),
    )
        .prop_map(
            |(method, path, headers, content_length, body, sessions_full)| FuzzCase {
                method,
                path,
                headers,
                content_length,
                body,
                sessions_full,
            },
        )
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// Running cases
// ---------------------------------------------------------------------------------------------

/// The server configuration a round uses.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    Sessions,
    Stateless,
    Json,
    /// `--era modern` (no sessions) with the conformance suite's diagnostic tools.
    Modern,
    /// `--era legacy`, with sessions.
    Legacy,
}

impl Mode {
    fn config(self) -> Config {
        let max_sessions = MAX_SESSIONS.to_string();
        let flags: Vec<&str> = match self {
            Self::Sessions => vec!["--max-sessions", &max_sessions],
            Self::Stateless => vec!["--stateless"],
            Self::Json => vec!["--json-response"],
            Self::Modern if cfg!(feature = "conformance-fixtures") => {
                vec!["--era", "modern", "--conformance-fixtures"]
            }
            Self::Modern => vec!["--era", "modern"],
            Self::Legacy => vec!["--era", "legacy", "--max-sessions", &max_sessions],
        };
        Config::try_from_args(flags).expect("valid flags")
    }

    fn has_sessions(self) -> bool {
        matches!(self, Self::Sessions | Self::Legacy)
    }
}

/// The router under test and the sessions the harness holds open in it.
struct Server {
    router: Router,
    cancel: CancellationToken,
    /// Per endpoint: sessions opened only to fill the session cap.
    fillers: HashMap<&'static str, Vec<String>>,
}

impl Server {
    fn new(mode: Mode) -> Self {
        let cancel = CancellationToken::new();
        let local_addr: SocketAddr = LOCAL_ADDR.parse().expect("address");
        Self {
            router: router(&mode.config(), local_addr, cancel.clone()).expect("router"),
            cancel,
            fillers: HashMap::new(),
        }
    }
}

#[derive(Default)]
struct Stats {
    /// Generated requests sent.
    requests: u64,
    /// Requests the harness sent around them (sessions, clean-up).
    setup_requests: u64,
    by_status: BTreeMap<u16, u64>,
    /// Forbidden statuses, hangs and panics: the first of each round, with its request (as
    /// generated, before shrinking).
    crashes: Vec<String>,
    /// Failures while proptest shrank a crashing request.
    shrink_failures: u64,
    /// Times the router was rebuilt because a setup `initialize` met the cap.
    rebuilds: u64,
}

impl Stats {
    fn count(&self, matches: impl Fn(u16) -> bool) -> u64 {
        self.by_status
            .iter()
            .filter(|(status, _)| matches(**status))
            .map(|(_, n)| n)
            .sum()
    }

    fn summary(&self, elapsed: Duration) -> String {
        let codes: Vec<String> = self
            .by_status
            .iter()
            .map(|(status, n)| format!("{status}={n}"))
            .collect();
        format!(
            "fuzz: {} requests in {:.1} s, {} crashes \
             (2xx={} 3xx={} 4xx={} 503={} other 5xx={})\n  \
             by status: {}\n  \
             plus {} setup/clean-up requests, {} router rebuilds, {} failures while shrinking",
            self.requests,
            elapsed.as_secs_f64(),
            self.crashes.len(),
            self.count(|s| (200..300).contains(&s)),
            self.count(|s| (300..400).contains(&s)),
            self.count(|s| (400..500).contains(&s)),
            self.count(|s| s == 503),
            self.count(|s| s >= 500 && s != 503),
            codes.join(" "),
            self.setup_requests,
            self.rebuilds,
            self.shrink_failures,
        )
    }
}

/// Why a harness request around the generated one failed.
enum SetupError {
    /// 503: the session cap is reached.
    Busy,
    Other(String),
}

struct Harness {
    runtime: Runtime,
    mode: RefCell<Mode>,
    server: RefCell<Server>,
    stats: RefCell<Stats>,
    /// Cases after this instant are skipped (`fuzz_for_a_while`).
    deadline: Option<Instant>,
    /// `FUZZ_VERBOSE` is set: print every request and answer (clipped).
    verbose: bool,
    /// A case of this round failed: proptest is shrinking it.
    round_failed: Cell<bool>,
}

/// A finished answer: status, the session id it announced, the body when it was read.
struct Answer {
    status: StatusCode,
    new_session: Option<String>,
    body: Option<Vec<u8>>,
}

impl Harness {
    fn new(deadline: Option<Instant>) -> Self {
        support::panics();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("tokio runtime");
        Self {
            runtime,
            mode: RefCell::new(Mode::Sessions),
            server: RefCell::new(Server::new(Mode::Sessions)),
            stats: RefCell::new(Stats::default()),
            deadline,
            verbose: std::env::var_os("FUZZ_VERBOSE").is_some(),
            round_failed: Cell::new(false),
        }
    }

    /// A fresh router in `mode`; the old one's sessions and streams are cancelled.
    fn reset(&self, mode: Mode) {
        *self.mode.borrow_mut() = mode;
        let old = self.server.replace(Server::new(mode));
        old.cancel.cancel();
    }

    fn router(&self) -> Router {
        self.server.borrow().router.clone()
    }

    /// Runs one generated case; the proptest property.
    fn check(&self, case: &FuzzCase) -> Result<(), TestCaseError> {
        // Past the deadline, cases are skipped; the shrinking of a failure is not.
        if !self.round_failed.get() && self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(());
        }
        let panics_before = support::panics();
        let outcome = self.runtime.block_on(self.exercise(case));
        let panics = support::panics() - panics_before;
        let problem = match outcome {
            Err(problem) => Some(problem),
            Ok(()) if panics > 0 => Some(format!("{panics} panic(s) while handling the request")),
            Ok(()) => None,
        };
        match problem {
            None => Ok(()),
            Some(problem) => {
                let mut stats = self.stats.borrow_mut();
                if self.round_failed.replace(true) {
                    stats.shrink_failures += 1;
                } else {
                    stats
                        .crashes
                        .push(format!("{problem}\n    request as generated: {case:?}"));
                }
                Err(TestCaseError::fail(problem))
            }
        }
    }

    async fn exercise(&self, case: &FuzzCase) -> Result<(), String> {
        let mode = *self.mode.borrow();
        let endpoint = case.endpoint();
        let session = if mode.has_sessions() {
            Some(self.prepare_sessions(endpoint, case.sessions_full).await?)
        } else {
            None
        };

        let request = case.request(session.as_deref().unwrap_or(NO_SESSION));
        let answer = self.send(request, case.may_stream()).await;
        self.stats.borrow_mut().requests += 1;
        let answer = answer?;
        *self
            .stats
            .borrow_mut()
            .by_status
            .entry(answer.status.as_u16())
            .or_default() += 1;

        let body_text = || {
            answer
                .body
                .as_deref()
                .map_or("(not read)".to_string(), |b| {
                    clipped(&String::from_utf8_lossy(b))
                })
        };
        if self.verbose {
            let sent: String = format!("{:?}", case.body).chars().take(120).collect();
            let answered: String = body_text().chars().take(160).collect();
            println!(
                "{} {} {} -> {} {}",
                case.method,
                case.path,
                sent,
                answer.status.as_u16(),
                answered.replace('\n', " ")
            );
        }
        let verdict = if answer.status == StatusCode::SERVICE_UNAVAILABLE {
            let busy = answer
                .body
                .as_deref()
                .and_then(|body| serde_json::from_slice::<Value>(body).ok())
                .is_some_and(|body| body["error"]["code"] == json!(-32000));
            if busy {
                Ok(())
            } else {
                Err(format!(
                    "HTTP 503 that is not the session cap: {}",
                    body_text()
                ))
            }
        } else if answer.status.is_server_error() {
            Err(format!("HTTP {}: {}", answer.status, body_text()))
        } else {
            Ok(())
        };

        // Clean up: a session the request opened, then the case's own.
        if let Some(new) = answer
            .new_session
            .filter(|new| Some(new) != session.as_ref())
        {
            self.delete_session(endpoint, &new).await?;
        }
        if let Some(session) = &session {
            self.delete_session(endpoint, session).await?;
        }
        verdict
    }

    /// Sends one request; reads the body to the end unless it may be an open SSE stream.
    async fn send(&self, request: Request<Body>, may_stream: bool) -> Result<Answer, String> {
        let router = self.router();
        let exchange = async move {
            let response = match router.oneshot(request).await {
                Ok(response) => response,
                Err(never) => match never {},
            };
            let status = response.status();
            let new_session = response
                .headers()
                .get("mcp-session-id")
                .and_then(|value| value.to_str().ok())
                .map(str::to_string);
            let body = if may_stream && status == StatusCode::OK {
                None
            } else {
                let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
                    .await
                    .map_err(|error| format!("HTTP {status}: reading the body failed: {error}"))?;
                Some(bytes.to_vec())
            };
            Ok(Answer {
                status,
                new_session,
                body,
            })
        };
        tokio::time::timeout(REQUEST_TIMEOUT, exchange)
            .await
            .map_err(|_| format!("no complete answer within {REQUEST_TIMEOUT:?}"))?
    }

    /// A well-formed POST to `endpoint`.
    fn post(endpoint: &str, session: Option<&str>, body: &Value) -> Request<Body> {
        let mut builder = Request::builder()
            .method(Method::POST)
            .uri(endpoint)
            .header(header::HOST, OWN_HOST)
            .header(header::ACCEPT, ACCEPT_BOTH)
            .header(header::CONTENT_TYPE, "application/json")
            .header("mcp-protocol-version", PROTOCOL);
        if let Some(session) = session {
            builder = builder.header("mcp-session-id", session);
        }
        builder
            .body(Body::from(body.to_string()))
            .expect("a valid request")
    }

    async fn setup_send(&self, request: Request<Body>) -> Result<Answer, SetupError> {
        self.stats.borrow_mut().setup_requests += 1;
        let answer = self
            .send(request, false)
            .await
            .map_err(|error| SetupError::Other(format!("setup request: {error}")))?;
        if answer.status.is_server_error() && answer.status != StatusCode::SERVICE_UNAVAILABLE {
            return Err(SetupError::Other(format!(
                "setup request: HTTP {}",
                answer.status
            )));
        }
        Ok(answer)
    }

    /// initialize + notifications/initialized; returns the session id.
    async fn open_session(&self, endpoint: &str) -> Result<String, SetupError> {
        let initialize = json!({
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": PROTOCOL,
                "capabilities": {},
                "clientInfo": { "name": "weather-server-fuzz", "version": "0.0.0" }
            }
        });
        let answer = self
            .setup_send(Self::post(endpoint, None, &initialize))
            .await?;
        if answer.status == StatusCode::SERVICE_UNAVAILABLE {
            return Err(SetupError::Busy);
        }
        let session = match (answer.status, answer.new_session) {
            (StatusCode::OK, Some(session)) => session,
            (status, _) => {
                return Err(SetupError::Other(format!(
                    "initialize on {endpoint} answered HTTP {status} without a session"
                )));
            }
        };
        let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
        let answer = self
            .setup_send(Self::post(endpoint, Some(&session), &initialized))
            .await?;
        if answer.status != StatusCode::ACCEPTED {
            return Err(SetupError::Other(format!(
                "notifications/initialized on {endpoint} answered HTTP {}",
                answer.status
            )));
        }
        Ok(session)
    }

    async fn delete_session(&self, endpoint: &str, session: &str) -> Result<(), String> {
        let request = Request::builder()
            .method(Method::DELETE)
            .uri(endpoint)
            .header(header::HOST, OWN_HOST)
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", PROTOCOL)
            .body(Body::empty())
            .expect("a valid request");
        match self.setup_send(request).await {
            // 404 when the generated request already closed it.
            Ok(_) => Ok(()),
            Err(SetupError::Busy) => Ok(()),
            Err(SetupError::Other(error)) => Err(format!("closing session: {error}")),
        }
    }

    /// Fills the cap (leaving room for one) or empties it, then opens the case's own session.
    /// A cap reached by sessions the harness does not know of means a fresh router.
    async fn prepare_sessions(&self, endpoint: &'static str, full: bool) -> Result<String, String> {
        for attempt in 0..2 {
            let mut fillers = self
                .server
                .borrow_mut()
                .fillers
                .remove(endpoint)
                .unwrap_or_default();
            let mut busy = false;
            if full {
                while fillers.len() < MAX_SESSIONS - 1 {
                    match self.open_session(endpoint).await {
                        Ok(session) => fillers.push(session),
                        Err(SetupError::Busy) => {
                            busy = true;
                            break;
                        }
                        Err(SetupError::Other(error)) => return Err(error),
                    }
                }
            } else {
                for session in fillers.drain(..) {
                    self.delete_session(endpoint, &session).await?;
                }
            }
            self.server.borrow_mut().fillers.insert(endpoint, fillers);
            if !busy {
                match self.open_session(endpoint).await {
                    Ok(session) => return Ok(session),
                    Err(SetupError::Busy) => {}
                    Err(SetupError::Other(error)) => return Err(error),
                }
            }
            if attempt == 0 {
                self.stats.borrow_mut().rebuilds += 1;
                let mode = *self.mode.borrow();
                self.reset(mode);
            }
        }
        Err("could not open a session even on a fresh router".to_string())
    }

    /// After the fuzzing: a normal client still gets real answers from both endpoints.
    fn health_check(&self) {
        self.reset(Mode::Sessions);
        self.runtime.block_on(async {
            for (endpoint, call, expected) in [
                (
                    MCP_PATH,
                    json!({ "name": "get_weather", "arguments": { "location": "Tokyo" } }),
                    "Sunny",
                ),
                (
                    CALC_PATH,
                    json!({ "name": "add", "arguments": { "a": 3, "b": 111 } }),
                    "114",
                ),
            ] {
                let session = match self.open_session(endpoint).await {
                    Ok(session) => session,
                    Err(SetupError::Busy) => panic!("{endpoint}: 503 on a fresh router"),
                    Err(SetupError::Other(error)) => panic!("{endpoint}: {error}"),
                };
                let request = json!({
                    "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": call,
                });
                let answer = self
                    .send(Self::post(endpoint, Some(&session), &request), false)
                    .await
                    .unwrap_or_else(|error| panic!("{endpoint} tools/call: {error}"));
                let body =
                    String::from_utf8_lossy(answer.body.as_deref().unwrap_or_default()).to_string();
                assert_eq!(answer.status, StatusCode::OK, "{endpoint}: {body}");
                assert!(
                    body.contains(expected),
                    "{endpoint}: expected {expected:?} in {body}"
                );
            }
        });
    }

    fn finish(&self) {
        self.server.borrow().cancel.cancel();
    }
}

/// 32 seed bytes from a number (splitmix64).
fn seed_bytes(seed: u64) -> [u8; 32] {
    let mut state = seed;
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_mut(8) {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        chunk.copy_from_slice(&z.to_le_bytes());
    }
    bytes
}

/// Runs `cases` generated cases against a fresh router in `mode`; on failure returns proptest's
/// minimal failing case and why it failed.
fn run_round(harness: &Harness, mode: Mode, seed: u64, cases: u32) -> Result<(), String> {
    harness.reset(mode);
    harness.round_failed.set(false);
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        max_shrink_iters: 2048,
        max_shrink_time: 120_000,
        ..ProptestConfig::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes(seed));
    let mut runner = TestRunner::new_with_rng(config, rng);
    match runner.run(&fuzz_case(), |case| harness.check(&case)) {
        Ok(()) => Ok(()),
        Err(TestError::Fail(reason, case)) => Err(format!(
            "mode {mode:?}, seed {seed}: {reason}\nminimal failing request:\n{case:#?}"
        )),
        Err(TestError::Abort(reason)) => Err(format!("mode {mode:?}, seed {seed}: {reason}")),
    }
}

fn report(harness: &Harness, started: Instant, failure: Option<String>) {
    let stats = harness.stats.borrow();
    println!("{}", stats.summary(started.elapsed()));
    let panics = support::panics();
    let mut problems = Vec::new();
    if let Some(failure) = failure {
        problems.push(failure);
    }
    if !stats.crashes.is_empty() {
        problems.push(format!(
            "crashing request(s) seen:\n{}",
            stats.crashes.join("\n")
        ));
    }
    if panics > 0 {
        problems.push(format!("{panics} panic(s)"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn fuzz_smoke() {
    let started = Instant::now();
    let harness = Harness::new(None);
    let mut failure = None;
    for (mode, seed, cases) in [
        (Mode::Sessions, 0x5EED_0001, 384),
        (Mode::Stateless, 0x5EED_0002, 64),
        (Mode::Json, 0x5EED_0003, 64),
        (Mode::Modern, 0x5EED_0004, 64),
        (Mode::Legacy, 0x5EED_0005, 64),
    ] {
        if let Err(error) = run_round(&harness, mode, seed, cases) {
            failure = Some(error);
            break;
        }
    }
    if failure.is_none() {
        harness.health_check();
    }
    harness.finish();
    report(&harness, started, failure);
}

#[test]
#[ignore = "runs for FUZZ_SECONDS (default 60); use --release"]
fn fuzz_for_a_while() {
    let seconds: u64 = std::env::var("FUZZ_SECONDS")
        .ok()
        .map(|s| s.parse().expect("FUZZ_SECONDS is a number of seconds"))
        .unwrap_or(60);
    let base_seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .map(|s| s.parse().expect("FUZZ_SEED is a u64"))
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
    println!("fuzzing for {seconds} s, first seed {base_seed} (FUZZ_SEED repeats it)");
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let harness = Harness::new(Some(deadline));
    let mut failure = None;
    let mut round = 0u64;
    while Instant::now() < deadline {
        let mode = match round % 6 {
            0 | 1 => Mode::Sessions,
            2 => Mode::Stateless,
            3 => Mode::Json,
            4 => Mode::Modern,
            _ => Mode::Legacy,
        };
        let seed = base_seed.wrapping_add(round);
        if let Err(error) = run_round(&harness, mode, seed, ROUND_CASES) {
            failure = Some(format!(
                "{error}\n(round {round}: repeat with FUZZ_SEED={base_seed})"
            ));
            break;
        }
        round += 1;
    }
    println!("fuzzed {round} rounds of up to {ROUND_CASES} cases");
    if failure.is_none() {
        harness.health_check();
    }
    harness.finish();
    report(&harness, started, failure);
}
