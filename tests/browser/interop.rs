//! The page against servers nobody here wrote, in every era setting: the official TypeScript SDK
//! v2 server and the official Python SDK 2.x server, each with a small `get_weather`. The tutorial'
//! Tokyo run completes in `auto`, `modern` and `legacy`; `auto` says which era it picked.

use leptos::prelude::*;
use mcp_flow::diagram::{Lang, Row};
use mcp_flow::flow::gate::Mode;
use mcp_flow::flow::host::Approval;
use mcp_flow::mcp::era::{Era, EraChoice};
use mcp_flow::record::run::RowStatus;
use mcp_flow::ui::Controller;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

use crate::common;
use common::*;

/// Plays the Tokyo run against `url` in `era` and returns the era the run spoke.
async fn tokyo(url: &str, era: EraChoice) -> Era {
    let ctl = Controller::new(
        url.to_owned(),
        "What's the weather in Tokyo?".into(),
        Lang::En,
        Mode::Play,
        None,
        Approval::Auto,
    );
    ctl.settings.era.set(era);
    let (root, handle) = mount(ctl);
    ctl.start(Mode::Play);
    let answered = until(20_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await;
    assert!(
        answered,
        "{url} {era:?}: no answer; error: {}",
        text(&root, "#mf-error")
    );
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
