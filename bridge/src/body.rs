//! Reading a request body within the bridge's limit.

use axum::{
    body::{Body, Bytes},
    http::{HeaderMap, StatusCode, header},
    response::Response,
};
use http_body_util::BodyExt;

use crate::jsonrpc::{INVALID_REQUEST, PARSE_ERROR, error_response};

/// The most of a body over the limit that is read (and dropped) before the 413; past it the
/// connection is closed.
const DRAIN_LIMIT: usize = 64 * 1024 * 1024;

/// Reads the body within the limit; over it, 413. The rest of a body over the limit is read
/// and dropped (up to [`DRAIN_LIMIT`]) so the client sees the 413 rather than a broken pipe.
pub async fn read_body(body: Body, headers: &HeaderMap, limit: usize) -> Result<Bytes, Response> {
    let too_large = || {
        error_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            INVALID_REQUEST,
            format!(
                "Request body too large: the bridge's limit is {limit} bytes (--max-body-bytes)"
            ),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    let mut body = body;
    let mut kept = Vec::new();
    let mut seen = 0usize;
    let over = declared.is_some_and(|length| length > limit as u64);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|error| {
            error_response(
                StatusCode::BAD_REQUEST,
                PARSE_ERROR,
                format!("Could not read the request body: {error}"),
            )
        })?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        seen = seen.saturating_add(data.len());
        if seen > DRAIN_LIMIT {
            break;
        }
        if !over && seen <= limit {
            kept.extend_from_slice(&data);
        }
    }
    if over || seen > limit {
        return Err(too_large());
    }
    Ok(Bytes::from(kept))
}
