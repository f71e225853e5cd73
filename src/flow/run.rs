//! The run record: one entry per diagram row (status, live values, the exchanges behind it,
//! the error), the MCP exchange log and the LLM calls. Built by folding [`RunEvent`]s.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::llm::LlmExchange;
use crate::mcp::record::{Log, Update};

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
    pub id: String,
    pub status: RowStatus,
    /// Live values for the explanation and the inspector, e.g. ("version", "2025-11-25").
    pub values: Vec<(String, String)>,
    /// Sequence numbers of the MCP exchanges made while this row was active.
    pub mcp: Vec<usize>,
    /// Indices of the LLM calls made while this row was active.
    pub llm: Vec<usize>,
    pub error: Option<String>,
    pub started_ms: Option<f64>,
    pub finished_ms: Option<f64>,
}

impl RowRecord {
    pub fn value(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A change to the run.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEvent {
    Active {
        row: String,
        at_ms: f64,
    },
    Done {
        row: String,
        at_ms: f64,
        values: Vec<(String, String)>,
    },
    Failed {
        row: String,
        at_ms: f64,
        error: String,
    },
    Skipped {
        row: String,
        why: String,
    },
    Mcp(Update),
    /// A message the server sent before a response (log, progress).
    Notification(Value),
    Llm(Box<LlmExchange>),
    /// The host waits for the user to allow a tool call.
    ApprovalAsked {
        tool: String,
        arguments: Value,
    },
    ApprovalGiven(bool),
    Answer(String),
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub rows: Vec<RowRecord>,
    pub mcp: Log,
    pub llm: Vec<LlmExchange>,
    pub notifications: Vec<Value>,
    /// The row that exchanges are attributed to.
    pub active: Option<String>,
    pub approval: Option<(String, Value)>,
    pub answer: Option<String>,
}

impl Run {
    /// A run with every row of `ids` pending.
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a str>) -> Self {
        Self {
            rows: ids
                .into_iter()
                .map(|id| RowRecord {
                    id: id.to_owned(),
                    status: RowStatus::Pending,
                    values: Vec::new(),
                    mcp: Vec::new(),
                    llm: Vec::new(),
                    error: None,
                    started_ms: None,
                    finished_ms: None,
                })
                .collect(),
            ..Self::default()
        }
    }

    /// Makes the rows whose id starts with `prefix` pending again (a new question on the same
    /// connection), and clears the answer. The exchange logs keep their history.
    pub fn reset_rows(&mut self, prefix: &str) {
        for r in self.rows.iter_mut().filter(|r| r.id.starts_with(prefix)) {
            *r = Self::new([r.id.as_str()]).rows.remove(0);
        }
        self.answer = None;
        self.approval = None;
    }

    pub fn row(&self, id: &str) -> Option<&RowRecord> {
        self.rows.iter().find(|r| r.id == id)
    }

    fn row_mut(&mut self, id: &str) -> Option<&mut RowRecord> {
        self.rows.iter_mut().find(|r| r.id == id)
    }

    pub fn status(&self, id: &str) -> RowStatus {
        self.row(id).map_or(RowStatus::Pending, |r| r.status)
    }

    /// Rows finished (done, failed or skipped) out of all.
    pub fn progress(&self) -> (usize, usize) {
        let finished = self.rows.iter().filter(|r| r.status.is_finished()).count();
        (finished, self.rows.len())
    }

    pub fn apply(&mut self, event: RunEvent) {
        match event {
            RunEvent::Active { row, at_ms } => {
                if let Some(r) = self.row_mut(&row) {
                    r.status = RowStatus::Active;
                    r.started_ms = Some(at_ms);
                }
                self.active = Some(row);
            }
            RunEvent::Done { row, at_ms, values } => {
                if let Some(r) = self.row_mut(&row) {
                    r.status = RowStatus::Done;
                    r.finished_ms = Some(at_ms);
                    r.values.extend(values);
                }
            }
            RunEvent::Failed { row, at_ms, error } => {
                if let Some(r) = self.row_mut(&row) {
                    r.status = RowStatus::Failed;
                    r.finished_ms = Some(at_ms);
                    r.error = Some(error);
                }
            }
            RunEvent::Skipped { row, why } => {
                if let Some(r) = self.row_mut(&row) {
                    r.status = RowStatus::Skipped;
                    r.values.push(("skipped".into(), why));
                }
            }
            RunEvent::Mcp(update) => {
                if let (Update::Sent(x), Some(active)) = (&update, self.active.clone())
                    && let Some(r) = self.row_mut(&active)
                {
                    r.mcp.push(x.seq);
                }
                self.mcp.apply(update);
            }
            RunEvent::Notification(value) => self.notifications.push(value),
            RunEvent::Llm(exchange) => {
                let index = self.llm.len();
                self.llm.push(*exchange);
                if let Some(active) = self.active.clone()
                    && let Some(r) = self.row_mut(&active)
                {
                    r.llm.push(index);
                }
            }
            RunEvent::ApprovalAsked { tool, arguments } => {
                self.approval = Some((tool, arguments));
            }
            RunEvent::ApprovalGiven(_) => self.approval = None,
            RunEvent::Answer(text) => self.answer = Some(text),
        }
    }
}
