//! The offline model against the servers' real tools (the fixtures `weather-server` checks
//! against its own `tools/list`): answers from tool results, in every language, for every
//! condition the weather server can return.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::answer::{CONDITIONS, condition_in, weather_with};
use super::text::Lang;
use super::{Decision, choose, decide};
use crate::llm::{ChatMessage, LlmReply, ToolCall, ToolSpec};

/// Regenerate the fixtures with `UPDATE_FIXTURES=1 cargo test -p weather-server --test fixtures`.
const WEATHER_TOOLS: &str = include_str!("../../../../tests/fixtures/weather-tools.json");
const CALC_TOOLS: &str = include_str!("../../../../tests/fixtures/calc-tools.json");
const PACKING_TOOLS: &str = include_str!("../../../../tests/fixtures/packing-tools.json");
const WEATHER_CONDITIONS: &str = include_str!("../../../../tests/fixtures/weather-conditions.json");

/// Tools as the host hands them to a model: listed by the server, converted by
/// `ToolSpec::from_mcp`.
fn tools_from(fixture: &str) -> Vec<ToolSpec> {
    let tools: Vec<rmcp::model::Tool> =
        serde_json::from_str(fixture).expect("the fixture is a tools/list `tools` array");
    tools.iter().map(ToolSpec::from_mcp).collect()
}

/// `get_weather`, as the weather server lists it.
pub(super) fn weather_tools() -> Vec<ToolSpec> {
    tools_from(WEATHER_TOOLS)
}

/// `add`, `subtract`, `multiply` and `divide`, as the calculator server lists them.
pub(super) fn calc_tools() -> Vec<ToolSpec> {
    tools_from(CALC_TOOLS)
}

/// Every condition `get_weather` can return.
fn server_conditions() -> Vec<String> {
    serde_json::from_str(WEATHER_CONDITIONS).expect("the fixture is an array of strings")
}

/// The whole conversation: the question, the model's tool call, the tool's result as the host
/// passes it (text content and error flag), and the model's final answer.
fn converse(question: &str, tools: &[ToolSpec], result: &str, is_error: bool) -> (Value, String) {
    converse_with(question, tools, result, None, is_error)
}

/// [`converse`], with the result's `structuredContent` passed as the host passes it.
fn converse_with(
    question: &str,
    tools: &[ToolSpec],
    result: &str,
    structured: Option<Value>,
    is_error: bool,
) -> (Value, String) {
    let mut messages = vec![ChatMessage::User(question.into())];
    let call = match decide(&messages, tools) {
        LlmReply::ToolCalls(calls) => calls[0].clone(),
        other => panic!("{question}: expected a tool call, got {other:?}"),
    };
    let arguments = call.arguments.clone();
    messages.push(ChatMessage::Assistant {
        text: String::new(),
        tool_calls: vec![call.clone()],
    });
    messages.push(ChatMessage::ToolResult {
        call_id: call.id,
        name: call.name,
        content: result.into(),
        is_error,
        structured,
    });
    match decide(&messages, tools) {
        LlmReply::Text(answer) => (arguments, answer),
        other => panic!("{question}: expected an answer, got {other:?}"),
    }
}

#[test]
fn the_tutorial_conversation_ends_in_the_tutorial_sentence() {
    let (args, answer) = converse(
        "What's the weather in Tokyo?",
        &weather_tools(),
        "Sunny",
        false,
    );
    assert_eq!(args, json!({"location": "Tokyo"}));
    assert_eq!(answer, "The weather in Tokyo is sunny.");
}

#[test]
fn chinese_and_japanese_weather_answers_are_wholly_in_that_language() {
    let tools = weather_tools();
    for (question, result, want) in [
        ("上海的天气怎么样？", "Light rain", "上海的天气是小雨。"),
        ("北京今天天气如何？", "Hazy", "北京的天气是雾霾。"),
        ("东京的天气怎么样？", "Sunny", "东京的天气是晴天。"),
        ("東京の天気は？", "Sunny", "東京の天気は晴れです。"),
        (
            "大阪の天気を教えて",
            "Partly cloudy",
            "大阪の天気は晴れ時々曇りです。",
        ),
        ("モスクワの天気は？", "Snow", "モスクワの天気は雪です。"),
    ] {
        assert_eq!(
            converse(question, &tools, result, false).1,
            want,
            "{question}"
        );
    }
}

#[test]
fn the_answer_names_the_place_as_the_call_did_or_as_the_structured_result_does() {
    let tools = weather_tools();
    // The host passes the text block ("Cloudy"): the place is the call's, capitalised.
    let (args, answer) = converse("what's the weather in new york", &tools, "Cloudy", false);
    assert_eq!(args, json!({"location": "New York"}));
    assert_eq!(answer, "The weather in New York is cloudy.");
    // The host passes the result's structuredContent: its canonical name wins, except over a
    // place the user wrote in CJK script.
    let report = json!({"location": "New York", "condition": "Cloudy", "temperature_c": 15.0,
        "humidity_pct": 62, "wind_kph": 18.0});
    let ask = |q: &str| converse_with(q, &tools, "Cloudy", Some(report.clone()), false).1;
    assert_eq!(
        ask("new york weather?"),
        "The weather in New York is cloudy."
    );
    assert_eq!(ask("NYC weather?"), "The weather in New York is cloudy.");
    assert_eq!(ask("NYC的天气怎么样？"), "New York的天气是多云。");
    assert_eq!(ask("纽约的天气怎么样？"), "纽约的天气是多云。");
    // A server that puts the report in the text block instead is read the same way.
    assert_eq!(
        converse("NYC weather?", &tools, &report.to_string(), false).1,
        "The weather in New York is cloudy."
    );
}

#[test]
fn the_answer_gives_the_temperature_the_result_carries_in_its_units() {
    let tools = weather_tools();
    let report = |units: &str, temperature: f64| {
        json!({"location": "Tokyo", "condition": "Sunny", "temperature": temperature,
            "units": units, "temperature_c": 22.0, "humidity_pct": 55, "wind_kph": 12.0})
    };
    let ask = |q: &str, r: Value| converse_with(q, &tools, "Sunny", Some(r), false);
    let (args, answer) = ask("What's the weather in Tokyo?", report("celsius", 22.0));
    assert_eq!(args, json!({"location": "Tokyo"}));
    assert_eq!(answer, "The weather in Tokyo is sunny, 22 °C.");
    let (args, answer) = ask(
        "What's the weather in Tokyo in fahrenheit?",
        report("fahrenheit", 71.6),
    );
    assert_eq!(args, json!({"location": "Tokyo", "units": "fahrenheit"}));
    assert_eq!(answer, "The weather in Tokyo is sunny, 71.6 °F.");
    assert_eq!(
        ask("东京的天气怎么样？", report("celsius", 22.0)).1,
        "东京的天气是晴天，22 °C。"
    );
    assert_eq!(
        ask("東京の天気は？", report("celsius", 22.0)).1,
        "東京の天気は晴れ、22 °Cです。"
    );
    assert_eq!(
        ask("도쿄의 날씨는 어때요?", report("celsius", 22.0)).1,
        "도쿄의 날씨는 맑음, 22 °C입니다."
    );
}

#[test]
fn an_unknown_city_reaches_the_server_and_its_error_is_reported() {
    let message =
        "No weather data for \"Atlantis\". This demo knows 37 cities, for example: Tokyo.";
    let (args, answer) = converse(
        "What's the weather in Atlantis?",
        &weather_tools(),
        message,
        true,
    );
    assert_eq!(args, json!({"location": "Atlantis"}));
    assert_eq!(
        answer,
        format!("Sorry, the tool get_weather did not succeed: {message}")
    );
    let (args, answer) = converse("亚特兰蒂斯的天气怎么样？", &weather_tools(), message, true);
    assert_eq!(args, json!({"location": "亚特兰蒂斯"}));
    assert!(
        answer.starts_with("抱歉，工具 get_weather 没有成功："),
        "{answer}"
    );
}

#[test]
fn calculator_answers_are_phrased_from_the_result() {
    let tools = calc_tools();
    for (question, result, want) in [
        ("What is 3 times 111?", "333", "3 times 111 is 333."),
        ("Subtract 5 from 9", "4", "9 minus 5 is 4."),
        ("5-3", "2", "5 minus 3 is 2."),
        ("What is 7 plus 8?", "15", "7 plus 8 is 15."),
        ("What is 1 divided by 4?", "0.25", "1 divided by 4 is 0.25."),
        ("3 乘 111 等于多少？", "333", "3 乘 111 等于 333。"),
        ("12 除以 3 等于几？", "4", "12 除以 3 等于 4。"),
        ("3 掛ける 111 は？", "333", "3 掛ける 111 は 333 です。"),
        ("9 から 5 を引くと？", "4", "9 引く 5 は 4 です。"),
    ] {
        assert_eq!(
            converse(question, &tools, result, false).1,
            want,
            "{question}"
        );
    }
    let (args, answer) = converse(
        "What is 1 divided by 0?",
        &tools,
        "Division by zero is not allowed",
        true,
    );
    assert_eq!(args, json!({"a": 1.0, "b": 0.0}));
    assert_eq!(
        answer,
        "Sorry, the tool divide did not succeed: Division by zero is not allowed"
    );
}

/// Every condition the server's table can produce has a Chinese and a Japanese name, and the
/// model knows no condition the server cannot produce.
#[test]
fn every_server_condition_is_translated() {
    let server: BTreeSet<String> = server_conditions().into_iter().collect();
    let known: BTreeSet<String> = CONDITIONS.iter().map(|(en, ..)| (*en).to_owned()).collect();
    assert_eq!(
        server, known,
        "answer::CONDITIONS must list exactly the conditions in tests/fixtures/weather-conditions.json"
    );
}

#[test]
fn every_server_condition_is_answered_in_chinese_and_japanese() {
    let latin = |s: &str| s.chars().any(|c| c.is_ascii_alphabetic());
    let conditions = server_conditions();
    assert!(!conditions.is_empty());
    for condition in &conditions {
        for (lang, place, opening, closing) in [
            (Lang::Zh, "东京", "东京的天气是", "。"),
            (Lang::Ja, "東京", "東京の天気は", "です。"),
        ] {
            let answer = weather_with(lang, place, condition, None);
            let translated = condition_in(lang, condition)
                .unwrap_or_else(|| panic!("{condition} has no {lang:?} name"));
            assert_eq!(answer, format!("{opening}{translated}{closing}"));
            assert!(!latin(&answer), "{lang:?} {condition}: {answer}");
        }
        assert_eq!(
            weather_with(Lang::En, "Tokyo", condition, None),
            format!("The weather in Tokyo is {}.", condition.to_lowercase())
        );
    }
}

#[test]
fn an_unknown_condition_is_quoted_as_the_tool_wrote_it() {
    assert_eq!(
        weather_with(Lang::Zh, "东京", "Volcanic ash", None),
        "东京的天气是“Volcanic ash”。"
    );
    assert_eq!(
        weather_with(Lang::Ja, "東京", "Volcanic ash", None),
        "東京の天気は「Volcanic ash」です。"
    );
}

#[test]
fn replies_without_a_tool_say_it_is_a_rules_model_and_name_the_tools() {
    let tools = [weather_tools(), calc_tools()].concat();
    for (question, says) in [
        ("Hello!", "rules model"),
        ("你好", "规则模型"),
        ("こんにちは", "ルールで動くモデル"),
    ] {
        match decide(&[ChatMessage::User(question.into())], &tools) {
            LlmReply::Text(text) => {
                assert!(text.contains(says), "{text}");
                assert!(
                    text.contains("get_weather") && text.contains("divide"),
                    "{text}"
                );
            }
            other => panic!("{question}: {other:?}"),
        }
    }
    match decide(
        &[ChatMessage::User("Add or subtract 3 and 4?".into())],
        &tools,
    ) {
        LlmReply::Text(text) => assert!(text.contains("add, subtract"), "{text}"),
        other => panic!("{other:?}"),
    }
    match decide(&[ChatMessage::User("Hello!".into())], &[]) {
        LlmReply::Text(text) => assert!(text.contains("no tools"), "{text}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_missing_argument_is_asked_for_in_the_question_language() {
    let tools = weather_tools();
    for (question, want) in [
        (
            "What's the weather like?",
            "To use get_weather I need the \"location\" argument. Could you tell me?",
        ),
        (
            "天气怎么样？",
            "要使用 get_weather，我需要参数“location”。请告诉我。",
        ),
        (
            "天気はどう？",
            "get_weather を使うには引数「location」が必要です。教えてください。",
        ),
    ] {
        assert_eq!(
            decide(&[ChatMessage::User(question.into())], &tools),
            LlmReply::Text(want.into())
        );
    }
}

#[test]
fn the_model_stays_deterministic() {
    let tools = [weather_tools(), calc_tools()].concat();
    for question in [
        "What's the weather in Tokyo?",
        "5-3",
        "Hello",
        "東京の天気は？",
    ] {
        let first = choose(question, &tools);
        assert_eq!(choose(question, &tools), first, "{question}");
    }
    assert_eq!(
        choose("What is 3 times 111?", &tools),
        Decision::Call(ToolCall {
            id: "call_1".into(),
            name: "multiply".into(),
            arguments: json!({"a": 3.0, "b": 111.0}),
        })
    );
}

/// The page's `/packing` preset asks for advice: the offline model picks the tool that asks the
/// client, not `get_weather` beside it, in both languages of the preset's example question.
#[test]
fn the_packing_presets_question_calls_packing_advice() {
    let tools = tools_from(PACKING_TOOLS);
    for (question, place) in [
        ("Packing advice for Tokyo", "Tokyo"),
        ("东京旅行的打包建议", "东京"),
        ("东京的打包建议", "东京"),
    ] {
        match choose(question, &tools) {
            Decision::Call(call) => {
                assert_eq!(call.name, "packing_advice", "{question}");
                assert_eq!(call.arguments, json!({"location": place}), "{question}");
            }
            other => panic!("{question}: {other:?}"),
        }
    }
    match choose("What's the weather in Tokyo?", &tools) {
        Decision::Call(call) => assert_eq!(call.name, "get_weather"),
        other => panic!("{other:?}"),
    }
}

/// A free-text parameter (not a place, not a number) takes the text the question quotes: the
/// reference `server-everything`'s sampling tool, called the way a user would ask for it.
#[test]
fn a_quoted_text_fills_a_free_text_parameter() {
    let tool = ToolSpec {
        name: "trigger-sampling-request".into(),
        description: "Trigger a Request from the Server for LLM Sampling".into(),
        input_schema: json!({"type": "object", "properties": {
            "prompt": {"type": "string", "description": "The prompt to send to the LLM"},
            "maxTokens": {"type": "number", "default": 100}},
            "required": ["prompt"]}),
        ..Default::default()
    };
    let echo = ToolSpec {
        name: "echo".into(),
        description: "Echoes back the input string".into(),
        input_schema: json!({"type": "object", "properties": {"message": {"type": "string"}},
            "required": ["message"]}),
        ..Default::default()
    };
    let tools = [tool, echo];
    match choose(
        r#"Trigger a sampling request with the prompt "Say hi""#,
        &tools,
    ) {
        Decision::Call(call) => {
            assert_eq!(call.name, "trigger-sampling-request");
            assert_eq!(call.arguments, json!({"prompt": "Say hi"}));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        choose("Trigger LLM sampling", &tools),
        Decision::Missing {
            tool: "trigger-sampling-request".into(),
            argument: "prompt".into()
        },
        "nothing quoted: the argument is asked for"
    );
}
