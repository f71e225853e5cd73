//! Pieces every provider's wire format shares: the request URL and headers, reading a
//! provider's error object, and turning tool-call objects into [`ToolCall`]s. The provider
//! modules (`openai`, `anthropic`, `gemini`) build on these; nothing here knows a provider.

use serde_json::{Value, json};

use super::{LlmReply, ToolCall};

/// `{base}/{path}`, with any trailing `/` of the base dropped.
pub fn endpoint(base_url: &str, path: &str) -> String {
    format!("{}/{path}", base_url.trim_end_matches('/'))
}

/// `Content-Type: application/json`, then `extra`, then the key (if any) in `key_header` as
/// `key_prefix` + key.
pub fn json_headers(
    extra: &[(&str, &str)],
    key: Option<&str>,
    key_header: &str,
    key_prefix: &str,
) -> Vec<(String, String)> {
    let mut headers = vec![("Content-Type".to_owned(), "application/json".to_owned())];
    headers.extend(
        extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    if let Some(key) = key {
        headers.push((key_header.to_owned(), format!("{key_prefix}{key}")));
    }
    headers
}

/// A provider's error object as one line: its `message`, or the whole object.
pub fn error_message(error: &Value) -> String {
    error
        .get("message")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| error.to_string())
}

/// The tool calls among `calls` (objects with `id`, `name` and the arguments under
/// `arguments_key`) or, when there are none, the joined `text` of `parts`.
pub fn calls_or_text<'a>(
    calls: impl Iterator<Item = &'a Value>,
    arguments_key: &str,
    parts: &[Value],
) -> Result<LlmReply, String> {
    let calls = calls
        .enumerate()
        .map(|(i, c)| {
            Ok(ToolCall {
                id: call_id(c.get("id"), i),
                name: c["name"]
                    .as_str()
                    .ok_or_else(|| format!("a tool call without a name: {c}"))?
                    .to_owned(),
                arguments: c.get(arguments_key).cloned().unwrap_or_else(|| json!({})),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    if !calls.is_empty() {
        return Ok(LlmReply::ToolCalls(calls));
    }
    Ok(LlmReply::Text(
        parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
    ))
}

/// A tool call's id as the provider gave it, or `call_N` when it gave none.
pub fn call_id(id: Option<&Value>, index: usize) -> String {
    id.and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| format!("call_{}", index + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_headers_and_ids() {
        assert_eq!(endpoint("http://h/v1/", "messages"), "http://h/v1/messages");
        assert_eq!(endpoint("http://h/v1", "messages"), "http://h/v1/messages");
        let h = json_headers(&[("a", "b")], Some("k"), "Authorization", "Bearer ");
        assert_eq!(
            h,
            [
                ("Content-Type".to_owned(), "application/json".to_owned()),
                ("a".to_owned(), "b".to_owned()),
                ("Authorization".to_owned(), "Bearer k".to_owned()),
            ]
        );
        assert_eq!(json_headers(&[], None, "x-api-key", "").len(), 1);
        assert_eq!(call_id(Some(&json!("t1")), 0), "t1");
        assert_eq!(call_id(None, 1), "call_2");
    }

    #[test]
    fn errors_calls_and_text() {
        assert_eq!(error_message(&json!({"message": "bad key"})), "bad key");
        assert_eq!(error_message(&json!({"code": 1})), r#"{"code":1}"#);
        let parts = [
            json!({"text": "a"}),
            json!({"call": {"name": "f", "x": {"k": 1}}}),
            json!({"text": "b"}),
        ];
        assert_eq!(
            calls_or_text(parts.iter().filter_map(|p| p.get("call")), "x", &parts),
            Ok(LlmReply::ToolCalls(vec![ToolCall {
                id: "call_1".into(),
                name: "f".into(),
                arguments: json!({"k": 1}),
            }]))
        );
        assert_eq!(
            calls_or_text(std::iter::empty(), "x", &parts),
            Ok(LlmReply::Text("ab".into()))
        );
        assert!(calls_or_text([json!({"id": "c"})].iter(), "x", &[]).is_err());
    }
}
