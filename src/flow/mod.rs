//! The host flow: runs the two diagrams step by step through a gate, recording every row.

pub mod explain;
pub mod gate;
pub mod history;
pub mod host;
pub mod lifetime;
pub mod live;
pub mod payload;
pub mod run;
#[cfg(test)]
mod tests;
