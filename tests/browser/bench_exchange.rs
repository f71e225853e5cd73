//! Benchmark, not a test: one full exchange (initialize → initialized → tools/list →
//! tools/call) from the browser against the local weather server, repeated, with the median and
//! p95 printed; beside it the browser's own share: the same four requests with bare `fetch`,
//! each answer read whole. Ignored by `cargo xtask test`; `cargo xtask bench` runs it.

use std::rc::Rc;

use mcp_flow::clock::BrowserClock;
use mcp_flow::clock::Clock;
use mcp_flow::mcp::browser::Fetch;
use mcp_flow::mcp::client::McpClient;
use mcp_flow::mcp::tools::result_text;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

const RUNS: usize = 20;
/// A fresh page's first 30 or so exchanges run up to several times slower, whichever client
/// makes them (the browser and the server warming up); the figures are of the steady state
/// after them, and the Node client gets the same warm-up.
const WARMUP: usize = 40;

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

/// One POST with bare fetch: the answer's text and its session id.
async fn bare_post(url: &str, session: Option<&str>, body: &str) -> (String, Option<String>) {
    let headers = web_sys::Headers::new().expect("headers");
    headers
        .set("Content-Type", "application/json")
        .expect("header");
    headers
        .set("Accept", "application/json, text/event-stream")
        .expect("header");
    if let Some(id) = session {
        headers.set("Mcp-Session-Id", id).expect("header");
        headers
            .set("MCP-Protocol-Version", "2025-11-25")
            .expect("header");
    }
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&body.into());
    let window = web_sys::window().expect("window");
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .expect("fetch")
        .dyn_into()
        .expect("a Response");
    let session = response.headers().get("mcp-session-id").ok().flatten();
    let text = JsFuture::from(response.text().expect("text"))
        .await
        .expect("the body")
        .as_string()
        .unwrap_or_default();
    (text, session)
}

/// The same exchange with no MCP client: what the browser itself costs.
async fn bare_exchange(url: &str) -> f64 {
    let start = BrowserClock.now_ms();
    let (_, session) = bare_post(
        url,
        None,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#,
    )
    .await;
    let session = session.as_deref();
    bare_post(
        url,
        session,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    bare_post(
        url,
        session,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
    )
    .await;
    let (answer, _) = bare_post(
        url,
        session,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"Tokyo"}}}"#,
    )
    .await;
    let elapsed = BrowserClock.now_ms() - start;
    assert!(answer.contains(r#""text":"Sunny""#), "{answer}");
    if let Some(id) = session {
        let headers = web_sys::Headers::new().expect("headers");
        headers.set("Mcp-Session-Id", id).expect("header");
        let init = web_sys::RequestInit::new();
        init.set_method("DELETE");
        init.set_headers(&headers);
        let window = web_sys::window().expect("window");
        let _ = JsFuture::from(window.fetch_with_str_and_init(url, &init)).await;
    }
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
        for (how, bare) in [("", false), (", bare fetch", true)] {
            let run = || async move {
                if bare {
                    bare_exchange(url).await
                } else {
                    one_exchange(url).await
                }
            };
            for _ in 0..WARMUP {
                run().await;
            }
            let mut times = Vec::with_capacity(RUNS);
            for _ in 0..RUNS {
                times.push(run().await);
            }
            times.sort_by(f64::total_cmp);
            console_log!(
                "bench: full exchange, {mode}{how}: median {:.2} ms, p95 {:.2} ms, min {:.2} ms, max {:.2} ms ({RUNS} runs after {WARMUP} warm-up)",
                percentile(&times, 0.5),
                percentile(&times, 0.95),
                times[0],
                times[RUNS - 1]
            );
        }
    }
}
