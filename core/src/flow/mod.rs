//! The host flow: runs the diagrams step by step through a gate, reporting every row to the
//! run record (`crate::record`).

mod approval;
pub mod apps;
#[cfg(test)]
mod apps_tests;
pub mod auth_rows;
#[cfg(test)]
mod auth_tests;
pub mod browse;
#[cfg(test)]
mod browse_tests;
pub mod connect;
pub mod engine;
#[cfg(test)]
mod era_tests;
pub mod form_fields;
pub mod forms;
pub mod gate;
pub mod hearing;
#[cfg(test)]
mod hearing_tests;
pub mod host;
pub mod lifetime;
mod link_call;
mod pages;
mod relist;
pub mod roots;
pub mod sampling;
mod sampling_rows;
pub mod session;
pub mod steps;
pub mod task;
#[cfg(test)]
mod task_tests;
#[cfg(test)]
mod tests;
