//! Pure layout: a [`Diagram`] in one language to plain geometry for an SVG view.
//!
//! No DOM measuring: text widths are estimated per character class ([`text_width`]) and long
//! labels are wrapped ([`wrap_text`]). Text lines are positioned by their *centre* (render with
//! `text-anchor="middle"` and `dominant-baseline="central"`).

use super::geometry::{
    ActivationGeom, ArrowDir, Badge, Geometry, LayoutOptions, Lifeline, NoteGeom, ParticipantBox,
    Point, Rect, RowGeom, TextLine,
};
use super::rows::Row;
use super::spec::{Actor, Diagram, Item, Lang, Message, Note, NotePlacement};
use super::text::{text_width, wrap_text};

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
        // max and min, not clamp: clamp's check formats floats (large in wasm).
        let cx = cx.max(self.left + half).min(self.right - half);
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
        (x.max(self.left).min(self.right - width), width)
    }
}

/// Lays `diagram` out in `lang`. Pure: the same inputs always give the same geometry.
pub fn layout(diagram: &Diagram, lang: Lang, opts: &LayoutOptions) -> Geometry {
    layout_labeled(diagram, lang, opts, &|_, original| original.to_owned())
}

/// [`layout`] with each message's label text chosen by `label(message, original text)`, e.g. with
/// the values a run really carried in place of the tutorial's examples.
pub fn layout_labeled(
    diagram: &Diagram,
    lang: Lang,
    opts: &LayoutOptions,
    label: &dyn Fn(&Message, &str) -> String,
) -> Geometry {
    let font = opts.font_px;
    let line_h = font * opts.line_height;
    let columns = diagram.participants.len();
    let width = 2.0 * opts.margin + (columns - 1) as f32 * opts.column_gap + opts.box_width;
    let frame = Frame {
        left: opts.margin,
        right: width - opts.margin,
        font,
        line_h,
    };
    // Columns are the diagram's own participants, left to right.
    let lifeline_x =
        |a: Actor| opts.margin + opts.box_width / 2.0 + diagram.column(a) as f32 * opts.column_gap;

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
    // Open activations per column: (start y, opening row id).
    let mut stacks: Vec<Vec<(f32, Row)>> = vec![Vec::new(); columns];
    let close_bar = |stacks: &mut [Vec<(f32, Row)>],
                     actor: Actor,
                     y_end: f32,
                     closed_by: Option<Row>|
     -> Option<ActivationGeom> {
        let stack = &mut stacks[diagram.column(actor)];
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
                    stacks[diagram.column(m.to)].push((row.y_end, m.id));
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
    for actor in diagram.actors() {
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
    let lifelines = diagram
        .actors()
        .map(|actor| Lifeline {
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
