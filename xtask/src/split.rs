//! The release build's split step: the parts of the app that run only on the user's demand
//! (functions marked with `on_demand!`, src/ui/on_demand.rs) leave the first load and
//! become wasm modules of their own that the page fetches on first use.
//!
//! Trunk cannot split a wasm module, so after `trunk build --release` this step builds the app's
//! wasm again with `--cfg mcp_flow_split` (the split points) and `--emit-relocs` (what the
//! splitter needs to move code and data), splits it with `wasm_split_cli_support` (the splitter
//! Leptos' own build tool uses), runs wasm-bindgen on the main module and wasm-opt on every
//! piece, and puts the result in `dist/` in place of Trunk's unsplit app. `trunk serve` and the
//! wasm-bindgen tests build without the cfg and call the same functions in place.

use std::path::{Path, PathBuf};

use crate::sh::{self, Result};
use crate::tools::Tools;
use crate::{target_dir, workspace_root};

/// The app's JavaScript module, as Trunk names it (`filehash = false`): the split modules'
/// loader imports `initSync` from it.
const APP_JS: &str = "mcp-flow.js";
/// The loader of the split modules, imported by the app's JavaScript.
const LINK_JS: &str = "__wasm_split.js";
/// The split modules' names start so (`split_<module>.wasm`, and shared `chunk_…`).
const SPLIT_PREFIXES: [&str; 2] = ["split_", "chunk_"];

/// wasm-opt's features for the app: what rustc emits for wasm32 today plus SIMD (the same as
/// `data-wasm-opt-params` in index.html, made explicit because the pieces are optimised alone).
pub const WASM_OPT_FEATURES: [&str; 7] = [
    "--enable-simd",
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// The first load's wasm before wasm-opt (wasm-bindgen's output, names kept), once the split
/// step has run.
pub fn main_module() -> PathBuf {
    target_dir().join("split/pkg/mcp-flow_bg.wasm")
}

pub fn split_app(tools: &Tools) -> Result<()> {
    sh::step("splitting the app: what runs on demand leaves the first load");
    let work = target_dir().join("split");
    let wasm = build(tools, &work)?;
    let pieces = work.join("pieces");
    let pkg = work.join("pkg");
    for dir in [&pieces, &pkg] {
        if dir.exists() {
            std::fs::remove_dir_all(dir)?;
        }
        std::fs::create_dir_all(dir)?;
    }
    let input = std::fs::read(&wasm)?;
    let main_wasm = pieces.join("main.wasm");
    let (link, app) = (format!("./{LINK_JS}"), format!("./{APP_JS}"));
    let mut opts = wasm_split_cli_support::Options::new(&input);
    opts.output_dir = &pieces;
    opts.main_out_path = &main_wasm;
    opts.link_name = &link;
    opts.main_module = &app;
    let split = wasm_split_cli_support::transform(opts)
        .map_err(|e| format!("splitting {}: {e:#}", wasm.display()))?;
    if split.split_modules.is_empty() {
        return Err("the split build has no split point: is `--cfg mcp_flow_split` set?".into());
    }
    sh::run(
        tools
            .command(tools.cargo_bin().join("wasm-bindgen"))
            .args(["--target", "web", "--no-typescript", "--keep-lld-exports"])
            .args(["--out-name", "mcp-flow", "--out-dir"])
            .arg(&pkg)
            .arg(&main_wasm),
    )?;
    let dist = workspace_root().join("dist");
    remove_old_pieces(&dist)?;
    optimise(
        tools,
        &pkg.join("mcp-flow_bg.wasm"),
        &dist.join("mcp-flow_bg.wasm"),
    )?;
    std::fs::copy(pkg.join(APP_JS), dist.join(APP_JS))?;
    std::fs::copy(pieces.join(LINK_JS), dist.join(LINK_JS))?;
    for module in &split.split_modules {
        let name = module
            .file_name()
            .ok_or_else(|| format!("a split module without a name: {}", module.display()))?;
        optimise(tools, module, &dist.join(name))?;
    }
    println!(
        "split out of the first load: {} module(s): {}",
        split.split_modules.len(),
        split
            .split_modules
            .iter()
            .filter_map(|m| m.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

/// Builds the app's wasm with the split points, in a target folder of its own so that it does
/// not undo Trunk's build (other flags, other artefacts).
fn build(tools: &Tools, work: &Path) -> Result<PathBuf> {
    sh::run(
        tools
            .command("cargo")
            .current_dir(workspace_root())
            .args(["build", "--release", "--target", "wasm32-unknown-unknown"])
            .args(["-p", "mcp-flow", "--bin", "mcp-flow", "--target-dir"])
            .arg(work.join("target"))
            // Appended to the rustflags of .cargo/config.toml (command-line config arrays
            // are merged, RUSTFLAGS would replace them).
            .args([
                "--config",
                r#"target.wasm32-unknown-unknown.rustflags = ["--cfg", "mcp_flow_split", "-C", "link-args=--emit-relocs"]"#,
            ]),
    )?;
    Ok(work.join("target/wasm32-unknown-unknown/release/mcp-flow.wasm"))
}

fn optimise(tools: &Tools, from: &Path, to: &Path) -> Result<()> {
    sh::run(
        tools
            .command(tools.npm_bin().join("wasm-opt"))
            .arg(from)
            .args(["-Oz"])
            .args(WASM_OPT_FEATURES)
            .arg("-o")
            .arg(to),
    )
}

/// A split module of an earlier build would be served beside the new app: remove them all.
fn remove_old_pieces(dist: &Path) -> Result<()> {
    for entry in std::fs::read_dir(dist)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let piece = SPLIT_PREFIXES.iter().any(|p| name.starts_with(p)) && name.ends_with(".wasm");
        if piece || name == LINK_JS {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}
