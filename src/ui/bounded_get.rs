//! A GET through the MCP client's fetch, bounded in time and size: the bridge's record and its
//! watch feed are read this way.

use crate::mcp::browser::Fetch;
use crate::mcp::http::{BodyStream, Http, HttpRequest};

/// The body at `url`, or why there is none, in a sentence about `what` ("the bridge's record").
pub async fn bounded_get(
    url: String,
    max_bytes: usize,
    wait_ms: u32,
    what: &str,
) -> Result<Vec<u8>, String> {
    let fetch = async move {
        let request = HttpRequest {
            method: "GET",
            url,
            headers: Vec::new(),
            body: None,
        };
        let mut response = Fetch
            .send(&request)
            .await
            .map_err(|e| format!("{what} did not come: {e}"))?;
        if response.status != 200 {
            return Err(format!("{what}: HTTP {}", response.status));
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = response.body.chunk().await? {
            bytes.extend_from_slice(&chunk);
            if bytes.len() > max_bytes {
                return Err(format!("{what} passed {max_bytes} bytes"));
            }
        }
        Ok(bytes)
    };
    let timer = gloo_timers::future::TimeoutFuture::new(wait_ms);
    match futures_util::future::select(std::pin::pin!(fetch), timer).await {
        futures_util::future::Either::Left((result, _)) => result,
        futures_util::future::Either::Right(_) => {
            Err(format!("{what} did not come within {wait_ms} ms"))
        }
    }
}
