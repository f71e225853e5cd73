//! `cargo xtask bench`, the bridge: the overhead of `mcp-flow-bridge stdio` per `tools/call`
//! (median and p99) over calling the same stdio server directly, side by side with
//! `supergateway` (npm, the stdio-to-Streamable-HTTP gateway people use) wrapping the same
//! server. One session, closed loop; the bridge records both legs while it runs.

use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::bench::figures::{self, field};
use crate::setup::interop::BridgePeers;
use crate::setup::tools::Tools;
use crate::sh::{self, Background, Result};
use crate::workspace_root;

pub const SUPERGATEWAY_PACKAGE: &str = "supergateway@4.0.0";
/// Calls per measurement.
const CALLS: usize = 1000;

/// A process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// p50 and p99 in ms.
struct Latency {
    p50: f64,
    p99: f64,
}

fn loadgen_latency(loadgen: &Path, url: &str) -> Result<Latency> {
    loadgen_run(loadgen, url, &[])
}

fn loadgen_run(loadgen: &Path, url: &str, extra: &[&str]) -> Result<Latency> {
    let calls = CALLS.to_string();
    let out = sh::capture(
        Command::new(loadgen)
            .args(["--url", url, "--sessions", "1", "--calls", &calls])
            .args(extra),
    )?;
    let line = figures::line(&out, "load", "the load generator")?;
    println!("  {line}");
    if field(line, "errors")? > 0.0 {
        return Err(format!("errors through {url}: {line}").into());
    }
    Ok(Latency {
        p50: field(line, "p50_ms")?,
        p99: field(line, "p99_ms")?,
    })
}

/// `cargo xtask bench-bridge`: only these measurements, printed as table rows.
pub fn run() -> Result<()> {
    let tools = Tools::locate();
    let loadgen = crate::server::build_native(&["loadgen"])?.join("mcp-flow-load");
    let rows = [overhead(&tools, &loadgen)?, watch_overhead(&loadgen)?];
    println!("| figure | MCP Flow | peer | ratio / goal |");
    println!("| --- | --- | --- | --- |");
    for [a, b, c, d] in rows {
        println!("| {a} | {b} | {c} | {d} |");
    }
    Ok(())
}

/// `mcp-flow-bridge http` in front of the weather server: its endpoint, and the process.
fn http_bridge(binary: &Path, upstream: &str, watch: bool) -> Result<(Background, String)> {
    let mut command = Command::new(binary);
    command
        .args(["http", "--bind", "127.0.0.1:0"])
        .args(watch.then_some("--watch"))
        .arg(upstream)
        .env("RUST_LOG", "warn");
    crate::server::start_bridge("bench-bridge-http", &mut command)
}

/// The table row: what watching costs the relay. `http` in front of the weather server, per
/// tools/call (p50 / p99, 1 session, closed loop), without `--watch`, then with it while a reader
/// polls the feed as the page does.
pub fn watch_overhead(loadgen: &Path) -> Result<[String; 4]> {
    let bridge_binary = crate::server::build_native(&["mcp-flow-bridge"])?.join("mcp-flow-bridge");
    let weather = crate::server::build_weather_server()?;
    let server = crate::server::start(
        "bench-weather-watch",
        &weather,
        &["--bind".into(), "127.0.0.1:0".into()],
    )?;
    let (plain, endpoint) = http_bridge(&bridge_binary, &server.url, false)?;
    let without = loadgen_latency(loadgen, &endpoint)?;
    drop(plain);
    let (watched, endpoint) = http_bridge(&bridge_binary, &server.url, true)?;
    let feed = format!("{}/watch", endpoint.trim_end_matches("/mcp"));
    let with = loadgen_run(loadgen, &endpoint, &["--watch", &feed])?;
    drop(watched);
    let p99 = with.p99 - without.p99;
    Ok([
        "relay per tools/call with a page watching (`http --watch`, the feed read as the page does), p50 / p99 (weather server, 1 session)".into(),
        format!("{:.2} / {:.2} ms", with.p50, with.p99),
        format!("without --watch {:.2} / {:.2} ms", without.p50, without.p99),
        format!(
            "p99 {p99:+.2} ms (goal: within 1 ms): {}",
            if p99 <= 1.0 { "met" } else { "missed" }
        ),
    ])
}

/// The table row: overhead of the bridge and of supergateway over direct stdio.
pub fn overhead(tools: &Tools, loadgen: &Path) -> Result<[String; 4]> {
    let bridge_binary = crate::server::build_native(&["mcp-flow-bridge"])?.join("mcp-flow-bridge");
    let peers = BridgePeers::ensure(tools)?;
    let gateway_dir = tools.root.join("interop/supergateway");
    tools.ensure_npm_in(
        &gateway_dir,
        &[SUPERGATEWAY_PACKAGE],
        "supergateway",
        |dir| dir.join("node_modules/supergateway/package.json"),
    )?;
    let server = workspace_root().join("test-servers/peers/py_stdio_weather.py");

    let out = sh::capture(
        Command::new(&peers.python_sdk)
            .arg(workspace_root().join("bench/peers/py_stdio_direct.py"))
            .arg(&server)
            .arg(CALLS.to_string()),
    )?;
    let line = figures::line(&out, "direct", "the direct stdio client")?;
    println!("  {line}");
    let direct = Latency {
        p50: field(line, "p50_ms")?,
        p99: field(line, "p99_ms")?,
    };

    let (bridge, endpoint) = crate::server::start_bridge(
        "bench-bridge",
        Command::new(&bridge_binary)
            .args(["stdio", "--bind", "127.0.0.1:0", "--"])
            .arg(&peers.python_sdk)
            .arg(&server)
            .env("RUST_LOG", "warn"),
    )?;
    let ours = loadgen_latency(loadgen, &endpoint)?;
    drop(bridge);

    let port = sh::free_port()?;
    let command = format!("{} {}", peers.python_sdk.display(), server.display());
    let gateway = Killed(
        Command::new(gateway_dir.join("node_modules/.bin/supergateway"))
            .args(["--stdio", &command, "--outputTransport", "streamableHttp"])
            .args([
                "--stateful",
                "--logLevel",
                "none",
                "--port",
                &port.to_string(),
            ])
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| format!("could not start supergateway: {e}"))?,
    );
    sh::wait_for_port(port, "supergateway")?;
    let theirs = loadgen_latency(loadgen, &format!("http://127.0.0.1:{port}/mcp"))?;
    drop(gateway);

    let over = |l: &Latency| {
        format!(
            "{:+.2} / {:+.2} ms ({:.2} / {:.2} ms; direct stdio {:.2} / {:.2})",
            l.p50 - direct.p50,
            l.p99 - direct.p99,
            l.p50,
            l.p99,
            direct.p50,
            direct.p99
        )
    };
    let met = ours.p50 - direct.p50 < theirs.p50 - direct.p50
        && ours.p99 - direct.p99 < theirs.p99 - direct.p99;
    Ok([
        "bridge overhead per tools/call over direct stdio, p50 / p99 (Python SDK stdio server, 1 session)"
            .into(),
        over(&ours),
        format!("supergateway 4.0.0 {}", over(&theirs)),
        format!(
            "goal: lower than supergateway while recording both legs: {}",
            if met { "met" } else { "missed" }
        ),
    ])
}
