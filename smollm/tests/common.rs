//! Shared by the tests that need the model file: where it is, one loaded copy, the tools.

// Each test binary uses only some of these.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use mcp_flow_smollm::{Model, Tool};

/// `$SMOLLM_MODEL`, else the file `cargo xtask setup` puts in the tools cache.
pub fn model_path() -> PathBuf {
    if let Some(p) = std::env::var_os("SMOLLM_MODEL") {
        return PathBuf::from(p);
    }
    let root = std::env::var_os("MCP_FLOW_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
            PathBuf::from(home).join(".cache/mcp-flow")
        });
    root.join("models/SmolLM2-135M-Instruct.Q8_0.gguf")
}

/// The model, loaded once per test binary; `None` (with a message saying why the test is
/// skipped) when the file is absent. `cargo xtask test` fetches it first and sets
/// `SMOLLM_REQUIRED=1`, so there an absent file fails the tests instead.
pub fn model() -> Option<&'static Model> {
    static MODEL: OnceLock<Option<Model>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let path = model_path();
            if !path.exists() {
                if std::env::var_os("SMOLLM_REQUIRED").is_some() {
                    panic!("no model at {} (SMOLLM_REQUIRED is set)", path.display());
                }
                eprintln!(
                    "SKIPPED: no model at {} (run `cargo xtask model` to fetch it)",
                    path.display()
                );
                return None;
            }
            match Model::from_file(&path) {
                Ok(m) => Some(m),
                Err(e) => panic!("the model at {} does not load: {e}", path.display()),
            }
        })
        .as_ref()
}

fn tools(json: &str) -> Vec<Tool> {
    serde_json::from_str(json).expect("a tools fixture")
}

/// The weather server's tools, as its `tools/list` returns them.
pub fn weather_tools() -> Vec<Tool> {
    tools(include_str!("../../tests/fixtures/weather-tools.json"))
}

/// The calculator's tools (`add`, `subtract`, `multiply`, `divide`).
pub fn calc_tools() -> Vec<Tool> {
    tools(include_str!("../../tests/fixtures/calc-tools.json"))
}
