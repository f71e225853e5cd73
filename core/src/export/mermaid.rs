//! The run as Mermaid sequence diagrams: the tutorial's participants and arrows, each arrow's label
//! followed by the values it really carried, and a note for rows that were skipped or failed.

use super::row_summary;
use crate::diagram::{ArrowKind, Lang};
use crate::diagram::{Diagram, app, authorization, browse, diagrams_for};
use crate::record::run::{RowStatus, Run};
use mcp_flow_client::era::Era;

/// Markdown with both diagrams of `run`, the Authorization diagram first when the run
/// authorized, the browse diagram when it browsed and the App diagram last when it hosted an
/// app, each in its own ```` ```mermaid ```` block (a Mermaid source holds one diagram),
/// which GitHub and most Markdown viewers render. Each lists its own participants.
pub fn mermaid(run: &Run, lang: Lang) -> String {
    let mut out = String::from("# MCP Flow run\n\n");
    let era = run.era.as_ref().map_or(Era::Legacy, |d| d.era);
    let happened = |d: &'static Diagram| {
        d.rows()
            .any(|row| run.status(row) != RowStatus::Pending)
            .then_some(d)
    };
    let auth = happened(authorization());
    let after = [happened(browse()), happened(app())].into_iter().flatten();
    for diagram in auth.into_iter().chain(diagrams_for(era)).chain(after) {
        out.push_str("```mermaid\nsequenceDiagram\n");
        out.push_str(&format!("    title {}\n", clean(diagram.title.get(lang))));
        for p in diagram.participants {
            out.push_str(&format!(
                "    participant {} as {}\n",
                p.actor.slug(),
                clean(p.name)
            ));
        }
        for m in diagram.messages() {
            let Some(row) = run.row(m.id) else { continue };
            if row.status == RowStatus::Pending {
                continue;
            }
            let arrow = match m.kind {
                ArrowKind::Solid => "->>",
                ArrowKind::Dashed => "-->>",
            };
            let number = m.number.map(|n| format!("{n}. ")).unwrap_or_default();
            let mut label = format!("{number}{}", clean(m.label.get(lang)));
            let live = row_summary(row, 160);
            if !live.is_empty() && row.status == RowStatus::Done {
                label.push_str(&format!("<br/>▸ {}", clean(&live)));
            }
            let (from, to) = (m.from.slug(), m.to.slug());
            out.push_str(&format!("    {from}{arrow}{to}: {label}\n"));
            let note = match row.status {
                RowStatus::Skipped => Some(format!(
                    "skipped: {}",
                    row.skipped.map(|w| w.describe(lang)).unwrap_or_default()
                )),
                RowStatus::Failed => {
                    Some(format!("FAILED: {}", row.error.as_deref().unwrap_or("")))
                }
                _ if run.tool_failed(m.id) => {
                    Some("TOOL ERROR: the result says isError: true".into())
                }
                _ => run
                    .output_mismatch(m.id)
                    .map(|check| format!("OUTPUT SCHEMA MISMATCH: {}", check.summary())),
            };
            if let Some(note) = note {
                out.push_str(&format!("    Note over {from},{to}: {}\n", clean(&note)));
            }
        }
        out.push_str("```\n\n");
    }
    out
}

/// Text that cannot break the Mermaid line: no line breaks of any kind (`\n`, `\r\n`, a lone `\r`,
/// U+2028/U+2029, which some renderers also end lines at), and `;`/`#` escaped as entities.
fn clean(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace(['\r', '\u{2028}', '\u{2029}'], "\n")
        .replace('\n', "<br/>")
        .replace('#', "#35;")
        .replace(';', "#59;")
        .replace("#35#59;", "#35;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::recording::tests::sample_run;

    #[test]
    fn a_failed_tool_is_noted_as_a_tool_error() {
        use crate::diagram::Row;
        use crate::record::payload::Payload;
        use crate::record::run::RunEvent;
        let mut run = Run::new([Row::CallToolResult, Row::ResultToHost]);
        for row in [Row::CallToolResult, Row::ResultToHost] {
            run.apply(RunEvent::Done {
                row,
                at_ms: 1.0,
                payload: Some(Payload::ToolResult {
                    text: "No weather data for \"Atlantis\"".into(),
                    is_error: true,
                    structured: None,
                    output_check: None,
                }),
            });
        }
        let text = mermaid(&run, Lang::En);
        assert_eq!(text.matches("TOOL ERROR").count(), 2, "{text}");
        assert!(!mermaid(&sample_run(), Lang::En).contains("TOOL ERROR"));
    }

    #[test]
    fn arrows_carry_the_real_values_and_skips_are_noted() {
        let text = mermaid(&sample_run(), Lang::En);
        assert_eq!(text.matches("```mermaid\nsequenceDiagram\n").count(), 2);
        assert_eq!(text.matches("```\n").count(), 2);
        assert!(text.contains("participant"));
        let call = text
            .lines()
            .find(|l| l.contains("tool=get_weather"))
            .expect("the tool call row");
        assert!(call.contains(r#"arguments={"location":"Tokyo"}"#), "{call}");
        assert!(text.contains("Note over"), "{text}");
        assert!(text.contains("skipped: approval is off"));
        // Rows that never ran are left out.
        assert!(!text.contains("initialize (Response)"), "d1-2 never ran");
    }

    #[test]
    fn an_authorized_run_exports_the_authorization_diagram_with_its_participants() {
        use crate::diagram::Row;
        use crate::record::payload::Payload;
        use crate::record::run::RunEvent;
        let text = mermaid(&sample_run(), Lang::En);
        assert!(!text.contains("Authorization (OAuth 2.1)"), "{text}");
        assert!(!text.contains("participant auth"), "{text}");
        let mut run = Run::new(crate::diagram::all_rows());
        run.apply(RunEvent::Done {
            row: Row::AuthChallenge,
            at_ms: 1.0,
            payload: Some(Payload::Auth {
                detail: "401, scope mcp:basic".into(),
            }),
        });
        let text = mermaid(&run, Lang::En);
        assert_eq!(text.matches("```mermaid\n").count(), 3, "{text}");
        let block = text.split("```mermaid\n").nth(1).unwrap();
        assert!(block.contains("title Authorization (OAuth 2.1)"), "{block}");
        let participants: Vec<&str> = block
            .lines()
            .filter_map(|l| l.trim().strip_prefix("participant "))
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        assert_eq!(participants, ["user", "host", "client", "server", "auth"]);
        assert!(
            block.contains("    server-->>client: 1. 401 Unauthorized"),
            "{block}"
        );
        let later = text.split("```mermaid\n").nth(2).unwrap();
        assert!(later.contains("participant llm"), "{later}");
        assert!(!later.contains("participant auth"), "{later}");
    }

    #[test]
    fn a_browsed_run_exports_the_browse_diagram_last_with_its_values() {
        use crate::diagram::Row;
        use crate::record::payload::Payload;
        use crate::record::run::RunEvent;
        assert!(!mermaid(&sample_run(), Lang::En).contains("Resources, prompts"));
        let mut run = Run::new(crate::diagram::all_rows());
        run.apply(RunEvent::Done {
            row: Row::ReadTemplate,
            at_ms: 1.0,
            payload: Some(Payload::Target {
                target: "weather://city/Tokyo".into(),
                arguments: None,
            }),
        });
        let text = mermaid(&run, Lang::En);
        assert_eq!(text.matches("```mermaid\n").count(), 3, "{text}");
        let block = text.split("```mermaid\n").nth(3).unwrap();
        assert!(
            block.contains("title Resources, prompts, completion and tasks"),
            "{block}"
        );
        assert!(!block.contains("participant llm"), "{block}");
        assert!(
            block.contains("client->>server: 10. resources/read (Request)")
                && block.contains("target=weather://city/Tokyo"),
            "{block}"
        );
    }

    #[test]
    fn text_cannot_break_the_syntax() {
        assert_eq!(clean("a;b\nc#d"), "a#59;b<br/>c#35;d");
        // A server's text with other line breaks cannot start a Mermaid statement of its own.
        assert_eq!(
            clean("Sunny\rNote over A: x\r\ny\u{2028}z\u{2029}w"),
            "Sunny<br/>Note over A: x<br/>y<br/>z<br/>w"
        );
    }
}
