//! A Web Worker built by Trunk beside the app (`data-type="worker"`), started on demand: its
//! messages are JSON text both ways. The worker posts `"started"` once it listens; what the page
//! posts before that is held and sent then (a message posted earlier could be lost while the
//! worker's wasm is still loading). Dropping the link terminates the worker.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Reads one message a worker posted (JSON text) as `T`.
pub fn read_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// The text a worker posts when it listens (`"started"` in JSON).
pub const STARTED: &str = "\"started\"";

pub struct WorkerLink {
    worker: web_sys::Worker,
    /// Messages written before the worker said it listens; `None` once it has.
    held: Rc<RefCell<Option<Vec<String>>>>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl WorkerLink {
    /// Starts the worker `script` (`what` names it in errors); `on_message` gets every message
    /// but `"started"`, as text (or an error if one is not text); `on_error` gets the worker's
    /// failure.
    pub fn start(
        script: &str,
        what: &'static str,
        on_message: impl Fn(Result<String, String>) + 'static,
        on_error: impl Fn(String) + 'static,
    ) -> Result<Self, String> {
        let worker =
            web_sys::Worker::new(script).map_err(|e| format!("{what} could not start: {e:?}"))?;
        let held: Rc<RefCell<Option<Vec<String>>>> = Rc::new(RefCell::new(Some(Vec::new())));
        let on_message = {
            let held = held.clone();
            let worker = worker.clone();
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
                move |m: web_sys::MessageEvent| match m.data().as_string() {
                    Some(text) if text == STARTED => {
                        for text in held.borrow_mut().take().unwrap_or_default() {
                            if let Err(e) = worker.post_message(&JsValue::from_str(&text)) {
                                on_message(Err(format!("{what} refused a message: {e:?}")));
                            }
                        }
                    }
                    Some(text) => on_message(Ok(text)),
                    None => on_message(Err(format!("{what} posted a message that is not text"))),
                },
            )
        };
        let on_error =
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                on_error(format!("{what} stopped: {}", e.message()))
            });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Self {
            worker,
            held,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Posts `text`, or holds it until the worker listens.
    pub fn post(&self, text: String) -> Result<(), String> {
        if let Some(held) = self.held.borrow_mut().as_mut() {
            held.push(text);
            return Ok(());
        }
        self.worker
            .post_message(&JsValue::from_str(&text))
            .map_err(|e| format!("the worker refused a message: {e:?}"))
    }
}

impl Drop for WorkerLink {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}
