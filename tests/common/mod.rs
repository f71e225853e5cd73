//! Helpers the browser tests share: mounting the page, waiting, reading the SVG rows.
#![allow(dead_code)]

use leptos::prelude::*;
use mcp_flow::ui::{Controller, Page};
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

pub fn mount(ctl: Controller) -> (HtmlElement, leptos::mount::UnmountHandle<impl Mountable>) {
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone(), move || view! { <Page ctl=ctl /> });
    (root, handle)
}

/// A controller that plays `question` against `server` in `era`, with tool approval off.
pub fn playing(server: String, question: &str, era: mcp_flow::mcp::era::EraChoice) -> Controller {
    let ctl = Controller::new(
        server,
        question.into(),
        mcp_flow::diagram::Lang::En,
        mcp_flow::flow::gate::Mode::Play,
        None,
        mcp_flow::flow::host::Approval::Auto,
    );
    ctl.era.set(era);
    ctl
}

pub async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

/// Waits until `done` holds, up to `ms`.
pub async fn until(ms: u32, mut done: impl FnMut() -> bool) -> bool {
    for _ in 0..ms / 20 {
        if done() {
            return true;
        }
        sleep(20).await;
    }
    done()
}

pub fn state(root: &HtmlElement, row: &str) -> String {
    root.query_selector(&format!("[data-row='{row}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no row {row}"))
        .get_attribute("data-state")
        .unwrap_or_default()
}

pub fn text(root: &HtmlElement, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}
