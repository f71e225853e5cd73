//! The offline model's question table: each question with the RIGHT decision for the tools the
//! servers really list (the correct tool and arguments as the server defines them, asking for a
//! missing argument, or no tool), never what the code happened to print. An unknown city is
//! still a correct `get_weather` call: the server answers it with an `isError` result.

use serde_json::{Value, json};

use super::tests::{calc_tools, weather_tools};
use super::{Decision, choose};
use crate::llm::ToolSpec;

#[derive(Debug, Clone, Copy)]
pub(super) enum Tools {
    Weather,
    Calc,
    Both,
    None,
}

pub(super) enum Expect {
    /// Call this tool with exactly these arguments.
    Call(&'static str, Value),
    /// Ask for this argument of the best tool.
    Ask(&'static str),
    /// Answer without a tool (nothing fits).
    NoTool,
    /// Answer without a tool because these tools fit equally well.
    Tie(&'static [&'static str]),
    /// Answer without a tool: the question needs more than one calculation.
    TooMany,
}

pub(super) use Expect::{Ask, Call, NoTool, Tie, TooMany};
pub(super) use Tools::{Both, Calc, Weather};

pub(super) fn weather(location: &str) -> Expect {
    Call("get_weather", json!({ "location": location }))
}

/// The calculator computes `a <op> b` (`subtract` is a − b, `divide` is a ÷ b).
pub(super) fn calc(tool: &'static str, a: f64, b: f64) -> Expect {
    Call(tool, json!({"a": a, "b": b}))
}

fn table() -> Vec<(&'static str, Tools, Expect)> {
    vec![
        // Weather, English: places after a preposition, beside "weather", lower case, unknown.
        ("What's the weather in Tokyo?", Weather, weather("Tokyo")),
        ("what is the weather in tokyo", Weather, weather("Tokyo")),
        (
            "How's the weather in Paris today?",
            Weather,
            weather("Paris"),
        ),
        (
            "Weather for New York, please.",
            Weather,
            weather("New York"),
        ),
        (
            "Tell me the forecast for Berlin.",
            Weather,
            weather("Berlin"),
        ),
        (
            "What's the temperature at Sydney right now?",
            Weather,
            weather("Sydney"),
        ),
        ("Is it going to rain in London?", Weather, weather("London")),
        ("Tokyo weather?", Weather, weather("Tokyo")),
        ("weather San Francisco", Weather, weather("San Francisco")),
        ("new york weather", Weather, weather("New York")),
        (
            "Could you check the weather in Rio de Janeiro for me?",
            Weather,
            weather("Rio de Janeiro"),
        ),
        (
            "What's the weather like in Tokyo, Japan?",
            Weather,
            weather("Tokyo, Japan"),
        ),
        ("Is it sunny in Cairo?", Weather, weather("Cairo")),
        ("What's it like in Paris?", Weather, weather("Paris")),
        (
            "What's the weather for tomorrow in Moscow?",
            Weather,
            weather("Moscow"),
        ),
        ("How hot is it in Dubai?", Weather, weather("Dubai")),
        (
            "What's the weather in Atlantis?",
            Weather,
            weather("Atlantis"),
        ),
        ("What's the weather in Tokyo?", Both, weather("Tokyo")),
        ("What's the weather in Hanover?", Both, weather("Hanover")),
        ("Is it cold in Reykjavik?", Both, weather("Reykjavik")),
        // Weather, Chinese: the place as written.
        ("东京的天气怎么样？", Weather, weather("东京")),
        ("北京今天天气如何？", Weather, weather("北京")),
        ("上海会下雨吗？", Weather, weather("上海")),
        ("伦敦天气", Weather, weather("伦敦")),
        ("请问香港的天气？", Weather, weather("香港")),
        ("纽约的天气怎么样？", Both, weather("纽约")),
        ("新加坡的天气怎么样？", Both, weather("新加坡")),
        ("亚特兰蒂斯的天气怎么样？", Weather, weather("亚特兰蒂斯")),
        // Weather, Japanese.
        ("東京の天気は？", Weather, weather("東京")),
        ("大阪の天気を教えて", Weather, weather("大阪")),
        ("今日の京都の天気は？", Weather, weather("京都")),
        ("ロンドンの天気はどうですか？", Both, weather("ロンドン")),
        ("明日、札幌は雪が降りますか？", Weather, weather("札幌")),
        // Weather, Korean (Hangul: a CJK script, particles joined to the place).
        ("대구의 날씨는 어때요?", Weather, weather("대구")),
        ("도쿄 기온은?", Both, weather("도쿄")),
        // The conditions the server reports, and what it measures.
        ("Is it foggy in London?", Weather, weather("London")),
        (
            "What's the humidity in Singapore?",
            Weather,
            weather("Singapore"),
        ),
        ("Is it snowy in Oslo?", Both, weather("Oslo")),
        // An optional choice the question names.
        (
            "What's the weather in Tokyo in fahrenheit?",
            Weather,
            Call(
                "get_weather",
                json!({"location": "Tokyo", "units": "fahrenheit"}),
            ),
        ),
        // Calculator, English.
        ("What is 3 times 111?", Calc, calc("multiply", 3.0, 111.0)),
        ("What is 3 times 111?", Both, calc("multiply", 3.0, 111.0)),
        ("Add 2 and 40", Calc, calc("add", 2.0, 40.0)),
        ("What is 7 plus 8?", Both, calc("add", 7.0, 8.0)),
        ("What is the sum of 3 and 4?", Calc, calc("add", 3.0, 4.0)),
        ("2+2", Both, calc("add", 2.0, 2.0)),
        ("What is 10 minus 4?", Calc, calc("subtract", 10.0, 4.0)),
        ("Subtract 5 from 9", Calc, calc("subtract", 9.0, 5.0)),
        ("5-3", Calc, calc("subtract", 5.0, 3.0)),
        ("What is 1 divided by 0?", Calc, calc("divide", 1.0, 0.0)),
        ("What is 20 over 4?", Both, calc("divide", 20.0, 4.0)),
        ("Multiply 2.5 by 4", Calc, calc("multiply", 2.5, 4.0)),
        ("Take 3 away from 10", Calc, calc("subtract", 10.0, 3.0)),
        ("What's 6 x 7?", Both, calc("multiply", 6.0, 7.0)),
        ("What is 15 - 20?", Calc, calc("subtract", 15.0, 20.0)),
        // Calculator, Chinese and Japanese.
        ("12 乘 3 等于多少？", Calc, calc("multiply", 12.0, 3.0)),
        ("5 加 6 是多少", Calc, calc("add", 5.0, 6.0)),
        ("10 减 4 是多少？", Both, calc("subtract", 10.0, 4.0)),
        ("12 除以 3 等于几？", Calc, calc("divide", 12.0, 3.0)),
        ("３×４は？", Calc, calc("multiply", 3.0, 4.0)),
        ("3 足す 4 は？", Calc, calc("add", 3.0, 4.0)),
        ("9 から 5 を引くと？", Calc, calc("subtract", 9.0, 5.0)),
        ("12 を 3 で割ると？", Both, calc("divide", 12.0, 3.0)),
        // A missing argument is asked for.
        ("What's the weather like?", Weather, Ask("location")),
        ("天气怎么样？", Weather, Ask("location")),
        ("天気はどう？", Weather, Ask("location")),
        ("Multiply 3 by what?", Calc, Ask("b")),
        // No tool: greetings, what the model can do, other topics, "over" and "times" in other
        // senses, a city without the weather, an operation no tool has, an ambiguous one.
        ("Hello!", Both, NoTool),
        ("Hello!", Tools::None, NoTool),
        ("What can you do?", Both, NoTool),
        ("Thanks, that's all.", Both, NoTool),
        ("Who wrote Hamlet?", Weather, NoTool),
        ("Tell me a joke", Both, NoTool),
        ("What's the capital of France?", Both, NoTool),
        ("Is the game over?", Calc, NoTool),
        ("How far is Hanover from Berlin?", Both, NoTool),
        ("What time is it?", Both, NoTool),
        ("How many times have I asked?", Both, NoTool),
        ("What is 2 to the power of 3?", Calc, NoTool),
        ("Add or subtract 3 and 4?", Calc, Tie(&["add", "subtract"])),
        ("What is 3 times 4 times 5?", Calc, TooMany),
        ("你好", Both, NoTool),
        ("谢谢！", Both, NoTool),
        ("东京的人口是多少？", Both, NoTool),
        ("こんにちは、何ができますか？", Both, NoTool),
        ("안녕하세요", Both, NoTool),
    ]
}

pub(super) fn tools(which: Tools) -> Vec<ToolSpec> {
    match which {
        Tools::Weather => weather_tools(),
        Tools::Calc => calc_tools(),
        Tools::Both => [weather_tools(), calc_tools()].concat(),
        Tools::None => Vec::new(),
    }
}

pub(super) fn matches(expect: &Expect, got: &Decision) -> bool {
    match (expect, got) {
        (Call(name, args), Decision::Call(call)) => call.name == *name && call.arguments == *args,
        (Ask(argument), Decision::Missing { argument: a, .. }) => a == argument,
        (NoTool, Decision::NoTool { tie }) => tie.is_empty(),
        (Tie(names), Decision::NoTool { tie }) => tie == names,
        (TooMany, Decision::TooManyNumbers { .. }) => true,
        _ => false,
    }
}

#[test]
fn the_question_table() {
    let table = table();
    let mut failures = Vec::new();
    for (question, which, expect) in &table {
        let got = choose(question, &tools(*which));
        if !matches(expect, &got) {
            failures.push(format!("{question} ({which:?}) -> {got:?}"));
        }
    }
    let refusals = table
        .iter()
        .filter(|(_, _, e)| matches!(e, NoTool | Tie(_) | TooMany))
        .count();
    println!(
        "offline model table: {}/{} right ({refusals} without a tool)",
        table.len() - failures.len(),
        table.len()
    );
    assert!(
        failures.is_empty(),
        "wrong decisions:\n{}",
        failures.join("\n")
    );
}
