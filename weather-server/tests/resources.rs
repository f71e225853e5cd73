//! Resources, the prompt and completion over HTTP, in both eras: what a client lists, reads and
//! completes, with caching hints only in 2026-07-28.

mod support;

use serde_json::{Value, json};
use support::*;

/// Sends `method` with `params` in the legacy era (a session) and in the modern one; returns
/// both replies.
async fn both_eras(server: &TestServer, session: &str, method: &str, params: Value) -> [Value; 2] {
    let legacy = server
        .roundtrip(Some(session), &request(3, method, params.clone()))
        .await;
    let modern = server
        .modern(&modern_request(4, method, params))
        .await
        .reply();
    [response_for(&legacy, 3), modern]
}

#[tokio::test]
async fn the_server_declares_resources_prompts_and_completions() {
    let server = TestServer::start(&[]).await;
    let caps = server.modern(&discover(1)).await.reply()["result"]["capabilities"].clone();
    for cap in ["tools", "resources", "prompts", "completions", "logging"] {
        assert!(caps[cap].is_object(), "{cap} missing from {caps}");
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn resources_list_and_read_in_both_eras() {
    let server = TestServer::start(&[]).await;
    let session = server.open_session().await;
    let [legacy, modern] = both_eras(&server, &session, "resources/list", json!({})).await;
    for (reply, era) in [(&legacy, "legacy"), (&modern, "modern")] {
        let uris: Vec<&str> = reply["result"]["resources"]
            .as_array()
            .expect("resources")
            .iter()
            .filter_map(|r| r["uri"].as_str())
            .collect();
        assert_eq!(
            uris,
            [
                "weather://cities",
                "weather://icon.png",
                "ui://weather/card.html"
            ],
            "{era}"
        );
    }
    // get_weather's app, read like any resource: HTML of the Apps extension's MIME type.
    let card = json!({"uri": "ui://weather/card.html"});
    for reply in both_eras(&server, &session, "resources/read", card).await {
        let contents = &reply["result"]["contents"][0];
        assert_eq!(contents["mimeType"], "text/html;profile=mcp-app", "{reply}");
        let html = contents["text"].as_str().expect("html");
        assert!(html.contains("ui/initialize"), "{html}");
    }
    assert!(legacy["result"].get("ttlMs").is_none(), "{legacy}");
    assert!(modern["result"]["ttlMs"].as_u64().is_some(), "{modern}");
    assert_eq!(modern["result"]["cacheScope"], "public");

    let [legacy, modern] =
        both_eras(&server, &session, "resources/templates/list", json!({})).await;
    for reply in [&legacy, &modern] {
        assert_eq!(
            reply["result"]["resourceTemplates"][0]["uriTemplate"],
            "weather://city/{name}"
        );
    }

    let read = json!({"uri": "weather://city/Tokyo"});
    let [legacy, modern] = both_eras(&server, &session, "resources/read", read).await;
    for reply in [&legacy, &modern] {
        let contents = &reply["result"]["contents"][0];
        assert_eq!(contents["mimeType"], "application/json", "{reply}");
        let report: Value =
            serde_json::from_str(contents["text"].as_str().expect("text")).expect("JSON");
        assert_eq!(report["condition"], "Sunny");
    }
    assert_eq!(modern["result"]["ttlMs"], 60_000);
    assert!(legacy["result"].get("ttlMs").is_none());

    let icon = json!({"uri": "weather://icon.png"});
    let [_, modern] = both_eras(&server, &session, "resources/read", icon).await;
    assert_eq!(modern["result"]["contents"][0]["mimeType"], "image/png");
    assert!(modern["result"]["contents"][0]["blob"].is_string());

    let missing = json!({"uri": "weather://city/Atlantis"});
    let [legacy, modern] = both_eras(&server, &session, "resources/read", missing).await;
    // 2026-07-28 (SEP-2164): −32602 with the URI; before it, −32002.
    assert_eq!(legacy["error"]["code"], -32002, "{legacy}");
    assert_eq!(modern["error"]["code"], -32602, "{modern}");
    assert_eq!(modern["error"]["data"]["uri"], "weather://city/Atlantis");
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn the_prompt_and_completion_in_both_eras() {
    let server = TestServer::start(&[]).await;
    let session = server.open_session().await;
    let [legacy, modern] = both_eras(&server, &session, "prompts/list", json!({})).await;
    for reply in [&legacy, &modern] {
        let prompt = &reply["result"]["prompts"][0];
        assert_eq!(prompt["name"], "weather_report", "{reply}");
        assert_eq!(prompt["arguments"][0]["name"], "city");
        assert_eq!(prompt["arguments"][0]["required"], true);
    }
    let get = json!({"name": "weather_report", "arguments": {"city": "paris"}});
    let [legacy, modern] = both_eras(&server, &session, "prompts/get", get).await;
    for reply in [&legacy, &modern] {
        let messages = &reply["result"]["messages"];
        assert!(
            messages[0]["content"]["text"]
                .as_str()
                .is_some_and(|t| t.contains("Paris")),
            "{reply}"
        );
        assert_eq!(
            messages[1]["content"]["resource"]["uri"],
            "weather://city/Paris"
        );
    }
    let unknown = json!({"name": "weather_report", "arguments": {"city": "Atlantis"}});
    let [legacy, modern] = both_eras(&server, &session, "prompts/get", unknown).await;
    for reply in [&legacy, &modern] {
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
    }
    let complete = json!({
        "ref": {"type": "ref/prompt", "name": "weather_report"},
        "argument": {"name": "city", "value": "Lo"},
    });
    let [legacy, modern] = both_eras(&server, &session, "completion/complete", complete).await;
    for reply in [&legacy, &modern] {
        let values = &reply["result"]["completion"]["values"];
        assert!(
            values
                .as_array()
                .is_some_and(|v| v.contains(&json!("London"))),
            "{reply}"
        );
        assert_eq!(reply["result"]["completion"]["hasMore"], false);
    }
    server.stop().await.expect("clean shutdown");
}
