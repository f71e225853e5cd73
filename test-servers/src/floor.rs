//! `floor`: the benchmark's floor, an HTTP endpoint with no MCP in it. It parses each POST as the
//! JSON-RPC request it is and answers what a Streamable HTTP server answers, in the same shape
//! (an `initialize` result with a session id, 202 for a notification, one SSE event holding a
//! `tools/call` result like the weather server's), so `cargo xtask bench` can say how close our
//! server runs to what the HTTP stack alone costs.

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

/// The weather server's `tools/call` result for Tokyo, as the floor answers every call.
fn result() -> Value {
    json!({
        "content": [{"type": "text", "text": "Sunny"}],
        "structuredContent": {"location": "Tokyo", "condition": "Sunny", "temperature": 22.0,
            "units": "celsius", "temperature_c": 22.0, "humidity_pct": 55, "wind_kph": 12.0},
        "isError": false
    })
}

/// One answer to one POST.
pub fn answer(body: &[u8]) -> Response {
    let Ok(request) = serde_json::from_slice::<Value>(body) else {
        return (StatusCode::BAD_REQUEST, "not JSON").into_response();
    };
    let id = request.get("id").cloned();
    let method = request.get("method").and_then(Value::as_str).unwrap_or("");
    let Some(id) = id else {
        // A notification.
        return StatusCode::ACCEPTED.into_response();
    };
    let mut result = match method {
        "initialize" => json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
            "serverInfo": {"name": "floor", "version": "0"}}),
        "tools/call" => result(),
        _ => json!({}),
    };
    // A 2026-07-28 request (its `_meta` names the version) gets that era's result shape.
    if request
        .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        .is_some()
    {
        result["resultType"] = json!("complete");
    }
    let message = json!({"jsonrpc": "2.0", "id": id, "result": result});
    let mut headers = HeaderMap::new();
    if method == "initialize" {
        headers.insert("mcp-session-id", HeaderValue::from_static("floor"));
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        return (headers, message.to_string()).into_response();
    }
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    (headers, format!("event: message\ndata: {message}\n\n")).into_response()
}

pub fn router() -> Router {
    Router::new().route(
        "/mcp",
        post(|body: Bytes| async move { answer(&body) }).delete(|| async { StatusCode::OK }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn text(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    #[tokio::test]
    async fn each_request_gets_the_answer_a_streamable_http_server_gives() {
        let init = answer(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#);
        assert_eq!(init.headers()["mcp-session-id"], "floor");
        assert!(
            text(init)
                .await
                .contains("\"protocolVersion\":\"2025-11-25\"")
        );
        let note = answer(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        assert_eq!(note.status(), StatusCode::ACCEPTED);
        let call = answer(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}"#);
        assert_eq!(call.headers()[header::CONTENT_TYPE], "text/event-stream");
        let body = text(call).await;
        let data = body
            .lines()
            .find_map(|l| l.strip_prefix("data: "))
            .unwrap_or("");
        let message: Value = serde_json::from_str(data).unwrap_or_default();
        assert_eq!(message["id"], 7);
        assert_eq!(message["result"]["content"][0]["text"], "Sunny");
        assert_eq!(answer(b"{").status(), StatusCode::BAD_REQUEST);
        let modern = answer(
            br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
        );
        assert!(text(modern).await.contains("\"resultType\":\"complete\""));
    }
}
