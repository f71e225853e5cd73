//! Starting the weather server for the app and for tests.

use std::path::Path;
use std::process::Command;

use crate::sh::{Background, Result};

/// A running weather server and the MCP endpoint it printed.
pub struct Server {
    pub url: String,
    process: Background,
}

impl Server {
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// Waits until the server accepts TCP connections (some print their URL before binding).
    pub fn wait_ready(&self) -> Result<()> {
        let authority = self
            .url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        for _ in 0..300 {
            if std::net::TcpStream::connect(&authority).is_ok() {
                return Ok(());
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        Err(format!("{} did not accept connections within 30 s", self.url).into())
    }
}

/// Starts `binary` with `args` and waits for its "listening on URL" line. Test servers log
/// warnings only (unless `RUST_LOG` says otherwise).
pub fn start(name: &str, binary: &Path, args: &[String]) -> Result<Server> {
    if !binary.exists() {
        return Err(format!("{} is not built", binary.display()).into());
    }
    start_command(
        name,
        &mut Command::new(binary),
        args,
        name.starts_with("server-"),
    )
}

/// Starts `cmd` with `args` and waits for its "listening on URL" line.
pub fn start_command(
    name: &str,
    cmd: &mut Command,
    args: &[String],
    quiet: bool,
) -> Result<Server> {
    // Warnings only, unless the caller asked for more.
    if quiet && std::env::var_os("RUST_LOG").is_none() {
        cmd.env("RUST_LOG", "warn");
    }
    cmd.args(args);
    let (process, line) = Background::start(name, cmd, "listening on")?;
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| format!("{name} printed no URL: {line}"))?
        .to_owned();
    eprintln!("[{name}] {line}");
    Ok(Server { url, process })
}

/// Starts `mcp-flow-bridge` (`cmd`, its mode and arguments) and waits for its stable
/// `MCP endpoint: URL` line; the process and that URL.
pub fn start_bridge(name: &str, cmd: &mut Command) -> Result<(Background, String)> {
    const LINE: &str = "MCP endpoint: ";
    let (process, line) = Background::start(name, cmd, LINE)?;
    let url = line
        .trim()
        .strip_prefix(LINE)
        .ok_or_else(|| format!("{name}: the bridge printed no endpoint: {line}"))?
        .to_owned();
    Ok((process, url))
}

/// The Cargo profile of the native programs (Cargo.toml `[profile.native]`: release at full speed).
pub const NATIVE_PROFILE: &str = "native";

/// `cargo build --profile native` of `packages`; returns the folder their binaries are in.
pub fn build_native(packages: &[&str]) -> Result<std::path::PathBuf> {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(crate::workspace_root())
        .args(["build", "--profile", NATIVE_PROFILE]);
    for package in packages {
        cmd.args(["--package", package]);
    }
    crate::sh::run(&mut cmd)?;
    Ok(crate::target_dir().join(NATIVE_PROFILE))
}

/// The weather server as it ships (`build_native`); returns the binary.
pub fn build_weather_server() -> Result<std::path::PathBuf> {
    crate::sh::step("building the weather server (the native profile: release at full speed)");
    Ok(build_native(&["weather-server"])?.join("weather-server"))
}

/// Flags for a test server on a free port that lets pages from `origin` call it.
pub fn test_args(origin: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "--bind".to_owned(),
        "127.0.0.1:0".to_owned(),
        "--allow-origin".to_owned(),
        origin.to_owned(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}
