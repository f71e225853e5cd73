//! One log of every MCP message of the page's lifetime, across runs and eras: each exchange the
//! client began (HTTP method, JSON-RPC method and id), how it ended (a result, a JSON-RPC error, a
//! tool that failed, an HTTP or transport failure) and how long it took; and each message the
//! server sent on its streams before the answer (log lines, progress, its own requests). Searched
//! and filtered by method, direction and outcome.

use serde_json::Value;

use crate::diagnose::{CheckId, Diagnosis, Verdict};
use crate::llm::LlmExchange;
use mcp_flow_client::era::Era;
use mcp_flow_client::record::{Exchange, ReplayOf};

/// How an exchange ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// No answer yet.
    Pending,
    /// A result (or, for a notification, 202 Accepted).
    Ok,
    /// A result with `isError: true`: the call went through, the tool failed.
    ToolError,
    /// A result that breaks the tool's `outputSchema`: what the check found.
    OutputMismatch(String),
    /// A JSON-RPC error answer.
    RpcError { code: i64, message: String },
    /// An HTTP error status, or no response at all.
    Failed(String),
    /// A check of a diagnosis: its verdict and what it sent and got.
    Check(Verdict, String),
}

impl Outcome {
    fn of(x: &Exchange) -> Self {
        if let Some(error) = &x.error {
            return Self::Failed(error.clone());
        }
        if let Some(status) = x.status.filter(|s| *s >= 400) {
            return Self::Failed(format!("HTTP {status}"));
        }
        if x.in_flight() {
            return Self::Pending;
        }
        let answer = x.rpc_response();
        if let Some(error) = answer.as_ref().and_then(|a| a.get("error")) {
            return Self::RpcError {
                code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
                message: error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            };
        }
        if x.tool_failed() {
            return Self::ToolError;
        }
        Self::Ok
    }

    /// The filter this outcome falls under.
    pub fn kind(&self) -> Kind {
        match self {
            Self::Pending => Kind::Pending,
            Self::Ok => Kind::Ok,
            Self::ToolError => Kind::ToolError,
            Self::RpcError { .. } | Self::Failed(_) | Self::OutputMismatch(_) => Kind::Error,
            Self::Check(Verdict::Passed, _) => Kind::Ok,
            Self::Check(Verdict::Failed, _) => Kind::Error,
            Self::Check(Verdict::NotRun, _) => Kind::NotRun,
        }
    }

    /// A short word for the log's status column.
    pub fn describe(&self) -> String {
        match self {
            Self::Pending => "…".into(),
            Self::Ok => "ok".into(),
            Self::ToolError => "tool error (isError)".into(),
            Self::RpcError { code, message } => format!("error {code}: {message}"),
            Self::Failed(why) => why.clone(),
            Self::OutputMismatch(found) => format!("result breaks the outputSchema: {found}"),
            Self::Check(Verdict::Passed, detail) => format!("passed: {detail}"),
            Self::Check(Verdict::Failed, detail) => format!("failed: {detail}"),
            Self::Check(Verdict::NotRun, _) => "not run".into(),
        }
    }
}

/// The outcome filter of the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Pending,
    Ok,
    ToolError,
    Error,
    /// A check of a diagnosis that did not run.
    NotRun,
}

/// What a line is about: the MCP traffic, a call to the model (kept apart: not MCP), or a check
/// of the diagnosis of a run that reached no MCP server (the page's own probes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    Mcp,
    Llm,
    Check,
}

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From the client to the server: a request, a notification, an answer to the server.
    Sent,
    /// From the server, on a stream, before (or without) the answer.
    Received,
}

impl Direction {
    pub fn arrow(self) -> &'static str {
        match self {
            Self::Sent => "→",
            Self::Received => "←",
        }
    }
}

/// A line of the log across the page's lifetime: its run, its exchange's number in the run, and
/// which part of the exchange (0: the exchange the client began; n: the n-th message the server
/// sent on its stream).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LineId {
    pub run: usize,
    pub source: Source,
    pub seq: usize,
    pub part: usize,
}

/// One line of the log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogRow {
    /// Which run of the page (1 is the first).
    pub run: usize,
    pub era: Option<Era>,
    pub seq: usize,
    /// 0 for the exchange; n for the n-th message the server sent on it.
    pub part: usize,
    /// MCP traffic, or a model call (`seq` is then its number among the run's model calls).
    pub source: Source,
    pub direction: Direction,
    /// "POST tools/call", "DELETE", "GET"; for a message from the server, its method.
    pub what: String,
    pub id: Option<String>,
    pub outcome: Outcome,
    pub duration_ms: Option<f64>,
    /// A JSON-RPC message POSTed: it can be replayed.
    pub replayable: bool,
    /// The request this line replayed, if the user sent it from the log.
    pub replay: Option<ReplayOf>,
    /// For a line of a diagnosis ([`Source::Check`]): which check (its name is in the page's
    /// language).
    pub check: Option<CheckId>,
}

/// The exchanges of one run, with its number and era.
pub struct RunExchanges<'a> {
    pub run: usize,
    pub era: Option<Era>,
    pub exchanges: &'a [Exchange],
    /// The exchange whose result broke its tool's `outputSchema`, and what the check found.
    pub mismatch: Option<&'a (usize, String)>,
    /// The run's calls to the model.
    pub llm: &'a [LlmExchange],
    /// Why its first request reached no MCP server, when it was diagnosed.
    pub diagnosis: Option<&'a Diagnosis>,
}

/// The log's lines, oldest first: each exchange, then the messages the server sent on it.
pub fn rows(runs: &[RunExchanges<'_>]) -> Vec<LogRow> {
    let mut out = Vec::new();
    for r in runs {
        for x in r.exchanges {
            out.push(LogRow {
                run: r.run,
                era: r.era,
                seq: x.seq,
                part: 0,
                source: Source::Mcp,
                direction: Direction::Sent,
                what: match &x.rpc_method {
                    Some(m) => format!("{} {m}", x.method),
                    None if answers_the_server(x) => format!("{} (answer to the server)", x.method),
                    None => x.method.clone(),
                },
                id: x.rpc_id.clone(),
                outcome: match (Outcome::of(x), r.mismatch) {
                    (Outcome::Ok, Some((seq, found))) if *seq == x.seq => {
                        Outcome::OutputMismatch(found.clone())
                    }
                    (outcome, _) => outcome,
                },
                duration_ms: x.duration_ms(),
                replayable: x.method == "POST" && x.rpc_method.is_some(),
                replay: x.replay,
                check: None,
            });
            let from_server = x
                .events
                .iter()
                .filter_map(|e| serde_json::from_str::<Value>(&e.data).ok())
                .filter_map(|m| {
                    let method = m.get("method")?.as_str()?.to_owned();
                    Some((method, m.get("id").map(Value::to_string)))
                });
            for (part, (method, id)) in (1..).zip(from_server) {
                out.push(LogRow {
                    run: r.run,
                    era: r.era,
                    seq: x.seq,
                    part,
                    source: Source::Mcp,
                    direction: Direction::Received,
                    what: method,
                    id,
                    outcome: Outcome::Ok,
                    duration_ms: None,
                    replayable: false,
                    replay: None,
                    check: None,
                });
            }
        }
        for (seq, call) in r.llm.iter().enumerate() {
            let outcome = match (&call.error, call.status) {
                (Some(error), _) => Outcome::Failed(error.clone()),
                (None, Some(status)) if status >= 400 => Outcome::Failed(format!("HTTP {status}")),
                _ => Outcome::Ok,
            };
            out.push(LogRow {
                run: r.run,
                era: r.era,
                seq,
                part: 0,
                source: Source::Llm,
                direction: Direction::Sent,
                what: format!("LLM {}", call.provider),
                id: None,
                outcome,
                duration_ms: Some(call.finished_ms - call.started_ms),
                replayable: false,
                replay: None,
                check: None,
            });
        }
        let checks = r.diagnosis.map(|d| d.checks.as_slice()).unwrap_or_default();
        for (seq, c) in checks.iter().enumerate() {
            out.push(LogRow {
                run: r.run,
                era: r.era,
                seq,
                part: 0,
                source: Source::Check,
                direction: Direction::Sent,
                what: format!("check: {}", c.id.name(crate::diagram::Lang::En)),
                id: None,
                outcome: Outcome::Check(c.verdict, c.detail.clone()),
                duration_ms: None,
                replayable: false,
                replay: None,
                check: Some(c.id),
            });
        }
    }
    out
}

/// Whether `x` POSTed the client's answer to a request of the server (a body with `result` or
/// `error` and no method).
fn answers_the_server(x: &Exchange) -> bool {
    x.request_body
        .as_deref()
        .and_then(|b| serde_json::from_str::<Value>(b).ok())
        .is_some_and(|m| m.get("result").is_some() || m.get("error").is_some())
}

impl LogRow {
    pub fn line_id(&self) -> LineId {
        LineId {
            run: self.run,
            source: self.source,
            seq: self.seq,
            part: self.part,
        }
    }
}

/// The lines to show: the pinned ones first, whatever the filters say (in the order they were
/// pinned), then the others that pass [`filter`]; each with whether it is pinned.
pub fn arrange(rows: &[LogRow], filters: &Filters, pinned: &[LineId]) -> Vec<(LogRow, bool)> {
    let first = pinned
        .iter()
        .filter_map(|id| rows.iter().find(|r| r.line_id() == *id))
        .map(|r| (r.clone(), true));
    let rest = filter(rows, filters)
        .into_iter()
        .filter(|r| !pinned.contains(&r.line_id()))
        .map(|r| (r, false));
    first.chain(rest).collect()
}

/// What the log shows: the search, and each filter if set.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filters {
    pub query: String,
    pub kind: Option<Kind>,
    pub direction: Option<Direction>,
    /// The model calls too (they are kept apart unless asked for).
    pub llm: bool,
}

/// The lines whose method contains the search (any case), whose outcome is of the kind and that
/// went the direction, each if given; model calls only when asked for.
pub fn filter(rows: &[LogRow], f: &Filters) -> Vec<LogRow> {
    let (query, kind, direction) = (f.query.trim().to_lowercase(), f.kind, f.direction);
    rows.iter()
        .filter(|r| f.llm || r.source != Source::Llm)
        .filter(|r| query.is_empty() || r.what.to_lowercase().contains(&query))
        .filter(|r| kind.is_none_or(|k| r.outcome.kind() == k))
        .filter(|r| direction.is_none_or(|d| r.direction == d))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_flow_client::record::RecordedEvent;
    use serde_json::json;

    fn filtered(
        rows: &[LogRow],
        query: &str,
        kind: Option<Kind>,
        direction: Option<Direction>,
    ) -> Vec<LogRow> {
        let filters = Filters {
            query: query.into(),
            kind,
            direction,
            llm: false,
        };
        filter(rows, &filters)
    }

    fn search(query: &str) -> Filters {
        Filters {
            query: query.into(),
            ..Filters::default()
        }
    }

    fn exchange(seq: usize, method: &str, answer: Option<Value>, status: u16) -> Exchange {
        let mut x = mcp_flow_client::scripted::posted(seq, method, 10.0);
        x.status = Some(status);
        if let Some(answer) = answer {
            x.events.push(RecordedEvent {
                at_ms: 12.0,
                id: None,
                event: "message".into(),
                data: answer.to_string(),
                retry: None,
            });
            x.finished_ms = Some(14.5);
        }
        x
    }

    #[test]
    fn every_exchange_of_every_run_is_logged_with_how_it_ended() {
        let first = [
            exchange(0, "initialize", Some(json!({"id": 0, "result": {}})), 200),
            exchange(
                1,
                "tools/call",
                Some(json!({"id": 1, "result": {"content": [], "isError": true}})),
                200,
            ),
        ];
        let mut failed = exchange(0, "server/discover", None, 200);
        failed.error = Some("no response within 3000 ms".into());
        let second = [
            failed,
            exchange(
                1,
                "tools/list",
                Some(json!({"id": 1, "error": {"code": -32601, "message": "Method not found"}})),
                200,
            ),
            exchange(2, "tools/call", None, 503),
            exchange(3, "tools/call", None, 200),
        ];
        let all = rows(&[
            RunExchanges {
                run: 1,
                era: Some(Era::Legacy),
                exchanges: &first,
                mismatch: None,
                llm: &[],
                diagnosis: None,
            },
            RunExchanges {
                run: 2,
                era: Some(Era::Modern),
                exchanges: &second,
                mismatch: None,
                llm: &[],
                diagnosis: None,
            },
        ]);
        assert_eq!(all.len(), 6);
        assert_eq!(all[0].what, "POST initialize");
        assert_eq!(all[0].outcome, Outcome::Ok);
        assert_eq!(all[0].duration_ms, Some(4.5));
        assert_eq!(all[1].outcome, Outcome::ToolError);
        assert_eq!(all[1].outcome.describe(), "tool error (isError)");
        assert_eq!(
            all[2].outcome,
            Outcome::Failed("no response within 3000 ms".into())
        );
        assert_eq!(all[2].run, 2);
        assert_eq!(all[2].era, Some(Era::Modern));
        assert_eq!(
            all[3].outcome,
            Outcome::RpcError {
                code: -32601,
                message: "Method not found".into()
            }
        );
        assert_eq!(all[4].outcome, Outcome::Failed("HTTP 503".into()));
        assert_eq!(all[5].outcome, Outcome::Pending);
        assert!(all.iter().all(|r| r.replayable && r.replay.is_none()));

        let calls = filtered(&all, "TOOLS/CALL", None, None);
        assert_eq!(calls.len(), 3);
        assert_eq!(filtered(&all, "", Some(Kind::ToolError), None).len(), 1);
        assert_eq!(filtered(&all, "", Some(Kind::Error), None).len(), 3);
        assert_eq!(filtered(&all, "tools", Some(Kind::Error), None).len(), 2);
        assert!(filtered(&all, "resources", None, None).is_empty());

        // Pinned lines stay on top whatever the filters, in the order they were pinned.
        let pinned = [all[4].line_id(), all[1].line_id()];
        let shown = arrange(&all, &search("initialize"), &pinned);
        let order: Vec<(usize, usize, bool)> =
            shown.iter().map(|(r, p)| (r.run, r.seq, *p)).collect();
        assert_eq!(order, [(2, 2, true), (1, 1, true), (1, 0, false)]);
        // A pinned line is listed once, not again among the filtered ones.
        let calls = arrange(&all, &search("tools/call"), &pinned);
        assert_eq!(calls.len(), 3);
        assert_eq!(calls.iter().filter(|(_, p)| *p).count(), 2);
        // A pin of a line that is gone (an imported recording replaced the runs) is ignored.
        let gone = [LineId {
            run: 9,
            source: Source::Mcp,
            seq: 0,
            part: 0,
        }];
        assert_eq!(arrange(&all, &search(""), &gone).len(), all.len());
    }

    #[test]
    fn messages_the_server_sent_on_a_stream_are_lines_of_their_own() {
        let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}});
        let mut call = exchange(0, "tools/call", Some(answer), 200);
        let event = |data: Value| RecordedEvent {
            at_ms: 11.0,
            id: None,
            event: "message".into(),
            data: data.to_string(),
            retry: None,
        };
        call.events.insert(
            0,
            event(json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": "get_weather called"}})),
        );
        call.events.insert(
            1,
            event(json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create"})),
        );
        let mut answer_to_server = exchange(1, "x", None, 202);
        answer_to_server.rpc_method = None;
        answer_to_server.rpc_id = Some("7".into());
        answer_to_server.request_body =
            Some(json!({"jsonrpc": "2.0", "id": 7, "result": {}}).to_string());
        let exchanges = [call, answer_to_server];
        let model = |status: u16, error: Option<&str>| LlmExchange {
            provider: "OpenAI-compatible".into(),
            url: "http://127.0.0.1:11434/v1/chat/completions".into(),
            request: json!({}),
            response: None,
            status: Some(status),
            started_ms: 5.0,
            finished_ms: 9.5,
            error: error.map(str::to_owned),
        };
        let llm = [
            model(200, None),
            model(429, None),
            model(0, Some("timed out")),
        ];
        let all = rows(&[RunExchanges {
            run: 1,
            era: Some(Era::Legacy),
            exchanges: &exchanges,
            llm: &llm,
            mismatch: Some(&(0, "/temperature: \"hot\" is not of type \"number\"".into())),
            diagnosis: None,
        }]);
        // The model calls are kept apart unless asked for.
        let with_llm = Filters {
            llm: true,
            ..search("")
        };
        let calls: Vec<(String, String)> = filter(&all, &with_llm)
            .into_iter()
            .filter(|r| r.source == Source::Llm)
            .map(|r| (r.what, r.outcome.describe()))
            .collect();
        assert_eq!(
            calls,
            [
                ("LLM OpenAI-compatible".to_owned(), "ok".to_owned()),
                ("LLM OpenAI-compatible".to_owned(), "HTTP 429".to_owned()),
                ("LLM OpenAI-compatible".to_owned(), "timed out".to_owned()),
            ]
        );
        assert_eq!(all.iter().filter(|r| r.source == Source::Llm).count(), 3);
        let all: Vec<LogRow> = filter(&all, &search(""));
        let seen: Vec<(&str, &str, Option<&str>, usize)> = all
            .iter()
            .map(|r| {
                (
                    r.direction.arrow(),
                    r.what.as_str(),
                    r.id.as_deref(),
                    r.part,
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("→", "POST tools/call", Some("0"), 0),
                ("←", "notifications/message", None, 1),
                ("←", "elicitation/create", Some("7"), 2),
                ("→", "POST (answer to the server)", Some("7"), 0),
            ]
        );
        assert!(!all[1].replayable && all[0].replayable && !all[3].replayable);
        // The call whose result broke the outputSchema is an error line, saying why.
        assert_eq!(all[0].outcome.kind(), Kind::Error);
        assert_eq!(
            all[0].outcome.describe(),
            r#"result breaks the outputSchema: /temperature: "hot" is not of type "number""#
        );
        let received = filtered(&all, "", None, Some(Direction::Received));
        assert_eq!(received.len(), 2);
        let sent = filtered(&all, "", None, Some(Direction::Sent));
        assert_eq!(sent.len(), 2);
        assert_ne!(
            all[0].line_id(),
            all[1].line_id(),
            "each line has its own id"
        );
    }

    #[test]
    fn a_diagnosis_puts_its_checks_in_the_log_after_the_failed_request() {
        use crate::diagnose::{Check, Finding};
        use crate::diagram::Row;
        let mut failed = exchange(0, "initialize", None, 0);
        failed.status = None;
        failed.error = Some("no HTTP response".into());
        let check = |id, verdict, detail: &str| Check {
            id,
            verdict,
            detail: detail.into(),
        };
        let diagnosis = Diagnosis {
            row: Row::Initialize,
            checks: vec![
                check(
                    CheckId::Schemes,
                    Verdict::Passed,
                    "page http://a, server http://b",
                ),
                check(
                    CheckId::Answers,
                    Verdict::Failed,
                    "POST http://b/mcp: no response",
                ),
                check(CheckId::Listens, Verdict::Failed, "no answer either"),
                check(CheckId::Endpoint, Verdict::NotRun, ""),
            ],
            finding: Finding::NothingListens {
                origin: "http://b".into(),
            },
        };
        let all = rows(&[RunExchanges {
            run: 3,
            era: Some(Era::Legacy),
            exchanges: std::slice::from_ref(&failed),
            mismatch: None,
            llm: &[],
            diagnosis: Some(&diagnosis),
        }]);
        // Shown without asking for model calls, after the request that failed.
        let shown = filter(&all, &search(""));
        let seen: Vec<(Source, Option<CheckId>, Kind, String)> = shown
            .iter()
            .map(|r| (r.source, r.check, r.outcome.kind(), r.outcome.describe()))
            .collect();
        assert_eq!(
            seen,
            [
                (Source::Mcp, None, Kind::Error, "no HTTP response".into()),
                (
                    Source::Check,
                    Some(CheckId::Schemes),
                    Kind::Ok,
                    "passed: page http://a, server http://b".into()
                ),
                (
                    Source::Check,
                    Some(CheckId::Answers),
                    Kind::Error,
                    "failed: POST http://b/mcp: no response".into()
                ),
                (
                    Source::Check,
                    Some(CheckId::Listens),
                    Kind::Error,
                    "failed: no answer either".into()
                ),
                (
                    Source::Check,
                    Some(CheckId::Endpoint),
                    Kind::NotRun,
                    "not run".into()
                ),
            ]
        );
        assert!(shown.iter().all(|r| r.run == 3));
        assert!(
            shown[1..].iter().all(|r| !r.replayable),
            "a check is no request to replay"
        );
        assert_eq!(filter(&all, &search("check: something answers")).len(), 1);
        let ids: std::collections::HashSet<LineId> = shown.iter().map(LogRow::line_id).collect();
        assert_eq!(ids.len(), 5, "each line has its own id");
    }
}
