//! Text without a DOM: estimated widths per character class ([`text_width`]) and line wrapping
//! ([`wrap_text`]) that breaks at spaces and between CJK characters.

/// Full-width characters: CJK ideographs, kana, hangul, CJK and full-width punctuation, and the
/// curly quotes Chinese text uses (rendered full-width by CJK fonts).
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F
        | 0x2018..=0x201F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x20000..=0x3FFFD)
}

/// Estimated advance of `c` in em.
fn char_em(c: char) -> f32 {
    if is_wide(c) {
        return 1.0;
    }
    match c {
        ' ' | 'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | '`' => 0.3,
        '(' | ')' | '[' | ']' | '{' | '}' | 'f' | 't' | 'r' | '/' | '"' | '-' => 0.4,
        'm' | 'w' | 'M' | 'W' | '@' | '%' => 0.85,
        'A'..='Z' | '&' | '_' => 0.68,
        c if c.is_ascii() => 0.55,
        _ => 0.6,
    }
}

/// Estimated rendered width of `s` (one line) at `font_px`, in px.
pub fn text_width(s: &str, font_px: f32) -> f32 {
    s.chars().map(char_em).sum::<f32>() * font_px
}

/// Characters that must not start a line (they stick to what precedes them).
fn is_closing(c: char) -> bool {
    matches!(
        c,
        '，' | '。'
            | '、'
            | '；'
            | '：'
            | '？'
            | '！'
            | '）'
            | '」'
            | '』'
            | '”'
            | '’'
            | '》'
            | '〉'
            | '】'
    )
}

/// Characters that must not end a line (they stick to what follows them).
fn is_opening(c: char) -> bool {
    matches!(c, '（' | '「' | '『' | '“' | '‘' | '《' | '〈' | '【')
}

/// An unbreakable piece of a paragraph.
struct Atom {
    text: String,
    space_before: bool,
}

/// Splits a paragraph into atoms: runs of non-space narrow characters, single wide characters,
/// with closing punctuation glued to the atom before and opening punctuation to the atom after.
fn atoms(paragraph: &str) -> Vec<Atom> {
    let mut out: Vec<Atom> = Vec::new();
    let mut space = false;
    // Whether the last atom may be extended by the next narrow character.
    let mut open_run = false;
    // Whether the last atom ends in opening punctuation and must take the next character.
    let mut glue_next = false;
    for c in paragraph.chars() {
        if c.is_whitespace() {
            space = true;
            open_run = false;
            glue_next = false;
            continue;
        }
        let wide = is_wide(c);
        let attach = match out.last() {
            None => false,
            Some(_) if space => false,
            Some(_) => glue_next || is_closing(c) || (!wide && open_run),
        };
        if attach {
            if let Some(last) = out.last_mut() {
                last.text.push(c);
            }
        } else {
            out.push(Atom {
                text: c.to_string(),
                space_before: space,
            });
        }
        space = false;
        glue_next = is_opening(c);
        open_run = !wide && !glue_next;
    }
    out
}

/// Tolerance for float rounding when comparing widths.
const WRAP_SLACK: f32 = 1e-3;

/// Wraps `text` into lines no wider than `max_width` (estimated at `font_px`). Explicit `'\n'`s
/// always break; otherwise lines break at spaces and between CJK characters, and a word wider than
/// a whole line is split between characters.
pub fn wrap_text(text: &str, max_width: f32, font_px: f32) -> Vec<String> {
    let space_w = text_width(" ", font_px);
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut line_w = 0.0f32;
        for atom in atoms(paragraph) {
            let w = text_width(&atom.text, font_px);
            let sep = if atom.space_before && !line.is_empty() {
                space_w
            } else {
                0.0
            };
            if line.is_empty() || line_w + sep + w <= max_width + WRAP_SLACK {
                if sep > 0.0 {
                    line.push(' ');
                }
                line.push_str(&atom.text);
                line_w += sep + w;
            } else {
                lines.push(std::mem::take(&mut line));
                line.push_str(&atom.text);
                line_w = w;
            }
            // Split a word that alone is wider than a line.
            while line_w > max_width + WRAP_SLACK && line.chars().count() > 1 {
                let mut head = String::new();
                let mut head_w = 0.0f32;
                let mut rest = line.chars().peekable();
                while let Some(&c) = rest.peek() {
                    let cw = char_em(c) * font_px;
                    if !head.is_empty() && head_w + cw > max_width + WRAP_SLACK {
                        break;
                    }
                    head.push(c);
                    head_w += cw;
                    rest.next();
                }
                let tail: String = rest.collect();
                if tail.is_empty() {
                    break;
                }
                lines.push(head);
                line_w = text_width(&tail, font_px);
                line = tail;
            }
        }
        lines.push(line);
    }
    lines
}
