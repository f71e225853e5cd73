//! The browser's HTTP for the transport: fetch through gloo-net, with the response body read as
//! a stream (each chunk as the network delivers it).

use gloo_net::http::{Method, RequestBuilder};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::ReadableStreamDefaultReader;

use crate::http::{BodyStream, Http, HttpRequest, HttpResponse};

/// fetch() in the page.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fetch;

/// A fetch body, read chunk by chunk. Dropping it cancels the stream.
pub struct FetchBody {
    reader: Option<ReadableStreamDefaultReader>,
    /// A read not yet finished: the next `chunk` goes on with it, so a caller that stopped
    /// waiting (the HTTP+SSE transport's readers take turns) loses no chunk.
    pending: Option<JsFuture>,
    _abort: AbortOnDrop,
}

impl Drop for FetchBody {
    fn drop(&mut self) {
        if let Some(reader) = self.reader.take() {
            // Tell the browser we will not read further (closes an open SSE stream).
            let _ = reader.cancel();
        }
    }
}

/// Aborts the fetch when dropped: a request given up on (a timeout before the response head
/// came) must not keep one of the browser's few connections to the server busy. Aborting a
/// fetch that has finished does nothing.
struct AbortOnDrop(web_sys::AbortController);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl BodyStream for FetchBody {
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, String> {
        let Some(reader) = &self.reader else {
            return Ok(None);
        };
        let read = self
            .pending
            .get_or_insert_with(|| JsFuture::from(reader.read()));
        let step = read.await;
        self.pending = None;
        let step = step.map_err(js_text)?;
        let done = Reflect::get(&step, &"done".into())
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true);
        if done {
            self.reader = None;
            return Ok(None);
        }
        let value = Reflect::get(&step, &"value".into()).map_err(js_text)?;
        Ok(Some(Uint8Array::new(&value).to_vec()))
    }
}

impl Http for Fetch {
    type Body = FetchBody;

    async fn send(&self, request: &HttpRequest) -> Result<HttpResponse<FetchBody>, String> {
        let method = match request.method {
            "GET" => Method::GET,
            "DELETE" => Method::DELETE,
            _ => Method::POST,
        };
        let abort = AbortOnDrop(web_sys::AbortController::new().map_err(js_text)?);
        let mut builder = RequestBuilder::new(&request.url)
            .method(method)
            .abort_signal(Some(&abort.0.signal()));
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        let built = match &request.body {
            Some(body) => builder.body(body.as_str()),
            None => builder.build(),
        }
        .map_err(|e| e.to_string())?;
        let response = built.send().await.map_err(|e| e.to_string())?;
        let headers = response.headers().entries().collect();
        let reader = response.body().and_then(|stream| {
            stream
                .get_reader()
                .dyn_into::<ReadableStreamDefaultReader>()
                .ok()
        });
        Ok(HttpResponse {
            status: response.status(),
            headers,
            body: FetchBody {
                reader,
                pending: None,
                _abort: abort,
            },
        })
    }
}

/// Sends `request` without waiting for an answer, with `keepalive` so the browser delivers it
/// even while the page unloads (the DELETE that closes a session on `pagehide`).
pub fn send_keepalive(request: &HttpRequest) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let init = web_sys::RequestInit::new();
    init.set_method(request.method);
    // web-sys has no setter for `keepalive` on RequestInit yet.
    let _ = Reflect::set(&init, &"keepalive".into(), &JsValue::TRUE);
    if let Ok(headers) = web_sys::Headers::new() {
        for (name, value) in &request.headers {
            let _ = headers.set(name, value);
        }
        init.set_headers(&headers);
    }
    if let Some(body) = &request.body {
        init.set_body(&JsValue::from_str(body));
    }
    // The promise is dropped: nobody is left to read the answer.
    let _ = window.fetch_with_str_and_init(&request.url, &init);
}

fn js_text(value: JsValue) -> String {
    value
        .as_string()
        .or_else(|| {
            value
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| format!("{value:?}"))
}
