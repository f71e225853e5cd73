//! `mcp-flow-bridge`: lets a web page reach MCP servers it cannot reach directly. The stdio
//! mode starts a fixed command per MCP session and serves it as a Streamable HTTP endpoint on
//! loopback, behind a secret path, recording both legs.
//!
//! Endpoints (all under the secret, `/s/SECRET/`):
//! - `mcp`: the MCP endpoint (POST, GET, DELETE), see [`stdio_endpoint`];
//! - `legs`: the record of the stdio leg as JSON, see [`legs`].

pub mod app;
pub mod child;
pub mod config;
pub mod guard;
pub mod jsonrpc;
pub mod legs;
pub mod lines;
pub mod record;
pub mod secret;
pub mod session;
pub mod stdio_endpoint;

use std::{future::Future, net::SocketAddr, sync::Arc, time::Duration};

use axum::{
    Router, middleware,
    routing::{get, post},
};
use tokio::net::TcpListener;

use crate::{app::App, config::Options};

/// How long the bridge waits, once stopping, for its connections to close.
const STOP_WAIT: Duration = Duration::from_secs(3);

/// A bridge bound to its address, not yet serving.
pub struct Bridge {
    app: Arc<App>,
    listener: TcpListener,
    addr: SocketAddr,
}

impl Bridge {
    /// Binds the address; the error says what to do when the port is taken.
    pub async fn bind(command: Vec<String>, options: Options) -> Result<Self, String> {
        let listener = TcpListener::bind(options.bind).await.map_err(|error| {
            let hint = if error.kind() == std::io::ErrorKind::AddrInUse {
                " (is another bridge or server running there? pick another port with \
                 --bind 127.0.0.1:PORT, or port 0 for a free one)"
            } else {
                ""
            };
            format!("cannot listen on {}: {error}{hint}", options.bind)
        })?;
        let addr = listener
            .local_addr()
            .map_err(|error| format!("cannot read the bound address: {error}"))?;
        let app = Arc::new(App::new(command, options, addr.port())?);
        Ok(Self {
            app,
            listener,
            addr,
        })
    }

    /// The base of every address: `http://127.0.0.1:PORT/s/SECRET`.
    pub fn base_url(&self) -> String {
        format!("http://{}/s/{}", self.addr, self.app.token)
    }

    /// The MCP endpoint's address.
    pub fn endpoint_url(&self) -> String {
        format!("{}/mcp", self.base_url())
    }

    /// The line printed on stdout for scripts.
    pub fn endpoint_line(&self) -> String {
        format!("MCP endpoint: {}", self.endpoint_url())
    }

    /// The Origins allowed to call the bridge from a browser.
    pub fn allowed_origins(&self) -> &[String] {
        &self.app.origins
    }

    /// Serves until `shutdown` completes, then ends every session (killing their children).
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let app = self.app;
        let router = router(Arc::clone(&app));

        let reaper = {
            let app = Arc::clone(&app);
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(app.reap_interval());
                loop {
                    tick.tick().await;
                    app.end_idle_sessions().await;
                }
            })
        };
        let (stopping_tx, stopping_rx) = tokio::sync::oneshot::channel::<()>();
        let stop = {
            let app = Arc::clone(&app);
            async move {
                shutdown.await;
                app.end_all().await;
                let _ = stopping_tx.send(());
            }
        };
        let server = axum::serve(self.listener, router).with_graceful_shutdown(stop);
        let result = tokio::select! {
            result = server => result,
            () = async {
                // Open streams may keep connections busy: do not wait for them long.
                if stopping_rx.await.is_ok() {
                    tokio::time::sleep(STOP_WAIT).await;
                } else {
                    std::future::pending::<()>().await;
                }
            } => Ok(()),
        };
        reaper.abort();
        app.end_all().await;
        result
    }
}

/// The routes, behind the guard and CORS.
pub fn router(app: Arc<App>) -> Router {
    let secret = format!("/s/{}", app.token);
    Router::new()
        .route(
            &format!("{secret}/mcp"),
            post(stdio_endpoint::post)
                .get(stdio_endpoint::get)
                .delete(stdio_endpoint::delete),
        )
        .route(&format!("{secret}/legs"), get(legs::legs))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            guard::guard,
        ))
        .layer(guard::cors(&app.origins))
        .with_state(app)
}
