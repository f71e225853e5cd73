//! The seeds' two sequence diagrams as data ([`seeds`]), their vocabulary ([`spec`]), typed row
//! ids ([`rows`]) and a pure layout ([`layout`]) to plain geometry ([`geometry`]), measuring text
//! without a DOM ([`text`]). No Leptos: the SVG view draws what [`layout::layout`] returns.

pub mod geometry;
pub mod layout;
pub mod rows;
pub mod seeds;
pub mod spec;
#[cfg(test)]
mod tests;
pub mod text;

pub use geometry::{
    ActivationGeom, ArrowDir, Badge, Geometry, LayoutOptions, Lifeline, NoteGeom, ParticipantBox,
    Point, Rect, RowGeom, TextLine,
};
pub use layout::{layout, layout_labeled};
pub use rows::Row;
pub use seeds::{diagram, diagrams, discovery, execution, find_row};
pub use spec::{
    Actor, ArrowKind, Diagram, Item, Lang, Message, Note, NotePlacement, Participant, Text,
};
pub use text::{text_width, wrap_text};
