//! Saved servers in headless Chromium: saved with their era and timeout, still there after the
//! page is built again (a reload), picked back, and never holding the request headers.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use mcp_flow::mcp::era::EraChoice;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::*;

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

fn element<T: JsCast>(root: &HtmlElement, selector: &str) -> T {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"))
        .unchecked_into()
}

#[wasm_bindgen_test]
async fn a_saved_server_survives_a_reload_without_its_headers() {
    let _ = storage().remove_item("mcp-flow.servers");
    let ctl = playing(
        "http://127.0.0.1:3999/mcp".into(),
        "What's the weather in Tokyo?",
        EraChoice::Modern,
    );
    ctl.headers
        .set("Authorization: Bearer never-saved-zzz".into());
    ctl.set_request_timeout_ms(7000);
    let (root, handle) = mount(ctl);
    let name: HtmlInputElement = element(&root, "#mf-saved-name");
    name.set_value("my server");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    name.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    element::<HtmlElement>(&root, "#mf-save-server").click();
    sleep(30).await;
    let stored = storage()
        .get_item("mcp-flow.servers")
        .unwrap()
        .expect("saved");
    assert!(stored.contains("my server"), "{stored}");
    assert!(stored.contains("http://127.0.0.1:3999/mcp"), "{stored}");
    assert!(stored.contains("\"modern\""), "{stored}");
    assert!(stored.contains("7000"), "{stored}");
    assert!(
        !stored.contains("never-saved"),
        "headers are never saved: {stored}"
    );
    drop(handle);
    root.remove();

    // A new page: the list is read back and picking the server sets URL, era and timeout.
    let ctl = playing(
        "http://127.0.0.1:8000/mcp".into(),
        "What's the weather in Tokyo?",
        EraChoice::Auto,
    );
    let (root, _handle) = mount(ctl);
    sleep(30).await;
    let select: HtmlSelectElement = element(&root, "#mf-saved");
    assert!(
        select
            .text_content()
            .unwrap_or_default()
            .contains("my server")
    );
    select.set_value("my server");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    sleep(30).await;
    assert_eq!(ctl.server.get_untracked(), "http://127.0.0.1:3999/mcp");
    assert_eq!(ctl.era.get_untracked(), EraChoice::Modern);
    assert_eq!(ctl.request_timeout_ms(), 7000);
    assert!(ctl.headers.get_untracked().is_empty());

    // A name is needed.
    let name: HtmlInputElement = element(&root, "#mf-saved-name");
    name.set_value(" ");
    name.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    element::<HtmlElement>(&root, "#mf-save-server").click();
    sleep(30).await;
    assert!(text(&root, "#mf-saved-problem").contains("name"));
    let _ = storage().remove_item("mcp-flow.servers");
}
