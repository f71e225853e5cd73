//! `--watch`: a host (here a plain HTTP client, as a host sends no Origin) goes through the bridge
//! unchanged while a page reads everything that passed from the feed.

mod common;

use std::time::Duration;

use common::{Bridge, Events, initialize, upstream::upstream};
use serde_json::{Value, json};

const PAGE: &str = "http://127.0.0.1:8000";

async fn feed(bridge: &Bridge, query: &str) -> Value {
    let response = bridge
        .client
        .get(format!("{}/watch{query}", bridge.base()))
        .header("origin", PAGE)
        .send()
        .await
        .expect("the feed answers");
    assert_eq!(response.status(), 200);
    response.json().await.expect("the feed is JSON")
}

/// The host's `tools/call` of get_weather for Tokyo in session `up-1`: the upstream's stream.
async fn call_tokyo(bridge: &Bridge, id: u64) -> Events {
    let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "get_weather", "arguments": {"location": "Tokyo"}}});
    let response = bridge
        .post(Some("up-1"), &call)
        .send()
        .await
        .expect("tools/call");
    Events::new(response)
}

fn kinds(page: &Value) -> Vec<(String, Option<String>)> {
    page["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap_or("?").to_owned(),
                e["session"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_hosts_traffic_passes_unchanged_and_the_page_reads_all_of_it() {
    let (url, seen) = upstream().await;
    let bridge = Bridge::start_http(&["--watch", "--allow-origin", PAGE], &url).await;
    let feed_url = format!("{}/watch", bridge.base());
    assert_eq!(
        bridge.watch_line.as_deref(),
        Some(
            format!(
                "Watch in the page: {PAGE}/?watch={}",
                feed_url.replace(':', "%3A").replace('/', "%2F")
            )
            .as_str()
        ),
        "the second stable line: the page opened on the feed"
    );

    // The host: no Origin, its own headers.
    let first = bridge
        .post(None, &initialize(1))
        .header("authorization", "Bearer host-token")
        .header("x-host-header", "kept")
        .send()
        .await
        .expect("initialize");
    assert_eq!(first.headers()["mcp-session-id"], "up-1");
    let text = first.text().await.expect("body");
    assert!(text.contains("\"upstream\""), "{text}");
    {
        let seen = seen.lock().expect("lock");
        let got = seen.last().expect("the upstream got it");
        assert_eq!(got["authorization"], "Bearer host-token");
        assert_eq!(got["x-host-header"], "kept", "the host's headers pass on");
    }
    let mut events = call_tokyo(&bridge, 2).await;
    assert_eq!(
        events.next().await.expect("log")["method"],
        "notifications/message"
    );
    assert!(events.next().await.is_some());
    assert!(events.next().await.is_none());

    let page = feed(&bridge, "?since=0").await;
    assert_eq!(page["mode"], "http");
    assert_eq!(page["target"], url.as_str());
    let seen_kinds = kinds(&page);
    let session = Some("up-1".to_owned());
    assert_eq!(
        seen_kinds[0],
        ("request".to_owned(), None),
        "initialize opens it"
    );
    assert_eq!(seen_kinds[1], ("response".to_owned(), session.clone()));
    assert!(
        seen_kinds[2..].iter().all(|(_, s)| s == &session),
        "{seen_kinds:?}"
    );
    let chunks = seen_kinds[4..].iter().filter(|(k, _)| k == "chunk").count();
    assert_eq!(
        chunks, 2,
        "each event of the stream as it arrived: {seen_kinds:?}"
    );
    assert_eq!(seen_kinds.last().map(|k| k.0.as_str()), Some("end"));
    let events = page["events"].as_array().expect("events");
    assert!(
        events[0]["body"]
            .as_str()
            .unwrap_or("")
            .contains("initialize")
    );
    let headers = events[0]["headers"].to_string();
    assert!(
        headers.contains("[redacted]") && !headers.contains("host-token"),
        "credentials never reach the feed: {headers}"
    );
    let next = page["next"].as_u64().expect("next");
    assert_eq!(next, events.len() as u64);

    // A page waiting on the feed wakes when the host sends something.
    let waiting = {
        let client = bridge.client.clone();
        let url = format!("{feed_url}?since={next}&wait=20");
        tokio::spawn(async move {
            client
                .get(url)
                .header("origin", PAGE)
                .send()
                .await
                .expect("the wait answers")
                .json::<Value>()
                .await
                .expect("JSON")
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
    bridge.post(Some("up-1"), &ping).send().await.expect("ping");
    let woken = waiting.await.expect("the waiting page");
    assert_eq!(woken["events"][0]["n"].as_u64(), Some(next));
    assert!(
        woken["events"][0]["body"]
            .as_str()
            .unwrap_or("")
            .contains("ping")
    );
}

#[tokio::test]
async fn the_feed_keeps_the_bridges_locks_and_is_off_without_watch() {
    let (url, _) = upstream().await;
    let bridge = Bridge::start_http(&["--watch", "--allow-origin", PAGE], &url).await;
    let foreign = bridge
        .client
        .get(format!("{}/watch", bridge.base()))
        .header("origin", "http://evil.example")
        .send()
        .await
        .expect("answer");
    assert_eq!(
        foreign.status(),
        403,
        "a page of another origin reads nothing"
    );
    let no_secret = bridge
        .client
        .get(format!("http://127.0.0.1:{}/watch", bridge.port))
        .send()
        .await
        .expect("answer");
    assert_eq!(no_secret.status(), 403);

    let plain = Bridge::start_http(&["--allow-origin", PAGE], &url).await;
    assert_eq!(plain.watch_line, None);
    let off = plain
        .client
        .get(format!("{}/watch", plain.base()))
        .send()
        .await
        .expect("answer");
    assert_eq!(off.status(), 404);
    let said: Value = off.json().await.expect("JSON");
    assert!(said["error"].as_str().unwrap_or("").contains("--watch"));
}

#[tokio::test]
async fn a_10_mb_or_malformed_message_passes_whole_and_the_feed_keeps_its_size_only() {
    let (url, seen) = upstream().await;
    let bridge = Bridge::start_http(
        &[
            "--watch",
            "--allow-origin",
            PAGE,
            "--max-body-bytes",
            "16000000",
        ],
        &url,
    )
    .await;
    let big = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/big\",\"params\":{{\"x\":\"{}\"}}}}",
        "a".repeat(10_000_000)
    );
    let sent = bridge
        .client
        .post(bridge.url.clone())
        .header("content-type", "application/json")
        .header("accept", common::ACCEPT)
        .body(big.clone().into_bytes())
        .send()
        .await
        .expect("big");
    let status = sent.status();
    let said = sent.text().await.unwrap_or_default();
    assert_eq!(status, 202, "{said}");
    let garbage = bridge
        .client
        .post(bridge.url.clone())
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .expect("garbage");
    assert_eq!(garbage.status(), 202, "the upstream's answer, unaltered");
    assert_eq!(
        seen.lock().expect("lock").len(),
        2,
        "both reached the upstream"
    );
    let page = feed(&bridge, "?since=0").await;
    let bodies: Vec<&str> = page["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["body"].as_str())
        .collect();
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0], format!("[{} bytes, not kept]", big.len()));
    assert_eq!(bodies[1], "{not json");
}

#[tokio::test]
async fn a_host_that_disconnects_mid_stream_is_an_end_with_why() {
    let (url, _) = upstream().await;
    let bridge = Bridge::start_http(&["--watch", "--allow-origin", PAGE], &url).await;
    let mut events = call_tokyo(&bridge, 7).await;
    assert!(events.next().await.is_some(), "the first event passed");
    // The host goes away before the result.
    drop(events);
    let mut ended = None;
    for _ in 0..50 {
        let page = feed(&bridge, "?since=0").await;
        ended = page["events"]
            .as_array()
            .expect("events")
            .iter()
            .find(|e| e["kind"] == "end")
            .cloned();
        if ended.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ended = ended.expect("the feed says the exchange ended");
    assert_eq!(
        ended["error"], "the client closed the stream before it ended",
        "{ended}"
    );
}
