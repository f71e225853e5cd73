//! The authorization server's answers: JSON that is never cached, OAuth error objects
//! (RFC 6749 §5.2), redirects back to a client, and the HTML page for errors that must not
//! redirect.

use axum::{
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde_json::{Value, json};

/// JSON with `Cache-Control: no-store` (tokens, credentials, errors about them).
pub fn json_no_store(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
            (header::PRAGMA, "no-cache"),
        ],
        body.to_string(),
    )
        .into_response()
}

/// An OAuth error: `error` and `error_description`.
#[derive(Debug)]
pub struct OAuthError {
    pub status: StatusCode,
    pub error: &'static str,
    pub description: String,
    /// The client tried `Authorization: Basic`: a 401 names the scheme (RFC 6749 §5.2).
    pub basic_challenge: bool,
}

impl OAuthError {
    pub fn new(error: &'static str, description: impl Into<String>) -> Self {
        let status = match error {
            "invalid_client" => StatusCode::UNAUTHORIZED,
            "temporarily_unavailable" => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::BAD_REQUEST,
        };
        Self {
            status,
            error,
            description: description.into(),
            basic_challenge: false,
        }
    }

    pub fn unavailable() -> Self {
        Self::new(
            "temporarily_unavailable",
            "the demo authorization server holds too much state; try again later",
        )
    }
}

impl IntoResponse for OAuthError {
    fn into_response(self) -> Response {
        let mut response = json_no_store(
            self.status,
            &json!({ "error": self.error, "error_description": self.description }),
        );
        if self.basic_challenge && self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"weather-server\""),
            );
        }
        response
    }
}

/// `302` to `redirect_uri` with `params` added to its query.
pub fn redirect(redirect_uri: &str, params: &[(&str, &str)]) -> Response {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (name, value) in params {
        query.append_pair(name, value);
    }
    let separator = if redirect_uri.contains('?') { '&' } else { '?' };
    let location = format!("{redirect_uri}{separator}{}", query.finish());
    match HeaderValue::from_str(&location) {
        Ok(location) => (
            StatusCode::FOUND,
            [
                (header::LOCATION, location),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            ],
        )
            .into_response(),
        Err(_) => error_page(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "The redirect URI cannot be written in a Location header.",
        ),
    }
}

/// The HTML page for an authorization request that cannot be sent back to the client (unknown
/// client, redirect URI not allowed): RFC 6749 §4.1.2.1 forbids redirecting then.
pub fn error_page(status: StatusCode, error: &str, message: &str) -> Response {
    let body = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Authorization error</title></head><body>\
         <h1>Authorization error: {}</h1><p>{}</p>\
         <p>The request was not sent back to the client.</p></body></html>\n",
        escape_html(error),
        escape_html(message)
    );
    (status, page_headers(None), body).into_response()
}

/// Headers of the server's HTML pages: not cached, not framed, no script; forms may post here
/// and, when given, lead on to `form_target` (the client's redirect origin: the approval
/// answers with a redirect there, which `form-action` covers too).
pub fn page_headers(form_target: Option<&str>) -> [(header::HeaderName, String); 5] {
    let form_action = match form_target {
        Some(origin) => format!("'self' {origin}"),
        None => "'none'".to_owned(),
    };
    [
        (header::CONTENT_TYPE, "text/html; charset=utf-8".to_owned()),
        (header::CACHE_CONTROL, "no-store".to_owned()),
        (header::X_FRAME_OPTIONS, "DENY".to_owned()),
        // Not no-referrer: under it browsers send `Origin: null` with the consent form, which
        // the decision endpoint must refuse.
        (header::REFERRER_POLICY, "same-origin".to_owned()),
        (
            header::CONTENT_SECURITY_POLICY,
            format!(
                "default-src 'none'; style-src 'unsafe-inline'; form-action {form_action}; \
                 frame-ancestors 'none'; base-uri 'none'"
            ),
        ),
    ]
}

/// Text for HTML element content and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_escaped() {
        assert_eq!(
            escape_html(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn redirects_add_to_the_query() {
        let response = redirect(
            "http://127.0.0.1:9/cb?x=1",
            &[("code", "a b"), ("state", "s&")],
        );
        assert_eq!(response.status(), StatusCode::FOUND);
        assert_eq!(
            response.headers()[header::LOCATION],
            "http://127.0.0.1:9/cb?x=1&code=a+b&state=s%26"
        );
    }
}
