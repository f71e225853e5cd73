//! What can go wrong while authorizing, each said at the step where it happened.

use std::fmt;

/// A failed authorization: the step, and why.
#[derive(Debug, Clone, PartialEq)]
pub enum AuthError {
    BadUrl {
        what: String,
        url: String,
        detail: String,
    },
    /// A request of the flow got no usable answer (network, status, body).
    Request {
        step: String,
        detail: String,
    },
    /// No protected-resource metadata, and this era has no fallback.
    NoResourceMetadata {
        tried: Vec<String>,
    },
    /// The metadata names another resource than this server.
    ResourceMismatch {
        resource: String,
        server: String,
    },
    NoAuthorizationServer,
    /// The authorization server's metadata says it is another issuer (RFC 8414 §3.3).
    IssuerMismatch {
        expected: String,
        found: String,
    },
    NoS256 {
        issuer: String,
    },
    /// An authorization server endpoint (or issuer) that is neither `https` nor `http` on a
    /// loopback host: codes and tokens would travel in clear, or the URL is not a web page at
    /// all (`javascript:`, `data:`).
    InsecureEndpoint {
        what: String,
        url: String,
    },
    /// No way to get a client identity from this server.
    NoRegistration {
        issuer: String,
    },
    /// The authorization response's `state` is not the one sent.
    StateMismatch,
    /// The authorization response says who issued it wrongly or not at all (RFC 9207).
    IssMissing {
        issuer: String,
    },
    IssMismatch {
        expected: String,
        found: String,
    },
    /// The authorization server (or the user) said no.
    Denied {
        error: String,
        description: Option<String>,
    },
    /// The token endpoint refused.
    TokenRefused {
        status: u16,
        error: String,
        description: Option<String>,
    },
    /// The resource keeps asking for scopes the client has already been granted.
    ScopeRetryLimit {
        scope: String,
        tries: u32,
    },
    /// The user's side of the flow (a popup, a redirect) did not come back.
    UserAgent(String),
    /// No randomness for PKCE and `state`.
    NoRandomness(String),
    /// The resource asked for authorization but this client was set not to authorize.
    NotEnabled {
        status: u16,
    },
    /// The part of the page that authorizes could not be fetched (release build).
    NotLoaded(String),
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadUrl { what, url, detail } => {
                write!(f, "{what} {url:?} is not a URL: {detail}")
            }
            Self::Request { step, detail } => write!(f, "{step}: {detail}"),
            Self::NoResourceMetadata { tried } => write!(
                f,
                "the server asks for authorization but publishes no protected-resource metadata \
                 (tried {})",
                tried.join(", ")
            ),
            Self::ResourceMismatch { resource, server } => write!(
                f,
                "the protected-resource metadata is for {resource}, not for this server \
                 ({server}): a token for it must not be sent here, so authorization stops"
            ),
            Self::NoAuthorizationServer => write!(
                f,
                "the protected-resource metadata names no authorization server"
            ),
            Self::IssuerMismatch { expected, found } => write!(
                f,
                "the authorization server's metadata says its issuer is {found}, not {expected} \
                 (RFC 8414 §3.3): none of its endpoints is used"
            ),
            Self::NoS256 { issuer } => write!(
                f,
                "{issuer} does not list S256 in code_challenge_methods_supported, and MCP clients \
                 must use PKCE with S256"
            ),
            Self::InsecureEndpoint { what, url } => write!(
                f,
                "the {what} {url:?} is neither https nor http on a loopback host (127.0.0.1, \
                 localhost, [::1]): codes and tokens are sent only over https, so authorization \
                 stops"
            ),
            Self::NoRegistration { issuer } => write!(
                f,
                "no client identity for {issuer}: no pre-registered client, no client ID \
                 metadata document support, and no registration endpoint"
            ),
            Self::StateMismatch => write!(
                f,
                "the authorization response's state is not the one this client sent: it may be \
                 forged, so its code is not used"
            ),
            Self::IssMissing { issuer } => write!(
                f,
                "{issuer} promises an iss parameter in its authorization responses (RFC 9207) and \
                 this one has none: the code is not redeemed"
            ),
            Self::IssMismatch { expected, found } => write!(
                f,
                "the authorization response was issued by {found}, not {expected} (RFC 9207): the \
                 code is not redeemed"
            ),
            Self::Denied { error, description } => {
                write!(f, "the authorization server answered {error}")?;
                if let Some(d) = description {
                    write!(f, ": {d}")?;
                }
                Ok(())
            }
            Self::TokenRefused {
                status,
                error,
                description,
            } => {
                write!(f, "the token endpoint refused (HTTP {status}, {error})")?;
                if let Some(d) = description {
                    write!(f, ": {d}")?;
                }
                Ok(())
            }
            Self::ScopeRetryLimit { scope, tries } => write!(
                f,
                "the server still answers 403 insufficient_scope (asking for {scope}) after \
                 {tries} authorizations; giving up"
            ),
            Self::UserAgent(why) => write!(f, "{why}"),
            Self::NoRandomness(why) => write!(f, "no randomness for PKCE: {why}"),
            Self::NotLoaded(why) => write!(f, "{why}"),
            Self::NotEnabled { status } => write!(
                f,
                "HTTP {status}: the server asks for authorization, and authorization is off"
            ),
        }
    }
}

impl std::error::Error for AuthError {}
