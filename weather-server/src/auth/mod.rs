//! `--auth`: `/mcp` as an OAuth 2.1 protected resource (MCP authorization, revision
//! 2026-07-28), with a demo authorization server on the same origin. The issuer is
//! `http://<Host>`, the resource `http://<Host>/mcp`, both from the request's validated Host,
//! so 127.0.0.1:PORT and localhost:PORT each work.
//!
//! Two rooms: the protected resource ([`resource`]) and the demo authorization server
//! ([`server`]); beside them the Host and Origin rules ([`site`]), the server's own fetches
//! ([`fetch`]), scopes and secrets ([`types`]).
//!
//! - Discovery: protected resource metadata (RFC 9728) and authorization server metadata
//!   (RFC 8414, also at the OpenID path), in [`metadata`].
//! - Clients: the pre-registered public client `mcp-flow-demo` (any loopback redirect),
//!   dynamic registration (RFC 7591, [`server::register`]) and client ID metadata documents fetched
//!   from loopback hosts only ([`server::cimd`]).
//! - The code flow with PKCE S256, resource indicators (RFC 8707) and `iss` (RFC 9207):
//!   [`server::authorize`], [`server::consent`], [`server::token`]; refresh tokens rotate on every use.
//! - Scopes: `mcp:basic` for everything at `/mcp`, plus `weather:read` for whatever gives a
//!   weather report ([`resource::bearer`]).
//!
//! Everything lives in memory ([`server::store`]); secrets are kept as SHA-256 fingerprints and never
//! logged.
//!
//! With `--auth-issuer URL` another authorization server issues the tokens: the metadata names
//! it, the built-in endpoints are not served, and its JWT access tokens are checked in
//! [`resource::issuer`].

mod fetch;
mod metadata;
mod params;
pub mod resource;
pub mod server;
pub(crate) mod site;
mod types;

use std::{net::SocketAddr, sync::Arc, time::Duration};

use axum::{
    Router,
    http::{HeaderName, Method, header},
    middleware,
    routing::{get, post},
};
use tower_http::cors::{AllowOrigin, CorsLayer};

pub use server::clients::DEMO_CLIENT;
pub use types::{MCP_BASIC, SUPPORTED_SCOPES, WEATHER_READ};

use crate::config::Config;

/// Protected resource metadata of `/mcp` (RFC 9728 §3.1: the resource's path appended).
pub const PRM_PATH: &str = "/.well-known/oauth-protected-resource/mcp";
/// Authorization server metadata (RFC 8414).
pub const AS_METADATA_PATH: &str = "/.well-known/oauth-authorization-server";
/// The same document where OpenID clients look.
pub const OPENID_CONFIGURATION_PATH: &str = "/.well-known/openid-configuration";
pub const AUTHORIZE_PATH: &str = "/oauth/authorize";
/// Where the consent page's Approve and Deny post.
pub const DECISION_PATH: &str = "/oauth/authorize/decision";
pub const TOKEN_PATH: &str = "/oauth/token";
pub const REGISTER_PATH: &str = "/oauth/register";

/// The authorization side of the server, shared by its routes and the `/mcp` guard.
#[derive(Clone)]
pub struct Auth {
    store: Arc<server::store::Store>,
    /// Client ID metadata documents fetched.
    documents: Arc<server::cimd::Cache>,
    /// Which client opened each 2025-11-25 session at `/mcp`.
    owners: Arc<resource::sessions::Owners>,
    gate: Arc<site::Gate>,
    max_body: usize,
    auto_approve: bool,
    /// `--auth-issuer`: the authorization server whose tokens are taken instead.
    issuer: Option<Arc<resource::issuer::Issuer>>,
}

impl Auth {
    /// `local_addr` is the bound address: its port joins the Host and Origin allow-lists, as
    /// at `/mcp`.
    pub fn new(config: &Config, local_addr: SocketAddr) -> Self {
        Self {
            store: Arc::new(server::store::Store::new(Duration::from_secs(
                config.auth_token_secs,
            ))),
            documents: Arc::default(),
            owners: Arc::default(),
            gate: Arc::new(site::Gate::of(config, local_addr)),
            max_body: config.max_body(),
            auto_approve: config.auth_auto_approve,
            issuer: config
                .auth_issuer
                .clone()
                .map(|url| Arc::new(resource::issuer::Issuer::new(url))),
        }
    }

    /// The authorization server the metadata names: the other issuer, or this origin.
    fn issuer_of(&self, site: &site::Site) -> String {
        match &self.issuer {
            Some(issuer) => issuer.url().to_owned(),
            None => site.issuer(),
        }
    }

    /// The discovery documents and the authorization server's endpoints, behind the Host and
    /// Origin checks, with CORS for the allowed origins.
    pub fn routes(&self) -> Router {
        let mut router = Router::new()
            .route(PRM_PATH, get(metadata::protected_resource))
            .route("/.well-known/{*rest}", get(metadata::not_found));
        if self.issuer.is_none() {
            router = router
                .route(AS_METADATA_PATH, get(metadata::authorization_server))
                .route(
                    OPENID_CONFIGURATION_PATH,
                    get(metadata::authorization_server),
                )
                .route(AUTHORIZE_PATH, get(server::authorize::authorize))
                .route(DECISION_PATH, post(server::authorize::decide))
                .route(TOKEN_PATH, post(server::token::token))
                .route(REGISTER_PATH, post(server::register::register));
        }
        router
            .layer(middleware::from_fn_with_state(self.clone(), site::screen))
            .layer(self.cors())
            .with_state(self.clone())
    }

    /// `router` (the `/mcp` endpoint) behind the bearer-token guard.
    pub fn protect(&self, router: Router) -> Router {
        router.layer(middleware::from_fn_with_state(
            self.clone(),
            resource::bearer::require_token,
        ))
    }

    /// Browsers on the allowed origins may read the metadata and call the token and
    /// registration endpoints (with `MCP-Protocol-Version`, which SDKs send on discovery).
    fn cors(&self) -> CorsLayer {
        let origins = self.gate.origins.clone();
        CorsLayer::new()
            .allow_origin(AllowOrigin::predicate(move |origin, _| {
                origin.to_str().is_ok_and(|origin| {
                    let origin = origin.trim().trim_end_matches('/');
                    origins.iter().any(|o| o.eq_ignore_ascii_case(origin))
                })
            }))
            .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
            .allow_headers([
                header::CONTENT_TYPE,
                header::ACCEPT,
                header::AUTHORIZATION,
                HeaderName::from_static("mcp-protocol-version"),
            ])
            .expose_headers([header::WWW_AUTHENTICATE])
    }
}
