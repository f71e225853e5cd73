//! The native HTTP for the transport: reqwest with the response body read as a stream (each
//! chunk as the connection delivers it); and the native clock, an [`Instant`] with tokio's
//! timer. The model is the browser's `Fetch` in `mcp_flow_client::browser`.

use std::net::{Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::time::{Duration, Instant};

use futures_util::{Stream, StreamExt};
use mcp_flow_client::clock::{Clock, Sleep};
use mcp_flow_client::http::{BodyStream, Http, HttpRequest, HttpResponse};
use reqwest::Method;

/// How long to wait for a TCP connection before reporting no response.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// reqwest, plain HTTP only.
#[derive(Clone, Debug)]
pub struct Native {
    client: reqwest::Client,
}

impl Native {
    /// A client that connects directly (no proxy from the environment), resolves `localhost`
    /// to 127.0.0.1 (so it never waits on an IPv6 attempt first) and follows no redirect.
    pub fn new() -> Result<Self, String> {
        let client = reqwest::Client::builder()
            .no_proxy()
            .connect_timeout(CONNECT_TIMEOUT)
            .resolve("localhost", SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            // Redirects are answers to show, not to follow: the authorization flow reads the
            // authorization server's redirect back instead of going there.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| error_text(&e))?;
        Ok(Self { client })
    }
}

type Chunks = Pin<Box<dyn Stream<Item = Result<Vec<u8>, String>>>>;

/// A response body, read chunk by chunk. Dropping it closes the connection if the body was not
/// read to the end (which is how an open SSE stream is left).
pub struct NativeBody {
    chunks: Option<Chunks>,
}

impl BodyStream for NativeBody {
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, String> {
        let Some(chunks) = self.chunks.as_mut() else {
            return Ok(None);
        };
        match chunks.next().await {
            Some(Ok(bytes)) => Ok(Some(bytes)),
            Some(Err(e)) => {
                self.chunks = None;
                Err(e)
            }
            None => {
                self.chunks = None;
                Ok(None)
            }
        }
    }
}

impl Http for Native {
    type Body = NativeBody;

    async fn send(&self, request: &HttpRequest) -> Result<HttpResponse<NativeBody>, String> {
        let method = Method::from_bytes(request.method.as_bytes()).map_err(|e| e.to_string())?;
        let mut builder = self.client.request(method, &request.url);
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        if let Some(body) = &request.body {
            builder = builder.body(body.clone());
        }
        let response = builder.send().await.map_err(|e| error_text(&e))?;
        let headers = response
            .headers()
            .iter()
            .map(|(name, value)| {
                (
                    name.as_str().to_owned(),
                    String::from_utf8_lossy(value.as_bytes()).into_owned(),
                )
            })
            .collect();
        Ok(HttpResponse {
            status: response.status().as_u16(),
            headers,
            body: NativeBody {
                chunks: Some(Box::pin(response.bytes_stream().map(|chunk| {
                    chunk
                        .map(|bytes| bytes.to_vec())
                        .map_err(|e| error_text(&e))
                }))),
            },
        })
    }
}

/// The native clock: an [`Instant`] and tokio's timer.
#[derive(Clone, Copy, Debug)]
pub struct TokioClock {
    started: Instant,
}

impl TokioClock {
    pub fn new() -> Self {
        Self {
            started: Instant::now(),
        }
    }
}

impl Default for TokioClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for TokioClock {
    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }

    fn sleep(&self, ms: u32) -> Sleep {
        Box::pin(tokio::time::sleep(Duration::from_millis(ms.into())))
    }
}

/// An error with its causes: reqwest's own text ("error sending request") says little alone.
fn error_text(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}
