//! Helpers the browser tests share: mounting the page, waiting, reading the SVG rows.
#![allow(dead_code)]

use leptos::prelude::*;
use mcp_flow::ui::{Controller, Page};
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

pub fn mount(ctl: Controller) -> (HtmlElement, Mounted<impl Mountable>) {
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone(), move || view! { <Page ctl=ctl /> });
    (
        root,
        Mounted {
            ctl,
            _handle: handle,
        },
    )
}

/// A mounted page: dropped, its run ends (as leaving the page ends it), so no run of one test
/// keeps streams open into the next.
pub struct Mounted<M: Mountable> {
    ctl: Controller,
    _handle: leptos::mount::UnmountHandle<M>,
}

impl<M: Mountable> Drop for Mounted<M> {
    fn drop(&mut self) {
        self.ctl.end_run(None);
    }
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
    ctl.settings.era.set(era);
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

/// Waits until `signal` holds something, up to `ms`.
pub async fn until_some<T: Send + Sync + 'static>(ms: u32, signal: RwSignal<Option<T>>) -> bool {
    until(ms, || signal.with_untracked(Option::is_some)).await
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

/// Clicks the element `selector` names.
pub fn click(root: &HtmlElement, selector: &str) {
    let el: HtmlElement = root
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"))
        .unchecked_into();
    el.click();
}

/// Types `value` into an input or text area as a user would (an `input` event that bubbles).
pub fn type_into(root: &HtmlElement, selector: &str, value: &str) {
    let element = root
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"));
    if let Some(input) = element.dyn_ref::<web_sys::HtmlInputElement>() {
        input.set_value(value);
    } else if let Some(area) = element.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        area.set_value(value);
    }
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("input", &init).unwrap();
    element.dispatch_event(&event).unwrap();
}

/// Chooses the option whose text is `label` in the select `selector`, as a user does.
pub fn choose_option(root: &HtmlElement, selector: &str, label: &str) {
    let select: web_sys::HtmlSelectElement = root
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"))
        .unchecked_into();
    let options = select.query_selector_all("option").unwrap();
    let value = (0..options.length())
        .filter_map(|i| options.item(i))
        .filter_map(|o| o.dyn_into::<web_sys::Element>().ok())
        .find(|o| o.text_content().is_some_and(|t| t.trim() == label))
        .and_then(|o| o.get_attribute("value"))
        .unwrap_or_else(|| panic!("no option {label} in {selector}"));
    select.set_value(&value);
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
}

/// Opens the closed panel `selector` (a `<details>`) as a user does, by its summary, and waits
/// for `body` in it: a panel's body is fetched the first time it is opened.
pub async fn open_panel(root: &HtmlElement, selector: &str, body: &str) {
    click(root, &format!("{selector} > summary"));
    let shown = until(5_000, || {
        root.query_selector(&format!("{selector} {body}"))
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    assert!(shown, "{selector} did not show {body} once opened");
}

/// The live servers `cargo xtask test browser` starts (xtask/src/test/browser.rs), each named to
/// the tests by an `MCP_FLOW_TEST_*` variable.
#[derive(Debug, Clone, Copy)]
pub enum Live {
    /// The weather server: sessions, SSE answers.
    Sse,
    /// The weather server: stateless, plain JSON answers.
    Json,
    /// The weather server: stateless, SSE answers.
    Stateless,
    /// The weather server without this page's origin on its allow-list.
    Foreign,
    /// The weather server as a protected resource (`--auth --auth-auto-approve`).
    Auth,
    /// The weather server keeping a journal of what it received, two sessions at most.
    Lifecycle,
    /// The OpenAI-compatible model fixture (`mcp-flow-test-servers llm`).
    Llm,
    /// The faulty server's base URL, without a path (`mcp-flow-test-servers faulty`).
    Faulty,
    /// The official TypeScript SDK v2's weather server.
    TsSdk,
    /// The official Python SDK's weather server.
    PySdk,
    /// `mcp-flow-bridge stdio` wrapping the Python SDK's stdio weather server.
    Bridge,
    /// The bridge wrapping the reference server `mcp-server-time`.
    BridgeTime,
    /// The bridge wrapping the reference `server-everything` (stdio).
    BridgeEverything,
    /// `mcp-flow-bridge http` in front of `server-everything`'s own HTTP mode.
    BridgeEverythingHttp,
    /// `mcp-flow-bridge stdio` serving the TypeScript SDK's `progressExample`.
    BridgeProgress,
    /// The Python SDK's HTTP server that admits no page's origin.
    Guarded,
    /// `mcp-flow-bridge http` in front of it.
    BridgeGuarded,
}

impl Live {
    pub fn url(self) -> &'static str {
        let url = match self {
            Self::Sse => option_env!("MCP_FLOW_TEST_SSE_URL"),
            Self::Json => option_env!("MCP_FLOW_TEST_JSON_URL"),
            Self::Stateless => option_env!("MCP_FLOW_TEST_STATELESS_URL"),
            Self::Foreign => option_env!("MCP_FLOW_TEST_FOREIGN_URL"),
            Self::Auth => option_env!("MCP_FLOW_TEST_AUTH_URL"),
            Self::Lifecycle => option_env!("MCP_FLOW_TEST_LIFECYCLE_URL"),
            Self::Llm => option_env!("MCP_FLOW_TEST_LLM_URL"),
            Self::Faulty => option_env!("MCP_FLOW_TEST_FAULTY_URL"),
            Self::TsSdk => option_env!("MCP_FLOW_TEST_TS_SDK_URL"),
            Self::PySdk => option_env!("MCP_FLOW_TEST_PY_SDK_URL"),
            Self::Bridge => option_env!("MCP_FLOW_TEST_BRIDGE_URL"),
            Self::BridgeTime => option_env!("MCP_FLOW_TEST_BRIDGE_TIME_URL"),
            Self::BridgeEverything => option_env!("MCP_FLOW_TEST_BRIDGE_EVERYTHING_URL"),
            Self::BridgeEverythingHttp => option_env!("MCP_FLOW_TEST_BRIDGE_EVERYTHING_HTTP_URL"),
            Self::BridgeProgress => option_env!("MCP_FLOW_TEST_BRIDGE_PROGRESS_URL"),
            Self::Guarded => option_env!("MCP_FLOW_TEST_GUARDED_URL"),
            Self::BridgeGuarded => option_env!("MCP_FLOW_TEST_BRIDGE_GUARDED_URL"),
        };
        match url {
            // `cargo xtask test` could not start it (xtask/src/test/browser.rs says why).
            Some(why) if why.starts_with("unavailable: ") => {
                panic!("the {self:?} server is {why}")
            }
            Some(url) => url,
            None => panic!(
                "no {self:?} server: run through `cargo xtask test browser`, which starts it"
            ),
        }
    }
}
