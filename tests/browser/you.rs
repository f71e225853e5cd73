//! "You are the model" in headless Chromium: the user picks the tool from a form built from its
//! schema and writes the answer, against the real weather server; the diagram runs as usual.

use leptos::prelude::*;
use mcp_flow::diagram::Row;
use mcp_flow::llm::choice::{LlmSettings, Provider};
use mcp_flow::llm::you::Turn;
use mcp_flow::mcp::era::EraChoice;
use mcp_flow::record::payload::Payload;
use wasm_bindgen_test::*;

use crate::common;
use common::*;

#[wasm_bindgen_test]
async fn the_user_in_the_models_place_calls_get_weather_from_its_form_and_answers() {
    let server = Live::Sse.url().to_owned();
    let ctl = playing(server, "What's the weather in Tokyo?", EraChoice::Legacy);
    ctl.settings.llm.set(LlmSettings::new(Provider::You));
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(
        until_some(15_000, ctl.dialogs.you_turn).await,
        "the page asks the user: {}",
        text(&root, "#mf-error")
    );
    sleep(30).await;
    assert!(matches!(
        ctl.dialogs.you_turn.get_untracked(),
        Some(Turn::Choose { .. })
    ));
    assert!(text(&root, "#mf-you").contains("What's the weather in Tokyo?"));
    assert!(text(&root, "#mf-you-tool").contains("get_weather"));
    // The weather server annotates get_weather read-only, not destructive, idempotent and
    // closed-world; the form shows exactly that.
    let badges = text(&root, "#mf-you-badges");
    for badge in ["read-only", "not destructive", "idempotent", "closed world"] {
        assert!(badges.contains(badge), "badges: {badges}");
    }
    // Nothing typed: the required location is missing, nothing goes out.
    click(&root, "#mf-you-call");
    sleep(30).await;
    assert!(text(&root, "#mf-you-problem").contains("required"));
    assert!(ctl.run.with_untracked(|r| {
        !r.mcp
            .exchanges
            .iter()
            .any(|x| x.rpc_method.as_deref() == Some("tools/call"))
    }));

    type_into(&root, "#mf-you-location", "Tokyo");
    click(&root, "#mf-you-call");
    assert!(
        until(15_000, || matches!(
            ctl.dialogs.you_turn.get_untracked(),
            Some(Turn::Answer { .. })
        ))
        .await,
        "the result comes back to the user: {}",
        text(&root, "#mf-error")
    );
    sleep(30).await;
    assert!(text(&root, "#mf-you-result").contains("Sunny"));
    ctl.run.with_untracked(|r| {
        assert_eq!(
            r.payload(Row::LlmChoice),
            Some(&Payload::ToolCall {
                tool: "get_weather".into(),
                arguments: serde_json::json!({"location": "Tokyo"}),
                round: 1,
            })
        );
        assert_eq!(r.llm[0].provider, "you");
    });
    type_into(&root, "#mf-you-text", "Sunny in Tokyo, says the server.");
    click(&root, "#mf-you-answer");
    assert!(until(10_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    sleep(30).await;
    assert_eq!(
        text(&root, "#mf-answer"),
        "Sunny in Tokyo, says the server."
    );
    assert!(
        root.query_selector("#mf-you").unwrap().is_none(),
        "the dialog closed"
    );
    for row in [
        "d2-2", "d2-3", "d2-6", "d2-7", "d2-8", "d2-10", "d2-11", "d2-12",
    ] {
        assert_eq!(state(&root, row), "done", "{row}");
    }
}

#[wasm_bindgen_test]
async fn restart_while_the_user_is_asked_closes_the_dialog() {
    let server = Live::Sse.url().to_owned();
    let ctl = playing(server, "What's the weather in Tokyo?", EraChoice::Legacy);
    ctl.settings.llm.set(LlmSettings::new(Provider::You));
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(until_some(15_000, ctl.dialogs.you_turn).await);
    ctl.end_run(Some("restarted"));
    sleep(30).await;
    assert!(ctl.dialogs.you_turn.with_untracked(Option::is_none));
    assert!(root.query_selector("#mf-you").unwrap().is_none());
    assert!(!ctl.running.get_untracked());
}

/// The tool call the user made, as the run recorded it.
fn called(ctl: mcp_flow::ui::Controller) -> Option<Payload> {
    ctl.run
        .with_untracked(|r| r.payload(Row::LlmChoice).cloned())
}

#[wasm_bindgen_test]
async fn the_calculators_form_asks_for_both_numbers_and_sends_numbers() {
    let server = Live::Sse.url().replace("/mcp", "/calc");
    let ctl = playing(server, "What is 3 times 111?", EraChoice::Auto);
    ctl.settings.llm.set(LlmSettings::new(Provider::You));
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(
        until_some(15_000, ctl.dialogs.you_turn).await,
        "the page asks the user: {}",
        text(&root, "#mf-error")
    );
    sleep(30).await;
    choose_option(&root, "#mf-you-tool", "multiply");
    sleep(30).await;
    type_into(&root, "#mf-you-a", "3");
    click(&root, "#mf-you-call");
    sleep(30).await;
    let problem = text(&root, "#mf-you-problem");
    assert!(problem.contains("b is required"), "{problem}");
    assert_eq!(called(ctl), None, "nothing went out");
    type_into(&root, "#mf-you-b", "111");
    click(&root, "#mf-you-call");
    assert!(
        until(15_000, || matches!(
            ctl.dialogs.you_turn.get_untracked(),
            Some(Turn::Answer { .. })
        ))
        .await,
        "the result comes back: {}",
        text(&root, "#mf-error")
    );
    assert_eq!(
        called(ctl),
        Some(Payload::ToolCall {
            tool: "multiply".into(),
            arguments: serde_json::json!({"a": 3, "b": 111}),
            round: 1,
        }),
        "the form's numbers go out as JSON numbers"
    );
    sleep(30).await;
    assert!(text(&root, "#mf-you-result").contains("333"));
}

#[wasm_bindgen_test]
async fn an_enum_is_a_choice_in_the_form_and_goes_out_as_chosen() {
    let server = Live::Sse.url().to_owned();
    let ctl = playing(server, "How warm is it in Tokyo?", EraChoice::Legacy);
    ctl.settings.llm.set(LlmSettings::new(Provider::You));
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(until_some(15_000, ctl.dialogs.you_turn).await);
    sleep(30).await;
    type_into(&root, "#mf-you-location", "Tokyo");
    choose_option(&root, "#mf-you-units", "fahrenheit");
    click(&root, "#mf-you-call");
    assert!(
        until(15_000, || matches!(
            ctl.dialogs.you_turn.get_untracked(),
            Some(Turn::Answer { .. })
        ))
        .await,
        "{}",
        text(&root, "#mf-error")
    );
    let Some(Payload::ToolCall { arguments, .. }) = called(ctl) else {
        panic!("no tool call recorded");
    };
    assert_eq!(
        arguments,
        serde_json::json!({"location": "Tokyo", "units": "fahrenheit"})
    );
    let structured = ctl
        .run
        .with_untracked(|r| match r.payload(Row::CallToolResult) {
            Some(Payload::ToolResult { structured, .. }) => structured.clone(),
            _ => None,
        });
    assert_eq!(
        structured.map(|s| s["units"].clone()),
        Some(serde_json::json!("fahrenheit")),
        "the server answered in the units chosen"
    );
}

#[wasm_bindgen_test]
async fn a_schema_a_form_cannot_express_gives_way_to_json_and_says_why() {
    let faulty = Live::Faulty.url();
    let server = format!("{faulty}/fault/ref-schema/mcp");
    let ctl = playing(server, "What's the weather in Tokyo?", EraChoice::Legacy);
    ctl.settings.llm.set(LlmSettings::new(Provider::You));
    let (root, _handle) = mount(ctl);
    ctl.play();
    assert!(
        until_some(15_000, ctl.dialogs.you_turn).await,
        "{}",
        text(&root, "#mf-error")
    );
    sleep(30).await;
    let why = text(&root, "#mf-you-why");
    assert!(why.contains("`location` is a `$ref`"), "{why}");
    assert!(
        root.query_selector("#mf-you-location").unwrap().is_none()
            || root
                .query_selector(".mf-you-fields.mf-hidden")
                .unwrap()
                .is_some(),
        "no form fields stand for this schema"
    );
    // JSON missing the required location: refused before the call.
    type_into(&root, "#mf-you-json", r#"{"when": "now"}"#);
    click(&root, "#mf-you-call");
    sleep(30).await;
    assert!(text(&root, "#mf-you-problem").contains("location is required"));
    assert_eq!(called(ctl), None);
    type_into(
        &root,
        "#mf-you-json",
        r#"{"location": "Tokyo", "when": "now"}"#,
    );
    click(&root, "#mf-you-call");
    assert!(
        until(15_000, || matches!(
            ctl.dialogs.you_turn.get_untracked(),
            Some(Turn::Answer { .. })
        ))
        .await,
        "{}",
        text(&root, "#mf-error")
    );
    let Some(Payload::ToolCall { arguments, .. }) = called(ctl) else {
        panic!("no tool call recorded");
    };
    assert_eq!(
        arguments,
        serde_json::json!({"location": "Tokyo", "when": "now"})
    );
}
