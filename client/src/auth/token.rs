//! The token endpoint (RFC 6749 §3.2): the code and refresh grants as form requests with the
//! client's authentication and the `resource` (RFC 8707), and the tokens that come back.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;
use url::form_urlencoded;

use super::error::AuthError;
use super::identity::{AuthMethod, Credentials};

/// The tokens of one authorization, held in memory only.
#[derive(Clone, PartialEq)]
pub struct Tokens {
    pub access: String,
    pub refresh: Option<String>,
    /// When the access token stops working, on the run's clock; `None`: not said.
    pub expires_at_ms: Option<f64>,
    /// How long it was given for, in milliseconds.
    pub lifetime_ms: Option<f64>,
    /// The scopes granted (the response's, else the ones asked for).
    pub scope: Option<String>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("expires_at_ms", &self.expires_at_ms)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

/// A grant to send.
pub enum Grant<'a> {
    Code {
        code: &'a str,
        redirect_uri: &'a str,
        verifier: &'a str,
    },
    Refresh {
        token: &'a str,
    },
}

/// The form body and the extra headers of a token request.
pub fn request(
    grant: &Grant<'_>,
    client: &Credentials,
    resource: Option<&str>,
) -> (String, Vec<(String, String)>) {
    let mut form = form_urlencoded::Serializer::new(String::new());
    match grant {
        Grant::Code {
            code,
            redirect_uri,
            verifier,
        } => {
            form.append_pair("grant_type", "authorization_code");
            form.append_pair("code", code);
            form.append_pair("redirect_uri", redirect_uri);
            form.append_pair("code_verifier", verifier);
        }
        Grant::Refresh { token } => {
            form.append_pair("grant_type", "refresh_token");
            form.append_pair("refresh_token", token);
        }
    }
    if let Some(resource) = resource {
        form.append_pair("resource", resource);
    }
    let mut headers = vec![
        (
            "Content-Type".to_owned(),
            "application/x-www-form-urlencoded".to_owned(),
        ),
        ("Accept".to_owned(), "application/json".to_owned()),
    ];
    match (client.method, &client.secret) {
        (AuthMethod::Basic, Some(secret)) => {
            // RFC 6749 §2.3.1: each part form-encoded before Base64.
            let pair = format!("{}:{}", encode(&client.client_id), encode(secret));
            headers.push((
                "Authorization".to_owned(),
                format!("Basic {}", STANDARD.encode(pair)),
            ));
        }
        (AuthMethod::Post, Some(secret)) => {
            form.append_pair("client_id", &client.client_id);
            form.append_pair("client_secret", secret);
        }
        _ => {
            form.append_pair("client_id", &client.client_id);
        }
    }
    (form.finish(), headers)
}

fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    #[serde(default)]
    token_type: Option<String>,
    #[serde(default)]
    expires_in: Option<f64>,
    #[serde(default)]
    refresh_token: Option<String>,
    #[serde(default)]
    scope: Option<String>,
}

#[derive(Deserialize)]
struct ErrorResponse {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// Reads the token endpoint's answer. `asked` is the scope requested (granted unless the
/// response says otherwise); `now_ms` the run's clock.
pub fn response(
    status: u16,
    content_type: &str,
    body: &str,
    asked: Option<&str>,
    now_ms: f64,
) -> Result<Tokens, AuthError> {
    if !(200..300).contains(&status) {
        let refused = serde_json::from_str::<ErrorResponse>(body).ok();
        return Err(AuthError::TokenRefused {
            status,
            error: refused
                .as_ref()
                .map(|r| r.error.clone())
                .unwrap_or_else(|| "no OAuth error in the body".to_owned()),
            description: refused.and_then(|r| r.error_description),
        });
    }
    if !content_type.contains("json") {
        return Err(AuthError::Request {
            step: "token".into(),
            detail: format!(
                "the token endpoint answered HTTP {status} with {:?}, not JSON",
                if content_type.is_empty() {
                    "no content type"
                } else {
                    content_type
                }
            ),
        });
    }
    let r: TokenResponse = serde_json::from_str(body).map_err(|e| AuthError::Request {
        step: "token".into(),
        detail: format!("the token response is not a token's JSON: {e}"),
    })?;
    if r.token_type
        .as_deref()
        .is_some_and(|t| !t.eq_ignore_ascii_case("bearer"))
    {
        return Err(AuthError::Request {
            step: "token".into(),
            detail: format!(
                "the token type is {:?}; this client sends Bearer tokens only",
                r.token_type.unwrap_or_default()
            ),
        });
    }
    Ok(Tokens {
        access: r.access_token,
        refresh: r.refresh_token,
        expires_at_ms: r
            .expires_in
            .filter(|s| *s > 0.0)
            .map(|s| now_ms + s * 1000.0),
        lifetime_ms: r.expires_in.filter(|s| *s > 0.0).map(|s| s * 1000.0),
        scope: r.scope.or_else(|| asked.map(str::to_owned)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::identity::Origin;

    fn client(method: AuthMethod, secret: Option<&str>) -> Credentials {
        Credentials {
            client_id: "my client".into(),
            secret: secret.map(str::to_owned),
            method,
            origin: Origin::Registered,
        }
    }

    #[test]
    fn each_method_authenticates_its_way() {
        let grant = Grant::Code {
            code: "c",
            redirect_uri: "http://localhost:3000/callback",
            verifier: "v",
        };
        let (body, headers) = request(
            &grant,
            &client(AuthMethod::Basic, Some("s:1")),
            Some("http://localhost:3000/mcp"),
        );
        assert_eq!(
            body,
            "grant_type=authorization_code&code=c&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback&code_verifier=v&resource=http%3A%2F%2Flocalhost%3A3000%2Fmcp"
        );
        // "my+client:s%3A1" in Base64.
        assert!(headers.contains(&(
            "Authorization".into(),
            format!("Basic {}", STANDARD.encode("my+client:s%3A1"))
        )));
        let (body, headers) = request(&grant, &client(AuthMethod::Post, Some("s")), None);
        assert!(
            body.ends_with("&client_id=my+client&client_secret=s"),
            "{body}"
        );
        assert!(!headers.iter().any(|(n, _)| n == "Authorization"));
        let (body, _) = request(
            &Grant::Refresh { token: "r" },
            &client(AuthMethod::None, None),
            None,
        );
        assert_eq!(
            body,
            "grant_type=refresh_token&refresh_token=r&client_id=my+client"
        );
    }

    #[test]
    fn responses_give_tokens_or_say_why_not() {
        let t = response(
            200,
            "application/json",
            r#"{"access_token":"a","token_type":"bearer","expires_in":60,"refresh_token":"r"}"#,
            Some("mcp:basic"),
            1000.0,
        )
        .expect("tokens");
        assert_eq!(t.expires_at_ms, Some(61_000.0));
        assert_eq!(t.scope.as_deref(), Some("mcp:basic"));
        assert_eq!(t.refresh.as_deref(), Some("r"));
        let refused = response(
            400,
            "application/json",
            r#"{"error":"invalid_grant","error_description":"used"}"#,
            None,
            0.0,
        );
        assert_eq!(
            refused,
            Err(AuthError::TokenRefused {
                status: 400,
                error: "invalid_grant".into(),
                description: Some("used".into())
            })
        );
        let html = response(200, "text/html", "<html>", None, 0.0).expect_err("not JSON");
        assert!(html.to_string().contains("text/html"), "{html}");
        assert!(
            response(
                200,
                "application/json",
                r#"{"access_token":"a","token_type":"mac"}"#,
                None,
                0.0
            )
            .is_err()
        );
        assert!(response(200, "application/json", "{}", None, 0.0).is_err());
    }
}
