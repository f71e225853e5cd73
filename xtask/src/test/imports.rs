//! The lint stage's check that no module imports a module that imports it back: for each crate's
//! `src/`, an edge a → b when a's code (comments and its test module left out) names a path into
//! b (`crate::b…`, `super::…`, `self::…`, braces included); every pair with edges both ways is
//! reported. Test-only files (`*tests.rs`) are left out: they may use what they test.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::sh::Result;

/// The modules of one crate: path (`mcp::client`) → code.
fn modules(src: &Path) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for path in crate::sh::files_under(src)? {
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let rel = path.strip_prefix(src)?.with_extension("");
        let mut parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if matches!(
            parts.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            parts.pop();
        }
        if parts.last().is_some_and(|p| p.ends_with("tests"))
            || parts.first().is_some_and(|p| p == "bin")
        {
            continue;
        }
        out.insert(parts.join("::"), code_of(&std::fs::read_to_string(&path)?));
    }
    Ok(out)
}

/// The code without comments and without a trailing `#[cfg(test)] mod tests { … }`.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path a module names from `crate`, `super` or `self`, braces expanded one level per item.
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0
            || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_' || bytes[i - 1] == ':');
        let rest: String = bytes[i..bytes.len().min(i + 7)].iter().collect();
        let head = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|h| rest.starts_with(h));
        let (true, Some(head)) = (starts_word, head) else {
            i += 1;
            continue;
        };
        let mut j = i + head.len();
        let mut path = vec![head.trim_end_matches(':').to_owned()];
        loop {
            if j < bytes.len() && bytes[j] == '{' {
                // The braces' items at their own level, each by its first name.
                let mut depth = 0;
                let mut item_starts = true;
                while j < bytes.len() {
                    let c = bytes[j];
                    match c {
                        '{' => {
                            depth += 1;
                            item_starts = depth == 1;
                        }
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        ',' if depth == 1 => item_starts = true,
                        c if item_starts && (c.is_alphanumeric() || c == '_') => {
                            let start = j;
                            while j < bytes.len() && (bytes[j].is_alphanumeric() || bytes[j] == '_')
                            {
                                j += 1;
                            }
                            let mut p = path.clone();
                            p.push(bytes[start..j].iter().collect());
                            out.push(p);
                            item_starts = false;
                            continue;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                break;
            }
            let start = j;
            while j < bytes.len() && (bytes[j].is_alphanumeric() || bytes[j] == '_') {
                j += 1;
            }
            if j > start {
                path.push(bytes[start..j].iter().collect());
            }
            if j + 2 < bytes.len() && bytes[j] == ':' && bytes[j + 1] == ':' {
                j += 2;
                continue;
            }
            out.push(path);
            break;
        }
        i = j.max(i + 1);
    }
    out
}

/// The module a path from `module` lands in (the longest prefix that is a module).
fn resolve(module: &str, path: &[String], known: &BTreeMap<String, String>) -> Option<String> {
    let mut base: Vec<String> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").map(str::to_owned).collect()
    };
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => base.clear(),
        Some("super") => {
            base.pop();
        }
        Some("self") => {}
        _ => return None,
    }
    rest = &rest[1..];
    while rest.first().is_some_and(|p| p == "super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    (1..=base.len())
        .rev()
        .map(|n| base[..n].join("::"))
        .find(|name| known.contains_key(name))
}

/// The pairs of modules of the crate at `src` that import each other.
pub fn mutual_imports(src: &Path) -> Result<Vec<(String, String)>> {
    let known = modules(src)?;
    let mut edges: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (module, code) in &known {
        for path in paths(code) {
            if let Some(to) = resolve(module, &path, &known)
                && to != *module
                && !module.starts_with(&format!("{to}::"))
                && !to.starts_with(&format!("{module}::"))
            {
                edges.entry(module).or_default().insert(to);
            }
        }
    }
    let mut pairs = Vec::new();
    for (a, tos) in &edges {
        for b in tos {
            if *a < b.as_str() && edges.get(b.as_str()).is_some_and(|back| back.contains(*a)) {
                pairs.push(((*a).to_owned(), b.clone()));
            }
        }
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_read_with_their_braces() {
        let code = "use crate::{a::X, b, c::{d, e}};\nuse super::f::g;\nfn x() { self::h(); crate::i::j(); }";
        let found: Vec<String> = paths(code).into_iter().map(|p| p.join("::")).collect();
        assert_eq!(
            found,
            [
                "crate::a",
                "crate::b",
                "crate::c",
                "super::f::g",
                "self::h",
                "crate::i::j"
            ]
        );
    }

    #[test]
    fn a_pair_importing_each_other_is_found_and_comments_are_not_imports() {
        let dir = std::env::temp_dir().join(format!("xtask-imports-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("m")).expect("dir");
        let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).expect("write");
        write("lib.rs", "pub mod a;\npub mod b;\npub mod m;\n");
        write("a.rs", "use crate::b::B;\n");
        write("b.rs", "pub struct B;\nfn f() { super::a::g(); }\n");
        write("m/mod.rs", "pub mod c;\n// see crate::a\n");
        write("m/c.rs", "use super::super::a;\n");
        assert_eq!(
            mutual_imports(&dir).expect("read"),
            [("a".to_owned(), "b".to_owned())]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
