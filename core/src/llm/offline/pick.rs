//! Which tool fits a question: the question's terms against each tool's name and description.
//!
//! A term is a word of the question, or the meaning of a synonym found in it ("forecast" means
//! "weather", "5-3" means "subtract"). Meanings only help a tool whose own name or description
//! uses them, so the rules follow the tools the server lists. Words match whole ("Hanover" is
//! not "over"); operator words count only between numbers ("10 over 2", "3 times 4").

use super::text::{Kind, Question, Token, is_cjk};
use crate::llm::ToolSpec;

/// Where a synonym counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Anywhere in the question (whole words for Latin script, as written for CJK).
    Word,
    /// Between two numbers: "3 times 4", "12 乘 3"; for CJK anywhere after the first of at least
    /// two numbers, since Japanese puts the verb last ("12 を 3 で割る").
    Infix,
    /// Anywhere, when the question has at least two numbers ("the sum of 2 and 3").
    WithOperands,
}

use Form::{Infix, WithOperands, Word};

/// (term, meaning, where it counts).
const SYNONYMS: &[(&str, &str, Form)] = &[
    ("forecast", "weather", Word),
    ("temperature", "weather", Word),
    ("sunny", "weather", Word),
    ("rain", "weather", Word),
    ("raining", "weather", Word),
    ("rainy", "weather", Word),
    ("snow", "weather", Word),
    ("snowing", "weather", Word),
    ("umbrella", "weather", Word),
    ("hot", "weather", Word),
    ("cold", "weather", Word),
    ("warm", "weather", Word),
    ("humid", "weather", Word),
    ("windy", "weather", Word),
    ("cloudy", "weather", Word),
    // The other conditions the weather server reports, and what it measures.
    ("humidity", "weather", Word),
    ("wind", "weather", Word),
    ("fog", "weather", Word),
    ("foggy", "weather", Word),
    ("snowy", "weather", Word),
    ("overcast", "weather", Word),
    ("thunderstorm", "weather", Word),
    ("thunderstorms", "weather", Word),
    ("stormy", "weather", Word),
    ("drizzle", "weather", Word),
    ("sleet", "weather", Word),
    ("haze", "weather", Word),
    ("hazy", "weather", Word),
    ("showers", "weather", Word),
    ("天气", "weather", Word),
    ("天氣", "weather", Word),
    ("天気", "weather", Word),
    ("气温", "weather", Word),
    ("氣溫", "weather", Word),
    ("気温", "weather", Word),
    ("下雨", "weather", Word),
    ("下雪", "weather", Word),
    ("晴れ", "weather", Word),
    ("雨が", "weather", Word),
    ("降り", "weather", Word),
    ("降る", "weather", Word),
    ("暑い", "weather", Word),
    ("寒い", "weather", Word),
    ("温度", "weather", Word),
    ("湿度", "weather", Word),
    ("雾", "weather", Word),
    ("霧", "weather", Word),
    ("雪", "weather", Word),
    ("날씨", "weather", Word),
    ("기온", "weather", Word),
    ("습도", "weather", Word),
    ("打包", "packing", Word),
    ("行李", "packing", Word),
    ("建议", "advice", Word),
    ("plus", "add", Infix),
    ("sum", "add", WithOperands),
    ("added", "add", WithOperands),
    ("加", "add", Infix),
    ("足", "add", Infix),
    ("たす", "add", Infix),
    ("minus", "subtract", Infix),
    ("difference", "subtract", WithOperands),
    ("subtracted", "subtract", WithOperands),
    ("away", "subtract", WithOperands),
    ("减", "subtract", Infix),
    ("減", "subtract", Infix),
    ("引", "subtract", Infix),
    ("ひく", "subtract", Infix),
    ("times", "multiply", Infix),
    ("x", "multiply", Infix),
    ("product", "multiply", WithOperands),
    ("multiplied", "multiply", WithOperands),
    ("乘", "multiply", Infix),
    ("掛", "multiply", Infix),
    ("かけ", "multiply", Infix),
    ("over", "divide", Infix),
    ("divided", "divide", WithOperands),
    ("除", "divide", Infix),
    ("割", "divide", Infix),
    ("わる", "divide", Infix),
];

/// Phrases of two words that carry a meaning: "What's it like in Paris?" asks for the weather.
const PHRASES: &[(&str, &str, &str)] = &[("it", "like", "weather")];

/// Operator symbols between two numbers.
const OPERATORS: &[(char, &str)] = &[
    ('+', "add"),
    ('-', "subtract"),
    ('*', "multiply"),
    ('×', "multiply"),
    ('/', "divide"),
    ('÷', "divide"),
];

/// Words that say nothing about which tool fits.
const STOP: &[&str] = &[
    "a", "an", "and", "are", "at", "b", "be", "by", "can", "could", "do", "does", "for", "from",
    "get", "how", "i", "in", "is", "it", "me", "must", "my", "not", "of", "on", "please", "tell",
    "that", "the", "this", "to", "two", "what", "will", "with", "would", "you",
];

/// A tool needs at least this score: one description word alone ("city", "current") is not
/// enough to call it.
const MIN_SCORE: usize = 2;

/// What the question asks for, in words the tools can be compared with.
struct Term {
    meaning: String,
    /// The question token it came from (a Latin word), for finding the place around it.
    token: Option<usize>,
}

fn terms(question: &Question, tokens: &[Token<'_>]) -> Vec<Term> {
    let operands = tokens.iter().filter(|t| t.is_number()).count() >= 2;
    let between_numbers = |i: usize| {
        i > 0 && tokens[i - 1].is_number() && tokens.get(i + 1).is_some_and(Token::is_number)
    };
    let mut out = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        if let Kind::Op(op) = token.kind {
            for (symbol, meaning) in OPERATORS {
                if *symbol == op && between_numbers(i) {
                    out.push(Term {
                        meaning: (*meaning).into(),
                        token: None,
                    });
                }
            }
        }
        let Some(word) = token.word() else { continue };
        for (term, meaning, form) in SYNONYMS {
            let counts = match form {
                Word => true,
                Infix => between_numbers(i),
                WithOperands => operands,
            };
            if *term == word && counts {
                out.push(Term {
                    meaning: (*meaning).into(),
                    token: Some(i),
                });
            }
        }
        let next = tokens.get(i + 1).and_then(Token::word);
        for (first, second, meaning) in PHRASES {
            if *first == word && next.as_deref() == Some(*second) {
                out.push(Term {
                    meaning: (*meaning).into(),
                    token: Some(i),
                });
            }
        }
        if word.chars().count() > 1 && !STOP.contains(&word.as_str()) {
            out.push(Term {
                meaning: word,
                token: Some(i),
            });
        }
    }
    // CJK has no spaces between words: its terms match as written.
    let text = &question.text;
    let first_number_end = tokens.iter().find(|t| t.is_number()).map(|t| t.end);
    for (term, meaning, form) in SYNONYMS {
        if !term.chars().all(is_cjk) {
            continue;
        }
        let counts = match form {
            Word => text.contains(term),
            Infix | WithOperands => {
                operands && first_number_end.is_some_and(|end| text[end..].contains(term))
            }
        };
        if counts {
            out.push(Term {
                meaning: (*meaning).into(),
                token: None,
            });
        }
    }
    out
}

/// The lower-case words of a tool name or description ("get_weather" → get, weather;
/// "getWeather" → get, weather).
pub fn words_of(text: &str) -> Vec<String> {
    let mut spaced = String::with_capacity(text.len() + 8);
    let mut previous_lower = false;
    for c in text.chars() {
        if c.is_uppercase() && previous_lower {
            spaced.push(' ');
        }
        previous_lower = c.is_lowercase();
        spaced.push(c);
    }
    spaced
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The model's choice of tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Pick<'t> {
    /// One tool fits best; `anchors` are the question's word tokens that matched it.
    Tool {
        tool: &'t ToolSpec,
        anchors: Vec<usize>,
    },
    /// Several tools fit equally well: the model does not guess.
    Tie(Vec<&'t str>),
    /// No tool fits.
    Nothing,
}

pub fn pick<'t>(question: &Question, tools: &'t [ToolSpec]) -> Pick<'t> {
    let tokens = question.tokens();
    let terms = terms(question, &tokens);
    let scored: Vec<(usize, Vec<usize>, &ToolSpec)> = tools
        .iter()
        .map(|tool| {
            let name = words_of(&tool.name);
            let description = words_of(&tool.description);
            let mut seen: Vec<&str> = Vec::new();
            let mut score = 0;
            let mut anchors = Vec::new();
            for term in &terms {
                let points = 3 * usize::from(name.contains(&term.meaning))
                    + usize::from(description.contains(&term.meaning));
                if points == 0 {
                    continue;
                }
                anchors.extend(term.token);
                if !seen.contains(&term.meaning.as_str()) {
                    seen.push(&term.meaning);
                    score += points;
                }
            }
            (score, anchors, tool)
        })
        .collect();
    let best = scored.iter().map(|(s, _, _)| *s).max().unwrap_or(0);
    if best < MIN_SCORE {
        return Pick::Nothing;
    }
    let mut top = scored.into_iter().filter(|(s, _, _)| *s == best);
    match (top.next(), top.next()) {
        (Some((_, anchors, tool)), None) => {
            let mut anchors = anchors;
            anchors.sort_unstable();
            anchors.dedup();
            Pick::Tool { tool, anchors }
        }
        (Some(first), Some(second)) => {
            let names = [first, second]
                .into_iter()
                .chain(top)
                .map(|(_, _, t)| t.name.as_str())
                .collect();
            Pick::Tie(names)
        }
        _ => Pick::Nothing,
    }
}

/// Whether `word` (lower case) is a term that points at a tool ("weather", "forecast",
/// "times"…): such words do not belong in a place name.
pub fn is_tool_term(word: &str) -> bool {
    SYNONYMS
        .iter()
        .any(|(term, meaning, _)| *term == word || *meaning == word)
}
