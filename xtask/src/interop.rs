//! Servers nobody here wrote, for the browser interop tests: the official TypeScript SDK v2
//! (`@modelcontextprotocol/server`) and the official Python SDK 2.x (`mcp`), each serving a small
//! `get_weather` (scripts in `test-servers/peers/`), installed into the tools folder
//! (`interop/`) once and started by the test command.

use std::path::PathBuf;
use std::process::Command;

use crate::server::{self, Server};
use crate::sh::{self, Result};
use crate::tools::Tools;

pub const TS_SERVER_PACKAGE: &str = "@modelcontextprotocol/server@2.4.0";
pub const ZOD_PACKAGE: &str = "zod@4.6.7";
/// The Python SDK with the ASGI pieces its script uses, pinned.
pub const PYTHON_PACKAGES: [&str; 3] = ["mcp==2.3.0", "uvicorn==0.54.0", "starlette==1.10.0"];

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
        let venv = root.join("py");
        let python = venv.join("bin/python");
        let stamp = venv.join(format!(
            ".installed-{}",
            PYTHON_PACKAGES.join("-").replace('=', "")
        ));
        if !stamp.exists() {
            sh::step(&format!(
                "installing the Python SDK ({}) into {}",
                PYTHON_PACKAGES.join(", "),
                venv.display()
            ));
            sh::run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
            sh::run(
                Command::new(venv.join("bin/pip"))
                    .args(["install", "-q"])
                    .args(PYTHON_PACKAGES),
            )?;
            std::fs::write(&stamp, "")?;
        }
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
