//! The site's JavaScript as it ships: wasm-bindgen's glue, the split modules' loader, the boot
//! script and the workers' scripts minified by terser (only local names are renamed: exports,
//! imports and the wasm's import object keep theirs), so every first load carries fewer bytes.
//! `trunk serve` keeps the readable files.

use std::path::Path;

use crate::setup::tools::Tools;
use crate::sh::{self, Result};

/// Minifies every `.js` file in `dir` in place; `scripts` are classic scripts (the workers',
/// whose top-level names are globals), the rest ES modules.
pub fn minify_all(tools: &Tools, dir: &Path, scripts: &[String]) -> Result<()> {
    sh::step("minifying the site's JavaScript (terser)");
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "js"))
        .collect();
    files.sort();
    for file in files {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        let module = !scripts.contains(&name);
        let out = file.with_extension("min.js");
        let mut cmd = tools.command(tools.npm_bin().join("terser"));
        cmd.arg(&file).args(["--compress", "--mangle"]);
        if module {
            cmd.arg("--module");
        }
        sh::run(cmd.arg("-o").arg(&out))?;
        std::fs::rename(&out, &file)?;
    }
    Ok(())
}
