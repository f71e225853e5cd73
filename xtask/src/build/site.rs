//! The release build of the page into `dist/`, without Trunk: the one optimised build that
//! `cargo xtask run`, `test`, `size` and the benchmarks serve.
//!
//! It reads the same `index.html` that `trunk serve` reads and does what its `data-trunk` links ask:
//! copies the stylesheet and `boot.js`, builds each Web Worker (wasm-bindgen `no-modules` with a
//! loader script, as Trunk's `data-loader-shim` does), and builds the app itself once, with the
//! split points on (`--features split`, only on the app's own crate, so no dependency is compiled
//! twice) and the relocations the splitter needs asked only of the final link. Then
//! [`crate::build::split`] cuts the app into its first load and the modules fetched on demand.
//! A link this build does not know is an error, so Trunk and this build cannot drift apart silently.

use std::path::{Path, PathBuf};

use crate::setup::tools::Tools;
use crate::sh::{self, Result};
use crate::{target_dir, workspace_root};

/// Where the release site is written.
pub fn dist() -> PathBuf {
    workspace_root().join("dist")
}

/// The folder of `dist/` that holds one build's files under a name made of their contents
/// (`dist/b/<hash>/`), so a browser may keep them for good: `weather-server --static` sends them
/// as immutable (its `BUILD_DIR`, the same name). At the top stay only what is fetched by a fixed
/// address: `index.html`, the OAuth callback page and the workers' loaders, sent revalidated.
pub const BUILD_DIR: &str = "b";

/// This build's folder in `dist` (`dist/b/<hash>`), once the site is built.
pub fn build_dir(dist: &Path) -> Result<PathBuf> {
    let parent = dist.join(BUILD_DIR);
    let mut dirs = std::fs::read_dir(&parent)
        .map_err(|e| format!("{}: {e} (build the site first)", parent.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir());
    match (dirs.next(), dirs.next()) {
        (Some(dir), None) => Ok(dir),
        _ => Err(format!("{} should hold one build's folder", parent.display()).into()),
    }
}

/// Copied files that stay at the top of `dist/`: pages with addresses of their own.
fn stays_on_top(name: &str) -> bool {
    name.ends_with(".html")
}

/// One `<link data-trunk ...>` of index.html, as this build understands it.
#[derive(Debug, PartialEq, Eq)]
enum Asset {
    /// `rel="css"`: minified, linked as a stylesheet.
    Css(String),
    /// `rel="copy-file"`: copied as it is.
    Copy(String),
    /// `rel="rust"` without `href`: the app (the root package's binary).
    App { bin: String },
    /// `rel="rust" data-type="worker"`: a Web Worker built from the package at `manifest`;
    /// `opt` is wasm-opt's level (`None` for `data-wasm-opt="0"`).
    Worker {
        manifest: String,
        bin: String,
        opt: Option<String>,
    },
}

/// The value of attribute `name` in one tag (`name="value"`), or `Some("")` for a bare attribute.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = tag;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].chars().last();
        let after = &rest[at + name.len()..];
        rest = after;
        if !matches!(before, Some(c) if c.is_whitespace()) {
            continue;
        }
        if let Some(value) = after.strip_prefix("=\"") {
            return value.split('"').next();
        }
        if after.starts_with(|c: char| c.is_whitespace() || c == '/' || c == '>') {
            return Some("");
        }
    }
    None
}

fn asset(tag: &str) -> Result<Asset> {
    let need = |name: &str| {
        attribute(tag, name)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| format!("index.html: `{tag}` has no {name}"))
    };
    Ok(match attribute(tag, "rel") {
        Some("css") => Asset::Css(need("href")?),
        Some("copy-file") => Asset::Copy(need("href")?),
        Some("rust") => match (attribute(tag, "href"), attribute(tag, "data-type")) {
            (None, None) => Asset::App {
                bin: need("data-bin")?,
            },
            (Some(_), Some("worker")) if attribute(tag, "data-loader-shim").is_some() => {
                Asset::Worker {
                    manifest: need("href")?,
                    bin: need("data-bin")?,
                    opt: attribute(tag, "data-wasm-opt")
                        .filter(|level| *level != "0")
                        .map(str::to_owned),
                }
            }
            _ => {
                return Err(
                    format!("index.html: a Rust link this build does not know: {tag}").into(),
                );
            }
        },
        _ => {
            return Err(format!("index.html: a Trunk link this build does not know: {tag}").into());
        }
    })
}

/// index.html's Trunk links in order, and the page without them (what the links become is added
/// by [`page`]).
fn read_index(html: &str) -> Result<(Vec<Asset>, Vec<String>)> {
    let mut assets = Vec::new();
    let mut lines = Vec::new();
    for line in html.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("<link data-trunk") {
            if !trimmed.ends_with("/>") {
                return Err(
                    format!("index.html: keep each Trunk link on one line: {trimmed}").into(),
                );
            }
            assets.push(asset(trimmed)?);
            lines.push(String::new());
        } else if trimmed.contains("data-trunk") {
            return Err(
                format!("index.html: a Trunk tag this build does not know: {trimmed}").into(),
            );
        } else {
            lines.push(line.to_owned());
        }
    }
    if !assets.iter().any(|a| matches!(a, Asset::App { .. })) {
        return Err("index.html links no app (`<link data-trunk rel=\"rust\" ...>`)".into());
    }
    Ok((assets, lines))
}

/// The page as served: each Trunk link replaced by what the browser needs in its place (the
/// stylesheet, the app's module and wasm preloaded, as Trunk writes them; nothing for workers and
/// copied files, which the page fetches itself). `at` is where the build's files are served
/// (`/b/<hash>/`): the page's own references to copied files (`src="/boot.js"`) point there too.
fn page(assets: &[Asset], lines: &[String], at: &str) -> String {
    let mut out = String::new();
    let mut links = assets.iter();
    for line in lines {
        if !line.is_empty() {
            let mut line = line.clone();
            for asset in assets {
                if let Asset::Copy(href) = asset {
                    let name = file_name(href);
                    if !stays_on_top(name) {
                        line = line.replace(&format!("\"/{name}\""), &format!("\"{at}{name}\""));
                    }
                }
            }
            out.push_str(&line);
            out.push('\n');
            continue;
        }
        let indent = "    ";
        match links.next() {
            Some(Asset::Css(href)) => {
                let name = file_name(href);
                out.push_str(&format!(
                    "{indent}<link rel=\"stylesheet\" href=\"{at}{name}\" />\n"
                ));
            }
            Some(Asset::App { bin }) => {
                out.push_str(&format!(
                    "{indent}<link rel=\"modulepreload\" href=\"{at}{bin}.js\" crossorigin=\"anonymous\" />\n\
                     {indent}<link rel=\"preload\" href=\"{at}{bin}_bg.wasm\" crossorigin=\"anonymous\" as=\"fetch\" type=\"application/wasm\" />\n"
                ));
            }
            _ => {}
        }
    }
    out
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Builds the release site into `dist/` (emptied first: nothing of an earlier build or of
/// `trunk serve` stays to be served). When the compiled wasm, the page's files and xtask itself are
/// what the last build used, and `dist/` holds exactly what that build wrote, the split and
/// wasm-opt steps are skipped.
pub fn build(tools: &Tools) -> Result<()> {
    sh::step("building the web app (release: workers, the app with its split points, wasm-opt)");
    let root = workspace_root();
    let html = std::fs::read_to_string(root.join("index.html"))?;
    let (assets, lines) = read_index(&html)?;
    let mut inputs = vec![root.join("index.html")];
    let mut built = Vec::new();
    for asset in &assets {
        match asset {
            Asset::Css(href) | Asset::Copy(href) => inputs.push(root.join(href)),
            Asset::Worker { manifest, bin, .. } => {
                built.push(build_worker(tools, &root.join(manifest), bin)?)
            }
            Asset::App { bin } => built.push(build_app(tools, bin)?),
        }
    }
    inputs.extend(built.iter().cloned());
    let dist = dist();
    let stamp = target_dir().join("site-built.txt");
    let fingerprint = fingerprint(&inputs)?;
    if std::fs::read_to_string(&stamp).ok() == Some(format!("{fingerprint}\n{}", listing(&dist)?)) {
        println!("dist/ is what these inputs build: the split and wasm-opt steps are skipped");
        return Ok(());
    }
    let _ = std::fs::remove_file(&stamp);
    if dist.exists() {
        std::fs::remove_dir_all(&dist)?;
    }
    // The build's files go to a staging folder, renamed for their contents at the end.
    let stage = dist.join(BUILD_DIR).join("next");
    std::fs::create_dir_all(&stage)?;
    let mut optimise = Vec::new();
    let mut workers = Vec::new();
    let mut wasm = built.iter();
    for asset in &assets {
        match asset {
            Asset::Css(href) => {
                let css = std::fs::read_to_string(root.join(href))?;
                std::fs::write(
                    stage.join(file_name(href)),
                    crate::build::css::minify(&css, href)?,
                )?;
            }
            Asset::Copy(href) => {
                let name = file_name(href);
                let to = if stays_on_top(name) { &dist } else { &stage };
                std::fs::copy(root.join(href), to.join(name))?;
            }
            Asset::Worker { bin, opt, .. } => {
                let wasm = wasm.next().ok_or("a worker without its build")?;
                sh::run(
                    tools
                        .command(tools.cargo_bin().join("wasm-bindgen"))
                        .args(["--target", "no-modules", "--no-typescript"])
                        .args(["--out-name", bin, "--out-dir"])
                        .arg(&stage)
                        .arg(wasm),
                )?;
                workers.push(bin);
                if opt.is_some() {
                    let file = stage.join(format!("{bin}_bg.wasm"));
                    optimise.push((file.clone(), file));
                }
            }
            Asset::App { .. } => {
                let wasm = wasm.next().ok_or("the app without its build")?;
                optimise.extend(crate::build::split::split_app(tools, wasm, &stage)?);
            }
        }
    }
    crate::build::split::optimise_all(tools, &optimise)?;
    let scripts: Vec<String> = workers.iter().map(|bin| format!("{bin}.js")).collect();
    crate::build::js::minify_all(tools, &stage, &scripts)?;
    let hash = format!("{:016x}", contents_hash(&stage)?);
    std::fs::rename(&stage, dist.join(BUILD_DIR).join(&hash))?;
    let at = format!("{BUILD_DIR}/{hash}/");
    for bin in workers {
        std::fs::write(dist.join(format!("{bin}_loader.js")), loader(bin, &at))?;
    }
    std::fs::write(
        dist.join("index.html"),
        page(&assets, &lines, &format!("/{at}")),
    )?;
    crate::build::compress::precompress(&dist)?;
    std::fs::write(&stamp, format!("{fingerprint}\n{}", listing(&dist)?))?;
    Ok(())
}

/// A hash of the inputs' bytes and of xtask's own binary (its build steps are inputs too).
fn fingerprint(inputs: &[PathBuf]) -> Result<u64> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for input in inputs {
        input.hash(&mut hasher);
        std::fs::read(input)?.hash(&mut hasher);
    }
    let me = std::fs::metadata(std::env::current_exe()?)?;
    (me.len(), me.modified()?).hash(&mut hasher);
    Ok(hasher.finish())
}

/// A hash of the files' names (below `dir`) and bytes: the build folder's name.
fn contents_hash(dir: &Path) -> Result<u64> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in sh::files_under(dir)? {
        file.strip_prefix(dir).unwrap_or(&file).hash(&mut hasher);
        std::fs::read(&file)?.hash(&mut hasher);
    }
    Ok(hasher.finish())
}

/// `dist/`'s files with their sizes and times, one a line, sorted.
fn listing(dist: &Path) -> Result<String> {
    if !dist.exists() {
        return Ok(String::new());
    }
    let mut lines = Vec::new();
    for file in sh::files_under(dist)? {
        let meta = std::fs::metadata(&file)?;
        let since = meta
            .modified()?
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        lines.push(format!(
            "{} {} {}",
            file.strip_prefix(dist).unwrap_or(&file).display(),
            meta.len(),
            since.as_nanos()
        ));
    }
    Ok(lines.join("\n"))
}

/// The script a worker is started with (at the top of `dist/`, where the page asks for it): loads
/// wasm-bindgen's `no-modules` glue from the build's folder `at`, then the wasm, which runs the
/// worker's `main`.
fn loader(bin: &str, at: &str) -> String {
    format!(
        "importScripts('./{at}{bin}.js');\nwasm_bindgen({{ module_or_path: './{at}{bin}_bg.wasm' }});\n"
    )
}

fn build_worker(tools: &Tools, manifest: &Path, bin: &str) -> Result<PathBuf> {
    sh::run(
        tools
            .command("cargo")
            .current_dir(workspace_root())
            .args([
                "build",
                "--release",
                "--target",
                "wasm32-unknown-unknown",
                "--manifest-path",
            ])
            .arg(manifest)
            .args(["--bin", bin]),
    )?;
    Ok(target_dir().join(format!("wasm32-unknown-unknown/release/{bin}.wasm")))
}

/// The app's wasm with its split points (the `split` feature of the app's crate alone) and the
/// relocations the splitter needs (only the final link's argument).
fn build_app(tools: &Tools, bin: &str) -> Result<PathBuf> {
    sh::run(
        tools
            .command("cargo")
            .current_dir(workspace_root())
            .args(["rustc", "--release", "--target", "wasm32-unknown-unknown"])
            .args(["--package", "mcp-flow", "--bin", bin, "--features", "split"])
            .args(["--", "-C", "link-args=--emit-relocs"]),
    )?;
    Ok(target_dir().join(format!("wasm32-unknown-unknown/release/{bin}.wasm")))
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &str = r#"<html>
  <head>
    <link data-trunk rel="css" href="style/main.css" />
    <link data-trunk rel="rust" data-bin="mcp-flow" data-wasm-opt="z" data-wasm-opt-params="--enable-simd" />
    <link data-trunk rel="rust" href="w/Cargo.toml" data-bin="w" data-type="worker" data-loader-shim data-wasm-opt="0" />
    <link data-trunk rel="copy-file" href="boot.js" />
    <script type="module" src="/boot.js"></script>
  </head>
</html>"#;

    #[test]
    fn the_trunk_links_are_read_and_replaced() {
        let (assets, lines) = read_index(INDEX).expect("read");
        assert_eq!(
            assets,
            vec![
                Asset::Css("style/main.css".into()),
                Asset::App {
                    bin: "mcp-flow".into()
                },
                Asset::Worker {
                    manifest: "w/Cargo.toml".into(),
                    bin: "w".into(),
                    opt: None
                },
                Asset::Copy("boot.js".into()),
            ]
        );
        let html = page(&assets, &lines, "/b/0123/");
        assert!(!html.contains("data-trunk"), "{html}");
        assert!(html.contains(r#"<link rel="stylesheet" href="/b/0123/main.css" />"#));
        assert!(html.contains(r#"<link rel="modulepreload" href="/b/0123/mcp-flow.js""#));
        assert!(html.contains(r#"href="/b/0123/mcp-flow_bg.wasm""#));
        assert!(html.contains(r#"<script type="module" src="/b/0123/boot.js"></script>"#));
    }

    #[test]
    fn a_worker_is_started_at_the_top_and_loads_its_files_from_the_build_folder() {
        assert_eq!(
            loader("w", "b/0123/"),
            "importScripts('./b/0123/w.js');\nwasm_bindgen({ module_or_path: './b/0123/w_bg.wasm' });\n"
        );
        assert!(stays_on_top("oauth-callback.html") && !stays_on_top("boot.js"));
    }

    #[test]
    fn a_link_this_build_does_not_know_is_refused() {
        for tag in [
            r#"<link data-trunk rel="sass" href="a.scss" />"#,
            r#"<link data-trunk rel="rust" href="w/Cargo.toml" data-bin="w" />"#,
            r#"<link data-trunk rel="css" />"#,
        ] {
            let html =
                format!("<head>\n{tag}\n<link data-trunk rel=\"rust\" data-bin=\"a\" />\n</head>");
            assert!(read_index(&html).is_err(), "{tag}");
        }
        assert!(
            read_index("<head></head>").is_err(),
            "a page without the app"
        );
        assert!(
            read_index("<link data-trunk rel=\"rust\"\n data-bin=\"a\" />").is_err(),
            "a link over two lines"
        );
    }

    #[test]
    fn attributes_are_found_by_whole_name() {
        let tag =
            r#"<link data-trunk rel="rust" data-bin="w" data-type="worker" data-loader-shim />"#;
        assert_eq!(attribute(tag, "data-bin"), Some("w"));
        assert_eq!(attribute(tag, "data-loader-shim"), Some(""));
        assert_eq!(attribute(tag, "bin"), None);
        assert_eq!(attribute(tag, "href"), None);
    }

    #[test]
    fn the_project_index_is_one_this_build_understands() {
        let html =
            std::fs::read_to_string(workspace_root().join("index.html")).expect("index.html");
        let (assets, _) = read_index(&html).expect("index.html");
        let workers = assets
            .iter()
            .filter(|a| matches!(a, Asset::Worker { .. }))
            .count();
        assert_eq!(workers, 2, "the model's worker and the schema checker's");
    }
}
