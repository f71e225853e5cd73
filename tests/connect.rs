//! The Connect handshake against the real weather server, in headless Chromium.
//! `cargo xtask test` starts the servers and passes their URLs in at compile time.
#![cfg(target_arch = "wasm32")]

use mcp_flow::mcp::browser;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SSE_URL: Option<&str> = option_env!("MCP_FLOW_TEST_SSE_URL");
const JSON_URL: Option<&str> = option_env!("MCP_FLOW_TEST_JSON_URL");

fn url(configured: Option<&'static str>) -> &'static str {
    configured.expect("run through `cargo xtask test`, which starts the servers")
}

#[wasm_bindgen_test]
async fn handshake_with_the_session_server_over_sse() {
    let hs = browser::connect(url(SSE_URL)).await.expect("handshake");
    assert_eq!(hs.server_name, "weather-server");
    assert_eq!(hs.protocol_version, "2025-11-25");
}

#[wasm_bindgen_test]
async fn handshake_with_the_stateless_json_server() {
    let hs = browser::connect(url(JSON_URL)).await.expect("handshake");
    assert_eq!(hs.server_name, "weather-server");
}

#[wasm_bindgen_test]
async fn a_server_that_is_not_running_is_a_clear_error() {
    // Port 9 (discard) on loopback has no HTTP server here.
    let err = browser::connect("http://127.0.0.1:9/mcp")
        .await
        .unwrap_err();
    assert!(err.contains("failed before any response"), "{err}");
}
