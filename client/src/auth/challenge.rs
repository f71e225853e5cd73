//! The `WWW-Authenticate` header of a 401 or 403 (RFC 9110 §11.6.1, RFC 6750 §3): the Bearer
//! challenge's parameters that MCP authorization reads (`resource_metadata` of RFC 9728, `scope`,
//! `error`).

/// A Bearer challenge's parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    /// `invalid_token`, `insufficient_scope`, …
    pub error: Option<String>,
    pub error_description: Option<String>,
    /// The scopes the resource asks for, space-separated.
    pub scope: Option<String>,
    /// Where the protected-resource metadata is (RFC 9728 §5.1).
    pub resource_metadata: Option<String>,
}

impl Challenge {
    /// The Bearer challenge in a `WWW-Authenticate` value, if it has one. Other schemes (Basic,
    /// DPoP) in the same header are skipped.
    pub fn parse(header: &str) -> Option<Self> {
        let mut challenge: Option<Self> = None;
        let mut in_bearer = false;
        for item in split_items(header) {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            // A new challenge starts with a scheme name, optionally followed by its first param.
            let (scheme, rest) = match item.split_once(char::is_whitespace) {
                Some((s, r)) if !s.contains('=') => (Some(s), r.trim()),
                None if !item.contains('=') => (Some(item), ""),
                _ => (None, item),
            };
            if let Some(scheme) = scheme {
                if in_bearer {
                    break;
                }
                in_bearer = scheme.eq_ignore_ascii_case("bearer");
                if in_bearer {
                    challenge = Some(Self::default());
                }
            }
            if !in_bearer || rest.is_empty() {
                continue;
            }
            let (Some(c), Some((name, value))) = (challenge.as_mut(), rest.split_once('=')) else {
                continue;
            };
            let value = unquote(value.trim());
            match name.trim().to_ascii_lowercase().as_str() {
                "error" => c.error = Some(value),
                "error_description" => c.error_description = Some(value),
                "scope" => c.scope = Some(value),
                "resource_metadata" => c.resource_metadata = Some(value),
                _ => {}
            }
        }
        challenge
    }

    /// The first Bearer challenge among a response's headers.
    pub fn from_headers(headers: &[(String, String)]) -> Option<Self> {
        headers
            .iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case("www-authenticate"))
            .find_map(|(_, value)| Self::parse(value))
    }

    pub fn insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// Splits on commas that are not inside a quoted string.
fn split_items(header: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut escaped = false;
    for c in header.chars() {
        match c {
            _ if escaped => {
                current.push(c);
                escaped = false;
            }
            '\\' if quoted => {
                current.push(c);
                escaped = true;
            }
            '"' => {
                current.push(c);
                quoted = !quoted;
            }
            ',' if !quoted => items.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    items.push(current);
    items
}

/// A token or a quoted string's content (with `\x` escapes undone).
fn unquote(value: &str) -> String {
    let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) else {
        return value.to_owned();
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_parameters_are_read_quoted_or_not() {
        let c = Challenge::parse(
            r#"Bearer error="invalid_token", scope="mcp:basic mcp:read", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp""#,
        )
        .expect("a bearer challenge");
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(c.scope.as_deref(), Some("mcp:basic mcp:read"));
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://localhost:3000/.well-known/oauth-protected-resource/mcp")
        );
        let bare = Challenge::parse("bearer error=insufficient_scope,scope=admin").expect("bearer");
        assert!(bare.insufficient_scope());
        assert_eq!(bare.scope.as_deref(), Some("admin"));
    }

    #[test]
    fn other_schemes_commas_in_quotes_and_escapes() {
        let c = Challenge::parse(
            r#"Basic realm="a, b", Bearer error_description="say \"no\", twice", scope="x", DPoP algs="ES256""#,
        )
        .expect("the bearer challenge after Basic");
        assert_eq!(c.error_description.as_deref(), Some(r#"say "no", twice"#));
        assert_eq!(c.scope.as_deref(), Some("x"));
        assert_eq!(c.error, None);
        assert_eq!(Challenge::parse(r#"Basic realm="x""#), None);
        assert_eq!(Challenge::parse(""), None);
        assert_eq!(Challenge::parse("Bearer"), Some(Challenge::default()));
    }

    #[test]
    fn the_header_is_found_whatever_its_case() {
        let headers = vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            (
                "WWW-Authenticate".to_owned(),
                r#"Bearer scope="s""#.to_owned(),
            ),
        ];
        let c = Challenge::from_headers(&headers).expect("found");
        assert_eq!(c.scope.as_deref(), Some("s"));
    }
}
