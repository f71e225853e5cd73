//! `cargo xtask test [STAGE...]`: the project's tests in stages, each installing and starting only
//! what it needs; with no stage named, all of them. A report ends every run (a failed one too):
//! per stage its time and its tests passed / failed / skipped, also in `target/test-report.json`.

mod binaries;
mod browser;
mod conformance;
pub mod helpers;
pub mod imports;
mod relay_conformance;
pub mod report;

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use binaries::{Built, TestBinary};
use helpers::Helpers;
use report::{Counts, Row, run_counted};

use crate::setup::interop::{BridgePeers, Interop};
use crate::setup::llama::Llama;
use crate::setup::tools::Tools;
use crate::sh::{self, Result};
use crate::{server, workspace_root};

/// One stage of the test command.
struct Stage {
    name: &'static str,
    covers: &'static str,
    run: fn(&mut Ctx, &mut Counts) -> Result<()>,
}

/// In the order a full run takes them: the quick verdicts first.
const STAGES: &[Stage] = &[
    Stage {
        name: "lint",
        covers: "cargo fmt --check; clippy -D warnings, native (every crate, every target) and wasm32 (the app, also with its split points; the model's and the schema checker's workers); no module imports a module that imports it back",
        run: lint,
    },
    Stage {
        name: "native",
        covers: "cargo test of every crate but the bridge and the language model: the app's logic, the weather server, the CLI, xtask",
        run: native,
    },
    Stage {
        name: "model",
        covers: "the language model (SmolLM2 natively, its worker's session): decisions, answers, the accuracy table; a missing model file fails",
        run: model,
    },
    Stage {
        name: "bridge",
        covers: "mcp-flow-bridge: its fault children, and stdio servers nobody here wrote (Python SDK, mcp-server-time, server-everything) through it",
        run: bridge,
    },
    Stage {
        name: "release",
        covers: "the release build of the page (workers, the split app, wasm-opt) into dist/ and its first load against the budget; the shipped weather server without the conformance fixtures",
        run: release,
    },
    Stage {
        name: "browser",
        covers: "wasm-bindgen tests in headless Chromium against live servers: ours, fixtures, the TypeScript and Python SDKs, the bridge",
        run: browser::stage,
    },
    Stage {
        name: "e2e",
        covers: "whole flows in Chromium (Playwright) on the release build served by weather-server --static",
        run: e2e,
    },
    Stage {
        name: "conformance",
        covers: "the official conformance suite (2025-03-26 to 2026-07-28) against our server, our client and its authorization, the bridge and the built-in authorization server, from one table",
        run: conformance::stage,
    },
    Stage {
        name: "interop",
        covers: "the suite's 2025-11-25 server scenarios against server-everything, directly and through the bridge: the same verdicts",
        run: interop,
    },
];

fn list() -> String {
    let mut out = String::from("stages (cargo xtask test [STAGE...]; none named runs them all):\n");
    for stage in STAGES {
        out.push_str(&format!("  {:<12} {}\n", stage.name, stage.covers));
    }
    out
}

/// The stages `args` name, in the order of [`STAGES`]; all of them for none.
fn chosen(args: &[String]) -> Result<Vec<&'static Stage>> {
    for arg in args {
        if !STAGES.iter().any(|s| s.name == arg) {
            return Err(format!("no stage `{arg}`\n{}", list()).into());
        }
    }
    Ok(STAGES
        .iter()
        .filter(|s| args.is_empty() || args.iter().any(|a| a == s.name))
        .collect())
}

pub fn test(args: &[String]) -> Result<()> {
    if args.iter().any(|a| a == "--list") {
        print!("{}", list());
        return Ok(());
    }
    let stages = chosen(args)?;
    let mut ctx = Ctx::new();
    if stages.iter().any(|s| s.name == "e2e") {
        ctx.llama_in_background();
    }
    let mut rows = Vec::new();
    for stage in stages {
        sh::step(&format!("stage {}: {}", stage.name, stage.covers));
        let started = Instant::now();
        let mut counts = Counts::default();
        let outcome = (stage.run)(&mut ctx, &mut counts);
        let row = Row {
            stage: stage.name,
            seconds: started.elapsed().as_secs_f64(),
            counts,
            error: outcome.err().map(|e| e.to_string()),
        };
        if let Some(e) = &row.error {
            eprintln!("\nstage {} FAILED: {e}", stage.name);
        }
        rows.push(row);
    }
    let attacks = if rows.iter().any(|r| r.stage == "native") {
        attack_rows()
    } else {
        Vec::new()
    };
    if !attacks.is_empty() {
        println!(
            "\n==> the authorization server's attack table (weather-server/tests/attacks.rs): {} rows\n{}",
            attacks.len(),
            attacks.join("\n")
        );
    }
    let mut table = report::table(&rows);
    let notes = report::notes();
    for note in &notes {
        table.push_str(&format!("note: {note}\n"));
    }
    let mut json = report::json(&rows);
    json["attacks"] = serde_json::json!(attacks);
    json["notes"] = serde_json::json!(notes);
    let path = workspace_root().join("target/test-report.json");
    let written = std::fs::create_dir_all(workspace_root().join("target"))
        .and_then(|()| std::fs::write(&path, format!("{json:#}\n")));
    println!("\n==> report (also in {})\n{table}", path.display());
    written?;
    if rows.iter().all(Row::ok) {
        Ok(())
    } else {
        let failed: Vec<&str> = rows.iter().filter(|r| !r.ok()).map(|r| r.stage).collect();
        Err(format!("stages failed: {}", failed.join(", ")).into())
    }
}

/// What the stages of one run share: the tools, and what is built or installed once per run.
pub struct Ctx {
    pub tools: Tools,
    tools_ready: Option<std::result::Result<(), String>>,
    tests_built: Option<std::result::Result<Built, String>>,
    site_built: Option<std::result::Result<(), String>>,
    bridge_peers: Option<BridgePeers>,
    interop: Option<Interop>,
    /// llama-server, being built from the run's start when a stage needs it.
    llama: Option<std::thread::JoinHandle<std::result::Result<Llama, String>>>,
}

/// A step done once per run: its first outcome is every later caller's.
fn once<T: Clone>(
    slot: &mut Option<std::result::Result<T, String>>,
    step: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let outcome = slot.get_or_insert_with(|| step().map_err(|e| e.to_string()));
    outcome.clone().map_err(Into::into)
}

impl Ctx {
    fn new() -> Self {
        Self {
            tools: Tools::locate(),
            tools_ready: None,
            tests_built: None,
            site_built: None,
            bridge_peers: None,
            interop: None,
            llama: None,
        }
    }

    /// Starts building llama-server (if it is not built) while the stages before e2e run.
    fn llama_in_background(&mut self) {
        self.llama = Some(Llama::ensure_in_background(Tools::locate()));
    }

    /// llama-server: the background build's outcome, or built now.
    fn llama(&mut self) -> Result<Llama> {
        match self.llama.take() {
            Some(building) => building
                .join()
                .map_err(|_| "the llama-server build panicked".to_owned())?
                .map_err(Into::into),
            None => Llama::ensure(&self.tools),
        }
    }

    /// Everything a build or a browser needs (installed once; later runs only check).
    fn ensure_tools(&mut self) -> Result<()> {
        let tools = &self.tools;
        once(&mut self.tools_ready, || tools.ensure_test())
    }

    /// `cargo` from the workspace root with the project's tools on PATH.
    fn cargo(&self, args: &[&str]) -> Command {
        let mut cmd = self.tools.command("cargo");
        cmd.current_dir(workspace_root()).args(args);
        cmd
    }

    /// The debug programs the stages start: the weather server, the fixture servers, the bridge
    /// and the CLI. The tests' build makes them (each has integration tests that start it), in
    /// the same selection, so no dependency is built twice.
    pub fn debug_binaries(&mut self) -> Result<()> {
        let built = self.built()?;
        let missing: Vec<&str> = DEBUG_PROGRAMS
            .into_iter()
            .filter(|name| !built.programs.iter().any(|p| p == name))
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("the tests' build made no {}", missing.join(", ")).into())
        }
    }

    /// Every native test binary of the workspace (built once per run, for all the stages that
    /// run them).
    fn test_binaries(&mut self) -> Result<Vec<TestBinary>> {
        Ok(self.built()?.tests)
    }

    /// The workspace's tests and the programs they start (built once per run).
    fn built(&mut self) -> Result<Built> {
        let mut cmd = self.cargo(&["test", "--workspace", "--features", FIXTURES]);
        once(&mut self.tests_built, || binaries::build(&mut cmd))
    }

    pub fn debug_binary(&self, name: &str) -> PathBuf {
        crate::target_dir().join("debug").join(name)
    }

    /// The release site in dist/ (built once per run).
    fn site(&mut self) -> Result<()> {
        self.ensure_tools()?;
        let tools = &self.tools;
        once(&mut self.site_built, || crate::build::site::build(tools))
    }

    /// The servers nobody here wrote that the bridge wraps (installed once per run).
    pub fn bridge_peers(&mut self) -> Result<BridgePeers> {
        if let Some(peers) = &self.bridge_peers {
            return Ok(peers.clone());
        }
        self.ensure_tools()?;
        let peers = BridgePeers::ensure(&self.tools)?;
        self.bridge_peers = Some(peers.clone());
        Ok(peers)
    }

    /// The official SDKs' servers for the browser tests (installed once per run).
    pub fn interop(&mut self) -> Result<Interop> {
        if let Some(interop) = &self.interop {
            return Ok(interop.clone());
        }
        self.ensure_tools()?;
        let interop = Interop::ensure(&self.tools)?;
        self.interop = Some(interop.clone());
        Ok(interop)
    }
}

fn lint(ctx: &mut Ctx, counts: &mut Counts) -> Result<()> {
    ctx.ensure_tools()?;
    // clippy with these arguments, every warning an error.
    let clippy = |args: &[&'static str]| [&["clippy"], args, &["--", "-D", "warnings"]].concat();
    let wasm = "wasm32-unknown-unknown";
    let checks: [Vec<&str>; 4] = [
        vec!["fmt", "--all", "--check"],
        clippy(&["--workspace", "--all-targets", "--features", FIXTURES]),
        clippy(&[
            "--package",
            "mcp-flow",
            "--package",
            "mcp-flow-smollm-worker",
            "--package",
            "mcp-flow-schema-worker",
            "--target",
            wasm,
            "--all-targets",
        ]),
        // The app as the release build compiles it: with its split points.
        clippy(&[
            "--package",
            "mcp-flow",
            "--target",
            wasm,
            "--features",
            "split",
        ]),
    ];
    let mut failed = Vec::new();
    for args in &checks {
        let ok = sh::run(&mut ctx.cargo(args)).is_ok();
        counts.one(ok);
        if !ok {
            failed.push(format!("cargo {}", args[..2].join(" ")));
        }
    }
    let browserless = cli_without_browser(ctx);
    counts.one(browserless.is_ok());
    if let Err(e) = browserless {
        failed.push(e.to_string());
    }
    let circles = import_circles();
    counts.one(circles.is_ok());
    if let Err(e) = circles {
        failed.push(e.to_string());
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("failed: {}", failed.join(", ")).into())
    }
}

/// The command line compiles the client without the browser's crates (or the page's views).
fn cli_without_browser(ctx: &Ctx) -> Result<()> {
    let tree = sh::capture(
        &mut ctx.cargo(&["tree", "-p", "mcp-cli", "-e", "normal", "--prefix", "none"]),
    )?;
    let found = browser_crates(&tree);
    if found.is_empty() {
        println!("mcp-flow-cli compiles no browser crate");
        Ok(())
    } else {
        Err(format!("mcp-flow-cli compiles {}", found.join(", ")).into())
    }
}

/// The browser's crates (and Leptos) named in a `cargo tree --prefix none` listing.
fn browser_crates(tree: &str) -> Vec<String> {
    let mut found: Vec<String> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| ["web-sys", "js-sys", "leptos"].contains(name) || name.starts_with("gloo"))
        .map(str::to_owned)
        .collect();
    found.sort();
    found.dedup();
    found
}

/// No module of any crate imports a module that imports it back (xtask/src/test/imports.rs).
fn import_circles() -> Result<()> {
    let root = workspace_root();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&root)? {
        let src = entry?.path().join("src");
        if src.is_dir() && src.parent().is_some_and(|p| p.join("Cargo.toml").exists()) {
            for (a, b) in crate::test::imports::mutual_imports(&src)? {
                found.push(format!("{}: {a} <-> {b}", src.display()));
            }
        }
    }
    for (a, b) in crate::test::imports::mutual_imports(&root.join("src"))? {
        found.push(format!("src: {a} <-> {b}"));
    }
    if found.is_empty() {
        println!("no module imports a module that imports it back");
        Ok(())
    } else {
        Err(format!("modules that import each other: {}", found.join("; ")).into())
    }
}

/// The weather server's build with the conformance suite's fixtures: what the tests start (the
/// shipped server has none).
const FIXTURES: &str = "weather-server/conformance-fixtures";

/// The programs the stages start (`Ctx::debug_binaries`).
const DEBUG_PROGRAMS: [&str; 4] = [
    "weather-server",
    "mcp-flow-test-servers",
    "mcp-flow-bridge",
    "mcp-flow-cli",
];

/// The crate the `bridge` stage tests (with the servers it wraps).
const BRIDGE_CRATE: &str = "mcp-flow-bridge";

/// The crates whose tests need the language model's file (the `model` stage).
const MODEL_CRATES: [&str; 2] = ["mcp-flow-smollm", "mcp-flow-smollm-worker"];

fn native(ctx: &mut Ctx, counts: &mut Counts) -> Result<()> {
    let all = ctx.test_binaries()?;
    let chosen: Vec<&TestBinary> = all
        .iter()
        .filter(|b| b.package != BRIDGE_CRATE && !MODEL_CRATES.contains(&b.package.as_str()))
        .collect();
    // A table from an earlier run must not pass for this one's.
    let _ = std::fs::remove_file(attack_table());
    binaries::run(&chosen, |path| ctx.tools.command(path), counts)
}

/// Where the weather server's attack table (`weather-server/tests/attacks.rs`) writes its rows
/// (Cargo's `CARGO_TARGET_TMPDIR`).
fn attack_table() -> PathBuf {
    crate::target_dir().join("tmp/attack-table.txt")
}

/// The attack table's rows, if the native stage ran it.
fn attack_rows() -> Vec<String> {
    std::fs::read_to_string(attack_table())
        .map(|text| text.lines().map(str::to_owned).collect())
        .unwrap_or_default()
}

fn model(ctx: &mut Ctx, counts: &mut Counts) -> Result<()> {
    ctx.tools.ensure_model()?;
    let all = ctx.test_binaries()?;
    let chosen: Vec<&TestBinary> = all
        .iter()
        .filter(|b| MODEL_CRATES.contains(&b.package.as_str()))
        .collect();
    let model = ctx.tools.model_file();
    let command = |path: &std::path::Path| {
        let mut cmd = ctx.tools.command(path);
        cmd.env("SMOLLM_MODEL", &model).env("SMOLLM_REQUIRED", "1");
        cmd
    };
    binaries::run(&chosen, command, counts)
}

fn bridge(ctx: &mut Ctx, counts: &mut Counts) -> Result<()> {
    let peers = ctx.bridge_peers()?;
    let all = ctx.test_binaries()?;
    let chosen: Vec<&TestBinary> = all.iter().filter(|b| b.package == BRIDGE_CRATE).collect();
    let command = |path: &std::path::Path| {
        let mut cmd = ctx.tools.command(path);
        cmd.envs(peers.env());
        cmd
    };
    let tested = binaries::run(&chosen, command, counts);
    let cli = cli_over_http_sse(ctx, &peers);
    counts.one(cli.is_ok());
    tested.and(cli)
}

/// The command line's client reaches a server of the HTTP+SSE transport (2024-11-05) nobody
/// here wrote, the TypeScript SDK's `simpleSseServer`, and lists its tools.
fn cli_over_http_sse(ctx: &mut Ctx, peers: &BridgePeers) -> Result<()> {
    ctx.debug_binaries()?;
    let (_server, url) = peers.sse_example()?;
    sh::step(&format!("the CLI over HTTP+SSE: {url}"));
    let out = sh::capture(
        ctx.tools
            .command(ctx.debug_binary("mcp-flow-cli"))
            .arg(&url),
    )?;
    if out.contains("start-notification-stream") {
        Ok(())
    } else {
        Err(format!("the CLI over HTTP+SSE listed no start-notification-stream: {out}").into())
    }
}

fn release(ctx: &mut Ctx, counts: &mut Counts) -> Result<()> {
    ctx.site()?;
    let budget = crate::build::size::check_budget();
    counts.one(budget.is_ok());
    let shipped = shipped_server_has_no_fixtures();
    counts.one(shipped.is_ok());
    budget.and(shipped)
}

/// The weather server as `cargo xtask run` builds it carries none of the conformance suite's
/// fixtures: not their names, not the flag that would serve them.
fn shipped_server_has_no_fixtures() -> Result<()> {
    let binary = server::build_weather_server()?;
    let bytes = std::fs::read(&binary)?;
    for name in ["test_missing_capability", "test_input_required_result"] {
        if bytes.windows(name.len()).any(|w| w == name.as_bytes()) {
            return Err(format!("the shipped weather server contains the fixture {name}").into());
        }
    }
    let out = Command::new(&binary)
        .args(["--conformance-fixtures", "--bind", "127.0.0.1:0"])
        .output()?;
    if out.status.code() != Some(2) {
        return Err(format!(
            "the shipped weather server did not refuse --conformance-fixtures ({})",
            out.status
        )
        .into());
    }
    println!("the shipped weather server has no conformance fixtures");
    Ok(())
}

fn e2e(ctx: &mut Ctx, counts: &mut Counts) -> Result<()> {
    // The runner's own tests: a server that did not start fails only the scenarios needing it.
    let runner = Command::new("node")
        .current_dir(workspace_root())
        .args(["--test", "--test-reporter=tap", "e2e/runner.test.mjs"])
        .output();
    let runner_counts = match &runner {
        Ok(out) => node_test_counts(&String::from_utf8_lossy(&out.stdout)),
        Err(_) => Counts::default(),
    };
    counts.add(runner_counts);
    let scenarios = e2e_scenarios();
    let helpers = e2e_helpers(ctx);
    let mut suite = Command::new("node");
    suite
        .current_dir(workspace_root())
        .env("MCP_FLOW_TOOLS", &ctx.tools.root)
        .arg("e2e/suite.mjs")
        .args(["--oidc-client", OIDC_CLIENT, "--token-secs", TOKEN_SECS]);
    for (name, found) in helpers.found() {
        match found {
            Ok(url) => suite.arg(format!("--{name}")).arg(url),
            Err(why) => suite.arg("--unavailable").arg(format!("{name}={why}")),
        };
    }
    let shots = crate::target_dir().join("e2e");
    std::fs::create_dir_all(&shots)?;
    // While working on a few scenarios: `MCP_FLOW_TEST_FILTER=PART cargo xtask test e2e`.
    let filtered = std::env::var("MCP_FLOW_TEST_FILTER").ok();
    if let Some(only) = &filtered {
        suite.args(["--only", only]);
    }
    let ran = run_counted(suite.arg("--out").arg(&shots), counts);
    // Scenarios the suite never reached (it stopped early, or could not start) are not run;
    // those a filter left out are not counted.
    match scenarios {
        Ok(n) if filtered.is_none() => counts.expect(n + runner_counts.ran()),
        Ok(_) => {}
        Err(e) => eprintln!("could not list the e2e scenarios: {e}"),
    }
    let runner_ok = runner.as_ref().is_ok_and(|out| out.status.success());
    let down = helpers.down();
    match ran {
        _ if !runner_ok => {
            Err("the e2e runner's own tests failed (node --test e2e/runner.test.mjs)".into())
        }
        Err(e) if !down.is_empty() => {
            Err(format!("{e}; servers that did not start: {}", down.join(", ")).into())
        }
        ran => ran,
    }
}

/// `node --test`'s `# pass N` and `# fail N` lines.
fn node_test_counts(out: &str) -> Counts {
    let number = |key: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    };
    Counts {
        passed: number("# pass "),
        failed: number("# fail "),
        ..Counts::default()
    }
}

/// The number of scenarios of the e2e suite (`suite.mjs --list`, no browser needed).
fn e2e_scenarios() -> Result<u64> {
    let out = sh::capture(
        Command::new("node")
            .current_dir(workspace_root())
            .args(["e2e/suite.mjs", "--list"]),
    )?;
    out.lines()
        .find_map(|l| l.strip_suffix(" scenarios"))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| "suite.mjs --list printed no count".into())
}

/// The servers the e2e suite uses, by the suite's option names; each that cannot start is kept
/// with why, and only the scenarios that use it fail.
fn e2e_helpers(ctx: &mut Ctx) -> Helpers {
    let mut helpers = Helpers::default();
    let ready = ctx
        .site()
        .and_then(|()| ctx.debug_binaries())
        .map_err(|e| format!("the release build or the debug servers did not build: {e}"));
    let binary = ctx.debug_binary("weather-server");
    let fixtures = ctx.debug_binary("mcp-flow-test-servers");
    let dist = crate::build::site::dist().display().to_string();
    let site = |name: &str, extra: &[&str]| -> Result<(server::Server, String)> {
        ready.clone()?;
        let mut args = vec!["--bind", "127.0.0.1:0", "--static", &dist];
        args.extend_from_slice(extra);
        let args: Vec<String> = args.into_iter().map(str::to_owned).collect();
        let s = server::start(name, &binary, &args)?;
        let page = s.url.trim_end_matches("/mcp").to_owned();
        Ok((s, page))
    };
    let models = ctx.tools.models_dir().display().to_string();
    // Reports change every 2 s, so a subscription hears an update soon.
    let page = helpers.add(
        "base",
        site("server-e2e", &["--models", &models, "--update-secs", "2"]),
    );
    // The same app served by a protected weather server (its consent page shown, not skipped).
    helpers.add(
        "auth-base",
        site(
            "server-e2e-auth",
            &["--auth", "--auth-token-secs", TOKEN_SECS],
        ),
    );
    // The app served by a weather server whose tokens come from a third-party authorization
    // server (oidc-provider); the page uses the client pre-registered there.
    let oidc = ready
        .clone()
        .map_err(Into::into)
        .and_then(|()| oidc_site(ctx, &binary))
        .map(|(oidc, site)| {
            let page = site.url.trim_end_matches("/mcp").to_owned();
            ((oidc, site), page)
        });
    helpers.add("oidc-base", oidc);
    // The server that breaks the protocol on purpose (a result against its own outputSchema).
    let faulty = ready.clone().map_err(Into::into).and_then(|()| {
        let s = server::start("server-faulty-e2e", &fixtures, &["faulty".into()])?;
        let url = s.url.trim_end_matches('/').to_owned();
        Ok((s, url))
    });
    helpers.add("faulty", faulty);
    // A server without CORS (the floor: JSON-RPC over HTTP, no MCP): the page cannot read it, and
    // a diagnosis finds it up, refusing the page, and offers the bridge.
    let foreign = ready.clone().map_err(Into::into).and_then(|()| {
        let s = server::start("server-foreign-e2e", &fixtures, &["floor".into()])?;
        let url = s.url.clone();
        Ok((s, url))
    });
    helpers.add("foreign", foreign);
    let page = page.ok_or("the app's server (base) did not start");
    // The reference server-everything (2025-11-25 tasks) in its HTTP mode, through the bridge.
    let everything = page.clone().map_err(Into::into).and_then(|page| {
        let peers = ctx.bridge_peers()?;
        let (upstream, url) = peers.everything_http()?;
        let (bridge, bridged) = crate::setup::interop::bridge_http(
            &ctx.debug_binary("mcp-flow-bridge"),
            "bridge-http-everything-e2e",
            &url,
            &[page.as_str()],
        )?;
        Ok(((upstream, bridge), bridged))
    });
    helpers.add("everything", everything);
    // The TypeScript SDK's URL elicitation example (with its own authorization server).
    let url_elicitation = ctx.bridge_peers().and_then(|peers| peers.url_elicitation());
    helpers.add("url-elicitation", url_elicitation);
    // The TypeScript SDK's examples, none with CORS, each with a bridge the page reaches it
    // through (`URL BRIDGED_URL`): its HTTP+SSE server (2024-11-05), its Streamable HTTP server,
    // and that server behind its demo OAuth server.
    type Example = fn(&BridgePeers) -> Result<(sh::Background, String)>;
    let examples: [(&str, Example); 3] = [
        ("sse-example", |peers| peers.sse_example()),
        ("ts-streamable", |peers| peers.streamable_example(false)),
        ("ts-oauth", |peers| peers.streamable_example(true)),
    ];
    for (name, start) in examples {
        let started = page.clone().map_err(Into::into).and_then(|page| {
            let peers = ctx.bridge_peers()?;
            let (upstream, url) = start(&peers)?;
            let (bridge, bridged) = crate::setup::interop::bridge_http(
                &ctx.debug_binary("mcp-flow-bridge"),
                name,
                &url,
                &[page.as_str()],
            )?;
            Ok(((upstream, bridge), format!("{url} {bridged}")))
        });
        helpers.add(name, started);
    }
    // Hosts watched through the bridge (`--watch`): the weather server behind `http --watch`,
    // the Python SDK's stdio weather server behind `stdio --watch`.
    let watch = page.clone().map_err(Into::into).and_then(|page| {
        let peers = ctx.bridge_peers()?;
        peers.watch_bridges(
            &ctx.debug_binary("mcp-flow-bridge"),
            &format!("{page}/mcp"),
            &[page.as_str()],
        )
    });
    helpers.add("watch", watch);
    // The reference MCP Apps server (its tool's app has buttons that go through the host).
    let basic_app = ctx.bridge_peers().and_then(|peers| peers.basic_app());
    helpers.add("basic-app", basic_app);
    // The Python SDK server whose apps try to get more than the user allowed.
    let hostile_apps = page.clone().map_err(Into::into).and_then(|page| {
        let peers = ctx.bridge_peers()?;
        peers.hostile_apps(&page)
    });
    helpers.add("hostile-apps", hostile_apps);
    // A real OpenAI-compatible server serving the project's SmolLM2 file.
    let llama = page.map_err(Into::into).and_then(|page| {
        let s = ctx.llama()?.start(&ctx.tools, &page)?;
        let url = s.url.clone();
        Ok((s, url))
    });
    helpers.add("llama-base", llama);
    helpers
}

/// The client the page uses at oidc-provider (pre-registered there, public, PKCE).
const OIDC_CLIENT: &str = "mcp-flow-page";

/// Access-token lifetime of both protected servers: short, so the suite waits one out and sees
/// the page refresh its token.
const TOKEN_SECS: &str = "4";

/// oidc-provider on 127.0.0.1, and a weather server (`--auth-issuer`) serving the app, whose
/// `/mcp` is the provider's one resource. The server's port is chosen first, since each names
/// the other.
fn oidc_site(ctx: &Ctx, binary: &std::path::Path) -> Result<(server::Server, server::Server)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let origin = format!("http://127.0.0.1:{port}");
    let dir = ctx.tools.oidc_dir();
    std::fs::copy(
        workspace_root().join("e2e/oidc-provider.mjs"),
        dir.join("oidc-provider.mjs"),
    )?;
    let mut node = Command::new("node");
    node.env("PATH", ctx.tools.node22_path_env())
        .current_dir(&dir)
        .arg("oidc-provider.mjs");
    let oidc = server::start_command(
        "oidc-provider",
        &mut node,
        &[
            "--resource".into(),
            format!("{origin}/mcp"),
            "--redirect".into(),
            format!("{origin}/oauth-callback.html"),
            "--client-id".into(),
            OIDC_CLIENT.into(),
            "--access-token-ttl".into(),
            TOKEN_SECS.into(),
        ],
        true,
    )?;
    let site = server::start(
        "server-e2e-oidc",
        binary,
        &[
            "--bind".into(),
            format!("127.0.0.1:{port}"),
            "--static".into(),
            crate::build::site::dist().display().to_string(),
            "--auth".into(),
            "--auth-issuer".into(),
            oidc.url.clone(),
        ],
    )?;
    Ok((oidc, site))
}

fn interop(ctx: &mut Ctx, counts: &mut Counts) -> Result<()> {
    ctx.ensure_tools()?;
    ctx.debug_binaries()?;
    let bridge = ctx.debug_binary("mcp-flow-bridge");
    let peers = ctx.bridge_peers()?;
    let compared = crate::test::relay_conformance::compare(&ctx.tools, &peers, &bridge)?;
    counts.passed += compared.same as u64;
    counts.failed += compared.differ.len() as u64;
    if compared.differ.is_empty() {
        Ok(())
    } else {
        Err(format!("verdicts differ: {}", compared.differ.join(", ")).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_crates_are_found_by_their_names_only() {
        let tree = "mcp-cli v0.1.0 (/w/mcp-cli)\nmcp-flow-client v0.1.0\njs-sys v0.3.107\ngloo-net v0.7.0\ngloo-net v0.7.0\nweb-sys-like v1.0.0\nserde v1.0.0\n";
        assert_eq!(browser_crates(tree), ["gloo-net", "js-sys"]);
        assert!(browser_crates("reqwest v0.12.0\ntokio v1.0.0\n").is_empty());
    }

    #[test]
    fn node_tests_are_counted_from_their_tap_summary() {
        let tap = "TAP version 13\n# Subtest: a\nok 1 - a\n1..3\n# tests 3\n# pass 2\n# fail 1\n";
        let counts = node_test_counts(tap);
        assert_eq!((counts.passed, counts.failed, counts.ran()), (2, 1, 3));
        assert_eq!(node_test_counts("not TAP at all").ran(), 0);
    }

    #[test]
    fn stages_are_chosen_by_name_in_their_own_order() {
        let names = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            chosen(&args).map(|s| s.iter().map(|s| s.name).collect::<Vec<_>>())
        };
        assert_eq!(names(&["e2e", "lint"]).expect("known"), ["lint", "e2e"]);
        assert_eq!(names(&[]).expect("all").len(), STAGES.len());
        let unknown = names(&["lint", "nope"]).expect_err("unknown");
        assert!(unknown.to_string().contains("no stage `nope`"));
        assert!(
            unknown.to_string().contains("conformance"),
            "the list is shown"
        );
    }
}
