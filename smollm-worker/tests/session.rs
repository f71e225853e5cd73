//! The worker's session with the real model file: the tutorial's Tokyo run as the page drives it
//! (a tool-call turn, then the answer turn), every token streamed before the result.

// It reads the model file from disk: native only.
#![cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

use mcp_flow_smollm_wire::{Event, Request, Sampling, ToolCallOutcome};
use mcp_flow_smollm_worker::Session;
use serde_json::json;

fn model_path() -> PathBuf {
    if let Some(p) = std::env::var_os("SMOLLM_MODEL") {
        return PathBuf::from(p);
    }
    let root = std::env::var_os("MCP_FLOW_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_else(|| "/root".into()))
                .join(".cache/mcp-flow")
        });
    root.join("models").join(mcp_flow_smollm_wire::MODEL_FILE)
}

fn clock() -> f64 {
    std::time::UNIX_EPOCH
        .elapsed()
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

fn run(session: &Session, request: Request) -> (String, Event) {
    let mut streamed = String::new();
    let mut last = None;
    session.run(request, &clock, &mut |event| match event {
        Event::Token { text, .. } => {
            assert!(last.is_none(), "a token came after the turn's result");
            streamed.push_str(&text);
        }
        other => last = Some(other),
    });
    (streamed, last.expect("the turn ends with a result"))
}

#[test]
fn a_turn_before_the_model_is_loaded_fails_with_its_id() {
    let session = Session::default();
    let (streamed, event) = run(
        &session,
        Request::Answer {
            id: 7,
            question: "q".into(),
            tool: "t".into(),
            arguments: json!({}),
            result: "r".into(),
            sampling: Sampling::default(),
        },
    );
    assert_eq!(streamed, "");
    assert_eq!(
        event,
        Event::Failed {
            id: Some(7),
            message: "the model is not loaded yet".into()
        }
    );
}

#[test]
fn bytes_that_are_not_a_model_fail_to_load() {
    let mut session = Session::default();
    let error = session.load(b"not a gguf file").unwrap_err();
    assert!(error.contains("not a usable model file"), "{error}");
    assert!(!session.is_loaded());
}

#[test]
fn the_tokyo_run_through_the_session() {
    let path = model_path();
    if !path.exists() {
        assert!(
            std::env::var_os("SMOLLM_REQUIRED").is_none(),
            "no model at {}",
            path.display()
        );
        eprintln!("SKIPPED: no model at {}", path.display());
        return;
    }
    let bytes = std::fs::read(&path).expect("the model file reads");
    let mut session = Session::default();
    let (name, quantization) = session.load(&bytes).expect("the model loads");
    assert!(name.to_lowercase().contains("smollm2"), "{name}");
    assert_eq!(quantization, "Q8_0");

    let weather = json!({"name": "get_weather", "description": "Get the current weather for a city",
        "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}},
        "required": ["location"]}});
    let (streamed, event) = run(
        &session,
        Request::ToolCall {
            id: 1,
            question: "What's the weather in Tokyo?".into(),
            tools: vec![weather.clone()],
            system: None,
            sampling: Sampling::default(),
        },
    );
    let Event::ToolTurn {
        id,
        outcome,
        decision,
        ms,
        read_ms,
    } = event
    else {
        panic!("expected the tool turn, got {event:?}");
    };
    assert_eq!(id, 1);
    assert_eq!(
        outcome,
        ToolCallOutcome::Call {
            name: "get_weather".into(),
            arguments: json!({"location": "Tokyo"})
        }
    );
    assert_eq!(
        streamed, decision.text,
        "the stream is the reply as written"
    );
    let read = read_ms.expect("the time until the first text is measured");
    assert!(read > 0.0 && read <= ms, "read {read} ms of {ms} ms");
    let p = decision.probability_of(Some("get_weather")).unwrap_or(0.0);
    assert!(p > 0.5, "get_weather won with p = {p}");

    // A system message of the page's own (the tutorial's prompt style) is the one the model reads.
    let tutorial_prompt = "You are a helpful assistant with access to these tools:\n\nTool: get_weather\n\
        Description: Get the current weather for a city\nArguments:\n- location: string (required)\n\n\
        When you need to use a tool, respond with JSON only: {\"tool_name\": \"tool-name\", \
        \"arguments\": {\"argument-name\": \"value\"}}. If no tool fits, reply \
        {\"tool_name\": \"none\", \"arguments\": {}}.";
    let (_, event) = run(
        &session,
        Request::ToolCall {
            id: 9,
            question: "What's the weather in Tokyo?".into(),
            tools: vec![weather],
            system: Some(tutorial_prompt.into()),
            sampling: Sampling::default(),
        },
    );
    let Event::ToolTurn {
        outcome, decision, ..
    } = event
    else {
        panic!("expected the tool turn, got {event:?}");
    };
    assert!(
        decision
            .prompt
            .starts_with(&format!("<|im_start|>system\n{tutorial_prompt}<|im_end|>")),
        "{}",
        decision.prompt
    );
    assert_eq!(
        outcome,
        ToolCallOutcome::Call {
            name: "get_weather".into(),
            arguments: json!({"location": "Tokyo"})
        }
    );

    let (streamed, event) = run(
        &session,
        Request::Answer {
            id: 2,
            question: "What's the weather in Tokyo?".into(),
            tool: "get_weather".into(),
            arguments: json!({"location": "Tokyo"}),
            result: "Sunny".into(),
            sampling: Sampling::default(),
        },
    );
    let Event::Answer { id, text, .. } = event else {
        panic!("expected the answer, got {event:?}");
    };
    assert_eq!(id, 2);
    assert!(text.to_lowercase().contains("sunny"), "{text}");
    assert_eq!(streamed.trim(), text);

    let (_, event) = run(
        &session,
        Request::ToolCall {
            id: 3,
            question: "q".into(),
            tools: vec![json!({"description": "a tool without a name"})],
            system: None,
            sampling: Sampling::default(),
        },
    );
    assert!(
        matches!(&event, Event::Failed { id: Some(3), message } if message.starts_with("a tool could not be read")),
        "{event:?}"
    );
}

#[test]
fn the_size_told_before_the_download_is_the_files() {
    let path = model_path();
    match std::fs::metadata(&path) {
        Ok(meta) => assert_eq!(meta.len(), mcp_flow_smollm_wire::MODEL_BYTES),
        Err(_) => assert!(std::env::var_os("SMOLLM_REQUIRED").is_none()),
    }
}
