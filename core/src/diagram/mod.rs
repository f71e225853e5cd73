//! The diagrams as data, one file per diagram holding its rows' specs (what each carries, its
//! explanation: [`row_spec`]) beside its drawings: diagrams 1 and 2 in both eras
//! ([`tool_discovery`], [`tool_execution`]; assembled as the tutorial drew them in [`original`]
//! and redrawn for 2026-07-28 in [`modern`]), the Authorization diagram ([`authorization`]), the
//! diagram of resources, prompts and completion ([`browse`]), the App diagram ([`app`]); their vocabulary ([`spec`]), typed
//! row ids ([`rows`]), a row's spec wherever it is ([`explained`]) and a pure layout
//! ([`layout`]) to plain geometry ([`geometry`]), measuring text without a DOM ([`text`]). No
//! Leptos: the SVG view draws what [`layout::layout`] returns.

pub mod app;
#[cfg(test)]
mod app_tests;
pub mod authorization;
#[cfg(test)]
mod authorization_tests;
pub mod browse;
#[cfg(test)]
mod browse_tests;
pub mod explained;
pub mod geometry;
pub mod layout;
#[cfg(test)]
mod layout_tests;
pub mod modern;
pub mod original;
pub mod row_spec;
pub mod rows;
pub mod spec;
#[cfg(test)]
mod tests;
pub mod text;
pub mod tool_discovery;
pub mod tool_execution;

pub use app::app;
pub use authorization::authorization;
pub use browse::browse;
pub use geometry::{
    ActivationGeom, ArrowDir, Badge, Geometry, LayoutOptions, Lifeline, NoteGeom, ParticipantBox,
    Point, Rect, RowGeom, TextLine,
};
pub use layout::{layout, layout_labeled};
pub use modern::modern_diagrams;
pub use original::{diagrams, discovery, execution};
pub use rows::Row;

use mcp_flow_client::era::Era;

/// The two diagrams of `era`: the tutorial's for legacy, the 2026-07-28 ones for modern.
pub fn diagrams_for(era: Era) -> &'static [Diagram; 2] {
    match era {
        Era::Legacy => diagrams(),
        Era::Modern => modern_diagrams(),
    }
}

/// Every row of every diagram, each once: the Authorization diagram's, then both eras' in
/// drawing order (legacy first), then the browse diagram's, as [`Row::ALL`] lists them.
pub fn all_rows() -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    // The Authorization and browse diagrams' rows by their ids, not their data: their texts
    // stay out of the page's first load (each diagram comes with the module that runs it).
    rows.extend(Row::ALL.iter().copied().filter(|r| r.is_auth()));
    for d in diagrams().iter().chain(modern_diagrams()) {
        for row in d.rows() {
            if !rows.contains(&row) {
                rows.push(row);
            }
        }
    }
    rows.extend(browse_rows());
    rows.extend(app_rows());
    rows
}

/// The App diagram's rows by their ids (its texts come with the module that hosts apps).
pub fn app_rows() -> impl Iterator<Item = Row> {
    Row::ALL.iter().copied().filter(|r| r.is_app())
}
/// The browse diagram's rows by their ids (its texts come with the module that runs it).
pub fn browse_rows() -> impl Iterator<Item = Row> {
    Row::ALL.iter().copied().filter(|r| r.is_browse())
}

pub use spec::{
    Actor, ArrowKind, Diagram, Item, Lang, Message, Note, NotePlacement, Participant, Text,
};
pub use text::{text_width, wrap_text};

/// The tutorial's diagrams, and the Authorization and browse diagrams, which both eras share.
fn shared() -> impl Iterator<Item = &'static Diagram> {
    diagrams().iter().chain([authorization(), browse(), app()])
}

/// The diagram with this id (`"d1"`, `"d2"` as the tutorial drew them, `"da"`, `"dr"` or `"dp"`).
pub fn diagram(id: &str) -> Option<&'static Diagram> {
    shared().find(|d| d.id == id)
}

/// The message row `row` and the diagram it belongs to (the tutorial's drawing of a row both
/// eras have).
pub fn find_row(row: Row) -> Option<(&'static Diagram, &'static Message)> {
    shared().find_map(|d| d.message(row).map(|m| (d, m)))
}
