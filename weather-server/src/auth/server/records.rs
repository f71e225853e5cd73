//! What the authorization server knows of clients and grants: the records its store keeps.

use crate::auth::types::{ClientId, Fingerprint, Scopes};

/// How a client proves itself at the token endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientAuth {
    /// A public client: its `client_id` only.
    None,
    /// `Authorization: Basic` with the secret.
    SecretBasic(Fingerprint),
    /// `client_secret` in the form body.
    SecretPost(Fingerprint),
}

/// The redirect URIs a client may use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redirects {
    /// Any loopback `http` URI (the pre-registered demo client, RFC 8252 §7.3).
    AnyLoopback,
    /// The registered ones (a loopback one on any port).
    Listed(Vec<String>),
}

/// A client as the server knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    pub id: ClientId,
    pub name: Option<String>,
    pub auth: ClientAuth,
    pub redirects: Redirects,
    /// Whether it gets refresh tokens (its grant types include `refresh_token`).
    pub refresh: bool,
}

/// What a code or a refresh token stands for.
#[derive(Debug, Clone)]
pub struct Grant {
    pub client: Client,
    pub scope: Scopes,
    /// The resource (RFC 8707) the tokens are for: this server's `/mcp` URI.
    pub resource: String,
}

/// An authorization request shown on the consent page.
#[derive(Debug, Clone)]
pub struct Pending {
    pub grant: Grant,
    pub redirect_uri: String,
    pub challenge: String,
    pub state: Option<String>,
    /// The issuer the client asked (`iss` in the answer).
    pub issuer: String,
}

/// An authorization code: the request it approved.
#[derive(Debug, Clone)]
pub struct Code {
    pub grant: Grant,
    pub redirect_uri: String,
    pub challenge: String,
}

/// What an access token allows.
#[derive(Debug, Clone)]
pub struct Access {
    pub client: ClientId,
    pub scope: Scopes,
    pub resource: String,
}

/// Tokens just issued.
#[derive(Debug)]
pub struct Issued {
    pub access_token: String,
    pub refresh_token: Option<String>,
    pub expires_in: u64,
    pub scope: Scopes,
}
