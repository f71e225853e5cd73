//! `cargo xtask bench`: benchmarks with printed figures (not timed tests).

use std::process::Stdio;

use crate::sh::{self, Result};
use crate::tools::Tools;
use crate::{server, workspace_root};

pub fn bench() -> Result<()> {
    let root = workspace_root();
    let tools = Tools::locate();
    tools.ensure_test()?;

    let binary = server::build_release()?;
    let page_port = sh::free_port()?;
    let origin = format!("http://127.0.0.1:{page_port}");
    let args = |extra: &[&str]| server::test_args(&origin, extra);
    let sse = server::start("server-sse", &binary, &args(&[]))?;
    let json = server::start(
        "server-json",
        &binary,
        &args(&["--stateless", "--json-response"]),
    )?;

    sh::step("full exchange in headless Chromium (release wasm)");
    let out = tools
        .command("cargo")
        .current_dir(&root)
        .args([
            "test",
            "--release",
            "--package",
            "mcp-flow",
            "--target",
            "wasm32-unknown-unknown",
            "--test",
            "bench_exchange",
            "--",
            "--include-ignored",
            "--nocapture",
        ])
        .env("CHROMEDRIVER", "/usr/bin/chromedriver")
        .env(
            "WASM_BINDGEN_TEST_ADDRESS",
            format!("127.0.0.1:{page_port}"),
        )
        .env("WASM_BINDGEN_TEST_TIMEOUT", "300")
        .env("MCP_FLOW_TEST_SSE_URL", &sse.url)
        .env("MCP_FLOW_TEST_JSON_URL", &json.url)
        .stderr(Stdio::inherit())
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    print!("{text}");
    if !out.status.success() {
        return Err("the browser benchmark failed".into());
    }
    let figures: Vec<&str> = text.lines().filter(|l| l.contains("bench:")).collect();
    println!("\nMCP Flow benchmarks");
    for line in &figures {
        println!("  {}", line.trim().trim_start_matches("bench: "));
    }
    if figures.is_empty() {
        return Err("the benchmark printed no figures".into());
    }
    Ok(())
}
