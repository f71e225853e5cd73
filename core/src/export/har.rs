//! HAR 1.2 (the format browsers' network panels import): one entry per MCP HTTP exchange and
//! per LLM call, in the order they started. SSE responses keep their events as `text/event-stream`
//! text.

use serde_json::{Value, json};

use super::recording::Recording;
use mcp_flow_client::record::Exchange;

/// The HAR document for `rec`; `iso` turns epoch milliseconds into an ISO 8601 date.
pub fn har(rec: &Recording, iso: &dyn Fn(f64) -> String) -> Value {
    let mismatch = rec.run.output_mismatch_exchange();
    let mut entries: Vec<(f64, Value)> = rec
        .run
        .mcp
        .exchanges
        .iter()
        .map(|x| {
            let mut entry = mcp_entry(x, rec.time_origin_ms, iso);
            if let Some((_, found)) = mismatch.as_ref().filter(|(seq, _)| *seq == x.seq) {
                let comment = entry["comment"].as_str().unwrap_or_default();
                entry["comment"] =
                    format!("{comment}: result breaks the outputSchema: {found}").into();
            }
            (x.started_ms, entry)
        })
        .collect();
    entries.extend(rec.run.llm.iter().map(|x| {
        let body = x.request.to_string();
        let response = x.response.as_ref().map(Value::to_string).unwrap_or_default();
        let entry = json!({
            "startedDateTime": iso(rec.time_origin_ms + x.started_ms),
            "time": (x.finished_ms - x.started_ms).max(0.0),
            "request": request("POST", &x.url, &[("Content-Type".into(), "application/json".into())], Some(&body)),
            "response": response_json(x.status.unwrap_or(0), &[("content-type".into(), "application/json".into())], &response),
            "cache": {},
            "timings": {"send": 0, "wait": (x.finished_ms - x.started_ms).max(0.0), "receive": 0},
            "comment": format!("LLM call ({})", x.provider),
        });
        (x.started_ms, entry)
    }));
    entries.sort_by(|a, b| a.0.total_cmp(&b.0));
    json!({"log": {
        "version": "1.2",
        "creator": {"name": "MCP Flow", "version": env!("CARGO_PKG_VERSION")},
        "pages": [],
        "entries": entries.into_iter().map(|(_, e)| e).collect::<Vec<_>>(),
        "comment": format!(
            "MCP Flow run against {} ({}): {}",
            rec.server,
            era_words(rec),
            rec.question
        ),
    }})
}

/// The era the run spoke, and why, for the log's comment.
fn era_words(rec: &Recording) -> String {
    match &rec.run.era {
        Some(d) => format!(
            "MCP {}, {}",
            match d.era {
                mcp_flow_client::era::Era::Modern => mcp_flow_client::modern::VERSION,
                mcp_flow_client::era::Era::Legacy => mcp_flow_client::version::REQUESTED,
            },
            d.why.describe()
        ),
        None => "era not known".into(),
    }
}

fn headers(list: &[(String, String)]) -> Value {
    list.iter()
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect()
}

fn request(method: &str, url: &str, list: &[(String, String)], body: Option<&str>) -> Value {
    let mut r = json!({
        "method": method, "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
        "headers": headers(list), "queryString": [], "headersSize": -1,
        "bodySize": body.map_or(0, str::len),
    });
    if let Some(text) = body {
        r["postData"] = json!({"mimeType": "application/json", "text": text});
    }
    r
}

fn response_json(status: u16, list: &[(String, String)], text: &str) -> Value {
    let mime = list
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        .map_or("", |(_, v)| v.as_str());
    json!({
        "status": status, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
        "headers": headers(list),
        "content": {"size": text.len(), "mimeType": mime, "text": text},
        "redirectURL": "", "headersSize": -1, "bodySize": text.len(),
    })
}

/// An SSE body as it went over the wire: `id:`, `event:`, `retry:` and `data:` lines.
fn sse_text(x: &Exchange) -> String {
    let mut out = String::new();
    for e in &x.events {
        if let Some(id) = &e.id {
            out.push_str(&format!("id: {id}\n"));
        }
        if e.event != "message" {
            out.push_str(&format!("event: {}\n", e.event));
        }
        if let Some(retry) = e.retry {
            out.push_str(&format!("retry: {retry}\n"));
        }
        for line in e.data.split('\n') {
            out.push_str(&format!("data: {line}\n"));
        }
        out.push('\n');
    }
    out
}

fn mcp_entry(x: &Exchange, origin: f64, iso: &dyn Fn(f64) -> String) -> Value {
    let text = match &x.response_body {
        Some(body) => body.clone(),
        None => sse_text(x),
    };
    let end = x.finished_ms.unwrap_or(x.started_ms);
    let wait = x
        .headers_ms
        .map_or(end - x.started_ms, |h| h - x.started_ms);
    let mut comment = x.rpc_method.clone().unwrap_or_default();
    if let Some(note) = &x.note {
        comment = format!("{comment} ({note})");
    }
    if let Some(of) = &x.replay {
        comment = format!("{comment} ({})", of.describe());
    }
    if x.tool_failed() {
        comment = format!("{comment}: tool error (isError: true)");
    }
    if let Some(error) = &x.error {
        comment = format!("{comment}: {error}");
    }
    json!({
        "startedDateTime": iso(origin + x.started_ms),
        "time": (end - x.started_ms).max(0.0),
        "request": request(&x.method, &x.url, &x.request_headers, x.request_body.as_deref()),
        "response": response_json(x.status.unwrap_or(0), &x.response_headers, &text),
        "cache": {},
        "timings": {"send": 0, "wait": wait.max(0.0), "receive": (end - x.started_ms - wait).max(0.0)},
        "comment": comment,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::recording::tests::{sample, sample_run};

    #[test]
    fn a_bridge_secret_and_query_values_stay_out_of_the_json_and_har() {
        let secret_url = "http://127.0.0.1:8001/s/b1dge5ecret/mcp?token=q5ecret";
        let mut run = sample_run();
        run.mcp.exchanges[0].url = secret_url.into();
        run.llm[0].url = "https://llm.example/v1/x?key=k5ecret".into();
        let rec = crate::export::recording::Recording::new(
            &run,
            crate::export::recording::Context {
                created: String::new(),
                time_origin_ms: 0.0,
                server: secret_url,
                question: "q",
                lang: "en",
                llm: "m",
            },
        );
        let har = har(&rec, &|_| String::new()).to_string();
        for text in [rec.to_json(), har] {
            for secret in ["b1dge5ecret", "q5ecret", "k5ecret"] {
                assert!(!text.contains(secret), "{secret} in {text}");
            }
            assert!(
                text.contains("/s/[redacted]/mcp?token=[redacted]"),
                "{text}"
            );
        }
    }

    #[test]
    fn every_exchange_becomes_an_entry_with_the_wire_bytes() {
        let iso = |ms: f64| format!("t{ms}");
        let doc = har(&sample(), &iso);
        let log = &doc["log"];
        assert_eq!(log["version"], "1.2");
        let entries = log["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 2, "one MCP exchange and one LLM call");
        let first = &entries[0];
        assert_eq!(first["startedDateTime"], "t1764428400010");
        assert_eq!(first["time"], 6.0);
        assert_eq!(first["request"]["method"], "POST");
        assert_eq!(first["comment"], "initialize");
        assert_eq!(first["response"]["status"], 200);
        assert_eq!(
            first["response"]["content"]["mimeType"],
            "text/event-stream"
        );
        assert_eq!(
            first["response"]["content"]["text"],
            "id: 0\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
        );
        assert_eq!(first["timings"]["wait"], 4.0);
        assert_eq!(entries[1]["comment"], "LLM call (OpenAI-compatible)");
        let mut replayed = sample();
        replayed.run.mcp.exchanges[0].replay = Some(mcp_flow_client::record::ReplayOf {
            run: 2,
            seq: 0,
            edited: true,
        });
        let doc = har(&replayed, &iso);
        assert_eq!(
            doc["log"]["entries"][0]["comment"],
            "initialize (edited replay of run 2 #0)"
        );
        assert!(!doc.to_string().contains("sk-live"));
        assert!(
            log["comment"]
                .as_str()
                .unwrap()
                .contains("(MCP 2026-07-28, server/discover answered"),
            "{}",
            log["comment"]
        );
    }
}
