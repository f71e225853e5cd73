//! A small upstream that, like an official SDK server with DNS-rebinding protection on, refuses
//! any request with an Origin; answers `initialize` with a session and a cookie, and `tools/call`
//! with a stream of two events 200 ms apart.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    Router,
    body::Body,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::post,
};
use serde_json::{Value, json};

pub type Seen = Arc<Mutex<Vec<HeaderMap>>>;

/// Serves the upstream on a free port; returns its URL and the headers of each request.
pub async fn upstream() -> (String, Seen) {
    let seen = Seen::default();
    let kept = Arc::clone(&seen);
    let app = Router::new()
        .route(
            "/mcp",
            post(move |headers: HeaderMap, body: String| {
                let kept = Arc::clone(&kept);
                async move { answer(&kept, headers, &body).await }
            })
            .delete(|| async { StatusCode::OK }),
        )
        // Big messages reach the handler whole (the bridge's own limit is what is tested).
        .layer(axum::extract::DefaultBodyLimit::max(32 * 1024 * 1024));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/mcp"), seen)
}

async fn answer(seen: &Seen, headers: HeaderMap, body: &str) -> Response {
    let refused = headers.contains_key("origin");
    seen.lock().expect("lock").push(headers);
    if refused {
        return (StatusCode::FORBIDDEN, "Invalid Origin header").into_response();
    }
    let message: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let id = message["id"].clone();
    match message["method"].as_str() {
        Some("initialize") => (
            [
                ("content-type", "application/json"),
                ("mcp-session-id", "up-1"),
                ("access-control-allow-origin", "*"),
                ("set-cookie", "upstream-session=c00k1e; HttpOnly"),
            ],
            json!({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": "2025-11-25",
                "capabilities": {}, "serverInfo": {"name": "upstream", "version": "1"}}})
            .to_string(),
        )
            .into_response(),
        Some("tools/call") => {
            let log = json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": "working"}});
            let result = json!({"jsonrpc": "2.0", "id": id,
                "result": {"content": [{"type": "text", "text": "Sunny"}]}});
            let events = async_stream(vec![
                format!("data: {log}\n\n"),
                format!("data: {result}\n\n"),
            ]);
            (
                [("content-type", "text/event-stream")],
                Body::from_stream(events),
            )
                .into_response()
        }
        _ => StatusCode::ACCEPTED.into_response(),
    }
}

/// The events one by one, 200 ms apart, so the bridge must stream them.
fn async_stream(
    events: Vec<String>,
) -> impl futures::Stream<Item = Result<String, std::convert::Infallible>> {
    futures::stream::unfold(events.into_iter(), |mut events| async move {
        let next = events.next()?;
        tokio::time::sleep(Duration::from_millis(200)).await;
        Some((Ok(next), events))
    })
}
