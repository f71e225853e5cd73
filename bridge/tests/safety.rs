//! The bridge's locks: loopback only, the secret in the path, the Origin and Host allow-lists,
//! CORS for allowed origins only, the body limit and the session cap, one bridge per port.

mod common;

use common::{Bridge, initialize, run_to_exit, scripted};
use serde_json::{Value, json};

#[tokio::test]
async fn the_endpoint_line_names_a_loopback_address_with_a_secret() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let prefix = format!("http://127.0.0.1:{}/s/", bridge.port);
    let secret = bridge
        .url
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .expect("http://127.0.0.1:PORT/s/SECRET/mcp");
    assert_eq!(secret.len(), 32);
    assert!(secret.bytes().all(|b| b.is_ascii_hexdigit()));
    let other = Bridge::start(&[], &scripted()).await;
    assert_ne!(
        bridge.url.split('/').nth(4),
        other.url.split('/').nth(4),
        "a fresh secret per run"
    );
}

#[tokio::test]
async fn without_the_secret_every_request_gets_403() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let root = format!("http://127.0.0.1:{}", bridge.port);
    let secret = bridge.url.split('/').nth(4).expect("secret").to_owned();
    let mut wrong = secret.clone().into_bytes();
    wrong[0] = if wrong[0] == b'a' { b'b' } else { b'a' };
    let wrong = String::from_utf8(wrong).expect("ascii");
    for url in [
        format!("{root}/mcp"),
        format!("{root}/"),
        format!("{root}/s/{wrong}/mcp"),
        format!("{root}/s/{wrong}/legs"),
        format!("{root}/s//mcp"),
        format!("{root}/s/{}/mcp", &secret[..31]),
    ] {
        let response = bridge
            .client
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", common::ACCEPT)
            .body(initialize(1).to_string())
            .send()
            .await
            .expect("POST");
        assert_eq!(response.status(), 403, "{url}");
        let legs = bridge.client.get(&url).send().await.expect("GET");
        assert_eq!(legs.status(), 403, "{url}");
        // A preflight from the bridge's own origin is no way around the secret.
        let preflight = bridge
            .client
            .request(reqwest::Method::OPTIONS, &url)
            .header("origin", &root)
            .header("access-control-request-method", "POST")
            .send()
            .await
            .expect("OPTIONS");
        assert_eq!(preflight.status(), 403, "preflight {url}");
        assert!(
            preflight
                .headers()
                .get("access-control-allow-origin")
                .is_none()
        );
    }
    let listed: Value = bridge.record("").await;
    assert_eq!(
        listed["sessions"],
        json!([]),
        "no refused request started a child"
    );
}

#[tokio::test]
async fn a_foreign_origin_gets_403_and_no_cors_grant() {
    let bridge = Bridge::start(&["--allow-origin", "http://127.0.0.1:8000"], &scripted()).await;
    let foreign = bridge
        .post(None, &initialize(1))
        .header("origin", "http://evil.example")
        .send()
        .await
        .expect("POST");
    assert_eq!(foreign.status(), 403);
    assert!(
        foreign
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );

    let preflight = |origin: &'static str| {
        bridge
            .client
            .request(reqwest::Method::OPTIONS, &bridge.url)
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "content-type, mcp-session-id, mcp-param-units",
            )
            .send()
    };
    let refused = preflight("http://evil.example").await.expect("preflight");
    assert!(
        refused
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );

    for origin in ["http://127.0.0.1:8000", "own"] {
        let origin = if origin == "own" {
            format!("http://127.0.0.1:{}", bridge.port)
        } else {
            origin.to_owned()
        };
        let granted = bridge
            .client
            .request(reqwest::Method::OPTIONS, &bridge.url)
            .header("origin", &origin)
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "content-type, mcp-session-id, mcp-param-units",
            )
            .send()
            .await
            .expect("preflight");
        assert_eq!(
            granted.headers()["access-control-allow-origin"],
            origin.as_str()
        );
        let allowed = granted.headers()["access-control-allow-headers"]
            .to_str()
            .expect("ascii")
            .to_ascii_lowercase();
        assert!(allowed.contains("mcp-session-id") && allowed.contains("mcp-param-units"));
        assert_eq!(granted.headers()["access-control-max-age"], "7200");

        let response = bridge
            .post(None, &initialize(1))
            .header("origin", &origin)
            .send()
            .await
            .expect("POST");
        assert_eq!(response.status(), 200, "{origin} is allowed");
        assert_eq!(
            response.headers()["access-control-allow-origin"],
            origin.as_str()
        );
        let exposed = response.headers()["access-control-expose-headers"]
            .to_str()
            .expect("ascii")
            .to_owned();
        assert!(
            exposed.contains("mcp-session-id"),
            "the page can read the session id"
        );
    }
}

#[tokio::test]
async fn a_foreign_host_gets_403() {
    let bridge = Bridge::start(&[], &scripted()).await;
    for host in ["evil.example", "evil.example:80", "127.0.0.1.nip.io"] {
        let response = bridge
            .post(None, &initialize(1))
            .header("host", host)
            .send()
            .await
            .expect("POST");
        assert_eq!(response.status(), 403, "Host {host}");
        let preflight = bridge
            .client
            .request(reqwest::Method::OPTIONS, &bridge.url)
            .header("host", host)
            .header("origin", format!("http://127.0.0.1:{}", bridge.port))
            .header("access-control-request-method", "POST")
            .send()
            .await
            .expect("OPTIONS");
        assert_eq!(preflight.status(), 403, "preflight with Host {host}");
    }
    let localhost = bridge
        .post(None, &initialize(1))
        .header("host", format!("localhost:{}", bridge.port))
        .send()
        .await
        .expect("POST");
    assert_eq!(localhost.status(), 200);
}

#[tokio::test]
async fn a_ten_mebibyte_message_is_refused_with_413() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let session = bridge.initialize().await;
    let big = json!({
        "jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "get_weather", "arguments": {"location": "x".repeat(10 * 1024 * 1024)}},
    });
    let response = bridge
        .post(Some(&session), &big)
        .send()
        .await
        .expect("POST");
    assert_eq!(response.status(), 413);
    let error: Value = response.json().await.expect("a JSON-RPC error");
    assert!(
        error["error"]["message"]
            .as_str()
            .expect("message")
            .contains("4194304")
    );
    let legs = bridge.legs(&session).await;
    assert!(
        !legs["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .any(|e| e["leg"] == "stdin" && e["text"].as_str().is_some_and(|t| t.len() > 1000)),
        "nothing of it reached the child"
    );
    let (status, _) = bridge.call(&session, 10, "ping", json!({})).await;
    assert_eq!(status, 200, "the session goes on");
}

#[tokio::test]
async fn the_session_cap_is_a_clear_503() {
    let bridge = Bridge::start(&["--max-sessions", "1"], &scripted()).await;
    let first = bridge.initialize().await;
    let response = bridge
        .post(None, &initialize(7))
        .send()
        .await
        .expect("POST");
    assert_eq!(response.status(), 503);
    let error: Value = response.json().await.expect("json");
    assert_eq!(error["id"], 7);
    assert!(
        error["error"]["message"]
            .as_str()
            .expect("message")
            .contains("session limit (1)")
    );
    assert_eq!(error["error"]["data"]["kind"], "session-limit");

    let deleted = bridge
        .client
        .delete(&bridge.url)
        .header("mcp-session-id", &first)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(deleted.status(), 200);
    bridge.initialize().await;
}

#[tokio::test]
async fn a_non_loopback_bind_is_refused() {
    for addr in ["0.0.0.0:0", "[::]:0"] {
        let (code, stderr) = run_to_exit(&["stdio", "--bind", addr, "--", "true"]).await;
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains("loopback only"), "{stderr}");
    }
}

#[tokio::test]
async fn a_second_bridge_on_the_same_port_says_so() {
    let bridge = Bridge::start(&[], &scripted()).await;
    let addr = format!("127.0.0.1:{}", bridge.port);
    let (code, stderr) = run_to_exit(&["stdio", "--bind", &addr, "--", "true"]).await;
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains(&format!("cannot listen on {addr}")),
        "{stderr}"
    );
    assert!(stderr.contains("another bridge"), "{stderr}");
}

#[tokio::test]
async fn the_child_gets_a_few_named_variables_unless_told_to_inherit_all() {
    let env = [("MF_TEST_SECRET", "s3cret"), ("MF_TEST_PASSED", "yes")];
    let names = |answer: &[Value]| -> Vec<String> {
        answer
            .iter()
            .find_map(|m| m["result"]["names"].as_array().cloned())
            .expect("test/env's answer")
            .iter()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect()
    };
    // By default: HOME, LOGNAME, PATH, SHELL, TERM and USER (where set), and what --pass-env names.
    let bridge = Bridge::start_env(&["--pass-env", "MF_TEST_PASSED"], &scripted(), &env).await;
    let session = bridge.initialize().await;
    let (status, answer) = bridge.call(&session, 2, "test/env", json!({})).await;
    assert_eq!(status, 200);
    let seen = names(&answer);
    assert!(seen.iter().any(|n| n == "MF_TEST_PASSED"), "{seen:?}");
    assert!(seen.iter().any(|n| n == "PATH"), "{seen:?}");
    assert!(!seen.iter().any(|n| n == "MF_TEST_SECRET"), "{seen:?}");
    // With --inherit-env, everything.
    let bridge = Bridge::start_env(&["--inherit-env"], &scripted(), &env).await;
    let session = bridge.initialize().await;
    let (_, answer) = bridge.call(&session, 2, "test/env", json!({})).await;
    assert!(names(&answer).iter().any(|n| n == "MF_TEST_SECRET"));
}
