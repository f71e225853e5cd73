//! The exchange record: every HTTP exchange the client makes, as it happens.
//!
//! The client emits [`Update`]s (request sent, headers received, each SSE event, body, done or
//! failed); [`Log::apply`] folds them into [`Exchange`]s that a UI can show while a step is in flight.

use std::cell::RefCell;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::http::HttpRequest;

/// One HTTP exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// Position in the log, from 0.
    pub seq: usize,
    pub method: String,
    pub url: String,
    /// Request headers, with any credential redacted.
    pub request_headers: Vec<(String, String)>,
    pub request_body: Option<String>,
    /// The JSON-RPC method the request carried (`initialize`, `tools/call`, …), if any.
    pub rpc_method: Option<String>,
    /// The JSON-RPC id the request carried, as JSON text.
    pub rpc_id: Option<String>,
    /// Why this exchange happened when it is not the plain request (a resume, a retry after 404).
    pub note: Option<String>,
    pub started_ms: f64,
    pub status: Option<u16>,
    pub response_headers: Vec<(String, String)>,
    pub headers_ms: Option<f64>,
    /// A non-SSE response body as text.
    pub response_body: Option<String>,
    /// SSE events in arrival order, including empty (priming) ones.
    pub events: Vec<RecordedEvent>,
    pub finished_ms: Option<f64>,
    /// Set when the exchange failed locally (network, timeout, broken stream …).
    pub error: Option<String>,
    /// Set when the user replayed an earlier request from the message log: not a step of the
    /// diagrams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<ReplayOf>,
    /// Set when the exchange is a step of the authorization flow (its secrets are redacted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<crate::auth::AuthStep>,
}

/// The request a replay repeats: its run (1 is the page's first), its number in that run, and
/// whether the user edited the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayOf {
    pub run: usize,
    pub seq: usize,
    pub edited: bool,
}

impl ReplayOf {
    pub fn describe(&self) -> String {
        let how = if self.edited {
            "edited replay"
        } else {
            "replay"
        };
        format!("{how} of run {} #{}", self.run, self.seq)
    }
}

impl Exchange {
    /// The JSON-RPC response this exchange carried: the JSON body, or the SSE event that holds a
    /// `result` or an `error`.
    pub fn rpc_response(&self) -> Option<Value> {
        let answer = |text: &str| {
            serde_json::from_str::<Value>(text)
                .ok()
                .filter(|v| v.get("result").is_some() || v.get("error").is_some())
        };
        match &self.response_body {
            Some(body) => answer(body),
            None => self.events.iter().rev().find_map(|e| answer(&e.data)),
        }
    }

    /// Whether this exchange answered with a tool result that says `isError: true`: the call
    /// went through, the tool failed.
    pub fn tool_failed(&self) -> bool {
        self.rpc_response()
            .and_then(|v| v.get("result")?.get("isError")?.as_bool())
            == Some(true)
    }

    /// A request just sent: its JSON-RPC method and id read from `rpc`, credentials redacted,
    /// nothing known yet about the response.
    pub fn sent(
        seq: usize,
        request: &HttpRequest,
        rpc: Option<&Value>,
        note: Option<String>,
        started_ms: f64,
    ) -> Self {
        Self {
            seq,
            method: request.method.to_owned(),
            url: request.url.clone(),
            request_headers: redact(&request.headers),
            request_body: request.body.clone(),
            rpc_method: rpc
                .and_then(|m| m.get("method"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            rpc_id: rpc.and_then(|m| m.get("id")).map(Value::to_string),
            note,
            started_ms,
            status: None,
            response_headers: Vec::new(),
            headers_ms: None,
            response_body: None,
            events: Vec::new(),
            finished_ms: None,
            error: None,
            replay: None,
            auth: None,
        }
    }

    pub fn in_flight(&self) -> bool {
        self.finished_ms.is_none()
    }

    /// Total time from sending to the end of the body, in milliseconds.
    pub fn duration_ms(&self) -> Option<f64> {
        self.finished_ms.map(|end| end - self.started_ms)
    }

    pub fn response_header(&self, name: &str) -> Option<&str> {
        self.response_headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One SSE event as it arrived.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedEvent {
    pub at_ms: f64,
    pub id: Option<String>,
    pub event: String,
    pub data: String,
    pub retry: Option<u64>,
}

/// A change to the record, emitted as it happens.
#[derive(Debug, Clone, PartialEq)]
pub enum Update {
    Sent(Box<Exchange>),
    Headers {
        seq: usize,
        at_ms: f64,
        status: u16,
        headers: Vec<(String, String)>,
    },
    Event {
        seq: usize,
        event: RecordedEvent,
    },
    Body {
        seq: usize,
        text: String,
    },
    Done {
        seq: usize,
        at_ms: f64,
    },
    Failed {
        seq: usize,
        at_ms: f64,
        error: String,
    },
}

impl Update {
    pub fn seq(&self) -> usize {
        match self {
            Update::Sent(x) => x.seq,
            Update::Headers { seq, .. }
            | Update::Event { seq, .. }
            | Update::Body { seq, .. }
            | Update::Done { seq, .. }
            | Update::Failed { seq, .. } => *seq,
        }
    }
}

/// Every exchange so far.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Log {
    pub exchanges: Vec<Exchange>,
}

impl Log {
    /// Folds one update into the log. Updates for unknown exchanges are ignored.
    pub fn apply(&mut self, update: Update) {
        if let Update::Sent(exchange) = update {
            self.exchanges.push(*exchange);
            return;
        }
        let Some(x) = self.exchanges.iter_mut().find(|x| x.seq == update.seq()) else {
            return;
        };
        match update {
            Update::Sent(_) => {}
            Update::Headers {
                at_ms,
                status,
                headers,
                ..
            } => {
                x.status = Some(status);
                x.response_headers = headers;
                x.headers_ms = Some(at_ms);
            }
            Update::Event { event, .. } => x.events.push(event),
            Update::Body { text, .. } => x.response_body = Some(text),
            Update::Done { at_ms, .. } => x.finished_ms = Some(at_ms),
            Update::Failed { at_ms, error, .. } => {
                x.finished_ms = Some(at_ms);
                x.error = Some(error);
            }
        }
    }
}

/// Where recorded updates go.
pub type Recorder = Rc<dyn Fn(Update)>;

/// A log and the recorder that fills it, for callers that just want the record.
pub fn shared_log() -> (Rc<RefCell<Log>>, Recorder) {
    let log = Rc::new(RefCell::new(Log::default()));
    let sink = log.clone();
    (log, Rc::new(move |u: Update| sink.borrow_mut().apply(u)))
}

/// The exchange's request as a `curl` command line (credentials stay redacted).
pub fn curl(x: &Exchange) -> String {
    let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    let mut parts = vec![
        "curl -N".to_owned(),
        format!("-X {}", x.method),
        quote(&x.url),
    ];
    for (k, v) in &x.request_headers {
        parts.push(format!("-H {}", quote(&format!("{k}: {v}"))));
    }
    if let Some(body) = &x.request_body {
        parts.push(format!("--data-raw {}", quote(body)));
    }
    parts.join(" \\\n  ")
}

/// Replaces credential values ([`mcp_flow_wire::is_secret_header`]) with a marker.
pub fn redact(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| {
            if mcp_flow_wire::is_secret_header(k) {
                (k.clone(), "[redacted]".to_owned())
            } else {
                (k.clone(), v.clone())
            }
        })
        .collect()
}

/// The parts of `url` an export hides, as byte ranges with what stands in their place: user
/// info (dropped with its `@`), a bridge's secret path segment (`…/s/SECRET/…`) and each query
/// value. Plain string work, no URL parser: the settings (first load) ask this too.
fn secret_spans(url: &str) -> Vec<(usize, usize, &'static str)> {
    const MARK: &str = "[redacted]";
    let mut spans = Vec::new();
    let query = url.find('?');
    let head = &url[..query.unwrap_or(url.len())];
    if let Some(scheme) = head.find("://") {
        let start = scheme + 3;
        let path = head[start..].find('/').map_or(head.len(), |i| start + i);
        if let Some(at) = head[start..path].rfind('@') {
            spans.push((start, start + at + 1, ""));
        }
        // A segment right after an `s` segment, with another one after it.
        let (mut offset, mut previous) = (path, None);
        for segment in head[path..].split('/') {
            let end = offset + segment.len();
            if previous == Some("s") && !segment.is_empty() && end < head.len() {
                spans.push((offset, end, MARK));
            }
            (offset, previous) = (end + 1, Some(segment));
        }
    }
    if let Some(q) = query {
        let mut at = q + 1;
        for pair in url[q + 1..].split('&') {
            if let Some(eq) = pair.find('=') {
                spans.push((at + eq + 1, at + pair.len(), MARK));
            }
            at += pair.len() + 1;
        }
    }
    spans
}

/// `url` as an export may show it: [`secret_spans`] replaced, the rest as it was.
pub fn redact_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    let mut from = 0;
    for (start, end, with) in secret_spans(url) {
        out.push_str(&url[from..start]);
        out.push_str(with);
        from = end;
    }
    out.push_str(&url[from..]);
    out
}

/// Whether an export would show `url` otherwise than it is: it has a part [`redact_url`] hides.
pub fn url_has_secrets(url: &str) -> bool {
    !secret_spans(url).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_lose_bridge_secrets_query_values_and_user_info() {
        assert_eq!(
            redact_url("http://127.0.0.1:8001/s/abc123/mcp"),
            "http://127.0.0.1:8001/s/[redacted]/mcp"
        );
        assert_eq!(
            redact_url("http://127.0.0.1:8001/s/abc123/legs?since=4"),
            "http://127.0.0.1:8001/s/[redacted]/legs?since=[redacted]"
        );
        assert_eq!(
            redact_url("https://u:p@api.example/v1/models/x:generate?key=K&alt=sse&flag"),
            "https://api.example/v1/models/x:generate?key=[redacted]&alt=[redacted]&flag"
        );
        for plain in [
            "http://127.0.0.1:8000/mcp",
            "http://127.0.0.1:8000/s",
            "http://h/s/",
        ] {
            assert_eq!(redact_url(plain), plain);
            assert!(!url_has_secrets(plain), "{plain}");
        }
        for secret in [
            "http://127.0.0.1:8001/s/abc123/mcp",
            "http://127.0.0.1:8000/mcp?token=x",
            "http://u:p@127.0.0.1:8000/mcp",
        ] {
            assert!(url_has_secrets(secret), "{secret}");
            assert_ne!(redact_url(secret), secret);
        }
        assert_eq!(
            redact_url("not a url?token=x"),
            "not a url?token=[redacted]"
        );
        assert_eq!(
            redact_url("http://u@127.0.0.1:8001/s/x/mcp#frag"),
            "http://127.0.0.1:8001/s/[redacted]/mcp#frag"
        );
    }

    #[test]
    fn a_tool_error_is_told_from_success_in_json_and_sse_answers() {
        let request = HttpRequest {
            method: "POST",
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: Vec::new(),
            body: Some(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call"}"#.into()),
        };
        let mut x = Exchange::sent(0, &request, None, None, 0.0);
        assert!(!x.tool_failed(), "no answer yet");
        let event = |data: &str| RecordedEvent {
            at_ms: 1.0,
            id: None,
            event: "message".into(),
            data: data.into(),
            retry: None,
        };
        x.events.push(event(
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#,
        ));
        x.events.push(event(
            r#"{"jsonrpc":"2.0","id":3,"result":{"content":[],"isError":true}}"#,
        ));
        assert!(x.tool_failed());
        x.response_body =
            Some(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[],"isError":false}}"#.into());
        assert!(!x.tool_failed());
        x.response_body = Some(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#.into());
        assert!(!x.tool_failed(), "absent isError means success");
        x.response_body =
            Some(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no"}}"#.into());
        assert!(!x.tool_failed(), "a JSON-RPC error is not a tool error");
        assert!(x.rpc_response().is_some());
        x.response_body = Some("not json".into());
        assert!(x.rpc_response().is_none());
    }

    fn sent(seq: usize) -> Update {
        let request = HttpRequest {
            method: "POST",
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: vec![("Authorization".into(), "Bearer sk-secret".into())],
            body: Some(r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.into()),
        };
        let rpc: Value = serde_json::from_str(request.body.as_deref().unwrap()).unwrap();
        Update::Sent(Box::new(Exchange::sent(
            seq,
            &request,
            Some(&rpc),
            None,
            10.0,
        )))
    }

    #[test]
    fn updates_fold_into_exchanges_in_order() {
        let mut log = Log::default();
        log.apply(sent(0));
        assert!(log.exchanges[0].in_flight());
        log.apply(Update::Headers {
            seq: 0,
            at_ms: 12.0,
            status: 200,
            headers: vec![("Mcp-Session-Id".into(), "abc".into())],
        });
        for (i, data) in ["", "{\"a\":1}"].iter().enumerate() {
            log.apply(Update::Event {
                seq: 0,
                event: RecordedEvent {
                    at_ms: 13.0 + i as f64,
                    id: Some(i.to_string()),
                    event: "message".into(),
                    data: data.to_string(),
                    retry: None,
                },
            });
        }
        log.apply(Update::Done {
            seq: 0,
            at_ms: 20.0,
        });
        let x = &log.exchanges[0];
        assert_eq!(x.rpc_method.as_deref(), Some("initialize"));
        assert_eq!(x.rpc_id.as_deref(), Some("1"));
        assert_eq!(x.request_headers[0].1, "[redacted]");
        assert_eq!(x.status, Some(200));
        assert_eq!(x.response_header("mcp-session-id"), Some("abc"));
        assert_eq!(x.events.len(), 2);
        assert_eq!(x.events[1].data, "{\"a\":1}");
        assert_eq!(x.duration_ms(), Some(10.0));
        assert!(!x.in_flight());
    }

    #[test]
    fn failure_keeps_what_arrived() {
        let mut log = Log::default();
        log.apply(sent(0));
        log.apply(Update::Body {
            seq: 0,
            text: "partial".into(),
        });
        log.apply(Update::Failed {
            seq: 0,
            at_ms: 30.0,
            error: "timeout".into(),
        });
        log.apply(Update::Done { seq: 7, at_ms: 1.0 });
        let x = &log.exchanges[0];
        assert_eq!(x.response_body.as_deref(), Some("partial"));
        assert_eq!(x.error.as_deref(), Some("timeout"));
        assert_eq!(log.exchanges.len(), 1);
    }

    #[test]
    fn curl_quotes_single_quotes() {
        let mut log = Log::default();
        log.apply(sent(0));
        let mut x = log.exchanges[0].clone();
        x.request_body = Some(r#"{"q":"it's"}"#.into());
        x.request_headers = vec![("Accept".into(), "application/json".into())];
        let c = curl(&x);
        assert!(c.starts_with("curl -N \\\n  -X POST"), "{c}");
        assert!(c.contains(r#"--data-raw '{"q":"it'\''s"}'"#), "{c}");
        assert!(c.contains("-H 'Accept: application/json'"), "{c}");
    }

    #[test]
    fn credentials_are_redacted() {
        let headers = vec![
            ("Authorization".to_owned(), "Bearer sk-secret".to_owned()),
            ("x-api-key".to_owned(), "sk-ant".to_owned()),
            ("Accept".to_owned(), "application/json".to_owned()),
        ];
        let out = redact(&headers);
        assert_eq!(out[0].1, "[redacted]");
        assert_eq!(out[1].1, "[redacted]");
        assert_eq!(out[2].1, "application/json");
        assert!(!format!("{out:?}").contains("sk-"));
    }
}
