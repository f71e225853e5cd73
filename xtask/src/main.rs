//! `cargo xtask run`: set up what is missing, build, start the weather server with the app.
//! `cargo xtask test`: set up what is missing and run every test.

mod bench;
mod bench_bridge;
mod bench_model;
mod figures;
mod interop;
mod peers;
mod relay_conformance;
mod run;
mod server;
mod sh;
mod size;
mod split;
mod test;
mod tools;

use std::path::PathBuf;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  run [--bind ADDR]   install what is missing, build the app and the weather server, and serve both
                      (default http://127.0.0.1:8000/)
      [--bridge stdio -- CMD ARGS... | --bridge http URL]
                      also start mcp-flow-bridge for your own server and print the page's address
  test                install what is missing and run every test (lint, native, browser, conformance)
  bench               run the benchmarks and print their figures
  size [--build]      the first load, gzipped, against its budget, and what makes up the wasm
                      (builds the app unless dist/ is newer than its sources)
  bench-bridge        only the bridge's overhead per tools/call, beside supergateway
  bench-model         only the language model's figures, natively and in the page
  setup               only install what is missing
  model               only fetch the language model and convert it (part of setup)";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => run::run(&args[1..]),
        Some("test") => test::test(),
        Some("bench") => bench::bench(),
        Some("size") => size::size(&args[1..]),
        Some("bench-bridge") => bench_bridge::run(),
        Some("bench-model") => bench_model::run(),
        Some("setup") => tools::Tools::locate().ensure_test(),
        Some("model") => tools::Tools::locate().ensure_model(),
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    if let Err(e) = result {
        eprintln!("\nxtask: error: {e}");
        std::process::exit(1);
    }
}

/// The workspace root (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(PathBuf::from).unwrap_or(here)
}

/// Where cargo puts build output: `$CARGO_TARGET_DIR`, else `target/` in the workspace.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                workspace_root().join(dir)
            }
        }
        None => workspace_root().join("target"),
    }
}
