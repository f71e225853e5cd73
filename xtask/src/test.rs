//! `cargo xtask test`: every test the project has, in one command.

use std::process::Command;

use crate::interop::{BridgePeers, Interop};
use crate::sh::{self, Result};
use crate::tools::Tools;
use crate::{run, server, workspace_root};

/// Scenarios of the official conformance suite that a weather server can answer.
const SERVER_SCENARIOS: [&str; 6] = [
    "server-initialize",
    "ping",
    "tools-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
    "logging-set-level",
];

/// Scenarios of the 2026-07-28 revision (the prerelease suite, `--spec-version 2026-07-28`) that a
/// weather server answers; run against a server with `--conformance-fixtures`, whose diagnostic
/// tools `server-stateless` and the `input-required-result-*` scenarios call. Left out: the
/// `tools-call-*`, `prompts-get-*`, `resources-*`, `completion-complete` and `json-schema-2020-12`
/// scenarios (they call the reference server's own tools, prompts, resources and completions),
/// `prompts-list` and `sep-2164-resource-not-found` (the weather server has no prompts or
/// resources), and `caching`, whose resources checks fail on a server without resources.
const SERVER_SCENARIOS_2026: [&str; 20] = [
    "server-stateless",
    "tools-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
    "http-header-validation",
    "http-custom-header-server-validation",
    "input-required-result-basic-elicitation",
    "input-required-result-basic-sampling",
    "input-required-result-basic-list-roots",
    "input-required-result-request-state",
    "input-required-result-multiple-input-requests",
    "input-required-result-multi-round",
    "input-required-result-missing-input-response",
    "input-required-result-non-tool-request",
    "input-required-result-result-type",
    "input-required-result-unsupported-methods",
    "input-required-result-tampered-state",
    "input-required-result-capability-check",
    "input-required-result-ignore-extra-params",
    "input-required-result-validate-input",
];

/// Server scenarios run through the bridge (`mcp-flow-bridge stdio` wrapping the Python SDK's
/// stdio weather server), in each era: a relay must not change what a server does.
/// `server-stateless` is left out: 2 of its 28 checks call the suite's diagnostic tool
/// `test_missing_capability`, which the weather server does not have (26/28 through the
/// bridge, the same as the Python SDK served over HTTP directly).
const BRIDGE_SCENARIOS: [&str; 5] = [
    "server-initialize",
    "ping",
    "tools-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
];
const BRIDGE_SCENARIOS_2026: [&str; 4] = [
    "tools-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
    "http-header-validation",
];

/// Client scenarios of the official conformance suite, run against `mcp-flow-cli`.
const CLIENT_SCENARIOS: [&str; 3] = ["initialize", "tools_call", "sse-retry"];

/// Client scenarios of the 2026-07-28 revision (the prerelease suite), run against
/// `mcp-flow-cli` in its default `auto` era. The `auth/*` ones are out of scope: the client has
/// no authorization.
const CLIENT_SCENARIOS_2026: [&str; 7] = [
    "tools_call",
    "request-metadata",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
    "sep-2322-client-request-state",
];

pub fn test() -> Result<()> {
    let root = workspace_root();
    let tools = Tools::locate();
    tools.ensure_test()?;
    let cargo = |args: &[&str]| -> Result<()> {
        sh::run(
            tools
                .command("cargo")
                .current_dir(&root)
                .args(args)
                .env("CHROMEDRIVER", "/usr/bin/chromedriver"),
        )
    };

    sh::step("format and lints (native and wasm32)");
    cargo(&["fmt", "--all", "--check"])?;
    cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])?;
    cargo(&[
        "clippy",
        "--package",
        "mcp-flow",
        "--package",
        "mcp-flow-smollm-worker",
        "--target",
        "wasm32-unknown-unknown",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])?;

    sh::step(
        "native tests (cargo test --workspace, the bridge apart), the language model's included",
    );
    sh::run(
        tools
            .command("cargo")
            .current_dir(&root)
            .args(["test", "--workspace", "--exclude", "mcp-flow-bridge"])
            .env("SMOLLM_MODEL", tools.model_file())
            .env("SMOLLM_REQUIRED", "1"),
    )?;

    sh::step("the bridge: its fault children, and stdio servers nobody here wrote through it");
    let bridge_peers = BridgePeers::ensure(&tools)?;
    let mut bridge_tests = tools.command("cargo");
    bridge_tests
        .current_dir(&root)
        .args(["test", "--package", "mcp-flow-bridge"]);
    for (name, value) in bridge_peers.env() {
        bridge_tests.env(name, value);
    }
    sh::run(&mut bridge_tests)?;

    sh::step("building the weather server and the web app");
    cargo(&[
        "build",
        "--package",
        "weather-server",
        "--package",
        "test-servers",
    ])?;
    run::build_app(&tools)?;
    crate::size::check_budget()?;
    let binary = crate::target_dir().join("debug/weather-server");
    let fixtures = crate::target_dir().join("debug/mcp-flow-test-servers");

    sh::step("browser tests (wasm-bindgen-test in headless Chromium) against live servers");
    let page_port = sh::free_port()?;
    let page_origin = format!("http://127.0.0.1:{page_port}");
    let common = |extra: &[&str]| server::test_args(&page_origin, extra);
    let sse = server::start("server-sse", &binary, &common(&[]))?;
    let json = server::start(
        "server-json",
        &binary,
        &common(&["--stateless", "--json-response"]),
    )?;
    let stateless = server::start("server-stateless", &binary, &common(&["--stateless"]))?;
    // Keeps a journal of every request and allows two sessions: the lifecycle tests check that
    // an ended run sends nothing more and closes its session.
    let lifecycle = server::start(
        "server-lifecycle",
        &binary,
        &common(&["--journal", "--max-sessions", "2"]),
    )?;
    let llm = server::start("server-llm", &fixtures, &["llm".into()])?;
    // Servers nobody here wrote: the official TypeScript and Python SDKs.
    let interop = Interop::ensure(&tools)?;
    let ts_sdk = interop.ts_server(&tools)?;
    let py_sdk = interop.python_server(&page_origin)?;
    let faulty = server::start("server-faulty", &fixtures, &["faulty".into()])?;
    // The Python SDK's stdio weather server, through mcp-flow-bridge (built by the bridge's tests),
    // and the reference servers mcp-server-time and server-everything the same way.
    let bridge_binary = crate::target_dir().join("debug/mcp-flow-bridge");
    let (bridged, bridge_url) =
        bridge_peers.bridge_py_stdio_for(&bridge_binary, &[&page_origin])?;
    let (bridged_time, time_url) = bridge_peers.bridge_time_for(&bridge_binary, &[&page_origin])?;
    let (bridged_everything, everything_url) =
        bridge_peers.bridge_everything_for(&bridge_binary, &[&page_origin], &[])?;
    // The Python SDK's HTTP server with DNS-rebinding protection that admits no page: the page
    // reaches it only through `mcp-flow-bridge http`.
    let guarded = interop.python_server_for_no_page()?;
    let (bridged_guarded, guarded_bridge_url) = crate::interop::bridge_http(
        &bridge_binary,
        "bridge-http-guarded",
        &guarded.url,
        &[&page_origin],
    )?;
    // server-everything's own Streamable HTTP mode, which sends no CORS headers for the page,
    // through `mcp-flow-bridge http`.
    let (everything_http, everything_http_url) = bridge_peers.everything_http()?;
    let (bridged_everything_http, everything_http_bridge_url) = crate::interop::bridge_http(
        &bridge_binary,
        "bridge-http-everything",
        &everything_http_url,
        &[&page_origin],
    )?;
    // Started without the test page's origin on its allow-list.
    let foreign = server::start(
        "server-foreign",
        &binary,
        &["--bind".into(), "127.0.0.1:0".into()],
    )?;
    sh::run(
        tools
            .command("cargo")
            .current_dir(&root)
            .args([
                "test",
                "--package",
                "mcp-flow",
                "--target",
                "wasm32-unknown-unknown",
            ])
            .env("CHROMEDRIVER", "/usr/bin/chromedriver")
            .env(
                "WASM_BINDGEN_TEST_ADDRESS",
                format!("127.0.0.1:{page_port}"),
            )
            // The runner's timeout covers a whole test file, not one test: the lifecycle file
            // alone takes about a minute. A bound on hangs, not on speed.
            .env("WASM_BINDGEN_TEST_TIMEOUT", "300")
            .env("MCP_FLOW_TEST_SSE_URL", &sse.url)
            .env("MCP_FLOW_TEST_JSON_URL", &json.url)
            .env("MCP_FLOW_TEST_STATELESS_URL", &stateless.url)
            .env("MCP_FLOW_TEST_FOREIGN_URL", &foreign.url)
            .env("MCP_FLOW_TEST_LLM_URL", &llm.url)
            .env("MCP_FLOW_TEST_LIFECYCLE_URL", &lifecycle.url)
            .env("MCP_FLOW_TEST_TS_SDK_URL", &ts_sdk.url)
            .env("MCP_FLOW_TEST_PY_SDK_URL", &py_sdk.url)
            .env("MCP_FLOW_TEST_FAULTY_URL", &faulty.url)
            .env("MCP_FLOW_TEST_BRIDGE_URL", &bridge_url)
            .env("MCP_FLOW_TEST_BRIDGE_TIME_URL", &time_url)
            .env("MCP_FLOW_TEST_BRIDGE_EVERYTHING_URL", &everything_url)
            .env("MCP_FLOW_TEST_GUARDED_URL", &guarded.url)
            .env("MCP_FLOW_TEST_BRIDGE_GUARDED_URL", &guarded_bridge_url)
            .env(
                "MCP_FLOW_TEST_BRIDGE_EVERYTHING_HTTP_URL",
                &everything_http_bridge_url,
            ),
    )?;
    drop((bridged, bridged_time, bridged_everything, bridged_guarded));
    drop((bridged_everything_http, everything_http));
    drop(guarded);
    drop((sse, json, stateless, foreign, llm, faulty, lifecycle));
    drop((ts_sdk, py_sdk));

    sh::step(
        "end to end: the release build served by weather-server --static, in Chromium (Playwright)",
    );
    let site = server::start(
        "server-e2e",
        &binary,
        &[
            "--bind".into(),
            "127.0.0.1:0".into(),
            "--static".into(),
            root.join("dist").display().to_string(),
            "--models".into(),
            tools.models_dir().display().to_string(),
        ],
    )?;
    let page = site.url.trim_end_matches("/mcp").to_owned();
    // The server that breaks the protocol on purpose (a result against its own outputSchema).
    let faulty = server::start("server-faulty-e2e", &fixtures, &["faulty".into()])?;
    let shots = crate::target_dir().join("e2e");
    std::fs::create_dir_all(&shots)?;
    sh::run(
        Command::new("node")
            .current_dir(&root)
            .env("MCP_FLOW_TOOLS", &tools.root)
            .arg("e2e/suite.mjs")
            .args(["--base", &page])
            .args(["--faulty", faulty.url.trim_end_matches('/')])
            .arg("--out")
            .arg(&shots),
    )?;
    drop((site, faulty));

    sh::step("official MCP conformance suite, server scenarios");
    let target = server::start("server-conformance", &binary, &common(&[]))?;
    let mut failed = Vec::new();
    for scenario in SERVER_SCENARIOS {
        eprintln!("-- conformance server --scenario {scenario}");
        let ok = sh::run(
            Command::new(tools.npm_bin().join("conformance"))
                .env("PATH", tools.node22_path_env())
                .args(["server", "--url", &target.url, "--scenario", scenario]),
        );
        if let Err(e) = ok {
            eprintln!("conformance scenario {scenario} failed: {e}");
            failed.push(scenario.to_owned());
        }
    }
    drop(target);

    sh::step("official MCP conformance suite (2026-07-28 prerelease), server scenarios");
    let target = server::start(
        "server-conformance-2026",
        &binary,
        &common(&["--conformance-fixtures"]),
    )?;
    for scenario in SERVER_SCENARIOS_2026 {
        eprintln!("-- conformance server --spec-version 2026-07-28 --scenario {scenario}");
        let ok = sh::run(
            Command::new(tools.conformance_next())
                .env("PATH", tools.node22_path_env())
                .args(["server", "--url", &target.url])
                .args(["--spec-version", "2026-07-28", "--scenario", scenario]),
        );
        if let Err(e) = ok {
            eprintln!("conformance scenario {scenario} (2026-07-28) failed: {e}");
            failed.push(format!("{scenario} (2026-07-28)"));
        }
    }
    drop(target);

    sh::step(
        "official MCP conformance suite through the bridge (both eras, a stdio server behind)",
    );
    let (bridge, bridge_url) =
        bridge_peers.bridge_py_stdio(&crate::target_dir().join("debug/mcp-flow-bridge"))?;
    for scenario in BRIDGE_SCENARIOS {
        eprintln!("-- conformance server --scenario {scenario} (through the bridge)");
        let ok = sh::run(
            Command::new(tools.npm_bin().join("conformance"))
                .env("PATH", tools.node22_path_env())
                .args(["server", "--url", &bridge_url, "--scenario", scenario]),
        );
        if let Err(e) = ok {
            eprintln!("conformance scenario {scenario} through the bridge failed: {e}");
            failed.push(format!("{scenario} (bridge)"));
        }
    }
    for scenario in BRIDGE_SCENARIOS_2026 {
        eprintln!(
            "-- conformance server --spec-version 2026-07-28 --scenario {scenario} (through the bridge)"
        );
        let ok = sh::run(
            Command::new(tools.conformance_next())
                .env("PATH", tools.node22_path_env())
                .args(["server", "--url", &bridge_url])
                .args(["--spec-version", "2026-07-28", "--scenario", scenario]),
        );
        if let Err(e) = ok {
            eprintln!(
                "conformance scenario {scenario} (2026-07-28) through the bridge failed: {e}"
            );
            failed.push(format!("{scenario} (2026-07-28, bridge)"));
        }
    }
    drop(bridge);

    sh::step(
        "official MCP conformance suite against server-everything, directly and through the bridge",
    );
    failed.extend(crate::relay_conformance::compare(
        &tools,
        &bridge_peers,
        &crate::target_dir().join("debug/mcp-flow-bridge"),
    )?);

    sh::step("official MCP conformance suite, client scenarios (mcp-flow-cli)");
    cargo(&["build", "--package", "mcp-cli"])?;
    let cli = crate::target_dir().join("debug/mcp-flow-cli");
    let cli = cli.to_str().ok_or("the workspace path is not UTF-8")?;
    // The suite splits --command on spaces and appends the server URL.
    if cli.contains(char::is_whitespace) {
        return Err(format!(
            "the conformance suite cannot run a command whose path has spaces: {cli}"
        )
        .into());
    }
    for scenario in CLIENT_SCENARIOS {
        eprintln!("-- conformance client --scenario {scenario}");
        let ok = sh::run(
            Command::new(tools.npm_bin().join("conformance"))
                .env("PATH", tools.node22_path_env())
                .args(["client", "--command", cli, "--scenario", scenario]),
        );
        if let Err(e) = ok {
            eprintln!("conformance client scenario {scenario} failed: {e}");
            failed.push(format!("{scenario} (client)"));
        }
    }
    for scenario in CLIENT_SCENARIOS_2026 {
        eprintln!("-- conformance client --spec-version 2026-07-28 --scenario {scenario}");
        let ok = sh::run(
            Command::new(tools.conformance_next())
                .env("PATH", tools.node22_path_env())
                .args(["client", "--command", cli, "--scenario", scenario])
                .args(["--spec-version", "2026-07-28"]),
        );
        if let Err(e) = ok {
            eprintln!("conformance client scenario {scenario} (2026-07-28) failed: {e}");
            failed.push(format!("{scenario} (client, 2026-07-28)"));
        }
    }
    let total = SERVER_SCENARIOS.len()
        + SERVER_SCENARIOS_2026.len()
        + BRIDGE_SCENARIOS.len()
        + BRIDGE_SCENARIOS_2026.len()
        + CLIENT_SCENARIOS.len()
        + CLIENT_SCENARIOS_2026.len();
    println!(
        "conformance: {} passed, {} failed",
        total - failed.len(),
        failed.len()
    );
    if !failed.is_empty() {
        return Err(format!("conformance scenarios failed: {}", failed.join(", ")).into());
    }
    Ok(())
}
