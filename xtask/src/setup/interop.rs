//! Servers nobody here wrote, for the browser interop tests: the official TypeScript SDK v2
//! (`@modelcontextprotocol/server`) and the official Python SDK 2.x (`mcp`), each serving a small
//! `get_weather` (scripts in `test-servers/peers/`), installed into the tools folder
//! (`interop/`) once and started by the test command. The bridge's tests run the Python SDK's
//! stdio weather server and the official `mcp-server-time` through the bridge ([`BridgePeers`]).

use std::path::PathBuf;
use std::process::Command;

use crate::server::{self, Server};
use crate::setup::tools::Tools;
use crate::sh::{self, Result};

pub const TS_SERVER_PACKAGE: &str = "@modelcontextprotocol/server@2.4.0";
pub const ZOD_PACKAGE: &str = "zod@4.6.7";
/// The Python SDK with the ASGI pieces its script uses, pinned.
pub const PYTHON_PACKAGES: [&str; 3] = ["mcp==2.3.0", "uvicorn==0.54.0", "starlette==1.10.0"];
/// The official reference server that exercises every feature (stdio and Streamable HTTP),
/// pinned; the bridge's tests run it in both forms.
pub const EVERYTHING_PACKAGE: &str = "@modelcontextprotocol/server-everything@2026.8.31";
/// The reference MCP Apps server (TypeScript SDK v2, Streamable HTTP with CORS on), pinned: its
/// `get-time` tool has an app with buttons that go through the host.
pub const BASIC_APP_PACKAGE: &str = "@modelcontextprotocol/server-basic-vanillajs@2.0.3";
/// The official reference stdio server `mcp-server-time`, pinned, in a folder of its own (it
/// brings its own `mcp`).
pub const TIME_SERVER_PACKAGES: [&str; 1] = ["mcp-server-time==2026.10.19"];

/// The port the TypeScript SDK's `simpleSseServer` listens on (its code fixes it).
const SSE_EXAMPLE_PORT: u16 = 3000;

#[derive(Clone)]
pub struct Interop {
    npm: PathBuf,
    python: PathBuf,
}

impl Interop {
    /// Installs what is missing (once; later runs only check).
    pub fn ensure(tools: &Tools) -> Result<Self> {
        let root = tools.root.join("interop");
        let npm = root.join("npm");
        tools.ensure_npm_in(
            &npm,
            &[TS_SERVER_PACKAGE, ZOD_PACKAGE],
            "the TypeScript SDK v2 server",
            |dir| dir.join("node_modules/@modelcontextprotocol/server/package.json"),
        )?;
        let python = ensure_venv(&root.join("py"), &PYTHON_PACKAGES, "the Python SDK")?;
        // Node resolves packages next to the script, so the script runs from the npm folder.
        std::fs::copy(
            crate::workspace_root().join("test-servers/peers/ts_weather.mjs"),
            npm.join("ts_weather.mjs"),
        )?;
        Ok(Self { npm, python })
    }

    /// The TypeScript SDK server (both eras: its stateless legacy fallback beside 2026-07-28).
    pub fn ts_server(&self, tools: &Tools) -> Result<Server> {
        server::start_command(
            "peer-ts-sdk",
            Command::new(tools.node22_bin().join("node"))
                .current_dir(&self.npm)
                .arg("ts_weather.mjs"),
            &[],
            true,
        )
    }

    /// The Python SDK server with its DNS-rebinding protection admitting no page's origin (only
    /// requests without one, or through `mcp-flow-bridge http`).
    pub fn python_server_for_no_page(&self) -> Result<Server> {
        self.python_server("http://127.0.0.1:9")
    }

    /// The Python SDK server, admitting pages from `origin`.
    pub fn python_server(&self, origin: &str) -> Result<Server> {
        server::start_command(
            "peer-python-sdk",
            Command::new(&self.python)
                .arg(crate::workspace_root().join("test-servers/peers/py_weather.py")),
            &[origin.to_owned()],
            true,
        )
    }
}

/// The servers the bridge's tests run through it: the Python SDK's stdio weather server
/// (`test-servers/peers/py_stdio_weather.py`, on the interpreter that has `mcp` 2.3.0), the
/// official `mcp-server-time` and `server-everything`.
#[derive(Clone)]
pub struct BridgePeers {
    /// A Python with the Python SDK.
    pub python_sdk: PathBuf,
    /// The `mcp-server-time` program.
    pub time_server: PathBuf,
    /// `server-everything`'s entry script (`node SCRIPT stdio|streamableHttp`).
    pub everything: PathBuf,
    /// The TypeScript SDK 1.x's built example servers (`dist/esm/examples/server/`).
    pub ts_sdk_examples: PathBuf,
    /// The reference MCP Apps server's entry script.
    pub basic_app: PathBuf,
}

impl BridgePeers {
    /// Installs what is missing (once; later runs only check).
    pub fn ensure(tools: &Tools) -> Result<Self> {
        let root = tools.root.join("interop");
        let python_sdk = ensure_venv(&root.join("py"), &PYTHON_PACKAGES, "the Python SDK")?;
        let time = ensure_venv(
            &root.join("time-py"),
            &TIME_SERVER_PACKAGES,
            "the reference server mcp-server-time",
        )?;
        let time_server = time.with_file_name("mcp-server-time");
        let everything_dir = root.join("everything");
        let everything = everything_dir
            .join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        let marker = everything.clone();
        tools.ensure_npm_in(
            &everything_dir,
            &[EVERYTHING_PACKAGE],
            "the reference server-everything",
            move |_| marker.clone(),
        )?;
        let ts_dir = root.join("ts-sdk1");
        let ts_sdk_examples =
            ts_dir.join("node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server");
        let marker = ts_sdk_examples.join("progressExample.js");
        tools.ensure_npm_in(
            &ts_dir,
            &[
                crate::bench::peers::TS_SDK_PACKAGE,
                crate::bench::peers::ZOD_PACKAGE,
            ],
            "the TypeScript SDK 1.x's example servers",
            move |_| marker.clone(),
        )?;
        let apps_dir = root.join("apps");
        let basic_app = apps_dir
            .join("node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js");
        let marker = basic_app.clone();
        tools.ensure_npm_in(
            &apps_dir,
            &[BASIC_APP_PACKAGE],
            "the reference MCP Apps server",
            move |_| marker.clone(),
        )?;
        Ok(Self {
            python_sdk,
            time_server,
            everything,
            ts_sdk_examples,
            basic_app,
        })
    }

    /// `mcp-flow-bridge stdio` serving the TypeScript SDK's stdio example `progressExample`
    /// (a `count` tool that reports progress every 100 ms and stops when cancelled).
    pub fn bridge_progress_for(
        &self,
        binary: &std::path::Path,
        origins: &[&str],
    ) -> Result<(sh::Background, String)> {
        let script = self.ts_sdk_examples.join("progressExample.js");
        bridge_stdio(
            binary,
            "bridge-ts-progress",
            origins,
            &[std::ffi::OsStr::new("node"), script.as_os_str()],
        )
    }

    /// `mcp-flow-bridge stdio` (the built `binary`) serving the Python SDK's stdio weather
    /// server; returns the process and the endpoint it printed.
    pub fn bridge_py_stdio(&self, binary: &std::path::Path) -> Result<(sh::Background, String)> {
        self.bridge_py_stdio_for(binary, &[])
    }

    /// The same, with `origins` on the bridge's allow-list (a test page served elsewhere).
    pub fn bridge_py_stdio_for(
        &self,
        binary: &std::path::Path,
        origins: &[&str],
    ) -> Result<(sh::Background, String)> {
        let script = crate::workspace_root().join("test-servers/peers/py_stdio_weather.py");
        bridge_stdio(
            binary,
            "bridge-py-stdio",
            origins,
            &[self.python_sdk.as_os_str(), script.as_os_str()],
        )
    }

    /// The hosts the watch scenarios drive and what they reach: `mcp-flow-bridge http --watch`
    /// in front of `upstream`, `mcp-flow-bridge stdio --watch` for the Python SDK's stdio
    /// weather server (a host runs it through `tap`). Returns both bridges and one line for the
    /// suite: `HTTP_ENDPOINT STDIO_ENDPOINT BRIDGE PYTHON TS_CLIENT STDIO_SERVER`.
    pub fn watch_bridges(
        &self,
        binary: &std::path::Path,
        upstream: &str,
        origins: &[&str],
    ) -> Result<((sh::Background, sh::Background), String)> {
        let watch = std::ffi::OsStr::new("--watch");
        let (http, http_endpoint) = bridge(
            binary,
            "bridge-watch-http",
            &[std::ffi::OsStr::new("http"), std::ffi::OsStr::new(upstream)],
            origins,
            &[watch],
        )?;
        let script = crate::workspace_root().join("test-servers/peers/py_stdio_weather.py");
        let (stdio, stdio_endpoint) = bridge(
            binary,
            "bridge-watch-stdio",
            &[std::ffi::OsStr::new("stdio"), watch],
            origins,
            &[
                std::ffi::OsStr::new("--"),
                self.python_sdk.as_os_str(),
                script.as_os_str(),
            ],
        )?;
        let client = self
            .ts_sdk_examples
            .parent()
            .map(|examples| examples.join("client/simpleStreamableHttp.js"))
            .ok_or("the TypeScript SDK's examples have no parent folder")?;
        let line = [
            http_endpoint,
            stdio_endpoint,
            binary.display().to_string(),
            self.python_sdk.display().to_string(),
            client.display().to_string(),
            script.display().to_string(),
        ]
        .join(" ");
        Ok(((http, stdio), line))
    }

    /// `mcp-flow-bridge stdio` serving the reference server `mcp-server-time`.
    pub fn bridge_time_for(
        &self,
        binary: &std::path::Path,
        origins: &[&str],
    ) -> Result<(sh::Background, String)> {
        bridge_stdio(
            binary,
            "bridge-time",
            origins,
            &[self.time_server.as_os_str()],
        )
    }

    /// The reference `server-everything` in its Streamable HTTP mode on a free port; returns the
    /// process and its MCP endpoint.
    pub fn everything_http(&self) -> Result<(sh::Background, String)> {
        let port = sh::free_port()?;
        let (process, _) = sh::Background::start(
            "everything-http",
            Command::new("node")
                .arg(&self.everything)
                .arg("streamableHttp")
                .env("PORT", port.to_string()),
            // Its first stdout line; "listening on port" comes on stderr, so the port is what
            // says it is ready.
            "Streamable HTTP",
        )?;
        sh::wait_for_port(port, "server-everything (Streamable HTTP)")?;
        Ok((process, format!("http://127.0.0.1:{port}/mcp")))
    }

    /// The TypeScript SDK's `elicitationUrlExample` (Streamable HTTP, 2025-11-25) on free ports,
    /// with its demo authorization server beside it: its tools answer error -32042, and it asks
    /// for an API key by URL elicitation on the GET stream. Returns the process and its MCP
    /// endpoint, on `localhost` (the name its tokens are issued for).
    pub fn url_elicitation(&self) -> Result<(sh::Background, String)> {
        let (mcp, auth) = (sh::free_port()?, sh::free_port()?);
        let (process, _) = sh::Background::start(
            "ts-url-elicitation",
            Command::new("node")
                .arg(self.ts_sdk_examples.join("elicitationUrlExample.js"))
                .env("MCP_PORT", mcp.to_string())
                .env("MCP_AUTH_PORT", auth.to_string()),
            "listening on port",
        )?;
        sh::wait_for_port(mcp, "elicitationUrlExample")?;
        sh::wait_for_port(auth, "elicitationUrlExample's authorization server")?;
        Ok((process, format!("http://localhost:{mcp}/mcp")))
    }

    /// The TypeScript SDK's `simpleSseServer`, a server of the HTTP+SSE transport (2024-11-05)
    /// without CORS, on the port it fixes (3000); returns the process and its stream's URL.
    pub fn sse_example(&self) -> Result<(sh::Background, String)> {
        if std::net::TcpListener::bind(("127.0.0.1", SSE_EXAMPLE_PORT)).is_err() {
            return Err(format!(
                "simpleSseServer listens on port {SSE_EXAMPLE_PORT}, which something else holds"
            )
            .into());
        }
        let (process, _) = sh::Background::start(
            "ts-simple-sse",
            Command::new("node").arg(self.ts_sdk_examples.join("simpleSseServer.js")),
            "listening on port",
        )?;
        sh::wait_for_port(SSE_EXAMPLE_PORT, "simpleSseServer")?;
        Ok((process, format!("http://127.0.0.1:{SSE_EXAMPLE_PORT}/mcp")))
    }

    /// The TypeScript SDK's `simpleStreamableHttp` (Streamable HTTP, no CORS) on a free port;
    /// with `oauth`, protected by its demo authorization server on another. Returns the process
    /// and its MCP endpoint, on `localhost` (the name its tokens are issued for).
    pub fn streamable_example(&self, oauth: bool) -> Result<(sh::Background, String)> {
        let (mcp, auth) = (sh::free_port()?, sh::free_port()?);
        let mut command = Command::new("node");
        command
            .arg(self.ts_sdk_examples.join("simpleStreamableHttp.js"))
            .env("MCP_PORT", mcp.to_string())
            .env("MCP_AUTH_PORT", auth.to_string());
        if oauth {
            command.arg("--oauth");
        }
        let name = if oauth { "ts-oauth" } else { "ts-streamable" };
        let (process, _) = sh::Background::start(name, &mut command, "listening on port")?;
        sh::wait_for_port(mcp, "simpleStreamableHttp")?;
        if oauth {
            sh::wait_for_port(auth, "simpleStreamableHttp's authorization server")?;
        }
        Ok((process, format!("http://localhost:{mcp}/mcp")))
    }

    /// The Python SDK server whose apps try to get more than the user allowed
    /// (`test-servers/peers/py_hostile_apps.py`), admitting pages from `origin`; returns the
    /// process and its MCP endpoint.
    pub fn hostile_apps(&self, origin: &str) -> Result<(sh::Background, String)> {
        let (process, line) = sh::Background::start(
            "hostile-apps",
            Command::new(&self.python_sdk)
                .arg(crate::workspace_root().join("test-servers/peers/py_hostile_apps.py"))
                .arg(origin),
            "listening on",
        )?;
        let url = line
            .split_whitespace()
            .last()
            .filter(|u| u.starts_with("http://"))
            .ok_or_else(|| format!("hostile-apps said {line:?}"))?
            .to_owned();
        Ok((process, url))
    }

    /// The reference MCP Apps server `server-basic-vanillajs` on a free port; returns the process
    /// and its MCP endpoint.
    pub fn basic_app(&self) -> Result<(sh::Background, String)> {
        let port = sh::free_port()?;
        let (process, _) = sh::Background::start(
            "basic-app",
            Command::new("node")
                .arg(&self.basic_app)
                .env("PORT", port.to_string()),
            "listening on",
        )?;
        sh::wait_for_port(port, "server-basic-vanillajs")?;
        Ok((process, format!("http://127.0.0.1:{port}/mcp")))
    }

    /// `mcp-flow-bridge stdio` serving the reference `server-everything` (its stdio mode), with
    /// the bridge's `flags` (e.g. `--max-sessions N`).
    pub fn bridge_everything_for(
        &self,
        binary: &std::path::Path,
        origins: &[&str],
        flags: &[&str],
    ) -> Result<(sh::Background, String)> {
        let mut args: Vec<&std::ffi::OsStr> = flags.iter().map(std::ffi::OsStr::new).collect();
        args.extend([
            std::ffi::OsStr::new("--"),
            std::ffi::OsStr::new("node"),
            self.everything.as_os_str(),
            std::ffi::OsStr::new("stdio"),
        ]);
        bridge(
            binary,
            "bridge-everything",
            &[std::ffi::OsStr::new("stdio")],
            origins,
            &args,
        )
    }

    /// The variables the bridge's interop tests read.
    pub fn env(&self) -> [(&'static str, &std::path::Path); 3] {
        [
            ("MCP_FLOW_BRIDGE_PYTHON_SDK", &self.python_sdk),
            ("MCP_FLOW_BRIDGE_TIME_SERVER", &self.time_server),
            ("MCP_FLOW_BRIDGE_EVERYTHING", &self.everything),
        ]
    }
}

/// `mcp-flow-bridge stdio` (the built `binary`, with `origins` on its allow-list) running
/// `command`; returns the process and the endpoint it printed.
fn bridge_stdio(
    binary: &std::path::Path,
    name: &str,
    origins: &[&str],
    command: &[&std::ffi::OsStr],
) -> Result<(sh::Background, String)> {
    let mut args: Vec<&std::ffi::OsStr> = vec![std::ffi::OsStr::new("--")];
    args.extend_from_slice(command);
    bridge(
        binary,
        name,
        &[std::ffi::OsStr::new("stdio")],
        origins,
        &args,
    )
}

/// `mcp-flow-bridge http UPSTREAM` (the built `binary`, with `origins` on its allow-list);
/// returns the process and the endpoint it printed.
pub fn bridge_http(
    binary: &std::path::Path,
    name: &str,
    upstream: &str,
    origins: &[&str],
) -> Result<(sh::Background, String)> {
    let mode = [std::ffi::OsStr::new("http"), std::ffi::OsStr::new(upstream)];
    bridge(binary, name, &mode, origins, &[])
}

/// The bridge in `mode` on a free loopback port, `origins` allowed, then `rest`.
fn bridge(
    binary: &std::path::Path,
    name: &str,
    mode: &[&std::ffi::OsStr],
    origins: &[&str],
    rest: &[&std::ffi::OsStr],
) -> Result<(sh::Background, String)> {
    if !binary.exists() {
        return Err(format!("{} is not built", binary.display()).into());
    }
    crate::server::start_bridge(
        name,
        Command::new(binary)
            .args(mode)
            .args(["--bind", "127.0.0.1:0"])
            .args(origins.iter().flat_map(|o| ["--allow-origin", o]))
            .args(rest)
            .env("RUST_LOG", "warn"),
    )
}

/// A virtual environment at `venv` with `packages` (pinned) installed; returns its python. A
/// stamp naming the packages marks it done, so later runs skip pip.
pub fn ensure_venv(venv: &std::path::Path, packages: &[&str], what: &str) -> Result<PathBuf> {
    let python = venv.join("bin/python");
    let stamp = venv.join(format!(
        ".installed-{}",
        packages.join("-").replace('=', "")
    ));
    if !stamp.exists() {
        sh::step(&format!(
            "installing {what} ({}) into {}",
            packages.join(", "),
            venv.display()
        ));
        sh::run(Command::new("python3").args(["-m", "venv"]).arg(venv))?;
        sh::run(
            Command::new(venv.join("bin/pip"))
                .args(["install", "-q"])
                .args(packages),
        )?;
        std::fs::write(&stamp, "")?;
    }
    Ok(python)
}
