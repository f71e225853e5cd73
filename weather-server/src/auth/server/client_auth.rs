//! Client authentication at the token endpoint (RFC 6749 §2.3): what a request presents
//! (`Authorization: Basic`, or `client_id`/`client_secret` in the body) checked against the
//! method the client registered. Public clients present their `client_id` only.

use axum::http::{HeaderMap, header};
use base64::{Engine as _, engine::general_purpose::STANDARD};

use crate::auth::{
    params::{Params, Repeated},
    server::reply::OAuthError,
    server::store::{Client, ClientAuth},
};

/// The credentials of one token request.
#[derive(Debug, Default)]
pub struct Presented {
    /// From `Authorization: Basic`: id and secret, form-decoded.
    basic: Option<(String, String)>,
    client_id: Option<String>,
    client_secret: Option<String>,
}

impl Presented {
    pub fn read(headers: &HeaderMap, params: &Params) -> Result<Self, OAuthError> {
        let [client_id, client_secret] =
            params
                .get_all(["client_id", "client_secret"])
                .map_err(|Repeated(name)| {
                    OAuthError::new("invalid_request", format!("{name} is repeated"))
                })?;
        let basic = match headers.get(header::AUTHORIZATION) {
            None => None,
            Some(value) => Some(basic_credentials(value.as_bytes()).ok_or_else(|| {
                let mut error = OAuthError::new(
                    "invalid_client",
                    "the Authorization header is not valid Basic client credentials",
                );
                error.basic_challenge = true;
                error
            })?),
        };
        if basic.is_some() && client_secret.is_some() {
            return Err(OAuthError::new(
                "invalid_request",
                "use one client authentication method, not both Basic and client_secret",
            ));
        }
        if let (Some((id, _)), Some(body_id)) = (&basic, client_id)
            && id != body_id
        {
            return Err(OAuthError::new(
                "invalid_request",
                "client_id differs from the Basic credentials",
            ));
        }
        Ok(Self {
            basic,
            client_id: client_id.map(str::to_owned),
            client_secret: client_secret.map(str::to_owned),
        })
    }

    fn id(&self) -> Option<&str> {
        self.basic
            .as_ref()
            .map(|(id, _)| id.as_str())
            .or(self.client_id.as_deref())
    }

    /// Checks the credentials against `client`, the one the code or refresh token was issued
    /// to.
    pub fn authenticate(&self, client: &Client) -> Result<(), OAuthError> {
        let tried_basic = self.basic.is_some();
        let fail = |description: &str| {
            let mut error = OAuthError::new("invalid_client", description);
            error.basic_challenge = tried_basic;
            error
        };
        let Some(id) = self.id() else {
            return Err(fail(
                "client authentication is required (at least client_id)",
            ));
        };
        if id != client.id.as_str() {
            return Err(OAuthError::new(
                "invalid_grant",
                "the grant was issued to another client",
            ));
        }
        let basic_secret = self
            .basic
            .as_ref()
            .map(|(_, secret)| secret.as_str())
            .filter(|secret| !secret.is_empty());
        match (&client.auth, basic_secret, self.client_secret.as_deref()) {
            (ClientAuth::None, None, None) => Ok(()),
            (ClientAuth::None, _, _) => Err(fail("a public client presents no secret")),
            (ClientAuth::SecretBasic(expected), Some(secret), None) if expected.matches(secret) => {
                Ok(())
            }
            (ClientAuth::SecretBasic(_), _, _) => Err(fail(
                "this client authenticates with client_secret_basic: wrong or missing secret",
            )),
            (ClientAuth::SecretPost(expected), None, Some(secret)) if expected.matches(secret) => {
                Ok(())
            }
            (ClientAuth::SecretPost(_), _, _) => Err(fail(
                "this client authenticates with client_secret_post: wrong or missing secret",
            )),
        }
    }
}

/// `Basic base64(form-encoded id ":" form-encoded secret)`.
fn basic_credentials(value: &[u8]) -> Option<(String, String)> {
    let text = std::str::from_utf8(value).ok()?.trim();
    let (scheme, encoded) = text.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = STANDARD.decode(encoded.trim()).ok()?;
    let decoded = String::from_utf8(decoded).ok()?;
    let (id, secret) = decoded.split_once(':')?;
    Some((form_decode(id)?, form_decode(secret)?))
}

/// `application/x-www-form-urlencoded` decoding of one value; `None` on a bad escape.
fn form_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::{
        server::clients::demo_client,
        types::{ClientId, Fingerprint},
    };

    fn headers(basic: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        let value = format!("Basic {}", STANDARD.encode(basic));
        headers.insert(header::AUTHORIZATION, value.parse().expect("value"));
        headers
    }

    #[test]
    fn basic_credentials_are_form_decoded() {
        assert_eq!(
            basic_credentials(format!("basic {}", STANDARD.encode("a%3Ab:s+%26")).as_bytes()),
            Some(("a:b".into(), "s &".into()))
        );
        assert_eq!(basic_credentials(b"Bearer x"), None);
        assert_eq!(form_decode("%zz"), None);
        assert_eq!(form_decode("%4"), None);
    }

    #[test]
    fn each_client_with_its_method() {
        let public = demo_client();
        let ok = Presented::read(
            &HeaderMap::new(),
            &Params::parse(b"client_id=mcp-flow-demo"),
        );
        assert!(ok.expect("read").authenticate(&public).is_ok());
        let with_secret = Presented::read(
            &HeaderMap::new(),
            &Params::parse(b"client_id=mcp-flow-demo&client_secret=x"),
        );
        assert!(with_secret.expect("read").authenticate(&public).is_err());
        let other = Presented::read(&HeaderMap::new(), &Params::parse(b"client_id=other"));
        let error = other
            .expect("read")
            .authenticate(&public)
            .expect_err("other");
        assert_eq!(error.error, "invalid_grant");

        let basic = Client {
            id: ClientId("c".into()),
            auth: ClientAuth::SecretBasic(Fingerprint::of("s")),
            ..demo_client()
        };
        let good = Presented::read(&headers("c:s"), &Params::default()).expect("read");
        assert!(good.authenticate(&basic).is_ok());
        let wrong = Presented::read(&headers("c:t"), &Params::default()).expect("read");
        let error = wrong.authenticate(&basic).expect_err("wrong secret");
        assert_eq!(
            (error.error, error.basic_challenge),
            ("invalid_client", true)
        );
        let post = Presented::read(
            &HeaderMap::new(),
            &Params::parse(b"client_id=c&client_secret=s"),
        );
        assert!(post.expect("read").authenticate(&basic).is_err());
        let both = Presented::read(&headers("c:s"), &Params::parse(b"client_secret=s"));
        assert!(both.is_err());
    }
}
