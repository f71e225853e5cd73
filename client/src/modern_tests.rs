//! The client in the 2026-07-28 era, and the `auto` probe, against a scripted peer: the exact
//! requests out (body `_meta`, metadata headers, no session), every modern error at its meaning,
//! MRTR round trips, and the fall back to legacy.

use std::cell::RefCell;
use std::rc::Rc;

use futures_executor::block_on;
use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use serde_json::{Map, Value, json};

use crate::client::{Elicitor, McpClient};
use crate::era::{Era, Why};
use crate::error::{McpError, TransportError};
use crate::http::HttpRequest;
use crate::record::shared_log;
use crate::scripted::*;
use crate::tools::{CallOutcome, Question, Retry};

fn client(script: Vec<Script>) -> (McpClient<Rc<Scripted>>, Rc<Scripted>) {
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = script.into();
    let (_log, recorder) = shared_log();
    let c = McpClient::new(
        http.clone(),
        http.clone(),
        "http://127.0.0.1:8000/mcp",
        recorder,
    );
    (c, http)
}

fn modern(script: Vec<Script>) -> (McpClient<Rc<Scripted>>, Rc<Scripted>) {
    let (c, http) = client(script);
    c.set_era(Era::Modern);
    (c, http)
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn body(req: &HttpRequest) -> Value {
    serde_json::from_str(req.body.as_deref().unwrap_or("null")).unwrap_or(Value::Null)
}

fn discover_result(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
        "supportedVersions": ["2026-07-28", "2025-11-25"], "capabilities": {"tools": {}, "logging": {}},
        "ttlMs": 60000, "cacheScope": "public",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "weather-server", "version": "0.1.0"}}}})
}

fn error_status(status: u16, id: u64, code: i64, message: &str, data: Value) -> Script {
    let mut error = json!({"code": code, "message": message});
    if !data.is_null() {
        error["data"] = data;
    }
    Script::Respond {
        status,
        headers: vec![("content-type", "application/json".into())],
        chunks: vec![
            json!({"jsonrpc": "2.0", "id": id, "error": error})
                .to_string()
                .into_bytes(),
        ],
    }
}

fn weather_tools(id: u64) -> Script {
    json_reply(
        json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
        "ttlMs": 300000, "cacheScope": "public", "tools": [
        {"name": "get_weather", "inputSchema": {"type": "object", "properties": {
            "location": {"type": "string"},
            "units": {"type": "string", "enum": ["celsius", "fahrenheit"], "x-mcp-header": "Units"}},
            "required": ["location"]}},
        {"name": "broken", "inputSchema": {"type": "object", "properties": {
            "speed": {"type": "number", "x-mcp-header": "Speed"}}}}]}}),
    )
}

#[test]
fn a_modern_run_sends_meta_and_headers_and_no_session() {
    let call = json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete",
        "content": [{"type": "text", "text": "Sunny"}]}});
    let (c, http) = modern(vec![
        json_reply(discover_result(1)),
        weather_tools(2),
        json_reply(call),
    ]);
    block_on(async {
        let found = c.discover().await.expect("discover");
        assert_eq!(found.server.as_deref(), Some("weather-server 0.1.0"));
        assert_eq!(found.ttl_ms, 60000);
        let list = c.tool_list().await.expect("tools");
        let names: Vec<&str> = list.tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["get_weather"], "the invalid tool is left out");
        assert_eq!(list.dropped.len(), 1);
        assert_eq!(list.dropped[0].0, "broken");
        assert!(list.dropped[0].1.contains("`number`"), "{:?}", list.dropped);
        assert_eq!(
            (list.ttl_ms, list.cache_scope.as_deref()),
            (Some(300000), Some("public"))
        );
        c.set_log_level(Some(crate::log_level::LogLevel::Info));
        let result = c
            .call_tool(
                "get_weather",
                json!({"location": "東京", "units": "celsius"}),
                Some("p-1"),
            )
            .await
            .expect("call");
        assert_eq!(crate::tools::result_text(&result), "Sunny");
    });
    let sent = http.sent.borrow();
    assert_eq!(sent.len(), 3);
    for req in sent.iter() {
        assert_eq!(header(req, "MCP-Protocol-Version"), Some("2026-07-28"));
        assert_eq!(header(req, "Mcp-Session-Id"), None);
        assert_eq!(
            header(req, "Accept"),
            Some("application/json, text/event-stream")
        );
        let meta = &body(req)["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientInfo"]["name"],
            "mcp-flow"
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientCapabilities"]["elicitation"],
            json!({"form": {}, "url": {}})
        );
    }
    assert_eq!(header(&sent[0], "Mcp-Method"), Some("server/discover"));
    assert_eq!(header(&sent[0], "Mcp-Name"), None);
    assert_eq!(header(&sent[1], "Mcp-Method"), Some("tools/list"));
    let call = &sent[2];
    assert_eq!(header(call, "Mcp-Method"), Some("tools/call"));
    assert_eq!(header(call, "Mcp-Name"), Some("get_weather"));
    assert_eq!(header(call, "Mcp-Param-Units"), Some("celsius"));
    let b = body(call);
    assert_eq!(b["params"]["_meta"]["progressToken"], "p-1");
    assert_eq!(
        b["params"]["_meta"]["io.modelcontextprotocol/logLevel"],
        "info"
    );
    assert_eq!(b["params"]["arguments"]["location"], "東京");
}

#[test]
fn modern_errors_are_protocol_errors_with_their_status_and_meaning() {
    let cases = [
        (400, -32020, json!(null), "header mismatch"),
        (
            400,
            -32021,
            json!({"requiredCapabilities": {"sampling": {}}}),
            "\"sampling\"",
        ),
        (
            400,
            -32022,
            json!({"supported": ["2027-01-01"], "requested": "2026-07-28"}),
            "it supports 2027-01-01",
        ),
        (404, -32601, json!(null), "method not found"),
    ];
    for (status, code, data, says) in cases {
        let (c, _) = modern(vec![error_status(status, 1, code, "nope", data)]);
        let err = block_on(c.ping()).unwrap_err();
        match &err {
            McpError::Protocol {
                code: got,
                status: s,
                ..
            } => assert_eq!((*got, *s), (code, Some(status))),
            other => panic!("{code}: {other:?}"),
        }
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("HTTP {status}, JSON-RPC error {code}")),
            "{text}"
        );
        assert!(text.contains(says), "{text}");
    }
    // A GET or DELETE answer without a JSON-RPC body stays a transport error.
    let (c, _) = modern(vec![status(405, "text/plain", "Method Not Allowed")]);
    assert!(matches!(
        block_on(c.ping()).unwrap_err(),
        McpError::Transport(TransportError::Status { status: 405, .. })
    ));
}

#[test]
fn unsupported_version_that_lists_ours_is_retried_once() {
    let (c, http) = client(vec![
        error_status(
            400,
            1,
            -32022,
            "Unsupported protocol version",
            json!({"supported": ["2026-07-28"], "requested": "2026-07-28"}),
        ),
        json_reply(discover_result(2)),
    ]);
    let (detection, found) = block_on(c.probe());
    assert_eq!(detection.era, Era::Modern);
    assert!(found.is_ok());
    let sent = http.sent.borrow();
    assert_eq!(sent.len(), 2);
    assert_ne!(body(&sent[0])["id"], body(&sent[1])["id"]);
    // Twice in a row is an error, not a loop.
    let again = error_status(
        400,
        1,
        -32022,
        "no",
        json!({"supported": ["2026-07-28"], "requested": "2026-07-28"}),
    );
    let again2 = error_status(
        400,
        2,
        -32022,
        "no",
        json!({"supported": ["2026-07-28"], "requested": "2026-07-28"}),
    );
    let (c, http) = client(vec![again, again2]);
    let (detection, found) = block_on(c.probe());
    assert_eq!(
        detection.era,
        Era::Modern,
        "a modern error means a modern server"
    );
    assert!(found.is_err());
    assert_eq!(http.sent.borrow().len(), 2);
}

#[test]
fn the_probe_falls_back_on_any_non_modern_answer_and_says_why() {
    let legacy_400 = status(
        400,
        "text/plain",
        "Bad Request: No valid session ID provided",
    );
    let (c, _) = client(vec![legacy_400]);
    let (d, _) = block_on(c.probe());
    assert_eq!(d.era, Era::Legacy);
    assert!(matches!(&d.why, Why::NotModern { answer } if answer.contains("No valid session ID")));

    let not_found = error_status(200, 1, -32601, "Method not found", json!(null));
    let (c, _) = client(vec![not_found]);
    assert_eq!(block_on(c.probe()).0.era, Era::Legacy);

    let session_error = error_status(
        400,
        1,
        -32000,
        "Bad Request: Server not initialized",
        json!(null),
    );
    let (c, _) = client(vec![session_error]);
    assert_eq!(block_on(c.probe()).0.era, Era::Legacy);

    // No HTTP answer (a failed CORS preflight in a browser).
    let (c, _) = client(vec![Script::NoResponse]);
    let (d, _) = block_on(c.probe());
    assert_eq!(d.era, Era::Legacy);
    assert!(d.why.describe().contains("CORS"), "{}", d.why.describe());

    let (c, _) = client(vec![json_reply(discover_result(1))]);
    let (d, found) = block_on(c.probe());
    assert_eq!((d.era, d.why), (Era::Modern, Why::Discovered));
    assert_eq!(found.unwrap().versions[0], "2026-07-28");
}

fn springfield(id: u64, state: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required",
        "requestState": state,
        "inputRequests": {"city": {"method": "elicitation/create", "params": {
            "mode": "form", "message": "Which Springfield?",
            "requestedSchema": {"type": "object", "properties": {"city": {"type": "string",
                "enum": ["Springfield, Illinois", "Springfield, Massachusetts"]}},
                "required": ["city"]}}}}}})
}

#[test]
fn input_required_comes_back_as_questions_and_the_retry_carries_the_answers() {
    let done = json!({"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete",
        "content": [{"type": "text", "text": "Cloudy"}]}});
    let (c, http) = modern(vec![
        json_reply(springfield(1, "opaque=1|sig")),
        json_reply(done),
    ]);
    let first = block_on(c.call(
        "get_weather",
        json!({"location": "Springfield"}),
        None,
        None,
    ))
    .expect("first round");
    let CallOutcome::InputRequired(asked) = first else {
        panic!("expected input_required");
    };
    assert_eq!(asked.state.as_deref(), Some("opaque=1|sig"));
    let (key, Question::Form(ElicitRequestParams::FormElicitationParams { message, .. })) =
        &asked.questions[0]
    else {
        panic!("expected a form: {:?}", asked.questions);
    };
    assert_eq!(
        (key.as_str(), message.as_str()),
        ("city", "Which Springfield?")
    );
    let answer = ElicitResult::new(ElicitationAction::Accept)
        .with_content(json!({"city": "Springfield, Illinois"}));
    let mut responses = Map::new();
    responses.insert("city".into(), serde_json::to_value(&answer).unwrap());
    let retry = Retry {
        responses,
        state: asked.state.clone(),
    };
    let second = block_on(c.call(
        "get_weather",
        json!({"location": "Springfield"}),
        None,
        Some(retry),
    ))
    .expect("retry");
    assert!(matches!(second, CallOutcome::Complete(_)));
    let sent = http.sent.borrow();
    let (a, b) = (body(&sent[0]), body(&sent[1]));
    assert_ne!(a["id"], b["id"], "the retry has a new request id");
    assert_eq!(b["params"]["name"], "get_weather");
    assert_eq!(b["params"]["arguments"], json!({"location": "Springfield"}));
    assert_eq!(b["params"]["requestState"], "opaque=1|sig");
    assert_eq!(
        b["params"]["inputResponses"]["city"],
        json!({"action": "accept", "content": {"city": "Springfield, Illinois"}})
    );
    assert!(a["params"].get("requestState").is_none());
    assert!(a["params"].get("inputResponses").is_none());
}

#[test]
fn a_retry_without_state_sends_none() {
    let no_state = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required",
        "inputRequests": {"ok": {"method": "elicitation/create", "params": {"message": "Sure?",
            "requestedSchema": {"type": "object", "properties": {}}}}}}});
    let done = json!({"jsonrpc": "2.0", "id": 2, "result": {"content": []}});
    let (c, http) = modern(vec![json_reply(no_state), json_reply(done)]);
    let CallOutcome::InputRequired(asked) =
        block_on(c.call("confirm", json!({}), None, None)).unwrap()
    else {
        panic!("expected input_required");
    };
    assert_eq!(asked.state, None);
    let retry = Retry {
        responses: Map::new(),
        state: asked.state,
    };
    block_on(c.call("confirm", json!({}), None, Some(retry))).unwrap();
    assert!(
        body(&http.sent.borrow()[1])["params"]
            .get("requestState")
            .is_none()
    );
}

#[test]
fn a_legacy_elicitation_on_the_stream_is_answered_before_the_result() {
    let ask = json!({"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create",
        "params": {"message": "Which Springfield?", "requestedSchema": {"type": "object",
            "properties": {"city": {"type": "string", "enum": ["Springfield, Illinois"]}}}}})
    .to_string();
    let result = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [
        {"type": "text", "text": "Cloudy"}]}})
    .to_string();
    let (c, http) = client(vec![sse(&[&ask, &result]), status(202, "", "")]);
    let asked = Rc::new(RefCell::new(Vec::new()));
    let seen = asked.clone();
    let elicitor: Elicitor = Rc::new(move |params: Result<ElicitRequestParams, String>| {
        seen.borrow_mut().push(params.expect("the question parses"));
        Box::pin(async {
            ElicitResult::new(ElicitationAction::Accept)
                .with_content(json!({"city": "Springfield, Illinois"}))
        })
    });
    c.set_elicitor(Some(elicitor));
    let result = block_on(c.call_tool("get_weather", json!({"location": "Springfield"}), None))
        .expect("call");
    assert_eq!(crate::tools::result_text(&result), "Cloudy");
    assert_eq!(asked.borrow().len(), 1);
    let sent = http.sent.borrow();
    assert_eq!(sent.len(), 2, "the call, then the answer");
    let answer = body(&sent[1]);
    assert_eq!(answer["id"], "e1");
    assert_eq!(answer["result"]["action"], "accept");
    assert_eq!(answer["result"]["content"]["city"], "Springfield, Illinois");
}

#[test]
fn without_an_elicitor_a_legacy_elicitation_is_declined() {
    let ask = json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
        "params": {"message": "?", "requestedSchema": {"type": "object", "properties": {}}}})
    .to_string();
    let result = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}}).to_string();
    let (c, http) = client(vec![sse(&[&ask, &result]), status(202, "", "")]);
    block_on(c.call_tool("t", json!({}), None)).unwrap();
    assert_eq!(body(&http.sent.borrow()[1])["result"]["action"], "decline");
}
