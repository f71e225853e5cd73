//! The browser side of the worker: reads each message as a [`Request`], fetches the model file
//! (from the Cache API when it is there, else from the server, then kept in the cache), and posts
//! every [`Event`] back as JSON text.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Reflect, Uint8Array};
use mcp_flow_smollm_wire::{Event, Loaded, Phase, Request};
use mcp_flow_smollm_worker::Session;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, spawn_local};
use web_sys::{
    Cache, DedicatedWorkerGlobalScope, MessageEvent, ReadableStreamDefaultReader, Response,
    WorkerGlobalScope,
};

/// The Cache API bucket the model files are kept in.
const CACHE_NAME: &str = "mcp-flow-models";
/// Bound on a model file: the 135M model is 145 MB; anything past this is not the file.
const MAX_MODEL_BYTES: u64 = 512 * 1024 * 1024;
/// Progress is posted every this many bytes.
const PROGRESS_STEP: u64 = 2 * 1024 * 1024;

#[derive(Default)]
struct State {
    session: Session,
    /// The `Ready` event of the load, repeated to a page that asks again.
    ready: Option<Event>,
}

pub fn start() {
    console_error_panic_hook::set_once();
    let state = Rc::new(RefCell::new(State::default()));
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |message: MessageEvent| {
        let Some(text) = message.data().as_string() else {
            return post(&failed(None, "the worker got a message that is not text"));
        };
        let request = match serde_json::from_str::<Request>(&text) {
            Ok(request) => request,
            Err(e) => return post(&failed(None, &format!("unreadable request: {e}"))),
        };
        let state = state.clone();
        spawn_local(async move {
            match request {
                Request::Load { url } => load(&state, &url).await,
                turn => state.borrow().session.run(turn, &now_ms, &mut |e| post(&e)),
            }
        });
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&Event::Started);
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

fn post(event: &Event) {
    if let Ok(text) = serde_json::to_string(event) {
        let _ = scope().post_message(&JsValue::from_str(&text));
    }
}

fn failed(id: Option<u32>, message: &str) -> Event {
    Event::Failed {
        id,
        message: message.to_owned(),
    }
}

/// A JavaScript error as text.
fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| format!("{error:?}"))
}

async fn load(state: &Rc<RefCell<State>>, url: &str) {
    if let Some(ready) = state.borrow().ready.clone() {
        return post(&ready);
    }
    let started = now_ms();
    let (bytes, from_cache, cache_note) = match fetch(url).await {
        Ok(fetched) => fetched,
        Err(message) => return post(&failed(None, &message)),
    };
    let size = bytes.len() as u64;
    post(&Event::Progress {
        phase: Phase::Load,
        done: 0,
        total: Some(size),
    });
    let loaded = state.borrow_mut().session.load(&bytes);
    drop(bytes);
    match loaded {
        Ok((model, quantization)) => {
            let ready = Event::Ready(Loaded {
                model,
                quantization,
                bytes: size,
                from_cache,
                cache_note,
                load_ms: now_ms() - started,
            });
            state.borrow_mut().ready = Some(ready.clone());
            post(&ready);
        }
        Err(message) if from_cache => {
            forget(url).await;
            post(&failed(
                None,
                &format!(
                    "{url}: the copy in the browser's cache is unusable ({message}); it was removed, so the next try downloads it again"
                ),
            ))
        }
        Err(message) => post(&failed(None, &format!("{url}: {message}"))),
    }
}

/// Removes `url` from the model cache.
async fn forget(url: &str) {
    let global: WorkerGlobalScope = js_sys::global().unchecked_into();
    if let Ok(storage) = global.caches()
        && let Ok(cache) = JsFuture::from(storage.open(CACHE_NAME)).await
        && let Ok(cache) = cache.dyn_into::<Cache>()
    {
        let _ = JsFuture::from(cache.delete_with_str(url)).await;
    }
}

/// The model file's bytes, whether they came from the cache, and why they could not be cached.
async fn fetch(url: &str) -> Result<(Vec<u8>, bool, Option<String>), String> {
    let global: WorkerGlobalScope = js_sys::global().unchecked_into();
    let cache = match global.caches() {
        Ok(storage) => JsFuture::from(storage.open(CACHE_NAME))
            .await
            .ok()
            .and_then(|c| c.dyn_into::<Cache>().ok()),
        Err(_) => None,
    };
    if let Some(cache) = &cache
        && let Ok(hit) = JsFuture::from(cache.match_with_str(url)).await
        && let Ok(response) = hit.dyn_into::<Response>()
    {
        return Ok((read(&response, Phase::Cache).await?, true, None));
    }
    let response: Response = JsFuture::from(global.fetch_with_str(url))
        .await
        .map_err(|e| format!("could not fetch {url}: {}", describe(&e)))?
        .dyn_into()
        .map_err(|_| format!("could not fetch {url}: no response"))?;
    if !response.ok() {
        return Err(format!(
            "{url} answered HTTP {} {}",
            response.status(),
            response.status_text()
        ));
    }
    // The cache reads its own copy of the body while this one is read.
    let stored = match (&cache, response.clone()) {
        (Some(cache), Ok(copy)) => Some(JsFuture::from(cache.put_with_str(url, &copy))),
        _ => None,
    };
    let bytes = read(&response, Phase::Download).await?;
    let note = match stored {
        None => Some("the browser's Cache API is not available to this page".to_owned()),
        Some(put) => put.await.err().map(|e| {
            format!(
                "the file could not be kept in the Cache API: {}",
                describe(&e)
            )
        }),
    };
    Ok((bytes, false, note))
}

/// Reads a response body to the end, posting progress.
async fn read(response: &Response, phase: Phase) -> Result<Vec<u8>, String> {
    let total = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|v| v.trim().parse::<u64>().ok());
    if total.is_some_and(|t| t > MAX_MODEL_BYTES) {
        return Err(format!(
            "the model file is {} bytes, more than the {MAX_MODEL_BYTES} a model here may be",
            total.unwrap_or(0)
        ));
    }
    let body = response
        .body()
        .ok_or("the model file's response has no body")?;
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes: Vec<u8> = Vec::with_capacity(total.unwrap_or(0) as usize);
    let mut posted = 0u64;
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("the model file broke off: {}", describe(&e)))?;
        if Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true)
        {
            break;
        }
        let value: Uint8Array = Reflect::get(&chunk, &"value".into())
            .ok()
            .and_then(|v| v.dyn_into().ok())
            .ok_or("the model file's stream gave something that is not bytes")?;
        let start = bytes.len();
        if (start + value.length() as usize) as u64 > MAX_MODEL_BYTES {
            return Err(format!(
                "the model file is longer than the {MAX_MODEL_BYTES} bytes a model here may be"
            ));
        }
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
        let done = bytes.len() as u64;
        if done - posted >= PROGRESS_STEP {
            posted = done;
            post(&Event::Progress { phase, done, total });
        }
    }
    let done = bytes.len() as u64;
    post(&Event::Progress { phase, done, total });
    match total {
        Some(total) if total != done => Err(format!(
            "the model file ended after {done} of its {total} bytes"
        )),
        _ => Ok(bytes),
    }
}
