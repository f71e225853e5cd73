//! The `browser` stage: the wasm-bindgen tests in headless Chromium, against live servers (ours,
//! the fixtures, servers nobody here wrote, and the bridge in front of some of them), each named
//! to the tests by an `MCP_FLOW_TEST_*` variable.

use super::Ctx;
use super::helpers::Helpers;
use super::report::{Counts, run_counted};
use crate::server;
use crate::setup::interop::{BridgePeers, Interop};
use crate::sh::{self, Background, Result};

pub fn stage(ctx: &mut Ctx, counts: &mut Counts) -> Result<()> {
    ctx.debug_binaries()?;
    let binary = ctx.debug_binary("weather-server");
    let fixtures = ctx.debug_binary("mcp-flow-test-servers");
    let bridge_binary = ctx.debug_binary("mcp-flow-bridge");
    let bridge_peers = ctx.bridge_peers().map_err(|e| e.to_string());
    let interop = ctx.interop().map_err(|e| e.to_string());

    let page_port = sh::free_port()?;
    let page_origin = format!("http://127.0.0.1:{page_port}");
    let common = |extra: &[&str]| server::test_args(&page_origin, extra);
    let mut live = Helpers::default();
    let started = |s: Result<server::Server>| {
        s.map(|s| {
            let url = s.url.clone();
            (s, url)
        })
    };
    let ours = |name: &str, bin: &std::path::Path, args: Vec<String>| {
        started(server::start(name, bin, &args))
    };
    live.add(
        "MCP_FLOW_TEST_SSE_URL",
        ours("server-sse", &binary, common(&[])),
    );
    live.add(
        "MCP_FLOW_TEST_JSON_URL",
        ours(
            "server-json",
            &binary,
            common(&["--stateless", "--json-response"]),
        ),
    );
    live.add(
        "MCP_FLOW_TEST_STATELESS_URL",
        ours("server-stateless", &binary, common(&["--stateless"])),
    );
    // Keeps a journal of every request and allows two sessions: the lifecycle tests check that
    // an ended run sends nothing more and closes its session.
    live.add(
        "MCP_FLOW_TEST_LIFECYCLE_URL",
        ours(
            "server-lifecycle",
            &binary,
            common(&["--journal", "--max-sessions", "2"]),
        ),
    );
    live.add(
        "MCP_FLOW_TEST_LLM_URL",
        ours("server-llm", &fixtures, vec!["llm".into()]),
    );
    live.add(
        "MCP_FLOW_TEST_FAULTY_URL",
        ours("server-faulty", &fixtures, vec!["faulty".into()]),
    );
    // A protected resource with its demo authorization server, approving at once.
    live.add(
        "MCP_FLOW_TEST_AUTH_URL",
        ours(
            "server-auth",
            &binary,
            common(&["--auth", "--auth-auto-approve"]),
        ),
    );
    // Started without the test page's origin on its allow-list.
    live.add(
        "MCP_FLOW_TEST_FOREIGN_URL",
        ours(
            "server-foreign",
            &binary,
            vec!["--bind".into(), "127.0.0.1:0".into()],
        ),
    );

    // Servers nobody here wrote: the official TypeScript and Python SDKs.
    let sdk = |which: &dyn Fn(&Interop) -> Result<server::Server>| {
        started(interop.clone().map_err(Into::into).and_then(|i| which(&i)))
    };
    live.add(
        "MCP_FLOW_TEST_TS_SDK_URL",
        sdk(&|i| i.ts_server(&ctx.tools)),
    );
    live.add(
        "MCP_FLOW_TEST_PY_SDK_URL",
        sdk(&|i| i.python_server(&page_origin)),
    );

    let origins = [page_origin.as_str()];
    let peers = |bridged: &dyn Fn(&BridgePeers) -> Result<(Background, String)>| {
        bridge_peers
            .clone()
            .map_err(Into::into)
            .and_then(|p| bridged(&p))
    };
    // The Python SDK's stdio weather server through mcp-flow-bridge, and the reference servers
    // mcp-server-time and server-everything the same way.
    live.add(
        "MCP_FLOW_TEST_BRIDGE_URL",
        peers(&|p| p.bridge_py_stdio_for(&bridge_binary, &origins)),
    );
    live.add(
        "MCP_FLOW_TEST_BRIDGE_TIME_URL",
        peers(&|p| p.bridge_time_for(&bridge_binary, &origins)),
    );
    live.add(
        "MCP_FLOW_TEST_BRIDGE_EVERYTHING_URL",
        peers(&|p| p.bridge_everything_for(&bridge_binary, &origins, &[])),
    );
    live.add(
        "MCP_FLOW_TEST_BRIDGE_PROGRESS_URL",
        peers(&|p| p.bridge_progress_for(&bridge_binary, &origins)),
    );
    // The Python SDK's HTTP server with DNS-rebinding protection that admits no page: the page
    // reaches it only through `mcp-flow-bridge http`.
    let guarded = live.add(
        "MCP_FLOW_TEST_GUARDED_URL",
        sdk(&|i| i.python_server_for_no_page()),
    );
    live.add(
        "MCP_FLOW_TEST_BRIDGE_GUARDED_URL",
        guarded
            .ok_or_else(|| "the guarded Python SDK server did not start".into())
            .and_then(|url| {
                crate::setup::interop::bridge_http(
                    &bridge_binary,
                    "bridge-http-guarded",
                    &url,
                    &origins,
                )
            }),
    );
    // server-everything's own Streamable HTTP mode, which sends no CORS headers for the page,
    // through `mcp-flow-bridge http`.
    let everything_http = bridge_peers.clone().map_err(Into::into).and_then(|p| {
        let (upstream, url) = p.everything_http()?;
        let (bridge, bridged) = crate::setup::interop::bridge_http(
            &bridge_binary,
            "bridge-http-everything",
            &url,
            &origins,
        )?;
        Ok(((upstream, bridge), bridged))
    });
    live.add("MCP_FLOW_TEST_BRIDGE_EVERYTHING_HTTP_URL", everything_http);

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
        .env("WASM_BINDGEN_TEST_TIMEOUT", "1500");
    // A server that did not start is named to the tests with why: only those using it fail.
    for (var, found) in live.found() {
        match found {
            Ok(url) => cmd.env(var, url),
            Err(why) => cmd.env(var, format!("{UNAVAILABLE}{why}")),
        };
    }
    // While working on a few tests: `MCP_FLOW_TEST_FILTER=NAME cargo xtask test browser`.
    if let Ok(filter) = std::env::var("MCP_FLOW_TEST_FILTER") {
        cmd.args(["--", &filter]);
    }
    let result = run_counted(&mut cmd, counts);
    let down = live.down();
    drop(live);
    match result {
        Err(e) if !down.is_empty() => {
            Err(format!("{e}; servers that did not start: {}", down.join(", ")).into())
        }
        result => result,
    }
}

/// What a `MCP_FLOW_TEST_*` variable starts with when its server did not start (the reason
/// follows); `tests/browser/common.rs` reads the same prefix.
const UNAVAILABLE: &str = "unavailable: ";
