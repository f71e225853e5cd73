//! Reading the figures that benchmark programs print as one line `tag: key=value key=value …`
//! (the load generator's `load:`, the page benchmark's `web:`, the TypeScript client's `node:`).

use crate::sh::Result;

/// The first line of `out` that starts with `tag:`; `who` names the program in the error.
pub fn line<'a>(out: &'a str, tag: &str, who: &str) -> Result<&'a str> {
    out.lines()
        .find(|l| {
            l.strip_prefix(tag)
                .is_some_and(|rest| rest.starts_with(':'))
        })
        .ok_or_else(|| format!("{who} printed no figures: {out}").into())
}

/// `key=value` from a figures line.
pub fn field(line: &str, key: &str) -> Result<f64> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{key}=")))
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("no {key} in: {line}").into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_fields_are_found() {
        let out = "200 calls in 0.46 s\nload: sessions=4 errors=0 p99_ms=23.9\n";
        let load = line(out, "load", "the load generator").unwrap();
        assert_eq!(field(load, "p99_ms").unwrap(), 23.9);
        assert_eq!(field(load, "errors").unwrap(), 0.0);
        assert!(field(load, "p50_ms").is_err());
        let err = line(out, "web", "the page benchmark").unwrap_err();
        assert!(
            err.to_string()
                .contains("the page benchmark printed no figures")
        );
        assert!(line("loader: x=1", "load", "it").is_err());
    }
}
