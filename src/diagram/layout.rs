//! Pure layout: a [`Diagram`] in one language to plain geometry for an SVG view.
//!
//! No DOM measuring: text widths are estimated per character class ([`text_width`]) and long
//! labels are wrapped ([`wrap_text`]). Text lines are positioned by their *centre* (render with
//! `text-anchor="middle"` and `dominant-baseline="central"`).

use super::rows::Row;
use super::spec::{Actor, ArrowKind, Diagram, Item, Lang, Message, Note, NotePlacement};

/// Knobs for [`layout`]. The defaults give a diagram about 1210 px wide with 13 px text.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutOptions {
    /// Font size of all text, px.
    pub font_px: f32,
    /// Line height as a multiple of `font_px`.
    pub line_height: f32,
    /// Empty space around the whole drawing.
    pub margin: f32,
    /// Distance between neighbouring lifelines.
    pub column_gap: f32,
    /// Width of a participant box.
    pub box_width: f32,
    /// Inner padding of participant boxes and notes.
    pub padding: f32,
    /// Vertical space above and below every row's content.
    pub row_padding: f32,
    /// Space between the last label line and the number badge above the arrow.
    pub label_gap: f32,
    /// Message labels wrap at the wider of the arrow's span and this.
    pub label_min_wrap: f32,
    /// How far a `Note over A, B` reaches past its outer lifelines.
    pub note_overhang: f32,
    /// Widest `Note over A` / `Note right of A`.
    pub note_max_width: f32,
    /// Gap between a lifeline and a `Note right of` it.
    pub note_offset: f32,
    /// Self-message loop size.
    pub self_loop_width: f32,
    pub self_loop_height: f32,
    /// Radius of the number badge circle.
    pub badge_radius: f32,
    /// Activation bar width, and the sideways shift per nesting level.
    pub activation_width: f32,
    pub activation_offset: f32,
    /// Repeat the participant boxes at the bottom, as mermaid does.
    pub mirror_participants: bool,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        LayoutOptions {
            font_px: 13.0,
            line_height: 1.4,
            margin: 16.0,
            column_gap: 205.0,
            box_width: 190.0,
            padding: 8.0,
            row_padding: 6.0,
            label_gap: 3.0,
            label_min_wrap: 330.0,
            note_overhang: 56.0,
            note_max_width: 300.0,
            note_offset: 14.0,
            self_loop_width: 36.0,
            self_loop_height: 22.0,
            badge_radius: 9.0,
            activation_width: 10.0,
            activation_offset: 5.0,
            mirror_participants: true,
        }
    }
}

/// A point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

/// An axis-aligned rectangle (top-left corner and size).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

impl Rect {
    pub fn right(&self) -> f32 {
        self.x + self.width
    }

    pub fn bottom(&self) -> f32 {
        self.y + self.height
    }

    pub fn center_x(&self) -> f32 {
        self.x + self.width / 2.0
    }
}

/// One line of text, centred on (`x`, `y`), with its estimated width.
#[derive(Clone, Debug, PartialEq)]
pub struct TextLine {
    pub text: String,
    pub x: f32,
    pub y: f32,
    pub width: f32,
}

/// A participant box (at the top, or mirrored at the bottom).
#[derive(Clone, Debug, PartialEq)]
pub struct ParticipantBox {
    pub actor: Actor,
    pub rect: Rect,
    /// The name, wrapped.
    pub name: Vec<TextLine>,
    /// The subtitle (e.g. "on Local PC"), wrapped; empty when there is none.
    pub subtitle: Vec<TextLine>,
}

/// A vertical lifeline from the top box to the bottom box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lifeline {
    pub actor: Actor,
    pub x: f32,
    pub y1: f32,
    pub y2: f32,
}

/// Which way the arrowhead points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowDir {
    Right,
    Left,
}

/// The numbered circle at the start of an arrow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Badge {
    pub number: u8,
    pub cx: f32,
    pub cy: f32,
    pub r: f32,
}

/// Geometry of one message row.
#[derive(Clone, Debug, PartialEq)]
pub struct RowGeom {
    /// The message's row.
    pub id: Row,
    /// Index into `Diagram::items`.
    pub item: usize,
    pub number: Option<u8>,
    pub from: Actor,
    pub to: Actor,
    pub kind: ArrowKind,
    pub optional: bool,
    /// Arrow start (the source lifeline) and end (the target lifeline); equal for a self-loop.
    pub x1: f32,
    pub x2: f32,
    /// Height of the arrow (of its first segment, for a self-loop).
    pub y: f32,
    /// Height where the arrow arrives: `y` for a straight arrow, the loop's bottom for a self-loop.
    pub y_end: f32,
    /// The arrow as a polyline from start to arrowhead tip (two points, or four for a self-loop).
    pub path: Vec<Point>,
    /// Direction of the arrowhead (a self-loop comes back pointing left).
    pub dir: ArrowDir,
    pub self_loop: bool,
    /// Label lines above the arrow.
    pub label: Vec<TextLine>,
    pub badge: Option<Badge>,
    /// The row's vertical band (for highlighting); bands of successive items do not overlap.
    pub top: f32,
    pub bottom: f32,
}

/// Geometry of one note.
#[derive(Clone, Debug, PartialEq)]
pub struct NoteGeom {
    /// Index into `Diagram::items`.
    pub item: usize,
    pub placement: NotePlacement,
    pub rect: Rect,
    pub lines: Vec<TextLine>,
    /// The note's vertical band.
    pub top: f32,
    pub bottom: f32,
}

/// An activation bar on a lifeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActivationGeom {
    pub actor: Actor,
    pub rect: Rect,
    pub y_start: f32,
    pub y_end: f32,
    /// Nesting depth on this actor, 0 for the outermost bar.
    pub depth: usize,
    /// Row id of the message that opens the bar (its `+`).
    pub opened_by: Row,
    /// Row id of the message that closes it (its `-`); `None` if the diagram never closes it and
    /// the bar was closed at the end of the rows.
    pub closed_by: Option<Row>,
}

/// Everything an SVG view needs to draw one diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    pub width: f32,
    pub height: f32,
    pub font_px: f32,
    /// Line height in px.
    pub line_height: f32,
    /// Participant boxes at the top, in seed order.
    pub participants: Vec<ParticipantBox>,
    /// Mirrored boxes at the bottom (empty unless `mirror_participants`).
    pub footer: Vec<ParticipantBox>,
    pub lifelines: Vec<Lifeline>,
    /// One per message, in item order.
    pub rows: Vec<RowGeom>,
    /// One per note, in item order.
    pub notes: Vec<NoteGeom>,
    /// Activation bars, outermost first in order of closing.
    pub activations: Vec<ActivationGeom>,
}

impl Geometry {
    /// The geometry of `row`.
    pub fn row(&self, row: Row) -> Option<&RowGeom> {
        self.rows.iter().find(|r| r.id == row)
    }

    /// The x of `actor`'s lifeline.
    pub fn lifeline_x(&self, actor: Actor) -> f32 {
        self.lifelines[actor.index()].x
    }
}

// ---------------------------------------------------------------------------------------------
// Text measuring and wrapping

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

// ---------------------------------------------------------------------------------------------
// Layout

/// Horizontal frame shared by the whole layout.
struct Frame {
    left: f32,
    right: f32,
    font: f32,
    line_h: f32,
}

impl Frame {
    /// Lines centred on `cx` (kept inside the frame), the first line's top at `top`.
    fn lines(&self, texts: Vec<String>, cx: f32, top: f32) -> Vec<TextLine> {
        let widest = texts
            .iter()
            .map(|t| text_width(t, self.font))
            .fold(0.0, f32::max);
        let half = widest.min(self.right - self.left) / 2.0;
        let cx = cx.clamp(self.left + half, self.right - half);
        texts
            .into_iter()
            .enumerate()
            .map(|(i, text)| TextLine {
                width: text_width(&text, self.font),
                x: cx,
                y: top + self.line_h * (i as f32 + 0.5),
                text,
            })
            .collect()
    }

    fn widest(&self, texts: &[String]) -> f32 {
        texts
            .iter()
            .map(|t| text_width(t, self.font))
            .fold(0.0, f32::max)
    }

    /// Shifts a span of `width` starting at `x` into the frame.
    fn fit(&self, x: f32, width: f32) -> (f32, f32) {
        let width = width.min(self.right - self.left);
        (x.clamp(self.left, self.right - width), width)
    }
}

/// Lays `diagram` out in `lang`. Pure: the same inputs always give the same geometry.
pub fn layout(diagram: &Diagram, lang: Lang, opts: &LayoutOptions) -> Geometry {
    layout_labeled(diagram, lang, opts, &|_, seed| seed.to_owned())
}

/// [`layout`] with each message's label text chosen by `label(message, seed text)`, e.g. with
/// the values a run really carried in place of the seed's examples.
pub fn layout_labeled(
    diagram: &Diagram,
    lang: Lang,
    opts: &LayoutOptions,
    label: &dyn Fn(&Message, &str) -> String,
) -> Geometry {
    let font = opts.font_px;
    let line_h = font * opts.line_height;
    let width = 2.0 * opts.margin + 4.0 * opts.column_gap + opts.box_width;
    let frame = Frame {
        left: opts.margin,
        right: width - opts.margin,
        font,
        line_h,
    };
    let lifeline_x =
        |a: Actor| opts.margin + opts.box_width / 2.0 + a.index() as f32 * opts.column_gap;

    // Participant boxes: one height for all, fitting the tallest.
    let inner = opts.box_width - 2.0 * opts.padding;
    let texts: Vec<(Vec<String>, Vec<String>)> = diagram
        .participants
        .iter()
        .map(|p| {
            // Names are drawn bold: wrap them as if the font were a tenth larger.
            let name = wrap_text(p.name, inner, font * 1.1);
            let sub = p
                .subtitle
                .map(|s| wrap_text(s.get(lang), inner, font))
                .unwrap_or_default();
            (name, sub)
        })
        .collect();
    let max_lines = texts
        .iter()
        .map(|(n, s)| n.len() + s.len())
        .max()
        .unwrap_or(1);
    let box_h = max_lines as f32 * line_h + 2.0 * opts.padding;
    let boxes_at = |y: f32| -> Vec<ParticipantBox> {
        diagram
            .participants
            .iter()
            .zip(&texts)
            .map(|(p, (name, sub))| {
                let cx = lifeline_x(p.actor);
                let n = (name.len() + sub.len()) as f32;
                let text_top = y + (box_h - n * line_h) / 2.0;
                let name_lines = frame.lines(name.clone(), cx, text_top);
                let sub_lines = frame.lines(sub.clone(), cx, text_top + name.len() as f32 * line_h);
                ParticipantBox {
                    actor: p.actor,
                    rect: Rect {
                        x: cx - opts.box_width / 2.0,
                        y,
                        width: opts.box_width,
                        height: box_h,
                    },
                    name: name_lines,
                    subtitle: sub_lines,
                }
            })
            .collect()
    };
    let participants = boxes_at(opts.margin);
    let header_bottom = opts.margin + box_h;

    let mut cursor = header_bottom + opts.row_padding;
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut activations = Vec::new();
    // Open activations per actor: (start y, opening row id).
    let mut stacks: [Vec<(f32, Row)>; 5] = Default::default();
    let close_bar = |stacks: &mut [Vec<(f32, Row)>; 5],
                     actor: Actor,
                     y_end: f32,
                     closed_by: Option<Row>|
     -> Option<ActivationGeom> {
        let stack = &mut stacks[actor.index()];
        let (y_start, opened_by) = stack.pop()?;
        let depth = stack.len();
        let x =
            lifeline_x(actor) - opts.activation_width / 2.0 + depth as f32 * opts.activation_offset;
        Some(ActivationGeom {
            actor,
            rect: Rect {
                x,
                y: y_start,
                width: opts.activation_width,
                height: y_end - y_start,
            },
            y_start,
            y_end,
            depth,
            opened_by,
            closed_by,
        })
    };

    for (item, entry) in diagram.items.iter().enumerate() {
        let top = cursor;
        let bottom = match entry {
            Item::Message(m) => {
                let text = label(m, m.label.get(lang));
                let row = message_row(
                    m,
                    item,
                    top,
                    &text,
                    opts,
                    &frame,
                    lifeline_x(m.from),
                    lifeline_x(m.to),
                );
                // Mermaid: `-` deactivates the source, `+` activates the target, at this message.
                if m.deactivate
                    && let Some(bar) = close_bar(&mut stacks, m.from, row.y, Some(m.id))
                {
                    activations.push(bar);
                }
                if m.activate {
                    stacks[m.to.index()].push((row.y_end, m.id));
                }
                let bottom = row.bottom;
                rows.push(row);
                bottom
            }
            Item::Note(n) => {
                let note = note_geom(n, item, top, lang, opts, &frame, lifeline_x);
                let bottom = note.bottom;
                notes.push(note);
                bottom
            }
        };
        cursor = bottom;
    }

    // Close whatever the diagram left open at the end of the rows.
    let rows_end = cursor;
    for actor in Actor::ALL {
        while let Some(bar) = close_bar(&mut stacks, actor, rows_end, None) {
            activations.push(bar);
        }
    }

    let footer_top = rows_end + opts.row_padding;
    let (footer, lifeline_end, height) = if opts.mirror_participants {
        (
            boxes_at(footer_top),
            footer_top,
            footer_top + box_h + opts.margin,
        )
    } else {
        (Vec::new(), footer_top, footer_top + opts.margin)
    };
    let lifelines = Actor::ALL
        .iter()
        .map(|&actor| Lifeline {
            actor,
            x: lifeline_x(actor),
            y1: header_bottom,
            y2: lifeline_end,
        })
        .collect();

    Geometry {
        width,
        height,
        font_px: font,
        line_height: line_h,
        participants,
        footer,
        lifelines,
        rows,
        notes,
        activations,
    }
}

#[allow(clippy::too_many_arguments)]
fn message_row(
    m: &Message,
    item: usize,
    top: f32,
    text: &str,
    opts: &LayoutOptions,
    frame: &Frame,
    x1: f32,
    x2: f32,
) -> RowGeom {
    let self_loop = m.is_self();
    let span = (x2 - x1).abs();
    let wrap = (span - 2.0 * opts.padding)
        .max(opts.label_min_wrap)
        .min(frame.right - frame.left);
    let texts = wrap_text(text, wrap, frame.font);
    let label_top = top + opts.row_padding;
    let label_bottom = label_top + texts.len() as f32 * frame.line_h;
    let y = label_bottom + opts.label_gap + opts.badge_radius;
    let cx = if self_loop {
        x1 + opts.self_loop_width / 2.0
    } else {
        (x1 + x2) / 2.0
    };
    let label = frame.lines(texts, cx, label_top);
    let (path, y_end, dir) = if self_loop {
        let right = x1 + opts.self_loop_width;
        let y_end = y + opts.self_loop_height;
        let path = vec![
            Point { x: x1, y },
            Point { x: right, y },
            Point { x: right, y: y_end },
            Point { x: x2, y: y_end },
        ];
        (path, y_end, ArrowDir::Left)
    } else {
        let dir = if x2 >= x1 {
            ArrowDir::Right
        } else {
            ArrowDir::Left
        };
        (vec![Point { x: x1, y }, Point { x: x2, y }], y, dir)
    };
    let badge = m.number.map(|number| Badge {
        number,
        cx: x1,
        cy: y,
        r: opts.badge_radius,
    });
    RowGeom {
        id: m.id,
        item,
        number: m.number,
        from: m.from,
        to: m.to,
        kind: m.kind,
        optional: m.optional,
        x1,
        x2,
        y,
        y_end,
        path,
        dir,
        self_loop,
        label,
        badge,
        top,
        bottom: y_end + opts.badge_radius + opts.row_padding,
    }
}

fn note_geom(
    n: &Note,
    item: usize,
    top: f32,
    lang: Lang,
    opts: &LayoutOptions,
    frame: &Frame,
    lifeline_x: impl Fn(Actor) -> f32,
) -> NoteGeom {
    let text = n.text.get(lang);
    let pad = opts.padding;
    // (left, width, wrapped text)
    let (left, width, texts) = match n.placement {
        NotePlacement::Over(a, b) if a != b => {
            let (xa, xb) = (lifeline_x(a), lifeline_x(b));
            let left = xa.min(xb) - opts.note_overhang;
            let right = xa.max(xb) + opts.note_overhang;
            let (left, width) = frame.fit(left, right - left);
            (left, width, wrap_text(text, width - 2.0 * pad, frame.font))
        }
        NotePlacement::Over(a, _) | NotePlacement::Over1(a) => {
            let texts = wrap_text(text, opts.note_max_width - 2.0 * pad, frame.font);
            let width = (frame.widest(&texts) + 2.0 * pad).max(2.0 * opts.note_overhang);
            let (left, width) = frame.fit(lifeline_x(a) - width / 2.0, width);
            (left, width, texts)
        }
        NotePlacement::RightOf(a) => {
            let texts = wrap_text(text, opts.note_max_width - 2.0 * pad, frame.font);
            let width = frame.widest(&texts) + 2.0 * pad;
            let (left, width) = frame.fit(lifeline_x(a) + opts.note_offset, width);
            (left, width, texts)
        }
    };
    let rect = Rect {
        x: left,
        y: top + opts.row_padding,
        width,
        height: texts.len() as f32 * frame.line_h + 2.0 * pad,
    };
    let lines = frame.lines(texts, rect.center_x(), rect.y + pad);
    NoteGeom {
        item,
        placement: n.placement,
        rect,
        lines,
        top,
        bottom: rect.bottom() + opts.row_padding,
    }
}
