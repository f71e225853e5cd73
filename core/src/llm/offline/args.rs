//! Filling a tool's arguments from the question, by the tool's input schema: numbers for
//! `number` and `integer` parameters, the place for a string parameter that names a place, text
//! the question quotes for any other string parameter ("…with the prompt \"Say hi\""), and
//! an optional parameter with a list of values (`enum`) when the question names one ("in
//! fahrenheit").

use serde_json::{Map, Value, json};

use super::place::place;
use super::text::{Question, Token};
use crate::llm::ToolSpec;

/// Parameter names that hold a place.
const PLACE_PARAMS: &[&str] = &["location", "city", "place", "town", "region", "area"];

/// Words in a parameter's description that say it holds a place.
const PLACE_WORDS: &[&str] = &["city", "location", "place", "town"];

/// Whether the parameter `name` (with its schema `property`) holds a place.
pub fn is_place_param(name: &str, property: Option<&Value>) -> bool {
    let described = property
        .and_then(|p| p.get("description"))
        .and_then(Value::as_str)
        .map(super::pick::words_of)
        .is_some_and(|words| words.iter().any(|w| PLACE_WORDS.contains(&w.as_str())));
    PLACE_PARAMS.contains(&name.to_lowercase().as_str()) || described
}

/// The schema's required parameter names, in order.
pub fn required(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The question's numbers in the order the operation takes them: as written, except that
/// "5 from 9" (subtract 5 from 9, take 5 away from 9) is 9 then 5.
pub fn operands(question: &Question) -> Vec<f64> {
    let tokens = question.tokens();
    let numbers: Vec<(usize, f64)> = tokens
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t.kind {
            super::text::Kind::Number(n) => Some((i, n)),
            _ => None,
        })
        .collect();
    let mut out: Vec<f64> = numbers.iter().map(|&(_, n)| n).collect();
    let word = |i: usize| tokens.get(i).and_then(Token::word);
    for (k, pair) in numbers.windows(2).enumerate() {
        let (first, second) = (pair[0].0, pair[1].0);
        let between: Vec<String> = (first + 1..second).filter_map(word).collect();
        let from = match between.as_slice() {
            [from] => from == "from",
            [away, from] => away == "away" && from == "from",
            _ => false,
        };
        if from {
            out.swap(k, k + 1);
            break;
        }
    }
    out
}

/// Why the question does not give a tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gap {
    /// This required argument is missing.
    Missing(String),
    /// The question has more numbers than the tool takes ("3 times 4 times 5"): one call
    /// cannot answer it.
    ExtraNumbers { given: usize, taken: usize },
}

/// The arguments for `tool`, or what the question lacks for them.
pub fn arguments(question: &Question, tool: &ToolSpec, anchors: &[usize]) -> Result<Value, Gap> {
    let properties = tool.input_schema.get("properties");
    let given = operands(question);
    let mut numbers = given.iter().copied();
    let mut quotes = quoted(&question.text).into_iter();
    let mut args = Map::new();
    for name in required(&tool.input_schema) {
        let property = properties.and_then(|p| p.get(name));
        let kind = property
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str)
            .unwrap_or("string");
        let value = match kind {
            "number" => numbers.next().map(|n| json!(n)),
            "integer" => numbers
                .next()
                .filter(|n| n.fract() == 0.0 && n.abs() < 9.0e15)
                .map(|n| json!(n as i64)),
            "string" if is_place_param(name, property) => place(question, anchors).map(Value::from),
            "string" => quotes.next().map(Value::from),
            _ => None,
        };
        let Some(value) = value else {
            return Err(Gap::Missing(name.to_owned()));
        };
        args.insert(name.to_owned(), value);
    }
    // Optional choices the question names, word for word.
    let words: Vec<String> = question.tokens().iter().filter_map(Token::word).collect();
    let optional = properties
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(name, _)| !args.contains_key(*name));
    let mut named = Vec::new();
    for (name, property) in optional {
        let choices = property.get("enum").and_then(Value::as_array);
        let choice = choices.into_iter().flatten().find_map(|v| {
            let value = v.as_str()?;
            words
                .iter()
                .any(|w| w.eq_ignore_ascii_case(value))
                .then(|| value.to_owned())
        });
        if let Some(choice) = choice {
            named.push((name.clone(), Value::from(choice)));
        }
    }
    args.extend(named);
    let taken = given.len() - numbers.len();
    if taken > 0 && numbers.len() > 0 {
        return Err(Gap::ExtraNumbers {
            given: given.len(),
            taken,
        });
    }
    Ok(Value::Object(args))
}

/// The texts `text` quotes, in order: between "…", “…” or 「…」, not empty.
pub fn quoted(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['"', '“', '「']) {
        let open = rest[at..].chars().next().unwrap_or('"');
        let close = match open {
            '“' => '”',
            '「' => '」',
            _ => '"',
        };
        let after = &rest[at + open.len_utf8()..];
        let Some(end) = after.find(close) else {
            break;
        };
        let inner = after[..end].trim();
        if !inner.is_empty() {
            found.push(inner.to_owned());
        }
        rest = &after[end + close.len_utf8()..];
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_is_found_in_any_of_the_usual_quotes() {
        assert_eq!(
            quoted(r#"Echo "hello there" and "bye""#),
            ["hello there", "bye"]
        );
        assert_eq!(quoted("Say “hi” 「やあ」"), ["hi", "やあ"]);
        assert!(quoted(r#"a "" b "unclosed"#).is_empty());
    }

    #[test]
    fn from_puts_the_number_taken_away_second() {
        assert_eq!(operands(&Question::new("Subtract 5 from 9")), [9.0, 5.0]);
        assert_eq!(operands(&Question::new("take 3 away from 10")), [10.0, 3.0]);
        assert_eq!(operands(&Question::new("What is 10 minus 4?")), [10.0, 4.0]);
        assert_eq!(operands(&Question::new("5-3")), [5.0, 3.0]);
    }

    #[test]
    fn an_optional_choice_the_question_names_is_passed_and_no_other() {
        let tool = ToolSpec {
            name: "get_weather".into(),
            description: "Get the current weather for a city".into(),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "location": {"type": "string"},
                    "units": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    "style": {"type": "string"}
                },
                "required": ["location"]
            }),
            badges: Vec::new(),
        };
        let args = |q: &str| {
            let question = Question::new(q);
            let anchors: Vec<usize> = question
                .tokens()
                .iter()
                .enumerate()
                .filter(|(_, t)| t.word().as_deref() == Some("weather"))
                .map(|(i, _)| i)
                .collect();
            arguments(&question, &tool, &anchors).expect("arguments")
        };
        assert_eq!(
            args("Weather in Oslo in Fahrenheit?"),
            json!({"location": "Oslo", "units": "fahrenheit"})
        );
        assert_eq!(args("Oslo weather"), json!({"location": "Oslo"}));
        assert_eq!(
            args("Oslo weather, celsiusly"),
            json!({"location": "Oslo"}),
            "whole words only"
        );
    }

    #[test]
    fn a_place_parameter_is_known_by_its_name_or_its_description() {
        assert!(is_place_param("location", None));
        assert!(is_place_param(
            "q",
            Some(&json!({"type": "string", "description": "City name"}))
        ));
        assert!(!is_place_param(
            "q",
            Some(&json!({"type": "string", "description": "Search query"}))
        ));
    }
}
