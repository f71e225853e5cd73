//! The stylesheet as the release site ships it: minified by lightningcss (the CSS engine Trunk
//! uses for the same job), the same rules in fewer bytes. `trunk serve` keeps the readable file.

use lightningcss::stylesheet::{MinifyOptions, ParserOptions, PrinterOptions, StyleSheet};
use lightningcss::targets::{Browsers, Targets};

use crate::sh::Result;

/// The oldest browsers the output is written for (version as major << 16): nothing newer than
/// they read (e.g. `max-width` media queries stay, not the range syntax).
fn targets() -> Targets {
    Targets::from(Browsers {
        chrome: Some(100 << 16),
        edge: Some(100 << 16),
        firefox: Some(100 << 16),
        safari: Some(15 << 16),
        ios_saf: Some(15 << 16),
        ..Browsers::default()
    })
}

/// `css` (from the file `name`) minified; a stylesheet that does not parse is an error naming
/// the file.
pub fn minify(css: &str, name: &str) -> Result<String> {
    let options = ParserOptions {
        filename: name.to_owned(),
        ..ParserOptions::default()
    };
    let mut sheet = StyleSheet::parse(css, options).map_err(|e| format!("{name}: {e}"))?;
    sheet
        .minify(MinifyOptions {
            targets: targets(),
            ..MinifyOptions::default()
        })
        .map_err(|e| format!("{name}: {e}"))?;
    let printed = sheet
        .to_css(PrinterOptions {
            minify: true,
            targets: targets(),
            ..PrinterOptions::default()
        })
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(printed.code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_stay_and_the_bytes_go() {
        let css = "/* the bar */\n.mf-player {\n  position: sticky;\n  top: 0;\n}\n\n\
                   @media (max-width: 600px) {\n  .mf-player .mf-play { display: none; }\n}\n";
        let out = minify(css, "t.css").expect("minified");
        assert!(out.len() < css.len() * 3 / 4, "{out}");
        // Written for the browsers the page supports: no newer syntax than the source's.
        for kept in [
            ".mf-player",
            "sticky",
            "@media (max-width:600px)",
            ".mf-play",
            "display:none",
        ] {
            assert!(out.contains(kept), "{kept} lost: {out}");
        }
        assert!(!out.contains("the bar"));
    }

    #[test]
    fn the_project_stylesheet_minifies() {
        let path = crate::workspace_root().join("style/main.css");
        let css = std::fs::read_to_string(&path).expect("style/main.css");
        let out = minify(&css, "main.css").expect("main.css parses");
        assert!(out.len() < css.len());
    }

    #[test]
    fn a_broken_stylesheet_is_an_error_naming_its_file() {
        for broken in ["@media (", "}}}"] {
            let error = minify(broken, "broken.css").expect_err(broken);
            assert!(error.to_string().contains("broken.css"), "{error}");
        }
    }
}
