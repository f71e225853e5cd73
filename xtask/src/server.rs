//! Starting the weather server for the app and for tests.

use std::path::Path;
use std::process::Command;

use crate::sh::{Background, Result};

/// A running weather server and the MCP endpoint it printed.
pub struct Server {
    pub url: String,
    _process: Background,
}

/// Starts `binary` with `args` and waits for its "listening on URL" line.
pub fn start(name: &str, binary: &Path, args: &[String]) -> Result<Server> {
    if !binary.exists() {
        return Err(format!("{} is not built", binary.display()).into());
    }
    let mut cmd = Command::new(binary);
    cmd.args(args);
    let (process, line) = Background::start(name, &mut cmd, "listening on")?;
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| format!("{name} printed no URL: {line}"))?
        .to_owned();
    eprintln!("[{name}] {line}");
    Ok(Server {
        url,
        _process: process,
    })
}
