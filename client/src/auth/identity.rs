//! Who the client is to an authorization server: a pre-registered client, a client ID metadata
//! document (its URL is the client ID), or a client registered on the spot (RFC 7591), in the
//! order MCP 2026-07-28 prefers them; and how it authenticates at the token endpoint.

use serde::Deserialize;
use serde_json::{Value, json};

use super::metadata::ServerMetadata;

/// How the client authenticates at the token endpoint (RFC 8414 `token_endpoint_auth_method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMethod {
    /// A public client: `client_id` in the body, no secret.
    None,
    /// HTTP Basic with the ID and secret (RFC 6749 §2.3.1).
    Basic,
    /// `client_id` and `client_secret` in the body.
    Post,
}

impl AuthMethod {
    pub fn id(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Basic => "client_secret_basic",
            Self::Post => "client_secret_post",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        match id {
            "none" => Some(Self::None),
            "client_secret_basic" => Some(Self::Basic),
            "client_secret_post" => Some(Self::Post),
            _ => None,
        }
    }
}

/// How this client came to be known to the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    PreRegistered,
    MetadataDocument,
    Registered,
}

/// A client identity at one authorization server (credentials are bound to their issuer).
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub client_id: String,
    pub secret: Option<String>,
    pub method: AuthMethod,
    pub origin: Origin,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("client_id", &self.client_id)
            .field("secret", &self.secret.as_ref().map(|_| "[redacted]"))
            .field("method", &self.method)
            .field("origin", &self.origin)
            .finish()
    }
}

/// A client registered ahead of time (settings, or the suite's context).
#[derive(Clone, PartialEq, Eq, Default)]
pub struct PreRegistered {
    pub client_id: String,
    pub secret: Option<String>,
    /// The issuer it was registered at; `None`: any.
    pub issuer: Option<String>,
}

impl std::fmt::Debug for PreRegistered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreRegistered")
            .field("client_id", &self.client_id)
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

/// The method to use with a secret: what the server lists, Basic first (RFC 8414's default
/// when it lists nothing).
fn secret_method(server: &ServerMetadata) -> AuthMethod {
    match &server.token_endpoint_auth_methods_supported {
        None => AuthMethod::Basic,
        Some(list) if list.iter().any(|m| m == "client_secret_basic") => AuthMethod::Basic,
        Some(list) if list.iter().any(|m| m == "client_secret_post") => AuthMethod::Post,
        Some(_) => AuthMethod::Basic,
    }
}

/// The method to ask for when registering: none (a public client) if the server takes it, else
/// a secret the way the server lists.
pub fn method_to_register(server: &ServerMetadata) -> AuthMethod {
    match &server.token_endpoint_auth_methods_supported {
        Some(list) if list.iter().any(|m| m == "none") => AuthMethod::None,
        Some(list) if list.is_empty() => AuthMethod::None,
        _ => secret_method(server),
    }
}

impl PreRegistered {
    /// The credentials for `server`, if this client was registered there.
    pub fn at(&self, server: &ServerMetadata) -> Option<Credentials> {
        if self.client_id.is_empty() || self.issuer.as_ref().is_some_and(|i| i != &server.issuer) {
            return None;
        }
        let method = match &self.secret {
            Some(_) => secret_method(server),
            None => AuthMethod::None,
        };
        Some(Credentials {
            client_id: self.client_id.clone(),
            secret: self.secret.clone(),
            method,
            origin: Origin::PreRegistered,
        })
    }
}

/// The client ID metadata document's URL as the client ID, if the server takes such documents.
pub fn metadata_document(url: Option<&str>, server: &ServerMetadata) -> Option<Credentials> {
    let url = url.filter(|_| server.client_id_metadata_document_supported)?;
    Some(Credentials {
        client_id: url.to_owned(),
        secret: None,
        method: AuthMethod::None,
        origin: Origin::MetadataDocument,
    })
}

/// The dynamic registration request (RFC 7591 §2), with the `application_type` MCP 2026-07-28
/// asks for.
pub fn registration_request(
    client_name: &str,
    redirect_uri: &str,
    application_type: &str,
    method: AuthMethod,
    scope: Option<&str>,
) -> Value {
    let mut request = json!({
        "client_name": client_name,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": method.id(),
        "application_type": application_type,
    });
    if let (Some(scope), Some(map)) = (scope, request.as_object_mut()) {
        map.insert("scope".into(), Value::String(scope.to_owned()));
    }
    request
}

#[derive(Deserialize)]
struct Registered {
    client_id: String,
    #[serde(default)]
    client_secret: Option<String>,
    #[serde(default)]
    token_endpoint_auth_method: Option<String>,
}

/// The registration response's credentials (RFC 7591 §3.2.1): the method it names, else the one
/// asked for (a secret without a method is used with Basic).
pub fn registered(body: &str, asked: AuthMethod) -> Result<Credentials, String> {
    let r: Registered = serde_json::from_str(body)
        .map_err(|e| format!("the registration response is not a client's JSON: {e}"))?;
    if r.client_id.is_empty() {
        return Err("the registration response has an empty client_id".into());
    }
    let method = r
        .token_endpoint_auth_method
        .as_deref()
        .and_then(AuthMethod::from_id)
        .unwrap_or(match (&r.client_secret, asked) {
            (Some(_), AuthMethod::None) => AuthMethod::Basic,
            _ => asked,
        });
    Ok(Credentials {
        client_id: r.client_id,
        secret: r.client_secret,
        method,
        origin: Origin::Registered,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(methods: Option<&[&str]>) -> ServerMetadata {
        let mut s = ServerMetadata::defaults_at("http://a");
        s.token_endpoint_auth_methods_supported =
            methods.map(|m| m.iter().map(|x| x.to_string()).collect());
        s
    }

    #[test]
    fn registration_asks_for_what_the_server_lists() {
        assert_eq!(
            method_to_register(&server(Some(&["none"]))),
            AuthMethod::None
        );
        assert_eq!(
            method_to_register(&server(Some(&["client_secret_post"]))),
            AuthMethod::Post
        );
        assert_eq!(
            method_to_register(&server(Some(&["client_secret_basic"]))),
            AuthMethod::Basic
        );
        assert_eq!(
            method_to_register(&server(Some(&["client_secret_basic", "none"]))),
            AuthMethod::None
        );
        assert_eq!(method_to_register(&server(None)), AuthMethod::Basic);
    }

    #[test]
    fn pre_registered_clients_are_bound_to_their_issuer() {
        let pre = PreRegistered {
            client_id: "c".into(),
            secret: Some("s".into()),
            issuer: Some("http://a".into()),
        };
        let c = pre
            .at(&server(Some(&["client_secret_post"])))
            .expect("registered at a");
        assert_eq!(
            (c.method, c.origin),
            (AuthMethod::Post, Origin::PreRegistered)
        );
        let mut other = server(None);
        other.issuer = "http://b".into();
        assert_eq!(pre.at(&other), None);
        assert!(!format!("{pre:?}{c:?}").contains("\"s\""));
    }

    #[test]
    fn registration_request_and_response() {
        let r = registration_request(
            "MCP Flow",
            "http://localhost:3000/callback",
            "native",
            AuthMethod::None,
            None,
        );
        assert_eq!(r["application_type"], "native");
        assert_eq!(r["token_endpoint_auth_method"], "none");
        assert_eq!(r["redirect_uris"][0], "http://localhost:3000/callback");
        assert!(r.get("scope").is_none());
        let c = registered(
            r#"{"client_id":"test-client-id","client_secret":"x"}"#,
            AuthMethod::None,
        )
        .expect("credentials");
        assert_eq!(c.method, AuthMethod::Basic);
        let c = registered(
            r#"{"client_id":"id","client_secret":"x","token_endpoint_auth_method":"client_secret_post"}"#,
            AuthMethod::Basic,
        )
        .expect("credentials");
        assert_eq!(c.method, AuthMethod::Post);
        assert!(registered("<html>", AuthMethod::None).is_err());
        assert!(registered(r#"{"client_id":""}"#, AuthMethod::None).is_err());
    }

    #[test]
    fn metadata_documents_only_where_supported() {
        let mut s = server(None);
        assert_eq!(metadata_document(Some("https://x/c.json"), &s), None);
        s.client_id_metadata_document_supported = true;
        assert_eq!(
            metadata_document(Some("https://x/c.json"), &s).map(|c| c.client_id),
            Some("https://x/c.json".to_owned())
        );
        assert_eq!(metadata_document(None, &s), None);
    }
}
