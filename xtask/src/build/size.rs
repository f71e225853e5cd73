//! `cargo xtask size`: what the page downloads before it is interactive, gzipped, and what makes
//! up the app's wasm. `cargo xtask test` checks the same first load against the budget.
//!
//! The first load is found by following the page: `index.html`, the stylesheets and scripts it
//! links, the static `import`s of those scripts, and the wasm of each wasm-bindgen module they
//! import (`name.js` → `name_bg.wasm`). Any other file in `dist/` is not fetched by the page
//! until something asks for it, and is listed apart. Sizes are gzip level 9 (flate2), per
//! file, and the bytes on the wire: the brotli copy the release build wrote beside the file
//! (`xtask/src/build/compress.rs`), which `weather-server --static` sends a browser that accepts br.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::setup::tools::Tools;
use crate::sh::{self, Result};
use crate::workspace_root;

/// The most the first load may weigh, gzipped, so that it cannot creep up unnoticed: the goal
/// itself. Raise it only on purpose, with the reason in the commit and docs/performance.md; what
/// a feature can do instead is in docs/architecture.md ("Adding a feature without growing the
/// first load").
pub const FIRST_LOAD_BUDGET_BYTES: u64 = 235_000;

/// A file of the built app.
pub struct Sized {
    /// Path inside `dist/`, with `/`.
    pub name: String,
    pub raw: u64,
    pub gz: u64,
    /// What goes over the wire to a browser that accepts br: its `.br` copy, else its `.gz`
    /// one, else the file.
    pub br: u64,
}

/// The built app's files: the first load and the rest.
pub struct Load {
    pub first: Vec<Sized>,
    pub later: Vec<Sized>,
}

impl Load {
    pub fn first_gz(&self) -> u64 {
        self.first.iter().map(|f| f.gz).sum()
    }

    pub fn first_br(&self) -> u64 {
        self.first.iter().map(|f| f.br).sum()
    }
}

/// Builds the release site (the build itself skips what is up to date) and measures it.
pub fn size(args: &[String]) -> Result<()> {
    if !args.is_empty() {
        return Err("usage: cargo xtask size".into());
    }
    let tools = Tools::locate();
    let dist = crate::build::site::dist();
    tools.ensure_build()?;
    crate::build::site::build(&tools)?;
    let load = measure(&dist)?;
    print(&load);
    println!();
    contributors(&tools)?;
    verdict(&load)
}

/// After the build in `cargo xtask test`: fails when the first load passes the budget.
pub fn check_budget() -> Result<()> {
    sh::step("first load against its budget");
    let load = measure(&workspace_root().join("dist"))?;
    print(&load);
    verdict(&load)
}

fn verdict(load: &Load) -> Result<()> {
    let total = load.first_gz();
    if total > FIRST_LOAD_BUDGET_BYTES {
        return Err(format!(
            "the first load is {} gzipped, over its budget of {} by {} (see `cargo xtask size`)",
            kb(total),
            kb(FIRST_LOAD_BUDGET_BYTES),
            kb(total - FIRST_LOAD_BUDGET_BYTES)
        )
        .into());
    }
    Ok(())
}

fn kb(bytes: u64) -> String {
    format!("{:.1} KB", bytes as f64 / 1000.0)
}

fn print(load: &Load) {
    let table = |files: &[Sized]| {
        for f in files {
            println!("  {:<52} {:>10} {:>10} {:>10}", f.name, f.raw, f.gz, f.br);
        }
    };
    println!(
        "first load (what the page fetches before it is interactive), bytes:\n  {:<52} {:>10} {:>10} {:>10}",
        "file", "raw", "gzip -9", "br (wire)"
    );
    table(&load.first);
    let total = load.first_gz();
    let raw: u64 = load.first.iter().map(|f| f.raw).sum();
    println!(
        "  {:<52} {:>10} {:>10} {:>10}",
        "total",
        raw,
        total,
        load.first_br()
    );
    let margin = FIRST_LOAD_BUDGET_BYTES as i64 - total as i64;
    println!(
        "first load gzipped: {} (budget {}, {} {})",
        kb(total),
        kb(FIRST_LOAD_BUDGET_BYTES),
        kb(margin.unsigned_abs()),
        if margin >= 0 { "to spare" } else { "OVER" }
    );
    println!("first load on the wire (brotli): {}", kb(load.first_br()));
    if !load.later.is_empty() {
        println!("\nin dist/ but not in the first load:");
        table(&load.later);
    }
}

/// Sizes every file of `dist`, split into the first load and the rest.
pub fn measure(dist: &Path) -> Result<Load> {
    if !dist.join("index.html").exists() {
        return Err(format!("{} has no index.html: build the app first", dist.display()).into());
    }
    let first = first_load(dist)?;
    let mut all = Vec::new();
    for path in crate::sh::files_under(dist)? {
        if let Ok(rel) = path.strip_prefix(dist) {
            all.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    let mut load = Load {
        first: Vec::new(),
        later: Vec::new(),
    };
    for name in all
        .into_iter()
        .filter(|n| !crate::build::compress::is_variant(n))
    {
        let bytes = std::fs::read(dist.join(&name))?;
        let gz = gzip_len(&bytes)?;
        // What the server sends a browser that accepts br: the .br copy, else the .gz one,
        // else the file itself.
        let copy = |ext: &str| std::fs::metadata(dist.join(format!("{name}.{ext}"))).ok();
        let br = copy("br")
            .or_else(|| copy("gz"))
            .map_or(bytes.len() as u64, |m| m.len());
        let sized = Sized {
            raw: bytes.len() as u64,
            gz,
            br,
            name: name.clone(),
        };
        if first.contains(&name) {
            load.first.push(sized);
        } else {
            load.later.push(sized);
        }
    }
    // The wasm last: it is most of it.
    load.first
        .sort_by_key(|f| (f.name.ends_with(".wasm"), f.name.clone()));
    Ok(load)
}

/// The bytes gzip -9 makes of `bytes` (deflate at level 9 with gzip's header and trailer).
pub fn gzip_len(bytes: &[u8]) -> Result<u64> {
    Ok(crate::build::compress::gzip(bytes)?.len() as u64)
}

/// The files the page fetches before it runs: from `index.html`, its stylesheets and scripts,
/// their static imports, and the wasm of each wasm-bindgen module reached.
fn first_load(dist: &Path) -> Result<BTreeSet<String>> {
    let mut seen = BTreeSet::new();
    let mut todo = vec!["index.html".to_owned()];
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let path = dist.join(&name);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{} (reached from the page): {e}", path.display()))?;
        let refs = if name.ends_with(".html") {
            html_refs(&text)
        } else if name.ends_with(".js") {
            let glue_wasm = name.trim_end_matches(".js").to_owned() + "_bg.wasm";
            if dist.join(&glue_wasm).exists() {
                seen.insert(glue_wasm);
            }
            js_imports(&text)
        } else {
            Vec::new()
        };
        for r in refs {
            if let Some(target) = resolve(&name, &r) {
                todo.push(target);
            }
        }
    }
    Ok(seen)
}

/// `href` of stylesheet links and `src` of scripts.
fn html_refs(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for tag in html.split('<').skip(1) {
        let tag = tag.split('>').next().unwrap_or_default();
        let attr = if tag.starts_with("script") {
            "src"
        } else if tag.starts_with("link") && tag.contains("stylesheet") {
            "href"
        } else {
            continue;
        };
        if let Some(value) = attribute(tag, attr) {
            out.push(value);
        }
    }
    out
}

/// The value of `name=…` in a tag, quoted or not.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let at = tag
        .match_indices(&format!("{name}="))
        .find(|(i, _)| *i == 0 || tag.as_bytes()[i - 1].is_ascii_whitespace())?
        .0;
    let rest = &tag[at + name.len() + 1..];
    Some(match rest.chars().next()? {
        q @ ('"' | '\'') => rest[1..].split(q).next()?.to_owned(),
        _ => rest.split_ascii_whitespace().next()?.to_owned(),
    })
}

/// The modules a script imports statically: `import … from '…'`, `export … from '…'` and
/// `import '…'`. A dynamic `import(…)` is a load on demand and is not followed.
fn js_imports(js: &str) -> Vec<String> {
    let mut out = Vec::new();
    for statement in js.split([';', '\n']) {
        let s = statement.trim_start();
        // Readable (`import x from './a.js'`) or minified (`import{a as b}from"./a.js"`).
        let from = if s.starts_with("import") || s.starts_with("export") {
            match s.rfind("from") {
                Some(i) => Some(&s[i + 4..]),
                None if s.starts_with("import") => Some(&s[6..]),
                None => None,
            }
        } else {
            None
        };
        if let Some(spec) = from.and_then(quoted) {
            out.push(spec);
        }
    }
    out
}

fn quoted(s: &str) -> Option<String> {
    let s = s.trim_start();
    let q = s.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    Some(s[1..].split(q).next()?.to_owned())
}

/// `reference` as written in `from` (a file in dist), as a path in dist; `None` for URLs.
fn resolve(from: &str, reference: &str) -> Option<String> {
    if reference.contains("://") || reference.starts_with("data:") {
        return None;
    }
    let reference = reference.split(['?', '#']).next()?;
    let mut parts: Vec<&str> = if reference.starts_with('/') {
        Vec::new()
    } else {
        from.split('/').collect()
    };
    if !reference.starts_with('/') {
        parts.pop();
    }
    for part in reference.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// What makes up the first load's wasm, after `wasm-opt -Oz`, by crate and by item, from twiggy
/// (with names kept: `wasm-opt -g`): the split build's main module (xtask/src/build/split.rs), or
/// Trunk's whole app when no split build is there.
fn contributors(tools: &Tools) -> Result<()> {
    let twiggy = twiggy();
    let Some(twiggy) = twiggy else {
        println!(
            "top contributors: twiggy is not installed; `cargo install twiggy` and run this again \
             (it reads the first load's wasm with names kept: wasm-opt -Oz -g)"
        );
        return Ok(());
    };
    let work = crate::target_dir().join("size");
    std::fs::create_dir_all(&work)?;
    let named = work.join("mcp-flow.named.wasm");
    let split = crate::build::split::main_module();
    let input = if split.exists() {
        split
    } else {
        let built = crate::target_dir().join("wasm32-unknown-unknown/release/mcp-flow.wasm");
        if !built.exists() {
            println!(
                "top contributors: no {} (run with --build)",
                built.display()
            );
            return Ok(());
        }
        sh::run(
            tools
                .command(tools.cargo_bin().join("wasm-bindgen"))
                .args(["--target", "web", "--no-typescript", "--out-dir"])
                .arg(&work)
                .arg(&built),
        )?;
        work.join("mcp-flow_bg.wasm")
    };
    sh::step(&format!(
        "attributing {} (wasm-opt -Oz -g, twiggy)",
        input.display()
    ));
    sh::run(
        tools
            .command(tools.npm_bin().join("wasm-opt"))
            .arg(&input)
            .args(["-Oz", "-g"])
            .args(crate::build::split::WASM_OPT_FEATURES)
            .arg("-o")
            .arg(&named),
    )?;
    let csv = sh::capture(
        Command::new(&twiggy)
            .args(["top", "-n", "1000000", "-f", "csv"])
            .arg(&named),
    )?;
    let items = parse_top(&csv);
    let total: u64 = items.iter().map(|(_, s)| s).sum();
    let mut by_crate: Vec<(String, u64)> = Vec::new();
    for (name, bytes) in &items {
        let c = crate_of(name);
        match by_crate.iter_mut().find(|(k, _)| *k == c) {
            Some((_, sum)) => *sum += bytes,
            None => by_crate.push((c, *bytes)),
        }
    }
    by_crate.sort_by_key(|c| std::cmp::Reverse(c.1));
    println!(
        "top contributors to mcp-flow_bg.wasm ({} of code and data before gzip; twiggy, names kept):",
        kb(total)
    );
    for (c, bytes) in by_crate.iter().take(15) {
        println!(
            "  {:>9} {:>5.1}%  {c}",
            kb(*bytes),
            100.0 * *bytes as f64 / total as f64
        );
    }
    println!("largest items:");
    for (name, bytes) in items.iter().take(12) {
        let short: String = name.chars().take(110).collect();
        println!("  {:>9}  {short}", kb(*bytes));
    }
    println!("(more: twiggy top|dominators|paths {})", named.display());
    Ok(())
}

fn twiggy() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    [PathBuf::from("twiggy"), home.join(".cargo/bin/twiggy")]
        .into_iter()
        .find(|t| {
            Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// `(name, shallow bytes)` from `twiggy top -f csv`, largest first, without the name section.
fn parse_top(csv: &str) -> Vec<(String, u64)> {
    let mut items: Vec<(String, u64)> = csv
        .lines()
        .skip(1)
        .filter_map(|line| {
            // Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent; the name
            // may be quoted and hold commas.
            let mut fields = line.rsplitn(5, ',');
            let _ = (fields.next(), fields.next(), fields.next());
            let size = fields.next()?.parse().ok()?;
            let name = fields.next()?;
            let name = match name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
                Some(quoted) => quoted.replace("\"\"", "\""),
                None => name.to_owned(),
            };
            Some((name, size))
        })
        .filter(|(name, _)| !name.ends_with("subsection"))
        .collect();
    items.sort_by_key(|i| std::cmp::Reverse(i.1));
    items
}

/// The crate an item belongs to (`mcp_flow` by module), `data` for data segments.
fn crate_of(name: &str) -> String {
    if name.starts_with("data segment") {
        return "data (strings, tables)".into();
    }
    let mut s = name.trim_start_matches(['<', '&', '*', '(', ' ']);
    for prefix in ["dyn ", "mut ", "impl ", "const "] {
        s = s.trim_start_matches(prefix);
    }
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut first = ident(s);
    // `<T as tachys::…>`: a generic parameter, so the trait's crate.
    if first.len() <= 1
        && let Some(i) = s.find(" as ")
    {
        first = ident(s[i + 4..].trim_start_matches(['<', '&']));
    }
    if matches!(
        first.as_str(),
        "mcp_flow" | "mcp_flow_core" | "mcp_flow_client"
    ) {
        let module = ident(s.split("::").nth(1).unwrap_or_default());
        return format!("{first}::{module}");
    }
    if first.is_empty() || first == "code" {
        "unnamed functions".into()
    } else {
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_followed_through_its_imports() {
        let html = r#"<!doctype html><link href=/main.css integrity=x rel=stylesheet><link data-bin=mcp-flow rel=rust><script src=/boot.js type=module></script>"#;
        assert_eq!(html_refs(html), ["/main.css", "/boot.js"]);
        let html = r#"<link rel="stylesheet" href="style/a.css" /><script type="module" src="./boot.js"></script>"#;
        assert_eq!(html_refs(html), ["style/a.css", "./boot.js"]);
        let js = "import init from './mcp-flow.js';\nawait init({ module_or_path: './mcp-flow_bg.wasm' });";
        assert_eq!(js_imports(js), ["./mcp-flow.js"]);
        // As terser writes them.
        let min = r#"import e from"./mcp-flow.js";import{a as b}from'./x.js';export{c}from"./y.js";await e({module_or_path:"./mcp-flow_bg.wasm"})"#;
        assert_eq!(js_imports(min), ["./mcp-flow.js", "./x.js", "./y.js"]);
        let glue = "import { call, cancel } from './snippets/m-1/src/helper.js';\nimport * as import1 from \"./snippets/m-1/src/helper.js\"\nexport { initSync, __wbg_init as default };\nconst m = await import(at('lazy.js'));";
        assert_eq!(
            js_imports(glue),
            [
                "./snippets/m-1/src/helper.js",
                "./snippets/m-1/src/helper.js"
            ]
        );
        assert_eq!(
            resolve("index.html", "/boot.js").as_deref(),
            Some("boot.js")
        );
        assert_eq!(
            resolve("snippets/a/src/x.js", "../../b.js").as_deref(),
            Some("snippets/b.js")
        );
        assert_eq!(
            resolve("boot.js", "./mcp-flow.js").as_deref(),
            Some("mcp-flow.js")
        );
        assert_eq!(resolve("boot.js", "https://x/y.js"), None);
    }

    #[test]
    fn items_are_put_to_their_crate() {
        assert_eq!(crate_of("mcp_flow::ui::inspector::x::h1"), "mcp_flow::ui");
        assert_eq!(
            crate_of("mcp_flow_core::flow::host::x::h1"),
            "mcp_flow_core::flow"
        );
        assert_eq!(
            crate_of("mcp_flow_client::transport::x::h1"),
            "mcp_flow_client::transport"
        );
        assert_eq!(crate_of("<T as tachys::view::Render>::build::h2"), "tachys");
        assert_eq!(crate_of("core[c5930c85a12de822]::num::flt2dec::x"), "core");
        assert_eq!(
            crate_of("<&mut serde_json::de::Deserializer<R> as serde_core::de::Deserializer>::x"),
            "serde_json"
        );
        assert_eq!(
            crate_of("data segment \".rodata.3\""),
            "data (strings, tables)"
        );
        let csv = "Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent\n\
                   \"\"\"function names\"\" subsection\",100,1.0,,\n\
                   \"a::b<c,d>::e\",30,0.3,,\n\
                   \"data segment \"\".rodata\"\"\",20,0.2,,\n\
                   f::g,50,0.5,,\n";
        assert_eq!(
            parse_top(csv),
            [
                ("f::g".to_owned(), 50),
                ("a::b<c,d>::e".to_owned(), 30),
                ("data segment \".rodata\"".to_owned(), 20)
            ]
        );
    }

    #[test]
    fn gzip_is_counted_with_its_header() {
        let n = gzip_len(&[b'a'; 10_000]).unwrap();
        assert!(n > 18 && n < 100, "{n}");
    }
}
