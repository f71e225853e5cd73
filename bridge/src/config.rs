//! Command-line flags.

use std::{net::SocketAddr, time::Duration};

use clap::{Args, Parser, Subcommand};

/// Lets a web page reach an MCP server it cannot reach directly: a stdio program served as a
/// Streamable HTTP endpoint on loopback, behind a secret address, with both legs recorded.
#[derive(Debug, Clone, Parser)]
#[command(name = "mcp-flow-bridge", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub mode: Mode,
}

#[derive(Debug, Clone, Subcommand)]
pub enum Mode {
    /// Start `CMD ARGS…` for each MCP session and relay its stdin and stdout as Streamable
    /// HTTP. The command is fixed here; it never comes from a request. The child gets the
    /// bridge's working folder and, of its environment, only HOME, LOGNAME, PATH, SHELL, TERM
    /// and USER (as the official SDKs' stdio clients do), plus each `--pass-env` variable;
    /// `--inherit-env` passes the whole environment.
    Stdio {
        #[command(flatten)]
        options: Options,
        /// Also pass this variable of the bridge's environment to the child (repeatable),
        /// e.g. an API key the server reads.
        #[arg(long = "pass-env", value_name = "NAME", conflicts_with = "inherit_env")]
        pass_env: Vec<String>,
        /// Pass the bridge's whole environment to the child.
        #[arg(long)]
        inherit_env: bool,
        /// The server's command and its arguments, after `--`.
        #[arg(last = true, required = true, value_name = "CMD")]
        command: Vec<String>,
    },
    /// Forward every request to one fixed Streamable HTTP endpoint (never an open proxy),
    /// without the browser's Origin, Referer and cookies, and grant CORS to the allowed
    /// origins: for servers that send no CORS headers or refuse a page's Origin. Plain
    /// `http://` upstreams only.
    Http {
        #[command(flatten)]
        options: Options,
        /// The upstream MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`.
        #[arg(value_name = "URL", value_parser = parse_upstream)]
        url: reqwest::Url,
    },
    /// What a stdio host runs in place of its server's command while a bridge watches (`stdio
    /// --watch` prints the line): starts `CMD ARGS…` and relays the host's stdin and the
    /// server's stdout and stderr unchanged, sending a copy of each line to the bridge's feed.
    Tap {
        /// The watching bridge's `…/s/SECRET/tap` address (loopback only).
        #[arg(long, value_name = "URL", value_parser = parse_tap_feed)]
        feed: reqwest::Url,
        /// The server's command and its arguments, after `--`.
        #[arg(last = true, required = true, value_name = "CMD")]
        command: Vec<String>,
    },
}

impl Mode {
    /// The serving modes' flags (`tap` serves nothing).
    pub fn options(&self) -> Option<&Options> {
        match self {
            Self::Stdio { options, .. } | Self::Http { options, .. } => Some(options),
            Self::Tap { .. } => None,
        }
    }
}

/// Flags shared by the modes.
#[derive(Debug, Clone, Args)]
pub struct Options {
    /// Address to listen on: loopback only (127.0.0.1 or [::1]). Port 0 picks a free port.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8001",
          value_parser = parse_loopback)]
    pub bind: SocketAddr,

    /// Also allow browser requests from this Origin (repeatable), e.g. the app's
    /// `http://127.0.0.1:8000`. Always allowed: the bridge's own origin.
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = parse_origin)]
    pub allow_origins: Vec<String>,

    /// Refuse new sessions (HTTP 503) while this many are open.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_sessions: u32,

    /// End a session (and its process) after this many seconds without a request.
    #[arg(long, value_name = "SECS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_secs: u64,

    /// Seconds to wait for the server's next message while a request is open; then the
    /// request fails with a timeout error.
    #[arg(long = "timeout", value_name = "SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout_secs: u64,

    /// Largest accepted POST body in bytes; larger ones get HTTP 413.
    #[arg(long, value_name = "N", default_value_t = 4 * 1024 * 1024,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_body_bytes: u64,

    /// stdio mode, 2025-11-25 sessions: how to answer a request whose response is the first
    /// thing the child sends. `json`: one `application/json` body; `sse`: a stream of one event,
    /// as many HTTP servers answer every request (when the client accepts `text/event-stream`).
    /// A response that follows the child's own messages is always a stream.
    #[arg(long, value_enum, value_name = "FORM", default_value_t = Answers::Json)]
    pub answers: Answers,

    /// Watch a host: keep a live feed of everything that passes (`/s/SECRET/watch`) for a page
    /// that draws it, and print the page's address to open (`Watch in the page: URL`).
    #[arg(long)]
    pub watch: bool,
}

/// How the stdio mode answers a response that comes first (`--answers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Answers {
    Json,
    Sse,
}

impl Options {
    pub fn idle(&self) -> Duration {
        Duration::from_secs(self.idle_secs)
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs)
    }

    pub fn max_body(&self) -> usize {
        usize::try_from(self.max_body_bytes).unwrap_or(usize::MAX)
    }

    /// The Origin allow-list: the bridge's own origins on the bound port, then
    /// `--allow-origin` values, without trailing slashes or duplicates.
    pub fn allowed_origins(&self, port: u16) -> Vec<String> {
        let own = [
            format!("http://127.0.0.1:{port}"),
            format!("http://localhost:{port}"),
            format!("http://[::1]:{port}"),
        ];
        let mut origins: Vec<String> = Vec::new();
        for origin in own.into_iter().chain(self.allow_origins.iter().cloned()) {
            let origin = origin.trim().trim_end_matches('/').to_owned();
            if !origin.is_empty() && !origins.iter().any(|o| o.eq_ignore_ascii_case(&origin)) {
                origins.push(origin);
            }
        }
        origins
    }

    /// Host header values accepted (DNS-rebinding protection): loopback names on the bound
    /// port, or without a port.
    pub fn allowed_hosts(port: u16) -> Vec<String> {
        ["127.0.0.1", "localhost", "[::1]"]
            .into_iter()
            .flat_map(|host| [host.to_owned(), format!("{host}:{port}")])
            .collect()
    }
}

fn parse_upstream(value: &str) -> Result<reqwest::Url, String> {
    let url = reqwest::Url::parse(value).map_err(|error| format!("{error}"))?;
    match url.scheme() {
        "http" if url.host().is_some() => Ok(url),
        "https" => Err(
            "https upstreams are not supported (this build has no TLS stack); \
                        use the server's plain http:// address"
                .to_owned(),
        ),
        _ => Err(format!("{value} is not an http:// URL")),
    }
}

/// A bridge's tap address: plain http on this machine.
fn parse_tap_feed(value: &str) -> Result<reqwest::Url, String> {
    let url = parse_upstream(value)?;
    let host = url.host_str().unwrap_or("");
    let loopback = host == "localhost"
        || host
            .trim_matches(['[', ']'])
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if !loopback {
        return Err(format!(
            "{value} is not on this machine: a tap sends only to a local bridge"
        ));
    }
    Ok(url)
}

/// An origin as browsers send it: `http(s)://host[:port]`, nothing else (not `null`, not `*`,
/// no path, query or credentials).
fn parse_origin(value: &str) -> Result<String, String> {
    let expected = "expected scheme://host[:port], e.g. http://127.0.0.1:8000";
    let url = reqwest::Url::parse(value.trim()).map_err(|error| format!("{error} ({expected})"))?;
    let bare = matches!(url.scheme(), "http" | "https")
        && url.host_str().is_some()
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none()
        && url.username().is_empty()
        && url.password().is_none();
    if !bare {
        return Err(format!("{value:?} is not an origin ({expected})"));
    }
    Ok(url.origin().ascii_serialization())
}

fn parse_loopback(value: &str) -> Result<SocketAddr, String> {
    let addr: SocketAddr = value
        .parse()
        .map_err(|error| format!("{error} (expected e.g. 127.0.0.1:8001)"))?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "the bridge listens on loopback only (127.0.0.1 or [::1]): {addr} would let other \
             machines start the server's command"
        ));
    }
    Ok(addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("mcp-flow-bridge").chain(args.iter().copied()))
    }

    #[test]
    fn stdio_takes_the_command_after_the_dashes() {
        let cli = parse(&[
            "stdio",
            "--bind",
            "127.0.0.1:0",
            "--",
            "python3",
            "-u",
            "s.py",
        ])
        .expect("parse");
        let Mode::Stdio {
            options,
            command,
            pass_env,
            inherit_env,
        } = cli.mode
        else {
            panic!("stdio mode");
        };
        assert_eq!(command, ["python3", "-u", "s.py"]);
        assert!(
            pass_env.is_empty() && !inherit_env,
            "a few named variables by default"
        );
        assert_eq!(options.bind.port(), 0);
        assert_eq!(options.max_body(), 4 * 1024 * 1024);
        assert!(parse(&["stdio"]).is_err(), "a command is required");
        let both = ["stdio", "--pass-env", "KEY", "--inherit-env", "--", "x"];
        assert!(
            parse(&both).is_err(),
            "--pass-env names what --inherit-env would not"
        );
    }

    #[test]
    fn http_takes_one_plain_http_upstream() {
        let cli = parse(&["http", "http://127.0.0.1:3000/mcp"]).expect("parse");
        let Mode::Http { url, .. } = cli.mode else {
            panic!("http mode");
        };
        assert_eq!(url.as_str(), "http://127.0.0.1:3000/mcp");
        assert!(parse(&["http", "https://example.com/mcp"]).is_err());
        assert!(parse(&["http", "file:///etc/passwd"]).is_err());
        assert!(parse(&["http"]).is_err(), "the upstream is required");
    }

    #[test]
    fn only_loopback_binds_are_accepted() {
        let error = parse(&["stdio", "--bind", "0.0.0.0:8001", "--", "x"])
            .expect_err("0.0.0.0 must be refused")
            .to_string();
        assert!(error.contains("loopback only"), "{error}");
        assert!(parse(&["stdio", "--bind", "192.168.1.2:8001", "--", "x"]).is_err());
        assert!(parse(&["stdio", "--bind", "[::1]:8001", "--", "x"]).is_ok());
    }

    #[test]
    fn an_allowed_origin_is_an_origin() {
        for refused in [
            "null",
            "*",
            "127.0.0.1:8000",
            "http://127.0.0.1:8000/app",
            "http://127.0.0.1:8000/?x",
            "http://user@127.0.0.1:8000",
            "file:///tmp",
            "",
        ] {
            assert!(
                parse(&["stdio", "--allow-origin", refused, "--", "x"]).is_err(),
                "{refused:?}"
            );
        }
        let cli = parse(&["stdio", "--allow-origin", "HTTP://LocalHost:80/", "--", "x"])
            .expect("an origin");
        assert_eq!(
            cli.mode.options().map(|o| o.allow_origins.clone()),
            Some(vec!["http://localhost".to_owned()])
        );
    }

    #[test]
    fn allowed_origins_start_with_the_bridge_itself() {
        let cli = parse(&[
            "stdio",
            "--allow-origin",
            "http://127.0.0.1:8000/",
            "--allow-origin",
            "http://localhost:9000",
            "--",
            "x",
        ])
        .expect("parse");
        let options = cli.mode.options().expect("a serving mode");
        assert_eq!(
            options.allowed_origins(9000),
            [
                "http://127.0.0.1:9000",
                "http://localhost:9000",
                "http://[::1]:9000",
                "http://127.0.0.1:8000",
            ]
        );
    }
}
