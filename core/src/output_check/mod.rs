//! Whether a tool's result matches the `outputSchema` the tool declared. The MCP specification
//! (2025-06-18 on): a server that declares an output schema MUST return `structuredContent` that
//! conforms to it, and a client SHOULD check. The check runs in a Web Worker started on demand
//! ([`worker`]), so the validator (`schema-worker`'s) is not part of the first load; the
//! host sees only a [`Checker`].

pub mod worker;

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

pub use mcp_flow_schema_worker::{Verdict, Violation};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Checks an instance against a schema; `Err` says why the check could not run.
pub type Checker =
    Rc<dyn Fn(Value, Value) -> Pin<Box<dyn Future<Output = Result<Verdict, String>>>>>;

/// What the page found out about a result and its tool's `outputSchema`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OutputCheck {
    /// The structured content was checked against the schema.
    Checked { verdict: Verdict },
    /// The tool declares an output schema, and the result carries no `structuredContent`.
    Missing,
    /// The check could not run (the checker's worker failed or took too long).
    NotRun { reason: String },
}

impl OutputCheck {
    /// One line for the inspector, the log and the exports.
    pub fn summary(&self) -> String {
        match self {
            Self::Checked { verdict } => verdict.summary(),
            Self::Missing => "the tool declares an outputSchema, but the result has no \
                              structuredContent (a server MUST send it)"
                .into(),
            Self::NotRun { reason } => format!("not checked against the outputSchema: {reason}"),
        }
    }

    /// The result breaks the tool's declared contract.
    pub fn is_mismatch(&self) -> bool {
        matches!(
            self,
            Self::Missing
                | Self::Checked {
                    verdict: Verdict::Invalid { .. }
                }
        )
    }
}

/// Checks a result against its tool's output schema: `None` when there is nothing to check (the
/// tool declares no schema, or the result is a tool error, which need not conform).
pub async fn check_result(
    checker: &Checker,
    schema: Option<&Value>,
    structured: Option<&Value>,
    is_error: bool,
) -> Option<OutputCheck> {
    let schema = schema?;
    if is_error {
        return None;
    }
    let Some(structured) = structured else {
        return Some(OutputCheck::Missing);
    };
    Some(match checker(schema.clone(), structured.clone()).await {
        Ok(verdict) => OutputCheck::Checked { verdict },
        Err(reason) => OutputCheck::NotRun { reason },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;
    use serde_json::json;

    /// The real check, in-process (natively there is no worker).
    fn in_process() -> Checker {
        Rc::new(|schema, instance| {
            Box::pin(async move { Ok(mcp_flow_schema_worker::check(&schema, &instance)) })
        })
    }

    fn schema() -> Value {
        json!({"type": "object", "properties": {"temperature": {"type": "number"}},
               "required": ["temperature"]})
    }

    fn run(
        schema: Option<&Value>,
        structured: Option<&Value>,
        is_error: bool,
    ) -> Option<OutputCheck> {
        check_result(&in_process(), schema, structured, is_error)
            .now_or_never()
            .expect("the in-process check is ready at once")
    }

    #[test]
    fn nothing_is_checked_without_a_schema_or_for_a_tool_error() {
        assert_eq!(run(None, Some(&json!({"temperature": "hot"})), false), None);
        assert_eq!(run(Some(&schema()), None, true), None);
        assert_eq!(run(Some(&schema()), Some(&json!({})), true), None);
    }

    #[test]
    fn a_declared_schema_without_structured_content_is_a_mismatch() {
        let found = run(Some(&schema()), None, false).unwrap();
        assert_eq!(found, OutputCheck::Missing);
        assert!(found.is_mismatch());
        assert!(found.summary().contains("no structuredContent"));
    }

    #[test]
    fn wrong_structured_content_is_a_mismatch_and_right_content_is_not() {
        let wrong = run(Some(&schema()), Some(&json!({"temperature": "hot"})), false).unwrap();
        assert!(wrong.is_mismatch(), "{wrong:?}");
        assert!(
            wrong.summary().contains("/temperature"),
            "{}",
            wrong.summary()
        );
        let right = run(Some(&schema()), Some(&json!({"temperature": 21})), false).unwrap();
        assert_eq!(
            right,
            OutputCheck::Checked {
                verdict: Verdict::Valid
            }
        );
        assert!(!right.is_mismatch());
    }

    #[test]
    fn a_checker_that_fails_is_said_plainly_and_is_not_a_mismatch() {
        let failing: Checker =
            Rc::new(|_, _| Box::pin(async { Err("the checker's worker stopped".to_owned()) }));
        let found = check_result(&failing, Some(&schema()), Some(&json!({})), false)
            .now_or_never()
            .unwrap()
            .unwrap();
        assert!(!found.is_mismatch());
        assert_eq!(
            found.summary(),
            "not checked against the outputSchema: the checker's worker stopped"
        );
    }
}
