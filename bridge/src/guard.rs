//! What every request must pass before it reaches the endpoint: a loopback Host (against DNS
//! rebinding), the secret in the path, and an allowed Origin when a browser sends one. CORS
//! grants only the allowed origins.

use std::sync::Arc;

use axum::{
    extract::{Request, State},
    http::{HeaderName, HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use tower_http::cors::{AllowHeaders, AllowOrigin, CorsLayer};

use crate::{
    config::Options,
    secret::{random_hex, same_secret},
};

/// What a request must match: the secret in the path, a loopback Host, an allowed Origin.
pub struct Locks {
    /// The secret in every path: `/s/SECRET/…`.
    pub token: String,
    pub origins: Vec<String>,
    pub hosts: Vec<String>,
}

impl Locks {
    /// Fresh locks for a bridge bound on `port`.
    pub fn new(options: &Options, port: u16) -> Result<Self, String> {
        Ok(Self {
            token: random_hex(16).map_err(|error| format!("no random source: {error}"))?,
            origins: options.allowed_origins(port),
            hosts: Options::allowed_hosts(port),
        })
    }
}

/// Rejects requests with a foreign Host, without the secret, or from a foreign Origin (403).
pub async fn guard(State(locks): State<Arc<Locks>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .map(str::to_ascii_lowercase);
    if !host.is_some_and(|host| locks.hosts.contains(&host)) {
        return forbidden("Forbidden: Host not allowed (the bridge answers loopback names only)");
    }
    let secret = request
        .uri()
        .path()
        .strip_prefix("/s/")
        .and_then(|rest| rest.split('/').next());
    if !secret.is_some_and(|secret| same_secret(secret, &locks.token)) {
        return forbidden(
            "Forbidden: this address needs the bridge's secret; use the URL of the \
             `MCP endpoint:` line the bridge printed",
        );
    }
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let allowed = origin.to_str().is_ok_and(|origin| {
            let origin = origin.trim().trim_end_matches('/');
            locks
                .origins
                .iter()
                .any(|allowed| allowed.eq_ignore_ascii_case(origin))
        });
        if !allowed {
            return forbidden(
                "Forbidden: Origin not allowed; start the bridge with --allow-origin ORIGIN \
                 to admit a page",
            );
        }
    }
    next.run(request).await
}

fn forbidden(message: &'static str) -> Response {
    (
        StatusCode::FORBIDDEN,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        message,
    )
        .into_response()
}

/// CORS for the allowed origins only: any request header (MCP's, and the `Mcp-Param-*` ones
/// named by tools), and the session and version headers readable by the page.
pub fn cors(origins: &[String]) -> CorsLayer {
    let origins: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|origin| HeaderValue::from_str(origin).ok())
        .collect();
    CorsLayer::new()
        // A request after a pause is then not preceded by a preflight the page's timing counts.
        .max_age(std::time::Duration::from_secs(7200))
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers([
            HeaderName::from_static("mcp-session-id"),
            HeaderName::from_static("mcp-protocol-version"),
            crate::stdio_endpoint::RECORD_SESSION,
            crate::forward::EXCHANGE,
            crate::forward::LEG,
            crate::forward::UPSTREAM,
            // An upstream's challenge, so the page can authorize through the bridge.
            HeaderName::from_static("www-authenticate"),
        ])
}
