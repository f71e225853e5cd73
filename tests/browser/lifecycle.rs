//! A run's lifecycle in headless Chromium, against a weather server that keeps a journal of
//! every request it received (`--journal`) and allows only two sessions (`--max-sessions 2`):
//! ending a run (Restart, Import, a new run) aborts what it was doing, sends nothing more, and
//! closes its session.

use leptos::prelude::*;
use mcp_flow::diagram::{Lang, Row};
use mcp_flow::export::recording::{Context, Recording};
use mcp_flow::flow::gate::Mode;
use mcp_flow::flow::host::Approval;
use mcp_flow::mcp::era::EraChoice;
use mcp_flow::record::run::{RowStatus, Run};
use mcp_flow::ui::Controller;
use serde_json::Value;
use wasm_bindgen_test::*;

use crate::common;
use common::*;

/// Every request the server received so far.
async fn journal() -> Vec<Value> {
    let url = Live::Lifecycle.url().to_owned().replace("/mcp", "/journal");
    let response = gloo_net::http::Request::get(&url)
        .send()
        .await
        .expect("the journal answers");
    let text = response.text().await.expect("the journal's body");
    serde_json::from_str(&text).expect("the journal is JSON")
}

/// The journal entries of one session, as (HTTP method, JSON-RPC method).
fn of_session(entries: &[Value], session: &str) -> Vec<(String, String)> {
    entries
        .iter()
        .filter(|e| e["session"] == session)
        .map(|e| {
            (
                e["http_method"].as_str().unwrap_or("").to_owned(),
                e["rpc_method"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

/// The session the run's initialize opened.
fn session_of(run: &Run) -> String {
    run.mcp
        .exchanges
        .iter()
        .find_map(|x| x.response_header("mcp-session-id").map(str::to_owned))
        .expect("the run opened a session")
}

/// POSTs the run sent with its session id.
fn posts_with_session(run: &Run, session: &str) -> usize {
    run.mcp
        .exchanges
        .iter()
        .filter(|x| {
            x.method == "POST"
                && x.request_headers
                    .iter()
                    .any(|(k, v)| k.eq_ignore_ascii_case("mcp-session-id") && v == session)
        })
        .count()
}

/// A player in the legacy era: its sessions are what an ended run must close.
fn controller(speed: Option<f64>, approval: Approval) -> Controller {
    let ctl = Controller::new(
        Live::Lifecycle.url().to_owned(),
        "What's the weather in Tokyo?".into(),
        Lang::En,
        Mode::Play,
        speed,
        approval,
    );
    ctl.settings.era.set(EraChoice::Legacy);
    ctl
}

async fn until_row(ctl: Controller, row: Row, status: RowStatus) {
    assert!(
        until(20_000, || ctl
            .run
            .with_untracked(|r| r.status(row) == status))
        .await,
        "{row} never became {status:?}"
    );
}

/// The old run's session: exactly the requests it had sent before it ended, then one DELETE,
/// and nothing after.
async fn assert_closed_and_quiet(session: &str, posts_before_end: usize) {
    // Give a run that did not stop time to show itself: at 1× each row waits 0.9 s, so a run
    // still going sends its next request within the window.
    sleep(2_500).await;
    let seen = of_session(&journal().await, session);
    let (posts, rest): (Vec<_>, Vec<_>) = seen.iter().partition(|(m, _)| m == "POST");
    assert_eq!(
        posts.len(),
        posts_before_end,
        "the ended run sent more requests: {seen:?}"
    );
    // Besides its POSTs: the GET stream it opened once connected, and the DELETE.
    let rest: Vec<_> = rest.into_iter().filter(|(m, _)| m != "GET").collect();
    assert_eq!(rest, [&("DELETE".to_owned(), String::new())], "{seen:?}");
    assert_eq!(
        seen.last().map(|(m, _)| m.as_str()),
        Some("DELETE"),
        "nothing after the DELETE: {seen:?}"
    );
}

#[wasm_bindgen_test]
async fn restart_during_a_slow_play_run_stops_the_old_run_and_closes_its_session() {
    let ctl = controller(Some(1.0), Approval::Auto);
    let (_root, _handle) = mount(ctl);
    ctl.play();
    until_row(ctl, Row::Initialized, RowStatus::Done).await;
    let old = ctl.run.get_untracked();
    let session = session_of(&old);
    let sent = posts_with_session(&old, &session);

    ctl.start(Mode::Play);
    assert!(
        ctl.run.with_untracked(|r| r.mcp.exchanges.is_empty()),
        "the new run starts from an empty record"
    );
    assert_closed_and_quiet(&session, sent).await;
    // Nothing of the old run reached the new record.
    ctl.run.with_untracked(|r| {
        assert!(
            r.mcp
                .exchanges
                .iter()
                .all(|x| !x.request_headers.iter().any(|(_, v)| v == &session)),
            "an old-session exchange in the new record"
        );
    });
    ctl.end_run(None);
}

#[wasm_bindgen_test]
async fn ten_restarts_leave_room_for_a_new_run_under_a_two_session_cap() {
    let ctl = controller(Some(4.0), Approval::Auto);
    let (root, _handle) = mount(ctl);
    let mut sessions = Vec::new();
    for _ in 0..10 {
        ctl.start(Mode::Play);
        until_row(ctl, Row::InitializeResult, RowStatus::Done).await;
        sessions.push(ctl.run.with_untracked(session_of));
    }
    ctl.set_speed(None);
    ctl.start(Mode::Play);
    assert!(
        until(20_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await,
        "the eleventh run did not finish: {}",
        text(&root, "#mf-error")
    );
    let entries = journal().await;
    for session in &sessions {
        let seen = of_session(&entries, session);
        assert!(
            seen.iter().any(|(m, _)| m == "DELETE"),
            "session {session} was not closed: {seen:?}"
        );
    }
    ctl.end_run(None);
}

#[wasm_bindgen_test]
async fn restart_during_a_pending_approval_closes_the_dialog_and_the_new_run_asks_again() {
    let ctl = controller(None, Approval::Ask);
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(until_some(20_000, ctl.dialogs.dialog).await);
    let old = ctl.run.get_untracked();
    let session = session_of(&old);
    let sent = posts_with_session(&old, &session);

    ctl.start(Mode::Play);
    assert!(
        ctl.dialogs.dialog.with_untracked(Option::is_none),
        "the dialog closes"
    );
    sleep(30).await;
    assert!(root.query_selector("[role=dialog]").unwrap().is_none());
    // The new run gets to its own question; answering it finishes the new run.
    assert!(until_some(20_000, ctl.dialogs.dialog).await);
    ctl.decide(mcp_flow::flow::host::Consent::Once);
    assert!(until(20_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    assert_eq!(
        text(&root, "#mf-answer"),
        "The weather in Tokyo is sunny, 22 °C."
    );
    assert_closed_and_quiet(&session, sent).await;
    ctl.end_run(None);
}

#[wasm_bindgen_test]
async fn import_during_a_run_ends_it_and_shows_only_the_recording() {
    let ctl = controller(Some(1.0), Approval::Auto);
    let (root, _handle) = mount(ctl);
    ctl.play();
    until_row(ctl, Row::Initialized, RowStatus::Done).await;
    let old = ctl.run.get_untracked();
    let session = session_of(&old);
    let sent = posts_with_session(&old, &session);
    let recording = Recording::new(
        &Run::new([Row::Question]),
        Context {
            created: "2026-11-30T00:00:00.000Z".into(),
            time_origin_ms: 0.0,
            server: "http://127.0.0.1:1/mcp",
            question: "recorded",
            lang: "en",
            llm: "recorded model",
        },
    );
    let shown = recording.run.clone();

    ctl.load_recording(recording);
    assert!(!ctl.running.get_untracked());
    assert_closed_and_quiet(&session, sent).await;
    assert_eq!(
        ctl.run.get_untracked(),
        shown,
        "nothing of the ended run reached the recording"
    );
    assert!(text(&root, "#mf-recording").contains("Recording of a run"));
}
