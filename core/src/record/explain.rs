//! Each row's explanation (written in its diagram's file, [`crate::diagram::row_spec`]) filled
//! with the row's live values by `{placeholder}`, and the spec section it links in each era.

use super::payload::{Field, FieldValue};
use super::run::{RowRecord, RowStatus};
use crate::diagram::Row;
use crate::diagram::explained::explanation;
use crate::diagram::spec::Lang;
use mcp_flow_client::era::Era;

/// The spec each era's explanations link to.
const SPEC_LEGACY: &str = "https://modelcontextprotocol.io/specification/2025-11-25";
const SPEC_MODERN: &str = "https://modelcontextprotocol.io/specification/2026-07-28";

/// The row's explanation in `lang` for `era`, with `{field}` filled from what the row carried,
/// and the spec link of that era. A value the row does not carry says why, in words: not known
/// yet, not received because the step failed or was skipped, or absent from what the run carried.
pub fn explain(row: Row, lang: Lang, era: Era, record: Option<&RowRecord>) -> (String, String) {
    let (template, path) = template(row, lang, era);
    let missing = missing(record.map(|r| r.status), lang);
    let text = fill(template, lang, missing, |field| {
        record.and_then(|r| r.field(field))
    });
    let base = match era {
        Era::Legacy => SPEC_LEGACY,
        Era::Modern => SPEC_MODERN,
    };
    // An extension's rows link its own specification.
    let link = if path.starts_with("https://") {
        path.to_owned()
    } else {
        format!("{base}{path}")
    };
    (text, link)
}

/// The template and spec path of `row` in `era`: the era's own explanation, else the one for
/// both; in 2025-11-25 a section that moved since is linked where that revision has it.
fn template(row: Row, lang: Lang, era: Era) -> (&'static str, &'static str) {
    let spec = explanation(row);
    let own = match era {
        Era::Legacy => spec.legacy,
        Era::Modern => spec.modern,
    };
    let Some(words) = own.or(spec.both) else {
        return ("", "");
    };
    let path = match era {
        Era::Legacy => spec.legacy_path.unwrap_or(words.path),
        Era::Modern => words.path,
    };
    (if lang == Lang::Zh { words.zh } else { words.en }, path)
}

/// What a placeholder reads when its row carries no payload, by the row's state.
fn missing(status: Option<RowStatus>, lang: Lang) -> &'static str {
    match (status, lang) {
        (Some(RowStatus::Failed), Lang::En) => "not received, this step failed",
        (Some(RowStatus::Failed), Lang::Zh) => "未收到，此步骤失败",
        (Some(RowStatus::Skipped), Lang::En) => "not reached, this step was skipped",
        (Some(RowStatus::Skipped), Lang::Zh) => "未到达，此步骤被跳过",
        (Some(RowStatus::Done), Lang::En) => "(none)",
        (Some(RowStatus::Done), Lang::Zh) => "（无）",
        (_, Lang::En) => "known once the run gets here",
        (_, Lang::Zh) => "运行到这里时才知道",
    }
}

/// `template` with each `{field}` replaced by its value; `missing` where the row has none.
fn fill(
    template: &str,
    lang: Lang,
    missing: &str,
    value: impl Fn(Field) -> Option<FieldValue>,
) -> String {
    let absent = match lang {
        Lang::En => "(none)",
        Lang::Zh => "（无）",
    };
    crate::placeholders::fill(template, |name| {
        let field = Field::from_name(name);
        Some(match field.and_then(&value) {
            Some(FieldValue::Value(v)) => v,
            Some(FieldValue::Absent) => absent.to_owned(),
            None => missing.to_owned(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::explained::fits;
    use crate::record::payload::Payload;
    use crate::record::run::RowStatus;
    use serde_json::json;

    /// The `{name}` placeholders of a template, in order.
    fn placeholders(template: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = template;
        while let Some(start) = rest.find('{') {
            let after = &rest[start + 1..];
            match after.find('}') {
                Some(end) if after[..end].chars().all(|c| c.is_ascii_alphanumeric()) => {
                    out.push(&after[..end]);
                    rest = &after[end + 1..];
                }
                _ => rest = after,
            }
        }
        out
    }

    /// A payload of the kind each row finishes with, in `era`.
    fn sample(row: Row, era: Era) -> Option<Payload> {
        let call = Payload::ToolCall {
            tool: "get_weather".into(),
            arguments: json!({"location": "Tokyo"}),
            round: 1,
        };
        let result = Payload::ToolResult {
            text: "Sunny".into(),
            is_error: false,
            structured: None,
            output_check: None,
        };
        let llm = Payload::LlmCall {
            llm: "offline".into(),
            style: crate::llm::Style::FunctionCalling,
        };
        let tools = Payload::Tools {
            names: vec!["get_weather".into()],
            dropped: Vec::new(),
            ttl_ms: Some(1000),
        };
        let form = Payload::Form {
            message: "Which Springfield?".into(),
            schema: json!({}),
            state: Some("s".into()),
            round: 1,
        };
        let answer = Payload::FormAnswer {
            action: "accept".into(),
            content: Some(json!({"city": "Springfield, Illinois"})),
        };
        Some(match row {
            Row::Prepare => Payload::Server { url: "u".into() },
            Row::Initialize | Row::Discover => Payload::Requested {
                version: "2025-11-25".into(),
            },
            Row::DiscoverResult if era == Era::Legacy => Payload::Fallback {
                why: "HTTP 400".into(),
            },
            Row::DiscoverResult => Payload::Discovered {
                versions: vec!["2026-07-28".into()],
                server: Some("s 1".into()),
                capabilities: json!({}),
                ttl_ms: 0,
                cache_scope: Some("public".into()),
            },
            Row::InitializeResult => Payload::Handshake {
                version: "2025-11-25".into(),
                server: "s 1".into(),
                capabilities: json!({}),
                session: None,
            },
            Row::Ready => Payload::Logging { level: None },
            Row::ListToolsResult | Row::ToolsToHost | Row::RelistResult => tools,
            Row::ToolsToLlm => Payload::ToolsForLlm {
                llm: "offline".into(),
                style: crate::llm::Style::FunctionCalling,
                sent: "[]".into(),
                tools: vec![],
            },
            Row::Question => Payload::Question { text: "q".into() },
            Row::AskLlm | Row::ResultToLlm => llm,
            Row::LlmChoice | Row::Confirm | Row::CallToolAsk => call,
            Row::Confirmed => Payload::Decision { approved: true },
            Row::Elicit | Row::ElicitAsk => form,
            Row::ElicitAnswer | Row::ElicitReply => answer,
            Row::Roots | Row::RootsReply => Payload::Roots {
                roots: vec!["file:///work".into()],
                state: None,
                round: 1,
                withheld: false,
            },
            Row::Sample | Row::SampleReview | Row::SampleLlm => Payload::Sampling {
                messages: vec!["user: Say hi".into()],
                system_prompt: None,
                max_tokens: 20,
                preferences: None,
                state: None,
                round: 1,
            },
            Row::SampleLlmAnswer | Row::SampleApprove | Row::SampleReply => Payload::Sampled {
                text: "Hi".into(),
                model: "m".into(),
                verdict: "approved".into(),
            },
            Row::CallToolResult | Row::ResultToHost => result,
            Row::LlmAnswer => Payload::Text { text: "t".into() },
            Row::ShowAnswer => Payload::Answer { text: "a".into() },
            Row::AuthChallenge
            | Row::AuthResourceMetadata
            | Row::AuthResourceMetadataResult
            | Row::AuthServerMetadata
            | Row::AuthServerMetadataResult
            | Row::AuthRegister
            | Row::AuthRegistered
            | Row::AuthOpen
            | Row::AuthConsent
            | Row::AuthRedirect
            | Row::AuthToken
            | Row::AuthTokenResult
            | Row::AuthRetry
            | Row::AuthRefresh
            | Row::AuthRefreshResult => Payload::Auth {
                detail: "GET /.well-known/oauth-protected-resource/mcp".into(),
            },
            Row::Browse => Payload::Offers {
                capabilities: vec!["resources".into(), "prompts".into()],
            },
            Row::ListResourcesResult
            | Row::ListTemplatesResult
            | Row::ListPromptsResult
            | Row::Subscribed => Payload::Listed {
                items: vec!["weather://cities".into()],
                ttl_ms: Some(300_000),
                cache_scope: Some("public".into()),
            },
            Row::ReadResource
            | Row::Complete
            | Row::ReadTemplate
            | Row::GetPrompt
            | Row::Subscribe
            | Row::Updated
            | Row::Unsubscribe
            | Row::ReadUpdated => Payload::Target {
                target: "weather://city/{name}".into(),
                arguments: Some(json!({"name": ""})),
            },
            Row::CompleteResult => Payload::Completion {
                values: vec!["Tokyo".into()],
                total: Some(1),
                has_more: false,
            },
            Row::ReadResourceResult
            | Row::ReadTemplateResult
            | Row::GetPromptResult
            | Row::ReadUpdatedResult => Payload::Contents {
                target: "weather://city/Tokyo".into(),
                count: 1,
                summary: "application/json {}".into(),
                ttl_ms: Some(60_000),
                cache_scope: Some("public".into()),
            },
            Row::ShowBrowsed => Payload::Text { text: "t".into() },
            Row::TaskCall | Row::TaskResult => Payload::Target {
                target: "get_forecast".into(),
                arguments: Some(json!({"location": "Tokyo"})),
            },
            Row::TaskCreated | Row::TaskPoll | Row::TaskStatus => Payload::Task {
                id: "t-1".into(),
                status: "working".into(),
                message: Some("Forecasting day 1 of 3 for Tokyo".into()),
                poll_ms: Some(500),
                polls: 2,
            },
            Row::TaskResultAnswer => Payload::ToolResult {
                text: "Tokyo".into(),
                is_error: false,
                structured: None,
                output_check: None,
            },
            row if row.is_app() => Payload::App {
                method: "ui/initialize".into(),
                detail: "weather-card 1.0.0".into(),
                count: 1,
            },
            Row::Initialized
            | Row::ListToolsAsk
            | Row::ListTools
            | Row::Relist
            | Row::CallTool
            | Row::Execute
            | Row::ListResources
            | Row::ListTemplates
            | Row::ListPrompts => {
                return None;
            }
            _ => return None,
        })
    }

    fn record(row: Row, era: Era) -> RowRecord {
        let mut run = crate::record::run::Run::new([row]);
        run.apply(crate::record::run::RunEvent::Done {
            row,
            at_ms: 0.0,
            payload: sample(row, era),
        });
        run.row(row).cloned().expect("row")
    }

    const ERAS: [Era; 2] = [Era::Legacy, Era::Modern];

    /// The diagrams drawn in `era`: its own two, the Authorization and the browse diagrams.
    fn diagrams(era: Era) -> impl Iterator<Item = &'static crate::diagram::Diagram> {
        crate::diagram::diagrams_for(era).iter().chain([
            crate::diagram::authorization(),
            crate::diagram::browse(),
            crate::diagram::app(),
        ])
    }

    #[test]
    fn every_diagram_row_has_an_explanation_in_both_languages() {
        for era in ERAS {
            for diagram in diagrams(era) {
                for row in diagram.rows() {
                    for lang in Lang::ALL {
                        let (text, link) = explain(row, lang, era, None);
                        assert!(!text.trim().is_empty(), "no explanation for {row}");
                        let base = if era == Era::Modern {
                            SPEC_MODERN
                        } else {
                            SPEC_LEGACY
                        };
                        assert!(link.starts_with(base) || row.is_app(), "{link}");
                    }
                    assert_ne!(
                        explain(row, Lang::En, era, None).0,
                        explain(row, Lang::Zh, era, None).0,
                        "{row}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_placeholder_is_a_value_its_row_carries() {
        for era in ERAS {
            for row in diagrams(era).flat_map(|d| d.rows()) {
                let sample = sample(row, era);
                assert!(fits(row, sample.as_ref()), "sample for {row}");
                let record = record(row, era);
                assert_eq!(record.status, RowStatus::Done);
                for lang in Lang::ALL {
                    let (template, _) = template(row, lang, era);
                    for name in placeholders(template) {
                        let field = Field::from_name(name).unwrap_or_else(|| {
                            panic!("{row} {era:?} {lang:?}: unknown {{{name}}}")
                        });
                        assert!(
                            record.field(field).is_some(),
                            "{row} {era:?} {lang:?}: {{{name}}} is not a value of its payload"
                        );
                    }
                    let (text, _) = explain(row, lang, era, Some(&record));
                    assert!(!text.contains('…'), "{row} {era:?} {lang:?}: {text}");
                }
            }
        }
    }

    #[test]
    fn every_row_is_explained_in_both_eras() {
        for &row in Row::ALL {
            for era in ERAS {
                for lang in Lang::ALL {
                    assert!(!template(row, lang, era).0.is_empty(), "{row} {era:?}");
                }
            }
        }
    }

    #[test]
    fn auth_rows_say_why_and_link_the_authorization_sections() {
        let auth = crate::diagram::authorization();
        for row in auth.rows() {
            let (en, modern_path) = template(row, Lang::En, Era::Modern);
            let (zh, _) = template(row, Lang::Zh, Era::Modern);
            assert_eq!(
                template(row, Lang::En, Era::Legacy).0,
                en,
                "one text for both eras"
            );
            // What the row carried, summed up by the host.
            assert!(en.contains("{detail}") && zh.contains("{detail}"), "{row}");
            assert!(
                ["RFC ", "OAuth 2.1", "PKCE"].iter().any(|s| en.contains(s)),
                "{row}: names no standard: {en}"
            );
            let optional = auth.message(row).unwrap().optional;
            assert_eq!(en.starts_with("Optional:"), optional, "{row}");
            assert_eq!(zh.starts_with("可选："), optional, "{row}");
            for era in ERAS {
                let (_, link) = explain(row, Lang::En, era, None);
                let base = if era == Era::Modern {
                    SPEC_MODERN
                } else {
                    SPEC_LEGACY
                };
                let path = link.strip_prefix(base).expect("the era's spec");
                assert!(path.starts_with("/basic/authorization"), "{row}: {link}");
                let (page, anchor) = path.split_once('#').expect("a section");
                assert!(!anchor.is_empty() && !anchor.contains('#'), "{link}");
                // 2025-11-25 has one authorization page; 2026-07-28 splits it.
                if era == Era::Legacy {
                    assert_eq!(page, "/basic/authorization", "{row}: {link}");
                } else {
                    assert_eq!(path, modern_path);
                }
            }
        }
        let link = |row, era| explain(row, Lang::En, era, None).1;
        assert_eq!(
            link(Row::AuthRegister, Era::Modern),
            format!(
                "{SPEC_MODERN}/basic/authorization/client-registration#dynamic-client-registration"
            )
        );
        assert_eq!(
            link(Row::AuthRegister, Era::Legacy),
            format!("{SPEC_LEGACY}/basic/authorization#dynamic-client-registration")
        );
        assert_eq!(
            link(Row::AuthRetry, Era::Legacy),
            format!("{SPEC_LEGACY}/basic/authorization#step-up-authorization-flow")
        );
        // Only rows of the Authorization diagram have moved sections.
        for &row in Row::ALL {
            assert!(
                explanation(row).legacy_path.is_none() || row.is_auth(),
                "{row}"
            );
        }
        let mut record = record(Row::AuthChallenge, Era::Modern);
        let (text, _) = explain(Row::AuthChallenge, Lang::En, Era::Modern, Some(&record));
        assert!(
            text.ends_with("Here: GET /.well-known/oauth-protected-resource/mcp."),
            "{text}"
        );
        record.status = RowStatus::Skipped;
        record.payload = None;
        let (text, _) = explain(Row::AuthRegister, Lang::Zh, Era::Modern, Some(&record));
        assert!(text.contains("本次：未到达，此步骤被跳过"), "{text}");
    }

    #[test]
    fn each_era_explains_its_own_rows() {
        let modern = explain(Row::CallTool, Lang::En, Era::Modern, None).0;
        let legacy = explain(Row::CallTool, Lang::En, Era::Legacy, None).0;
        assert!(modern.contains("Mcp-Name"), "{modern}");
        assert!(!legacy.contains("Mcp-Name"), "{legacy}");
        let link = explain(Row::Elicit, Lang::En, Era::Modern, None).1;
        assert_eq!(link, format!("{SPEC_MODERN}/basic/patterns/mrtr"));
    }

    #[test]
    fn placeholders_are_filled_from_live_values() {
        let mut record = record(Row::InitializeResult, Era::Legacy);
        let (text, _) = explain(Row::InitializeResult, Lang::En, Era::Legacy, Some(&record));
        assert!(text.contains("chose (2025-11-25)"), "{text}");
        assert!(text.contains("Session id: (none)."), "{text}");
        record.payload = None;
        record.status = RowStatus::Failed;
        let (text, _) = explain(Row::InitializeResult, Lang::En, Era::Legacy, Some(&record));
        assert!(
            text.contains("chose (not received, this step failed)"),
            "{text}"
        );
        record.status = RowStatus::Skipped;
        let (text, _) = explain(Row::InitializeResult, Lang::Zh, Era::Legacy, Some(&record));
        assert!(text.contains("未到达"), "{text}");
        let (text, _) = explain(Row::InitializeResult, Lang::En, Era::Legacy, None);
        assert!(
            text.contains("chose (known once the run gets here)"),
            "{text}"
        );
        assert_eq!(fill("{tool} {nope}", Lang::En, "?", |_| None), "? ?");
        assert_eq!(
            fill("JSON {\"x\": 1}", Lang::En, "?", |_| None),
            "JSON {\"x\": 1}"
        );
    }
}
