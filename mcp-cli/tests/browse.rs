//! `--browse` against the weather server, natively, in both eras: every step from the last
//! one's answer (the template completed, then read with the first value; the prompt got with a
//! completed city), and the caching hints only in 2026-07-28.

mod support;

use std::rc::Rc;

use mcp_cli::http::{Native, TokioClock};
use mcp_cli::session;
use mcp_flow_client::client::McpClient;
use mcp_flow_client::era::EraChoice;
use mcp_flow_client::record::shared_log;

async fn browse(url: &str, era: EraChoice) -> Vec<String> {
    let (_log, recorder) = shared_log();
    let client = McpClient::new(
        Native::new().expect("reqwest"),
        Rc::new(TokioClock::new()),
        url,
        recorder,
    );
    session::connect(&client, era).await.expect("connect");
    let said = session::browse(&client).await.expect("browse");
    client.close().await.expect("close");
    said
}

fn line<'a>(said: &'a [String], start: &str) -> &'a str {
    said.iter()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting {start:?} in {said:#?}"))
}

#[tokio::test(flavor = "current_thread")]
async fn every_step_follows_from_the_last_answer_in_both_eras() {
    let url = support::weather_server(&[]);
    for (era, hints) in [
        (EraChoice::Modern, "fresh for 300000 ms, public"),
        (EraChoice::Legacy, "no caching hints"),
    ] {
        let said = browse(&url, era).await;
        assert!(
            // The cities, the icon and get_weather's app.
            line(&said, "resources/list: 3 resource(s), ").ends_with(hints),
            "{era:?}: {said:#?}"
        );
        line(&said, "resources/read weather://cities: ");
        line(&said, "completion/complete name: ");
        // The table's first city, completed from nothing typed, read through the template.
        let read = line(&said, "resources/read weather://city/Tokyo: ");
        assert!(read.contains("Sunny"), "{read}");
        let got = line(&said, "prompts/get weather_report: 2 message(s): ");
        assert!(got.contains("Tokyo"), "{got}");
    }
}
