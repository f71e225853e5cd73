//! The `browser` stage: the wasm-bindgen tests in headless Chromium, against live servers (ours,
//! the fixtures, servers nobody here wrote, and the bridge in front of some of them), each named
//! to the tests by an `MCP_FLOW_TEST_*` variable.

use super::Ctx;
use super::report::{Counts, run_counted};
use crate::server;
use crate::sh::{self, Background, Result};

pub fn stage(ctx: &mut Ctx, counts: &mut Counts) -> Result<()> {
    ctx.debug_binaries()?;
    let binary = ctx.debug_binary("weather-server");
    let fixtures = ctx.debug_binary("mcp-flow-test-servers");
    let bridge_binary = ctx.debug_binary("mcp-flow-bridge");
    let bridge_peers = ctx.bridge_peers()?;
    let interop = ctx.interop()?;

    let page_port = sh::free_port()?;
    let page_origin = format!("http://127.0.0.1:{page_port}");
    let common = |extra: &[&str]| server::test_args(&page_origin, extra);
    let mut live = Live::default();
    let mut ours = |var, name: &str, bin: &std::path::Path, args: Vec<String>| -> Result<()> {
        let s = server::start(name, bin, &args)?;
        live.add(var, s.url.clone(), s);
        Ok(())
    };
    ours("MCP_FLOW_TEST_SSE_URL", "server-sse", &binary, common(&[]))?;
    ours(
        "MCP_FLOW_TEST_JSON_URL",
        "server-json",
        &binary,
        common(&["--stateless", "--json-response"]),
    )?;
    ours(
        "MCP_FLOW_TEST_STATELESS_URL",
        "server-stateless",
        &binary,
        common(&["--stateless"]),
    )?;
    // Keeps a journal of every request and allows two sessions: the lifecycle tests check that
    // an ended run sends nothing more and closes its session.
    ours(
        "MCP_FLOW_TEST_LIFECYCLE_URL",
        "server-lifecycle",
        &binary,
        common(&["--journal", "--max-sessions", "2"]),
    )?;
    ours(
        "MCP_FLOW_TEST_LLM_URL",
        "server-llm",
        &fixtures,
        vec!["llm".into()],
    )?;
    ours(
        "MCP_FLOW_TEST_FAULTY_URL",
        "server-faulty",
        &fixtures,
        vec!["faulty".into()],
    )?;
    // A protected resource with its demo authorization server, approving at once.
    ours(
        "MCP_FLOW_TEST_AUTH_URL",
        "server-auth",
        &binary,
        common(&["--auth", "--auth-auto-approve"]),
    )?;
    // Started without the test page's origin on its allow-list.
    ours(
        "MCP_FLOW_TEST_FOREIGN_URL",
        "server-foreign",
        &binary,
        vec!["--bind".into(), "127.0.0.1:0".into()],
    )?;

    // Servers nobody here wrote: the official TypeScript and Python SDKs.
    let ts_sdk = interop.ts_server(&ctx.tools)?;
    live.add("MCP_FLOW_TEST_TS_SDK_URL", ts_sdk.url.clone(), ts_sdk);
    let py_sdk = interop.python_server(&page_origin)?;
    live.add("MCP_FLOW_TEST_PY_SDK_URL", py_sdk.url.clone(), py_sdk);

    let origins = [page_origin.as_str()];
    // The Python SDK's stdio weather server through mcp-flow-bridge, and the reference servers
    // mcp-server-time and server-everything the same way.
    live.bridged(
        "MCP_FLOW_TEST_BRIDGE_URL",
        bridge_peers.bridge_py_stdio_for(&bridge_binary, &origins)?,
    );
    live.bridged(
        "MCP_FLOW_TEST_BRIDGE_TIME_URL",
        bridge_peers.bridge_time_for(&bridge_binary, &origins)?,
    );
    live.bridged(
        "MCP_FLOW_TEST_BRIDGE_EVERYTHING_URL",
        bridge_peers.bridge_everything_for(&bridge_binary, &origins, &[])?,
    );
    // The Python SDK's HTTP server with DNS-rebinding protection that admits no page: the page
    // reaches it only through `mcp-flow-bridge http`.
    let guarded = interop.python_server_for_no_page()?;
    let guarded_url = guarded.url.clone();
    live.add("MCP_FLOW_TEST_GUARDED_URL", guarded_url.clone(), guarded);
    live.bridged(
        "MCP_FLOW_TEST_BRIDGE_GUARDED_URL",
        crate::interop::bridge_http(
            &bridge_binary,
            "bridge-http-guarded",
            &guarded_url,
            &origins,
        )?,
    );
    // server-everything's own Streamable HTTP mode, which sends no CORS headers for the page,
    // through `mcp-flow-bridge http`.
    let (everything_http, everything_http_url) = bridge_peers.everything_http()?;
    live.running.push(Box::new(everything_http));
    live.bridged(
        "MCP_FLOW_TEST_BRIDGE_EVERYTHING_HTTP_URL",
        crate::interop::bridge_http(
            &bridge_binary,
            "bridge-http-everything",
            &everything_http_url,
            &origins,
        )?,
    );

    let mut cmd = ctx.tools.command("cargo");
    cmd.current_dir(crate::workspace_root())
        // Only the browser binary: the app's own lib and bin hold no browser test.
        .args(["test", "--package", "mcp-flow", "--test", "browser"])
        .args(["--target", "wasm32-unknown-unknown"])
        .env("CHROMEDRIVER", "/usr/bin/chromedriver")
        .env(
            "WASM_BINDGEN_TEST_ADDRESS",
            format!("127.0.0.1:{page_port}"),
        )
        // The runner's timeout covers a whole test binary, not one test: all the browser tests
        // are one binary. A bound on hangs, not on speed.
        .env("WASM_BINDGEN_TEST_TIMEOUT", "1500")
        .envs(live.env.iter().map(|(k, v)| (k, v)));
    let result = run_counted(&mut cmd, counts);
    drop(live);
    result
}

/// The processes the tests talk to (alive until dropped) and the variables that name them.
#[derive(Default)]
struct Live {
    running: Vec<Box<dyn std::any::Any>>,
    env: Vec<(&'static str, String)>,
}

impl Live {
    fn add(&mut self, var: &'static str, url: String, process: impl std::any::Any) {
        self.env.push((var, url));
        self.running.push(Box::new(process));
    }

    fn bridged(&mut self, var: &'static str, (process, url): (Background, String)) {
        self.add(var, url, process);
    }
}
