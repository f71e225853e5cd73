//! Why a run's first request found no MCP server: ordered checks, each saying what it sent and what
//! came back, then what to do. A browser hides why a fetch failed (refused, nothing listening, or a
//! response CORS does not let the page read), so the page asks again in ways that tell them apart
//! ([`Probe`]); the order of the checks and their words are here.

use serde::{Deserialize, Serialize};

use crate::diagram::{Lang, Row};

/// The JSON-RPC request a probe sends: `initialize` of 2025-11-25, which every server of that era
/// answers with a result and a server of 2026-07-28 with a JSON-RPC error; nothing else answers
/// JSON-RPC. (A session it opens is closed again by the probe.)
pub const PROBE_BODY: &str = r#"{"jsonrpc":"2.0","id":"mcp-flow-diagnosis","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-flow-diagnosis","version":"1"}}}"#;

/// The usual paths of an MCP endpoint, tried on the same origin when the address answers but not
/// with MCP.
pub const USUAL_PATHS: [&str; 3] = ["/mcp", "/sse", "/"];

/// What a probe got back.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// No response the page may read, and why the browser said so.
    Nothing(String),
    /// No answer within the probe's bound (seconds): the probe gave up waiting.
    Late(u32),
    /// A redirect, which a probe does not follow (none leaves the address typed).
    Redirect,
    /// A response: its status, content type and the start of its body.
    Read {
        status: u16,
        content_type: String,
        body: String,
    },
}

impl Answer {
    /// Whether this is an MCP server's answer: JSON-RPC, or an SSE stream (only MCP answers a POST
    /// with one here).
    fn is_mcp(&self) -> bool {
        let Self::Read {
            content_type, body, ..
        } = self
        else {
            return false;
        };
        if content_type.starts_with("text/event-stream") {
            return true;
        }
        serde_json::from_str::<serde_json::Value>(body)
            .is_ok_and(|v| v.get("jsonrpc").and_then(|j| j.as_str()) == Some("2.0"))
    }

    /// Whether this is the start of an HTTP+SSE stream (2024-11-05): its `endpoint` event.
    fn is_old_sse(&self) -> bool {
        matches!(self, Self::Read { content_type, body, .. }
            if content_type.starts_with("text/event-stream")
                && body.lines().any(|l| l.trim_end() == "event: endpoint"))
    }

    fn said(&self, url: &str) -> String {
        self.said_of("POST", url)
    }

    fn said_of(&self, method: &str, url: &str) -> String {
        match self {
            Self::Nothing(why) => format!("{method} {url}: no response the page may read ({why})"),
            Self::Late(secs) => format!("{method} {url}: no answer within {secs} s"),
            Self::Redirect => format!("{method} {url}: a redirect (not followed)"),
            Self::Read {
                status,
                content_type,
                ..
            } => {
                let kind = if self.is_old_sse() {
                    ", an `endpoint` event: HTTP+SSE (2024-11-05)"
                } else if method == "POST" && self.is_mcp() {
                    ", MCP"
                } else {
                    ""
                };
                let content_type = if content_type.is_empty() {
                    "no content type"
                } else {
                    content_type
                };
                format!("{method} {url}: HTTP {status}, {content_type}{kind}")
            }
        }
    }
}

/// The page's ways of asking a server.
#[allow(async_fn_in_trait)]
pub trait Probe {
    /// POSTs [`PROBE_BODY`] to `url` as the client would, and reads what the page may.
    async fn post(&self, url: &str) -> Answer;
    /// Whether anything answers at `url` at all, though the page may not read it (a `no-cors`
    /// request: it succeeds on any HTTP response and fails when nothing answers).
    async fn reaches(&self, url: &str) -> bool;
    /// GETs `url` as a client of the HTTP+SSE transport (2024-11-05) would, and reads its first
    /// event (the stream is closed then).
    async fn stream(&self, url: &str) -> Answer;
}

/// The checks, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CheckId {
    /// An https page may not call an http server that is not this machine (mixed content).
    Schemes,
    /// The page may read the server's answer, and it is MCP.
    Answers,
    /// Something answers at the address at all.
    Listens,
    /// Another usual path of the same origin answers MCP.
    Endpoint,
}

impl CheckId {
    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Self::Schemes, Lang::En) => "The page may call this address",
            (Self::Schemes, Lang::Zh) => "页面可以调用这个地址",
            (Self::Answers, Lang::En) => "The page reads an MCP answer from it",
            (Self::Answers, Lang::Zh) => "页面能读取它的MCP应答",
            (Self::Listens, Lang::En) => "Something answers there at all",
            (Self::Listens, Lang::Zh) => "那里有服务在应答",
            (Self::Endpoint, Lang::En) => "MCP at a usual path of the same origin",
            (Self::Endpoint, Lang::Zh) => "同源的常用路径上有MCP",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    Passed,
    Failed,
    NotRun,
}

/// One check: its verdict and what it sent and got (empty when not run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub id: CheckId,
    pub verdict: Verdict,
    pub detail: String,
}

/// What the checks found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Finding {
    /// An https page and an http server elsewhere: the browser blocks the request.
    MixedContent,
    /// Nothing answers at the address's origin.
    NothingListens { origin: String },
    /// The server answers, but not to this page (no CORS for its origin, or its origin refused):
    /// the bridge relays for it.
    RefusesOrigin { page: String, bridge: String },
    /// The address answers but not with MCP; another usual path of its origin does.
    Elsewhere { url: String },
    /// The address answers, but not with MCP; a usual path of its origin is an HTTP+SSE
    /// server (2024-11-05), which the client speaks too.
    OldTransport { url: String },
    /// The address answers, but not with MCP, and no usual path does.
    NotMcp,
    /// Nothing answered the probe within the bound (seconds): the address hangs.
    Slow { secs: u32 },
    /// The address answers with a redirect, and no usual path answers MCP.
    Redirects,
    /// The address answers MCP: what failed is in the request's own error.
    AnswersMcp,
    /// A link chose a server on a private network (not this machine): the page sends it no
    /// probe, since a web page could use that to reach into the user's network.
    NotProbed { origin: String },
}

impl Finding {
    /// The finding in a sentence.
    pub fn say(&self, lang: Lang) -> String {
        match (self, lang) {
            (Self::MixedContent, Lang::En) => "This page is served over https and the server over http: the browser blocks the request (mixed content). Serve both over the same scheme, or open the page over http on this machine.".into(),
            (Self::MixedContent, Lang::Zh) => "本页面通过https提供而服务器是http：浏览器会拦截请求（混合内容）。请让两者使用同一协议，或在本机通过http打开页面。".into(),
            (Self::NothingListens { origin }, Lang::En) if origin.starts_with("https://") => format!("Nothing answers at {origin} that the browser accepts: the server is not running, the address or port is wrong, or the browser refuses its certificate (a page cannot tell these apart: open {origin} in a tab to see)."),
            (Self::NothingListens { origin }, Lang::Zh) if origin.starts_with("https://") => format!("{origin} 没有浏览器接受的应答：服务器未运行、地址或端口有误，或浏览器拒绝了它的证书（页面无法区分这几种情况：在新标签页打开 {origin} 查看）。"),
            (Self::NothingListens { origin }, Lang::En) => format!("Nothing answers at {origin}: the server is not running, or the address or port is wrong."),
            (Self::NothingListens { origin }, Lang::Zh) => format!("{origin} 没有任何应答：服务器未运行，或地址、端口有误。"),
            (Self::RefusesOrigin { page, .. }, Lang::En) => format!("The server is up but does not let this page ({page}) read its answers (no CORS for this origin, or the origin refused). The bridge relays for it:"),
            (Self::RefusesOrigin { page, .. }, Lang::Zh) => format!("服务器在运行，但不允许本页面（{page}）读取它的应答（没有为该源提供CORS，或拒绝了该源）。可以通过桥接转发："),
            (Self::Elsewhere { url }, Lang::En) => format!("This address answers, but not with MCP; {url} does. Use that address."),
            (Self::Elsewhere { url }, Lang::Zh) => format!("这个地址有应答，但不是MCP；{url} 是。请改用该地址。"),
            (Self::OldTransport { url }, Lang::En) => format!("This address answers, but not with MCP; {url} is an MCP server of the HTTP+SSE transport (2024-11-05), which this page speaks too. Use that address."),
            (Self::OldTransport { url }, Lang::Zh) => format!("这个地址有应答，但不是MCP；{url} 是使用HTTP+SSE传输（2024-11-05）的MCP服务器，本页面也支持它。请改用该地址。"),
            (Self::NotMcp, Lang::En) => "This address answers, but not with MCP, and neither do /mcp, /sse or / of its origin: is it an MCP server?".into(),
            (Self::NotMcp, Lang::Zh) => "这个地址有应答但不是MCP，同源的 /mcp、/sse、/ 也都不是：它是MCP服务器吗？".into(),
            (Self::Slow { secs }, Lang::En) => format!("Nothing answered the probe within {secs} s: the server hangs or is very slow, or packets to this address are dropped (a request of the run would wait for its timeout)."),
            (Self::Slow { secs }, Lang::Zh) => format!("{secs}秒内没有任何应答探测：服务器挂起或非常慢，或发往该地址的数据包被丢弃（运行中的请求会一直等到超时）。"),
            (Self::Redirects, Lang::En) => "This address answers with a redirect, and no usual path of its origin (/mcp, /sse, /) answers MCP: use the address the redirect leads to, if it is an MCP endpoint (a chain of redirects that never ends fails every request).".into(),
            (Self::Redirects, Lang::Zh) => "这个地址以重定向应答，同源的常用路径（/mcp、/sse、/）也都不是MCP：如果重定向的目标是MCP端点，请改用它（没有尽头的重定向链会让每个请求失败）。".into(),
            (Self::AnswersMcp, Lang::En) => "The server answers MCP at this address: what failed is in the request's error above.".into(),
            (Self::AnswersMcp, Lang::Zh) => "服务器在这个地址上以MCP应答：失败原因见上方请求的错误。".into(),
            (Self::NotProbed { origin }, Lang::En) => format!("The link you opened chose {origin}, an address on a private network, and its first request failed. The page does not probe it further: a link could use that to send requests into your network. If you trust it, enter the address in the settings yourself and run again: the checks run then."),
            (Self::NotProbed { origin }, Lang::Zh) => format!("你打开的链接选择了私有网络上的地址 {origin}，其第一个请求失败了。页面不会继续探测它：链接可能借此向你的网络发送请求。如果你信任它，请在设置中亲自输入该地址并重新运行，届时会进行检查。"),
        }
    }

    /// A command that fixes it, when there is one.
    pub fn command(&self) -> Option<&str> {
        match self {
            Self::RefusesOrigin { bridge, .. } => Some(bridge),
            _ => None,
        }
    }
}

/// The checks of one failed first request, at its row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnosis {
    pub row: Row,
    pub checks: Vec<Check>,
    pub finding: Finding,
}

impl Diagnosis {
    /// Passes every URL in its texts through `redact` (an export hides a bridge's secret path
    /// and query values, as it does in the exchanges).
    pub fn redact_urls(&mut self, redact: impl Fn(&str) -> String) {
        let text = |t: &mut String| {
            *t = t
                .split(' ')
                .map(|w| {
                    if w.contains("://") {
                        redact(w)
                    } else {
                        w.to_owned()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
        };
        for c in &mut self.checks {
            text(&mut c.detail);
        }
        match &mut self.finding {
            Finding::NothingListens { origin } | Finding::NotProbed { origin } => text(origin),
            Finding::RefusesOrigin { page, bridge } => {
                text(page);
                text(bridge);
            }
            Finding::Elsewhere { url } | Finding::OldTransport { url } => text(url),
            Finding::MixedContent
            | Finding::NotMcp
            | Finding::AnswersMcp
            | Finding::Slow { .. }
            | Finding::Redirects => {}
        }
    }
}

/// Where a failure of the run's first request is diagnosed: its request's row (where the
/// inspector stands when it failed), for a failure at the request or its response; `None` for
/// any other row.
pub fn request_row(row: Row) -> Option<Row> {
    match row {
        Row::Discover | Row::DiscoverResult => Some(Row::Discover),
        Row::Initialize | Row::InitializeResult => Some(Row::Initialize),
        _ => None,
    }
}

/// Runs the checks for `url`, which the page at `page` (its origin) could not reach at `row`.
/// Only the address's origin is probed without CORS (never a path or query a link chose), and
/// an address on a private network that a link chose (`from_link`) is not probed at all.
pub async fn diagnose(
    probe: &impl Probe,
    page: &str,
    url: &str,
    row: Row,
    from_link: bool,
) -> Diagnosis {
    let mut checks = Vec::new();
    let mut check = |id, verdict, detail: String| {
        checks.push(Check {
            id,
            verdict,
            detail,
        })
    };
    let Some(parts) = mcp_flow_client::origin::origin(url) else {
        check(
            CheckId::Schemes,
            Verdict::Failed,
            format!("{url:?} is not an absolute URL"),
        );
        return finish(
            checks,
            row,
            Finding::NothingListens {
                origin: url.to_owned(),
            },
        );
    };
    let origin = format!("{}://{}", parts.scheme, parts.authority);
    if from_link && parts.is_private_network() {
        check(
            CheckId::Schemes,
            Verdict::NotRun,
            format!("a link chose {origin}, on a private network: not probed"),
        );
        return finish(checks, row, Finding::NotProbed { origin });
    }
    let page_scheme = page.split("://").next().unwrap_or("");
    if page_scheme == "https" && parts.scheme == "http" && !parts.is_loopback() {
        check(
            CheckId::Schemes,
            Verdict::Failed,
            format!("page {page}, server {origin}"),
        );
        return finish(checks, row, Finding::MixedContent);
    }
    check(
        CheckId::Schemes,
        Verdict::Passed,
        format!("page {page}, server {origin}"),
    );

    let answer = probe.post(url).await;
    if answer.is_mcp() {
        check(CheckId::Answers, Verdict::Passed, answer.said(url));
        check(
            CheckId::Listens,
            Verdict::Passed,
            "it answered the POST above".into(),
        );
        return finish(checks, row, Finding::AnswersMcp);
    }
    check(CheckId::Answers, Verdict::Failed, answer.said(url));
    if let Answer::Late(secs) = answer {
        // A hanging connection proves nothing listens, and each other probe could hang as long.
        return finish(checks, row, Finding::Slow { secs });
    }
    if let Answer::Nothing(_) = answer {
        // A request without CORS reaches its server unasked: only the origin's root.
        let root = format!("{origin}/");
        return if probe.reaches(&root).await {
            check(
                CheckId::Listens,
                Verdict::Passed,
                format!("a no-cors request to {root} got an answer the page may not read"),
            );
            let bridge =
                format!("cargo run -p mcp-flow-bridge -- http --allow-origin {page} {url}");
            finish(
                checks,
                row,
                Finding::RefusesOrigin {
                    page: page.to_owned(),
                    bridge,
                },
            )
        } else {
            check(
                CheckId::Listens,
                Verdict::Failed,
                format!("a no-cors request to {root} got no answer either"),
            );
            finish(checks, row, Finding::NothingListens { origin })
        };
    }
    check(
        CheckId::Listens,
        Verdict::Passed,
        "it answered the POST above".into(),
    );
    let mut tried = Vec::new();
    for path in USUAL_PATHS {
        let candidate = format!("{origin}{path}");
        if candidate == url.trim_end_matches('/') || (path == "/" && candidate == url) {
            continue;
        }
        let answer = probe.post(&candidate).await;
        tried.push(answer.said(&candidate));
        if answer.is_mcp() {
            check(CheckId::Endpoint, Verdict::Passed, tried.join("; "));
            return finish(checks, row, Finding::Elsewhere { url: candidate });
        }
        let stream = probe.stream(&candidate).await;
        tried.push(stream.said_of("GET", &candidate));
        if stream.is_old_sse() {
            check(CheckId::Endpoint, Verdict::Passed, tried.join("; "));
            return finish(checks, row, Finding::OldTransport { url: candidate });
        }
    }
    check(CheckId::Endpoint, Verdict::Failed, tried.join("; "));
    let finding = if answer == Answer::Redirect {
        Finding::Redirects
    } else {
        Finding::NotMcp
    };
    finish(checks, row, finding)
}

/// The checks that did not run are listed too, so a diagnosis reads the same every time.
fn finish(mut checks: Vec<Check>, row: Row, finding: Finding) -> Diagnosis {
    for id in [
        CheckId::Schemes,
        CheckId::Answers,
        CheckId::Listens,
        CheckId::Endpoint,
    ] {
        if !checks.iter().any(|c| c.id == id) {
            checks.push(Check {
                id,
                verdict: Verdict::NotRun,
                detail: String::new(),
            });
        }
    }
    Diagnosis {
        row,
        checks,
        finding,
    }
}

#[cfg(test)]
#[path = "diagnose_tests.rs"]
mod tests;
