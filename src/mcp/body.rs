//! Reading a whole POST response body into JSON-RPC messages, by its content type.

use serde_json::Value;

use super::sse::SseParser;

/// Splits a response body into the JSON-RPC messages it carries: one JSON value for
/// `application/json`, one per non-empty event for `text/event-stream`.
pub fn messages(content_type: &str, body: &[u8]) -> Result<Vec<Value>, String> {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "application/json" => serde_json::from_slice(body)
            .map(|v| vec![v])
            .map_err(|e| format!("the JSON body does not parse: {e}")),
        "text/event-stream" => {
            let mut parser = SseParser::new();
            parser
                .push(body)
                .into_iter()
                .filter(|event| !event.is_empty())
                .map(|event| {
                    serde_json::from_str(&event.data)
                        .map_err(|e| format!("SSE event data is not JSON: {e}"))
                })
                .collect()
        }
        other => Err(format!(
            "expected application/json or text/event-stream, got content type {:?}",
            if other.is_empty() { "(none)" } else { other }
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_sse_bodies() {
        let json = messages("application/json; charset=utf-8", br#"{"id":1}"#).unwrap();
        assert_eq!(json[0]["id"], 1);
        let sse = messages(
            "text/event-stream",
            b"id: 0\nretry: 3000\ndata:\n\ndata: {\"id\":2}\n\n",
        )
        .unwrap();
        assert_eq!(sse.len(), 1);
        assert_eq!(sse[0]["id"], 2);
    }

    #[test]
    fn html_error_pages_are_refused_with_the_type_named() {
        let err = messages("text/html", b"<h1>502</h1>").unwrap_err();
        assert!(err.contains("text/html"), "{err}");
        assert!(messages("", b"").unwrap_err().contains("(none)"));
        assert!(messages("application/json", b"not json").is_err());
    }
}
