//! `weather-server`: a small MCP server with one tool, `get_weather`, served
//! over Streamable HTTP at `/mcp` (rmcp + axum).
//!
//! The binary is a thin wrapper around [`serve`]; tests run the same server
//! in-process on `127.0.0.1:0`.
//!
//! Rooms: [`handlers`] (what the servers answer: the weather server, the calculator, the
//! forecast, resources, prompts, the server's questions), [`http`] (the router, its guards and
//! streams), [`auth`] (the protected resource and the demo authorization server),
//! [`conformance`] (the suite's fixtures, only with the `conformance-fixtures` feature); at the
//! root the flags ([`config`]), the eras ([`era`]) and the sealed `requestState` ([`sealed`]).

pub mod auth;
pub mod config;
#[cfg(feature = "conformance-fixtures")]
pub mod conformance;
pub mod era;
pub mod handlers;
pub mod http;
pub mod sealed;

use axum::serve::ListenerExt;
use std::{future::Future, io, net::SocketAddr};

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use config::Config;
pub use era::Era;
pub use handlers::weather::WeatherServer;
pub use http::{CALC_PATH, FORECAST_PATH, MCP_PATH, router};

/// The line printed on stdout once the server is bound, e.g.
/// `weather-server listening on http://127.0.0.1:8000/mcp`.
pub fn listening_line(local_addr: SocketAddr) -> String {
    format!("weather-server listening on {}", endpoint_url(local_addr))
}

/// The MCP endpoint URL for a bound address.
pub fn endpoint_url(local_addr: SocketAddr) -> String {
    format!("http://{local_addr}{MCP_PATH}")
}

/// Serves the app on `listener` until `shutdown` completes, then cancels all
/// sessions and streams and waits for open connections to finish.
pub async fn serve<F>(config: Config, listener: TcpListener, shutdown: F) -> io::Result<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    let local_addr = listener.local_addr()?;
    let cancel = CancellationToken::new();
    let app = router(&config, local_addr, cancel.clone())?;

    tracing::info!(address = %endpoint_url(local_addr), "weather-server starting");
    tracing::info!(mode = config.mode(), era = config.era.name(), "transport");
    #[cfg(feature = "conformance-fixtures")]
    if config.conformance_fixtures {
        tracing::warn!("serving the conformance suite's diagnostic tools (--conformance-fixtures)");
    }
    tracing::info!(
        origins = %config.allowed_origins(local_addr.port()).join(", "),
        "allowed origins"
    );
    if let Some(issuer) = config.auth_issuer.as_deref().filter(|_| config.auth) {
        tracing::info!(
            issuer,
            "/mcp needs an OAuth access token (a JWT) from another authorization server"
        );
    } else if config.auth {
        tracing::info!(
            token_secs = config.auth_token_secs,
            auto_approve = config.auth_auto_approve,
            demo_client = auth::DEMO_CLIENT,
            "/mcp needs an OAuth access token; authorization server at the same origin"
        );
    }
    match &config.static_dir {
        Some(dir) => tracing::info!(dir = %dir.display(), "serving static files at /"),
        None => tracing::info!("static files: none (use --static DIR)"),
    }
    if config.sessions_enabled() {
        tracing::info!(
            max_sessions = config.max_sessions,
            idle_secs = config.session_idle_secs,
            "sessions"
        );
    }

    // Small SSE frames must not wait for Nagle's algorithm and the peer's delayed ACK (seen as a
    // steady ~40 ms stall per request on loopback).
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!("could not set TCP_NODELAY: {e}");
        }
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            tracing::info!("shutting down");
            cancel.cancel();
        })
        .await
}
