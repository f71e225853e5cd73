//! A tool's app on the page (MCP Apps): the panel under the answer with the app's frame, loaded
//! from the sandbox proxy under the page's other loopback name, and the browser's side of the
//! frame ([`BrowserFrame`]) through which the host (`flow::apps`) talks with the app. Fetched
//! with the `apps` group when a tool the model called has an app.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures_channel::mpsc::{UnboundedReceiver, UnboundedSender, unbounded};
use futures_channel::oneshot;
use futures_util::StreamExt;
use futures_util::future::LocalBoxFuture;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

use super::controller::{AppRelease, Controller, PageHost};
use super::lazy_view::ViewFn;
use super::stores::Settings;
use crate::app::context::{HostFacts, STYLE_VARIABLES};
use crate::app::frame::{Frame, FrameEvent, SANDBOX_PATH, is_dark, sandbox_origin};
use crate::app::guard::{MAX_HEIGHT, MAX_MESSAGE_BYTES};
use crate::clock::{BrowserClock, Clock};
use crate::diagram::Lang;
use crate::flow::apps::{CalledTool, TEARDOWN_WAIT_MS};
use crate::on_demand::{OnDemandError, on_demand};

/// The most messages from an app that wait to be read; more are dropped (and said).
const MAX_QUEUED: u32 = 2_000;

fn say(lang: Lang, en: &'static str, zh: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

/// The page's facts for the app: its background tells the theme, its CSS variables the styles.
fn page_facts(lang: Lang, iframe: &web_sys::HtmlIFrameElement) -> HostFacts {
    let window = window();
    let style = document()
        .document_element()
        .and_then(|root| window.get_computed_style(&root).ok().flatten());
    let read = |name: &str| {
        style
            .as_ref()
            .and_then(|s| s.get_property_value(name).ok())
            .map(|v| v.trim().to_owned())
            .unwrap_or_default()
    };
    let variables: Vec<(String, String)> = STYLE_VARIABLES
        .iter()
        .map(|(theirs, ours)| ((*theirs).to_owned(), read(ours)))
        .filter(|(_, value)| !value.is_empty())
        .collect();
    HostFacts {
        dark: is_dark(&read("--mf-bg")),
        locale: match lang {
            Lang::En => "en".into(),
            Lang::Zh => "zh-CN".into(),
        },
        variables,
        width: u32::try_from(iframe.client_width()).unwrap_or(0),
        max_height: MAX_HEIGHT,
    }
}

/// The frame as the host sees it: the outer iframe (the proxy), the messages it posts to the
/// page, the user's answers.
struct BrowserFrame {
    iframe: web_sys::HtmlIFrameElement,
    origin: String,
    lang: RwSignal<Lang>,
    events: Rc<RefCell<UnboundedReceiver<FrameEvent>>>,
    queued: Rc<Cell<u32>>,
    listener: Closure<dyn FnMut(web_sys::MessageEvent)>,
    /// The link the app asks to open, while the user decides.
    link: Asking,
    /// The message the app asks to send to the model, while the user decides.
    message: Asking,
    ctl: Controller,
}

/// Something the app asks the user (a link to open, a message to send): shown while it waits,
/// answered once.
#[derive(Clone)]
struct Asking {
    shown: RwSignal<Option<String>>,
    answer: Rc<RefCell<Option<oneshot::Sender<bool>>>>,
}

impl Asking {
    fn new() -> Self {
        Self {
            shown: RwSignal::new(None),
            answer: Rc::default(),
        }
    }

    fn ask(&self, what: String) -> LocalBoxFuture<'static, bool> {
        let (tx, rx) = oneshot::channel();
        *self.answer.borrow_mut() = Some(tx);
        self.shown.set(Some(what));
        Box::pin(async move { rx.await.unwrap_or(false) })
    }

    /// The user's answer: what was asked, when they said yes.
    fn answer(&self, yes: bool) -> Option<String> {
        let asked = self.shown.get_untracked();
        self.shown.set(None);
        if let Some(tx) = self.answer.borrow_mut().take() {
            let _ = tx.send(yes && asked.is_some());
        }
        asked.filter(|_| yes)
    }
}

impl Drop for BrowserFrame {
    fn drop(&mut self) {
        let _ = window()
            .remove_event_listener_with_callback("message", self.listener.as_ref().unchecked_ref());
        self.link.shown.try_set(None);
        self.message.shown.try_set(None);
    }
}

/// What the page makes of a message the proxy posted: JSON within the limit, or why not.
fn read_posted(data: &wasm_bindgen::JsValue, at_ms: f64) -> FrameEvent {
    let text = js_sys::JSON::stringify(data)
        .ok()
        .and_then(|t| t.as_string());
    let Some(text) = text else {
        return FrameEvent::Unreadable {
            at_ms,
            why: "a message that is not JSON".into(),
        };
    };
    if text.len() > MAX_MESSAGE_BYTES {
        return FrameEvent::Unreadable {
            at_ms,
            why: format!(
                "a message of {} bytes: the host reads at most {MAX_MESSAGE_BYTES}",
                text.len()
            ),
        };
    }
    match serde_json::from_str(&text) {
        Ok(message) => FrameEvent::Message { at_ms, message },
        Err(e) => FrameEvent::Unreadable {
            at_ms,
            why: format!("a message that is not JSON: {e}"),
        },
    }
}

impl BrowserFrame {
    fn new(
        ctl: Controller,
        iframe: web_sys::HtmlIFrameElement,
        origin: String,
        link: Asking,
        message: Asking,
    ) -> (Rc<Self>, UnboundedSender<FrameEvent>) {
        let (tx, rx) = unbounded();
        let queued = Rc::new(Cell::new(0u32));
        let said_full = Rc::new(Cell::new(false));
        let (from, sink, count) = (origin.clone(), tx.clone(), queued.clone());
        let watched = iframe.clone();
        let listener = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |ev: web_sys::MessageEvent| {
                if ev.origin() != from {
                    return;
                }
                let from_frame = match (ev.source(), watched.content_window()) {
                    (Some(source), Some(frame)) => {
                        wasm_bindgen::JsValue::from(source) == wasm_bindgen::JsValue::from(frame)
                    }
                    _ => false,
                };
                if !from_frame {
                    return;
                }
                let at_ms = BrowserClock.now_ms();
                if count.get() >= MAX_QUEUED {
                    if !said_full.replace(true) {
                        let why = format!(
                            "more than {MAX_QUEUED} messages waiting: dropped until the host catches up"
                        );
                        let _ = sink.unbounded_send(FrameEvent::Unreadable { at_ms, why });
                    }
                    return;
                }
                said_full.set(false);
                count.set(count.get() + 1);
                let _ = sink.unbounded_send(read_posted(&ev.data(), at_ms));
            },
        );
        let _ =
            window().add_event_listener_with_callback("message", listener.as_ref().unchecked_ref());
        let frame = Rc::new(Self {
            iframe,
            origin,
            lang: ctl.settings.lang,
            events: Rc::new(RefCell::new(rx)),
            queued,
            listener,
            link,
            message,
            ctl,
        });
        (frame, tx)
    }
}

impl Frame for BrowserFrame {
    fn post(&self, message: serde_json::Value) {
        let Some(target) = self.iframe.content_window() else {
            return;
        };
        let Ok(value) = js_sys::JSON::parse(&message.to_string()) else {
            return;
        };
        let _ = target.post_message(&value, &self.origin);
    }

    fn next(&self) -> LocalBoxFuture<'static, Option<FrameEvent>> {
        let (events, queued) = (self.events.clone(), self.queued.clone());
        Box::pin(async move {
            let event =
                futures_util::future::poll_fn(|cx| events.borrow_mut().poll_next_unpin(cx)).await;
            if matches!(
                event,
                Some(FrameEvent::Message { .. } | FrameEvent::Unreadable { .. })
            ) {
                queued.set(queued.get().saturating_sub(1));
            }
            event
        })
    }

    fn resize(&self, height: u32) {
        let _ = self
            .iframe
            .set_attribute("style", &format!("height: {height}px"));
    }

    fn facts(&self) -> HostFacts {
        page_facts(self.lang.get_untracked(), &self.iframe)
    }

    fn open_link(&self, url: String) -> LocalBoxFuture<'static, bool> {
        self.link.ask(url)
    }

    fn ask(&self, text: String) -> LocalBoxFuture<'static, bool> {
        let (asked, ctl) = (self.message.ask(text.clone()), self.ctl);
        Box::pin(async move {
            let sent = asked.await;
            if sent {
                // The model is asked, even in a session a link's tool call began.
                ctl.settings.call_tool.set(String::new());
                ctl.settings.question.set(text);
                ctl.ask(ctl.mode.get_untracked());
            }
            sent
        })
    }
}

/// The app's teardown for the controller: the conversation is told to close with the reason
/// (it sends `ui/resource-teardown` and waits for the answer), and this ends when the
/// conversation has (or a little after the host's own wait).
fn teardown(tx: UnboundedSender<FrameEvent>, gone: oneshot::Receiver<()>) -> AppRelease {
    let gone = Cell::new(Some(gone));
    Rc::new(move |reason: &'static str| {
        let _ = tx.unbounded_send(FrameEvent::Closing(reason.into()));
        let gone = gone.take();
        Box::pin(async move {
            if let Some(gone) = gone {
                let wait = Box::pin(BrowserClock.sleep(TEARDOWN_WAIT_MS + 1_000));
                let _ = futures_util::future::select(gone, wait).await;
            }
        })
    })
}

/// Hosts `called`'s app in `frame` on the run's host; the host's type is the page's.
fn host_app(
    ctl: Controller,
    called: CalledTool,
    frame: Rc<BrowserFrame>,
) -> LocalBoxFuture<'static, ()> {
    Box::pin(async move {
        let Some(engine) = ctl.run_engine() else {
            return;
        };
        let Ok(host) = engine.host().downcast::<PageHost>() else {
            return;
        };
        let _ = host.host_app(&called, frame).await;
    })
}

#[component]
fn AppFrame(ctl: Controller, called: CalledTool) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let lang = settings.lang;
    let page = window().location().origin().unwrap_or_default();
    let origin = sandbox_origin(&page);
    let uri = called.app_uri().unwrap_or_default().to_owned();
    let tool = called
        .tool
        .get("name")
        .and_then(|n| n.as_str())
        .unwrap_or("?")
        .to_owned();
    let iframe_ref = NodeRef::<leptos::html::Iframe>::new();
    let (link, message) = (Asking::new(), Asking::new());
    let closer: StoredValue<Option<UnboundedSender<FrameEvent>>, LocalStorage> =
        StoredValue::new_local(None);
    let started = Cell::new(false);
    let (link_slot, message_slot) = (link.clone(), message.clone());
    let proxy = origin.clone().ok();
    Effect::new(move |_| {
        let (Some(iframe), Some(proxy)) = (iframe_ref.get(), proxy.clone()) else {
            return;
        };
        if started.replace(true) {
            return;
        }
        let (frame, tx) =
            BrowserFrame::new(ctl, iframe, proxy, link_slot.clone(), message_slot.clone());
        closer.set_value(Some(tx.clone()));
        let (ended, gone) = oneshot::channel::<()>();
        ctl.in_run(host_app(ctl, called.clone(), frame), move || {
            let _ = ended.send(());
            ctl.app.set(false)
        });
        // Held until the next app's: once this conversation has ended (or its run was
        // dropped), calling it ends at once.
        ctl.hold_app(teardown(tx, gone));
    });
    // The page's theme or language changed: the host tells the app.
    let changed = move || {
        closer.with_value(|tx| {
            if let Some(tx) = tx {
                let _ = tx.unbounded_send(FrameEvent::ContextChanged);
            }
        });
    };
    let watched = Cell::new(false);
    Effect::new(move |_| {
        lang.track();
        if watched.replace(true) {
            changed();
        }
    });
    // The theme picker (`#mf-theme`) is the page's, not this module's: heard on the document.
    let picked = window_event_listener(leptos::ev::change, move |ev| {
        let theme = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| el.id() == "mf-theme");
        if theme {
            // After the page has applied the theme (its effect runs once this event is done).
            set_timeout(changed, std::time::Duration::ZERO);
        }
    });
    on_cleanup(move || picked.remove());
    let (link_shown, message_shown) = (link.shown, message.shown);
    let answer = move |open: bool| {
        if let Some(url) = link.answer(open) {
            // Opened by the user's click, without a way back to this page.
            let _ = window().open_with_url_and_target_and_features(
                &url,
                "_blank",
                "noopener,noreferrer",
            );
        }
    };
    let answer = StoredValue::new_local(answer);
    let send = StoredValue::new_local(move |yes: bool| {
        message.answer(yes);
    });
    let close = move |_| {
        closer.with_value(|tx| {
            if let Some(tx) = tx {
                let _ = tx.unbounded_send(FrameEvent::Closing("the user closed the app".into()));
            }
        });
    };
    view! {
        <section id="mf-app-panel" class="mf-app-panel">
            <h2>{move || say(lang.get(), "App", "应用")} " · " {tool.clone()}</h2>
            <p class="mf-note">
                {move || say(lang.get(), "From ", "来自 ")} <code>{uri.clone()}</code>
                {match origin.clone() {
                    Ok(proxy) => view! { <span>{move || say(lang.get(), ", in a sandbox on ", "，运行在沙箱源 ")} <code id="mf-app-origin">{proxy.clone()}</code></span> }.into_any(),
                    Err(why) => view! { <span class="mf-error-line">{format!(" — {why}")}</span> }.into_any(),
                }}
            </p>
            {origin.clone().ok().map(|proxy| view! {
                <iframe
                    node_ref=iframe_ref
                    id="mf-app-frame"
                    class="mf-app-frame"
                    src=format!("{proxy}{SANDBOX_PATH}")
                    sandbox="allow-scripts allow-same-origin"
                    title=move || say(lang.get(), "The tool's app", "工具的应用")
                ></iframe>
            })}
            <Show when=move || message_shown.with(|m| m.is_some())>
                <p id="mf-app-message" class="mf-app-link" role="alert">
                    {move || say(lang.get(), "The app asks to send the model ", "应用请求向模型发送 ")}
                    <code>{move || message_shown.get().unwrap_or_default()}</code>
                    " "
                    <button id="mf-app-message-send" on:click=move |_| send.with_value(|s| s(true))>{move || say(lang.get(), "Send", "发送")}</button>
                    <button id="mf-app-message-no" on:click=move |_| send.with_value(|s| s(false))>{move || say(lang.get(), "Don't send", "不发送")}</button>
                </p>
            </Show>
            <Show when=move || link_shown.with(|l| l.is_some())>
                <p id="mf-app-link" class="mf-app-link" role="alert">
                    {move || say(lang.get(), "The app asks to open ", "应用请求打开 ")}
                    <code>{move || link_shown.get().unwrap_or_default()}</code>
                    " "
                    <button id="mf-app-link-open" on:click=move |_| answer.with_value(|a| a(true))>{move || say(lang.get(), "Open", "打开")}</button>
                    <button id="mf-app-link-no" on:click=move |_| answer.with_value(|a| a(false))>{move || say(lang.get(), "Don't open", "不打开")}</button>
                </p>
            </Show>
            <button id="mf-app-close" class="mf-secondary" on:click=close>{move || say(lang.get(), "Close the app", "关闭应用")}</button>
        </section>
    }
}

fn app_panel(ctl: Controller) -> impl IntoView {
    move || {
        let called = ctl
            .app
            .get()
            .then(|| ctl.run_engine()?.app_call())
            .flatten()?;
        Some(view! { <AppFrame ctl=ctl called=called /> })
    }
}

on_demand!(
    apps,
    pub fn app_panel_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| app_panel(ctl).into_any())
    }
);
