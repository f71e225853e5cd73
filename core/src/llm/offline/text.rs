//! Reading a question: its language, a normalised form, and its tokens (words, numbers,
//! operators, CJK characters) with their byte positions in the normalised text.

/// The language the model answers in, taken from the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Zh,
    Ja,
    Ko,
}

/// Hiragana, katakana (with its phonetic extensions) and half-width katakana.
pub fn is_kana(c: char) -> bool {
    matches!(c,
        '\u{3041}'..='\u{309f}' | '\u{30a0}'..='\u{30ff}' | '\u{31f0}'..='\u{31ff}' | '\u{ff66}'..='\u{ff9f}')
}

/// Han characters (CJK ideographs, with the iteration mark 々).
pub fn is_han(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}'
            | '\u{20000}'..='\u{2ffff}' | '々')
}

/// Hangul syllables and jamo (Korean).
pub fn is_hangul(c: char) -> bool {
    matches!(c,
        '\u{ac00}'..='\u{d7af}' | '\u{1100}'..='\u{11ff}' | '\u{3130}'..='\u{318f}')
}

/// The scripts written without spaces between a word and what follows it (Korean spaces
/// phrases, but particles join the word: "부산의"), so terms and places match as written.
pub fn is_cjk(c: char) -> bool {
    is_han(c) || is_kana(c) || is_hangul(c)
}

impl Lang {
    /// Japanese when the text has kana, Korean when it has Hangul, Chinese when it has Han
    /// characters but neither, English otherwise.
    pub fn of(text: &str) -> Self {
        if text.chars().any(is_kana) {
            Self::Ja
        } else if text.chars().any(is_hangul) {
            Self::Ko
        } else if text.chars().any(is_han) {
            Self::Zh
        } else {
            Self::En
        }
    }
}

/// A question as the model reads it.
#[derive(Debug, Clone)]
pub struct Question {
    /// The question with full-width ASCII forms folded to ASCII, typographic apostrophes and
    /// minus signs made plain, and possessive "'s" dropped ("What's" reads "What").
    pub text: String,
    pub lang: Lang,
}

impl Question {
    pub fn new(raw: &str) -> Self {
        Self {
            text: normalize(raw),
            lang: Lang::of(raw),
        }
    }

    pub fn tokens(&self) -> Vec<Token<'_>> {
        tokens(&self.text)
    }
}

fn normalize(raw: &str) -> String {
    let folded: Vec<char> = raw
        .chars()
        .map(|c| match c {
            // Full-width ASCII (１２, ＋, ？) to ASCII.
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            '\u{3000}' => ' ',
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{2212}' => '-',
            _ => c,
        })
        .collect();
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while i < folded.len() {
        let possessive = folded[i] == '\''
            && matches!(folded.get(i + 1), Some('s' | 'S'))
            && folded.get(i + 2).is_none_or(|c| !c.is_alphanumeric());
        if possessive {
            i += 2;
            continue;
        }
        out.push(folded[i]);
        i += 1;
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A run of letters outside the CJK scripts ("Tokyo", "São").
    Word,
    /// "3", "2.5", "-4" (a minus sign is a sign unless a number comes before it).
    Number(f64),
    /// `+ - * / × ÷`.
    Op(char),
    /// One Han, kana or Hangul character.
    Cjk,
    /// Anything else that is not white space.
    Punct(char),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
    pub start: usize,
    pub end: usize,
}

impl Token<'_> {
    /// The token, lower-cased, when it is a word.
    pub fn word(&self) -> Option<String> {
        (self.kind == Kind::Word).then(|| self.text.to_lowercase())
    }

    pub fn is_number(&self) -> bool {
        matches!(self.kind, Kind::Number(_))
    }
}

pub fn tokens(text: &str) -> Vec<Token<'_>> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let byte_at = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
    let run_end = |from: usize, keep: &dyn Fn(char) -> bool| {
        let mut j = from;
        while chars.get(j).is_some_and(|&(_, c)| keep(c)) {
            j += 1;
        }
        j
    };
    let mut out: Vec<Token<'_>> = Vec::new();
    let mut i = 0;
    while let Some(&(start, c)) = chars.get(i) {
        let next_is_digit = chars.get(i + 1).is_some_and(|(_, d)| d.is_ascii_digit());
        let after_number = out.last().is_some_and(Token::is_number);
        let (kind, end) = if c.is_whitespace() {
            i += 1;
            continue;
        } else if c.is_ascii_digit() || (c == '-' && next_is_digit && !after_number) {
            let mut j = run_end(i + 1, &|c| c.is_ascii_digit());
            let decimal = chars.get(j).is_some_and(|&(_, c)| c == '.')
                && chars.get(j + 1).is_some_and(|(_, d)| d.is_ascii_digit());
            if decimal {
                j = run_end(j + 1, &|c| c.is_ascii_digit());
            }
            match text[start..byte_at(j)].parse::<f64>() {
                Ok(n) => (Kind::Number(n), j),
                Err(_) => (Kind::Punct(c), i + 1),
            }
        } else if is_cjk(c) {
            (Kind::Cjk, i + 1)
        } else if c.is_alphabetic() {
            (
                Kind::Word,
                run_end(i + 1, &|c| c.is_alphabetic() && !is_cjk(c)),
            )
        } else if matches!(c, '+' | '-' | '*' | '/' | '×' | '÷') {
            (Kind::Op(c), i + 1)
        } else {
            (Kind::Punct(c), i + 1)
        };
        let stop = byte_at(end);
        out.push(Token {
            kind,
            text: &text[start..stop],
            start,
            end: stop,
        });
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(question: &Question) -> Vec<f64> {
        question
            .tokens()
            .iter()
            .filter_map(|t| match t.kind {
                Kind::Number(n) => Some(n),
                _ => None,
            })
            .collect()
    }

    fn kinds(text: &str) -> Vec<Kind> {
        tokens(text).iter().map(|t| t.kind).collect()
    }

    #[test]
    fn language_follows_the_script() {
        assert_eq!(Lang::of("What's the weather in Tokyo?"), Lang::En);
        assert_eq!(Lang::of("东京的天气怎么样？"), Lang::Zh);
        assert_eq!(Lang::of("東京の天気は？"), Lang::Ja);
        assert_eq!(Lang::of("トウキョウ"), Lang::Ja);
        assert_eq!(Lang::of("서울 날씨 어때요?"), Lang::Ko);
    }

    #[test]
    fn a_minus_between_numbers_is_an_operator_and_before_one_a_sign() {
        use Kind::*;
        assert_eq!(kinds("5-3"), [Number(5.0), Op('-'), Number(3.0)]);
        assert_eq!(kinds("5 - -3"), [Number(5.0), Op('-'), Number(-3.0)]);
        assert_eq!(kinds("-2.5 x4"), [Number(-2.5), Word, Number(4.0)]);
    }

    #[test]
    fn normalising_folds_full_width_forms_and_drops_possessives() {
        assert_eq!(
            Question::new("What's Tokyo’s weather").text,
            "What Tokyo weather"
        );
        assert_eq!(numbers(&Question::new("１２乘３？")), [12.0, 3.0]);
        assert_eq!(numbers(&Question::new("9 − 5")), [9.0, 5.0]);
    }

    #[test]
    fn cjk_characters_are_single_tokens_between_words_and_numbers() {
        let t = tokens("New York的天气 3");
        let texts: Vec<&str> = t.iter().map(|t| t.text).collect();
        assert_eq!(texts, ["New", "York", "的", "天", "气", "3"]);
    }
}
