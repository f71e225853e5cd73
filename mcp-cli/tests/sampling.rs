//! The command line answers the weather server's `packing_advice` (at `/packing`, which samples
//! the client's model and lists its roots) with the model given by `--sampling-model`, in both
//! eras: a sampling request on the stream in 2025-11-25, an `input_required` retry in
//! 2026-07-28. The model is a fake OpenAI-compatible endpoint that records what it was asked.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::Command;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// A chat-completions endpoint answering every request with `answer`; returns its base URL and
/// the bodies it was sent.
fn fake_model(answer: &'static str) -> (String, Arc<Mutex<Vec<Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/v1", listener.local_addr().expect("address"));
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = asked.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let (mut line, mut length, mut path) = (String::new(), 0, String::new());
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                if path.is_empty() {
                    path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                line.clear();
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                continue;
            }
            let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            seen.lock()
                .expect("lock")
                .push(json!({"path": path, "body": request}));
            let reply = json!({"model": "fake-model-7b", "choices": [{"index": 0,
                "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}]})
            .to_string();
            let mut stream = reader.into_inner();
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
                 connection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    (url, asked)
}

#[test]
fn the_command_line_answers_sampling_with_the_model_it_is_given_in_both_eras() {
    let server = support::weather_server(&[]);
    let packing = server.replace("/mcp", "/packing");
    let (model, asked) = fake_model("Pack an umbrella, just in case.");
    for era in ["legacy", "modern"] {
        let out = Command::new(env!("CARGO_BIN_EXE_mcp-flow-cli"))
            .args([packing.as_str(), "--era", era, "--call", "packing_advice"])
            .args(["--args", r#"{"location":"Tokyo"}"#])
            .args(["--sampling-model", &model, "--sampling-model-name", "fake"])
            .args(["--root", "file:///home/me/trip Trip"])
            .env("MCP_FLOW_MODEL_KEY", "sk-never-printed")
            .output()
            .expect("the CLI runs");
        let (said, logged) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(out.status.success(), "{era}: {said}\n{logged}");
        assert!(
            said.contains(
                "written by the client's model (fake-model-7b): Pack an umbrella, just in case."
            ),
            "{era}: {said}"
        );
        assert!(said.contains("file:///home/me/trip"), "{era}: {said}");
        assert!(
            said.contains("the server asks for the model"),
            "{era}: {said}"
        );
        assert!(
            !said.contains("sk-never-printed") && !logged.contains("sk-never-printed"),
            "{era}: the key was printed"
        );
    }
    let asked = asked.lock().expect("lock");
    assert_eq!(asked.len(), 2, "one completion per era: {asked:?}");
    for request in asked.iter() {
        assert_eq!(request["path"], "/v1/chat/completions");
        assert_eq!(request["body"]["model"], "fake");
        // The server's system prompt first, then its question, with its token limit.
        let messages = &request["body"]["messages"];
        assert_eq!(messages[0]["role"], "system", "{request}");
        assert_eq!(messages[1]["role"], "user", "{request}");
        let text = messages[1]["content"].as_str().unwrap_or("");
        assert!(
            text.starts_with("The weather in Tokyo is sunny"),
            "{request}"
        );
        assert_eq!(request["body"]["max_tokens"], 120, "{request}");
    }
}

#[test]
fn without_a_model_the_command_line_declares_no_sampling() {
    let server = support::weather_server(&[]);
    let packing = server.replace("/mcp", "/packing");
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-flow-cli"))
        .args([
            packing.as_str(),
            "--era",
            "modern",
            "--call",
            "packing_advice",
        ])
        .args(["--args", r#"{"location":"Tokyo"}"#])
        .output()
        .expect("the CLI runs");
    let said = String::from_utf8_lossy(&out.stdout);
    // The server sees no sampling capability and says so in its tool error.
    assert!(said.contains("declares no sampling capability"), "{said}");
    assert!(!out.status.success());
}
