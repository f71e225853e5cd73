//! Resource updates on the server's clock (`--update-secs 1`): a 2025-11-25 session subscribes and
//! hears `notifications/resources/updated` on its GET stream; a 2026-07-28 client listens with
//! `subscriptions/listen` and hears them on that request's stream. Each wait is bounded.

mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::*;

/// The next message of `stream` that is a resource update, within `secs` seconds.
async fn next_update(stream: &mut MessageStream, secs: u64) -> Option<Value> {
    tokio::time::timeout(Duration::from_secs(secs), async {
        while let Some(message) = stream.next().await {
            if message["method"] == "notifications/resources/updated" {
                return Some(message);
            }
        }
        None
    })
    .await
    .ok()
    .flatten()
}

#[tokio::test]
async fn a_legacy_subscriber_hears_a_reports_update_on_its_get_stream() {
    let server = TestServer::start(&["--update-secs", "1"]).await;
    let session = server.open_session().await;
    let get = server.get_stream(&session).await.expect("GET stream");
    assert_eq!(get.status(), 200);
    let mut stream = MessageStream::new(get);

    let unknown = request(
        2,
        "resources/subscribe",
        json!({"uri": "weather://city/Atlantis"}),
    );
    let reply = response_for(&server.roundtrip(Some(&session), &unknown).await, 2);
    assert_eq!(reply["error"]["code"], -32002, "{reply}");

    let tokyo = request(
        3,
        "resources/subscribe",
        json!({"uri": "weather://city/Tokyo"}),
    );
    let reply = response_for(&server.roundtrip(Some(&session), &tokyo).await, 3);
    assert_eq!(reply["result"], json!({}), "{reply}");
    let update = next_update(&mut stream, 5)
        .await
        .expect("an update within 5 s");
    assert_eq!(update["params"]["uri"], "weather://city/Tokyo");

    // The report read now says when it was observed.
    let read = request(4, "resources/read", json!({"uri": "weather://city/Tokyo"}));
    let reply = response_for(&server.roundtrip(Some(&session), &read).await, 4);
    let report: Value = serde_json::from_str(
        reply["result"]["contents"][0]["text"]
            .as_str()
            .expect("text"),
    )
    .expect("JSON");
    assert!(
        report["observedAt"].as_u64().is_some_and(|t| t > 0),
        "{report}"
    );

    let stop = request(
        5,
        "resources/unsubscribe",
        json!({"uri": "weather://city/Tokyo"}),
    );
    let reply = response_for(&server.roundtrip(Some(&session), &stop).await, 5);
    assert_eq!(reply["result"], json!({}), "{reply}");
    // An update already on its way may still arrive; after that, none.
    let _ = next_update(&mut stream, 2).await;
    assert!(
        next_update(&mut stream, 3).await.is_none(),
        "an update after unsubscribe"
    );
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_modern_listener_hears_updates_of_the_reports_it_asked_for_only() {
    let server = TestServer::start(&["--update-secs", "1"]).await;
    let listen = modern_request(
        1,
        "subscriptions/listen",
        json!({"notifications": {"resourceSubscriptions": [
            "weather://city/Paris", "weather://cities", "weather://city/Atlantis"
        ]}}),
    );
    let response = server.modern_post(&listen).send().await.expect("listen");
    assert_eq!(response.status(), 200);
    let mut stream = MessageStream::new(response);
    let ack = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("an acknowledgment within 5 s")
        .expect("a message");
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    // What the server can tell: the city it has; not one it lacks.
    let accepted = &ack["params"]["notifications"]["resourceSubscriptions"];
    assert_eq!(
        accepted,
        &json!(["weather://city/Paris", "weather://cities"]),
        "{ack}"
    );
    let update = next_update(&mut stream, 5)
        .await
        .expect("an update within 5 s");
    assert_eq!(update["params"]["uri"], "weather://city/Paris");
    // The list of cities never changes: only Paris is ever updated.
    for _ in 0..2 {
        let next = next_update(&mut stream, 5).await.expect("another update");
        assert_eq!(next["params"]["uri"], "weather://city/Paris");
    }
    drop(stream);
    server.stop().await.expect("clean shutdown");
}
