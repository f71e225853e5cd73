//! One log of every MCP exchange of the page's lifetime, across runs and eras: what was sent
//! (HTTP method, JSON-RPC method and id), how it ended (a result, a JSON-RPC error, a tool that
//! failed, an HTTP or transport failure), and how long it took; searched and filtered by outcome.

use serde_json::Value;

use crate::mcp::era::Era;
use crate::mcp::record::{Exchange, ReplayOf};

/// How an exchange ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// No answer yet.
    Pending,
    /// A result (or, for a notification, 202 Accepted).
    Ok,
    /// A result with `isError: true`: the call went through, the tool failed.
    ToolError,
    /// A JSON-RPC error answer.
    RpcError { code: i64, message: String },
    /// An HTTP error status, or no response at all.
    Failed(String),
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
            Self::RpcError { .. } | Self::Failed(_) => Kind::Error,
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
}

/// A line of the log across the page's lifetime: its run and its exchange's number in the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LineId {
    pub run: usize,
    pub seq: usize,
}

/// One line of the log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogRow {
    /// Which run of the page (1 is the first).
    pub run: usize,
    pub era: Option<Era>,
    pub seq: usize,
    /// "POST tools/call", "DELETE", "GET".
    pub what: String,
    pub id: Option<String>,
    pub outcome: Outcome,
    pub duration_ms: Option<f64>,
    /// A JSON-RPC message POSTed: it can be replayed.
    pub replayable: bool,
    /// The request this line replayed, if the user sent it from the log.
    pub replay: Option<ReplayOf>,
}

/// The exchanges of one run, with its number and era.
pub struct RunExchanges<'a> {
    pub run: usize,
    pub era: Option<Era>,
    pub exchanges: &'a [Exchange],
}

/// The log's lines, oldest first.
pub fn rows(runs: &[RunExchanges<'_>]) -> Vec<LogRow> {
    runs.iter()
        .flat_map(|r| {
            r.exchanges.iter().map(move |x| LogRow {
                run: r.run,
                era: r.era,
                seq: x.seq,
                what: match &x.rpc_method {
                    Some(m) => format!("{} {m}", x.method),
                    None => x.method.clone(),
                },
                id: x.rpc_id.clone(),
                outcome: Outcome::of(x),
                duration_ms: x.duration_ms(),
                replayable: x.method == "POST" && x.rpc_method.is_some(),
                replay: x.replay,
            })
        })
        .collect()
}

impl LogRow {
    pub fn line_id(&self) -> LineId {
        LineId {
            run: self.run,
            seq: self.seq,
        }
    }
}

/// The lines to show: the pinned ones first, whatever the filters say (in the order they were
/// pinned), then the others that pass [`filter`]; each with whether it is pinned.
pub fn arrange(
    rows: &[LogRow],
    query: &str,
    kind: Option<Kind>,
    pinned: &[LineId],
) -> Vec<(LogRow, bool)> {
    let first = pinned
        .iter()
        .filter_map(|id| rows.iter().find(|r| r.line_id() == *id))
        .map(|r| (r.clone(), true));
    let rest = filter(rows, query, kind)
        .into_iter()
        .filter(|r| !pinned.contains(&r.line_id()))
        .map(|r| (r, false));
    first.chain(rest).collect()
}

/// The lines whose method contains `query` (any case) and whose outcome is of `kind`, if given.
pub fn filter(rows: &[LogRow], query: &str, kind: Option<Kind>) -> Vec<LogRow> {
    let query = query.trim().to_lowercase();
    rows.iter()
        .filter(|r| query.is_empty() || r.what.to_lowercase().contains(&query))
        .filter(|r| kind.is_none_or(|k| r.outcome.kind() == k))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::http::HttpRequest;
    use crate::mcp::record::RecordedEvent;
    use serde_json::json;

    fn exchange(seq: usize, method: &str, answer: Option<Value>, status: u16) -> Exchange {
        let body = json!({"jsonrpc": "2.0", "id": seq, "method": method});
        let request = HttpRequest {
            method: "POST",
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: Vec::new(),
            body: Some(body.to_string()),
        };
        let mut x = Exchange::sent(seq, &request, Some(&body), None, 10.0);
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
            },
            RunExchanges {
                run: 2,
                era: Some(Era::Modern),
                exchanges: &second,
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

        let calls = filter(&all, "TOOLS/CALL", None);
        assert_eq!(calls.len(), 3);
        assert_eq!(filter(&all, "", Some(Kind::ToolError)).len(), 1);
        assert_eq!(filter(&all, "", Some(Kind::Error)).len(), 3);
        assert_eq!(filter(&all, "tools", Some(Kind::Error)).len(), 2);
        assert!(filter(&all, "resources", None).is_empty());

        // Pinned lines stay on top whatever the filters, in the order they were pinned.
        let pinned = [all[4].line_id(), all[1].line_id()];
        let shown = arrange(&all, "initialize", None, &pinned);
        let order: Vec<(usize, usize, bool)> =
            shown.iter().map(|(r, p)| (r.run, r.seq, *p)).collect();
        assert_eq!(order, [(2, 2, true), (1, 1, true), (1, 0, false)]);
        // A pinned line is listed once, not again among the filtered ones.
        let calls = arrange(&all, "tools/call", None, &pinned);
        assert_eq!(calls.len(), 3);
        assert_eq!(calls.iter().filter(|(_, p)| *p).count(), 2);
        // A pin of a line that is gone (an imported recording replaced the runs) is ignored.
        let gone = [LineId { run: 9, seq: 0 }];
        assert_eq!(arrange(&all, "", None, &gone).len(), all.len());
    }
}
