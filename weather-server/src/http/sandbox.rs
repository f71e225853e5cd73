//! The sandbox proxy of MCP Apps: the outer frame a web host renders a server's app through. It is
//! served with the app under `--static` on the same port, and the page frames it from the *other*
//! loopback host name (`localhost` for a page on `127.0.0.1`, and the other way round), so the
//! proxy and the app inside it run on an origin the page does not share.

use axum::{
    Router,
    http::{HeaderValue, header},
    response::IntoResponse,
    routing::get,
};

/// Where the proxy is served (the page's policy lets it frame only this path).
pub const SANDBOX_PATH: &str = "/sandbox/";

const PROXY_HTML: &str = include_str!("../../assets/sandbox/index.html");
const PROXY_JS: &str = include_str!("../../assets/sandbox/proxy.js");

/// The proxy's policy, which the app's document inherits (a `srcdoc` frame takes its parent's
/// policy). It is the widest an app may get: the host adds the app's own, narrower policy to
/// the app's document, and a document obeys both. Framed only by a page on 127.0.0.1 or
/// localhost (a policy cannot name an IPv6 address).
pub const SANDBOX_POLICY: &str = "default-src 'none'; \
    script-src 'self' 'unsafe-inline' http: https:; style-src 'unsafe-inline' http: https:; \
    img-src data: blob: http: https:; font-src data: http: https:; \
    media-src data: blob: http: https:; connect-src http: https: ws: wss:; \
    frame-src http: https:; base-uri http: https:; form-action 'none'; object-src 'none'; \
    frame-ancestors http://127.0.0.1:* http://localhost:*";

/// The proxy's two files, each with [`SANDBOX_POLICY`]; never cached, so a new build's proxy
/// is the one a page gets.
pub fn routes() -> Router {
    Router::new()
        .route(
            SANDBOX_PATH,
            get(|| file("text/html; charset=utf-8", PROXY_HTML)),
        )
        .route(
            "/sandbox/proxy.js",
            get(|| file("text/javascript; charset=utf-8", PROXY_JS)),
        )
}

async fn file(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(SANDBOX_POLICY),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        body,
    )
}
