//! `cargo xtask bench`: benchmarks with printed figures (not timed tests), measured side by
//! side in one run against the official peers (see `peers.rs`), ending in one table.

pub mod bridge;
pub mod ceiling;
pub mod figures;
pub mod model;
pub mod peers;

use std::process::Stdio;

use crate::server::{self, Server};
use crate::setup::tools::Tools;
use crate::sh::{self, Result};
use crate::workspace_root;
use figures::field;
use peers::Peers;

/// Closed-loop load: this many sessions, each calling back to back.
const SESSIONS: usize = 50;
const OUR_CALLS: usize = 20_000;
/// The peers are slower; fewer calls keep the run short (throughput is a rate).
const PEER_CALLS: usize = 4_000;
/// Closed-loop runs of ours (the rate the peers are compared with); the run with the median rate
/// is reported. The floor's comparison is `ceiling`'s: the load generator here shares the cores.
const CLOSED_ROUNDS: usize = 3;
/// Open-loop latency: calls started on a fixed schedule, in rounds; the round with the median
/// p99 is reported (the machine's own tail varies from round to round: the floor's p99 ranged
/// 0.9–9 ms within half an hour), each round printed.
const RATE: usize = 1_000;
const RATE_CALLS: usize = 5_000;
const RATE_ROUNDS: usize = 3;
/// Sessions opened and left idle to measure memory per session.
const IDLE_SESSIONS: usize = 200;

/// Resident memory of a process in KiB.
fn rss_kib(pid: u32) -> Result<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("no VmRSS for process {pid}").into())
}

struct Load {
    throughput: f64,
    p50: f64,
    p99: f64,
    errors: f64,
}

fn load(loadgen: &std::path::Path, url: &str, args: &[&str]) -> Result<Load> {
    let out = sh::capture(
        std::process::Command::new(loadgen)
            .args(["--url", url])
            .args(args),
    )?;
    let line = figures::line(&out, "load", "the load generator")?;
    println!("  {}", out.lines().next().unwrap_or_default());
    Ok(Load {
        throughput: field(line, "throughput")?,
        p50: field(line, "p50_ms")?,
        p99: field(line, "p99_ms")?,
        errors: field(line, "errors")?,
    })
}

/// The run with the median `key` among `runs` (at least one), with the errors of all of them.
fn median_by(mut runs: Vec<Load>, key: fn(&Load) -> f64) -> Load {
    runs.sort_by(|a, b| key(a).total_cmp(&key(b)));
    let errors: f64 = runs.iter().map(|r| r.errors).sum();
    let mut median = runs.swap_remove(runs.len() / 2);
    median.errors = errors;
    median
}

/// [`load`] `RATE_ROUNDS` times; the round with the median p99.
fn rate_rounds(loadgen: &std::path::Path, url: &str, args: &[&str]) -> Result<Load> {
    let rounds = (0..RATE_ROUNDS)
        .map(|_| load(loadgen, url, args))
        .collect::<Result<Vec<_>>>()?;
    Ok(median_by(rounds, |l| l.p99))
}

/// Memory per idle session: RSS before and after opening `IDLE_SESSIONS` sessions.
fn memory_per_session(loadgen: &std::path::Path, server: &Server) -> Result<f64> {
    let before = rss_kib(server.pid())?;
    let n = IDLE_SESSIONS.to_string();
    load(
        loadgen,
        &server.url,
        &["--sessions", &n, "--open-only", "--keep-open"],
    )?;
    std::thread::sleep(std::time::Duration::from_millis(500));
    Ok((rss_kib(server.pid())? - before) / IDLE_SESSIONS as f64)
}

struct Web {
    gz: f64,
    tti: f64,
}

fn web(tools: &Tools, url: &str, ready: &str, name: &str) -> Result<Web> {
    let out = sh::capture(
        tools
            .command("node")
            .current_dir(workspace_root())
            .env("MCP_FLOW_TOOLS", &tools.root)
            .arg("bench/web.mjs")
            .args([
                "--url", url, "--ready", ready, "--name", name, "--runs", "7",
            ]),
    )?;
    print!("{out}");
    let line = figures::line(&out, "web", "the page benchmark")?;
    Ok(Web {
        gz: field(line, "bytes_gz")?,
        tti: field(line, "tti_ms")?,
    })
}

/// The browser benchmark (tests/bench_exchange.rs): (median, p95) per mode.
fn browser_exchange(
    tools: &Tools,
    page_port: u16,
    sse: &str,
    json: &str,
) -> Result<Vec<(String, f64, f64)>> {
    let out = tools
        .command("cargo")
        .current_dir(workspace_root())
        .args([
            "test",
            "--release",
            "--package",
            "mcp-flow",
            "--target",
            "wasm32-unknown-unknown",
            // The browser tests are one binary; the benchmark is its ignored test.
            "--test",
            "browser",
            "--",
            "bench_exchange::",
            "--include-ignored",
            "--nocapture",
        ])
        .env("CHROMEDRIVER", "/usr/bin/chromedriver")
        .env(
            "WASM_BINDGEN_TEST_ADDRESS",
            format!("127.0.0.1:{page_port}"),
        )
        .env("WASM_BINDGEN_TEST_TIMEOUT", "300")
        .env("MCP_FLOW_TEST_SSE_URL", sse)
        .env("MCP_FLOW_TEST_JSON_URL", json)
        .stderr(Stdio::inherit())
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        print!("{text}");
        return Err("the browser benchmark failed".into());
    }
    let number = |s: &str, after: &str| -> Option<f64> {
        s.split(after)
            .nth(1)?
            .split(" ms")
            .next()?
            .trim()
            .parse()
            .ok()
    };
    let figures: Vec<(String, f64, f64)> = text
        .lines()
        .filter_map(|l| {
            let l = l.split("bench: full exchange, ").nth(1)?;
            let (mode, rest) = l.split_once(':')?;
            Some((
                mode.to_owned(),
                number(rest, "median ")?,
                number(rest, "p95 ")?,
            ))
        })
        .collect();
    if figures.is_empty() {
        return Err(format!("the browser benchmark printed no figures: {text}").into());
    }
    for (mode, median, p95) in &figures {
        println!("  browser, {mode}: median {median:.2} ms, p95 {p95:.2} ms");
    }
    Ok(figures)
}

/// A server capped at 60 sessions while 80 try to open: the 61st must get a clear refusal.
fn session_cap(binary: &std::path::Path, loadgen: &std::path::Path) -> Result<String> {
    let capped = server::start(
        "server-capped",
        binary,
        &[
            "--bind".into(),
            "127.0.0.1:0".into(),
            "--max-sessions".into(),
            "60".into(),
        ],
    )?;
    let out = std::process::Command::new(loadgen)
        .args([
            "--url",
            &capped.url,
            "--sessions",
            "80",
            "--open-only",
            "--keep-open",
        ])
        .output()?;
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.success() || !err.contains("session limit") {
        return Err(format!("the session cap did not hold: {err}").into());
    }
    let message = err.lines().next().unwrap_or_default();
    Ok(format!(
        "refused: {}",
        message.trim_start_matches("mcp-flow-load: ")
    ))
}

/// The fuzz harness (weather-server/tests/fuzz.rs) for a bounded time; its summary line.
fn fuzz() -> Result<String> {
    let out = std::process::Command::new("cargo")
        .current_dir(workspace_root())
        .args([
            "test",
            "--profile",
            server::NATIVE_PROFILE,
            "--package",
            "weather-server",
            "--test",
            "fuzz",
            "--",
            "--ignored",
            "--nocapture",
            "fuzz_for_a_while",
        ])
        .env("FUZZ_SECONDS", "60")
        .stderr(Stdio::inherit())
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("fuzz:"))
        .map(|l| l.trim_start_matches("fuzz: ").to_owned());
    match (out.status.success(), line) {
        (true, Some(line)) => {
            println!("  {line}");
            Ok(line)
        }
        _ => Err(format!("the fuzz run failed: {text}").into()),
    }
}

pub fn bench() -> Result<()> {
    let tools = Tools::locate();
    tools.ensure_test()?;
    let peers = Peers::ensure(&tools)?;
    let binary = server::build_weather_server()?;
    let native = server::build_native(&["loadgen", "test-servers"])?;
    let loadgen = native.join("mcp-flow-load");
    let fixtures = native.join("mcp-flow-test-servers");
    crate::build::site::build(&tools)?;
    let mut rows: Vec<[String; 4]> = Vec::new();

    sh::step("1-2. first load: download (gzipped) and time to interactive, headless Chromium");
    let dist = workspace_root().join("dist").display().to_string();
    let app = server::start(
        "server-app",
        &binary,
        &[
            "--bind".into(),
            "127.0.0.1:0".into(),
            "--static".into(),
            dist,
        ],
    )?;
    let ours = web(
        &tools,
        app.url.trim_end_matches("/mcp"),
        "#mf-play",
        "mcp-flow",
    )?;
    drop(app);
    let inspector_dist = peers.inspector_dist().display().to_string();
    let site = server::start(
        "server-inspector-site",
        &binary,
        &[
            "--bind".into(),
            "127.0.0.1:0".into(),
            "--static".into(),
            inspector_dist,
        ],
    )?;
    let theirs = web(
        &tools,
        site.url.trim_end_matches("/mcp"),
        "button",
        "inspector",
    )?;
    drop(site);
    rows.push([
        "first load, gzipped (HTML+JS+wasm+CSS)".into(),
        format!("{:.0} KB", ours.gz / 1000.0),
        format!("Inspector {:.0} KB", theirs.gz / 1000.0),
        format!("{:.2}× smaller (goal ≤ 250 KB, ≥ 3×)", theirs.gz / ours.gz),
    ]);
    rows.push([
        "time to interactive (median of 7)".into(),
        format!("{:.0} ms", ours.tti),
        format!("Inspector {:.0} ms", theirs.tti),
        format!("{:.2}×", theirs.tti / ours.tti),
    ]);

    sh::step("3. one full exchange: the app in Chromium vs the TypeScript SDK client in Node");
    let page_port = sh::free_port()?;
    let origin = format!("http://127.0.0.1:{page_port}");
    let sse = server::start("server-sse", &binary, &server::test_args(&origin, &[]))?;
    let json = server::start(
        "server-json",
        &binary,
        &server::test_args(&origin, &["--stateless", "--json-response"]),
    )?;
    let browser = browser_exchange(&tools, page_port, &sse.url, &json.url)?;
    let (node_median, node_p95) = peers.ts_client(&tools, &sse.url, 30)?;
    println!(
        "  TypeScript SDK client in Node, sessions + SSE: median {node_median:.2} ms, p95 {node_p95:.2} ms"
    );
    let figure = |mode: &str| {
        browser
            .iter()
            .find(|(m, _, _)| m == mode)
            .map(|&(_, median, p95)| (median, p95))
            .ok_or_else(|| format!("the browser benchmark printed no figure for {mode}"))
    };
    let (b_median, b_p95) = figure("sessions + SSE")?;
    let (bare_median, bare_p95) = figure("sessions + SSE, bare fetch")?;
    rows.push([
        "full exchange, sessions + SSE, median (p95)".into(),
        format!("{b_median:.1} ms ({b_p95:.1})"),
        format!("TS SDK in Node {node_median:.1} ms ({node_p95:.1})"),
        format!("{:.2}× the Node time (goal ≤ 1.5×)", b_median / node_median),
    ]);
    rows.push([
        "the same four requests with bare fetch in the same page (the browser's own share)".into(),
        format!("{bare_median:.1} ms ({bare_p95:.1})"),
        String::new(),
        format!(
            "{:.2}× the Node time; the client adds {:.1} ms",
            bare_median / node_median,
            b_median - bare_median
        ),
    ]);
    drop((sse, json));

    sh::step("4. server: tools/call under 50 concurrent sessions; memory per idle session");
    let ours_server = server::start(
        "server-load",
        &binary,
        &[
            "--bind".into(),
            "127.0.0.1:0".into(),
            "--max-sessions".into(),
            "1000".into(),
            "--session-idle-secs".into(),
            "5".into(),
        ],
    )?;
    // The floor: the same HTTP stack parsing the same JSON-RPC and answering the same bytes,
    // with no MCP in it, beside our latency at a fixed rate.
    let floor = server::start("server-floor", &fixtures, &["floor".into()])?;
    let sessions = SESSIONS.to_string();
    let our_calls = OUR_CALLS.to_string();
    let calls = ["--sessions", &sessions, "--calls", &our_calls];
    let rounds = (0..CLOSED_ROUNDS)
        .map(|_| load(&loadgen, &ours_server.url, &calls))
        .collect::<Result<Vec<_>>>()?;
    let ours_load = median_by(rounds, |l| l.throughput);
    let rate = [
        "--sessions",
        &sessions,
        "--calls",
        &RATE_CALLS.to_string(),
        "--rate",
        &RATE.to_string(),
    ];
    let ours_rate = rate_rounds(&loadgen, &ours_server.url, &rate)?;
    let ours_rate_modern = rate_rounds(
        &loadgen,
        &ours_server.url,
        &[&rate[..], &["--modern"]].concat(),
    )?;
    let baseline = rss_kib(ours_server.pid())?;
    let ours_mem = memory_per_session(&loadgen, &ours_server)?;
    let peak = rss_kib(ours_server.pid())?;
    // The idle sessions expire after 5 s. The allocator keeps freed pages for reuse, so the
    // test of "freed" is a second round of as many sessions: it must fit in the same memory.
    std::thread::sleep(std::time::Duration::from_secs(12));
    let after = rss_kib(ours_server.pid())?;
    let n = IDLE_SESSIONS.to_string();
    load(
        &loadgen,
        &ours_server.url,
        &["--sessions", &n, "--open-only", "--keep-open"],
    )?;
    std::thread::sleep(std::time::Duration::from_millis(500));
    let second = rss_kib(ours_server.pid())?;
    drop(ours_server);

    let floor_rate = rate_rounds(&loadgen, &floor.url, &rate)?;
    let floor_rate_modern =
        rate_rounds(&loadgen, &floor.url, &[&rate[..], &["--modern"]].concat())?;
    drop(floor);

    let ts = peers.ts_server(&tools)?;
    let ts_load = load(
        &loadgen,
        &ts.url,
        &["--sessions", &sessions, "--calls", &PEER_CALLS.to_string()],
    )?;
    let ts_mem = memory_per_session(&loadgen, &ts)?;
    drop(ts);
    let py = peers.python_server()?;
    let py_load = load(
        &loadgen,
        &py.url,
        &["--sessions", &sessions, "--calls", &PEER_CALLS.to_string()],
    )?;
    let py_mem = memory_per_session(&loadgen, &py)?;
    drop(py);

    sh::step("4b. tools/call beside the floor: each on a CPU of its own, wrk on the other");
    let ceiling_rows = ceiling::rows(&tools, &binary, &fixtures, &loadgen)?;

    sh::step("5. the session cap under load");
    let cap_message = session_cap(&binary, &loadgen)?;
    println!("  {cap_message}");

    sh::step("6. fuzzing the server's request handling in process (60 s)");
    let fuzz = fuzz()?;

    sh::step("7. the bridge: overhead per tools/call over direct stdio, beside supergateway");
    let bridge_row = crate::bench::bridge::overhead(&tools, &loadgen)?;
    let watch_row = crate::bench::bridge::watch_overhead(&loadgen)?;

    let fmt = |l: &Load| {
        format!(
            "{:.0}/s, p50 {:.1} ms, p99 {:.1} ms",
            l.throughput, l.p50, l.p99
        )
    };
    rows.push([
        format!("tools/call, {SESSIONS} sessions, closed loop"),
        fmt(&ours_load),
        format!("TS SDK {}", fmt(&ts_load)),
        format!(
            "{:.1}× TS (goal ≥ 3×)",
            ours_load.throughput / ts_load.throughput
        ),
    ]);
    rows.push([
        String::new(),
        String::new(),
        format!("Python SDK {}", fmt(&py_load)),
        format!(
            "{:.1}× Python (goal ≥ 10×)",
            ours_load.throughput / py_load.throughput
        ),
    ]);
    rows.extend(ceiling_rows);
    let p50_p99 = |l: &Load| format!("{:.2} / {:.2} ms", l.p50, l.p99);
    rows.push([
        format!(
            "tools/call at {RATE}/s, p50 / p99 (the median of {RATE_ROUNDS} rounds of {RATE_CALLS} calls): 2025-11-25 sessions"
        ),
        p50_p99(&ours_rate),
        format!("floor {}", p50_p99(&floor_rate)),
        "goal p99 ≤ 2 ms".into(),
    ]);
    rows.push([
        "the same, 2026-07-28 stateless calls".into(),
        p50_p99(&ours_rate_modern),
        format!("floor {}", p50_p99(&floor_rate_modern)),
        "goal p99 ≤ 2 ms".into(),
    ]);
    rows.push([
        format!("memory per idle session ({IDLE_SESSIONS} open)"),
        format!("{ours_mem:.1} KiB"),
        format!("TS SDK {ts_mem:.1} KiB, Python SDK {py_mem:.1} KiB"),
        String::new(),
    ]);
    rows.push([
        format!(
            "server RSS: after load / {IDLE_SESSIONS} idle sessions / after they expire / {IDLE_SESSIONS} new ones"
        ),
        format!(
            "{:.1} / {:.1} / {:.1} / {:.1} MiB",
            baseline / 1024.0,
            peak / 1024.0,
            after / 1024.0,
            second / 1024.0
        ),
        String::new(),
        String::new(),
    ]);
    rows.push([
        format!(
            "errors in {} calls",
            CLOSED_ROUNDS * OUR_CALLS + 2 * RATE_ROUNDS * RATE_CALLS
        ),
        format!(
            "{}",
            ours_load.errors + ours_rate.errors + ours_rate_modern.errors
        ),
        format!("TS {}, Python {}", ts_load.errors, py_load.errors),
        String::new(),
    ]);

    rows.push([
        "session cap (60) with 80 sessions opening".into(),
        cap_message,
        String::new(),
        String::new(),
    ]);
    rows.push(["fuzz, 60 s".into(), fuzz, String::new(), String::new()]);
    rows.push(bridge_row);
    rows.push(watch_row);

    sh::step("7. the language model (SmolLM2-135M, Q8_0), natively");
    rows.extend(model::native(&tools)?);
    sh::step("8. the language model in the page (headless Chromium, its Web Worker)");
    rows.extend(model::in_page(&tools, &binary)?);

    println!(
        "\nMCP Flow benchmarks (one run, this machine: {} cores)\n",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("| figure | MCP Flow | peer | ratio / goal |");
    println!("| --- | --- | --- | --- |");
    for [a, b, c, d] in &rows {
        println!("| {a} | {b} | {c} | {d} |");
    }
    let table: Vec<serde_json::Value> = rows
        .iter()
        .map(|[a, b, c, d]| serde_json::json!({"figure": a, "ours": b, "peer": c, "ratio": d}))
        .collect();
    let written = crate::target_dir().join("bench.json");
    std::fs::write(&written, serde_json::to_string_pretty(&table)?)?;
    println!("\nthe table as JSON: {}", written.display());
    Ok(())
}
