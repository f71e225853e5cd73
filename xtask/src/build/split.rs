//! The release build's split step: the parts of the app that run only on the user's demand
//! (functions marked with `on_demand!`, on-demand/src/lib.rs) leave the first load and become wasm
//! modules of their own that the page fetches on first use.
//!
//! [`crate::build::site`] builds the app's wasm once with the split points (`--features split`) and
//! `--emit-relocs` (what the splitter needs to move code and data); this step splits it with
//! `wasm_split_cli_support` (the splitter Leptos' own build tool uses), runs wasm-bindgen on the
//! main module and hands every piece to wasm-opt. `trunk serve` and the wasm-bindgen tests build
//! without the feature and call the same functions in place.

use std::path::{Path, PathBuf};

use crate::setup::tools::Tools;
use crate::sh::{self, Result};
use crate::target_dir;

/// The app's JavaScript module, as Trunk names it (`filehash = false`): the split modules'
/// loader imports `initSync` from it.
const APP_JS: &str = "mcp-flow.js";
/// The loader of the split modules, imported by the app's JavaScript.
const LINK_JS: &str = "__wasm_split.js";

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

/// Splits `wasm` into `dist/`: the main module through wasm-bindgen, the loader of the split
/// modules. Returns the pieces still to optimise, as (from, to).
pub fn split_app(tools: &Tools, wasm: &Path, dist: &Path) -> Result<Vec<(PathBuf, PathBuf)>> {
    sh::step("splitting the app: what runs on demand leaves the first load");
    let work = target_dir().join("split");
    let pieces = work.join("pieces");
    let pkg = work.join("pkg");
    for dir in [&pieces, &pkg] {
        if dir.exists() {
            std::fs::remove_dir_all(dir)?;
        }
        std::fs::create_dir_all(dir)?;
    }
    let input = std::fs::read(wasm)?;
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
        return Err("the split build has no split point: is the `split` feature on?".into());
    }
    sh::run(
        tools
            .command(tools.cargo_bin().join("wasm-bindgen"))
            .args(["--target", "web", "--no-typescript", "--keep-lld-exports"])
            .args(["--out-name", "mcp-flow", "--out-dir"])
            .arg(&pkg)
            .arg(&main_wasm),
    )?;
    std::fs::copy(pkg.join(APP_JS), dist.join(APP_JS))?;
    let merged = merge_chunks(&pieces, &dist.join(LINK_JS))?;
    let mut todo = vec![(pkg.join("mcp-flow_bg.wasm"), dist.join("mcp-flow_bg.wasm"))];
    let mut names = Vec::new();
    for module in split.split_modules.iter().chain(&merged) {
        let name = module
            .file_name()
            .ok_or_else(|| format!("a split module without a name: {}", module.display()))?;
        if name.to_string_lossy().starts_with("chunk_") && !merged.contains(module) {
            continue;
        }
        names.push(name.to_string_lossy().into_owned());
        todo.push((module.clone(), dist.join(name)));
    }
    println!(
        "split out of the first load: {} file(s): {}",
        names.len(),
        names.join(", ")
    );
    Ok(todo)
}

/// Merges the splitter's shared chunks (one per set of modules that share code) into one file per
/// module (xtask/src/build/chunks.rs) and writes the loader that fetches them to `link_js`. Returns the
/// merged chunks' files.
fn merge_chunks(pieces: &Path, link_js: &Path) -> Result<Vec<PathBuf>> {
    let js = std::fs::read_to_string(pieces.join(LINK_JS))?;
    let chunks = crate::build::chunks::chunks_in(&js)?;
    let merges = crate::build::chunks::plan(&chunks);
    let mut files = Vec::new();
    for merge in &merges {
        let parts = merge
            .from
            .iter()
            .map(|c| std::fs::read(pieces.join(&c.file)))
            .collect::<std::io::Result<Vec<_>>>()?;
        let out = pieces.join(&merge.file);
        std::fs::write(
            &out,
            crate::build::chunks::merge(&parts)
                .map_err(|e| format!("merging {}: {e}", merge.file))?,
        )?;
        files.push(out);
    }
    std::fs::write(link_js, crate::build::chunks::rewrite_loader(&js, &merges)?)?;
    println!(
        "{} shared chunk(s) merged into {}",
        chunks.len(),
        merges
            .iter()
            .map(|m| format!("{} ({})", m.file, m.from.len()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(files)
}

/// `wasm-opt -Oz` on every (from, to), two at a time, largest first.
pub fn optimise_all(tools: &Tools, pieces: &[(PathBuf, PathBuf)]) -> Result<()> {
    sh::step(&format!(
        "wasm-opt -Oz on {} module(s), two at a time",
        pieces.len()
    ));
    let mut pieces: Vec<&(PathBuf, PathBuf)> = pieces.iter().collect();
    pieces.sort_by_key(|(from, _)| {
        std::cmp::Reverse(std::fs::metadata(from).map(|m| m.len()).unwrap_or(0))
    });
    let failures: Vec<String> = sh::side_by_side(&pieces, 2, |(from, to)| {
        optimise(tools, from, to).err().map(|e| e.to_string())
    })
    .into_iter()
    .flatten()
    .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; ").into())
    }
}

fn optimise(tools: &Tools, from: &Path, to: &Path) -> Result<()> {
    sh::run(
        tools
            .command(tools.npm_bin().join("wasm-opt"))
            .arg(from)
            .args(["-Oz"])
            .args(WASM_OPT_FEATURES)
            // Sections only tools read (the features are given above): bytes on every fetch.
            .args(["--strip-producers", "--strip-target-features"])
            .arg("-o")
            .arg(to),
    )
}
