//! The seeds' two sequence diagrams as data ([`seeds`]), their vocabulary ([`spec`]) and a pure
//! layout to plain geometry ([`layout`]). No DOM, no Leptos: the SVG view draws what
//! [`layout::layout`] returns.

pub mod layout;
pub mod rows;
pub mod seeds;
pub mod spec;
#[cfg(test)]
mod tests;

pub use layout::{
    ActivationGeom, ArrowDir, Badge, Geometry, LayoutOptions, Lifeline, NoteGeom, ParticipantBox,
    Point, Rect, RowGeom, TextLine, layout, layout_labeled, text_width, wrap_text,
};
pub use rows::Row;
pub use seeds::{diagram, diagrams, discovery, execution, find_row};
pub use spec::{
    Actor, ArrowKind, Diagram, Item, Lang, Message, Note, NotePlacement, Participant, Text,
};
