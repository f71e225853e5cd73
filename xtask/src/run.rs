//! `cargo xtask run`.

use crate::setup::tools::Tools;
use crate::sh::{self, Result};
use crate::{server, workspace_root};

const USAGE: &str = "usage: cargo xtask run [--bind ADDR] [--auth] [--bridge stdio -- CMD ARGS... \
                     | --bridge http URL | --watch http URL]";

/// What `cargo xtask run` was asked for.
#[derive(Debug, PartialEq)]
struct Options {
    bind: String,
    /// The weather server as a protected resource with its demo authorization server.
    auth: bool,
    bridge: Option<Vec<String>>,
    /// The bridge watches a host (`--watch`): the page opens on its feed.
    watch: bool,
}

/// `--bind ADDR`, `--auth`, and `--bridge MODE ARGS...` or `--watch MODE ARGS...` (everything
/// after either is the bridge's).
fn parse(args: &[String]) -> Result<Options> {
    let mut options = Options {
        bind: "127.0.0.1:8000".to_owned(),
        auth: false,
        bridge: None,
        watch: false,
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--bind" => options.bind = rest.next().ok_or(USAGE)?.clone(),
            "--auth" => options.auth = true,
            "--bridge" | "--watch" => {
                options.watch = arg == "--watch";
                options.bridge = Some(rest.by_ref().cloned().collect());
            }
            _ => return Err(USAGE.into()),
        }
    }
    if let Some(bridge) = &options.bridge
        && !matches!(bridge.first().map(String::as_str), Some("stdio" | "http"))
    {
        return Err(USAGE.into());
    }
    Ok(options)
}

pub fn run(args: &[String]) -> Result<()> {
    let Options {
        bind,
        auth,
        bridge,
        watch,
    } = parse(args)?;
    let root = workspace_root();
    let tools = Tools::locate();
    // The server's build needs only cargo: it goes on while the page's tools install and the page
    // builds, filling the cores either leaves idle (downloads, links, the page's one codegen unit).
    let server_build =
        std::thread::spawn(|| server::build_weather_server().map_err(|e| e.to_string()));
    tools.ensure_build()?;
    // The in-page model is used only on request: fetched and converted after the page is served.
    let model_ready = tools.model_ready()?;
    crate::build::site::build(&tools)?;
    let binary = server_build
        .join()
        .map_err(|_| "the weather server's build panicked".to_owned())??;

    // The server always allows its own origin, so the page it serves may call /mcp.
    let args = vec![
        "--bind".to_owned(),
        bind,
        "--static".to_owned(),
        root.join("dist").display().to_string(),
        // The in-page language model's file (fetched by setup), at /models/.
        "--models".to_owned(),
        tools.models_dir().display().to_string(),
    ];
    let mut args = args;
    if auth {
        args.push("--auth".to_owned());
    }
    sh::step("starting the weather server with the app");
    let server = server::start("weather-server", &binary, &args)?;
    let page = server.url.trim_end_matches("/mcp").to_owned() + "/";
    let _bridge = match bridge {
        None => {
            println!("\nMCP Flow is running. Open {page}");
            println!("MCP endpoint: {}   (Ctrl-C stops)", server.url);
            if auth {
                println!(
                    "The endpoint is protected: the first request gets 401, the Authorization \
                     diagram draws the OAuth flow, and the server's consent page asks you to \
                     approve in a popup."
                );
            }
            None
        }
        Some(bridge) => {
            let origin = page.trim_end_matches('/');
            let (process, endpoint) = start_bridge(&bridge, origin, watch)?;
            if watch {
                let feed = format!("{}/watch", endpoint.trim_end_matches("/mcp"));
                println!(
                    "\nMCP Flow is watching through the bridge. Point your host at {endpoint}"
                );
                println!("Watch in the page: {page}?watch={}", query_encode(&feed));
            } else {
                println!(
                    "\nMCP Flow is running with the bridge. Open {page}?server={}",
                    query_encode(&endpoint)
                );
                println!("MCP endpoint: {endpoint}   (Ctrl-C stops)");
            }
            Some(process)
        }
    };
    if !model_ready {
        println!(
            "The in-page model (SmolLM2) is being prepared in the background; until it is, \
             picking it in the page says its file is not there yet."
        );
        std::thread::spawn(move || match tools.ensure_model() {
            Ok(()) => println!(
                "The in-page model is ready: {}",
                tools.model_file().display()
            ),
            Err(e) => eprintln!("preparing the in-page model failed: {e}"),
        });
    }
    loop {
        std::thread::park();
    }
}

/// Builds `mcp-flow-bridge` and starts it on a free loopback port for pages from `origin`:
/// `MODE [--watch] --bind 127.0.0.1:0 --allow-origin ORIGIN REST...`. Returns it and its endpoint.
fn start_bridge(
    mode_and_args: &[String],
    origin: &str,
    watch: bool,
) -> Result<(sh::Background, String)> {
    sh::step("building the bridge (the native profile)");
    let bridge = crate::server::build_native(&["mcp-flow-bridge"])?.join("mcp-flow-bridge");
    let (mode, rest) = mode_and_args.split_first().ok_or(USAGE)?;
    sh::step(&format!("starting the bridge: {}", mode_and_args.join(" ")));
    crate::server::start_bridge(
        "bridge",
        std::process::Command::new(&bridge)
            .arg(mode)
            .args(watch.then_some("--watch"))
            .args(["--bind", "127.0.0.1:0", "--allow-origin", origin])
            .args(rest),
    )
}

/// Percent-encodes a query value (all but RFC 3986's unreserved characters).
fn query_encode(value: &str) -> String {
    value
        .bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                char::from(byte).to_string()
            } else {
                format!("%{byte:02X}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_bridge_takes_everything_after_its_flag() {
        let options = parse(&args(&[
            "--bind",
            "127.0.0.1:9000",
            "--bridge",
            "stdio",
            "--",
            "python",
            "s.py",
            "--bind",
        ]))
        .expect("parse");
        assert_eq!(options.bind, "127.0.0.1:9000");
        assert!(!options.auth);
        assert_eq!(
            options.bridge.expect("bridge"),
            args(&["stdio", "--", "python", "s.py", "--bind"])
        );
        let options = parse(&[]).expect("parse");
        assert_eq!(options.bind, "127.0.0.1:8000");
        assert!(options.bridge.is_none());
        assert!(parse(&args(&["--auth"])).expect("parse").auth);
        assert!(parse(&args(&["--bridge", "sh", "-c", "x"])).is_err());
        assert!(parse(&args(&["--bridge"])).is_err());
        assert!(parse(&args(&["--bind"])).is_err());
    }

    #[test]
    fn watch_takes_the_bridges_mode_like_bridge_does() {
        let options =
            parse(&args(&["--watch", "http", "http://127.0.0.1:3000/mcp"])).expect("parse");
        assert!(options.watch);
        assert_eq!(
            options.bridge.expect("bridge"),
            args(&["http", "http://127.0.0.1:3000/mcp"])
        );
        assert!(
            !parse(&args(&["--bridge", "http", "u"]))
                .expect("parse")
                .watch
        );
        assert!(parse(&args(&["--watch", "ftp", "u"])).is_err());
    }
}
