//! Printing the exchange record: one line per HTTP exchange when it finishes (method, status,
//! JSON-RPC method, time), plus why it happened and what went wrong, if anything.

use std::cell::RefCell;
use std::rc::Rc;

use mcp_flow_client::record::{Exchange, Log, Update};
use mcp_flow_client::transport::{Recorder, essence};

/// A recorder that hands each finished exchange, as text, to `write`.
pub fn printer(write: impl Fn(&str) + 'static) -> Recorder {
    let log = RefCell::new(Log::default());
    Rc::new(move |update: Update| {
        let seq = update.seq();
        let finished = matches!(update, Update::Done { .. } | Update::Failed { .. });
        let mut log = log.borrow_mut();
        log.apply(update);
        if finished && let Some(i) = log.exchanges.iter().position(|x| x.seq == seq) {
            let exchange = log.exchanges.remove(i);
            write(&exchange_text(&exchange));
        }
    })
}

/// `POST 200 tools/call 52 ms (text/event-stream, 3 events)` (or, for a step of the
/// authorization flow, its name and URL in place of the JSON-RPC method), then indented `note:`
/// and `error:` lines when there is something to say.
pub fn exchange_text(x: &Exchange) -> String {
    let status = x.status.map_or_else(|| "---".to_owned(), |s| s.to_string());
    let rpc = match (&x.auth, &x.rpc_method, &x.request_body) {
        // A step of the authorization flow: what it is and where it went (secrets redacted).
        (Some(step), _, _) => format!("{} {}", step.describe(), x.url),
        (None, Some(method), _) => method.clone(),
        (None, None, Some(_)) => "(reply)".to_owned(),
        (None, None, None) => "-".to_owned(),
    };
    let ms = x
        .duration_ms()
        .map_or_else(|| "?".to_owned(), |ms| format!("{ms:.0}"));
    let mut line = format!("{} {status} {rpc} {ms} ms", x.method);
    let mut details = Vec::new();
    if let Some(ct) = x.response_header("content-type") {
        details.push(essence(ct));
    }
    if !x.events.is_empty() {
        let n = x.events.len();
        details.push(format!("{n} event{}", if n == 1 { "" } else { "s" }));
    }
    if !details.is_empty() {
        line.push_str(&format!(" ({})", details.join(", ")));
    }
    if let Some(note) = &x.note {
        line.push_str(&format!("\n    note: {note}"));
    }
    if let Some(error) = &x.error {
        line.push_str(&format!("\n    error: {error}"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_flow_client::http::HttpRequest;
    use mcp_flow_client::record::RecordedEvent;

    fn exchange() -> Exchange {
        let request = HttpRequest {
            method: "POST",
            url: "http://127.0.0.1:1/mcp".into(),
            headers: vec![],
            body: Some("{}".into()),
        };
        let rpc = serde_json::json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call"});
        Exchange::sent(3, &request, Some(&rpc), None, 100.0)
    }

    #[test]
    fn an_authorization_step_is_named_with_its_url() {
        let request = HttpRequest {
            method: "GET",
            url: "http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp".into(),
            headers: vec![],
            body: None,
        };
        let mut x = Exchange::sent(0, &request, None, None, 0.0);
        x.auth = Some(mcp_flow_client::auth::AuthStep::ResourceMetadata);
        x.status = Some(200);
        x.finished_ms = Some(2.0);
        assert_eq!(
            exchange_text(&x),
            "GET 200 protected-resource metadata http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp 2 ms"
        );
    }

    #[test]
    fn a_finished_exchange_is_one_line_with_status_method_and_time() {
        let lines = Rc::new(RefCell::new(Vec::<String>::new()));
        let sink = lines.clone();
        let record = printer(move |s| sink.borrow_mut().push(s.to_owned()));
        record(Update::Sent(Box::new(exchange())));
        record(Update::Headers {
            seq: 3,
            at_ms: 110.0,
            status: 200,
            headers: vec![(
                "Content-Type".into(),
                "text/event-stream; charset=utf-8".into(),
            )],
        });
        for data in ["", "{}"] {
            record(Update::Event {
                seq: 3,
                event: RecordedEvent {
                    at_ms: 120.0,
                    id: None,
                    event: "message".into(),
                    data: data.into(),
                    retry: None,
                },
            });
        }
        assert!(lines.borrow().is_empty(), "printed before it finished");
        record(Update::Done {
            seq: 3,
            at_ms: 152.4,
        });
        assert_eq!(
            *lines.borrow(),
            ["POST 200 tools/call 52 ms (text/event-stream, 2 events)"]
        );
    }

    #[test]
    fn notes_and_errors_get_their_own_lines() {
        let mut x = exchange();
        x.method = "GET".into();
        x.rpc_method = None;
        x.request_body = None;
        x.note = Some("resume 1".into());
        x.finished_ms = Some(101.0);
        x.error = Some("HTTP 404 Not Found".into());
        assert_eq!(
            exchange_text(&x),
            "GET --- - 1 ms\n    note: resume 1\n    error: HTTP 404 Not Found"
        );
    }
}
