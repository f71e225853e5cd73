//! The peers the benchmarks compare against, installed from the registries into the tools
//! folder (`bench/`): the official MCP Inspector's web client, the official TypeScript SDK (a
//! client and a server), and the official Python SDK (a server).

use std::path::PathBuf;
use std::process::Command;

use crate::bench::figures;
use crate::server::{self, Server};
use crate::setup::tools::Tools;
use crate::sh::{self, Result};

pub const INSPECTOR_PACKAGE: &str = "@modelcontextprotocol/inspector@2.12.0";
pub const TS_SDK_PACKAGE: &str = "@modelcontextprotocol/sdk@1.32.2";
pub const ZOD_PACKAGE: &str = "zod@4.6.7";
pub const PYTHON_SDK: &str = "mcp==2.3.0";

pub struct Peers {
    npm: PathBuf,
    python: PathBuf,
}

impl Peers {
    /// Installs what is missing (once; later runs only check).
    pub fn ensure(tools: &Tools) -> Result<Self> {
        let bench = tools.root.join("bench");
        let npm = bench.join("npm");
        tools.ensure_npm_in(
            &npm,
            &[INSPECTOR_PACKAGE, TS_SDK_PACKAGE, ZOD_PACKAGE],
            "the MCP Inspector and the TypeScript SDK",
            |dir| dir.join("node_modules/@modelcontextprotocol/sdk/package.json"),
        )?;
        let venv = bench.join("py");
        let python = venv.join("bin/python");
        let stamp = venv.join(format!(".installed-{}", PYTHON_SDK.replace('=', "-")));
        if !stamp.exists() {
            sh::step(&format!(
                "installing the Python SDK ({PYTHON_SDK}) into {}",
                venv.display()
            ));
            sh::run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
            sh::run(Command::new(venv.join("bin/pip")).args(["install", "-q", PYTHON_SDK]))?;
            std::fs::write(&stamp, "")?;
        }
        // Node resolves packages next to the script, so the scripts run from the npm folder.
        for script in ["ts-server.mjs", "ts-client.mjs"] {
            std::fs::copy(
                crate::workspace_root().join("bench/peers").join(script),
                npm.join(script),
            )?;
        }
        Ok(Self { npm, python })
    }

    /// The Inspector's built web client (its initial page and assets).
    pub fn inspector_dist(&self) -> PathBuf {
        self.npm
            .join("node_modules/@modelcontextprotocol/inspector/clients/web/dist")
    }

    pub fn ts_server(&self, tools: &Tools) -> Result<Server> {
        let port = sh::free_port()?.to_string();
        let mut cmd = Command::new(tools.node22_bin().join("node"));
        cmd.arg(self.npm.join("ts-server.mjs"));
        let s = server::start_command("ts-sdk-server", &mut cmd, &[port], false)?;
        s.wait_ready()?;
        Ok(s)
    }

    pub fn python_server(&self) -> Result<Server> {
        let port = sh::free_port()?.to_string();
        let mut cmd = Command::new(&self.python);
        cmd.arg(crate::workspace_root().join("bench/peers/python_server.py"))
            .env("PYTHONUNBUFFERED", "1")
            // Uvicorn logs every request to stderr.
            .stderr(std::process::Stdio::null());
        let s = server::start_command("python-sdk-server", &mut cmd, &[port], false)?;
        s.wait_ready()?;
        Ok(s)
    }

    /// The TypeScript SDK client's full exchange against `url`: (median, p95) in ms.
    pub fn ts_client(&self, tools: &Tools, url: &str, runs: u32) -> Result<(f64, f64)> {
        // The browser's warm-up (tests/browser/bench_exchange.rs: WARMUP), so both are measured
        // in their steady state.
        const WARMUP: u32 = 40;
        let out = sh::capture(
            Command::new(tools.node22_bin().join("node"))
                .arg(self.npm.join("ts-client.mjs"))
                .args([url, &runs.to_string(), &WARMUP.to_string()]),
        )?;
        let line = figures::line(&out, "node", "the TypeScript client")?;
        Ok((
            figures::field(line, "median_ms")?,
            figures::field(line, "p95_ms")?,
        ))
    }
}
