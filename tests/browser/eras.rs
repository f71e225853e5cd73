//! Both protocol eras in the page, against the weather server (which speaks both): a modern run
//! from real traffic, the server's question (Springfield) answered through the page's form in
//! each era, and the comparison of the eras.

use leptos::prelude::*;
use mcp_flow::diagram::{Lang, Row};
use mcp_flow::flow::gate::Mode;
use mcp_flow::flow::host::Approval;
use mcp_flow::mcp::era::{Era, EraChoice, Why};
use mcp_flow::record::run::RowStatus;
use mcp_flow::ui::{Compared, Controller};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlSelectElement};

use crate::common;
use common::*;

fn controller(question: &str, era: EraChoice) -> Controller {
    let ctl = Controller::new(
        Live::Sse.url().to_owned(),
        question.into(),
        Lang::En,
        Mode::Play,
        None,
        Approval::Auto,
    );
    ctl.settings.era.set(era);
    ctl
}

fn root_era() -> Option<String> {
    web_sys::window()?
        .document()?
        .document_element()?
        .get_attribute("data-era")
}

#[wasm_bindgen_test]
async fn auto_finds_the_modern_era_and_draws_its_diagrams() {
    let ctl = controller("What's the weather in Tokyo?", EraChoice::Auto);
    let (root, _handle) = mount(ctl);
    ctl.start(Mode::Play);
    assert!(
        until(20_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await,
        "no answer: {}",
        text(&root, "#mf-error")
    );
    sleep(50).await;
    assert_eq!(
        text(&root, "#mf-answer"),
        "The weather in Tokyo is sunny, 22 °C."
    );
    assert_eq!(root_era().as_deref(), Some("modern"));
    ctl.run.with_untracked(|r| {
        let era = r.era.clone().expect("era");
        assert_eq!((era.era, era.why), (Era::Modern, Why::Discovered));
        assert_eq!(r.status(Row::Initialize), RowStatus::Pending);
        // No session: no request carried one, and the tools/call carried the metadata headers.
        let call = &r.mcp.exchanges[r.row(Row::CallTool).unwrap().mcp[0]];
        let header = |n: &str| {
            call.request_headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(n))
                .map(|(_, v)| v.clone())
        };
        assert_eq!(header("Mcp-Method").as_deref(), Some("tools/call"));
        assert_eq!(header("Mcp-Name").as_deref(), Some("get_weather"));
        assert_eq!(header("Mcp-Session-Id"), None);
    });
    // The modern diagrams are drawn: no initialize row, a discover row that ran.
    assert!(root.query_selector("[data-row='d1-1']").unwrap().is_none());
    assert_eq!(state(&root, "d1-discover"), "done");
    assert!(text(&root, "#mf-era-line").contains("MCP 2026-07-28"));
    ctl.end_run(None);
}

/// Plays "What's the weather in Springfield?" in `era` up to the server's question (its form
/// shown).
async fn asked_which_springfield(era: EraChoice) -> (Controller, HtmlElement, impl Sized) {
    let ctl = controller("What's the weather in Springfield?", era);
    let (root, handle) = mount(ctl);
    ctl.start(Mode::Play);
    assert!(
        until(20_000, || ctl.dialogs.form.with_untracked(Option::is_some)).await,
        "{era:?}: no form; error: {}",
        text(&root, "#mf-error")
    );
    sleep(50).await;
    (ctl, root, handle)
}

/// Plays "What's the weather in Springfield?" in `era`, answers the form with Illinois, and
/// returns the answer.
async fn springfield(era: EraChoice) -> String {
    let (ctl, root, handle) = asked_which_springfield(era).await;
    assert!(text(&root, "#mf-form-title").contains("The server asks"));
    let select: HtmlSelectElement = root
        .query_selector(".mf-form select")
        .unwrap()
        .expect("a choice of places")
        .unchecked_into();
    // Send with nothing chosen: the page says what is missing and sends nothing.
    let send: HtmlElement = root
        .query_selector("#mf-form-send")
        .unwrap()
        .unwrap()
        .unchecked_into();
    send.click();
    sleep(30).await;
    assert!(text(&root, "#mf-form-problem").contains("required"));
    assert!(
        ctl.dialogs.form.with_untracked(Option::is_some),
        "the form stays open"
    );
    let illinois = (0..select.length())
        .filter_map(|i| select.item(i))
        .filter_map(|o| o.get_attribute("value"))
        .find(|v| v.contains("Illinois"))
        .expect("Illinois is offered");
    select.set_value(&illinois);
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    send.click();
    assert!(
        until(20_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await,
        "{era:?}: no answer; error: {}",
        text(&root, "#mf-error")
    );
    let answer = ctl
        .run
        .with_untracked(|r| r.answer().map(str::to_owned))
        .unwrap_or_default();
    ctl.run.with_untracked(|r| {
        for row in [
            Row::Elicit,
            Row::ElicitAsk,
            Row::ElicitAnswer,
            Row::ElicitReply,
        ] {
            assert_eq!(r.status(row), RowStatus::Done, "{era:?} {row}");
        }
    });
    ctl.end_run(None);
    drop(handle);
    root.remove();
    answer
}

#[wasm_bindgen_test]
async fn the_servers_question_is_answered_through_the_form_in_both_eras() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let answer = springfield(era).await;
        assert!(
            answer.contains("Springfield, Illinois") || answer.contains("Springfield"),
            "{era:?}: {answer}"
        );
        assert!(!answer.contains("Sorry"), "{era:?}: {answer}");
    }
}

#[wasm_bindgen_test]
async fn the_comparison_runs_both_eras_and_shows_their_figures() {
    let ctl = controller("What's the weather in Tokyo?", EraChoice::Auto);
    let (root, _handle) = mount(ctl);
    ctl.compare();
    assert!(
        until(40_000, || ctl.comparison.compared.with_untracked(
            |c| matches!(c, Some(Compared::Done(_)) | Some(Compared::Failed(..)))
        ))
        .await
    );
    let Some(Compared::Done(both)) = ctl.comparison.compared.get_untracked() else {
        panic!("{:?}", ctl.comparison.compared.get_untracked());
    };
    let [legacy, modern] = *both;
    assert_eq!((legacy.era, modern.era), (Era::Legacy, Era::Modern));
    assert!(legacy.methods.iter().any(|m| m == "initialize"));
    assert!(!modern.methods.iter().any(|m| m == "initialize"));
    assert!(modern.methods.iter().any(|m| m == "server/discover"));
    assert!(
        legacy.requests > modern.requests,
        "legacy {legacy:?} vs modern {modern:?}"
    );
    sleep(50).await;
    let table = text(&root, "#mf-compare-table");
    assert!(
        table.contains("MCP 2025-11-25") && table.contains("MCP 2026-07-28"),
        "{table}"
    );
    assert_eq!(
        ctl.run.with_untracked(|r| r.era.as_ref().map(|d| d.era)),
        Some(Era::Modern),
        "the modern run is the one shown"
    );
    // The settings were not changed by the comparison.
    assert_eq!(ctl.settings.era.get_untracked(), EraChoice::Auto);
    ctl.end_run(None);
}

/// Stop while the server's question waits for the user (Springfield): the form goes, no row is
/// left active, and the run ends. In 2025-11-25 the question came on the open tools/call stream,
/// so that request is cancelled with notifications/cancelled; in 2026-07-28 nothing is in flight
/// (the question came as a result), so nothing is sent and no retry goes out.
async fn stopped_while_the_user_answers(era: EraChoice) {
    let (ctl, root, _handle) = asked_which_springfield(era).await;
    click(&root, "#mf-stop");
    assert!(
        until(10_000, || !ctl.running.get_untracked()).await,
        "{era:?}: the run ended"
    );
    sleep(50).await;
    assert!(
        root.query_selector("#mf-form-title").unwrap().is_none(),
        "{era:?}: the form went"
    );
    let (active, calls, cancels, answer) = ctl.run.with_untracked(|r| {
        let active = r
            .rows
            .iter()
            .filter(|x| x.status == RowStatus::Active)
            .map(|x| x.id.id())
            .collect::<Vec<_>>();
        let count = |m: &str| {
            r.mcp
                .exchanges
                .iter()
                .filter(|x| x.rpc_method.as_deref() == Some(m))
                .count()
        };
        (
            active,
            count("tools/call"),
            count("notifications/cancelled"),
            r.answer().map(str::to_owned),
        )
    });
    assert!(active.is_empty(), "{era:?}: rows left active: {active:?}");
    assert_eq!(answer, None, "{era:?}");
    assert_eq!(calls, 1, "{era:?}: no retry went out");
    // The row that waited for the user says why it ended.
    let stopped: Vec<(&str, String)> = ctl.run.with_untracked(|r| {
        r.rows
            .iter()
            .filter_map(|x| Some((x.id.id(), x.error.clone()?)))
            .collect()
    });
    assert!(
        stopped.iter().any(|(_, e)| e.contains("you stopped")),
        "{era:?}: the rows say {stopped:?}"
    );
    match era {
        EraChoice::Modern => assert_eq!(cancels, 0, "the closed stream is the cancellation"),
        _ => {
            assert_eq!(cancels, 1, "the open call was cancelled");
            assert_eq!(state(&root, "d2-7"), "failed");
        }
    }
}

#[wasm_bindgen_test]
async fn stop_while_the_user_answers_the_server_in_2025_11_25() {
    stopped_while_the_user_answers(EraChoice::Legacy).await;
}

#[wasm_bindgen_test]
async fn stop_while_the_user_answers_the_server_in_2026_07_28() {
    stopped_while_the_user_answers(EraChoice::Modern).await;
}
