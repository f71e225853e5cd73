//! Leptos components. Thin: logic lives in plain Rust modules.

mod connect;
pub mod params;

pub use connect::App;
