//! The page against servers nobody here wrote, in every era setting: the official TypeScript SDK
//! v2 server and the official Python SDK 2.x server, each with a small `get_weather`. The tutorial'
//! Tokyo run completes in `auto`, `modern` and `legacy`; `auto` says which era it picked.

use leptos::prelude::*;
use mcp_flow::diagram::Row;
use mcp_flow::flow::gate::Mode;
use mcp_flow::mcp::era::{Era, EraChoice};
use mcp_flow::record::run::RowStatus;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

use crate::common;
use common::*;

/// Mounts the page of `ctl`, plays its run and waits for the answer; `what` names the run in a
/// failure, which says the first row that failed.
async fn play_to_answer(
    ctl: mcp_flow::ui::Controller,
    what: String,
) -> (web_sys::HtmlElement, impl Sized) {
    let (root, handle) = mount(ctl);
    ctl.start(Mode::Play);
    let answered = until(20_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await;
    let error = ctl
        .run
        .with_untracked(|r| r.first_error().map(|(row, e)| format!("{row}: {e}")));
    assert!(answered, "{what}: no answer; error: {error:?}");
    (root, handle)
}

/// Plays the Tokyo run against `url` in `era` and returns the era the run spoke.
async fn tokyo(url: &str, era: EraChoice) -> Era {
    let ctl = playing(url.to_owned(), "What's the weather in Tokyo?", era);
    let (root, handle) = play_to_answer(ctl, format!("{url} {era:?}")).await;
    assert_eq!(
        ctl.run.with_untracked(|r| r.answer().map(str::to_owned)),
        Some("The weather in Tokyo is sunny.".to_owned()),
        "{url} {era:?}"
    );
    let spoke = ctl
        .run
        .with_untracked(|r| r.era.clone())
        .expect("the run knows its era");
    web_sys::console::log_1(&JsValue::from_str(&format!(
        "INTEROP {url} era={}: spoke {} ({})",
        era.id(),
        spoke.era.id(),
        spoke.why.describe()
    )));
    let handshake = ctl.run.with_untracked(|r| r.status(Row::Initialize));
    match spoke.era {
        Era::Modern => assert_eq!(handshake, RowStatus::Pending, "no initialize in 2026-07-28"),
        Era::Legacy => assert_eq!(handshake, RowStatus::Done),
    }
    ctl.end_run(None);
    drop(handle);
    root.remove();
    spoke.era
}

async fn every_era(url: &str) {
    assert_eq!(
        tokyo(url, EraChoice::Auto).await,
        Era::Modern,
        "both SDKs speak 2026-07-28, so auto picks it"
    );
    assert_eq!(tokyo(url, EraChoice::Modern).await, Era::Modern);
    assert_eq!(tokyo(url, EraChoice::Legacy).await, Era::Legacy);
}

#[wasm_bindgen_test]
async fn the_typescript_sdk_server_in_every_era() {
    every_era(Live::TsSdk.url()).await;
}

#[wasm_bindgen_test]
async fn the_python_sdk_server_in_every_era() {
    every_era(Live::PySdk.url()).await;
}

/// The Python SDK server's `shared_roots`, whose parameter the SDK fills by asking the client for
/// its roots, in `era`: the roots in the settings go back, drawn on rows Roots (and RootsReply in
/// 2025-11-25), and the tool's result names them.
async fn roots_asked(era: EraChoice, share: bool) {
    use mcp_flow::record::payload::Payload;
    let url = Live::PySdk.url();
    let ctl = playing(url.to_owned(), "Which roots does the client share?", era);
    ctl.settings.roots.set("file:///home/me/work Work".into());
    let (root, handle) = mount(ctl);
    ctl.start(Mode::Play);
    // The first time this server asks, the user is asked, and the dialog names the server.
    assert!(
        until(20_000, || ctl.dialogs.roots.with_untracked(Option::is_some)).await,
        "{era:?}: the roots went out without asking"
    );
    let asked = ctl.dialogs.roots.get_untracked().map(|q| q.server);
    let origin = url.split("/mcp").next().map(str::to_owned);
    assert_eq!(asked, origin, "{era:?}");
    ctl.share_roots(share);
    assert!(
        until(20_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await,
        "{era:?}: no answer"
    );
    let result = ctl
        .run
        .with_untracked(|r| r.payload(Row::CallToolResult).cloned());
    let expected = if share {
        "The client shares file:///home/me/work."
    } else {
        "The client shares no roots."
    };
    match result {
        Some(Payload::ToolResult { text, is_error, .. }) => {
            assert!(!is_error, "{era:?}: {text}");
            assert_eq!(text, expected, "{era:?}");
        }
        other => panic!("{era:?}: {other:?}"),
    }
    let (roots, reply) = ctl
        .run
        .with_untracked(|r| (r.status(Row::Roots), r.status(Row::RootsReply)));
    assert_eq!(roots, RowStatus::Done, "{era:?}");
    assert_eq!(reply, RowStatus::Done, "{era:?}");
    assert_eq!(state(&root, "d2-roots"), "done", "{era:?}: drawn as done");
    ctl.end_run(None);
    drop(handle);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_python_sdk_servers_roots_request_is_answered_from_the_settings_in_both_eras() {
    roots_asked(EraChoice::Legacy, true).await;
    roots_asked(EraChoice::Modern, false).await;
}

/// The Python SDK server's `packing_tip`, whose parameter the SDK fills by sampling the client's
/// model, in `era`: the request is shown (and sent to the model unchanged), the offline model's
/// answer is shown and edited, and the edited text is what the tool's result quotes.
async fn sampling_asked(era: EraChoice) {
    use mcp_flow::flow::host::SamplingDialog;
    use mcp_flow::record::payload::Payload;
    let url = Live::PySdk.url();
    let ctl = playing(url.to_owned(), "Give me a packing tip for Tokyo", era);
    let (root, handle) = mount(ctl);
    ctl.start(Mode::Play);
    let error = move || {
        ctl.run
            .with_untracked(|r| r.first_error().map(|(row, e)| format!("{row}: {e}")))
    };
    let shown = |want_review: bool| {
        ctl.dialogs.sampling.with_untracked(|d| {
            matches!(
                (d, want_review),
                (Some(SamplingDialog::Review(_)), true)
                    | (Some(SamplingDialog::Approve { .. }), false)
            )
        })
    };
    assert!(
        until(20_000, || shown(true)
            && root
                .query_selector("#mf-sampling-send")
                .ok()
                .flatten()
                .is_some())
        .await,
        "{era:?}: no sampling request shown; error: {:?}",
        error()
    );
    assert!(text(&root, "#mf-sampling-limits").contains("60"), "{era:?}");
    let asked: web_sys::HtmlTextAreaElement = root
        .query_selector("#mf-sampling-msg-0")
        .unwrap()
        .expect("the message")
        .unchecked_into();
    assert_eq!(
        asked.value(),
        "The weather in Tokyo is Sunny. Write one packing tip."
    );
    click(&root, "#mf-sampling-send");
    assert!(
        until(20_000, || shown(false)
            && root
                .query_selector("#mf-sampling-answer")
                .ok()
                .flatten()
                .is_some())
        .await,
        "{era:?}: no answer shown; error: {:?}",
        error()
    );
    type_into(&root, "#mf-sampling-answer", "Pack sunglasses.");
    click(&root, "#mf-sampling-approve");
    let answered = until(20_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await;
    assert!(answered, "{era:?}: no answer; error: {:?}", error());
    let result = ctl
        .run
        .with_untracked(|r| r.payload(Row::CallToolResult).cloned());
    match result {
        Some(Payload::ToolResult { text, is_error, .. }) => {
            assert!(!is_error, "{era:?}: {text}");
            assert!(
                text.starts_with("Packing tip for Tokyo (from "),
                "{era:?}: {text}"
            );
            assert!(text.contains("edited by the user"), "{era:?}: {text}");
            assert!(text.ends_with(": Pack sunglasses."), "{era:?}: {text}");
        }
        other => panic!("{era:?}: {other:?}"),
    }
    for row in [
        "d2-sample",
        "d2-sample-review",
        "d2-sample-llm",
        "d2-sample-llm-answer",
        "d2-sample-approve",
    ] {
        assert_eq!(state(&root, row), "done", "{era:?}: {row} drawn as done");
    }
    let reply = ctl.run.with_untracked(|r| r.status(Row::SampleReply));
    assert_eq!(reply, RowStatus::Done, "{era:?}");
    ctl.end_run(None);
    drop(handle);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_python_sdk_servers_sampling_request_is_shown_answered_and_edited_in_both_eras() {
    sampling_asked(EraChoice::Legacy).await;
    sampling_asked(EraChoice::Modern).await;
}

/// The Python SDK server's `confirm_trip`, which asks the user to open a page (URL mode,
/// 2025-11-25): the page's origin is shown, and only the user's answer goes back.
async fn url_asked(open: bool) {
    use mcp_flow::record::payload::Payload;
    let ctl = playing(
        Live::PySdk.url().to_owned(),
        "Confirm the trip booking for Tokyo",
        EraChoice::Legacy,
    );
    let (root, handle) = mount(ctl);
    ctl.start(Mode::Play);
    let shown = until(20_000, || {
        root.query_selector("#mf-form-origin")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    let error = ctl
        .run
        .with_untracked(|r| r.first_error().map(|(row, e)| format!("{row}: {e}")));
    let state = ctl.run.with_untracked(|r| {
        (
            r.answer().map(str::to_owned),
            r.payload(Row::LlmChoice).cloned(),
            r.status(Row::Elicit),
        )
    });
    assert!(
        shown,
        "no page to open shown; error: {error:?}; run: {state:?}"
    );
    assert_eq!(
        text(&root, "#mf-form-origin"),
        "https://booking.example.com"
    );
    assert_eq!(
        text(&root, "#mf-form-url-text"),
        "https://booking.example.com/confirm?city=Tokyo"
    );
    click(
        &root,
        if open {
            "#mf-form-open"
        } else {
            "#mf-form-decline"
        },
    );
    let answered = until(20_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await;
    assert!(answered, "no answer after the user's choice");
    let result = ctl
        .run
        .with_untracked(|r| r.payload(Row::CallToolResult).cloned());
    let said = if open { "accept" } else { "decline" };
    match result {
        Some(Payload::ToolResult { text, .. }) => {
            assert_eq!(
                text,
                format!("The user answered {said} to the booking page.")
            );
        }
        other => panic!("{other:?}"),
    }
    ctl.end_run(None);
    drop(handle);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_python_sdk_servers_url_elicitation_shows_the_page_and_sends_the_users_choice() {
    url_asked(true).await;
    url_asked(false).await;
}

/// The diagram "Resources, prompts, completion and tasks" against `url` in `era`: every row done, the
/// template read with the first city the server completed (Tokyo), the prompt got for it, and
/// the diagram drawn.
async fn browse(url: &str, era: EraChoice) {
    use mcp_flow::record::payload::Payload;
    let ctl = playing(url.to_owned(), "What's the weather in Tokyo?", era);
    let (root, handle) = mount(ctl);
    ctl.browse(Mode::Play);
    // The subscription may wait its whole time for an update that never comes.
    let ended = until(40_000, || {
        ctl.run.with_untracked(|r| {
            r.status(Row::ShowBrowsed).is_finished() || r.first_error().is_some()
        })
    })
    .await;
    assert!(ended, "{url} {era:?}: the browse did not end");
    let error = ctl
        .run
        .with_untracked(|r| r.first_error().map(|(row, e)| format!("{row}: {e}")));
    assert_eq!(error, None, "{url} {era:?}");
    // Everything up to the prompt is done; the subscription rows are done or skipped as the
    // server declared subscriptions and sent updates.
    for row in mcp_flow::diagram::browse_rows() {
        let status = ctl.run.with_untracked(|r| r.status(row));
        // So are the task's: neither SDK server offers a tool as a task.
        let subscription_or_task = matches!(
            row,
            Row::Subscribe
                | Row::Subscribed
                | Row::Updated
                | Row::Unsubscribe
                | Row::ReadUpdated
                | Row::ReadUpdatedResult
        ) || mcp_flow::flow::task::TASK_ROWS.contains(&row);
        if mcp_flow::flow::task::TASK_ROWS.contains(&row) {
            assert_eq!(status, RowStatus::Skipped, "{url} {era:?} {row}");
        } else if subscription_or_task {
            assert!(status.is_finished(), "{url} {era:?} {row}: {status:?}");
        } else {
            assert_eq!(status, RowStatus::Done, "{url} {era:?} {row}");
        }
    }
    let read = ctl
        .run
        .with_untracked(|r| r.payload(Row::ReadTemplateResult).cloned());
    match read {
        Some(Payload::Contents {
            target, summary, ..
        }) => {
            assert_eq!(target, "weather://city/Tokyo", "{url} {era:?}");
            assert!(summary.contains("Sunny"), "{url} {era:?}: {summary}");
        }
        other => panic!("{url} {era:?}: {other:?}"),
    }
    let prompt = ctl
        .run
        .with_untracked(|r| r.payload(Row::GetPromptResult).cloned());
    match prompt {
        Some(Payload::Contents { summary, .. }) => assert!(
            summary.contains("What's the weather in Tokyo?"),
            "{url} {era:?}: {summary}"
        ),
        other => panic!("{url} {era:?}: {other:?}"),
    }
    assert!(
        until(2_000, || root
            .query_selector("#mf-dr")
            .ok()
            .flatten()
            .is_some())
        .await
    );
    ctl.end_run(None);
    drop(handle);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_sdk_servers_resources_and_prompts_in_both_eras() {
    for url in [Live::TsSdk.url(), Live::PySdk.url()] {
        for era in [EraChoice::Modern, EraChoice::Legacy] {
            browse(url, era).await;
        }
    }
}

/// The icons shown in the inspector for the row `row` of a run against `url` in `era`: each
/// `(alt, src)` of an image shown (and drawn: the page's policy let it load), and the reasons
/// given for those not fetched.
async fn icons_on(url: &str, era: EraChoice, row: Row) -> (Vec<(String, String)>, Vec<String>) {
    let ctl = playing(url.to_owned(), "What's the weather in Tokyo?", era);
    let (root, handle) = play_to_answer(ctl, format!("{url} {era:?}")).await;
    ctl.select(row);
    assert!(
        until(10_000, || root
            .query_selector(".mf-icons li")
            .ok()
            .flatten()
            .is_some())
        .await,
        "{era:?}: no icons on {row}: {}",
        text(&root, ".mf-inspect")
    );
    let images = root.query_selector_all(".mf-icons img").unwrap();
    let images: Vec<web_sys::HtmlImageElement> = (0..images.length())
        .filter_map(|i| images.item(i))
        .map(|n| n.unchecked_into())
        .collect();
    assert!(
        until(5_000, || images
            .iter()
            .all(|i| i.complete() && i.natural_width() > 0))
        .await,
        "{era:?}: an icon was not drawn"
    );
    let shown = images
        .iter()
        .map(|img| (img.alt(), img.get_attribute("src").unwrap_or_default()))
        .collect();
    let notes = root.query_selector_all(".mf-icons .mf-note-line").unwrap();
    let refused = (0..notes.length())
        .filter_map(|i| notes.item(i))
        .map(|n| n.text_content().unwrap_or_default())
        .collect();
    ctl.end_run(None);
    drop(handle);
    root.remove();
    (shown, refused)
}

#[wasm_bindgen_test]
async fn a_servers_icons_are_shown_only_from_https_or_data_urls() {
    let url = Live::PySdk.url();
    let (shown, refused) = icons_on(url, EraChoice::Legacy, Row::InitializeResult).await;
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_eq!(shown[0].0, "icon of py-sdk-weather");
    assert!(
        shown[0].1.starts_with("data:image/png;base64,"),
        "{shown:?}"
    );
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert!(
        refused
            .iter()
            .all(|r| r.contains("only https: and data: icons are shown"))
    );
    assert!(
        refused[0].ends_with("http://127.0.0.1:9/icon.png"),
        "{refused:?}"
    );
    assert!(refused[1].ends_with("javascript:alert(1)"), "{refused:?}");
}

#[wasm_bindgen_test]
async fn our_servers_tool_icon_is_drawn_from_its_data_url_in_both_eras() {
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let (shown, refused) = icons_on(Live::Sse.url(), era, Row::ListToolsResult).await;
        assert!(refused.is_empty(), "{era:?}: {refused:?}");
        assert_eq!(shown.len(), 1, "{era:?}: {shown:?}");
        assert_eq!(shown[0].0, "icon of get_weather");
        assert!(
            shown[0].1.starts_with("data:image/svg+xml;base64,"),
            "{era:?}"
        );
    }
}
