//! The tutorial's two sequence diagrams as data ([`original`]), their vocabulary ([`spec`]), typed row
//! ids ([`rows`]) and a pure layout ([`layout`]) to plain geometry ([`geometry`]), measuring text
//! without a DOM ([`text`]). No Leptos: the SVG view draws what [`layout::layout`] returns.

pub mod geometry;
pub mod layout;
pub mod modern;
pub mod original;
pub mod rows;
pub mod spec;
#[cfg(test)]
mod tests;
pub mod text;

pub use geometry::{
    ActivationGeom, ArrowDir, Badge, Geometry, LayoutOptions, Lifeline, NoteGeom, ParticipantBox,
    Point, Rect, RowGeom, TextLine,
};
pub use layout::{layout, layout_labeled};
pub use modern::modern_diagrams;
pub use original::{diagram, diagrams, discovery, execution, find_row};
pub use rows::Row;

use crate::mcp::era::Era;

/// The two diagrams of `era`: the tutorial's for legacy, the 2026-07-28 ones for modern.
pub fn diagrams_for(era: Era) -> &'static [Diagram; 2] {
    match era {
        Era::Legacy => diagrams(),
        Era::Modern => modern_diagrams(),
    }
}

/// Every row of both eras' diagrams, each once, in drawing order (legacy first).
pub fn all_rows() -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for d in diagrams().iter().chain(modern_diagrams()) {
        for row in d.rows() {
            if !rows.contains(&row) {
                rows.push(row);
            }
        }
    }
    rows
}
pub use spec::{
    Actor, ArrowKind, Diagram, Item, Lang, Message, Note, NotePlacement, Participant, Text,
};
pub use text::{text_width, wrap_text};
