//! The committed fixtures under `tests/fixtures/` (repository root) are what this server really
//! lists and returns, so the app's offline-model tests, which `include_str!` them, cannot drift
//! from the server.
//!
//! - `weather-tools.json`: the `tools` of `tools/list` at `/mcp`;
//! - `calc-tools.json`: the `tools` of `tools/list` at `/calc`;
//! - `packing-tools.json`: the `tools` of `tools/list` at `/packing`;
//! - `weather-conditions.json`: every `condition` a `get_weather` call can return (one call per
//!   city in the server's table, distinct values in table order).
//!
//! After changing a tool or the city table, regenerate them with
//! `UPDATE_FIXTURES=1 cargo test -p weather-server --test fixtures` and commit the result.

mod support;

use std::path::PathBuf;

use serde_json::{Value, json};
use support::*;
use weather_server::handlers::{cities::CITIES, units::Units, weather::weather_result};

const REGENERATE: &str = "UPDATE_FIXTURES=1 cargo test -p weather-server --test fixtures";

fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name)
}

/// Compares `actual` with the committed fixture value for value, or rewrites the fixture when
/// `UPDATE_FIXTURES` is set.
fn check_fixture(name: &str, actual: &Value) {
    let path = fixture_path(name);
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        let text = serde_json::to_string_pretty(actual).expect("serialize fixture") + "\n";
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "read {}: {e}; create it with `{REGENERATE}`",
            path.display()
        )
    });
    let committed: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}; regenerate with `{REGENERATE}`", name));
    assert!(
        committed == *actual,
        "tests/fixtures/{name} differs from what the server returns; regenerate with \
         `{REGENERATE}` and commit it.\nserver: {}",
        serde_json::to_string_pretty(actual).unwrap_or_default()
    );
}

/// The `tools` array of `tools/list` at `endpoint`, over real HTTP to the in-process server.
async fn listed_tools(endpoint: &Endpoint) -> Value {
    let session = endpoint.open_session().await;
    let messages = endpoint
        .roundtrip(Some(&session), &request(2, "tools/list", json!({})))
        .await;
    let result = &response_for(&messages, 2)["result"];
    assert!(
        result.get("nextCursor").is_none(),
        "the fixture holds one page of tools: {result}"
    );
    result["tools"].clone()
}

#[tokio::test]
async fn tool_fixtures_equal_what_the_servers_list() {
    let server = TestServer::start(&[]).await;
    let weather = listed_tools(&server).await;
    let calc = listed_tools(&server.calc()).await;
    let packing = listed_tools(&server.packing()).await;
    server.stop().await.expect("clean shutdown");

    assert_eq!(weather[0]["name"], "get_weather", "{weather}");
    assert_eq!(calc.as_array().map(Vec::len), Some(4), "{calc}");
    check_fixture("weather-tools.json", &weather);
    check_fixture("calc-tools.json", &calc);
    check_fixture("packing-tools.json", &packing);
}

#[test]
fn condition_fixture_lists_every_condition_get_weather_returns() {
    let mut conditions: Vec<String> = Vec::new();
    for city in CITIES {
        let result = serde_json::to_value(weather_result(&city.full_name(), Units::Celsius))
            .expect("serialize result");
        assert_eq!(result["isError"], false, "{}: {result}", city.name);
        let condition = result["structuredContent"]["condition"]
            .as_str()
            .unwrap_or_else(|| panic!("{}: no condition in {result}", city.name))
            .to_owned();
        // The text block the host hands the model is the condition itself.
        assert_eq!(
            result["content"][0]["text"], condition,
            "{}: {result}",
            city.name
        );
        if !conditions.contains(&condition) {
            conditions.push(condition);
        }
    }
    check_fixture("weather-conditions.json", &json!(conditions));
}
