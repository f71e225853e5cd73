//! Secrets of the authorization flow kept out of the record (and so out of every export, HAR,
//! Mermaid, curl copy and log made from it): codes, verifiers, tokens and client secrets.

use serde_json::Value;

use crate::custom_headers::REDACTED;

/// Form fields and JSON members whose values are secrets.
const SECRET_FIELDS: [&str; 8] = [
    "code",
    "code_verifier",
    "access_token",
    "refresh_token",
    "id_token",
    "client_secret",
    "registration_access_token",
    "assertion",
];

fn is_secret(name: &str) -> bool {
    SECRET_FIELDS.contains(&name)
}

/// A form-encoded body or a URL's query with each secret's value replaced.
pub fn form(text: &str) -> String {
    text.split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if is_secret(&decode(name)) => format!("{name}={REDACTED}"),
            _ => pair.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

fn decode(name: &str) -> String {
    url::form_urlencoded::parse(format!("{name}=").as_bytes())
        .next()
        .map(|(k, _)| k.into_owned())
        .unwrap_or_default()
}

/// A URL with the secrets in its query replaced (a redirect back with the code).
pub fn url(text: &str) -> String {
    match text.split_once('?') {
        Some((base, query)) => {
            let (query, fragment) = match query.split_once('#') {
                Some((q, f)) => (q, Some(f)),
                None => (query, None),
            };
            let mut out = format!("{base}?{}", form(query));
            if let Some(f) = fragment {
                out.push('#');
                out.push_str(&form(f));
            }
            out
        }
        None => text.to_owned(),
    }
}

/// A JSON body with each secret member's value replaced; other text as a form.
pub fn body(text: &str) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(mut value) => {
            redact_value(&mut value);
            value.to_string()
        }
        Err(_) if text.contains('=') && !text.contains('<') => form(text),
        Err(_) => text.to_owned(),
    }
}

fn redact_value(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (name, v) in map.iter_mut() {
                if is_secret(name) && v.is_string() {
                    *v = Value::String(REDACTED.to_owned());
                } else {
                    redact_value(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_value),
        _ => {}
    }
}

/// Response headers with the code taken out of a `Location`.
pub fn headers(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            if name.eq_ignore_ascii_case("location") {
                (name.clone(), url(value))
            } else {
                (name.clone(), value.clone())
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_urls_and_json_lose_their_secrets_only() {
        assert_eq!(
            form("grant_type=authorization_code&code=abc&code_verifier=v&resource=http%3A%2F%2Fx"),
            "grant_type=authorization_code&code=[redacted]&code_verifier=[redacted]&resource=http%3A%2F%2Fx"
        );
        assert_eq!(
            url("http://localhost:3000/callback?code=test-auth-code&state=s&iss=http%3A%2F%2Fa"),
            "http://localhost:3000/callback?code=[redacted]&state=s&iss=http%3A%2F%2Fa"
        );
        assert_eq!(url("http://a/b"), "http://a/b");
        let json = body(
            r#"{"access_token":"t0k3n","token_type":"Bearer","refresh_token":"r","scope":"a"}"#,
        );
        assert!(!json.contains("t0k3n") && !json.contains("\"r\""), "{json}");
        assert!(
            json.contains("Bearer") && json.contains("\"scope\":\"a\""),
            "{json}"
        );
        assert_eq!(body("<html>code=1</html>"), "<html>code=1</html>");
        assert_eq!(
            body("refresh_token=abc&grant_type=refresh_token"),
            "refresh_token=[redacted]&grant_type=refresh_token"
        );
        let h = headers(&[("Location".into(), "http://cb/?code=x&state=y".into())]);
        assert_eq!(h[0].1, "http://cb/?code=[redacted]&state=y");
    }
}
