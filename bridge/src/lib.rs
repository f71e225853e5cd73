//! `mcp-flow-bridge`: lets a web page reach MCP servers it cannot reach directly, on loopback,
//! behind a secret path, recording the leg the page cannot see.
//!
//! - `stdio -- CMD ARGS…` starts the fixed command for each MCP session and relays its stdin and
//!   stdout as Streamable HTTP ([`stdio_endpoint`]); the record is the stdio lines ([`record`]).
//! - `http URL` forwards to one fixed upstream ([`forward`]); the record is the upstream
//!   exchanges ([`exchanges`]).
//!
//! Endpoints, all under the secret `/s/SECRET/`: `mcp` (the MCP endpoint) and `legs` (the
//! record as JSON, [`legs`]).

pub mod app;
pub mod body;
pub mod child;
pub mod config;
pub mod exchanges;
pub mod feed;
pub mod forward;
pub mod guard;
pub mod jsonrpc;
pub mod legs;
pub mod lines;
pub mod modern;
pub mod old_sse;
pub mod param_headers;
pub mod record;
pub mod secret;
pub mod session;
pub mod stdio_endpoint;
pub mod tap;

use std::{future::Future, net::SocketAddr, sync::Arc, time::Duration};

use axum::{
    Router, middleware,
    routing::{any, get, post},
    serve::ListenerExt,
};
use tokio::net::TcpListener;

use crate::{app::App, child::ChildEnv, config::Mode, feed::Feed, forward::Forward, guard::Locks};

/// How long the bridge waits, once stopping, for its connections to close.
const STOP_WAIT: Duration = Duration::from_secs(3);

/// What the bridge serves.
enum Target {
    Stdio(Arc<App>),
    Http(Arc<Forward>),
}

/// A bridge bound to its address, not yet serving.
pub struct Bridge {
    locks: Arc<Locks>,
    /// With `--watch`: what passes, for watching pages.
    feed: Option<Arc<Feed>>,
    target: Target,
    listener: TcpListener,
    addr: SocketAddr,
}

impl Bridge {
    /// Binds the address; the error says what to do when the port is taken.
    pub async fn bind(mode: Mode) -> Result<Self, String> {
        let options = mode
            .options()
            .ok_or("`tap` serves nothing: run it with `mcp-flow-bridge tap`")?
            .clone();
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
        let locks = Arc::new(Locks::new(&options, addr.port())?);
        let watched = |mode: &'static str, target: String| {
            options
                .watch
                .then(|| Feed::new(mode, target, options.max_body()))
        };
        let feed;
        let target = match mode {
            Mode::Stdio {
                options,
                command,
                pass_env,
                inherit_env,
            } => {
                let env = if inherit_env {
                    ChildEnv::Inherit
                } else {
                    ChildEnv::Only(pass_env)
                };
                feed = watched("stdio", command.join(" "));
                Target::Stdio(Arc::new(App::new(command, env, options)))
            }
            Mode::Http { options, url } => {
                feed = watched("http", url.as_str().to_owned());
                Target::Http(Arc::new(Forward::new(url, options, feed.clone())?))
            }
            Mode::Tap { .. } => return Err("`tap` serves nothing".into()),
        };
        Ok(Self {
            locks,
            feed,
            target,
            listener,
            addr,
        })
    }

    /// The base of every address: `http://127.0.0.1:PORT/s/SECRET`.
    pub fn base_url(&self) -> String {
        format!("http://{}/s/{}", self.addr, self.locks.token)
    }

    /// The MCP endpoint's address.
    pub fn endpoint_url(&self) -> String {
        format!("{}/mcp", self.base_url())
    }

    /// The line printed on stdout for scripts.
    pub fn endpoint_line(&self) -> String {
        format!("MCP endpoint: {}", self.endpoint_url())
    }

    /// With `--watch`: the feed's address.
    pub fn feed_url(&self) -> Option<String> {
        self.feed
            .as_ref()
            .map(|_| format!("{}/{}", self.base_url(), mcp_flow_wire::watch::PATH))
    }

    /// With `stdio --watch`: the command a stdio host runs in place of the server's (`tap`).
    pub fn host_command(&self) -> Option<String> {
        let Target::Stdio(app) = &self.target else {
            return None;
        };
        self.feed.as_ref()?;
        let exe = std::env::current_exe().ok()?;
        let mut words = vec![
            exe.display().to_string(),
            "tap".to_owned(),
            "--feed".to_owned(),
            format!("{}/{}", self.base_url(), mcp_flow_wire::watch::TAP_PATH),
            "--".to_owned(),
        ];
        words.extend(app.launch.command.iter().cloned());
        shlex::try_join(words.iter().map(String::as_str)).ok()
    }

    /// The Origins allowed to call the bridge from a browser.
    pub fn allowed_origins(&self) -> &[String] {
        &self.locks.origins
    }

    /// The Origins added with `--allow-origin`: where the app may be served from.
    pub fn page_origins(&self) -> &[String] {
        // The first three are the bridge's own (see `Options::allowed_origins`).
        self.locks.origins.get(3..).unwrap_or_default()
    }

    /// What is behind the bridge, for people: the command or the upstream.
    pub fn describe(&self) -> String {
        match &self.target {
            Target::Stdio(app) => {
                format!(
                    "`{}` (one process per MCP session)",
                    app.launch.command.join(" ")
                )
            }
            Target::Http(forward) => format!("the upstream {}", forward.upstream),
        }
    }

    /// Serves until `shutdown` completes, then ends every session (killing their children).
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let secret = format!("/s/{}", self.locks.token);
        let (routes, app) = match self.target {
            Target::Stdio(app) => (stdio_routes(&secret, Arc::clone(&app)), Some(app)),
            Target::Http(forward) => (http_routes(&secret, forward), None),
        };
        let routes = routes.merge(watch_routes(&secret, self.feed));
        // The guard is outermost: a preflight too must pass the Host, secret and Origin checks
        // before CORS answers it.
        let router =
            routes
                .layer(guard::cors(&self.locks.origins))
                .layer(middleware::from_fn_with_state(
                    Arc::clone(&self.locks),
                    guard::guard,
                ));

        let reaper = app.clone().map(|app| {
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(app.reap_interval());
                loop {
                    tick.tick().await;
                    app.end_idle_sessions().await;
                }
            })
        });
        let (stopping_tx, stopping_rx) = tokio::sync::oneshot::channel::<()>();
        let stop = {
            let app = app.clone();
            async move {
                shutdown.await;
                if let Some(app) = app {
                    app.end_all().await;
                }
                let _ = stopping_tx.send(());
            }
        };
        // Answers passed on chunk by chunk must not wait for Nagle's algorithm and the client's
        // delayed ACK (a steady ~40 ms per relayed stream on loopback).
        let listener = self.listener.tap_io(|tcp| {
            if let Err(error) = tcp.set_nodelay(true) {
                tracing::warn!("could not set TCP_NODELAY: {error}");
            }
        });
        let server = axum::serve(listener, router).with_graceful_shutdown(stop);
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
        if let Some(reaper) = reaper {
            reaper.abort();
        }
        if let Some(app) = app {
            app.end_all().await;
        }
        result
    }
}

fn stdio_routes(secret: &str, app: Arc<App>) -> Router {
    Router::new()
        .route(
            &format!("{secret}/mcp"),
            post(stdio_endpoint::post)
                .get(stdio_endpoint::get)
                .delete(stdio_endpoint::delete),
        )
        .route(&format!("{secret}/legs"), get(legs::legs))
        .with_state(app)
}

fn http_routes(secret: &str, forward: Arc<Forward>) -> Router {
    Router::new()
        .route(&format!("{secret}/mcp"), any(forward::forward))
        .route(&format!("{secret}/legs"), get(legs::exchanges))
        .with_state(forward)
}

/// The feed for watching pages, and where taps send their copies (404 without `--watch`).
fn watch_routes(secret: &str, feed: Option<Arc<Feed>>) -> Router {
    use mcp_flow_wire::watch::{PATH, TAP_PATH};
    Router::new()
        .route(&format!("{secret}/{PATH}"), get(feed::watch))
        .route(&format!("{secret}/{TAP_PATH}"), post(feed::tap))
        .with_state(feed)
}
