//! The browser side of the worker: each message is a [`Request`] as JSON text; each answer an
//! [`Event`] as JSON text.

use mcp_flow_schema_worker::{Event, Request, check};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// No panic hook: a panic aborts the worker, whose error event fails the page's pending checks
/// with its message (`core/src/output_check/worker.rs`); the hook's formatting would add a
/// kilobyte to every first run for a console line only.
pub fn start() {
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |message: MessageEvent| {
        let request = message
            .data()
            .as_string()
            .ok_or_else(|| "the message is not text".to_owned())
            .and_then(|text| serde_json::from_str::<Request>(&text).map_err(|e| e.to_string()));
        post(&match request {
            Ok(Request::Check {
                id,
                schema,
                instance,
            }) => Event::Checked {
                id,
                verdict: check(&schema, &instance),
            },
            Err(message) => Event::Unreadable { message },
        });
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&Event::Started);
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(event: &Event) {
    if let Ok(text) = serde_json::to_string(event) {
        let _ = scope().post_message(&JsValue::from_str(&text));
    }
}
