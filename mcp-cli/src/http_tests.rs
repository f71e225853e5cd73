//! `Native` against a raw TCP peer on 127.0.0.1 that the test scripts byte by byte: what goes out,
//! when each chunk comes in, and the whole client resuming a closed SSE stream over a real socket.

use std::rc::Rc;
use std::time::{Duration, Instant};

use mcp_flow_client::client::McpClient;
use mcp_flow_client::http::{BodyStream, Http, HttpRequest};
use mcp_flow_client::record::shared_log;
use mcp_flow_client::tools::result_text;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::http::{Native, TokioClock};
use mcp_flow_client::clock::Clock;

/// One request as the peer read it.
struct Received {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("JSON body")
    }
}

async fn listen() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!(
        "http://127.0.0.1:{}/mcp",
        listener.local_addr().unwrap().port()
    );
    (listener, url)
}

/// Accepts one connection and reads one request from it (head, then `Content-Length` bytes).
async fn accept(listener: &TcpListener) -> (Received, TcpStream) {
    let (mut stream, _) = listener.accept().await.expect("accept");
    let mut buf = Vec::new();
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await.expect("read");
        assert!(n > 0, "the connection closed inside the request head");
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8(buf[..head_end].to_vec()).expect("ASCII head");
    let mut lines = head.split("\r\n");
    let mut start = lines.next().unwrap().split(' ');
    let method = start.next().unwrap().to_owned();
    let path = start.next().unwrap().to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = buf[head_end..].to_vec();
    while body.len() < length {
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await.expect("read body");
        assert!(n > 0, "the connection closed inside the request body");
        body.extend_from_slice(&chunk[..n]);
    }
    let received = Received {
        method,
        path,
        headers,
        body: String::from_utf8(body).expect("UTF-8 body"),
    };
    (received, stream)
}

/// A complete response that closes the connection, so the next request opens a new one.
async fn respond(mut stream: TcpStream, status: &str, headers: &[(&str, &str)], body: &str) {
    let mut text = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        text.push_str(&format!("{k}: {v}\r\n"));
    }
    text.push_str("\r\n");
    text.push_str(body);
    stream.write_all(text.as_bytes()).await.unwrap();
    stream.shutdown().await.unwrap();
}

/// The head of an SSE response whose body runs until the connection closes.
async fn sse_head(stream: &mut TcpStream) {
    stream
        .write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
              Connection: close\r\n\r\n",
        )
        .await
        .unwrap();
}

fn post(url: &str, body: &str) -> HttpRequest {
    HttpRequest {
        method: "POST",
        url: url.to_owned(),
        headers: vec![
            (
                "Accept".into(),
                "application/json, text/event-stream".into(),
            ),
            ("Content-Type".into(), "application/json".into()),
            ("Mcp-Session-Id".into(), "s-1".into()),
        ],
        body: Some(body.to_owned()),
    }
}

#[tokio::test]
async fn the_request_goes_out_as_given_and_the_whole_response_comes_back() {
    let (listener, url) = listen().await;
    let http = Native::new().unwrap();
    let client = async {
        let mut response = http
            .send(&post(&url, r#"{"a":1}"#))
            .await
            .expect("response");
        let mut body = Vec::new();
        while let Some(chunk) = response.body.chunk().await.expect("chunk") {
            body.extend(chunk);
        }
        assert_eq!(response.body.chunk().await, Ok(None), "stays at the end");
        (response.status, response.headers, body)
    };
    let server = async {
        let (request, stream) = accept(&listener).await;
        respond(
            stream,
            "404 Not Found",
            &[("Content-Type", "text/plain"), ("Mcp-Session-Id", "s-2")],
            "Session not found",
        )
        .await;
        request
    };
    let ((status, headers, body), request) = tokio::join!(client, server);
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/mcp");
    assert_eq!(
        request.header("accept"),
        Some("application/json, text/event-stream")
    );
    assert_eq!(request.header("content-type"), Some("application/json"));
    assert_eq!(request.header("mcp-session-id"), Some("s-1"));
    assert_eq!(request.body, r#"{"a":1}"#);
    assert_eq!(status, 404);
    let session = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id"))
        .map(|(_, v)| v.as_str());
    assert_eq!(session, Some("s-2"));
    assert_eq!(body, b"Session not found");
}

#[tokio::test]
async fn each_chunk_is_delivered_before_the_next_one_is_sent() {
    let (listener, url) = listen().await;
    let http = Native::new().unwrap();
    // The peer writes the second event only after the client has read the first one.
    let (read_first, mut wait_first) = signal_pair();
    let client = async {
        let mut response = http.send(&post(&url, "{}")).await.expect("response");
        assert_eq!(response.status, 200);
        let mut first = Vec::new();
        while first.len() < b"id: 1\ndata: one\n\n".len() {
            first.extend(response.body.chunk().await.expect("chunk").expect("first"));
        }
        assert_eq!(first, b"id: 1\ndata: one\n\n");
        read_first.send();
        let mut rest = Vec::new();
        while let Some(chunk) = response.body.chunk().await.expect("chunk") {
            rest.extend(chunk);
        }
        assert_eq!(rest, b"id: 2\ndata: two\n\n");
    };
    let server = async {
        let (_, mut stream) = accept(&listener).await;
        sse_head(&mut stream).await;
        stream.write_all(b"id: 1\ndata: one\n\n").await.unwrap();
        stream.flush().await.unwrap();
        wait_first.wait().await;
        stream.write_all(b"id: 2\ndata: two\n\n").await.unwrap();
        stream.shutdown().await.unwrap();
    };
    tokio::join!(client, server);
}

#[tokio::test]
async fn a_connection_cut_inside_the_body_is_an_error() {
    let (listener, url) = listen().await;
    let http = Native::new().unwrap();
    let client = async {
        let mut response = http.send(&post(&url, "{}")).await.expect("response");
        let mut outcome = Ok(Some(Vec::new()));
        while let Ok(Some(_)) = outcome {
            outcome = response.body.chunk().await;
        }
        outcome
    };
    let server = async {
        let (_, mut stream) = accept(&listener).await;
        stream
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"partial\":")
            .await
            .unwrap();
        drop(stream);
    };
    let (outcome, ()) = tokio::join!(client, server);
    let err = outcome.expect_err("a short body is not a clean end");
    assert!(!err.is_empty());
}

#[tokio::test]
async fn no_server_is_an_error_that_says_why() {
    let (listener, url) = listen().await;
    drop(listener);
    let http = Native::new().unwrap();
    let err = match http.send(&post(&url, "{}")).await {
        Ok(response) => panic!("got HTTP {} from a closed port", response.status),
        Err(e) => e,
    };
    assert!(err.to_lowercase().contains("refused"), "{err}");
}

#[tokio::test]
async fn sleep_waits_and_the_clock_moves() {
    let clock = TokioClock::new();
    let before = clock.now_ms();
    let started = Instant::now();
    clock.sleep(40).await;
    assert!(started.elapsed() >= Duration::from_millis(40));
    assert!(clock.now_ms() - before >= 40.0);
}

/// The conformance suite's `sse-retry` case over a real socket: the server closes the
/// tools/call stream after a priming event with `retry: 300`; the client waits that long and
/// resumes with GET and `Last-Event-ID`, and returns as soon as the response is on the new stream
/// although the server keeps that stream open.
#[tokio::test]
async fn a_closed_stream_is_resumed_after_the_retry_time() {
    const RETRY_MS: u64 = 300;
    let (listener, url) = listen().await;
    let (log, recorder) = shared_log();
    let client = McpClient::new(
        Native::new().unwrap(),
        Rc::new(TokioClock::new()),
        url,
        recorder,
    );
    let client_side = async {
        client.connect().await.expect("connect");
        let result = client
            .call_tool("slow", json!({}), None)
            .await
            .expect("tools/call after resuming");
        client.close().await.expect("close");
        result_text(&result)
    };
    let server_side = async {
        let (init, stream) = accept(&listener).await;
        assert_eq!(init.json()["method"], "initialize");
        let reply = json!({"jsonrpc":"2.0","id":init.json()["id"],"result":{
            "protocolVersion":"2025-11-25","capabilities":{"tools":{}},
            "serverInfo":{"name":"fake","version":"1"}}});
        respond(
            stream,
            "200 OK",
            &[
                ("Content-Type", "application/json"),
                ("Mcp-Session-Id", "s-9"),
            ],
            &reply.to_string(),
        )
        .await;

        let (initialized, stream) = accept(&listener).await;
        assert_eq!(initialized.json()["method"], "notifications/initialized");
        respond(stream, "202 Accepted", &[], "").await;

        let (call, mut stream) = accept(&listener).await;
        assert_eq!(call.json()["method"], "tools/call");
        let id = call.json()["id"].clone();
        sse_head(&mut stream).await;
        stream
            .write_all(format!("id: ev-1\nretry: {RETRY_MS}\ndata: \n\n").as_bytes())
            .await
            .unwrap();
        stream.shutdown().await.unwrap();
        drop(stream);
        let closed = Instant::now();

        let (resume, mut open) = accept(&listener).await;
        let waited = closed.elapsed();
        assert_eq!(resume.method, "GET");
        assert_eq!(resume.header("last-event-id"), Some("ev-1"));
        assert_eq!(resume.header("accept"), Some("text/event-stream"));
        assert_eq!(resume.header("mcp-session-id"), Some("s-9"));
        assert_eq!(resume.header("mcp-protocol-version"), Some("2025-11-25"));
        assert!(resume.body.is_empty());
        let result = json!({"jsonrpc":"2.0","id":id,"result":{
            "content":[{"type":"text","text":"done"}]}});
        sse_head(&mut open).await;
        open.write_all(format!("id: ev-2\ndata: \n\nid: ev-3\ndata: {result}\n\n").as_bytes())
            .await
            .unwrap();
        open.flush().await.unwrap();

        let (delete, stream) = accept(&listener).await;
        assert_eq!(delete.method, "DELETE");
        assert_eq!(delete.header("mcp-session-id"), Some("s-9"));
        respond(stream, "405 Method Not Allowed", &[], "").await;
        (waited, open)
    };
    let (text, (waited, _still_open)) = tokio::join!(client_side, server_side);
    assert_eq!(text, "done");
    assert!(
        waited >= Duration::from_millis(RETRY_MS - 20),
        "resumed after {waited:?}, before the {RETRY_MS} ms retry"
    );
    assert!(
        waited < Duration::from_millis(RETRY_MS * 3),
        "resumed after {waited:?}, far later than the {RETRY_MS} ms retry"
    );
    let log = log.borrow();
    let methods: Vec<(&str, Option<u16>)> = log
        .exchanges
        .iter()
        .map(|x| (x.method.as_str(), x.status))
        .collect();
    assert_eq!(
        methods,
        [
            ("POST", Some(200)),
            ("POST", Some(202)),
            ("POST", Some(200)),
            ("GET", Some(200)),
            ("DELETE", Some(405)),
        ]
    );
    assert!(log.exchanges.iter().all(|x| x.error.is_none()));
}

/// A one-shot signal between the two sides of a test, without tokio's `sync` feature.
fn signal_pair() -> (Signal, Signal) {
    let flag = Rc::new(std::cell::Cell::new(false));
    (Signal(flag.clone()), Signal(flag))
}

struct Signal(Rc<std::cell::Cell<bool>>);

impl Signal {
    fn send(&self) {
        self.0.set(true);
    }

    async fn wait(&mut self) {
        while !self.0.get() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}
