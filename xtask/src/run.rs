//! `cargo xtask run`.

use crate::sh::{self, Result};
use crate::tools::Tools;
use crate::{server, workspace_root};

pub fn run(args: &[String]) -> Result<()> {
    let bind = match args {
        [] => "127.0.0.1:8000".to_owned(),
        [flag, addr] if flag == "--bind" => addr.clone(),
        _ => return Err("usage: cargo xtask run [--bind ADDR]".into()),
    };
    let root = workspace_root();
    let tools = Tools::locate();
    tools.ensure_app()?;

    let binary = server::build_release()?;
    build_app(&tools)?;

    // The server always allows its own origin, so the page it serves may call /mcp.
    let args = vec![
        "--bind".to_owned(),
        bind,
        "--static".to_owned(),
        root.join("dist").display().to_string(),
    ];
    sh::step("starting the weather server with the app");
    let server = server::start("weather-server", &binary, &args)?;
    let page = server.url.trim_end_matches("/mcp").to_owned() + "/";
    println!("\nMCP Flow is running. Open {page}");
    println!("MCP endpoint: {}   (Ctrl-C stops)", server.url);
    loop {
        std::thread::park();
    }
}

/// `trunk build --release` into dist/, offline (Trunk must not fetch tools from the internet).
pub fn build_app(tools: &Tools) -> Result<()> {
    sh::step("building the web app (trunk build --release)");
    sh::run(
        tools
            .command(tools.cargo_bin().join("trunk"))
            .current_dir(workspace_root())
            .args(["build", "--release", "--offline=true"]),
    )
}
