//! The same question in both eras, side by side: what each run put on the wire (requests, bytes,
//! time) and what changed between the revisions, and why. Pure: figures are read from two run
//! records.

use crate::diagram::Lang;
use crate::record::run::Run;
use mcp_flow_client::era::Era;
use mcp_flow_client::record::Exchange;

/// One era's run, in figures.
#[derive(Debug, Clone, PartialEq)]
pub struct EraFigures {
    pub era: Era,
    /// HTTP requests sent (every POST, GET and DELETE, notifications included).
    pub requests: usize,
    /// The JSON-RPC methods of those requests, in order (`-` for GET and DELETE).
    pub methods: Vec<String>,
    /// Request bytes: the request line's method and URL, headers and body, as recorded.
    pub bytes_sent: usize,
    /// Response bytes: headers and body (SSE events as their data), as recorded.
    pub bytes_received: usize,
    /// From the first request to the end of the last response, in milliseconds.
    pub time_ms: f64,
}

fn headers_len(headers: &[(String, String)]) -> usize {
    // "Name: value\r\n"
    headers.iter().map(|(k, v)| k.len() + v.len() + 4).sum()
}

fn sent(x: &Exchange) -> usize {
    x.method.len()
        + x.url.len()
        + headers_len(&x.request_headers)
        + x.request_body.as_ref().map_or(0, String::len)
}

fn received(x: &Exchange) -> usize {
    let body = match &x.response_body {
        Some(body) => body.len(),
        // "data: …\n\n" per event, plus its id/event lines.
        None => x
            .events
            .iter()
            .map(|e| e.data.len() + e.id.as_ref().map_or(0, |id| id.len() + 5) + 8)
            .sum(),
    };
    headers_len(&x.response_headers) + body
}

impl EraFigures {
    /// The figures of `run`, which spoke `era`.
    pub fn of(era: Era, run: &Run) -> Self {
        let exchanges = &run.mcp.exchanges;
        let start = exchanges
            .iter()
            .map(|x| x.started_ms)
            .fold(f64::INFINITY, f64::min);
        let end = exchanges
            .iter()
            .filter_map(|x| x.finished_ms)
            .fold(f64::NEG_INFINITY, f64::max);
        Self {
            era,
            requests: exchanges.len(),
            methods: exchanges
                .iter()
                .map(|x| x.rpc_method.clone().unwrap_or_else(|| "-".into()))
                .collect(),
            bytes_sent: exchanges.iter().map(sent).sum(),
            bytes_received: exchanges.iter().map(received).sum(),
            time_ms: if end >= start { end - start } else { 0.0 },
        }
    }
}

/// What changed from 2025-11-25 to 2026-07-28, and why: (English, Chinese).
pub const CHANGES: [(&str, &str); 7] = [
    (
        "No initialize and no notifications/initialized: every request carries its protocol version, client info and capabilities in _meta, so any server instance can answer any request.",
        "没有 initialize，也没有 notifications/initialized：每个请求都在 _meta 中携带协议版本、客户端信息和能力，因此任何服务器实例都能回答任何请求。",
    ),
    (
        "No Mcp-Session-Id, no GET stream, no DELETE: the server keeps nothing between requests, which is what lets it scale out.",
        "没有 Mcp-Session-Id、没有 GET 流、没有 DELETE：服务器在请求之间不保留任何状态，这样才能横向扩展。",
    ),
    (
        "server/discover (optional) tells the versions and capabilities up front, with a cache lifetime (ttlMs).",
        "server/discover（可选）预先告知版本和能力，并带有缓存时长（ttlMs）。",
    ),
    (
        "Mcp-Method, Mcp-Name and Mcp-Param-* headers mirror the body, so gateways and load balancers route without parsing JSON; a mismatch is refused (−32020).",
        "Mcp-Method、Mcp-Name 和 Mcp-Param-* 请求头镜像请求体，网关和负载均衡器无需解析 JSON 即可路由；不一致会被拒绝（−32020）。",
    ),
    (
        "A server that needs the user returns input_required and the client retries with the answers (MRTR), instead of sending a request on a stream.",
        "需要用户输入的服务器返回 input_required，客户端带着回答重试（MRTR），而不是在流上发送请求。",
    ),
    (
        "The log level rides on each request's _meta instead of logging/setLevel; without it the server sends no log lines.",
        "日志级别随每个请求的 _meta 发送，取代 logging/setLevel；没有它服务器就不发送日志。",
    ),
    (
        "No SSE resumption: a broken response stream means the request is sent again under a new id.",
        "不再恢复 SSE：响应流中断意味着以新 ID 重新发送请求。",
    ),
];

/// The revision's changelog, for the list's link.
pub const CHANGELOG: &str = "https://modelcontextprotocol.io/specification/2026-07-28/changelog";

/// A change's text in `lang`.
pub fn change(index: usize, lang: Lang) -> &'static str {
    CHANGES
        .get(index)
        .map(|(en, zh)| if lang == Lang::Zh { *zh } else { *en })
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::Row;
    use crate::record::run::RunEvent;
    use mcp_flow_client::http::HttpRequest;
    use mcp_flow_client::record::{RecordedEvent, Update};

    fn run_with(exchanges: &[(&str, &str, Option<&str>, f64, f64)]) -> Run {
        let mut run = Run::new([Row::CallTool]);
        for (seq, (method, body, response, start, end)) in exchanges.iter().enumerate() {
            let request = HttpRequest {
                method: if *method == "DELETE" {
                    "DELETE"
                } else {
                    "POST"
                },
                url: "http://h/mcp".into(),
                headers: vec![("Accept".into(), "x".into())],
                body: (!body.is_empty()).then(|| (*body).to_owned()),
            };
            let rpc = serde_json::from_str(body).ok();
            let mut x = Exchange::sent(seq, &request, rpc.as_ref(), None, *start);
            x.response_body = response.map(str::to_owned);
            if response.is_none() {
                x.events.push(RecordedEvent {
                    at_ms: *end,
                    id: Some("1".into()),
                    event: "message".into(),
                    data: "{}".into(),
                    retry: None,
                });
            }
            x.finished_ms = Some(*end);
            run.apply(RunEvent::Mcp(Update::Sent(Box::new(x))));
        }
        run
    }

    #[test]
    fn figures_count_requests_bytes_and_time() {
        let run = run_with(&[
            (
                r#"{"method":"initialize","id":1}"#,
                r#"{"method":"initialize","id":1}"#,
                None,
                10.0,
                20.0,
            ),
            (
                "POST",
                r#"{"method":"tools/call","id":2}"#,
                Some(r#"{"result":{}}"#),
                25.0,
                40.0,
            ),
            ("DELETE", "", Some(""), 41.0, 45.0),
        ]);
        let f = EraFigures::of(Era::Legacy, &run);
        assert_eq!(f.requests, 3);
        assert_eq!(f.methods, ["initialize", "tools/call", "-"]);
        assert_eq!(f.time_ms, 35.0);
        // The method, the URL (12), "Accept: x\r\n" (11) and the body, per request.
        let body1 = r#"{"method":"initialize","id":1}"#.len();
        let body2 = r#"{"method":"tools/call","id":2}"#.len();
        assert_eq!(
            f.bytes_sent,
            (4 + 12 + 11 + body1) + (4 + 12 + 11 + body2) + (6 + 12 + 11)
        );
        // The SSE event ("{}" with its id and framing) and the JSON body.
        assert_eq!(f.bytes_received, (2 + 1 + 5 + 8) + r#"{"result":{}}"#.len());
        let empty = EraFigures::of(Era::Modern, &Run::default());
        assert_eq!((empty.requests, empty.time_ms), (0, 0.0));
    }

    #[test]
    fn every_change_is_written_in_both_languages() {
        for i in 0..CHANGES.len() {
            let (en, zh) = (change(i, Lang::En), change(i, Lang::Zh));
            assert!(!en.is_empty() && !zh.is_empty() && en != zh, "{i}");
        }
        assert!(CHANGELOG.ends_with("/2026-07-28/changelog"));
    }
}
