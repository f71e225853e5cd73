//! Replay and edit-and-replay from the message log, in headless Chromium against the real
//! weather server, in both eras: the replay goes through the live connection (the legacy
//! session; 2026-07-28's headers rebuilt from the edited body), joins the log and the record,
//! and is not taken for a step of the diagrams.

use leptos::prelude::*;
use mcp_flow::diagram::Row;
use mcp_flow::flow::gate::Mode;
use mcp_flow::mcp::era::EraChoice;
use mcp_flow::mcp::record::Exchange;
use mcp_flow::ui::Controller;
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

use crate::common;
use common::*;

/// Opens the replay panel on the log's `tools/call` line of the shown run.
fn open_replay_of_the_call(root: &HtmlElement) {
    let rows = root.query_selector_all("#mf-log-rows tr").unwrap();
    for i in 0..rows.length() {
        let row: HtmlElement = rows.item(i).unwrap().unchecked_into();
        let what = row.text_content().unwrap_or_default();
        if what.contains("POST tools/call") && !what.contains("replay of") {
            let button: HtmlElement = row
                .query_selector(".mf-replay-open")
                .unwrap()
                .expect("a POSTed request can be replayed")
                .unchecked_into();
            button.click();
            return;
        }
    }
    panic!("no tools/call line in the log");
}

/// Replaces the panel's body as a user typing would.
fn edit_body(root: &HtmlElement, edit: impl FnOnce(&mut Value)) {
    let area: web_sys::HtmlTextAreaElement = root
        .query_selector("#mf-replay-body")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let mut body: Value = serde_json::from_str(&area.value()).expect("the panel shows JSON");
    edit(&mut body);
    area.set_value(&body.to_string());
    area.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
}

fn replays(ctl: Controller) -> Vec<Exchange> {
    ctl.run.with_untracked(|r| {
        r.mcp
            .exchanges
            .iter()
            .filter(|x| x.replay.is_some())
            .cloned()
            .collect()
    })
}

fn header(x: &Exchange, name: &str) -> Option<String> {
    x.request_headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.clone())
}

#[wasm_bindgen_test]
async fn a_legacy_request_is_replayed_in_its_session_as_it_was_and_edited() {
    let ctl = playing(
        Live::Sse.url().to_owned(),
        "What's the weather in Tokyo?",
        EraChoice::Legacy,
    );
    let (root, _handle) = mount(ctl);
    open_panel(&root, "#mf-message-log", "#mf-log-rows").await;
    ctl.start(Mode::Play);
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    sleep(50).await;
    let call_row = ctl
        .run
        .with_untracked(|r| r.row(Row::CallTool).map(|r| r.mcp.clone()));

    open_replay_of_the_call(&root);
    sleep(50).await;
    let notes = text(&root, "#mf-replay-notes");
    assert!(notes.contains("The id is replaced"), "{notes}");
    let session = ctl.run.with_untracked(|r| {
        r.mcp.exchanges[0]
            .response_header("mcp-session-id")
            .map(str::to_owned)
    });
    let session = session.expect("the weather server gives a session");
    assert!(text(&root, "#mf-replay-headers").contains(&session));
    click(&root, "#mf-replay-send");
    assert!(until(10_000, || replays(ctl).iter().any(|x| !x.in_flight())).await);
    sleep(50).await;
    let first = &replays(ctl)[0];
    assert_eq!(header(first, "mcp-session-id").as_deref(), Some(&*session));
    let answer = first.rpc_response().expect("the replay was answered");
    assert_eq!(answer["result"]["structuredContent"]["location"], "Tokyo");
    assert!(!first.replay.unwrap().edited);
    assert!(text(&root, "#mf-replay-status").contains("Sent"));
    let log = text(&root, "#mf-log-rows");
    assert!(log.contains("(replay of run 1 #"), "{log}");
    assert_eq!(
        ctl.run
            .with_untracked(|r| r.row(Row::CallTool).map(|r| r.mcp.clone())),
        call_row,
        "a replay is not a step of the diagram"
    );

    // Edited: another city the server does not know comes back as the tool's error.
    edit_body(&root, |b| {
        b["params"]["arguments"]["location"] = "Atlantis".into()
    });
    sleep(50).await;
    click(&root, "#mf-replay-send");
    assert!(
        until(10_000, || replays(ctl).len() == 2
            && !replays(ctl)[1].in_flight())
        .await
    );
    sleep(50).await;
    let second = &replays(ctl)[1];
    assert!(second.replay.unwrap().edited);
    assert!(second.tool_failed(), "{:?}", second.rpc_response());
    assert!(
        root.query_selector("#mf-log-rows tr[data-replay='true'][data-outcome='tool-error']")
            .unwrap()
            .is_some()
    );
    // The replays are in the record the exports are made from.
    let recorded = ctl
        .run
        .with_untracked(|r| serde_json::to_string(r).unwrap());
    assert!(
        recorded.contains("\"replay\":{\"run\":1"),
        "the JSON recording keeps them"
    );

    // A body that is not JSON is refused at once, and nothing is sent.
    let area: web_sys::HtmlTextAreaElement = root
        .query_selector("#mf-replay-body")
        .unwrap()
        .unwrap()
        .unchecked_into();
    area.set_value("{\"jsonrpc\": ");
    area.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    sleep(50).await;
    assert!(text(&root, "#mf-replay-error").starts_with("The body is not JSON"));
    let send: web_sys::HtmlButtonElement = root
        .query_selector("#mf-replay-send")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert!(send.disabled());

    // Over 1 MiB: refused with the size, before anything is sent.
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(1024 * 1024)
    );
    area.set_value(&huge);
    area.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    sleep(50).await;
    let error = text(&root, "#mf-replay-error");
    assert!(error.contains("at most 1 MiB"), "{error}");
    assert!(send.disabled());
    assert_eq!(replays(ctl).len(), 2, "nothing more was sent");
}

#[wasm_bindgen_test]
async fn a_modern_replay_rebuilds_its_headers_from_the_edited_body() {
    let ctl = playing(
        Live::Sse.url().to_owned(),
        "What's the weather in Tokyo?",
        EraChoice::Modern,
    );
    let (root, _handle) = mount(ctl);
    open_panel(&root, "#mf-message-log", "#mf-log-rows").await;
    ctl.start(Mode::Play);
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    sleep(50).await;
    open_replay_of_the_call(&root);
    sleep(50).await;
    // `units` is mirrored in the Mcp-Param-Units header (x-mcp-header): the edit adds it.
    edit_body(&root, |b| {
        b["params"]["arguments"]["units"] = "fahrenheit".into();
    });
    sleep(50).await;
    let notes = text(&root, "#mf-replay-notes");
    assert!(
        notes.contains("Mcp-Param-Units: not sent before → fahrenheit"),
        "said before sending: {notes}"
    );
    click(&root, "#mf-replay-send");
    assert!(until(10_000, || replays(ctl).iter().any(|x| !x.in_flight())).await);
    let x = &replays(ctl)[0];
    assert_eq!(header(x, "mcp-param-units").as_deref(), Some("fahrenheit"));
    assert_eq!(header(x, "mcp-method").as_deref(), Some("tools/call"));
    let answer = x.rpc_response().expect("answered");
    assert_eq!(
        answer["result"]["structuredContent"]["units"], "fahrenheit",
        "the server took the headers as matching the body: {answer}"
    );

    // The run ends: the panel cannot send any more.
    assert!(ctl.can_replay());
    ctl.end_run(None);
    sleep(50).await;
    assert!(!ctl.can_replay());
    assert!(
        text(&root, "#mf-replay-error").contains("live connection"),
        "{}",
        text(&root, "#mf-replay")
    );
}
