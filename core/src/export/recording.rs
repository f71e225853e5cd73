//! The JSON export: a documented, versioned envelope around the run record.
//!
//! ```text
//! {
//!   "format": "mcp-flow-recording",
//!   "version": 2,
//!   "created": "2026-11-29T15:00:00.000Z",   // when it was exported
//!   "time_origin_ms": 1764428400000.0,       // epoch ms of the record's clock zero
//!   "server": "http://127.0.0.1:8000/mcp",
//!   "question": "What's the weather in Tokyo?",
//!   "lang": "en",
//!   "llm": "Built-in offline model",
//!   "run": { "rows": [...], "mcp": {"exchanges": [...]}, "llm": [...], ... }
//! }
//! ```
//!
//! `run` is [`Run`] as serde writes it: every row with its status, values, error and the
//! exchanges behind it; every HTTP exchange with headers, bodies and SSE events; every LLM call.

use serde::{Deserialize, Serialize};

use crate::record::run::Run;
use mcp_flow_client::record::{redact, redact_url};

pub const FORMAT: &str = "mcp-flow-recording";
/// Version 2: rows are typed (`payload` with a `kind`, `skipped` with a reason) where version 1
/// had free-form `values`. Version 1 files are refused with that reason.
pub const VERSION: u32 = 2;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    pub format: String,
    pub version: u32,
    pub created: String,
    pub time_origin_ms: f64,
    pub server: String,
    pub question: String,
    pub lang: String,
    pub llm: String,
    pub run: Run,
}

/// Where a recording came from, for [`Recording::new`].
pub struct Context<'a> {
    pub created: String,
    pub time_origin_ms: f64,
    pub server: &'a str,
    pub question: &'a str,
    pub lang: &'a str,
    pub llm: &'a str,
}

impl Recording {
    /// A recording of `run`, with credential headers, a bridge's secret path and query values
    /// redacted.
    pub fn new(run: &Run, context: Context<'_>) -> Self {
        let mut run = run.clone();
        for x in &mut run.mcp.exchanges {
            x.request_headers = redact(&x.request_headers);
            x.url = redact_url(&x.url);
        }
        for x in &mut run.llm {
            x.url = redact_url(&x.url);
        }
        if let Some(d) = &mut run.diagnosis {
            d.redact_urls(redact_url);
        }
        Self {
            format: FORMAT.into(),
            version: VERSION,
            created: context.created,
            time_origin_ms: context.time_origin_ms,
            server: redact_url(context.server),
            question: context.question.into(),
            lang: context.lang.into(),
            llm: context.llm.into(),
            run,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads an export back; says what is wrong with anything else.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => {}
            Some(other) => return Err(format!("not an MCP Flow recording (format \"{other}\")")),
            None => return Err("not an MCP Flow recording (no \"format\" field)".into()),
        }
        match value.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == u64::from(VERSION) => {}
            Some(1) => {
                return Err(format!(
                    "this is a version 1 recording, from before rows were typed; this app reads \
                     version {VERSION} (export the run again)"
                ));
            }
            Some(v) => {
                return Err(format!(
                    "recording version {v} is not supported (this app reads version {VERSION})"
                ));
            }
            None => return Err("the recording has no \"version\"".into()),
        }
        let mut recording: Self =
            serde_json::from_value(value).map_err(|e| format!("the recording is damaged: {e}"))?;
        let run = &mut recording.run;
        run.era_said = run.era.as_ref().map(|d| d.why.describe());
        Ok(recording)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::diagram::Row;
    use crate::record::payload::{Field, FieldValue, Payload, SkipReason};
    use crate::record::run::RunEvent;
    use mcp_flow_client::http::HttpRequest;
    use mcp_flow_client::record::{Exchange, RecordedEvent, Update};
    use serde_json::json;

    /// A small finished run: an initialize over SSE and one LLM call.
    pub(crate) fn sample_run() -> Run {
        let mut run = Run::new([
            Row::Initialize,
            Row::InitializeResult,
            Row::LlmChoice,
            Row::Confirm,
        ]);
        let request = HttpRequest {
            method: "POST",
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                ("Authorization".into(), "Bearer sk-live".into()),
            ],
            body: Some(r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.into()),
        };
        let rpc = json!({"jsonrpc":"2.0","id":1,"method":"initialize"});
        run.apply(RunEvent::Active {
            row: Row::Initialize,
            at_ms: 10.0,
        });
        let mut x = Exchange::sent(0, &request, Some(&rpc), None, 10.0);
        // As if a record missed redaction: the export must still not carry the key.
        x.request_headers = request.headers.clone();
        run.apply(RunEvent::Mcp(Update::Sent(Box::new(x))));
        let x = &mut run.mcp.exchanges[0];
        x.status = Some(200);
        x.headers_ms = Some(14.0);
        x.response_headers = vec![("content-type".into(), "text/event-stream".into())];
        x.events.push(RecordedEvent {
            at_ms: 15.0,
            id: Some("0".into()),
            event: "message".into(),
            data: r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into(),
            retry: None,
        });
        x.finished_ms = Some(16.0);
        run.apply(RunEvent::Done {
            row: Row::Initialize,
            at_ms: 16.0,
            payload: Some(Payload::Requested {
                version: "2025-11-25".into(),
            }),
        });
        run.apply(RunEvent::Done {
            row: Row::LlmChoice,
            at_ms: 30.0,
            payload: Some(Payload::ToolCall {
                tool: "get_weather".into(),
                arguments: json!({"location": "Tokyo"}),
                round: 1,
            }),
        });
        run.apply(RunEvent::Skipped {
            row: Row::Confirm,
            why: SkipReason::ApprovalOff,
        });
        let discovered = mcp_flow_client::era::Detection {
            era: mcp_flow_client::era::Era::Modern,
            why: mcp_flow_client::era::Why::Discovered,
        };
        let said = discovered.why.describe();
        run.apply(RunEvent::Era(discovered, said));
        run.apply(RunEvent::Llm(Box::new(crate::llm::LlmExchange {
            provider: "OpenAI-compatible".into(),
            url: "http://127.0.0.1:11434/v1/chat/completions".into(),
            request: json!({"model": "m", "messages": []}),
            response: Some(json!({"choices": []})),
            status: Some(200),
            started_ms: 20.0,
            finished_ms: 25.0,
            error: None,
        })));
        run
    }

    pub(crate) fn sample() -> Recording {
        Recording::new(
            &sample_run(),
            Context {
                created: "2026-11-29T15:00:00.000Z".into(),
                time_origin_ms: 1_764_428_400_000.0,
                server: "http://127.0.0.1:8000/mcp",
                question: "What's the weather in Tokyo?",
                lang: "en",
                llm: "Built-in offline model",
            },
        )
    }

    #[test]
    fn a_recording_round_trips_and_never_holds_a_key() {
        let rec = sample();
        let text = rec.to_json();
        assert!(!text.contains("sk-live"), "the key leaked into the export");
        assert!(text.contains("[redacted]"));
        assert!(text.contains(r#""format": "mcp-flow-recording""#));
        let back = Recording::from_json(&text).expect("reads back");
        assert_eq!(back, rec);
        assert_eq!(
            back.run.row(Row::LlmChoice).unwrap().field(Field::Tool),
            Some(FieldValue::Value("get_weather".into()))
        );
    }

    #[test]
    fn other_files_are_refused_with_a_reason() {
        assert!(
            Recording::from_json("<html>")
                .unwrap_err()
                .contains("not JSON")
        );
        assert!(
            Recording::from_json(r#"{"log": {}}"#)
                .unwrap_err()
                .contains("no \"format\"")
        );
        let future = sample()
            .to_json()
            .replace(r#""version": 2"#, r#""version": 9"#);
        assert!(
            Recording::from_json(&future)
                .unwrap_err()
                .contains("version 9")
        );
        let old = r#"{"format": "mcp-flow-recording", "version": 1, "run": {}}"#;
        assert!(
            Recording::from_json(old)
                .unwrap_err()
                .contains("version 1 recording")
        );
        let damaged = r#"{"format": "mcp-flow-recording", "version": 2, "run": 3}"#;
        assert!(
            Recording::from_json(damaged)
                .unwrap_err()
                .contains("damaged")
        );
    }

    #[test]
    fn a_diagnosis_travels_with_the_recording_without_the_bridges_secret() {
        use crate::diagnose::{Check, CheckId, Diagnosis, Finding, Verdict};
        let mut run = sample_run();
        let url = "http://127.0.0.1:8001/s/k3y/mcp";
        run.apply(RunEvent::Diagnosed(Box::new(Diagnosis {
            row: Row::Initialize,
            checks: vec![Check {
                id: CheckId::Answers,
                verdict: Verdict::Failed,
                detail: format!("POST {url}: no response the page may read (TypeError)"),
            }],
            finding: Finding::RefusesOrigin {
                page: "http://127.0.0.1:8000".into(),
                bridge: format!("mcp-flow-bridge http --allow-origin http://127.0.0.1:8000 {url}"),
            },
        })));
        let context = Context {
            created: "2026-12-06T05:00:00.000Z".into(),
            time_origin_ms: 0.0,
            server: url,
            question: "q",
            lang: "en",
            llm: "m",
        };
        let text = Recording::new(&run, context).to_json();
        assert!(!text.contains("k3y"), "the bridge's secret leaked: {text}");
        let back = Recording::from_json(&text).expect("reads back");
        let d = back
            .run
            .diagnosis
            .expect("the diagnosis is in the recording");
        assert_eq!(
            d.checks[0].detail,
            "POST http://127.0.0.1:8001/s/[redacted]/mcp: no response the page may read (TypeError)"
        );
        assert_eq!(d.checks[0].verdict, Verdict::Failed);
        assert_eq!(
            d.finding.command(),
            Some(
                "mcp-flow-bridge http --allow-origin http://127.0.0.1:8000 http://127.0.0.1:8001/s/[redacted]/mcp"
            )
        );
    }
}
