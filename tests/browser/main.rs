//! Every browser test in one wasm-bindgen binary (one link, one wasm-bindgen pass, one Chromium
//! start): `cargo xtask test browser` runs it against the live servers each module names by an
//! `MCP_FLOW_TEST_*` variable. Natively it compiles to nothing.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

mod auth;
mod bench_exchange;
mod bridge;
mod client;
mod eras;
mod faults;
mod interop;
mod lifecycle;
mod player;
mod replay;
mod saved;
mod schema_check;
mod you;
