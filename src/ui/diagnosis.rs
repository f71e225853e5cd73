//! The page's side of a diagnosis (`core::diagnose`): its probes, and the checks run when a run's
//! first request found no MCP server. Fetched on demand, when a run needs it.

use futures_util::future::{Either, LocalBoxFuture, select};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::clock::{BrowserClock, Clock};
use crate::diagnose::{Answer, Diagnosis, PROBE_BODY, Probe, diagnose};
use crate::diagram::Row;
use crate::on_demand::{OnDemandError, on_demand};

/// The longest a probe waits for its answer (a server may hang; each check ends).
const PROBE_MS: u32 = 5_000;
/// The most of a body a probe keeps.
const PROBE_CHARS: usize = 4_096;

/// Runs the checks for the page at `page` that could not reach `url` at `row`.
/// The diagnosis of `url` (the page's origin first), failed at the row; whether a link chose it.
pub type Diagnose = fn(String, String, Row, bool) -> LocalBoxFuture<'static, Diagnosis>;

struct PageProbe;

/// `work`, or `None` after [`PROBE_MS`].
async fn bounded<T>(work: impl std::future::Future<Output = T>) -> Option<T> {
    let work = std::pin::pin!(work);
    let timer = std::pin::pin!(BrowserClock.sleep(PROBE_MS));
    match select(work, timer).await {
        Either::Left((done, _)) => Some(done),
        Either::Right(_) => None,
    }
}

/// What `read` gets within [`PROBE_MS`]: its answer, what the browser said when it failed, or
/// [`Answer::Late`].
async fn probed(read: impl std::future::Future<Output = Result<Answer, String>>) -> Answer {
    match bounded(read).await {
        Some(Ok(answer)) => answer,
        Some(Err(why)) => Answer::Nothing(why),
        None => Answer::Late(PROBE_MS / 1000),
    }
}

/// A readable probe's request: `method` with `headers`, never following a redirect.
fn probe_init(method: &str, headers: &[(&str, &str)]) -> Result<web_sys::RequestInit, String> {
    let set = web_sys::Headers::new().map_err(|_| "no headers".to_owned())?;
    for (name, value) in headers {
        let _ = set.append(name, value);
    }
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    init.set_headers(&set);
    init.set_redirect(web_sys::RequestRedirect::Manual);
    Ok(init)
}

/// A header of `response` the page may read.
fn header(response: &web_sys::Response, name: &str) -> Option<String> {
    response.headers().get(name).ok().flatten()
}

/// Fetches `url` with `init`, never following a redirect (no probe leaves the origin typed).
async fn fetch(url: &str, init: &web_sys::RequestInit) -> Result<web_sys::Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str_and_init(url, init))
        .await
        .map_err(|e| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "the fetch failed".to_owned())
        })?;
    response
        .dyn_into::<web_sys::Response>()
        .map_err(|_| "not a response".to_owned())
}

impl Probe for PageProbe {
    async fn post(&self, url: &str) -> Answer {
        let read = async {
            let init = probe_init(
                "POST",
                &[
                    ("Content-Type", "application/json"),
                    ("Accept", "application/json, text/event-stream"),
                ],
            )?;
            init.set_body(&PROBE_BODY.into());
            let response = fetch(url, &init).await?;
            if response.type_() == web_sys::ResponseType::Opaqueredirect {
                return Ok(Answer::Redirect);
            }
            let content_type = header(&response, "content-type").unwrap_or_default();
            // An SSE stream may stay open: its content type says enough.
            let body = if content_type.starts_with("text/event-stream") {
                String::new()
            } else {
                match response.text() {
                    Ok(text) => JsFuture::from(text)
                        .await
                        .ok()
                        .and_then(|t| t.as_string())
                        .unwrap_or_default()
                        .chars()
                        .take(PROBE_CHARS)
                        .collect(),
                    Err(_) => String::new(),
                }
            };
            // The session the probe's initialize opened is closed again.
            if let Some(session) = header(&response, "mcp-session-id") {
                let close = web_sys::RequestInit::new();
                close.set_method("DELETE");
                if let Ok(headers) = web_sys::Headers::new() {
                    let _ = headers.set("Mcp-Session-Id", &session);
                    close.set_headers(&headers);
                }
                let _ = fetch(url, &close).await;
            }
            Ok(Answer::Read {
                status: response.status(),
                content_type,
                body,
            })
        };
        probed(read).await
    }

    async fn stream(&self, url: &str) -> Answer {
        let read = async {
            let init = probe_init("GET", &[("Accept", "text/event-stream")])?;
            let response = fetch(url, &init).await?;
            if response.type_() == web_sys::ResponseType::Opaqueredirect {
                return Ok(Answer::Redirect);
            }
            let content_type = header(&response, "content-type").unwrap_or_default();
            let body = if content_type.starts_with("text/event-stream") {
                first_event(&response).await
            } else {
                String::new()
            };
            Ok::<_, String>(Answer::Read {
                status: response.status(),
                content_type,
                body,
            })
        };
        probed(read).await
    }

    async fn reaches(&self, url: &str) -> bool {
        let init = web_sys::RequestInit::new();
        init.set_method("GET");
        init.set_mode(web_sys::RequestMode::NoCors);
        // A no-cors request must follow redirects (the browser refuses any other mode); it
        // carries no credentials and reads nothing.
        init.set_credentials(web_sys::RequestCredentials::Omit);
        matches!(bounded(fetch(url, &init)).await, Some(Ok(_)))
    }
}

/// The start of `response`'s body: chunks up to the end of its first event (a blank line) or
/// [`PROBE_CHARS`], then the stream is cancelled (a stream that stays open must not hold the
/// probe).
async fn first_event(response: &web_sys::Response) -> String {
    let Some(reader) = response.body().and_then(|b| {
        b.get_reader()
            .dyn_into::<web_sys::ReadableStreamDefaultReader>()
            .ok()
    }) else {
        return String::new();
    };
    let mut bytes = Vec::new();
    loop {
        let Ok(step) = JsFuture::from(reader.read()).await else {
            break;
        };
        let done = js_sys::Reflect::get(&step, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        if let Ok(value) = js_sys::Reflect::get(&step, &"value".into()) {
            bytes.extend(js_sys::Uint8Array::new(&value).to_vec());
        }
        let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
        if text.contains("\n\n") || bytes.len() > PROBE_CHARS {
            break;
        }
    }
    let _ = reader.cancel();
    String::from_utf8_lossy(&bytes)
        .chars()
        .take(PROBE_CHARS)
        .collect()
}

on_demand!(
    diagnose,
    pub fn diagnose_fn() -> Result<Diagnose, OnDemandError> {
        Ok(|page, url, row, from_link| {
            Box::pin(async move { diagnose(&PageProbe, &page, &url, row, from_link).await })
        })
    }
);
