//! Benchmark, not a test: one full exchange (initialize → initialized → tools/list →
//! tools/call) from the browser against the local weather server, repeated, with the median and
//! p95 printed. Ignored by `cargo xtask test`; `cargo xtask bench` runs it.

use std::rc::Rc;

use mcp_flow::clock::BrowserClock;
use mcp_flow::clock::Clock;
use mcp_flow::mcp::browser::Fetch;
use mcp_flow::mcp::client::McpClient;
use mcp_flow::mcp::tools::result_text;
use serde_json::json;
use wasm_bindgen_test::*;

const RUNS: usize = 20;
const WARMUP: usize = 3;

async fn one_exchange(url: &str) -> f64 {
    let client = McpClient::new(Fetch, Rc::new(BrowserClock), url, Rc::new(|_| {}));
    let start = BrowserClock.now_ms();
    client.connect().await.expect("handshake");
    client.list_tools().await.expect("tools/list");
    let result = client
        .call_tool("get_weather", json!({"location": "Tokyo"}), None)
        .await
        .expect("tools/call");
    let elapsed = BrowserClock.now_ms() - start;
    assert_eq!(result_text(&result), "Sunny");
    // Not timed: end the session so the server does not accumulate them.
    let _ = client.close().await;
    elapsed
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[wasm_bindgen_test]
#[ignore = "benchmark: run with `cargo xtask bench`"]
async fn full_exchange_in_the_browser() {
    let servers = [
        ("sessions + SSE", option_env!("MCP_FLOW_TEST_SSE_URL")),
        ("stateless + JSON", option_env!("MCP_FLOW_TEST_JSON_URL")),
    ];
    for (mode, url) in servers {
        let url = url.expect("run through `cargo xtask bench`, which starts the servers");
        for _ in 0..WARMUP {
            one_exchange(url).await;
        }
        let mut times = Vec::with_capacity(RUNS);
        for _ in 0..RUNS {
            times.push(one_exchange(url).await);
        }
        times.sort_by(f64::total_cmp);
        console_log!(
            "bench: full exchange, {mode}: median {:.2} ms, p95 {:.2} ms, min {:.2} ms, max {:.2} ms ({RUNS} runs after {WARMUP} warm-up)",
            percentile(&times, 0.5),
            percentile(&times, 0.95),
            times[0],
            times[RUNS - 1]
        );
    }
}
