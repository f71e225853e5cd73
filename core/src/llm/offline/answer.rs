//! What the model says, in the question's language: the final answer from a tool result, and
//! the replies without a tool (no tool fits, a tie, a missing argument).
//!
//! The final answer reads the tool result the host passes: the text blocks
//! (`ChatMessage::ToolResult::content`, for `get_weather` the bare condition "Sunny") and the
//! result's `structuredContent`. With structured content the answer takes the condition and the
//! place as the server names it ("New York" for "new york") and the temperature it reports; without it (a server that sends
//! text only, or a text that is itself the JSON report) it names the place as the tool call did,
//! capitalising a lower-case place.

use serde_json::Value;

use super::args::{is_place_param, required};
use super::pick::words_of;
use super::text::{Lang, is_cjk};
use crate::llm::{ToolCall, ToolSpec};

/// Every condition the weather server can return (its city table; the tests check this list
/// against `tests/fixtures/weather-conditions.json`), in Chinese, Japanese and Korean.
pub const CONDITIONS: [(&str, &str, &str, &str); 19] = [
    ("Sunny", "晴天", "晴れ", "맑음"),
    ("Partly cloudy", "局部多云", "晴れ時々曇り", "구름 조금"),
    ("Cloudy", "多云", "曇り", "흐림"),
    ("Clear", "晴朗", "快晴", "쾌청"),
    ("Hazy", "雾霾", "かすみ", "옅은 안개"),
    ("Light rain", "小雨", "小雨", "약한 비"),
    ("Showers", "阵雨", "にわか雨", "소나기"),
    ("Thunderstorms", "雷阵雨", "雷雨", "뇌우"),
    ("Humid", "潮湿", "蒸し暑い", "습함"),
    ("Hot", "炎热", "暑い", "더움"),
    ("Haze", "霾", "煙霧", "연무"),
    ("Windy", "大风", "強風", "강풍"),
    ("Drizzle", "毛毛雨", "霧雨", "이슬비"),
    ("Overcast", "阴天", "どんより曇り", "잔뜩 흐림"),
    ("Snow", "下雪", "雪", "눈"),
    ("Foggy", "雾天", "霧", "안개"),
    ("Light snow", "小雪", "小雪", "약한 눈"),
    ("Rain", "下雨", "雨", "비"),
    ("Sleet", "雨夹雪", "みぞれ", "진눈깨비"),
];

/// The condition in `lang`, when the model knows it.
pub fn condition_in(lang: Lang, condition: &str) -> Option<&'static str> {
    let (_, zh, ja, ko) = CONDITIONS
        .iter()
        .find(|(en, ..)| en.eq_ignore_ascii_case(condition))?;
    match lang {
        Lang::En => None,
        Lang::Zh => Some(zh),
        Lang::Ja => Some(ja),
        Lang::Ko => Some(ko),
    }
}

/// The weather sentence: "The weather in Tokyo is sunny." / "东京的天气是晴天。" /
/// "東京の天気は晴れです。", with the temperature when the result carries one ("The weather in
/// Tokyo is sunny, 22 °C."). A condition the model does not know is quoted as the tool wrote it.
pub fn weather_with(lang: Lang, place: &str, condition: &str, degrees: Option<&str>) -> String {
    let (en, cjk) = match degrees {
        Some(d) => (format!(", {d}"), format!("，{d}")),
        None => (String::new(), String::new()),
    };
    let ja = degrees.map(|d| format!("、{d}")).unwrap_or_default();
    match (lang, condition_in(lang, condition)) {
        (Lang::En, _) => format!(
            "The weather in {place} is {}{en}.",
            condition.to_lowercase()
        ),
        (Lang::Zh, Some(zh)) => format!("{place}的天气是{zh}{cjk}。"),
        (Lang::Zh, None) => format!("{place}的天气是“{condition}”{cjk}。"),
        (Lang::Ja, Some(ja_condition)) => format!("{place}の天気は{ja_condition}{ja}です。"),
        (Lang::Ja, None) => format!("{place}の天気は「{condition}」{ja}です。"),
        (Lang::Ko, Some(ko)) => format!("{place}의 날씨는 {ko}{en}입니다."),
        (Lang::Ko, None) => format!("{place}의 날씨는 \"{condition}\"{en}입니다."),
    }
}

/// "22 °C" from a result's `temperature` and `units` (celsius unless it says fahrenheit).
fn degrees(structured: Option<&Value>) -> Option<String> {
    let temperature = structured?.get("temperature")?.as_f64()?;
    let unit = match structured?.get("units").and_then(Value::as_str) {
        Some(u) if u.eq_ignore_ascii_case("fahrenheit") => "°F",
        _ => "°C",
    };
    Some(format!(
        "{} {unit}",
        number((temperature * 10.0).round() / 10.0)
    ))
}

/// The calculator operations: (the word in a tool name, English, Chinese, Japanese, Korean).
const OPERATIONS: [(&str, &str, &str, &str, &str); 4] = [
    ("add", "plus", "加", "足す", "더하기"),
    ("subtract", "minus", "减", "引く", "빼기"),
    ("multiply", "times", "乘", "掛ける", "곱하기"),
    ("divide", "divided by", "除以", "割る", "나누기"),
];

/// "3 times 111 is 333." / "3 乘 111 等于 333。" / "3 掛ける 111 は 333 です。"
pub fn calculation(lang: Lang, operation: &str, a: f64, b: f64, result: &str) -> Option<String> {
    let (_, en, zh, ja, ko) = OPERATIONS.iter().find(|(op, ..)| *op == operation)?;
    let (a, b) = (number(a), number(b));
    Some(match lang {
        Lang::En => format!("{a} {en} {b} is {result}."),
        Lang::Zh => format!("{a} {zh} {b} 等于 {result}。"),
        Lang::Ja => format!("{a} {ja} {b} は {result} です。"),
        Lang::Ko => format!("{a} {ko} {b}는 {result}입니다."),
    })
}

/// 333 rather than 333.0, as the calculator writes its results.
fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

/// The final answer, given the tool call and what came back.
pub fn from_result(
    lang: Lang,
    call: &ToolCall,
    tool: Option<&ToolSpec>,
    content: &str,
    structured: Option<&Value>,
    is_error: bool,
) -> String {
    let content = content.trim();
    if is_error {
        return match lang {
            Lang::En => format!("Sorry, the tool {} did not succeed: {content}", call.name),
            Lang::Zh => format!("抱歉，工具 {} 没有成功：{content}", call.name),
            Lang::Ja => format!(
                "申し訳ありません。ツール {} は失敗しました：{content}",
                call.name
            ),
            Lang::Ko => format!(
                "죄송합니다. 도구 {}이(가) 실패했습니다: {content}",
                call.name
            ),
        };
    }
    let parsed: Option<Value> = serde_json::from_str(content).ok().filter(Value::is_object);
    let structured = structured.filter(|v| v.is_object()).or(parsed.as_ref());
    weather_answer(lang, call, tool, content, structured)
        .or_else(|| calculator_answer(lang, call, tool, content, structured))
        .unwrap_or_else(|| match lang {
            Lang::En => format!("The tool {} answered: {content}", call.name),
            Lang::Zh => format!("工具 {} 的结果：{content}", call.name),
            Lang::Ja => format!("ツール {} の結果：{content}", call.name),
            Lang::Ko => format!("도구 {}의 결과: {content}", call.name),
        })
}

fn weather_answer(
    lang: Lang,
    call: &ToolCall,
    tool: Option<&ToolSpec>,
    content: &str,
    structured: Option<&Value>,
) -> Option<String> {
    let about_weather = words_of(&call.name).iter().any(|w| w == "weather")
        || tool.is_some_and(|t| words_of(&t.description).iter().any(|w| w == "weather"));
    if !about_weather {
        return None;
    }
    let properties = tool.and_then(|t| t.input_schema.get("properties"));
    let asked = call
        .arguments
        .as_object()?
        .iter()
        .find_map(|(name, value)| {
            let property = properties.and_then(|p| p.get(name));
            value.as_str().filter(|_| is_place_param(name, property))
        })?;
    let field = |key: &str| structured.and_then(|s| s.get(key)).and_then(Value::as_str);
    let condition = field("condition")
        .or_else(|| content.lines().next())?
        .trim()
        .trim_end_matches('.');
    // The tool's canonical name, except that a Chinese or Japanese answer keeps a place the
    // user wrote in CJK script.
    let place = match field("location") {
        Some(_) if lang != Lang::En && asked.chars().any(is_cjk) => asked,
        Some(canonical) => canonical,
        None => asked,
    };
    let degrees = degrees(structured);
    (!condition.is_empty()).then(|| weather_with(lang, place, condition, degrees.as_deref()))
}

fn calculator_answer(
    lang: Lang,
    call: &ToolCall,
    tool: Option<&ToolSpec>,
    content: &str,
    structured: Option<&Value>,
) -> Option<String> {
    let name_words = words_of(&call.name);
    let operation = OPERATIONS
        .iter()
        .map(|(op, ..)| *op)
        .find(|op| name_words.iter().any(|w| w == op))?;
    let order: Vec<&str> = match tool {
        Some(t) => required(&t.input_schema),
        None => call
            .arguments
            .as_object()?
            .keys()
            .map(String::as_str)
            .collect(),
    };
    let operands: Vec<f64> = order
        .iter()
        .filter_map(|k| call.arguments.get(*k).and_then(Value::as_f64))
        .collect();
    let [a, b] = operands.as_slice() else {
        return None;
    };
    let result = match structured
        .and_then(|s| s.get("result"))
        .and_then(Value::as_f64)
    {
        Some(r) => number(r),
        None => number(content.parse::<f64>().ok()?),
    };
    calculation(lang, operation, *a, *b, &result)
}

/// No tool fits the question (or several fit equally well).
pub fn no_tool(lang: Lang, tools: &[ToolSpec], tie: &[&str]) -> String {
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    match lang {
        Lang::En => {
            let me = "I am the built-in offline model: a deterministic rules model, not an LLM.";
            if names.is_empty() {
                format!("{me} I have no tools, so I cannot answer that.")
            } else if tie.is_empty() {
                format!(
                    "{me} None of my tools fits that question. I can use: {}.",
                    names.join(", ")
                )
            } else {
                format!(
                    "{me} My tools {} fit that question equally well, so I will not guess. \
                     Could you say which operation you mean?",
                    tie.join(", ")
                )
            }
        }
        Lang::Zh => {
            let me = "我是内置的离线模型：确定性的规则模型，不是大语言模型。";
            if names.is_empty() {
                format!("{me}我没有工具，回答不了这个问题。")
            } else if tie.is_empty() {
                format!(
                    "{me}这个问题用不上我的工具。我能用的工具：{}。",
                    names.join("、")
                )
            } else {
                format!(
                    "{me}工具 {} 同样合适，我不猜。请说明你要哪一种。",
                    tie.join("、")
                )
            }
        }
        Lang::Ja => {
            let me =
                "私は内蔵のオフラインモデルです。決まったルールで動くモデルで、LLMではありません。";
            if names.is_empty() {
                format!("{me}ツールがないので、お答えできません。")
            } else if tie.is_empty() {
                format!(
                    "{me}この質問に合うツールはありません。使えるツール：{}。",
                    names.join("、")
                )
            } else {
                format!(
                    "{me}ツール {} が同じくらい合うので、推測はしません。どれのことか教えてください。",
                    tie.join("、")
                )
            }
        }
        Lang::Ko => {
            let me =
                "저는 내장 오프라인 모델입니다. 정해진 규칙으로 동작하는 모델이며 LLM이 아닙니다.";
            if names.is_empty() {
                format!("{me} 도구가 없어서 답할 수 없습니다.")
            } else if tie.is_empty() {
                format!(
                    "{me} 이 질문에 맞는 도구가 없습니다. 사용할 수 있는 도구: {}.",
                    names.join(", ")
                )
            } else {
                format!(
                    "{me} 도구 {}이(가) 똑같이 맞아서 추측하지 않겠습니다. 어느 것인지 알려 주세요.",
                    tie.join(", ")
                )
            }
        }
    }
}

/// The chosen tool needs an argument the question does not give.
pub fn missing(lang: Lang, tool: &str, argument: &str) -> String {
    match lang {
        Lang::En => format!("To use {tool} I need the \"{argument}\" argument. Could you tell me?"),
        Lang::Zh => format!("要使用 {tool}，我需要参数“{argument}”。请告诉我。"),
        Lang::Ja => format!("{tool} を使うには引数「{argument}」が必要です。教えてください。"),
        Lang::Ko => {
            format!("{tool}을(를) 사용하려면 \"{argument}\" 인수가 필요합니다. 알려 주시겠어요?")
        }
    }
}

/// The question has more numbers than the chosen tool takes.
pub fn too_many_numbers(lang: Lang, tool: &str, taken: usize) -> String {
    match lang {
        Lang::En => format!(
            "{tool} takes {taken} numbers and your question has more. I make one tool call per \
             question; could you ask one operation at a time?"
        ),
        Lang::Zh => format!(
            "{tool} 只接受 {taken} 个数，你的问题里有更多。我每个问题只调用一次工具，请一次问一步运算。"
        ),
        Lang::Ja => format!(
            "{tool} が受け取る数は {taken} 個ですが、質問にはそれより多くあります。一度に一つの計算を聞いてください。"
        ),
        Lang::Ko => format!(
            "{tool}은(는) 숫자를 {taken}개 받는데 질문에는 더 많습니다. 한 번에 하나의 계산을 물어봐 주세요."
        ),
    }
}
