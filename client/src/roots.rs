//! The client's roots (`roots/list`): the URIs the user lists, each with an optional name. A page
//! has no file system, so the roots are what the user typed; none is a valid answer. Read from the
//! settings' text, one root a line: `URI` or `URI name`.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The most roots a client lists: a list the user types stays well below it.
pub const MAX_ROOTS: usize = 100;

/// One root as `roots/list` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Root {
    pub uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// The result of `roots/list` (and of an `inputRequests` entry asking it) listing `roots`.
pub fn list_result(roots: &[Root]) -> Value {
    json!({ "roots": roots })
}

/// Whether `text` is an absolute URI by RFC 3986's syntax: a scheme (a letter, then letters,
/// digits, `+`, `-` or `.`), a colon, then something. Checked by hand: the page's settings show
/// this check, and a URL parser would bring its tables into the first load.
fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !text.chars().any(|c| c.is_control())
}

/// The roots in `text`, one a line (`URI` or `URI name`; blank lines skipped), or the first line
/// that is not one, said with its number.
pub fn parse(text: &str) -> Result<Vec<Root>, String> {
    let mut roots = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (uri, name) = match line.split_once(char::is_whitespace) {
            Some((uri, name)) => (uri, Some(name.trim().to_owned())),
            None => (line, None),
        };
        if !is_uri(uri) {
            return Err(format!(
                "line {}: \"{uri}\" is not a URI (e.g. file:///home/me/project)",
                n + 1
            ));
        }
        roots.push(Root {
            uri: uri.to_owned(),
            name,
        });
        if roots.len() > MAX_ROOTS {
            return Err(format!("more than {MAX_ROOTS} roots"));
        }
    }
    Ok(roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_are_read_one_a_line_with_an_optional_name() {
        let roots = parse("file:///home/me/project  My project\n\n  https://example.com/repo\n")
            .expect("two roots");
        assert_eq!(
            roots,
            [
                Root {
                    uri: "file:///home/me/project".into(),
                    name: Some("My project".into()),
                },
                Root {
                    uri: "https://example.com/repo".into(),
                    name: None,
                },
            ]
        );
        assert_eq!(
            list_result(&roots),
            json!({"roots": [{"uri": "file:///home/me/project", "name": "My project"},
                             {"uri": "https://example.com/repo"}]})
        );
        assert_eq!(parse("").expect("none"), []);
    }

    #[test]
    fn a_line_that_is_not_a_uri_is_named() {
        let e = parse("file:///a\nnot a uri").expect_err("line 2");
        assert!(e.starts_with("line 2:"), "{e}");
        for bad in ["/home/me", "1http://x", "ht tp://x", "file:", ":x", "C:"] {
            assert!(!is_uri(bad), "{bad}");
        }
        for good in [
            "file:///home/me",
            "https://x.test/a?b",
            "urn:isbn:0451450523",
            "git+ssh://h/r",
        ] {
            assert!(is_uri(good), "{good}");
        }
        let many = "file:///a\n".repeat(MAX_ROOTS + 1);
        assert!(parse(&many).is_err());
        assert_eq!(
            parse(&"file:///a\n".repeat(MAX_ROOTS)).map(|r| r.len()),
            Ok(MAX_ROOTS)
        );
    }
}
