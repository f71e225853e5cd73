//! The run record: one entry per diagram row (status, live values, the exchanges behind it,
//! the error), the MCP exchange log and the LLM calls. Built by folding [`RunEvent`]s.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::payload::{Field, FieldValue, Payload, SkipReason};
use crate::diagram::Row;
use crate::llm::LlmExchange;
use mcp_flow_client::era::Detection;
use mcp_flow_client::record::{Log, Update};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RowStatus {
    Pending,
    Active,
    Done,
    Failed,
    Skipped,
}

impl RowStatus {
    /// Done, failed or skipped: nothing more will happen at this row.
    pub fn is_finished(self) -> bool {
        matches!(self, Self::Done | Self::Failed | Self::Skipped)
    }

    /// The `data-state` value in the SVG.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Active => "active",
            Self::Done => "done",
            Self::Failed => "failed",
            Self::Skipped => "skipped",
        }
    }
}

/// What happened at one diagram row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowRecord {
    pub id: Row,
    pub status: RowStatus,
    /// What the row carried when it finished.
    #[serde(default, with = "super::payload::by_kind")]
    pub payload: Option<Payload>,
    /// Why the row was skipped.
    pub skipped: Option<SkipReason>,
    /// Sequence numbers of the MCP exchanges made while this row was active.
    pub mcp: Vec<usize>,
    /// Indices of the LLM calls made while this row was active.
    pub llm: Vec<usize>,
    pub error: Option<String>,
    pub started_ms: Option<f64>,
    pub finished_ms: Option<f64>,
    /// The latest progress the server reported for this row's request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<super::progress::Progress>,
    /// Indices of the messages between host and app ([`Run::app`]) at this row.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub app: Vec<usize>,
}

/// A message between the host and a tool's app (over `postMessage`), as the host saw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppPost {
    pub at_ms: f64,
    /// The row it belongs to (`None`: one the diagram does not draw, e.g. a ping).
    pub row: Option<Row>,
    /// Sent by the host (else received from the app).
    pub to_app: bool,
    pub message: Value,
    /// Why the host did not act on it (malformed, not allowed, too many).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

impl RowRecord {
    fn pending(id: Row) -> Self {
        Self {
            id,
            status: RowStatus::Pending,
            payload: None,
            skipped: None,
            mcp: Vec::new(),
            llm: Vec::new(),
            error: None,
            started_ms: None,
            finished_ms: None,
            progress: None,
            app: Vec::new(),
        }
    }

    /// The payload's value of `field`, if the row finished with one.
    pub fn field(&self, field: Field) -> Option<FieldValue> {
        self.payload.as_ref().and_then(|p| p.field(field))
    }
}

/// A change to the run record.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEvent {
    Active {
        row: Row,
        at_ms: f64,
    },
    Done {
        row: Row,
        at_ms: f64,
        payload: Option<Payload>,
    },
    Failed {
        row: Row,
        at_ms: f64,
        error: String,
    },
    Skipped {
        row: Row,
        why: SkipReason,
    },
    Mcp(Update),
    /// A message the server sent before a response (log, progress).
    Notification(Value),
    /// A progress report for the request of the row that is active (read from its notification).
    Progress(super::progress::Progress),
    Llm(Box<LlmExchange>),
    /// The era this run speaks to the server, and why (with why in a sentence, written where the
    /// run is, so the first load carries none of those sentences).
    Era(Detection, String),
    /// A message between the host and a tool's app.
    App(Box<AppPost>),
    /// Why the run's first request found no MCP server (the page's checks).
    Diagnosed(Box<crate::diagnose::Diagnosis>),
}

/// The record of one run: what happened, nothing about what is shown.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Run {
    pub rows: Vec<RowRecord>,
    pub mcp: Log,
    pub llm: Vec<LlmExchange>,
    pub notifications: Vec<Value>,
    /// The messages between the host and a tool's app.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub app: Vec<AppPost>,
    /// Why the first request found no MCP server, when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<crate::diagnose::Diagnosis>,
    /// The protocol era of this run, once known, and why it was chosen.
    pub era: Option<Detection>,
    /// Why, in a sentence ([`mcp_flow_client::era::Why::describe`]).
    #[serde(skip)]
    pub era_said: Option<String>,
    /// The row that became active last: exchanges made from now on belong to it.
    #[serde(skip)]
    current: Option<Row>,
    /// The row an authorization interrupted: once the token is in hand (the Authorization
    /// diagram's last row), the request goes again as part of it.
    #[serde(skip)]
    interrupted: Option<Row>,
}

/// Two records are equal when they hold the same rows and exchanges (the fold's cursor aside).
impl PartialEq for Run {
    fn eq(&self, other: &Self) -> bool {
        self.rows == other.rows
            && self.mcp == other.mcp
            && self.llm == other.llm
            && self.notifications == other.notifications
            && self.app == other.app
            && self.era == other.era
    }
}

impl Run {
    /// The row that became active last (it may have finished since): exchanges made now are
    /// attributed to it.
    pub fn current(&self) -> Option<Row> {
        self.current
    }

    /// A run with every row of `rows` pending.
    pub fn new(rows: impl IntoIterator<Item = Row>) -> Self {
        Self {
            rows: rows.into_iter().map(RowRecord::pending).collect(),
            ..Self::default()
        }
    }

    /// Makes `rows` pending again (a new question on the same connection). The exchange logs
    /// keep their history.
    pub fn reset(&mut self, rows: impl IntoIterator<Item = Row>) {
        for id in rows {
            if let Some(r) = self.row_mut(id) {
                *r = RowRecord::pending(id);
            }
        }
    }

    /// Fails every row still active with `error` (a run ended under it).
    pub fn fail_active(&mut self, at_ms: f64, error: &str) {
        let active: Vec<Row> = self
            .rows
            .iter()
            .filter(|r| r.status == RowStatus::Active)
            .map(|r| r.id)
            .collect();
        for row in active {
            self.apply(RunEvent::Failed {
                row,
                at_ms,
                error: error.to_owned(),
            });
        }
    }

    pub fn row(&self, id: Row) -> Option<&RowRecord> {
        self.rows.iter().find(|r| r.id == id)
    }

    fn row_mut(&mut self, id: Row) -> Option<&mut RowRecord> {
        self.rows.iter_mut().find(|r| r.id == id)
    }

    pub fn status(&self, id: Row) -> RowStatus {
        self.row(id).map_or(RowStatus::Pending, |r| r.status)
    }

    /// Whether `row` carried a tool result with `isError: true` (a tool that failed, which the
    /// protocol reports as a result, not as an error).
    pub fn tool_failed(&self, row: Row) -> bool {
        matches!(
            self.payload(row),
            Some(Payload::ToolResult { is_error: true, .. })
        )
    }

    /// The result on `row` broke its tool's `outputSchema` (or left out the structured content
    /// the schema promises): what the check found.
    pub fn output_mismatch(&self, row: Row) -> Option<&crate::output_check::OutputCheck> {
        match self.payload(row) {
            Some(Payload::ToolResult {
                output_check: Some(check),
                ..
            }) if check.is_mismatch() => Some(check),
            _ => None,
        }
    }

    /// The exchange whose result broke its tool's `outputSchema`, with what the check found: the
    /// last `tools/call` of the call's rows (a retry after `input_required` is the one answered).
    pub fn output_mismatch_exchange(&self) -> Option<(usize, String)> {
        let check = self.output_mismatch(Row::CallToolResult)?;
        let seq = [Row::CallTool, Row::CallToolResult]
            .into_iter()
            .filter_map(|row| self.row(row))
            .flat_map(|r| r.mcp.iter().copied())
            .filter(|seq| {
                self.mcp
                    .exchanges
                    .iter()
                    .any(|x| x.seq == *seq && x.rpc_method.as_deref() == Some("tools/call"))
            })
            .max()?;
        Some((seq, check.summary()))
    }

    /// The payload `row` finished with.
    pub fn payload(&self, row: Row) -> Option<&Payload> {
        self.row(row)
            .filter(|r| r.status == RowStatus::Done)
            .and_then(|r| r.payload.as_ref())
    }

    /// The answer shown to the user, once the last row has shown it.
    pub fn answer(&self) -> Option<&str> {
        match self.payload(Row::ShowAnswer) {
            Some(Payload::Answer { text }) => Some(text),
            _ => None,
        }
    }

    /// The first row that failed, with its error.
    pub fn first_error(&self) -> Option<(Row, &str)> {
        self.rows
            .iter()
            .find_map(|r| r.error.as_deref().map(|e| (r.id, e)))
    }

    /// Of `rows` (the diagrams shown), how many finished (done, failed or skipped).
    pub fn progress(&self, rows: &[Row]) -> (usize, usize) {
        let finished = rows
            .iter()
            .filter(|r| self.status(**r).is_finished())
            .count();
        (finished, rows.len())
    }

    pub fn apply(&mut self, event: RunEvent) {
        match event {
            RunEvent::Active { row, at_ms } => {
                if let Some(r) = self.row_mut(row) {
                    r.status = RowStatus::Active;
                    r.started_ms = Some(at_ms);
                    r.error = None;
                    r.skipped = None;
                }
                if row.is_auth() && self.current.is_some_and(|c| !c.is_auth()) {
                    self.interrupted = self.current;
                }
                self.current = Some(row);
            }
            RunEvent::Done {
                row,
                at_ms,
                payload,
            } => {
                if let Some(r) = self.row_mut(row) {
                    r.status = RowStatus::Done;
                    r.finished_ms = Some(at_ms);
                    r.payload = payload;
                }
                if row == Row::AuthRetry
                    && let Some(back) = self.interrupted.take()
                {
                    self.current = Some(back);
                }
            }
            RunEvent::Failed { row, at_ms, error } => {
                if let Some(r) = self.row_mut(row) {
                    r.status = RowStatus::Failed;
                    r.finished_ms = Some(at_ms);
                    r.error = Some(error);
                }
            }
            RunEvent::Skipped { row, why } => {
                if let Some(r) = self.row_mut(row) {
                    r.status = RowStatus::Skipped;
                    r.skipped = Some(why);
                }
            }
            RunEvent::Mcp(update) => {
                // A replay from the message log is the user's, not a step of the diagrams.
                if let (Update::Sent(x), Some(current)) = (&update, self.current)
                    && x.replay.is_none()
                    && let Some(r) = self.row_mut(current)
                {
                    r.mcp.push(x.seq);
                }
                self.mcp.apply(update);
            }
            RunEvent::Notification(value) => self.notifications.push(value),
            RunEvent::Diagnosed(diagnosis) => self.diagnosis = Some(*diagnosis),
            RunEvent::App(post) => {
                let index = self.app.len();
                if let Some(r) = post.row.and_then(|row| self.row_mut(row)) {
                    r.app.push(index);
                }
                self.app.push(*post);
            }
            RunEvent::Progress(progress) => {
                if let Some(current) = self.current
                    && let Some(r) = self.row_mut(current)
                {
                    r.progress = Some(progress);
                }
            }
            RunEvent::Era(detection, said) => {
                self.era = Some(detection);
                self.era_said = Some(said);
            }
            RunEvent::Llm(exchange) => {
                let index = self.llm.len();
                self.llm.push(*exchange);
                if let Some(current) = self.current
                    && let Some(r) = self.row_mut(current)
                {
                    r.llm.push(index);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_flow_client::http::HttpRequest;
    use mcp_flow_client::record::{Exchange, ReplayOf};

    fn sent(seq: usize, replay: Option<ReplayOf>) -> RunEvent {
        let request = HttpRequest {
            method: "POST",
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: Vec::new(),
            body: Some("{}".into()),
        };
        let mut x = Exchange::sent(seq, &request, None, None, 1.0);
        x.replay = replay;
        RunEvent::Mcp(Update::Sent(Box::new(x)))
    }

    #[test]
    fn progress_lands_on_the_row_whose_request_is_in_flight_and_a_new_run_forgets_it() {
        use super::super::progress::PROGRESS_TOKEN;
        let report = |n: u32| {
            let note = serde_json::json!({
                "jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": PROGRESS_TOKEN, "progress": n, "total": 4, "message": format!("step {n}")}
            });
            RunEvent::Progress(super::super::progress::Progress::reported(&note).expect("a report"))
        };
        let mut run = Run::new([Row::CallTool, Row::Execute]);
        run.apply(RunEvent::Active {
            row: Row::CallTool,
            at_ms: 0.0,
        });
        run.apply(report(1));
        run.apply(report(3));
        let shown = run.row(Row::CallTool).and_then(|r| r.progress.clone());
        assert_eq!(shown.map(|p| p.said()), Some("3/4 step 3".to_owned()));
        assert_eq!(run.row(Row::Execute).and_then(|r| r.progress.clone()), None);
        run.reset([Row::CallTool]);
        assert_eq!(
            run.row(Row::CallTool).and_then(|r| r.progress.clone()),
            None
        );
    }

    #[test]
    fn a_replay_joins_the_log_but_not_the_row_that_was_active() {
        let mut run = Run::new([Row::CallTool, Row::ShowAnswer]);
        run.apply(RunEvent::Active {
            row: Row::CallTool,
            at_ms: 0.0,
        });
        run.apply(sent(0, None));
        let of = ReplayOf {
            run: 1,
            seq: 0,
            edited: false,
        };
        run.apply(sent(1, Some(of)));
        assert_eq!(run.mcp.exchanges.len(), 2, "both are in the log");
        assert_eq!(run.row(Row::CallTool).map(|r| r.mcp.clone()), Some(vec![0]));
    }
}
