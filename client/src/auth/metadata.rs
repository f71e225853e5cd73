//! Where the metadata of an MCP server's authorization is, and what it says: the protected
//! resource's (RFC 9728) and the authorization server's (RFC 8414, or OpenID Connect Discovery).
//! Strings the server sent are kept as sent: the `resource` parameter must repeat them exactly.

use serde::Deserialize;
use url::Url;

use super::error::AuthError;

/// The protected-resource metadata document (RFC 9728 §2).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ResourceMetadata {
    pub resource: String,
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
}

/// The authorization server's metadata (RFC 8414 §2), the fields MCP uses.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ServerMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    #[serde(default)]
    pub registration_endpoint: Option<String>,
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub grant_types_supported: Option<Vec<String>>,
    #[serde(default)]
    pub client_id_metadata_document_supported: bool,
    #[serde(default)]
    pub authorization_response_iss_parameter_supported: bool,
}

impl ServerMetadata {
    /// What a server without metadata is taken to offer (MCP 2025-03-26 "fallbacks for servers
    /// without metadata discovery"): `/authorize`, `/token` and `/register` at the MCP origin.
    pub fn defaults_at(origin: &str) -> Self {
        Self {
            issuer: origin.to_owned(),
            authorization_endpoint: format!("{origin}/authorize"),
            token_endpoint: format!("{origin}/token"),
            registration_endpoint: Some(format!("{origin}/register")),
            scopes_supported: None,
            code_challenge_methods_supported: Some(vec!["S256".to_owned()]),
            token_endpoint_auth_methods_supported: None,
            grant_types_supported: None,
            client_id_metadata_document_supported: false,
            authorization_response_iss_parameter_supported: false,
        }
    }

    pub fn offers_scope(&self, scope: &str) -> bool {
        self.scopes_supported
            .as_ref()
            .is_some_and(|s| s.iter().any(|x| x == scope))
    }

    /// Every endpoint this client would send the user or a secret to is `https`, or `http` on
    /// a loopback host (OAuth 2.1 §1.5; RFC 8252 §7.3 for loopback).
    pub fn check_endpoints(&self) -> Result<(), AuthError> {
        check_secure("authorization server (issuer)", &self.issuer)?;
        check_secure("authorization endpoint", &self.authorization_endpoint)?;
        check_secure("token endpoint", &self.token_endpoint)?;
        if let Some(registration) = &self.registration_endpoint {
            check_secure("registration endpoint", registration)?;
        }
        Ok(())
    }

    /// PKCE with S256 is possible: the spec has clients refuse a server that does not say so.
    pub fn supports_s256(&self) -> bool {
        self.code_challenge_methods_supported
            .as_ref()
            .is_some_and(|m| m.iter().any(|x| x == "S256"))
    }
}

/// `url` is `https`, or `http` on a loopback host; `what` names it in the error.
pub fn check_secure(what: &str, url: &str) -> Result<(), AuthError> {
    let parsed = parse_url(url, what)?;
    let loopback = match parsed.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    match parsed.scheme() {
        "https" if parsed.host().is_some() => Ok(()),
        "http" if loopback => Ok(()),
        _ => Err(AuthError::InsecureEndpoint {
            what: what.to_owned(),
            url: super::redact::url(url),
        }),
    }
}

/// A URL's origin, `scheme://host[:port]`, as text without a trailing slash.
pub fn origin_of(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// A URL's path without its trailing slash (`""` for the root).
fn path_of(url: &Url) -> &str {
    url.path().trim_end_matches('/')
}

pub fn parse_url(text: &str, what: &str) -> Result<Url, AuthError> {
    Url::parse(text).map_err(|e| AuthError::BadUrl {
        what: what.to_owned(),
        url: text.to_owned(),
        detail: e.to_string(),
    })
}

/// Where to look for the protected-resource metadata: the URL the 401 named, else the
/// path-aware well-known URI, then the root one (RFC 9728 §3.1).
pub fn resource_metadata_urls(mcp: &Url, from_header: Option<&str>) -> Vec<String> {
    if let Some(url) = from_header {
        return vec![url.to_owned()];
    }
    let origin = origin_of(mcp);
    let path = path_of(mcp);
    let mut urls = Vec::new();
    if !path.is_empty() {
        urls.push(format!(
            "{origin}/.well-known/oauth-protected-resource{path}"
        ));
    }
    urls.push(format!("{origin}/.well-known/oauth-protected-resource"));
    urls
}

/// Where to look for an issuer's metadata (MCP "Authorization Server Metadata Discovery"): for
/// an issuer with a path, RFC 8414's path insertion, OpenID's path insertion, then OpenID's path
/// appending; for one without, RFC 8414's then OpenID's well-known URI.
pub fn server_metadata_urls(issuer: &Url) -> Vec<String> {
    let origin = origin_of(issuer);
    let path = path_of(issuer);
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

/// Whether the metadata's `resource` covers the MCP endpoint: the same origin, and a path that
/// is the endpoint's or one of its parents (as the official TypeScript SDK checks).
pub fn resource_covers(resource: &str, mcp: &Url) -> bool {
    let Ok(resource) = Url::parse(resource) else {
        return false;
    };
    if origin_of(&resource) != origin_of(mcp) {
        return false;
    }
    let (r, m) = (path_of(&resource), path_of(mcp));
    r.is_empty() || m == r || m.starts_with(&format!("{r}/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).expect("a URL")
    }

    #[test]
    fn the_header_wins_else_the_path_then_the_root() {
        let mcp = url("http://localhost:3000/mcp");
        assert_eq!(
            resource_metadata_urls(
                &mcp,
                Some("http://localhost:3000/custom/metadata/location.json")
            ),
            ["http://localhost:3000/custom/metadata/location.json"]
        );
        assert_eq!(
            resource_metadata_urls(&mcp, None),
            [
                "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
                "http://localhost:3000/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            resource_metadata_urls(&url("http://127.0.0.1:8000/"), None),
            ["http://127.0.0.1:8000/.well-known/oauth-protected-resource"]
        );
    }

    #[test]
    fn issuer_paths_try_three_places_and_never_the_root() {
        assert_eq!(
            server_metadata_urls(&url("http://localhost:3000/tenant1")),
            [
                "http://localhost:3000/.well-known/oauth-authorization-server/tenant1",
                "http://localhost:3000/.well-known/openid-configuration/tenant1",
                "http://localhost:3000/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            server_metadata_urls(&url("http://localhost:3000")),
            [
                "http://localhost:3000/.well-known/oauth-authorization-server",
                "http://localhost:3000/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn a_resource_covers_its_own_path_and_children_on_its_origin_only() {
        let mcp = url("http://localhost:3000/mcp");
        assert!(resource_covers("http://localhost:3000/mcp", &mcp));
        assert!(resource_covers("http://localhost:3000", &mcp));
        assert!(resource_covers("http://localhost:3000/", &mcp));
        assert!(!resource_covers("https://evil.example.com/mcp", &mcp));
        assert!(!resource_covers("http://localhost:3001/mcp", &mcp));
        assert!(!resource_covers("http://localhost:3000/mcp2", &mcp));
        assert!(!resource_covers("http://localhost:3000/other", &mcp));
        assert!(!resource_covers("not a url", &mcp));
    }

    #[test]
    fn metadata_reads_with_defaults_and_tells_s256() {
        let m: ServerMetadata = serde_json::from_str(
            r#"{"issuer":"http://a","authorization_endpoint":"http://a/auth","token_endpoint":"http://a/token",
                "code_challenge_methods_supported":["plain","S256"],"scopes_supported":["offline_access"]}"#,
        )
        .expect("metadata");
        assert!(m.supports_s256());
        assert!(m.offers_scope("offline_access"));
        assert!(!m.authorization_response_iss_parameter_supported);
        assert_eq!(m.registration_endpoint, None);
        let none: ServerMetadata = serde_json::from_str(
            r#"{"issuer":"x","authorization_endpoint":"a","token_endpoint":"t"}"#,
        )
        .expect("metadata");
        assert!(!none.supports_s256());
        let fallback = ServerMetadata::defaults_at("http://localhost:3000");
        assert_eq!(fallback.token_endpoint, "http://localhost:3000/token");
        assert!(fallback.supports_s256());
    }

    #[test]
    fn endpoints_must_be_https_or_loopback_http() {
        for ok in [
            "https://as.example/authorize",
            "http://127.0.0.1:9000/authorize",
            "http://localhost/token",
            "http://[::1]:1/register",
        ] {
            assert!(check_secure("endpoint", ok).is_ok(), "{ok}");
        }
        for bad in [
            "javascript:alert(document.domain)",
            "data:text/html,<script>1</script>",
            "http://as.example/authorize",
            "http://127.0.0.1.nip.io/authorize",
            "ftp://127.0.0.1/x",
            "not a url",
        ] {
            assert!(check_secure("endpoint", bad).is_err(), "{bad}");
        }
        let mut server = ServerMetadata::defaults_at("https://as.example");
        assert!(server.check_endpoints().is_ok());
        server.authorization_endpoint = "javascript:alert(1)".into();
        let error = server
            .check_endpoints()
            .expect_err("javascript:")
            .to_string();
        assert!(error.contains("authorization endpoint"), "{error}");
        let mut plain = ServerMetadata::defaults_at("https://as.example");
        plain.token_endpoint = "http://as.example/token".into();
        assert!(plain.check_endpoints().is_err());
    }
}
