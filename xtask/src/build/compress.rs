//! The release site's precompressed files: `FILE.gz` (gzip -9, flate2) and `FILE.br` (brotli 11,
//! Node's zlib through `xtask/brotli.mjs`) beside each compressible file of `dist/`, which
//! `weather-server --static` sends by the request's `Accept-Encoding`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::sh::{self, Result};

/// What is worth compressing: text and wasm (images and model files are compressed already).
const COMPRESSIBLE: [&str; 7] = ["wasm", "js", "mjs", "css", "html", "json", "svg"];

/// Whether `name` is a compressed copy this step wrote (not a file of the app).
pub fn is_variant(name: &str) -> bool {
    name.ends_with(".br") || name.ends_with(".gz")
}

/// The files of `dist` and its folders (not the copies) to compress.
fn compressible(dist: &Path) -> Result<Vec<PathBuf>> {
    Ok(sh::files_under(dist)?
        .into_iter()
        .filter(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            !is_variant(name) && COMPRESSIBLE.contains(&ext)
        })
        .collect())
}

/// gzip -9 of `bytes`, with gzip's header and trailer.
pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes)?;
    Ok(gz.finish()?)
}

/// Writes `.gz` and `.br` beside every compressible file of `dist`, each only where it is
/// smaller than the file.
pub fn precompress(dist: &Path) -> Result<()> {
    sh::step("precompressing the site (gzip -9 and brotli 11 beside each file)");
    let files = compressible(dist)?;
    for file in &files {
        let bytes = std::fs::read(file)?;
        let packed = gzip(&bytes)?;
        if packed.len() < bytes.len() {
            let mut gz = file.clone().into_os_string();
            gz.push(".gz");
            std::fs::write(gz, packed)?;
        }
    }
    let script = crate::workspace_root().join("xtask/brotli.mjs");
    sh::run(Command::new("node").arg(script).args(&files))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_apps_own_text_and_wasm_are_compressed() {
        let dir = std::env::temp_dir().join(format!("xtask-compress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = vec![b'a'; 1000];
        std::fs::create_dir_all(dir.join("b/1")).unwrap();
        for name in ["app.wasm", "b/1/app.js", "logo.png", "b/1/app.js.gz"] {
            std::fs::write(dir.join(name), &big).unwrap();
        }
        let names: Vec<String> = compressible(&dir)
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["app.wasm", "app.js"]);
        assert!(is_variant("app.js.br") && is_variant("app.js.gz") && !is_variant("app.js"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
