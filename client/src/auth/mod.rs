//! MCP authorization (OAuth 2.1), client side: on a 401 or a 403 `insufficient_scope` the
//! transport hands the challenge to the [`Authorizer`], which finds the protected resource's and
//! the authorization server's metadata, gets a client identity, has the user consent (or, on the
//! command line, follows the server's redirect), redeems the code with PKCE and the `resource`,
//! and gives the transport a bearer token to retry with. Every request it makes is an exchange
//! of the run's record, with its secrets redacted. Tokens live in memory only.

pub mod challenge;
mod discover;
mod entry;
pub mod error;
mod flow;
pub mod identity;
pub mod metadata;
pub mod pkce;
#[cfg(feature = "browser")]
pub mod popup;
pub mod redact;
#[cfg(test)]
mod tests;
pub mod token;

use std::cell::RefCell;
use std::rc::Rc;

use futures_util::future::LocalBoxFuture;

pub use challenge::Challenge;
pub use error::AuthError;
pub use identity::PreRegistered;

use identity::Credentials;
use metadata::ServerMetadata;
use token::Tokens;

/// The user's side of the flow: open the authorization URL where the user can consent, and
/// come back with the URL the server redirected to (carrying `code`, `state`, `iss`).
pub trait Consent {
    fn open(
        &self,
        authorization_url: String,
        redirect_uri: String,
    ) -> LocalBoxFuture<'static, Result<String, AuthError>>;

    /// The user's answer where the page asks first: open the authorization page (in the
    /// user's click), or not.
    fn answer(&self, _open: bool) {}
}

/// What the host sees of the flow: each step before it happens (where Step mode waits) and
/// how it ended, in a line that holds no secret.
pub trait Watcher {
    /// Before the step; `asked` says what goes out.
    fn before(&self, step: AuthStep, asked: String) -> LocalBoxFuture<'static, ()>;
    /// The step ended: what was learned, or why it failed.
    fn after(&self, step: AuthStep, outcome: Result<String, String>);
    /// The step was not needed (a client the server already knows needs no registration).
    fn not_needed(&self, step: AuthStep);
}

/// What this client says about itself to authorization servers.
#[derive(Clone, Debug)]
pub struct AuthConfig {
    pub client_name: String,
    /// Where the authorization server sends the user back.
    pub redirect_uri: String,
    /// `native` or `web` (RFC 7591 `application_type`, required by MCP 2026-07-28).
    pub application_type: &'static str,
    /// The URL of this client's metadata document, used as its client ID where supported.
    pub metadata_document: Option<String>,
    pub pre_registered: Option<PreRegistered>,
}

impl AuthConfig {
    /// The command line's identity: a native client whose redirect nothing listens on (the
    /// redirect is read from the authorization server's answer, never followed).
    pub fn native() -> Self {
        Self {
            client_name: "MCP Flow".to_owned(),
            redirect_uri: "http://localhost:3000/callback".to_owned(),
            application_type: "native",
            metadata_document: None,
            pre_registered: None,
        }
    }
}

/// A step of the authorization flow: the tag of its exchanges in the record, and what the host
/// shows as rows of the Authorization diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthStep {
    /// The 401 or 403 that started it (already received; no request of its own).
    Challenge,
    /// The protected resource's metadata (RFC 9728).
    ResourceMetadata,
    /// The authorization server's metadata (RFC 8414, OpenID Discovery).
    ServerMetadata,
    /// Dynamic client registration (RFC 7591).
    Registration,
    /// The user's consent: the authorization request (in the page a popup; on the command line
    /// sent over HTTP) and the redirect back.
    Consent,
    /// The code redeemed for tokens.
    Token,
    /// The MCP request goes again, with the token (its exchange is the MCP request's own).
    Retry,
    /// A refresh token redeemed.
    Refresh,
}

impl AuthStep {
    pub fn describe(self) -> &'static str {
        match self {
            Self::Challenge => "challenge",
            Self::ResourceMetadata => "protected-resource metadata",
            Self::ServerMetadata => "authorization server metadata",
            Self::Registration => "client registration",
            Self::Consent => "authorization request",
            Self::Token => "token request",
            Self::Retry => "retry with the token",
            Self::Refresh => "token refresh",
        }
    }
}

impl AuthConfig {
    /// The page's identity: a web client whose redirect URI is on the page's own origin.
    pub fn page(origin: &str) -> Self {
        Self {
            client_name: "MCP Flow".to_owned(),
            redirect_uri: format!("{origin}/oauth-callback.html"),
            application_type: "web",
            metadata_document: None,
            pre_registered: None,
        }
    }
}

/// Authorizations since the last request the server accepted, at most: one, and two step-ups.
pub const MAX_TRIES: u32 = 3;

/// What the flow found and was given, for the next request and the next challenge.
#[derive(Default)]
struct State {
    tokens: Option<Tokens>,
    /// The server and client the tokens came from, for refreshing them.
    bound: Option<Bound>,
    /// Client identities per issuer (never reused at another issuer).
    registrations: Vec<(String, Credentials)>,
    /// The scopes asked for last (a step-up asks for these and the new ones).
    scope: Option<String>,
    tries: u32,
}

#[derive(Clone)]
struct Bound {
    server: ServerMetadata,
    client: Credentials,
    resource: Option<String>,
}

/// The authorization of one connection.
pub struct Authorizer {
    config: AuthConfig,
    /// `None`: the authorization request is sent over HTTP and its redirect read (command line).
    consent: Option<Rc<dyn Consent>>,
    watcher: RefCell<Option<Rc<dyn Watcher>>>,
    state: RefCell<State>,
    /// Set while a flow runs: the user sets its pace (Step mode, the consent), so the MCP
    /// request's own timeout waits; each request of the flow has a timeout of its own.
    busy: std::cell::Cell<bool>,
}

/// Marks an [`Authorizer`] busy until dropped.
pub(crate) struct Busy<'a>(&'a std::cell::Cell<bool>);

impl<'a> Busy<'a> {
    fn new(flag: &'a std::cell::Cell<bool>) -> Self {
        flag.set(true);
        Self(flag)
    }
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

impl Authorizer {
    pub fn new(config: AuthConfig, consent: Option<Rc<dyn Consent>>) -> Self {
        Self {
            config,
            consent,
            watcher: RefCell::new(None),
            state: RefCell::new(State::default()),
            busy: std::cell::Cell::new(false),
        }
    }

    /// Whether a flow is running now.
    pub fn busy(&self) -> bool {
        self.busy.get()
    }

    pub(crate) fn mark_busy(&self) -> Busy<'_> {
        Busy::new(&self.busy)
    }

    /// Shows the flow to `watcher` (the host's rows).
    pub fn set_watcher(&self, watcher: Option<Rc<dyn Watcher>>) {
        *self.watcher.borrow_mut() = watcher;
    }

    fn watcher(&self) -> Option<Rc<dyn Watcher>> {
        self.watcher.borrow().clone()
    }

    /// The `Authorization` header value for the next request, if there is a token.
    pub fn bearer(&self) -> Option<String> {
        self.state
            .borrow()
            .tokens
            .as_ref()
            .map(|t| format!("Bearer {}", t.access))
    }

    /// The access token, for tests that look for it where it must not be.
    pub fn access_token(&self) -> Option<String> {
        self.state
            .borrow()
            .tokens
            .as_ref()
            .map(|t| t.access.clone())
    }

    /// The server accepted a request: the step-up count starts again.
    pub fn accepted(&self) {
        self.state.borrow_mut().tries = 0;
    }
}
