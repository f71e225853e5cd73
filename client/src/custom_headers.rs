//! Request headers the user adds to every MCP request (a bearer token, an API key): parsed from
//! "Name: value" lines, refused when they could break the request or would override a header the
//! protocol sets, and never recorded: the record, the exports and "copy as curl" show
//! `[redacted]` in their place.

/// Headers the client sets itself: a user's value would contradict the protocol.
const RESERVED: [&str; 11] = [
    "accept",
    "content-type",
    "content-length",
    "host",
    "origin",
    "mcp-session-id",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "last-event-id",
    "cookie",
];

/// What the record shows instead of a custom header's value.
pub const REDACTED: &str = "[redacted]";

/// The user's headers, in the order given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CustomHeaders(pub Vec<(String, String)>);

fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

impl CustomHeaders {
    /// One header a line, `Name: value`; blank lines are skipped. An error names the line.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut out = Vec::new();
        // `lines()` would hide a lone CR inside a value: split on LF only and refuse any CR.
        for (i, line) in text.split('\n').enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.trim().is_empty() {
                continue;
            }
            let n = i + 1;
            let Some((name, value)) = line.split_once(':') else {
                return Err(format!("header line {n} has no ':' (write Name: value)"));
            };
            let (name, value) = (name.trim(), value.trim());
            if !is_token(name) {
                return Err(format!("header line {n}: {name:?} is not a header name"));
            }
            if value.chars().any(|c| c.is_control() && c != '\t') {
                return Err(format!(
                    "header line {n}: the value of {name} holds a control character (CR, LF…)"
                ));
            }
            let lower = name.to_ascii_lowercase();
            if RESERVED.contains(&lower.as_str()) || lower.starts_with("mcp-param-") {
                return Err(format!(
                    "header line {n}: {name} is set by the client itself and cannot be replaced"
                ));
            }
            out.push((name.to_owned(), value.to_owned()));
        }
        Ok(Self(out))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `name` is one of these headers (its value is then never recorded).
    pub fn names(&self, name: &str) -> bool {
        self.0.iter().any(|(k, _)| k.eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_one_a_line() {
        let h = CustomHeaders::parse("Authorization: Bearer abc\r\n\n  X-Team:  blue  \n").unwrap();
        assert_eq!(
            h.0,
            [
                ("Authorization".to_owned(), "Bearer abc".to_owned()),
                ("X-Team".to_owned(), "blue".to_owned())
            ]
        );
        assert!(h.names("authorization"));
        assert!(!h.names("accept"));
        assert!(CustomHeaders::parse("").unwrap().is_empty());
    }

    #[test]
    fn headers_that_would_break_or_override_the_request_are_refused() {
        let cases = [
            ("Authorization Bearer abc", "no ':'"),
            ("Bad Name: x", "not a header name"),
            ("X-A: one\rInjected: two", "control character"),
            ("X-A: a\u{0}b", "control character"),
            ("Mcp-Session-Id: forged", "set by the client"),
            ("mcp-param-units: metric", "set by the client"),
            ("Content-Type: text/plain", "set by the client"),
        ];
        for (text, why) in cases {
            let err = CustomHeaders::parse(text).unwrap_err();
            assert!(err.contains(why), "{text:?}: {err}");
            assert!(err.contains("line 1"), "{err}");
        }
        assert!(
            CustomHeaders::parse("X-A: 1\nnope")
                .unwrap_err()
                .contains("line 2")
        );
    }
}
