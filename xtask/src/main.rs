//! `cargo xtask run`: set up what is missing, build, start the weather server with the app.
//! `cargo xtask test`: set up what is missing and run every test (or only some stages).

mod bench;
mod build;
mod run;
mod server;
mod setup;
mod sh;
mod test;

use std::path::PathBuf;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  run [--bind ADDR]   install what is missing, build the app and the weather server, and serve both
                      (default http://127.0.0.1:8000/)
      [--bridge stdio -- CMD ARGS... | --bridge http URL]
                      also start mcp-flow-bridge for your own server and print the page's address
  test [STAGE...]     install what is missing and run every test, or only the stages named;
                      a report (time and counts per stage) ends each run
      --list          name the stages and what each covers
  bench               run the benchmarks and print their figures
  size                the first load, gzipped, against its budget, and what makes up the wasm
                      (builds the app first; an unchanged build is not redone)
  bench-bridge        only the bridge's overhead per tools/call, beside supergateway
  bench-ceiling       only tools/call beside the floor: the server on one CPU, wrk on the other
  bench-model         only the language model's figures, natively and in the page
  setup               only install what is missing: the tests' tools, and Trunk for the dev loop
                      (`trunk serve`; run and test do not need it)
  model               only fetch the language model and convert it (part of setup)";

fn main() {
    share_target_dir();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result =
        setup::tools::claim_target_dir().and_then(|()| match args.first().map(String::as_str) {
            Some("run") => run::run(&args[1..]),
            Some("test") => test::test(&args[1..]),
            Some("bench") => bench::bench(),
            Some("size") => build::size::size(&args[1..]),
            Some("bench-bridge") => bench::bridge::run(),
            Some("bench-ceiling") => bench::ceiling::run(),
            Some("bench-model") => bench::model::run(),
            Some("setup") => {
                let tools = setup::tools::Tools::locate();
                tools.ensure_test().and_then(|()| tools.ensure_trunk())
            }
            Some("model") => setup::tools::Tools::locate().ensure_model(),
            _ => {
                eprintln!("{USAGE}");
                std::process::exit(2);
            }
        });
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

/// Every cargo command xtask starts builds into the shared target folder
/// ([`setup::tools::Tools::shared_target_dir`]) unless `CARGO_TARGET_DIR` names another.
fn share_target_dir() {
    if std::env::var_os("CARGO_TARGET_DIR").is_none() {
        let dir = setup::tools::Tools::locate().shared_target_dir();
        // SAFETY: the first thing main does, before any thread exists.
        unsafe { std::env::set_var("CARGO_TARGET_DIR", dir) };
    }
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
