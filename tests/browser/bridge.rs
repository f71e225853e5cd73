//! The page through `mcp-flow-bridge` in headless Chromium: the tutorial's Tokyo run against the
//! official Python SDK's stdio weather server (started by the bridge), the real command on the
//! server's box, and the second leg (the lines the server really got and wrote) in the inspector.

use leptos::prelude::*;
use mcp_flow::diagram::Row;
use mcp_flow::mcp::era::EraChoice;
use mcp_flow::ui::Controller;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

use crate::common;
use common::*;

async fn tokyo_through_the_bridge(era: EraChoice) {
    let server = Live::Bridge.url().to_owned();
    let ctl = playing(server, "What's the weather in Tokyo?", era);
    let (root, _handle) = mount(ctl);
    assert!(
        until_some(10_000, ctl.settings.bridge).await,
        "the page reads what the bridge runs"
    );
    sleep(30).await;
    let server_box = text(&root, "g.mf-participant[data-actor='Server']");
    assert!(server_box.contains("via the bridge"), "{server_box}");
    assert!(server_box.contains("py_stdio_weather"), "{server_box}");
    let preset: web_sys::HtmlSelectElement = root
        .query_selector("#mf-server-preset")
        .unwrap()
        .expect("the server picker")
        .unchecked_into();
    assert_eq!(preset.value(), "bridge");
    let hint = text(&root, "#mf-bridge-hint");
    assert!(hint.contains("via the bridge"), "{hint}");

    ctl.play();
    assert!(
        until(30_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await,
        "{era:?}: no answer; error: {}",
        text(&root, "#mf-error")
    );
    let answer = ctl
        .run
        .with_untracked(|r| r.answer().map(str::to_owned))
        .unwrap_or_default();
    assert!(answer.contains("Tokyo"), "{era:?}: {answer}");
    assert!(answer.to_lowercase().contains("sunny"), "{era:?}: {answer}");

    // The second leg under tools/call: the request as the child read it on stdin, its answer
    // on stdout.
    ctl.select(Row::CallTool);
    sleep(50).await;
    let load: HtmlElement = root
        .query_selector(".mf-inspect .mf-second-leg-load")
        .unwrap()
        .expect("a second leg for an exchange made through the bridge")
        .unchecked_into();
    load.click();
    assert!(
        until(10_000, || !text(&root, ".mf-inspect .mf-bridge-lines")
            .is_empty())
        .await,
        "{era:?}: the second leg: {}",
        text(&root, ".mf-inspect .mf-second-leg")
    );
    let lines = text(&root, ".mf-inspect .mf-bridge-lines");
    assert!(lines.contains("→ stdin"), "{lines}");
    assert!(lines.contains("\"tools/call\""), "{lines}");
    assert!(lines.contains("← stdout"), "{lines}");
    assert!(lines.contains("Sunny"), "{lines}");
}

#[wasm_bindgen_test]
async fn the_tokyo_run_goes_through_the_bridge_in_2025_11_25() {
    tokyo_through_the_bridge(EraChoice::Legacy).await;
}

#[wasm_bindgen_test]
async fn the_tokyo_run_goes_through_the_bridge_in_2026_07_28() {
    tokyo_through_the_bridge(EraChoice::Modern).await;
}

/// A whole run through the bridge against a reference server nobody here wrote, with the user
/// in the model's place: diagram 1 from the server's real tool list, then `tool` called from its
/// form with `field` = `value`; returns the result's text and the answer shown.
async fn a_reference_server_through_the_bridge(
    url: &str,
    question: &str,
    (tool, field, value): (&str, &str, &str),
    command: &str,
) -> String {
    use mcp_flow::llm::choice::{LlmSettings, Provider};
    use mcp_flow::llm::you::Turn;
    let ctl = playing(url.to_owned(), question, EraChoice::Auto);
    ctl.settings.llm.set(LlmSettings::new(Provider::You));
    let (root, _handle) = mount(ctl);
    assert!(until_some(10_000, ctl.settings.bridge).await);
    sleep(30).await;
    let server_box = text(&root, "g.mf-participant[data-actor='Server']");
    assert!(server_box.contains(command), "{server_box}");
    ctl.play();
    assert!(
        until_some(30_000, ctl.dialogs.you_turn).await,
        "the tools reached the user: {}",
        text(&root, "#mf-error")
    );
    sleep(30).await;
    choose_option(&root, "#mf-you-tool", tool);
    sleep(30).await;
    type_into(&root, &format!("#mf-you-{field}"), value);
    click(&root, "#mf-you-call");
    assert!(
        until(30_000, || matches!(
            ctl.dialogs.you_turn.get_untracked(),
            Some(Turn::Answer { .. })
        ))
        .await,
        "the result came back: {}",
        text(&root, "#mf-error")
    );
    sleep(30).await;
    let result = text(&root, "#mf-you-result");
    type_into(&root, "#mf-you-text", "Answered from the server's result.");
    click(&root, "#mf-you-answer");
    assert!(until(10_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    for row in ["d2-7", "d2-8", "d2-12"] {
        assert_eq!(state(&root, row), "done", "{row} ({command})");
    }
    result
}

#[wasm_bindgen_test]
async fn the_reference_time_server_runs_through_the_bridge() {
    let url = Live::BridgeTime.url();
    let result = a_reference_server_through_the_bridge(
        url,
        "What time is it in Tokyo?",
        ("get_current_time", "timezone", "Asia/Tokyo"),
        "mcp-server-time",
    )
    .await;
    assert!(result.contains("Asia/Tokyo"), "{result}");
    assert!(result.contains("datetime"), "{result}");
}

#[wasm_bindgen_test]
async fn the_reference_everything_server_runs_through_the_bridge() {
    let url = Live::BridgeEverything.url();
    let result = a_reference_server_through_the_bridge(
        url,
        "Say hello back.",
        ("echo", "message", "hello from MCP Flow"),
        "stdio",
    )
    .await;
    assert!(result.contains("Echo: hello from MCP Flow"), "{result}");
}

#[wasm_bindgen_test]
async fn the_reference_everything_server_over_http_runs_through_bridge_http() {
    let url = Live::BridgeEverythingHttp.url();
    let result = a_reference_server_through_the_bridge(
        url,
        "Say hello back.",
        ("echo", "message", "hello over HTTP"),
        "via the bridge",
    )
    .await;
    assert!(result.contains("Echo: hello over HTTP"), "{result}");
}

#[wasm_bindgen_test]
async fn a_server_that_refuses_the_pages_origin_runs_through_bridge_http() {
    let direct = Live::Guarded.url().to_owned();
    let bridged = Live::BridgeGuarded.url().to_owned();
    // Directly, the official SDK's DNS-rebinding protection (and no CORS for this page) stops
    // the run at its first request, with the reason on that row.
    let ctl = playing(direct, "What's the weather in Tokyo?", EraChoice::Legacy);
    let (root, handle) = mount(ctl);
    ctl.play();
    assert!(
        until(15_000, || ctl
            .run
            .with_untracked(|r| r.first_error().is_some()))
        .await,
        "the direct run neither failed nor hung up: {}",
        text(&root, "#mf-error")
    );
    let (row, why) = ctl
        .run
        .with_untracked(|r| r.first_error().map(|(row, e)| (row, e.to_owned())))
        .unwrap();
    assert_eq!(row, Row::Initialize, "{why}");
    assert!(!why.is_empty());
    drop(handle);
    root.remove();

    // Through `mcp-flow-bridge http`, the same server gives the whole Tokyo run.
    let ctl = playing(bridged, "What's the weather in Tokyo?", EraChoice::Auto);
    let (root, _handle) = mount(ctl);
    assert!(until_some(10_000, ctl.settings.bridge).await);
    ctl.play();
    assert!(
        until(30_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await,
        "no answer through the bridge: {}",
        text(&root, "#mf-error")
    );
    let answer = ctl
        .run
        .with_untracked(|r| r.answer().map(str::to_owned))
        .unwrap_or_default();
    assert!(answer.contains("Tokyo"), "{answer}");
    let server_box = text(&root, "g.mf-participant[data-actor='Server']");
    assert!(server_box.contains("via the bridge"), "{server_box}");
}

/// 2025-11-25's experimental tasks against the reference `server-everything` (the official
/// TypeScript SDK 1.x), over its own HTTP through `mcp-flow-bridge http`: the browse diagram
/// calls `simulate-research-query` (the tool it marks `execution.taskSupport: required`) with
/// `params.task`, polls `tasks/get` to `completed` and fetches the report with `tasks/result`.
#[wasm_bindgen_test]
async fn the_reference_everything_servers_task_in_2025_11_25() {
    use mcp_flow::flow::gate::Mode;
    use mcp_flow::flow::task::TASK_ROWS;
    use mcp_flow::record::payload::Payload;
    use mcp_flow::record::run::RowStatus;

    let url = Live::BridgeEverythingHttp.url().to_owned();
    let ctl = playing(url, "Say hello back.", EraChoice::Legacy);
    let (root, handle) = mount(ctl);
    ctl.browse(Mode::Play);
    // The subscription may wait its whole time for an update; the research takes four stages.
    let ended = until(60_000, || {
        ctl.run.with_untracked(|r| {
            r.status(Row::ShowBrowsed).is_finished() || r.first_error().is_some()
        })
    })
    .await;
    assert!(
        ended,
        "the browse did not end: {}",
        text(&root, "#mf-error")
    );
    for row in TASK_ROWS {
        let status = ctl.run.with_untracked(|r| r.status(row));
        assert_eq!(
            status,
            RowStatus::Done,
            "{row}: {}",
            text(&root, "#mf-error")
        );
    }
    let call = ctl
        .run
        .with_untracked(|r| r.payload(Row::TaskCall).cloned());
    match call {
        Some(Payload::Target { target, arguments }) => {
            assert_eq!(target, "simulate-research-query");
            assert_eq!(arguments, Some(serde_json::json!({"topic": "Tokyo"})));
        }
        other => panic!("{other:?}"),
    }
    let polled = ctl
        .run
        .with_untracked(|r| r.payload(Row::TaskStatus).cloned());
    match polled {
        Some(Payload::Task { status, polls, .. }) => {
            assert_eq!(status, "completed");
            assert!(
                polls >= 2,
                "four one-second stages, polled every second: {polls}"
            );
        }
        other => panic!("{other:?}"),
    }
    let result = ctl
        .run
        .with_untracked(|r| r.payload(Row::TaskResultAnswer).cloned());
    match result {
        Some(Payload::ToolResult { text, is_error, .. }) => {
            assert!(!is_error);
            assert!(text.contains("# Research Report: Tokyo"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    ctl.end_run(None);
    drop(handle);
    root.remove();
}

/// The reference `server-everything` (2025-11-25, through the stdio bridge) samples the page's
/// model from its `trigger-sampling-request` tool: the request is shown, the offline model's
/// answer is edited, and the tool's result carries the edited text.
#[wasm_bindgen_test]
async fn the_reference_everything_servers_sampling_request_is_answered_through_the_bridge() {
    let url = Live::BridgeEverything.url();
    let ctl = playing(
        url.to_owned(),
        r#"Trigger a sampling request with the prompt "Say hi""#,
        EraChoice::Legacy,
    );
    let (root, _handle) = mount(ctl);
    ctl.play();
    let asked = until(30_000, || {
        root.query_selector("#mf-sampling-send")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    assert!(
        asked,
        "no sampling request shown: {}",
        text(&root, "#mf-error")
    );
    let message: web_sys::HtmlTextAreaElement = root
        .query_selector("#mf-sampling-msg-0")
        .unwrap()
        .expect("the message")
        .unchecked_into();
    assert!(message.value().ends_with("Say hi"), "{}", message.value());
    click(&root, "#mf-sampling-send");
    assert!(
        until(20_000, || {
            root.query_selector("#mf-sampling-answer")
                .ok()
                .flatten()
                .is_some()
        })
        .await
    );
    type_into(&root, "#mf-sampling-answer", "Hi from the page.");
    click(&root, "#mf-sampling-approve");
    assert!(
        until(20_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await,
        "no answer: {}",
        text(&root, "#mf-error")
    );
    let result = ctl
        .run
        .with_untracked(|r| r.payload(Row::CallToolResult).cloned());
    match result {
        Some(mcp_flow::record::payload::Payload::ToolResult { text, is_error, .. }) => {
            assert!(!is_error, "{text}");
            assert!(text.contains("LLM sampling result"), "{text}");
            assert!(text.contains("Hi from the page."), "{text}");
        }
        other => panic!("{other:?}"),
    }
    for row in ["d2-sample", "d2-sample-approve", "d2-sample-reply"] {
        assert_eq!(state(&root, row), "done", "{row}");
    }
}

/// The TypeScript SDK 1.32.2's stdio example `progressExample` through the bridge, the user in
/// the model's place calling its `count` with `n`; returns the page once the call is in flight.
async fn counting(n: &str) -> (Controller, HtmlElement, impl Sized) {
    let (ctl, root, handle) = you_pick(
        Live::BridgeProgress.url(),
        "Count for me.",
        EraChoice::Legacy,
        "count",
    )
    .await;
    type_into(&root, "#mf-you-n", n);
    click(&root, "#mf-you-call");
    (ctl, root, handle)
}

/// The progress the page drew on tools/call (d2-7) while it was in flight.
fn drawn_progress(root: &HtmlElement) -> String {
    text(root, "g[data-progress-of='d2-7'] .mf-progress-said")
}

#[wasm_bindgen_test]
async fn a_servers_progress_is_drawn_on_its_call_and_kept_in_the_record() {
    let (ctl, root, _handle) = counting("8").await;
    assert!(
        until(10_000, || drawn_progress(&root).contains("/8 Counting: ")).await,
        "no progress on d2-7: {:?}; error: {}",
        drawn_progress(&root),
        text(&root, "#mf-error")
    );
    let result = called(ctl, &root).await;
    assert_eq!(result, "Counted to 8");
    // The bar goes with the request; the record keeps the last report.
    assert_eq!(drawn_progress(&root), "");
    let kept = ctl
        .run
        .with_untracked(|r| r.row(Row::CallTool).and_then(|x| x.progress.clone()));
    assert_eq!(kept.map(|p| p.said()), Some("8/8 Counting: 8/8".to_owned()));
    ctl.end_run(None);
}

#[wasm_bindgen_test]
async fn stop_cancels_the_call_in_flight_with_notifications_cancelled() {
    let (ctl, root, _handle) = counting("100").await;
    assert!(
        until(10_000, || drawn_progress(&root).contains("/100 Counting: ")).await,
        "no progress on d2-7: {}",
        text(&root, "#mf-error")
    );
    click(&root, "#mf-stop");
    assert!(
        until(10_000, || state(&root, "d2-7") == "failed").await,
        "d2-7 is {}",
        state(&root, "d2-7")
    );
    let error = ctl
        .run
        .with_untracked(|r| r.row(Row::CallTool).and_then(|x| x.error.clone()))
        .unwrap_or_default();
    assert!(error.contains("you stopped the request"), "{error}");
    assert_eq!(state(&root, "d2-8"), "pending", "no result was drawn");
    // The call's id went to the server in notifications/cancelled, which it took (202).
    let (call_id, cancel) = ctl.run.with_untracked(|r| {
        let call = r
            .mcp
            .exchanges
            .iter()
            .rfind(|x| x.rpc_method.as_deref() == Some("tools/call"))
            .and_then(|x| x.rpc_id.clone());
        let cancel = r
            .mcp
            .exchanges
            .iter()
            .find(|x| x.rpc_method.as_deref() == Some("notifications/cancelled"))
            .cloned();
        (call, cancel)
    });
    let cancel = cancel.expect("a notifications/cancelled was sent");
    assert_eq!(cancel.status, Some(202), "{cancel:?}");
    let sent: serde_json::Value =
        serde_json::from_str(cancel.request_body.as_deref().unwrap_or("{}")).unwrap();
    assert_eq!(
        Some(sent["params"]["requestId"].to_string()),
        call_id,
        "{sent}"
    );
    assert_eq!(sent["params"]["reason"], "the user stopped it");
    assert!(
        until(10_000, || !ctl.running.get_untracked()).await,
        "the run ended"
    );
    sleep(30).await;
    let stop = root
        .query_selector("#mf-stop")
        .unwrap()
        .expect("the Stop control");
    assert!(
        stop.has_attribute("disabled"),
        "nothing left to stop: the control is disabled until the next run"
    );
    assert_eq!(stop.get_attribute("aria-label").as_deref(), Some("Stop"));
}

/// The reference `server-everything`'s `trigger-elicitation-request` (2025-11-25, through the
/// bridge): its form of every field kind the spec has, multiple choices included, answered in
/// the page; the server's result quotes what went back.
#[wasm_bindgen_test]
async fn the_reference_everything_servers_form_is_answered_in_the_page() {
    let (ctl, root, _handle) = you_pick(
        Live::BridgeEverything.url(),
        "Ask me for my details.",
        EraChoice::Legacy,
        "trigger-elicitation-request",
    )
    .await;
    click(&root, "#mf-you-call");
    assert!(
        until(30_000, || ctl.dialogs.form.with_untracked(Option::is_some)).await,
        "no form: {}",
        text(&root, "#mf-error")
    );
    sleep(50).await;
    // Required and empty: refused in the page, nothing sent.
    click(&root, "#mf-form-send");
    sleep(30).await;
    assert!(text(&root, "#mf-form-problem").contains("is required"));
    type_into(&root, "#mf-form-name", "Ada Lovelace");
    // A third instrument is one too many (maxItems 3 with Guitar ticked by default: two more).
    for i in [1, 2, 3] {
        click(&root, &format!("#mf-form-untitledMultipleSelectEnum-{i}"));
    }
    click(&root, "#mf-form-send");
    sleep(30).await;
    let problem = text(&root, "#mf-form-problem");
    assert!(problem.contains("pick from 1 to 3"), "{problem}");
    click(&root, "#mf-form-untitledMultipleSelectEnum-3");
    click(&root, "#mf-form-send");
    let text = called(ctl, &root).await;
    assert!(text.contains("- Name: Ada Lovelace"), "{text}");
    let raw = &text[text.find("Raw result:").expect("the raw result")..];
    let sent: serde_json::Value =
        serde_json::from_str(raw.trim_start_matches("Raw result:").trim()).expect("JSON");
    assert_eq!(sent["action"], "accept");
    let content = &sent["content"];
    assert_eq!(
        content["untitledMultipleSelectEnum"],
        serde_json::json!(["Guitar", "Piano", "Violin"])
    );
    // Defaults the user left alone go back as they started.
    assert_eq!(
        content["titledMultipleSelectEnum"],
        serde_json::json!(["fish-1"])
    );
    assert_eq!(content["titledSingleSelectEnum"], "hero-1");
    assert_eq!(content["integer"], 42);
    ctl.end_run(None);
}

/// The reference `server-everything`'s `get-roots-list` (2025-11-25, through the stdio bridge):
/// the server asks `roots/list` once the session is ready, on the session's GET stream; it is
/// answered with the roots in the settings, outside any tool call (so not on the call's roots
/// rows), and the tool's result lists them.
#[wasm_bindgen_test]
async fn the_reference_everything_server_gets_the_roots_from_the_settings() {
    let (ctl, root, _handle) = you_pick_with(
        Live::BridgeEverything.url(),
        "Which roots do I share?",
        EraChoice::Legacy,
        "get-roots-list",
        "file:///home/me/work Work\nfile:///home/me/notes",
    )
    .await;
    // The server asks on its GET stream once the session is ready: the user shares them.
    assert!(
        until_some(30_000, ctl.dialogs.roots).await,
        "the user was asked before the roots went out"
    );
    ctl.share_roots(true);
    click(&root, "#mf-you-call");
    let text = called(ctl, &root).await;
    assert!(text.contains("Current MCP Roots (2 total)"), "{text}");
    assert!(
        text.contains("1. Work\n   URI: file:///home/me/work"),
        "{text}"
    );
    assert!(text.contains("URI: file:///home/me/notes"), "{text}");
    let (asked_on_get, answered) = ctl.run.with_untracked(|r| {
        let asked = r.mcp.exchanges.iter().any(|x| {
            x.method == "GET" && x.events.iter().any(|e| e.data.contains("\"roots/list\""))
        });
        let answered = r.mcp.exchanges.iter().find_map(|x| {
            let body: serde_json::Value = serde_json::from_str(x.request_body.as_deref()?).ok()?;
            body.pointer("/result/roots").cloned()
        });
        (asked, answered)
    });
    assert!(asked_on_get, "roots/list came on the GET stream");
    assert_eq!(
        answered,
        Some(serde_json::json!([
            {"uri": "file:///home/me/work", "name": "Work"},
            {"uri": "file:///home/me/notes"}
        ]))
    );
    for row in ["d2-roots", "d2-roots-reply"] {
        assert_eq!(state(&root, row), "skipped", "{row}");
    }
    ctl.end_run(None);
}

/// The official Python SDK's stdio server through the bridge: its `unlock_forecast` adds a tool
/// and sends `notifications/tools/list_changed` during the call; the page lists the tools again
/// (d2-relist) before the model's next turn.
#[wasm_bindgen_test]
async fn a_tool_list_the_server_changes_during_a_call_is_listed_again() {
    use mcp_flow::llm::you::Turn;
    let (ctl, root, _handle) = you_pick(
        Live::Bridge.url(),
        "Unlock the forecast.",
        EraChoice::Legacy,
        "unlock_forecast",
    )
    .await;
    click(&root, "#mf-you-call");
    assert!(
        until(30_000, || matches!(
            ctl.dialogs.you_turn.get_untracked(),
            Some(Turn::Answer { .. })
        ))
        .await,
        "the result came: {}",
        text(&root, "#mf-error")
    );
    for row in ["d2-relist", "d2-relist-result"] {
        assert_eq!(state(&root, row), "done", "{row}");
    }
    let relisted = ctl
        .run
        .with_untracked(|r| r.payload(Row::RelistResult).cloned());
    match relisted {
        Some(mcp_flow::record::payload::Payload::Tools { names, .. }) => {
            assert!(names.contains(&"get_forecast".to_owned()), "{names:?}");
            assert!(names.contains(&"get_weather".to_owned()), "{names:?}");
        }
        other => panic!("{other:?}"),
    }
    // The first list had no get_forecast.
    let first = ctl
        .run
        .with_untracked(|r| r.payload(Row::ListToolsResult).cloned());
    match first {
        Some(mcp_flow::record::payload::Payload::Tools { names, .. }) => {
            assert!(!names.contains(&"get_forecast".to_owned()), "{names:?}");
        }
        other => panic!("{other:?}"),
    }
    type_into(&root, "#mf-you-text", "It is unlocked.");
    click(&root, "#mf-you-answer");
    assert!(until(10_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
}

/// A run through the bridge at `url` in `era` with the user in the model's place, up to the
/// user's first turn with `tool` chosen (its form shown, nothing called yet).
async fn you_pick(
    url: &str,
    question: &str,
    era: EraChoice,
    tool: &str,
) -> (Controller, HtmlElement, impl Sized) {
    you_pick_with(url, question, era, tool, "").await
}

/// The same, with `roots` in the settings.
async fn you_pick_with(
    url: &str,
    question: &str,
    era: EraChoice,
    tool: &str,
    roots: &str,
) -> (Controller, HtmlElement, impl Sized) {
    use mcp_flow::llm::choice::{LlmSettings, Provider};
    let ctl = playing(url.to_owned(), question, era);
    ctl.settings.llm.set(LlmSettings::new(Provider::You));
    ctl.settings.roots.set(roots.to_owned());
    let (root, handle) = mount(ctl);
    assert!(until_some(10_000, ctl.settings.bridge).await);
    ctl.play();
    assert!(
        until_some(30_000, ctl.dialogs.you_turn).await,
        "the tools reached the user: {}",
        text(&root, "#mf-error")
    );
    sleep(30).await;
    choose_option(&root, "#mf-you-tool", tool);
    sleep(30).await;
    (ctl, root, handle)
}

/// The text of the tool's result, once its row (d2-8) is done.
async fn called(ctl: Controller, root: &HtmlElement) -> String {
    assert!(
        until(30_000, || state(root, "d2-8") == "done").await,
        "the result came: {}",
        text(root, "#mf-error")
    );
    match ctl
        .run
        .with_untracked(|r| r.payload(Row::CallToolResult).cloned())
    {
        Some(mcp_flow::record::payload::Payload::ToolResult { text, .. }) => text,
        other => panic!("{other:?}"),
    }
}
