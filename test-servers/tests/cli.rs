//! The test servers' command line: what it refuses, and each mode listening where it says.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

const BINARY: &str = env!("CARGO_BIN_EXE_mcp-flow-test-servers");

/// Kills the server when the test ends, passed or failed.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `mode` on a free loopback port; returns it and the URL it printed.
fn start(mode: &str) -> (Running, String) {
    let mut child = Command::new(BINARY)
        .arg(mode)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the test servers' binary starts");
    let out = child.stdout.take().expect("its stdout is piped");
    let running = Running(child);
    let mut line = String::new();
    BufReader::new(out)
        .read_line(&mut line)
        .expect("it prints a line");
    let prefix = format!("test-servers {mode} listening on ");
    let url = line
        .trim()
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("`{line}` starts with `{prefix}`"))
        .to_owned();
    (running, url)
}

fn refused(args: &[&str]) -> String {
    let out = Command::new(BINARY)
        .args(args)
        .output()
        .expect("the test servers' binary starts");
    assert!(!out.status.success(), "{args:?} is refused");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn an_unknown_mode_or_a_bind_off_loopback_is_refused_with_the_usage() {
    for args in [
        &["nothing"][..],
        &[][..],
        &["floor", "--bind", "0.0.0.0:0"][..],
        &["floor", "--bind", "not-an-address"][..],
        &["floor", "--port", "1"][..],
    ] {
        assert!(
            refused(args).contains("usage: mcp-flow-test-servers llm|faulty|floor"),
            "{args:?}"
        );
    }
}

#[test]
fn each_mode_prints_a_loopback_url_with_its_path() {
    for (mode, path) in [("llm", "/v1"), ("faulty", ""), ("floor", "/mcp")] {
        let (_server, url) = start(mode);
        let rest = url
            .strip_prefix("http://127.0.0.1:")
            .unwrap_or_else(|| panic!("{mode}: {url} is on loopback"));
        let (port, printed_path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        assert!(
            port.parse::<u16>().is_ok_and(|p| p > 0),
            "{mode}: port {port}"
        );
        assert_eq!(printed_path, path, "{mode}");
    }
}

#[test]
fn the_floor_answers_a_tools_call_with_one_sse_event() {
    let (_server, url) = start("floor");
    let authority = url
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .expect("http://ADDR/mcp");
    let body = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"Tokyo"}}}"#;
    let mut stream = TcpStream::connect(authority).expect("the floor accepts a connection");
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("the request is written");
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .expect("the answer is read");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("text/event-stream"), "{answer}");
    let events: Vec<&str> = answer
        .lines()
        .filter(|line| line.starts_with("data:"))
        .collect();
    assert_eq!(events.len(), 1, "{answer}");
    assert!(events[0].contains(r#""id":7"#), "{}", events[0]);
    assert!(
        events[0].contains(r#""condition":"Sunny""#),
        "{}",
        events[0]
    );
}
