//! The HTTP+SSE transport (2024-11-05) against a scripted server: the fallback after a refused
//! POST, the endpoint, responses read off the one stream, and the stream's bad inputs.

use std::cell::RefCell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::{Value, json};

use crate::client::McpClient;
use crate::error::{McpError, TransportError};
use crate::http::HttpRequest;
use crate::record::{Log, shared_log};
use crate::scripted::*;

const URL: &str = "http://127.0.0.1:3000/mcp";
const ENDPOINT: &str = "http://127.0.0.1:3000/messages?sessionId=abc";

fn client(script: Vec<Script>) -> (McpClient<Rc<Scripted>>, Rc<Scripted>, Rc<RefCell<Log>>) {
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = script.into();
    let (log, recorder) = shared_log();
    let c = McpClient::new(http.clone(), http.clone(), URL, recorder);
    (c, http, log)
}

fn accepted() -> Script {
    status(202, "text/plain", "Accepted")
}

fn has_header(req: &HttpRequest, name: &str) -> bool {
    req.headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case(name))
}

/// A stream that has announced `/messages?sessionId=abc`.
fn announced() -> Feed {
    let feed = Feed::default();
    feed.named("endpoint", "/messages?sessionId=abc");
    feed
}

fn message(value: &Value) -> String {
    value.to_string()
}

#[test]
fn a_refused_post_falls_back_to_the_stream_and_every_answer_comes_on_it() {
    let feed = announced();
    // Answers may come on the stream before the POST's 202: they are all there at once.
    feed.named("message", &init_result(2, "2025-03-26"));
    let note = json!({"jsonrpc":"2.0","method":"notifications/message",
        "params":{"level":"info","data":"listing"}});
    feed.named("message", &message(&note));
    feed.named("message", &tools_page(3, "start-notification-stream", None));
    let (c, http, log) = client(vec![
        status(404, "text/html", "Cannot POST /mcp"),
        Script::Fed(feed),
        accepted(),
        accepted(),
        accepted(),
    ]);
    let heard = Rc::new(RefCell::new(Vec::<Value>::new()));
    let seen = heard.clone();
    c.set_listener(Some(Box::new(move |m: &Value| {
        seen.borrow_mut().push(m.clone())
    })));
    block_on(async {
        let hs = c.connect().await.expect("connect over HTTP+SSE");
        assert_eq!(hs.protocol_version, "2025-03-26");
        let tools = c.list_tools().await.expect("tools/list");
        assert_eq!(tools[0].name, "start-notification-stream");
    });
    let sent = http.sent.borrow();
    let route: Vec<(&str, &str)> = sent.iter().map(|r| (r.method, r.url.as_str())).collect();
    assert_eq!(
        route,
        [
            ("POST", URL),
            ("GET", URL),
            ("POST", ENDPOINT),
            ("POST", ENDPOINT),
            ("POST", ENDPOINT),
        ]
    );
    for post in &sent[2..] {
        assert!(!has_header(post, "Mcp-Session-Id"), "{post:?}");
        assert!(!has_header(post, "MCP-Protocol-Version"), "{post:?}");
    }
    assert_eq!(*heard.borrow(), [note]);
    // Each response is recorded on its own POST; the stream keeps the rest.
    let record = log.borrow();
    let events = |seq: usize| -> Vec<String> {
        record.exchanges[seq]
            .events
            .iter()
            .map(|e| e.event.clone())
            .collect()
    };
    assert_eq!(events(1), ["endpoint", "message"]);
    assert!(
        record.exchanges[1].events[1]
            .data
            .contains("notifications/message")
    );
    assert_eq!(events(2), ["message"]);
    assert!(record.exchanges[2].events[0].data.contains("2025-03-26"));
    assert_eq!(events(4), ["message"]);
    assert!(
        record.exchanges[4].events[0]
            .data
            .contains("start-notification-stream")
    );
    assert!(
        record.exchanges[1]
            .note
            .as_deref()
            .unwrap_or("")
            .contains("HTTP+SSE")
    );
    assert!(record.exchanges.iter().skip(2).all(|x| x.error.is_none()));
    assert!(record.exchanges[1].in_flight(), "the stream stays open");
    drop(record);
    block_on(c.close()).expect("close");
    assert!(c.transport.old_sse().is_none());
    assert!(
        !log.borrow().exchanges[1].in_flight(),
        "closing ends the stream"
    );
}

#[test]
fn concurrent_requests_each_get_their_own_response_whatever_the_order() {
    let feed = announced();
    feed.named("message", &init_result(2, "2025-03-26"));
    let (c, _http, log) = client(vec![
        status(405, "text/plain", "Method Not Allowed"),
        Script::Fed(feed.clone()),
        accepted(),
        accepted(),
        accepted(),
        accepted(),
    ]);
    block_on(c.connect()).expect("connect");
    let first = json!({"jsonrpc":"2.0","id":10,"method":"ping"});
    let second = json!({"jsonrpc":"2.0","id":11,"method":"ping"});
    let (a, b, ()) = block_on(async {
        let mut ignore_a = |_: Value| {};
        let mut ignore_b = |_: Value| {};
        futures_util::join!(
            c.transport.post(&first, &mut ignore_a),
            c.transport.post(&second, &mut ignore_b),
            async {
                // Both are waiting now: the second's answer comes first.
                YieldOnce(false).await;
                feed.named("message", r#"{"jsonrpc":"2.0","id":11,"result":{"n":2}}"#);
                feed.named("message", r#"{"jsonrpc":"2.0","id":10,"result":{"n":1}}"#);
            }
        )
    });
    let a = a.expect("first").response().expect("a response");
    let b = b.expect("second").response().expect("a response");
    assert_eq!(a["result"]["n"], 1);
    assert_eq!(b["result"]["n"], 2);
    let log = log.borrow();
    let n = log.exchanges.len();
    assert!(log.exchanges[n - 1].events[0].data.contains("\"n\":2"));
    assert!(log.exchanges[n - 2].events[0].data.contains("\"n\":1"));
}

/// Pending once, then ready: lets the other futures of a `join!` run first.
struct YieldOnce(bool);

impl std::future::Future for YieldOnce {
    type Output = ();
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<()> {
        if self.0 {
            return std::task::Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    }
}

#[test]
fn an_endpoint_elsewhere_is_refused_and_nothing_goes_there() {
    for data in ["http://elsewhere.example/messages", "javascript:alert(1)"] {
        let feed = Feed::default();
        feed.named("endpoint", data);
        let (c, http, _) = client(vec![
            status(404, "text/plain", "Not Found"),
            Script::Fed(feed),
        ]);
        let err = block_on(c.initialize()).expect_err("refused");
        assert!(
            err.to_string()
                .contains("POSTs only to the server it was given"),
            "{err}"
        );
        assert_eq!(http.sent.borrow().len(), 2, "{data}");
        assert!(c.transport.old_sse().is_none());
    }
}

#[test]
fn a_stream_without_an_endpoint_ends_in_bounded_time_with_why() {
    // Never an event: the wait ends at the request timeout.
    let (c, _, log) = client(vec![
        status(404, "text/plain", "Not Found"),
        Script::Fed(Feed::default()),
    ]);
    c.set_timeout_ms(5_000);
    let err = block_on(c.initialize()).expect_err("no endpoint");
    assert!(err.to_string().contains("within 5000 ms"), "{err}");
    assert!(log.borrow().exchanges.iter().all(|x| !x.in_flight()));
    // A stream that starts with something else is not the old transport's.
    let feed = Feed::default();
    feed.event(r#"{"jsonrpc":"2.0","method":"notifications/message"}"#);
    let (c, _, _) = client(vec![
        status(404, "text/plain", "Not Found"),
        Script::Fed(feed),
    ]);
    let err = block_on(c.initialize()).expect_err("not an endpoint");
    assert!(
        err.to_string().contains("starts with an `endpoint` event"),
        "{err}"
    );
}

#[test]
fn no_stream_either_keeps_the_posts_own_error() {
    let (c, http, _) = client(vec![
        status(404, "text/html", "Cannot POST /mcp"),
        status(404, "text/html", "Cannot GET /mcp"),
    ]);
    let err = block_on(c.initialize()).expect_err("nothing there");
    assert!(
        matches!(&err, McpError::Transport(TransportError::Status { status: 404, body }) if body.contains("POST")),
        "{err:?}"
    );
    assert_eq!(http.sent.borrow().len(), 2);
    // Other statuses are not the old transport's sign: no GET.
    let (c, http, _) = client(vec![status(500, "text/plain", "boom")]);
    block_on(c.initialize()).expect_err("a server error");
    assert_eq!(http.sent.borrow().len(), 1);
}

#[test]
fn a_stream_that_ends_fails_the_waiting_request_and_every_later_one() {
    let stream = Script::Respond {
        status: 200,
        headers: vec![("content-type", "text/event-stream".into())],
        chunks: vec![
            b"event: endpoint\ndata: /messages?sessionId=abc\n\n".to_vec(),
            format!("event: message\ndata: {}\n\n", init_result(2, "2025-03-26")).into_bytes(),
        ],
    };
    let (c, _, _) = client(vec![
        status(404, "text/plain", "Not Found"),
        stream,
        accepted(),
        accepted(),
        accepted(),
        accepted(),
    ]);
    block_on(c.connect()).expect("connect");
    for _ in 0..2 {
        let err = block_on(c.list_tools()).expect_err("the stream is gone");
        assert!(
            err.to_string().contains("ended the HTTP+SSE stream"),
            "{err}"
        );
    }
}

#[test]
fn a_post_the_server_refuses_fails_with_its_answer() {
    let feed = announced();
    feed.named("message", &init_result(2, "2025-03-26"));
    let (c, _, _) = client(vec![
        status(404, "text/plain", "Not Found"),
        Script::Fed(feed),
        accepted(),
        accepted(),
        status(404, "text/plain", "Session not found"),
    ]);
    block_on(c.connect()).expect("connect");
    let err = block_on(c.list_tools()).expect_err("session gone");
    assert!(err.to_string().contains("Session not found"), "{err}");
}
