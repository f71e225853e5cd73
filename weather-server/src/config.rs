//! Command-line flags.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use clap::Parser;

use crate::era::Era;

/// The origins of `trunk serve` (the dev setup), allowed with `--dev-origins` only.
pub const DEV_ORIGINS: &[&str] = &["http://127.0.0.1:8080", "http://localhost:8080"];

/// Demo MCP server with one tool, `get_weather`, over Streamable HTTP at `/mcp`.
#[derive(Debug, Clone, Parser)]
#[command(name = "weather-server", version, about, long_about = None)]
pub struct Config {
    /// Address to listen on. Port 0 picks a free port; the real address is
    /// printed on stdout as `weather-server listening on http://ADDR/mcp`.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8000")]
    pub bind: SocketAddr,

    /// Do not keep sessions: every POST is answered on its own (no
    /// mcp-session-id, no GET stream, no DELETE).
    #[arg(long)]
    pub stateless: bool,

    /// Answer requests with plain `application/json` bodies instead of SSE
    /// streams (falls back to SSE when a notification precedes the result).
    /// Implies --stateless.
    #[arg(long)]
    pub json_response: bool,

    /// Also allow browser requests from this Origin (repeatable), e.g.
    /// `--allow-origin http://localhost:5173`. Always allowed: the server's own origin.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origins: Vec<String>,

    /// Also allow the dev setup's pages: `trunk serve` at http://127.0.0.1:8080 and
    /// http://localhost:8080.
    #[arg(long)]
    pub dev_origins: bool,

    /// Serve a built web app from this directory at `/` (index.html for
    /// unknown paths), on the same port as `/mcp`.
    #[arg(long = "static", value_name = "DIR")]
    pub static_dir: Option<PathBuf>,

    /// Serve model files (the in-page language model) from this directory at `/models/…`,
    /// with Content-Length, Range requests and caching headers.
    #[arg(long = "models", value_name = "DIR")]
    pub models_dir: Option<PathBuf>,

    /// Refuse new sessions (HTTP 503) while this many are open.
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_sessions: u32,

    /// Refuse a POST or GET on an endpoint (HTTP 503) while this many of its response streams
    /// are open (an SSE answer or GET stream holds one until it ends).
    #[arg(long, value_name = "N", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_streams: u32,

    /// Refuse a POST or GET of one session (HTTP 503) while it has this many streams open.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_session_streams: u32,

    /// Close a session after this many seconds without any request.
    #[arg(long, value_name = "SECS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub session_idle_secs: u64,

    /// Largest accepted POST body in bytes; larger ones get HTTP 413.
    #[arg(long, value_name = "N", default_value_t = 1024 * 1024,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_body_bytes: u64,

    /// Protocol eras served at /mcp and /calc: `modern` (2026-07-28 only: no sessions, no
    /// initialize), `legacy` (2025-11-25 and older only: initialize and sessions; modern
    /// requests get a legacy server's 400), or `both` on one endpoint.
    #[arg(long, value_enum, value_name = "ERA", default_value_t = Era::Both)]
    pub era: Era,

    /// Test only: also serve the official conformance suite's diagnostic tools
    /// (`test_missing_capability`, `test_logging_tool`, `test_streaming_elicitation`,
    /// `test_input_required_result_*`) and prompt at /mcp.
    #[cfg(feature = "conformance-fixtures")]
    #[arg(long, hide = true)]
    pub conformance_fixtures: bool,

    /// Make `/mcp` an OAuth-protected resource, with a built-in demo authorization server on
    /// the same origin (`/.well-known/oauth-authorization-server`, `/oauth/*`). `/calc`,
    /// `/models` and static files stay open.
    #[arg(long)]
    pub auth: bool,

    /// A city's report is observed anew every SECS (its `observedAt` moves on, and subscribers
    /// hear `notifications/resources/updated`).
    #[arg(long, value_name = "SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub update_secs: u64,

    /// With --auth: lifetime of an access token in seconds (refresh tokens last a day).
    #[arg(long, value_name = "SECS", default_value_t = 3600, requires = "auth",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub auth_token_secs: u64,

    /// With --auth: approve every valid authorization request at once (302 to the client)
    /// instead of showing the consent page. For automated runs.
    #[arg(long, requires = "auth")]
    pub auth_auto_approve: bool,

    /// With --auth: tokens come from this other authorization server (its issuer URL, on a
    /// loopback host) instead of the built-in one: its JWT access tokens are checked against
    /// the keys its metadata names, and the built-in `/oauth/*` endpoints are not served.
    #[arg(long, value_name = "URL", requires = "auth", conflicts_with = "auth_auto_approve",
          value_parser = crate::auth::resource::issuer::check_url)]
    pub auth_issuer: Option<String>,

    /// Keep a journal of every request received (method, path, session, JSON-RPC method) and
    /// serve it at `GET /journal`. For tests that check what a client really sent.
    #[arg(long)]
    pub journal: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self::parse_from(["weather-server"])
    }
}

impl Config {
    /// Parses flags (without the program name), e.g. `["--stateless"]`.
    pub fn try_from_args<I, T>(args: I) -> Result<Self, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        Self::try_parse_from(
            std::iter::once(std::ffi::OsString::from("weather-server"))
                .chain(args.into_iter().map(Into::into)),
        )
    }

    /// Whether legacy sessions (and SSE with GET/DELETE) are used. The modern era has none.
    pub fn sessions_enabled(&self) -> bool {
        !(self.stateless || self.json_response) && self.era.speaks_legacy()
    }

    /// Human-readable transport mode for the startup log.
    pub fn mode(&self) -> &'static str {
        match (self.sessions_enabled(), self.json_response) {
            (true, _) => "sessions + SSE",
            (false, true) => "stateless + JSON",
            (false, false) => "stateless + SSE",
        }
    }

    /// Idle time after which a session is closed.
    pub fn session_idle(&self) -> Duration {
        Duration::from_secs(self.session_idle_secs)
    }

    /// Body limit as `usize` (saturating on small targets).
    pub fn max_body(&self) -> usize {
        usize::try_from(self.max_body_bytes).unwrap_or(usize::MAX)
    }

    /// The Origin allow-list: the dev origins (with `--dev-origins`), the server's own
    /// loopback origins on the bound port, then `--allow-origin` values, without duplicates.
    pub fn allowed_origins(&self, bound_port: u16) -> Vec<String> {
        let own = [
            format!("http://127.0.0.1:{bound_port}"),
            format!("http://localhost:{bound_port}"),
            format!("http://[::1]:{bound_port}"),
        ];
        let mut origins: Vec<String> = Vec::new();
        let dev: &[&str] = if self.dev_origins { DEV_ORIGINS } else { &[] };
        let candidates = dev
            .iter()
            .map(|s| s.to_string())
            .chain(own)
            .chain(self.allow_origins.iter().map(|o| o.trim().to_string()));
        for origin in candidates {
            let origin = origin.trim_end_matches('/').to_string();
            if !origin.is_empty() && !origins.iter().any(|o| o.eq_ignore_ascii_case(&origin)) {
                origins.push(origin);
            }
        }
        origins
    }

    /// Host header values accepted (DNS-rebinding protection): loopback names
    /// on any port, explicitly on the bound port, and the bound IP itself when
    /// it is a specific non-loopback address.
    pub fn allowed_hosts(&self, bound: SocketAddr) -> Vec<String> {
        let port = bound.port();
        let mut hosts = vec![
            "localhost".to_string(),
            "127.0.0.1".to_string(),
            "::1".to_string(),
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("[::1]:{port}"),
        ];
        let ip = bound.ip();
        if !ip.is_loopback() && !ip.is_unspecified() {
            hosts.push(ip.to_string());
            hosts.push(bound.to_string());
        }
        hosts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let config = Config::default();
        assert_eq!(config.bind, "127.0.0.1:8000".parse().expect("addr"));
        assert!(config.sessions_enabled());
        assert_eq!(config.max_sessions, 100);
        assert_eq!((config.max_streams, config.max_session_streams), (256, 16));
        assert_eq!(config.session_idle_secs, 300);
        assert_eq!(config.max_body_bytes, 1024 * 1024);
        assert!(config.static_dir.is_none());
        assert_eq!(config.era, Era::Both);
        assert!(!config.auth && !config.auth_auto_approve);
        assert_eq!(config.auth_token_secs, 3600);
        assert_eq!(config.update_secs, 10);
        #[cfg(feature = "conformance-fixtures")]
        assert!(!config.conformance_fixtures);
    }

    #[test]
    fn the_modern_era_has_no_sessions() {
        let config = Config::parse_from(["weather-server", "--era", "modern"]);
        assert_eq!(config.era, Era::Modern);
        assert!(!config.sessions_enabled());
        let config = Config::parse_from(["weather-server", "--era", "legacy"]);
        assert!(config.sessions_enabled());
        assert!(Config::try_parse_from(["weather-server", "--era", "old"]).is_err());
    }

    #[test]
    fn json_response_implies_stateless() {
        let config = Config::parse_from(["weather-server", "--json-response"]);
        assert!(!config.sessions_enabled());
        assert_eq!(config.mode(), "stateless + JSON");
    }

    #[test]
    fn allow_origin_extends_defaults() {
        let config = Config::parse_from([
            "weather-server",
            "--allow-origin",
            "http://localhost:5173/",
            "--allow-origin",
            "http://127.0.0.1:8080",
        ]);
        let origins = config.allowed_origins(9000);
        assert_eq!(
            origins,
            vec![
                "http://127.0.0.1:9000",
                "http://localhost:9000",
                "http://[::1]:9000",
                "http://localhost:5173",
                "http://127.0.0.1:8080",
            ]
        );
        // The dev setup's origins come only when asked for.
        let dev = Config::parse_from(["weather-server", "--dev-origins"]).allowed_origins(9000);
        assert_eq!(
            &dev[..2],
            ["http://127.0.0.1:8080", "http://localhost:8080"]
        );
        assert!(
            !Config::default()
                .allowed_origins(9000)
                .iter()
                .any(|o| o.ends_with(":8080"))
        );
    }

    #[test]
    fn auth_flags_need_auth() {
        let config = Config::parse_from([
            "weather-server",
            "--auth",
            "--auth-token-secs",
            "1",
            "--auth-auto-approve",
        ]);
        assert!(config.auth && config.auth_auto_approve);
        assert_eq!(config.auth_token_secs, 1);
        assert!(Config::try_parse_from(["weather-server", "--auth-auto-approve"]).is_err());
        assert!(Config::try_parse_from(["weather-server", "--auth-token-secs", "5"]).is_err());
        assert!(
            Config::try_parse_from(["weather-server", "--auth", "--auth-token-secs", "0"]).is_err()
        );
    }

    #[test]
    fn another_issuer_is_a_loopback_url() {
        let config = Config::parse_from([
            "weather-server",
            "--auth",
            "--auth-issuer",
            "http://127.0.0.1:9000/",
        ]);
        assert_eq!(config.auth_issuer.as_deref(), Some("http://127.0.0.1:9000"));
        for refused in [
            &["--auth-issuer", "http://127.0.0.1:9000"][..],
            &["--auth", "--auth-issuer", "https://issuer.example"],
            &["--auth", "--auth-issuer", "http://127.0.0.1:9000/?x=1"],
            &["--auth", "--auth-issuer", "not a url"],
            &[
                "--auth",
                "--auth-auto-approve",
                "--auth-issuer",
                "http://127.0.0.1:9",
            ],
        ] {
            let args = std::iter::once("weather-server").chain(refused.iter().copied());
            assert!(Config::try_parse_from(args).is_err(), "{refused:?}");
        }
    }

    #[test]
    fn zero_limits_are_rejected() {
        assert!(Config::try_parse_from(["weather-server", "--max-sessions", "0"]).is_err());
        assert!(Config::try_parse_from(["weather-server", "--max-body-bytes", "0"]).is_err());
    }
}
