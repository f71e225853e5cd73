//! The small values of the authorization server: client ids, scopes, random secrets, their
//! fingerprints, and PKCE.

use std::{collections::BTreeSet, fmt};

use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use sha2::{Digest as _, Sha256};

/// Everything but `get_weather`.
pub const MCP_BASIC: &str = "mcp:basic";
/// Calling `get_weather` (with [`MCP_BASIC`]).
pub const WEATHER_READ: &str = "weather:read";
/// The scopes this server knows, as advertised.
pub const SUPPORTED_SCOPES: [&str; 2] = [MCP_BASIC, WEATHER_READ];

/// An OAuth `client_id`: the demo client's name, a registered client's random id, or the URL of
/// a client ID metadata document.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClientId(pub String);

impl ClientId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A set of scopes, written space-separated (RFC 6749 §3.3), always in the same order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scopes(BTreeSet<String>);

impl Scopes {
    /// Parses a `scope` parameter; `Err` names the first scope this server does not know.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut set = BTreeSet::new();
        for scope in text.split(' ').filter(|s| !s.is_empty()) {
            if !SUPPORTED_SCOPES.contains(&scope) {
                return Err(scope.to_owned());
            }
            set.insert(scope.to_owned());
        }
        Ok(Self(set))
    }

    /// The scopes of `text` this server knows; others (such as `openid`) are left out.
    pub fn known(text: &str) -> Self {
        Self(
            text.split(' ')
                .filter(|scope| SUPPORTED_SCOPES.contains(scope))
                .map(str::to_owned)
                .collect(),
        )
    }

    pub fn of(scopes: &[&str]) -> Self {
        Self(scopes.iter().map(|s| s.to_string()).collect())
    }

    pub fn contains_all(&self, other: &Scopes) -> bool {
        other.0.is_subset(&self.0)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let joined: Vec<&str> = self.0.iter().map(String::as_str).collect();
        f.write_str(&joined.join(" "))
    }
}

/// A fresh random secret of 32 bytes as URL-safe Base64 without padding (43 characters).
/// `None` when the OS gives no randomness: then nothing secret may be issued.
pub fn random_secret() -> Option<String> {
    let mut bytes = [0u8; 32];
    match getrandom::fill(&mut bytes) {
        Ok(()) => Some(URL_SAFE_NO_PAD.encode(bytes)),
        Err(error) => {
            tracing::error!(%error, "no OS randomness: cannot issue a secret");
            None
        }
    }
}

/// What the server keeps of a secret (a token, code or client secret): its SHA-256, so the
/// secret itself is held only by the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint([u8; 32]);

impl Fingerprint {
    pub fn of(secret: &str) -> Self {
        Self(Sha256::digest(secret.as_bytes()).into())
    }

    /// Compares without an early exit, for client secrets.
    pub fn matches(&self, secret: &str) -> bool {
        let other = Self::of(secret);
        self.0
            .iter()
            .zip(other.0.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

/// RFC 7636 §4.1/§4.2: 43 to 128 characters of `[A-Za-z0-9-._~]` (a verifier or a challenge).
pub fn is_pkce_value(value: &str) -> bool {
    (43..=128).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b))
}

/// Whether `BASE64URL(SHA256(verifier))` is `challenge` (S256).
pub fn pkce_s256_matches(verifier: &str, challenge: &str) -> bool {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) == challenge
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_parse_known_values_in_one_order() {
        let scopes = Scopes::parse("weather:read  mcp:basic").expect("known");
        assert_eq!(scopes.to_string(), "mcp:basic weather:read");
        assert!(scopes.contains_all(&Scopes::of(&[MCP_BASIC])));
        assert_eq!(Scopes::parse("mcp:basic admin"), Err("admin".to_owned()));
        assert!(Scopes::parse("").expect("empty").is_empty());
    }

    #[test]
    fn pkce_s256_of_the_rfc_7636_example() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(pkce_s256_matches(verifier, challenge));
        assert!(!pkce_s256_matches("x", challenge));
        assert!(is_pkce_value(verifier));
        assert!(!is_pkce_value("short"));
        assert!(!is_pkce_value(&"a+".repeat(30)));
    }

    #[test]
    fn secrets_are_random_and_fingerprints_match_only_their_secret() {
        let a = random_secret().expect("randomness");
        let b = random_secret().expect("randomness");
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert!(Fingerprint::of(&a).matches(&a));
        assert!(!Fingerprint::of(&a).matches(&b));
    }
}
