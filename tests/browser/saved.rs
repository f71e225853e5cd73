//! Saved servers in headless Chromium: saved with their era and timeout, still there after the
//! page is built again (a reload), picked back, and never holding the request headers.

use leptos::prelude::*;
use mcp_flow::mcp::era::EraChoice;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement};

use crate::common;
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

/// Types `value` into the "Save as" name field, as the user would.
fn name_server(root: &HtmlElement, value: &str) {
    let name: HtmlInputElement = element(root, "#mf-saved-name");
    name.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    name.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
}

#[wasm_bindgen_test]
async fn a_saved_server_survives_a_reload_without_its_headers() {
    let _ = storage().remove_item("mcp-flow.servers");
    let ctl = playing(
        "http://127.0.0.1:3999/mcp".into(),
        "What's the weather in Tokyo?",
        EraChoice::Modern,
    );
    ctl.settings
        .headers
        .set("Authorization: Bearer never-saved-zzz".into());
    ctl.set_request_timeout_ms(7000);
    let (root, handle) = mount(ctl);
    name_server(&root, "my server");
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
    assert_eq!(
        ctl.settings.server.get_untracked(),
        "http://127.0.0.1:3999/mcp"
    );
    assert_eq!(ctl.settings.era.get_untracked(), EraChoice::Modern);
    assert_eq!(ctl.request_timeout_ms(), 7000);
    assert!(ctl.settings.headers.get_untracked().is_empty());

    // A name is needed.
    name_server(&root, " ");
    element::<HtmlElement>(&root, "#mf-save-server").click();
    sleep(30).await;
    assert!(text(&root, "#mf-saved-problem").contains("name"));
    let _ = storage().remove_item("mcp-flow.servers");
}

#[wasm_bindgen_test]
async fn a_bearer_header_is_sent_but_never_recorded_exported_or_copied() {
    const SECRET: &str = "sk-flow-never-shown-0042";
    let server = Live::Sse.url().to_owned();
    let ctl = playing(server, "What's the weather in Tokyo?", EraChoice::Legacy);
    ctl.settings
        .headers
        .set(format!("Authorization: Bearer {SECRET}"));
    let (_root, _handle) = mount(ctl);
    ctl.start(mcp_flow::flow::gate::Mode::Play);
    assert!(until(15_000, || ctl.run.with_untracked(|r| r.answer().is_some())).await);
    let run = ctl.run.get_untracked();
    // Every request carried the header, redacted in the record.
    for x in &run.mcp.exchanges {
        let auth = x
            .request_headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("authorization"))
            .map(|(_, v)| v.as_str());
        assert_eq!(auth, Some("[redacted]"), "{} {:?}", x.method, x.rpc_method);
    }
    let rec = mcp_flow::export::recording::Recording::new(
        &run,
        mcp_flow::export::recording::Context {
            created: "2026-12-01T00:00:00Z".into(),
            time_origin_ms: 0.0,
            server: "http://127.0.0.1/mcp",
            question: "What's the weather in Tokyo?",
            lang: "en",
            llm: "offline",
        },
    );
    let iso = |ms: f64| format!("{ms}");
    let exports = [
        rec.to_json(),
        mcp_flow::export::har::har(&rec, &iso).to_string(),
        mcp_flow::export::mermaid::mermaid(&rec.run, mcp_flow::diagram::Lang::En),
        run.mcp
            .exchanges
            .iter()
            .map(mcp_flow::mcp::record::curl)
            .collect::<Vec<_>>()
            .join("\n"),
        serde_json::to_string(&run).unwrap(),
    ];
    for (i, text) in exports.iter().enumerate() {
        assert!(!text.contains(SECRET), "export {i} holds the secret");
    }
    assert!(
        exports[3].contains("Authorization: [redacted]"),
        "{}",
        exports[3]
    );
}

#[wasm_bindgen_test]
async fn a_url_with_a_bridge_secret_is_saved_only_on_the_second_press() {
    let _ = storage().remove_item("mcp-flow.servers");
    let url = "http://127.0.0.1:3998/s/b1dge5ecret/mcp";
    let ctl = playing(url.into(), "What's the weather in Tokyo?", EraChoice::Auto);
    let (root, _handle) = mount(ctl);
    name_server(&root, "bridge");
    element::<HtmlElement>(&root, "#mf-save-server").click();
    sleep(30).await;
    let stored = storage().get_item("mcp-flow.servers").unwrap();
    assert!(
        stored.is_none_or(|s| !s.contains("b1dge5ecret")),
        "saved at once"
    );
    let warning = text(&root, "#mf-saved-problem");
    assert!(warning.contains("secret"), "{warning}");
    element::<HtmlElement>(&root, "#mf-save-server").click();
    sleep(30).await;
    let stored = storage().get_item("mcp-flow.servers").unwrap();
    assert!(
        stored.is_some_and(|s| s.contains(url)),
        "the second press saves"
    );
    assert!(text(&root, "#mf-saved-problem").is_empty());
    let _ = storage().remove_item("mcp-flow.servers");
}
