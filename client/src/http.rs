//! The small HTTP interface the transport needs, so the protocol logic runs the same in the
//! browser (fetch, see `browser.rs`) and natively (tests, the command-line harness).

/// A request to send.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    pub method: &'static str,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
}

/// A response whose body has not been read yet.
pub struct HttpResponse<B> {
    pub status: u16,
    /// Headers the implementation could read (in a browser: the CORS-safelisted and exposed ones).
    pub headers: Vec<(String, String)>,
    pub body: B,
}

impl<B> HttpResponse<B> {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A response body read chunk by chunk as it arrives.
#[allow(async_fn_in_trait)]
pub trait BodyStream {
    /// The next chunk, `Ok(None)` at the end, `Err` if the connection broke.
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, String>;
}

/// Sending requests. (Time is a [`crate::clock::Clock`]'s job.)
#[allow(async_fn_in_trait)]
pub trait Http {
    type Body: BodyStream;
    /// Sends a request and returns once the response headers are in. `Err` carries the reason
    /// there is no response at all.
    async fn send(&self, request: &HttpRequest) -> Result<HttpResponse<Self::Body>, String>;
}
