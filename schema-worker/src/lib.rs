//! Checking a tool's `structuredContent` against its `outputSchema`: the messages between the
//! page and the checker's Web Worker (always built; serde only), and the check itself (feature
//! `validate`, [`validate`]: a validator of this crate's own, whose patterns are the browser's
//! regular expressions). The page starts the worker the first time a result needs
//! checking, so the validator is not part of the first load, and a schema that takes long to
//! compile or to apply never blocks the page: the page stops the worker after a time limit.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "validate")]
mod check;
#[cfg(feature = "validate")]
pub mod validate;
#[cfg(feature = "validate")]
pub use check::check;

/// The script Trunk writes for the worker (`data-loader-shim`).
pub const WORKER_SCRIPT: &str = "schema-worker_loader.js";
/// At most this many violations are listed; the rest are counted.
pub const MAX_LISTED: usize = 20;

/// What the page asks the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// Check `instance` against `schema`.
    Check {
        id: u32,
        schema: Value,
        instance: Value,
    },
}

/// What the worker posts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// The worker listens: requests may be posted.
    Started,
    /// The check of request `id`.
    Checked { id: u32, verdict: Verdict },
    /// A message the worker could not read.
    Unreadable { message: String },
}

/// The outcome of a check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The instance matches the schema.
    Valid,
    /// It does not: the first [`MAX_LISTED`] violations, and how many more there were.
    Invalid {
        violations: Vec<Violation>,
        more: usize,
    },
    /// The schema itself cannot be used (not a valid JSON Schema, or a `$ref` that points
    /// outside it): nothing was checked.
    SchemaUnusable { reason: String },
}

/// One way the instance breaks the schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Violation {
    /// Where in the instance, as a JSON Pointer (`""` is the whole value).
    pub at: String,
    /// The schema keyword broken, as a JSON Pointer into the schema (`/properties/temp/type`).
    pub rule: String,
    /// The validator's message.
    pub message: String,
}

impl Verdict {
    /// One line for the inspector and the log.
    pub fn summary(&self) -> String {
        match self {
            Self::Valid => "matches the tool's outputSchema".into(),
            Self::Invalid { violations, more } => {
                let n = violations.len() + more;
                let first = violations
                    .first()
                    .map(|v| {
                        let at = if v.at.is_empty() {
                            "(the whole value)"
                        } else {
                            &v.at
                        };
                        format!(": {at}: {}", v.message)
                    })
                    .unwrap_or_default();
                let s = if n == 1 { "" } else { "s" };
                format!("does not match the tool's outputSchema ({n} violation{s}){first}")
            }
            Self::SchemaUnusable { reason } => {
                format!("not checked: the tool's outputSchema cannot be used ({reason})")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_read_back() {
        let request = Request::Check {
            id: 4,
            schema: json!({"type": "object"}),
            instance: json!({"a": 1}),
        };
        let text = serde_json::to_string(&request).unwrap();
        assert!(text.starts_with(r#"{"check":{"id":4"#), "{text}");
        assert_eq!(serde_json::from_str::<Request>(&text).unwrap(), request);
        let event = Event::Checked {
            id: 4,
            verdict: Verdict::Invalid {
                violations: vec![Violation {
                    at: "/temperature".into(),
                    rule: "/properties/temperature/type".into(),
                    message: r#""hot" is not of type "number""#.into(),
                }],
                more: 0,
            },
        };
        let text = serde_json::to_string(&event).unwrap();
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), event);
        assert_eq!(
            serde_json::to_string(&Event::Started).unwrap(),
            r#""started""#
        );
    }

    #[test]
    fn summaries_name_the_first_violation_and_the_count() {
        let one = Violation {
            at: "/temperature".into(),
            rule: "/properties/temperature/type".into(),
            message: r#""hot" is not of type "number""#.into(),
        };
        let verdict = Verdict::Invalid {
            violations: vec![one.clone()],
            more: 2,
        };
        assert_eq!(
            verdict.summary(),
            r#"does not match the tool's outputSchema (3 violations): /temperature: "hot" is not of type "number""#
        );
        let whole = Verdict::Invalid {
            violations: vec![Violation {
                at: String::new(),
                ..one
            }],
            more: 0,
        };
        assert!(whole.summary().contains("(1 violation): (the whole value)"));
        assert_eq!(Verdict::Valid.summary(), "matches the tool's outputSchema");
    }
}
