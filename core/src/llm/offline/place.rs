//! The place a question asks about, read from the sentence: "weather in X", "weather for X",
//! "What's it like in X", "X weather", "weather X", "X的天气", "X今天天气如何", "Xの天気".
//!
//! There is no list of cities: the place goes to the tool as the user wrote it (CJK names
//! too: the weather server accepts 東京 and 东京), and an unknown place comes back as the
//! tool's `isError` result. The one change is capitalisation: a place written all in lower case
//! is sent capitalised ("new york" → "New York"), as a language model would write it.

use super::pick::is_tool_term;
use super::text::{Kind, Lang, Question, Token};

/// Words that introduce a place.
const PREPOSITIONS: &[&str] = &["in", "for", "at"];

/// Words that are not part of a place name: a place phrase stops before them, and a phrase
/// that starts with one is not a place ("for tomorrow", "in my city").
const NOT_PLACE: &[&str] = &[
    "a",
    "about",
    "afternoon",
    "again",
    "am",
    "and",
    "any",
    "are",
    "around",
    "at",
    "be",
    "been",
    "but",
    "by",
    "can",
    "celsius",
    "could",
    "currently",
    "day",
    "degrees",
    "do",
    "does",
    "during",
    "evening",
    "fahrenheit",
    "for",
    "from",
    "going",
    "has",
    "have",
    "here",
    "how",
    "i",
    "if",
    "in",
    "is",
    "it",
    "its",
    "later",
    "like",
    "me",
    "moment",
    "morning",
    "my",
    "next",
    "night",
    "now",
    "on",
    "or",
    "our",
    "outside",
    "please",
    "right",
    "should",
    "so",
    "than",
    "that",
    "the",
    "then",
    "there",
    "these",
    "this",
    "time",
    "to",
    "today",
    "tomorrow",
    "tonight",
    "us",
    "was",
    "we",
    "week",
    "weekend",
    "what",
    "when",
    "where",
    "which",
    "who",
    "will",
    "with",
    "would",
    "yesterday",
    "you",
    "your",
];

/// Lower-case words that stay lower case inside a capitalised place ("Rio de Janeiro").
const PARTICLES: &[&str] = &[
    "am", "an", "da", "de", "del", "della", "der", "di", "do", "du", "la", "le", "los", "of", "on",
    "upon", "van", "von", "y",
];

/// Phrases that open a CJK question before the place ("请问", "今日の").
const CJK_OPENERS: &[&str] = &[
    "请问",
    "請問",
    "请告诉我",
    "告诉我",
    "帮我查一下",
    "帮我查",
    "查一下",
    "请",
    "今天",
    "明天",
    "现在",
    "今日の",
    "明日の",
    "今の",
    "今日は",
    "明日は",
    "今日",
    "明日",
    "오늘",
    "내일",
    "지금",
];

/// What follows the place in a CJK question: "X的天气", "X今天…", "X会下雨吗", "X旅行的打包建议",
/// "Xの天気", "Xは晴れ", "Xで雨が…".
const CJK_MARKERS: &[&str] = &[
    "的天气",
    "的天氣",
    "天气",
    "天氣",
    "的气温",
    "气温",
    "氣溫",
    "今天",
    "明天",
    "现在",
    "現在",
    "会下",
    "會下",
    "会不会",
    "下雨",
    "下雪",
    "旅行",
    "的打包",
    "打包",
    "の天気",
    "天気",
    "の気温",
    "気温",
    "は",
    "では",
    "で",
    "今日",
    "明日",
    "의 날씨",
    "날씨",
    "의 기온",
    "기온",
    "오늘",
    "내일",
    "지금",
];

/// Where `question` asks about; `anchors` are the word tokens that chose the tool ("weather"),
/// beside which a place may stand without a preposition ("Tokyo weather").
pub fn place(question: &Question, anchors: &[usize]) -> Option<String> {
    let tokens = question.tokens();
    let text = &question.text;
    let cjk = match question.lang {
        Lang::En => None,
        Lang::Zh | Lang::Ja | Lang::Ko => cjk_place(text),
    };
    cjk.or_else(|| after_preposition(text, &tokens))
        .or_else(|| {
            anchors
                .iter()
                .find_map(|&anchor| beside(text, &tokens, anchor))
        })
        .map(|p| capitalise(&p))
}

fn cjk_place(text: &str) -> Option<String> {
    let mut rest = text.trim();
    while let Some(opener) = CJK_OPENERS.iter().find(|o| rest.starts_with(**o)) {
        rest = rest[opener.len()..].trim_start();
    }
    let at = CJK_MARKERS.iter().filter_map(|m| rest.find(m)).min()?;
    let segment = rest[..at]
        .rsplit(|c: char| {
            matches!(
                c,
                ',' | '.' | '!' | '?' | ';' | ':' | '、' | '。' | '「' | '」' | '“' | '”'
            )
        })
        .next()
        .unwrap_or_default()
        .trim()
        .trim_end_matches(['的', 'の', '의'])
        .trim();
    (!segment.is_empty()).then(|| segment.to_owned())
}

fn not_place(token: &Token<'_>) -> bool {
    token
        .word()
        .is_some_and(|w| NOT_PLACE.contains(&w.as_str()) || is_tool_term(&w))
}

fn in_place(token: &Token<'_>) -> bool {
    matches!(token.kind, Kind::Word | Kind::Cjk) && !not_place(token)
}

/// The place phrase starting at token `from` (after an optional "the"): words and CJK
/// characters, joined by commas, hyphens or apostrophes ("Tokyo, Japan", "Aix-en-Provence"),
/// up to the first word that cannot be part of a place.
fn phrase(text: &str, tokens: &[Token<'_>], from: usize) -> Option<String> {
    let mut i = from;
    if tokens.get(i).and_then(Token::word).as_deref() == Some("the") {
        i += 1;
    }
    let first = tokens.get(i).filter(|t| in_place(t))?;
    let mut end = first.end;
    i += 1;
    while let Some(token) = tokens.get(i) {
        let joiner = matches!(token.kind, Kind::Punct(',' | '\'') | Kind::Op('-'));
        if in_place(token) {
            end = token.end;
            i += 1;
        } else if joiner && tokens.get(i + 1).is_some_and(in_place) {
            i += 1;
        } else {
            break;
        }
    }
    Some(text[first.start..end].to_owned())
}

fn after_preposition(text: &str, tokens: &[Token<'_>]) -> Option<String> {
    tokens.iter().enumerate().find_map(|(i, token)| {
        let word = token.word()?;
        PREPOSITIONS
            .contains(&word.as_str())
            .then(|| phrase(text, tokens, i + 1))?
    })
}

/// The place right before an anchor word ("Tokyo weather"), or right after it
/// ("weather San Francisco").
fn beside(text: &str, tokens: &[Token<'_>], anchor: usize) -> Option<String> {
    if anchor >= tokens.len() {
        return None;
    }
    let mut first = anchor;
    while first > 0 && in_place(&tokens[first - 1]) {
        first -= 1;
    }
    if first < anchor {
        return Some(text[tokens[first].start..tokens[anchor - 1].end].to_owned());
    }
    phrase(text, tokens, anchor + 1)
}

/// "new york" → "New York", "rio de janeiro" → "Rio de Janeiro", and a word without a vowel
/// is read as an abbreviation ("nyc" → "NYC"); anything with a capital letter, or without
/// Latin letters, stays as written.
fn capitalise(place: &str) -> String {
    if place.chars().any(char::is_uppercase) {
        return place.to_owned();
    }
    let mut out = String::with_capacity(place.len());
    let mut word = String::new();
    let mut words = 0;
    let flush = |word: &mut String, out: &mut String, words: &mut usize| {
        if word.is_empty() {
            return;
        }
        let abbreviation = word.len() > 1
            && word.chars().all(|c| c.is_ascii_alphabetic())
            && !word.chars().any(|c| "aeiou".contains(c));
        let mut chars = word.chars();
        match chars.next() {
            _ if abbreviation => out.push_str(&word.to_uppercase()),
            Some(c) if *words == 0 || !PARTICLES.contains(&word.as_str()) => {
                out.extend(c.to_uppercase());
                out.push_str(chars.as_str());
            }
            _ => out.push_str(word),
        }
        *words += 1;
        word.clear();
    };
    for c in place.chars() {
        if c.is_alphabetic() {
            word.push(c);
        } else {
            flush(&mut word, &mut out, &mut words);
            out.push(c);
        }
    }
    flush(&mut word, &mut out, &mut words);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anchored(q: &str, anchor: &str) -> Option<String> {
        let question = Question::new(q);
        let anchors: Vec<usize> = question
            .tokens()
            .iter()
            .enumerate()
            .filter(|(_, t)| t.word().as_deref() == Some(anchor))
            .map(|(i, _)| i)
            .collect();
        place(&question, &anchors)
    }

    #[test]
    fn places_after_a_preposition_stop_at_filler_words() {
        for (q, want) in [
            ("Weather for New York, please.", "New York"),
            (
                "Could you check the weather in Rio de Janeiro for me?",
                "Rio de Janeiro",
            ),
            ("What's the weather like in Tokyo, Japan?", "Tokyo, Japan"),
            ("Temperature at Sydney right now?", "Sydney"),
            (
                "Is the forecast for tomorrow in Aix-en-Provence?",
                "Aix-en-Provence",
            ),
            ("How much rain is in the forecast for Berlin?", "Berlin"),
            ("What's it like in Paris?", "Paris"),
        ] {
            assert_eq!(anchored(q, "weather").as_deref(), Some(want), "{q}");
        }
    }

    #[test]
    fn a_place_beside_the_anchor_needs_no_preposition() {
        assert_eq!(
            anchored("Tokyo weather?", "weather").as_deref(),
            Some("Tokyo")
        );
        assert_eq!(
            anchored("weather San Francisco", "weather").as_deref(),
            Some("San Francisco")
        );
        assert_eq!(anchored("What's the weather like?", "weather"), None);
        assert_eq!(anchored("What's the weather in my city?", "weather"), None);
    }

    #[test]
    fn lower_case_places_are_capitalised_and_others_kept() {
        assert_eq!(capitalise("new york"), "New York");
        assert_eq!(capitalise("rio de janeiro"), "Rio de Janeiro");
        assert_eq!(capitalise("são paulo"), "São Paulo");
        assert_eq!(capitalise("NYC"), "NYC");
        assert_eq!(capitalise("nyc"), "NYC");
        assert_eq!(capitalise("東京"), "東京");
    }

    #[test]
    fn cjk_places_are_read_before_the_marker_as_written() {
        for (q, want) in [
            ("东京的天气怎么样？", Some("东京")),
            ("北京今天天气如何？", Some("北京")),
            ("请问，上海会下雨吗？", Some("上海")),
            ("今日の大阪の天気は？", Some("大阪")),
            ("東京は晴れていますか", Some("東京")),
            ("你好，New York的天气呢", Some("New York")),
            ("天气怎么样？", None),
            ("明天天气怎么样", None),
        ] {
            assert_eq!(cjk_place(&Question::new(q).text).as_deref(), want, "{q}");
        }
    }
}
