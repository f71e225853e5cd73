//! `--auth-issuer URL`: tokens come from another authorization server. Its access tokens are
//! JWTs (RFC 9068) checked here: the signature against the keys its metadata's `jwks_uri`
//! names, `typ` `at+jwt`, `iss` the issuer, `aud` this resource, not expired, not before its
//! `nbf`, and the scopes
//! its `scope` claim grants. Like client metadata documents, the issuer is fetched from
//! loopback hosts only.

use std::time::{Duration, Instant};

use jsonwebtoken::{
    Algorithm, DecodingKey, Validation, decode, decode_header,
    jwk::{Jwk, JwkSet},
};
use reqwest::Url;
use serde::Deserialize;
use tokio::sync::Mutex;

use crate::auth::{
    fetch,
    types::{ClientId, Scopes},
};

/// Keys are fetched again for an unknown `kid` at most this often.
const REFETCH_AFTER: Duration = Duration::from_secs(10);
/// Signature algorithms taken: asymmetric ones only (never `none` or a shared secret).
const ALGORITHMS: [Algorithm; 9] = [
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::EdDSA,
];

/// The other authorization server, and its keys once fetched.
pub struct Issuer {
    url: String,
    keys: Mutex<Keys>,
}

#[derive(Default)]
struct Keys {
    set: Option<JwkSet>,
    fetched: Option<Instant>,
}

/// What a valid token grants.
#[derive(Debug)]
pub struct Granted {
    pub client: ClientId,
    pub scope: Scopes,
}

/// Why a token is not taken.
#[derive(Debug)]
pub enum Refused {
    /// The token itself: 401 `invalid_token` with this description.
    Token(String),
    /// The issuer could not be asked for its keys: the server cannot check any token now.
    Unavailable(String),
}

#[derive(Deserialize)]
struct Metadata {
    issuer: String,
    jwks_uri: Option<String>,
}

#[derive(Deserialize)]
struct Claims {
    scope: Option<String>,
    client_id: Option<String>,
    azp: Option<String>,
}

/// `--auth-issuer`'s check: an http URL on a loopback host, without query or fragment; the
/// issuer identifier is returned without a trailing `/`.
pub fn check_url(url: &str) -> Result<String, String> {
    let parsed = Url::parse(url).map_err(|error| format!("{url:?}: {error}"))?;
    if parsed.scheme() != "http" {
        return Err(format!("{url:?}: this server fetches over plain http only"));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(format!("{url:?}: an issuer has no query or fragment"));
    }
    fetch::check_loopback(&parsed, "an issuer's metadata")?;
    Ok(url.trim_end_matches('/').to_owned())
}

impl Issuer {
    /// `url` as [`check_url`] returned it.
    pub fn new(url: String) -> Self {
        Self {
            url,
            keys: Mutex::new(Keys::default()),
        }
    }

    /// The issuer identifier, as the protected resource metadata names it.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Checks `token` for `resource`.
    pub async fn verify(&self, token: &str, resource: &str) -> Result<Granted, Refused> {
        let header = decode_header(token)
            .map_err(|error| Refused::Token(format!("the access token is not a JWT: {error}")))?;
        if !header.typ.as_deref().is_some_and(|typ| {
            typ.eq_ignore_ascii_case("at+jwt") || typ.eq_ignore_ascii_case("application/at+jwt")
        }) {
            return Err(Refused::Token(
                "the token's typ is not at+jwt (RFC 9068 §4): not an access token".to_owned(),
            ));
        }
        if !ALGORITHMS.contains(&header.alg) {
            return Err(Refused::Token(format!(
                "the token is signed with {:?}; this server takes asymmetric signatures only",
                header.alg
            )));
        }
        let kid = header.kid.unwrap_or_default();
        let key = self.key(&kid, header.alg).await?;
        let mut validation = Validation::new(header.alg);
        validation.leeway = 5;
        validation.set_issuer(&[&self.url]);
        validation.set_audience(&[resource]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        // Not before its time (RFC 7519 §4.1.5): jsonwebtoken leaves nbf unchecked by default.
        validation.validate_nbf = true;
        let data = decode::<Claims>(token, &key, &validation)
            .map_err(|error| Refused::Token(format!("the access token was refused: {error}")))?;
        let claims = data.claims;
        Ok(Granted {
            client: ClientId(claims.client_id.or(claims.azp).unwrap_or_default()),
            scope: Scopes::known(claims.scope.as_deref().unwrap_or_default()),
        })
    }

    /// The key named `kid` for `alg`, fetching the issuer's keys when it is not known yet.
    async fn key(&self, kid: &str, alg: Algorithm) -> Result<DecodingKey, Refused> {
        let mut keys = self.keys.lock().await;
        let stale = keys.fetched.is_none_or(|at| at.elapsed() >= REFETCH_AFTER);
        if stale && find(keys.set.as_ref(), kid).is_none() {
            let set = self.fetch_keys().await.map_err(Refused::Unavailable)?;
            keys.set = Some(set);
            keys.fetched = Some(Instant::now());
        }
        let jwk = find(keys.set.as_ref(), kid)
            .ok_or_else(|| Refused::Token(format!("no key {kid:?} among the issuer's keys")))?;
        if let Some(declared) = jwk.common.key_algorithm
            && declared.to_string() != format!("{alg:?}")
        {
            return Err(Refused::Token(format!(
                "key {kid:?} is for {declared}, the token says {alg:?}"
            )));
        }
        DecodingKey::from_jwk(jwk)
            .map_err(|error| Refused::Token(format!("key {kid:?} cannot be used: {error}")))
    }

    /// The issuer's metadata (RFC 8414, then OpenID discovery), then its JWKS.
    async fn fetch_keys(&self) -> Result<JwkSet, String> {
        let metadata = self.metadata().await?;
        let jwks_uri = metadata
            .jwks_uri
            .ok_or_else(|| format!("the metadata of {} names no jwks_uri", self.url))?;
        let url =
            Url::parse(&jwks_uri).map_err(|error| format!("jwks_uri {jwks_uri:?}: {error}"))?;
        fetch::check_loopback(&url, "an issuer's keys")?;
        let body = fetch::get(&url)
            .await
            .map_err(|error| format!("the issuer's keys at {jwks_uri}: {error}"))?;
        serde_json::from_slice(&body)
            .map_err(|error| format!("the issuer's keys at {jwks_uri} are not a JWK set: {error}"))
    }

    async fn metadata(&self) -> Result<Metadata, String> {
        let mut why = Vec::new();
        for url in discovery_urls(&self.url) {
            let Ok(parsed) = Url::parse(&url) else {
                continue;
            };
            match fetch::get(&parsed).await {
                Ok(body) => {
                    let metadata: Metadata = serde_json::from_slice(&body).map_err(|error| {
                        format!("{url} is not authorization server metadata: {error}")
                    })?;
                    if metadata.issuer != self.url {
                        return Err(format!(
                            "{url} names the issuer {:?}, not {:?}",
                            metadata.issuer, self.url
                        ));
                    }
                    return Ok(metadata);
                }
                Err(error) => why.push(format!("{url}: {error}")),
            }
        }
        Err(format!(
            "no metadata for the issuer {}: {}",
            self.url,
            why.join("; ")
        ))
    }
}

fn find<'a>(set: Option<&'a JwkSet>, kid: &str) -> Option<&'a Jwk> {
    let set = set?;
    if kid.is_empty() && set.keys.len() == 1 {
        return set.keys.first();
    }
    set.find(kid)
}

/// RFC 8414 §3.1 (the well-known segment before the issuer's path), then OpenID Connect
/// Discovery (after it).
fn discovery_urls(issuer: &str) -> Vec<String> {
    let Ok(url) = Url::parse(issuer) else {
        return Vec::new();
    };
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/');
    vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}{path}/.well-known/openid-configuration"),
    ]
}
