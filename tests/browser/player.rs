//! The player in headless Chromium, driving real runs against the real weather server.

use leptos::prelude::*;
use mcp_flow::diagram::{Lang, Row};
use mcp_flow::flow::gate::Mode;
use mcp_flow::flow::host::Approval;
use mcp_flow::mcp::era::EraChoice;
use mcp_flow::record::payload::{Field, FieldValue};
use mcp_flow::ui::Controller;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

use crate::common;
use common::*;

/// A player for the tutorial's diagrams: the legacy era, as the tutorial drew it (the eras have their
/// own tests in `eras.rs`).
fn controller(server: String, mode: Mode, approval: Approval) -> Controller {
    let ctl = Controller::new(
        server,
        "What's the weather in Tokyo?".into(),
        Lang::En,
        mode,
        None,
        approval,
    );
    ctl.settings.era.set(EraChoice::Legacy);
    ctl
}

#[wasm_bindgen_test]
async fn an_instant_play_run_completes_both_diagrams() {
    let ctl = controller(Live::Sse.url().to_owned(), Mode::Play, Approval::Auto);
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    sleep(50).await;
    // Diagrams 1 and 2 (the App diagram of get_weather's card has its own tests).
    let rows = root
        .query_selector_all(".mf-figure:not(#mf-dp) g[data-row]")
        .unwrap();
    // The tutorial's 23 rows and the 16 added for the eras (the probe, the server's questions:
    // a form, the roots, the model; the tools listed again after a change).
    assert_eq!(rows.length(), 39);
    let skipped = [
        "d2-4",
        "d2-5",
        "d1-discover",
        "d1-discover-result",
        "d2-elicit",
        "d2-elicit-ask",
        "d2-elicit-answer",
        "d2-elicit-reply",
        "d2-roots",
        "d2-roots-reply",
        "d2-sample",
        "d2-sample-review",
        "d2-sample-llm",
        "d2-sample-llm-answer",
        "d2-sample-approve",
        "d2-sample-reply",
        "d2-relist",
        "d2-relist-result",
    ];
    for i in 0..rows.length() {
        let el: web_sys::Element = rows.item(i).unwrap().unchecked_into();
        let id = el.get_attribute("data-row").unwrap();
        let expected = if skipped.contains(&id.as_str()) {
            "skipped"
        } else {
            "done"
        };
        assert_eq!(
            el.get_attribute("data-state").as_deref(),
            Some(expected),
            "{id}"
        );
    }
    let answer = text(&root, "#mf-answer");
    assert_eq!(answer, "The weather in Tokyo is sunny, 22 °C.");
    // The tools/call row holds the real exchange, and its SSE stream carried the server's log.
    ctl.run.with_untracked(|r| {
        let call = &r.mcp.exchanges[r.row(Row::CallTool).unwrap().mcp[0]];
        assert_eq!(call.rpc_method.as_deref(), Some("tools/call"));
        assert!(
            call.events
                .iter()
                .any(|e| e.data.contains("get_weather called for Tokyo"))
        );
        assert!(call.events.iter().any(|e| e.data.contains("Sunny")));
    });
}

#[wasm_bindgen_test]
async fn in_step_mode_tools_call_waits_for_the_user() {
    let ctl = controller(Live::Sse.url().to_owned(), Mode::Step, Approval::Auto);
    let (root, _handle) = mount(ctl);
    let sent_call = || {
        ctl.run.with_untracked(|r| {
            r.mcp
                .exchanges
                .iter()
                .any(|x| x.rpc_method.as_deref() == Some("tools/call"))
        })
    };
    let mut presses = 0;
    loop {
        ctl.next();
        presses += 1;
        sleep(60).await;
        let active = ctl.run.with_untracked(|r| r.current());
        if active == Some(Row::CallToolAsk) {
            sleep(300).await;
            assert!(!sent_call(), "tools/call went out before its row");
            assert_eq!(state(&root, "d2-7"), "pending");
            break;
        }
        assert!(presses < 40, "stuck at {active:?}");
    }
    ctl.next();
    assert!(until(5_000, sent_call).await, "Next sends tools/call");
    assert!(until(5_000, || state(&root, "d2-7") == "done").await);
}

#[wasm_bindgen_test]
async fn declining_the_tool_call_takes_the_declined_branch() {
    let ctl = controller(Live::Sse.url().to_owned(), Mode::Play, Approval::Ask);
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(until_some(10_000, ctl.dialogs.dialog).await);
    // The dialog's view is built once its module is there (in place in this unsplit build).
    assert!(until(5_000, || !text(&root, "[role=dialog]").is_empty()).await);
    assert!(text(&root, "[role=dialog]").contains("Execute 'get_weather' on Tool Server?"));
    let no: HtmlElement = root
        .query_selector("#mf-no")
        .unwrap()
        .unwrap()
        .unchecked_into();
    no.click();
    assert!(until(10_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    sleep(20).await;
    assert!(text(&root, "#mf-answer").contains("declined"));
    for row in ["d2-6", "d2-7", "d2-8"] {
        assert_eq!(state(&root, row), "skipped", "{row}");
    }
    assert_eq!(state(&root, "d2-5"), "done");
}

#[wasm_bindgen_test]
async fn an_unknown_city_reads_as_a_failed_tool_on_its_row_and_in_the_inspector() {
    let ctl = playing(
        Live::Sse.url().to_owned(),
        "What's the weather in Atlantis?",
        EraChoice::Legacy,
    );
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    sleep(50).await;
    // The call succeeded at the protocol level (the row is done), but the tool failed.
    assert_eq!(state(&root, "d2-8"), "done");
    let row = root
        .query_selector("g[data-row='d2-8']")
        .unwrap()
        .expect("d2-8");
    assert!(row.class_list().contains("mf-tool-failed"));
    let label = row.text_content().unwrap_or_default();
    assert!(label.contains("Atlantis"), "{label}");
    assert!(label.contains("isError: true"), "{label}");
    assert!(!label.contains("Sunny"), "{label}");
    let fine = root
        .query_selector("g[data-row='d2-6']")
        .unwrap()
        .expect("d2-6");
    assert!(!fine.class_list().contains("mf-tool-failed"));
    ctl.select(Row::CallToolResult);
    sleep(50).await;
    let inspector = text(&root, ".mf-inspect");
    assert!(inspector.contains("The tool failed"), "{inspector}");
    assert!(inspector.contains("Atlantis"), "{inspector}");
    let explained = text(&root, ".mf-explain");
    assert!(explained.contains("isError: true"), "{explained}");
    assert!(!explained.contains('…'), "{explained}");
    assert!(!inspector.contains("Sunny"), "{inspector}");
}

#[wasm_bindgen_test]
async fn the_connection_panel_tells_the_server_session_capabilities_and_logs() {
    let ctl = controller(Live::Sse.url().to_owned(), Mode::Play, Approval::Auto);
    let (root, _handle) = mount(ctl);
    open_panel(&root, "#mf-connection", "#mf-connection-facts").await;
    assert!(text(&root, "#mf-connection-facts").contains("Nothing known yet"));
    ctl.play();
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    sleep(50).await;
    let facts = text(&root, "#mf-connection-facts");
    assert!(facts.contains("weather-server"), "{facts}");
    assert!(facts.contains("2025-11-25"), "{facts}");
    let session = ctl.run.with_untracked(|r| {
        r.mcp.exchanges[0]
            .response_header("mcp-session-id")
            .map(str::to_owned)
    });
    let session = session.expect("the weather server assigns a session");
    assert!(facts.contains(&session), "{facts}");
    assert!(facts.contains("\"tools\""), "server capabilities: {facts}");
    let logs = text(&root, "#mf-logs");
    assert!(logs.contains("get_weather called for Tokyo"), "{logs}");
    choose(&root, "#mf-log-level", "error");
    sleep(50).await;
    assert!(root.query_selector("#mf-logs").unwrap().is_none());
    assert!(text(&root, "#mf-connection").contains("No log lines at this level."));
}

/// Chooses `value` in the select `selector`, as a user does.
fn choose(root: &HtmlElement, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = root
        .query_selector(selector)
        .unwrap()
        .unwrap()
        .unchecked_into();
    select.set_value(value);
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
}

/// The bodies the run sent, in order.
fn sent_bodies(ctl: Controller) -> Vec<serde_json::Value> {
    ctl.run.with_untracked(|r| {
        r.mcp
            .exchanges
            .iter()
            .filter_map(|x| x.request_body.as_deref())
            .filter_map(|b| serde_json::from_str(b).ok())
            .collect()
    })
}

#[wasm_bindgen_test]
async fn the_log_level_asked_of_the_server_is_the_users_in_both_eras() {
    let ctl = controller(Live::Sse.url().to_owned(), Mode::Play, Approval::Auto);
    let (root, _handle) = mount(ctl);
    open_panel(&root, "#mf-connection", "#mf-log-ask").await;
    choose(&root, "#mf-log-ask", "debug");
    ctl.play();
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    sleep(50).await;
    let set_level: Vec<_> = sent_bodies(ctl)
        .into_iter()
        .filter(|b| b["method"] == "logging/setLevel")
        .collect();
    assert_eq!(set_level.len(), 1, "{set_level:?}");
    assert_eq!(set_level[0]["params"]["level"], "debug");
    let logs = text(&root, "#mf-logs");
    assert!(
        logs.contains("Tokyo is Tokyo"),
        "the server's debug line: {logs}"
    );

    // The modern era: the level rides on each request; "warning" keeps the info line away.
    ctl.settings.era.set(EraChoice::Modern);
    choose(&root, "#mf-log-ask", "warning");
    ctl.start(Mode::Play);
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    sleep(50).await;
    let call = sent_bodies(ctl)
        .into_iter()
        .find(|b| b["method"] == "tools/call")
        .expect("a tools/call was sent");
    assert_eq!(
        call["params"]["_meta"]["io.modelcontextprotocol/logLevel"],
        "warning"
    );
    assert!(
        root.query_selector("#mf-logs").unwrap().is_none(),
        "nothing at warning or above: {}",
        text(&root, "#mf-connection")
    );

    // No log lines asked for: no setLevel, no level in _meta.
    ctl.settings.era.set(EraChoice::Legacy);
    choose(&root, "#mf-log-ask", "off");
    ctl.start(Mode::Play);
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    let bodies = sent_bodies(ctl);
    assert!(!bodies.iter().any(|b| b["method"] == "logging/setLevel"));
    assert!(
        !bodies.iter().any(|b| b["params"]["_meta"]
            .get("io.modelcontextprotocol/logLevel")
            .is_some()),
        "{bodies:?}"
    );
    assert!(ctl.run.with_untracked(|r| {
        r.notifications
            .iter()
            .all(|n| n["method"] != "notifications/message")
    }));
}

#[wasm_bindgen_test]
async fn the_message_log_keeps_every_run_and_filters_by_outcome() {
    let ctl = controller(Live::Sse.url().to_owned(), Mode::Play, Approval::Auto);
    let (root, _handle) = mount(ctl);
    open_panel(&root, "#mf-message-log", "#mf-log-rows").await;
    ctl.play();
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    ctl.settings
        .question
        .set("What's the weather in Atlantis?".into());
    ctl.start(Mode::Play);
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    sleep(50).await;
    let rows = |root: &HtmlElement| root.query_selector_all("#mf-log-rows tr").unwrap().length();
    let all = rows(&root);
    // A line per exchange, and one per message the server sent on its stream before the answer.
    let lines_of = |xs: &[mcp_flow::mcp::record::Exchange]| -> u32 {
        xs.iter()
            .map(|x| {
                1 + x
                    .events
                    .iter()
                    .filter_map(|e| serde_json::from_str::<serde_json::Value>(&e.data).ok())
                    .filter(|m| m.get("method").is_some())
                    .count() as u32
            })
            .sum()
    };
    let first_run = ctl.past.runs.with_untracked(|p| lines_of(&p[0].exchanges));
    let second_run = ctl.run.with_untracked(|r| lines_of(&r.mcp.exchanges));
    assert_eq!(all, first_run + second_run, "both runs are in the log");
    choose(&root, "#mf-log-direction", "received");
    sleep(50).await;
    let received = text(&root, "#mf-log-rows");
    assert!(
        received.contains("notifications/message"),
        "the server's log line, as a message of its own: {received}"
    );
    assert_eq!(
        root.query_selector_all("#mf-log-rows tr[data-direction='sent']")
            .unwrap()
            .length(),
        0
    );
    choose(&root, "#mf-log-direction", "both");
    // The model's calls are kept apart until asked for.
    let llm_lines = |root: &HtmlElement| {
        root.query_selector_all("#mf-log-rows tr[data-source='llm']")
            .unwrap()
            .length()
    };
    assert_eq!(llm_lines(&root), 0);
    let with_llm: web_sys::HtmlInputElement = root
        .query_selector("#mf-log-llm")
        .unwrap()
        .unwrap()
        .unchecked_into();
    with_llm.set_checked(true);
    with_llm
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    sleep(50).await;
    let calls =
        ctl.past.runs.with_untracked(|p| p[0].llm.len()) + ctl.run.with_untracked(|r| r.llm.len());
    assert!(calls >= 4, "two turns of the model in each run: {calls}");
    assert_eq!(llm_lines(&root) as usize, calls);
    assert!(text(&root, "#mf-log-rows").contains("LLM offline"));
    with_llm.set_checked(false);
    with_llm
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    sleep(50).await;
    let kind: web_sys::HtmlSelectElement = root
        .query_selector("#mf-log-kind")
        .unwrap()
        .unwrap()
        .unchecked_into();
    kind.set_value("tool");
    kind.dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    sleep(50).await;
    assert_eq!(rows(&root), 1, "only Atlantis' call failed as a tool");
    let failed = text(&root, "#mf-log-rows");
    assert!(failed.contains("tools/call"), "{failed}");
    assert!(failed.contains("tool error"), "{failed}");
    kind.set_value("all");
    kind.dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    let search: web_sys::HtmlInputElement = root
        .query_selector("#mf-log-search")
        .unwrap()
        .unwrap()
        .unchecked_into();
    search.set_value("initialize");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    search
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    sleep(50).await;
    // The search matches part of the method: each run's initialize and notifications/initialized.
    assert_eq!(rows(&root), 4);

    // A pinned line stays on top whatever the search: pin the first line, search for something
    // else, and it is still listed first.
    let pin: HtmlElement = root
        .query_selector("#mf-log-rows tr button.mf-pin")
        .unwrap()
        .unwrap()
        .unchecked_into();
    pin.click();
    sleep(50).await;
    search.set_value("tools/call");
    search
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    sleep(50).await;
    assert_eq!(
        rows(&root),
        3,
        "two tools/call lines and the pinned initialize"
    );
    let first: HtmlElement = root
        .query_selector("#mf-log-rows tr")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(first.get_attribute("data-pinned").as_deref(), Some("true"));
    // The log is folded (a closed <details>): its text is read from the DOM, not as rendered.
    let shown = first.text_content().unwrap_or_default();
    assert!(shown.contains("initialize"), "{shown}");
}

#[wasm_bindgen_test]
async fn a_server_that_is_down_turns_initialize_red() {
    let ctl = controller("http://127.0.0.1:9/mcp".into(), Mode::Play, Approval::Auto);
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(until(10_000, || state(&root, "d1-1") == "failed").await);
    sleep(20).await;
    let error = text(&root, "#mf-error");
    assert!(error.contains("no HTTP response"), "{error}");
    assert_eq!(state(&root, "d1-2"), "pending");
}

#[wasm_bindgen_test]
async fn switching_language_changes_the_labels() {
    let ctl = controller(Live::Sse.url().to_owned(), Mode::Step, Approval::Auto);
    let (root, _handle) = mount(ctl);
    assert!(text(&root, "figure").contains("Initialization and Tool Discovery"));
    ctl.settings.lang.set(Lang::Zh);
    sleep(20).await;
    assert!(text(&root, "figure").contains("初始化和工具发现"));
    assert!(text(&root, "[data-row='d1-1']").contains("initialize"));
}

#[wasm_bindgen_test]
async fn connect_then_ask_twice_on_one_connection() {
    let ctl = controller(Live::Sse.url().to_owned(), Mode::Play, Approval::Auto);
    let (root, _handle) = mount(ctl);
    ctl.connect(Mode::Play);
    assert!(
        until(10_000, || ctl
            .run
            .with_untracked(
                |r| r.status(Row::ToolsToLlm).as_str() == "done"
            ))
        .await
    );
    assert!(until(2_000, || !ctl.running.get_untracked()).await);
    sleep(20).await;
    assert_eq!(
        state(&root, "d2-1"),
        "pending",
        "Connect runs diagram 1 only"
    );

    ctl.ask(Mode::Play);
    assert!(until(10_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    assert!(until(2_000, || !ctl.running.get_untracked()).await);
    assert_eq!(
        text(&root, "#mf-answer"),
        "The weather in Tokyo is sunny, 22 °C."
    );

    ctl.settings
        .question
        .set("What's the weather in Paris?".into());
    ctl.ask(Mode::Play);
    assert!(
        until(10_000, || ctl.run.with_untracked(|r| {
            r.answer().is_some_and(|a| a.contains("Paris"))
        }))
        .await
    );
    sleep(20).await;
    assert!(text(&root, "#mf-answer").starts_with("The weather in Paris is"));
    // One connection: a single initialize, two tools/call.
    ctl.run.with_untracked(|r| {
        let count = |m: &str| {
            r.mcp
                .exchanges
                .iter()
                .filter(|x| x.rpc_method.as_deref() == Some(m))
                .count()
        };
        assert_eq!(count("initialize"), 1);
        assert_eq!(count("tools/call"), 2);
    });
    assert_eq!(state(&root, "d1-1"), "done");
}

#[wasm_bindgen_test]
async fn an_unreachable_model_endpoint_fails_the_llm_row_with_its_reason() {
    use mcp_flow::llm::choice::{Field, LlmSettings, Provider};
    let ctl = controller(Live::Sse.url().to_owned(), Mode::Play, Approval::Auto);
    let mut settings = LlmSettings::new(Provider::OpenAi);
    settings.set(Field::BaseUrl, "http://127.0.0.1:9/v1".into());
    settings.set(Field::Model, "test-model".into());
    settings.set(Field::Key, "sk-test".into());
    ctl.settings.llm.set(settings);
    let (root, _handle) = mount(ctl);
    sleep(20).await;
    assert!(text(&root, "figure").contains("test-model (OpenAI-compatible)"));
    ctl.play();
    assert!(until(10_000, || state(&root, "d2-2") == "failed").await);
    sleep(20).await;
    let error = text(&root, "#mf-error");
    assert!(
        error.contains("d2-2") && error.contains("no response from the model"),
        "{error}"
    );
    assert_eq!(
        state(&root, "d1-8"),
        "done",
        "MCP discovery does not depend on the model"
    );
    // The request was recorded as sent, without the key.
    ctl.run.with_untracked(|r| {
        assert_eq!(r.llm.len(), 1);
        assert_eq!(r.llm[0].request["model"], "test-model");
        assert!(
            !serde_json::to_string(&r.llm[0])
                .unwrap()
                .contains("sk-test")
        );
    });
}

fn fixture_model(model: &str, style: mcp_flow::llm::Style) -> mcp_flow::llm::choice::LlmSettings {
    use mcp_flow::llm::choice::{Field, LlmSettings, Provider};
    let mut settings = LlmSettings::new(Provider::OpenAi);
    settings.set(Field::BaseUrl, Live::Llm.url().into());
    settings.set(Field::Model, model.into());
    settings.style = style;
    settings
}

#[wasm_bindgen_test]
async fn a_full_run_goes_through_an_openai_compatible_endpoint_in_both_styles() {
    use mcp_flow::llm::Style;
    for style in [Style::FunctionCalling, Style::SystemPrompt] {
        let ctl = controller(Live::Sse.url().to_owned(), Mode::Play, Approval::Auto);
        ctl.settings.llm.set(fixture_model("fixture-model", style));
        let (root, handle) = mount(ctl);
        ctl.play();
        assert!(
            until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await,
            "{style:?}: no answer; error: {}",
            text(&root, "#mf-error")
        );
        sleep(30).await;
        assert_eq!(
            text(&root, "#mf-answer"),
            "The weather in Tokyo is sunny.",
            "{style:?}"
        );
        assert!(text(&root, "figure").contains("fixture-model (OpenAI-compatible)"));
        for row in ["d2-2", "d2-3", "d2-7", "d2-8", "d2-10", "d2-11", "d2-12"] {
            assert_eq!(state(&root, row), "done", "{style:?} {row}");
        }
        ctl.run.with_untracked(|r| {
            assert_eq!(r.llm.len(), 2, "{style:?}: question, then the tool result");
            let first = &r.llm[0];
            assert_eq!(first.provider, "OpenAI-compatible");
            assert_eq!(first.status, Some(200));
            assert!(first.url.ends_with("/v1/chat/completions"));
            let system = first.request["messages"][0]["content"]
                .as_str()
                .unwrap_or("");
            assert_eq!(
                r.row(Row::AskLlm).unwrap().field(Field::Style),
                Some(FieldValue::Value(style.describe().into())),
                "the row says which style ran"
            );
            match style {
                Style::FunctionCalling => {
                    assert_eq!(first.request["tools"][0]["function"]["name"], "get_weather");
                    assert_eq!(
                        first.response.as_ref().unwrap()["choices"][0]["finish_reason"],
                        "tool_calls"
                    );
                    assert_eq!(r.llm[1].request["messages"][2]["role"], "tool");
                }
                Style::SystemPrompt => {
                    assert!(first.request.get("tools").is_none());
                    assert!(system.contains("Tool: get_weather"), "{system}");
                    assert_eq!(r.llm[1].request["messages"][3]["role"], "user");
                }
            }
            let call = &r.mcp.exchanges[r.row(Row::CallTool).unwrap().mcp[0]];
            assert!(
                call.request_body
                    .as_deref()
                    .unwrap_or("")
                    .contains(r#""location":"Tokyo""#)
            );
        });
        drop(handle);
        root.remove();
    }
}

#[wasm_bindgen_test]
async fn a_provider_error_is_shown_on_the_llm_row_with_the_providers_message() {
    let ctl = controller(Live::Sse.url().to_owned(), Mode::Play, Approval::Auto);
    ctl.settings.llm.set(fixture_model(
        "fixture-401",
        mcp_flow::llm::Style::FunctionCalling,
    ));
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(until(10_000, || state(&root, "d2-2") == "failed").await);
    sleep(20).await;
    let error = text(&root, "#mf-error");
    assert!(
        error.contains("HTTP 401") && error.contains("Incorrect API key"),
        "{error}"
    );
    ctl.run
        .with_untracked(|r| assert_eq!(r.llm[0].status, Some(401)));
}
