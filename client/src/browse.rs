//! Exploring what a server offers besides tools, step by step from what it answered: a
//! template's first variable, the template expanded with a value the server completed, a prompt's
//! arguments, and a result's freshness hints. Pure; the command line's `--browse` runs the chain.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value};

/// What a simple expansion leaves as it is: RFC 3986's unreserved characters.
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The variables of one `{…}` expression, without its operator and modifiers.
fn variables(expression: &str) -> impl Iterator<Item = &str> {
    expression
        .trim_start_matches(['+', '#', '.', '/', ';', '?', '&'])
        .split(',')
        .map(|v| v.split([':', '*']).next().unwrap_or_default().trim())
        .filter(|v| !v.is_empty())
}

/// The `{…}` expressions of `template`, with their byte ranges (braces included).
fn expressions(template: &str) -> Vec<(usize, usize, &str)> {
    let mut found = Vec::new();
    let mut rest = 0;
    while let Some(open) = template[rest..].find('{') {
        let start = rest + open;
        let Some(close) = template[start..].find('}') else {
            break;
        };
        let end = start + close + 1;
        found.push((start, end, &template[start + 1..end - 1]));
        rest = end;
    }
    found
}

/// The first variable of an RFC 6570 URI template (`weather://city/{name}` → `name`).
pub fn first_variable(template: &str) -> Option<&str> {
    expressions(template)
        .into_iter()
        .find_map(|(_, _, e)| variables(e).next())
}

/// `template` with every simple expression of `variable` replaced by `value`, percent-encoded
/// (`{name}` with "New York" → `New%20York`); other expressions stay as they are.
pub fn expand(template: &str, variable: &str, value: &str) -> String {
    let mut out = String::with_capacity(template.len() + value.len());
    let mut last = 0;
    for (start, end, expression) in expressions(template) {
        if expression.trim() == variable {
            out.push_str(&template[last..start]);
            out.extend(utf8_percent_encode(value, UNRESERVED));
            last = end;
        }
    }
    out.push_str(&template[last..]);
    out
}

/// A prompt's arguments (from `prompts/list`), the required ones set to `value`; optional ones
/// are left out.
pub fn prompt_arguments(prompt: &Value, value: &str) -> Map<String, Value> {
    prompt
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|a| a.get("required").and_then(Value::as_bool) == Some(true))
        .filter_map(|a| a.get("name").and_then(Value::as_str))
        .map(|name| (name.to_owned(), Value::from(value)))
        .collect()
}

/// A result's caching hints (2026-07-28): how long it stays fresh and who may keep it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Freshness {
    pub ttl_ms: Option<u64>,
    pub cache_scope: Option<String>,
}

impl Freshness {
    pub fn of(result: &Value) -> Self {
        Self {
            ttl_ms: result.get("ttlMs").and_then(Value::as_u64),
            cache_scope: result
                .get("cacheScope")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }
}

impl fmt::Display for Freshness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.ttl_ms, &self.cache_scope) {
            (None, None) => f.write_str("no caching hints"),
            (ttl, scope) => write!(
                f,
                "fresh for {}, {}",
                ttl.map_or("?".to_owned(), |ms| format!("{ms} ms")),
                scope.as_deref().unwrap_or("no cacheScope")
            ),
        }
    }
}

/// List answers (resources, templates, prompts) that said how long they stay fresh (`ttlMs`),
/// by server URL and method, for the page's lifetime: within that time a later browse reuses the
/// list instead of asking again.
#[derive(Debug, Clone, Default)]
pub struct ListCache(Rc<RefCell<HashMap<ListKey, (f64, Value)>>>);

/// A server's URL and a list method.
type ListKey = (String, &'static str);

impl ListCache {
    /// The answer `url` gave to `method` at most its `ttlMs` ago (`now_ms` on the clock of
    /// [`Self::put`]), with when it came.
    pub fn fresh(&self, url: &str, method: &'static str, now_ms: f64) -> Option<(f64, Value)> {
        let cache = self.0.borrow();
        let (at, list) = cache.get(&(url.to_owned(), method))?;
        let ttl = Freshness::of(list).ttl_ms.unwrap_or(0) as f64;
        (now_ms - at < ttl).then(|| (*at, list.clone()))
    }

    /// Keeps `list` if it says it stays fresh for a while.
    pub fn put(&self, url: &str, method: &'static str, now_ms: f64, list: &Value) {
        if Freshness::of(list).ttl_ms.unwrap_or(0) > 0 {
            self.0
                .borrow_mut()
                .insert((url.to_owned(), method), (now_ms, list.clone()));
        }
    }
}

/// What a `resources/read` result holds, in a line: each content's MIME type and its text
/// (clipped) or the size of its blob.
pub fn contents_summary(read: &Value) -> String {
    let parts: Vec<String> = items(read, "contents")
        .iter()
        .map(|c| {
            let mime = c
                .get("mimeType")
                .and_then(Value::as_str)
                .unwrap_or("no mimeType");
            match (
                c.get("text").and_then(Value::as_str),
                c.get("blob").and_then(Value::as_str),
            ) {
                (Some(text), _) => {
                    let flat = text.replace(['\n', '\r'], " ");
                    format!("{mime} {}", crate::error::clip(&flat, 120))
                }
                (None, Some(blob)) => format!("{mime}, a blob of {} base64 characters", blob.len()),
                (None, None) => format!("{mime}, neither text nor blob"),
            }
        })
        .collect();
    if parts.is_empty() {
        "no contents".to_owned()
    } else {
        parts.join("; ")
    }
}

/// What a `prompts/get` result holds, in a line: each message's role and its text (clipped), or
/// what else its content is (an embedded resource by its URI).
pub fn messages_summary(got: &Value) -> String {
    let parts: Vec<String> = items(got, "messages")
        .iter()
        .map(|m| {
            let role = m.get("role").and_then(Value::as_str).unwrap_or("no role");
            let content = m.get("content").unwrap_or(&Value::Null);
            let text = |key: &str| content.get(key).and_then(Value::as_str);
            match (text("type"), text("text")) {
                (Some("text"), Some(t)) => {
                    let flat = t.replace(['\n', '\r'], " ");
                    format!("{role}: {}", crate::error::clip(&flat, 120))
                }
                (Some("resource"), _) => {
                    let uri = content
                        .pointer("/resource/uri")
                        .and_then(Value::as_str)
                        .unwrap_or("no uri");
                    format!("{role}: the resource {uri}")
                }
                (Some(kind), _) => format!("{role}: {kind} content"),
                (None, _) => format!("{role}: content without a type"),
            }
        })
        .collect();
    if parts.is_empty() {
        "no messages".to_owned()
    } else {
        parts.join("; ")
    }
}

/// The `items` array of a list result (`resources`, `resourceTemplates`, `prompts`), or none.
pub fn items<'a>(result: &'a Value, key: &str) -> &'a [Value] {
    result
        .get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_variable_of_a_template() {
        assert_eq!(first_variable("weather://city/{name}"), Some("name"));
        assert_eq!(first_variable("test://template/{id}/data"), Some("id"));
        assert_eq!(first_variable("file:///{+path}{?q,lang}"), Some("path"));
        assert_eq!(first_variable("x://{list*}/{n:3}"), Some("list"));
        assert_eq!(first_variable("weather://cities"), None);
        assert_eq!(first_variable("x://{}/{a}"), Some("a"));
        assert_eq!(first_variable("x://{unclosed"), None);
    }

    #[test]
    fn a_value_is_expanded_percent_encoded() {
        assert_eq!(
            expand("weather://city/{name}", "name", "New York"),
            "weather://city/New%20York"
        );
        assert_eq!(
            expand("weather://city/{name}", "name", "東京"),
            "weather://city/%E6%9D%B1%E4%BA%AC"
        );
        assert_eq!(
            expand("a://{x}/{y}/{x}", "x", "a/b?c"),
            "a://a%2Fb%3Fc/{y}/a%2Fb%3Fc"
        );
        assert_eq!(expand("a://none", "x", "v"), "a://none");
    }

    #[test]
    fn only_required_prompt_arguments_are_filled() {
        let prompt = json!({"name": "p", "arguments": [
            {"name": "city", "required": true},
            {"name": "style"},
            {"name": "units", "required": false}]});
        assert_eq!(
            Value::Object(prompt_arguments(&prompt, "Tokyo")),
            json!({"city": "Tokyo"})
        );
        assert!(prompt_arguments(&json!({"name": "q"}), "x").is_empty());
    }

    #[test]
    fn a_read_is_summed_up_by_its_contents() {
        let text = json!({"contents": [{"mimeType": "application/json", "text": "{\"condition\":\"Sunny\"}"}]});
        assert_eq!(
            contents_summary(&text),
            "application/json {\"condition\":\"Sunny\"}"
        );
        let blob = json!({"contents": [{"uri": "x", "mimeType": "image/png", "blob": "iVBORw0K"}]});
        assert_eq!(
            contents_summary(&blob),
            "image/png, a blob of 8 base64 characters"
        );
        assert_eq!(contents_summary(&json!({})), "no contents");
        let lines = json!({"contents": [{"mimeType": "text/markdown", "text": "# A\nB"}]});
        assert_eq!(contents_summary(&lines), "text/markdown # A B");
    }

    #[test]
    fn a_prompt_is_summed_up_by_its_messages() {
        let got = json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "What's the weather\nin Tokyo?"}},
            {"role": "user", "content": {"type": "resource", "resource": {"uri": "weather://city/Tokyo", "text": "{}"}}},
            {"role": "assistant", "content": {"type": "image", "data": "AA==", "mimeType": "image/png"}},
            {"role": "user", "content": {}}]});
        assert_eq!(
            messages_summary(&got),
            "user: What's the weather in Tokyo?; user: the resource weather://city/Tokyo; \
             assistant: image content; user: content without a type"
        );
        assert_eq!(messages_summary(&json!({"messages": []})), "no messages");
    }

    #[test]
    fn a_list_is_reused_only_within_its_ttl_for_its_server_and_method() {
        let cache = ListCache::default();
        let url = "http://127.0.0.1:8000/mcp";
        cache.put(
            url,
            "resources/list",
            1_000.0,
            &json!({"resources": [], "ttlMs": 5_000}),
        );
        cache.put(url, "prompts/list", 1_000.0, &json!({"prompts": []}));
        cache.put(
            url,
            "resources/templates/list",
            1_000.0,
            &json!({"ttlMs": 0}),
        );
        let fresh = cache.fresh(url, "resources/list", 5_999.0);
        assert_eq!(fresh.map(|(at, _)| at), Some(1_000.0));
        assert!(
            cache.fresh(url, "resources/list", 6_000.0).is_none(),
            "stale at its ttl"
        );
        assert!(
            cache.fresh(url, "prompts/list", 1_001.0).is_none(),
            "no hints: not kept"
        );
        assert!(
            cache
                .fresh(url, "resources/templates/list", 1_000.0)
                .is_none(),
            "ttlMs 0"
        );
        assert!(
            cache
                .fresh("http://other/mcp", "resources/list", 1_001.0)
                .is_none()
        );
    }

    #[test]
    fn freshness_says_what_the_result_carried() {
        let modern = Freshness::of(&json!({"ttlMs": 60000, "cacheScope": "public"}));
        assert_eq!(modern.to_string(), "fresh for 60000 ms, public");
        assert_eq!(
            Freshness::of(&json!({"resources": []})).to_string(),
            "no caching hints"
        );
        assert_eq!(
            Freshness::of(&json!({"ttlMs": 5})).to_string(),
            "fresh for 5 ms, no cacheScope"
        );
    }
}
