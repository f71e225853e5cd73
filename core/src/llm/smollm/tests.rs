//! The host's side of the in-page model with a stand-in engine: which turn each point of the
//! conversation asks for, and what each result becomes.

use std::cell::RefCell;
use std::rc::Rc;

use futures_executor::block_on;
use mcp_flow_smollm_wire::{Decision, PageEvent as Event, Request, Sampling, ToolCallOutcome};
use serde_json::json;

use super::*;
use crate::llm::{tokyo_conversation, weather_tool};
use mcp_flow_client::scripted::Scripted;

/// Answers each turn with the next scripted event, streaming `text` first; records requests.
struct Stand {
    results: RefCell<Vec<Result<Event, String>>>,
    sent: RefCell<Vec<Request>>,
    loaded: Result<(), String>,
}

impl Stand {
    fn new(results: Vec<Result<Event, String>>) -> Self {
        Self {
            results: RefCell::new(results),
            sent: RefCell::default(),
            loaded: Ok(()),
        }
    }
}

impl Engine for Rc<Stand> {
    fn source(&self) -> String {
        "/models/model.gguf".into()
    }
    async fn ready(&self) -> Result<(), String> {
        self.loaded.clone()
    }
    fn next_id(&self) -> u32 {
        self.sent.borrow().len() as u32 + 1
    }
    async fn run(&self, request: Request, on_text: Rc<dyn Fn(&str)>) -> Result<Event, String> {
        on_text("{\"tool_name\": ");
        self.sent.borrow_mut().push(request);
        self.results.borrow_mut().remove(0)
    }
}

fn decision(text: &str) -> serde_json::Value {
    serde_json::to_value(Decision {
        prompt: "prompt".into(),
        constraint: "JSON".into(),
        choices: vec![],
        arguments: vec![],
        text: text.into(),
        prompt_tokens: 90,
        generated_tokens: 8,
    })
    .unwrap_or_default()
}

fn model(stand: &Rc<Stand>) -> (SmolLm<Rc<Stand>>, Rc<RefCell<String>>) {
    let streamed = Rc::new(RefCell::new(String::new()));
    let sink = streamed.clone();
    let clock: mcp_flow_client::clock::SharedClock = Rc::new(Scripted::default());
    (
        SmolLm {
            engine: stand.clone(),
            clock,
            sampling: Sampling::default(),
            style: Style::FunctionCalling,
            on_text: Rc::new(move |t: Option<&str>| match t {
                Some(t) => sink.borrow_mut().push_str(t),
                None => sink.borrow_mut().clear(),
            }),
        },
        streamed,
    )
}

#[test]
fn a_question_asks_for_the_tool_call_turn_with_the_tools() {
    let request = request_for(
        4,
        &[ChatMessage::User("What's the weather in Tokyo?".into())],
        &[weather_tool()],
        Style::FunctionCalling,
        Sampling::default(),
    );
    let Request::ToolCall {
        id,
        question,
        tools,
        system,
        ..
    } = request
    else {
        panic!("expected the tool-call turn, got {request:?}");
    };
    assert_eq!((id, question.as_str()), (4, "What's the weather in Tokyo?"));
    assert_eq!(tools[0]["name"], "get_weather");
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["location"]));
    assert!(
        system
            .unwrap_or_default()
            .contains("- get_weather(location: string): Get the current weather for a city")
    );
}

#[test]
fn the_tutorial_style_presents_the_tools_with_the_tutorial_prompt() {
    let system = system_for(Style::SystemPrompt, &[weather_tool()]);
    assert!(system.starts_with("You are a helpful assistant with access to these tools:"));
    assert!(system.contains("Tool: get_weather\nDescription: Get the current weather for a city"));
    assert!(
        system.ends_with(
            r#"If no tool fits the question, reply {"tool_name": "none", "arguments": {}}."#
        ),
        "{system}"
    );
    let stand = Rc::new(Stand::new(vec![]));
    let (mut llm, _) = model(&stand);
    llm.style = Style::SystemPrompt;
    assert_eq!(llm.format_tools(&[weather_tool()])["system"], system);
    assert_eq!(llm.style(), Style::SystemPrompt);
}

#[test]
fn a_tool_result_asks_for_the_answer_turn_with_the_call_and_result() {
    let request = request_for(
        5,
        &tokyo_conversation(),
        &[weather_tool()],
        Style::SystemPrompt,
        Sampling::default(),
    );
    assert_eq!(
        request,
        Request::Answer {
            id: 5,
            question: "What's the weather in Tokyo?".into(),
            tool: "get_weather".into(),
            arguments: json!({"location": "Tokyo"}),
            result: "Sunny".into(),
            sampling: Sampling::default(),
        }
    );
}

#[test]
fn a_call_becomes_a_tool_call_and_the_exchange_keeps_the_decision() {
    let stand = Rc::new(Stand::new(vec![Ok(Event::ToolTurn {
        id: 1,
        outcome: ToolCallOutcome::Call {
            name: "get_weather".into(),
            arguments: json!({"location": "Tokyo"}),
        },
        decision: decision(r#"{"tool_name": "get_weather", "arguments": {"location": "Tokyo"}}"#),
        ms: 800.0,
        read_ms: None,
    })]));
    let (llm, streamed) = model(&stand);
    let (reply, exchange) = block_on(llm.complete(
        &[ChatMessage::User("What's the weather in Tokyo?".into())],
        &[weather_tool()],
    ));
    let Ok(LlmReply::ToolCalls(calls)) = reply else {
        panic!("expected a tool call, got {reply:?}");
    };
    assert_eq!(calls[0].name, "get_weather");
    assert_eq!(calls[0].arguments, json!({"location": "Tokyo"}));
    assert_eq!(exchange.provider, "smollm2");
    assert_eq!(
        exchange.request["tool_call"]["question"],
        "What's the weather in Tokyo?"
    );
    let response = exchange.response.expect("the turn's result is recorded");
    assert_eq!(response["tool_turn"]["decision"]["prompt_tokens"], 90);
    assert_eq!(exchange.error, None);
    assert_eq!(*streamed.borrow(), "{\"tool_name\": ");
}

#[test]
fn no_tool_makes_the_model_answer_in_its_own_words() {
    let stand = Rc::new(Stand::new(vec![
        Ok(Event::ToolTurn {
            id: 1,
            outcome: ToolCallOutcome::NoTool,
            decision: decision(r#"{"tool_name": "none""#),
            ms: 500.0,
            read_ms: None,
        }),
        Ok(Event::Answer {
            id: 2,
            text: "Hello! How can I help?".into(),
            prompt_tokens: 30,
            generated_tokens: 7,
            finished: true,
            ms: 700.0,
            read_ms: None,
        }),
    ]));
    let (llm, _) = model(&stand);
    let (reply, exchange) =
        block_on(llm.complete(&[ChatMessage::User("Hi there".into())], &[weather_tool()]));
    assert_eq!(reply, Ok(LlmReply::Text("Hello! How can I help?".into())));
    assert!(matches!(
        stand.sent.borrow()[1],
        Request::Reply { ref question, .. } if question == "Hi there"
    ));
    assert_eq!(
        exchange.request["turns"][1]["reply"]["question"],
        "Hi there"
    );
    assert_eq!(
        exchange.response.unwrap()["turns"][0]["tool_turn"]["outcome"],
        "NoTool"
    );
}

#[test]
fn failures_reach_the_row_with_their_reason() {
    let stand = Rc::new(Stand::new(vec![Ok(Event::Failed {
        id: Some(1),
        message: "the model failed: out of memory".into(),
    })]));
    let (llm, _) = model(&stand);
    let (reply, exchange) = block_on(llm.complete(&tokyo_conversation(), &[weather_tool()]));
    assert_eq!(reply, Err("the model failed: out of memory".into()));
    assert_eq!(
        exchange.error.as_deref(),
        Some("the model failed: out of memory")
    );

    let unparsed = Event::ToolTurn {
        id: 1,
        outcome: ToolCallOutcome::Unparsed {
            name: "calc".into(),
        },
        decision: decision("{\"tool_name\": \"calc\", \"arguments\": oops"),
        ms: 1.0,
        read_ms: None,
    };
    assert!(matches!(outcome_of(&unparsed), Outcome::Failed(m) if m.contains("oops")));

    let mut not_loaded = Stand::new(vec![]);
    not_loaded.loaded = Err("http://x/models/m.gguf answered HTTP 404 Not Found".into());
    let (llm, _) = model(&Rc::new(not_loaded));
    let (reply, exchange) = block_on(llm.complete(&tokyo_conversation(), &[weather_tool()]));
    assert_eq!(
        reply,
        Err("http://x/models/m.gguf answered HTTP 404 Not Found".into())
    );
    assert_eq!(
        exchange.request,
        serde_json::Value::Null,
        "nothing was sent"
    );
}

#[test]
fn the_tools_reach_the_model_in_its_system_prompt() {
    let stand = Rc::new(Stand::new(vec![]));
    let (llm, _) = model(&stand);
    let shown = llm.format_tools(&[weather_tool()]);
    let system = shown["system"].as_str().unwrap_or_default();
    assert!(
        system.contains("- get_weather(location: string): Get the current weather for a city"),
        "{system}"
    );
    assert_eq!(llm.style(), Style::FunctionCalling);
}
