//! The host flow: runs the two diagrams step by step through a gate, recording every row.

pub mod compare;
pub mod connect;
pub mod engine;
#[cfg(test)]
mod era_tests;
pub mod explain;
pub mod facts;
pub mod form_fields;
pub mod forms;
pub mod gate;
pub mod host;
pub mod lifetime;
pub mod live;
pub mod message_log;
pub mod payload;
pub mod run;
pub mod steps;
#[cfg(test)]
mod tests;
