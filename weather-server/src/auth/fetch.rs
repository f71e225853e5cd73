//! The server's own outgoing requests (client metadata documents; another issuer's metadata and
//! keys): loopback hosts only, since this demo server sends no traffic elsewhere and a server
//! that fetches URLs a stranger names is an SSRF tool. No proxy, no redirects, 5 s, 64 KB.

use std::{net::SocketAddr, time::Duration};

use reqwest::{Url, header, redirect};

use super::server::redirects::is_loopback_host;

/// The largest document read.
pub const MAX_DOCUMENT_BYTES: usize = 64 * 1024;
/// The longest a fetch may take.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// `Err` says why `url`, one of `what` (e.g. "client metadata documents"), is not fetched.
pub fn check_loopback(url: &Url, what: &str) -> Result<(), String> {
    if is_loopback_host(url) {
        Ok(())
    } else {
        Err(format!(
            "this demo server fetches {what} only from loopback hosts (127.0.0.1, localhost, \
             [::1]); {} is not one",
            url.host_str().unwrap_or("(no host)")
        ))
    }
}

/// GET `url` (loopback only, checked by the caller) and read at most [`MAX_DOCUMENT_BYTES`].
pub async fn get(url: &Url) -> Result<Vec<u8>, String> {
    let mut builder = reqwest::Client::builder()
        .no_proxy()
        .redirect(redirect::Policy::none())
        .timeout(FETCH_TIMEOUT);
    if url.host_str() == Some("localhost") {
        // Never ask a resolver what "localhost" is: it is 127.0.0.1 here.
        builder = builder.resolve("localhost", SocketAddr::from(([127, 0, 0, 1], 0)));
    }
    let http = builder.build().map_err(|e| e.to_string())?;
    let mut response = http
        .get(url.clone())
        .header(header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if response.status() != reqwest::StatusCode::OK {
        return Err(format!("HTTP {} (expected 200)", response.status()));
    }
    if response
        .content_length()
        .is_some_and(|length| length > MAX_DOCUMENT_BYTES as u64)
    {
        return Err(format!("larger than {MAX_DOCUMENT_BYTES} bytes"));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
        if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            return Err(format!("larger than {MAX_DOCUMENT_BYTES} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
