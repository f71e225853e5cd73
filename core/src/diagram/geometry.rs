//! The geometry a layout produces: plain points, rectangles and text lines for an SVG view, and
//! the knobs that shape it.

use super::rows::Row;
use super::spec::{Actor, ArrowKind, NotePlacement};

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
    /// Participant boxes at the top, in the diagram's column order.
    pub participants: Vec<ParticipantBox>,
    /// Mirrored boxes at the bottom (empty unless `mirror_participants`).
    pub footer: Vec<ParticipantBox>,
    /// One per participant, left to right.
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

    /// `actor`'s lifeline, if `actor` is a participant of the diagram laid out.
    pub fn lifeline(&self, actor: Actor) -> Option<&Lifeline> {
        self.lifelines.iter().find(|l| l.actor == actor)
    }

    /// The x of `actor`'s lifeline.
    ///
    /// # Panics
    /// If `actor` is not a participant of the diagram laid out.
    pub fn lifeline_x(&self, actor: Actor) -> f32 {
        self.lifeline(actor)
            .unwrap_or_else(|| panic!("no lifeline for {actor:?}"))
            .x
    }
}
