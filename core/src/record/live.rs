//! The values a run really carried, put in place of the tutorial's examples in the diagram labels
//! ("get_weather", `{"location": "Tokyo"}`, "Sunny", the question and the answer), so a run
//! against another server or question reads true on the arrows themselves. Once a run has
//! started, a value it has not carried (yet) reads as a neutral [`PLACEHOLDER`], never as the
//! tutorial's example; before any run the diagram is the tutorial's, examples and all.

use super::payload::Payload;
use super::run::Run;
use crate::diagram::Row;

/// Longest value shown in a label; the inspector has the whole.
const MAX_CHARS: usize = 60;

/// What a started run shows where its value is not known (yet).
pub const PLACEHOLDER: &str = "…";

#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveValues {
    /// A row of the run has moved: examples give way to placeholders.
    started: bool,
    question: Option<String>,
    tools: Vec<String>,
    tool: Option<String>,
    arguments: Option<String>,
    result: Option<String>,
    /// The result had `isError: true`: the tool failed.
    result_is_error: bool,
    answer: Option<String>,
}

fn clip(s: &str) -> String {
    mcp_flow_client::error::clip(&s.replace('\n', " "), MAX_CHARS)
}

impl LiveValues {
    /// The values of the rows that finished.
    pub fn from_run(run: &Run) -> Self {
        let mut live = Self {
            started: run
                .rows
                .iter()
                .any(|r| r.status != super::run::RowStatus::Pending),
            ..Self::default()
        };
        if let Some(Payload::Question { text }) = run.payload(Row::Question) {
            live.question = Some(clip(text));
        }
        if let Some(Payload::Tools { names, .. }) = run.payload(Row::ListToolsResult) {
            live.tools = names.iter().map(|n| clip(n)).collect();
        }
        // What the model asked for, else what the request carried (a watched host's model is
        // not on the wire).
        let call =
            [Row::LlmChoice, Row::CallTool]
                .into_iter()
                .find_map(|row| match run.payload(row) {
                    Some(Payload::ToolCall {
                        tool, arguments, ..
                    }) => Some((tool, arguments)),
                    _ => None,
                });
        if let Some((tool, arguments)) = call {
            live.tool = Some(clip(tool));
            live.arguments = Some(clip(&arguments.to_string()));
        }
        if let Some(Payload::ToolResult { text, is_error, .. }) = run.payload(Row::CallToolResult) {
            live.result = Some(clip(text));
            live.result_is_error = *is_error;
        }
        if let Some(Payload::Text { text }) = run.payload(Row::LlmAnswer) {
            live.answer = Some(clip(text));
        }
        live
    }

    /// The label of `row` with the tutorial's example values replaced by these.
    pub fn label(&self, row: Row, original: &str) -> String {
        let mut text = original.to_owned();
        match row {
            Row::ListToolsResult => {
                let list = if self.tools.is_empty() {
                    self.started.then(|| PLACEHOLDER.to_owned())
                } else {
                    Some(
                        self.tools
                            .iter()
                            .map(|t| format!("{{\"name\": \"{t}\", …}}"))
                            .collect::<Vec<_>>()
                            .join(", "),
                    )
                };
                if let Some(list) = list {
                    text = text.replace(
                        r#"{"name": "get_weather", "description": "...", "inputSchema": {...}}"#,
                        &list,
                    );
                }
            }
            Row::ToolsToHost => {
                let names = if self.tools.is_empty() {
                    self.started.then(|| PLACEHOLDER.to_owned())
                } else {
                    Some(self.tools.join("', '"))
                };
                if let Some(names) = names {
                    text = text.replace("'get_weather'", &format!("'{names}'"));
                }
            }
            Row::CallToolResult if self.result_is_error => {
                text = self.execution_label(&text);
                // Both eras' result labels end in the content list: the flag goes after it.
                if let Some(at) = text.rfind("\"}]") {
                    text.insert_str(at + 3, ", isError: true");
                }
            }
            _ if crate::diagram::execution().message(row).is_some() => {
                text = self.execution_label(&text);
            }
            _ => {}
        }
        text
    }

    /// The run's value, or once the run started and has none, the placeholder.
    fn shown(&self, value: &Option<String>, placeholder: &str) -> Option<String> {
        value
            .clone()
            .or_else(|| self.started.then(|| placeholder.to_owned()))
    }

    /// A label of the execution diagram with the tutorial's example values replaced.
    fn execution_label(&self, original: &str) -> String {
        let mut text = original.to_owned();
        let mut swap = |from: &str, to: Option<String>| {
            if let Some(to) = to {
                text = text.replace(from, &to);
            }
        };
        let question = self.shown(&self.question, PLACEHOLDER);
        swap("What's the weather in Tokyo?", question.clone());
        swap("东京的天气怎么样？", question);
        swap(
            r#"{"location": "Tokyo"}"#,
            self.shown(&self.arguments, "{…}"),
        );
        swap("get_weather", self.shown(&self.tool, PLACEHOLDER));
        let result = self.shown(&self.result, PLACEHOLDER);
        let quoted = |open: &str, close: &str| result.as_ref().map(|r| format!("{open}{r}{close}"));
        swap("\"Sunny\"", quoted("\"", "\""));
        swap("“Sunny”", quoted("“", "”"));
        swap("'Sunny'", quoted("'", "'"));
        let answer = self.shown(&self.answer, PLACEHOLDER);
        swap("The weather in Tokyo is Sunny.", answer.clone());
        swap("东京的天气是晴天。", answer);
        text
    }
}

/// The value a finished row of the browse diagram carried, for a line under its label (its
/// labels name no example to replace): the URI read, the items listed, the values completed.
pub fn browse_line(run: &Run, row: Row) -> Option<String> {
    let line = match run.payload(row)? {
        Payload::Offers { capabilities } if !capabilities.is_empty() => capabilities.join(", "),
        Payload::Listed { items, .. } => format!("{} × {}", items.len(), items.join(", ")),
        Payload::Target {
            target,
            arguments: Some(arguments),
        } => format!("{target} {arguments}"),
        Payload::Target { target, .. } => target.clone(),
        Payload::Completion { values, .. } => values.join(", "),
        Payload::Contents { summary, .. } => summary.clone(),
        Payload::Task {
            status,
            message,
            polls,
            ..
        } => {
            let polled = if *polls > 0 {
                format!(" after {polls} poll(s)")
            } else {
                String::new()
            };
            match message {
                Some(message) => format!("{status}{polled}: {message}"),
                None => format!("{status}{polled}"),
            }
        }
        Payload::ToolResult { text, .. } => text.clone(),
        _ => return None,
    };
    Some(format!("▸ {}", clip(&line)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_browse_row_shows_what_it_carried_under_its_label() {
        let mut run = Run::new(crate::diagram::browse_rows());
        let done = |row, payload| super::super::run::RunEvent::Done {
            row,
            at_ms: 1.0,
            payload: Some(payload),
        };
        run.apply(done(
            Row::ListResourcesResult,
            Payload::Listed {
                items: vec!["weather://cities".into(), "weather://icon.png".into()],
                ttl_ms: None,
                cache_scope: None,
            },
        ));
        run.apply(done(
            Row::Complete,
            Payload::Target {
                target: "weather://city/{name}".into(),
                arguments: Some(serde_json::json!({"name": ""})),
            },
        ));
        run.apply(done(
            Row::TaskStatus,
            Payload::Task {
                id: "t-1".into(),
                status: "completed".into(),
                message: Some("Forecasting day 3 of 3 for Tokyo".into()),
                poll_ms: Some(500),
                polls: 6,
            },
        ));
        assert_eq!(
            browse_line(&run, Row::TaskStatus).as_deref(),
            Some("▸ completed after 6 poll(s): Forecasting day 3 of 3 for Tokyo")
        );
        run.apply(done(
            Row::ReadTemplateResult,
            Payload::Contents {
                target: "weather://city/Tokyo".into(),
                count: 1,
                summary: "application/json {\"condition\":\"Sunny\",\"temperature\":22,\"unit\":\"celsius\",\"location\":\"Tokyo\"}".into(),
                ttl_ms: None,
                cache_scope: None,
            },
        ));
        assert_eq!(
            browse_line(&run, Row::ListResourcesResult).as_deref(),
            Some("▸ 2 × weather://cities, weather://icon.png")
        );
        assert_eq!(
            browse_line(&run, Row::Complete).as_deref(),
            Some("▸ weather://city/{name} {\"name\":\"\"}")
        );
        let clipped = browse_line(&run, Row::ReadTemplateResult).unwrap();
        assert!(clipped.starts_with("▸ application/json {\"condition\":\"Sunny\""));
        assert!(clipped.ends_with('…'), "clipped: {clipped}");
        assert!(
            clipped.chars().count() <= "▸ ".len() + MAX_CHARS + 1,
            "{clipped}"
        );
        assert_eq!(browse_line(&run, Row::ReadResource), None, "not finished");
    }
    use crate::diagram::{Lang, find_row};
    use crate::record::run::RunEvent;
    use serde_json::json;

    fn done(run: &mut Run, row: Row, payload: Payload) {
        run.apply(RunEvent::Done {
            row,
            at_ms: 0.0,
            payload: Some(payload),
        });
    }

    fn original(row: Row, lang: Lang) -> &'static str {
        find_row(row).expect("row").1.label.get(lang)
    }

    #[test]
    fn a_calculator_run_reads_true_on_the_arrows() {
        let mut run = Run::new(Row::ALL.iter().copied());
        let live = LiveValues::from_run(&run);
        assert_eq!(
            live.label(Row::CallTool, original(Row::CallTool, Lang::En)),
            original(Row::CallTool, Lang::En)
        );

        let tools = ["add", "multiply"].map(String::from).to_vec();
        done(
            &mut run,
            Row::ListToolsResult,
            Payload::Tools {
                names: tools,
                dropped: Vec::new(),
                ttl_ms: None,
            },
        );
        done(
            &mut run,
            Row::Question,
            Payload::Question {
                text: "What is 3 times 111?".into(),
            },
        );
        done(
            &mut run,
            Row::LlmChoice,
            Payload::ToolCall {
                tool: "multiply".into(),
                arguments: json!({"a": 3.0, "b": 111.0}),
                round: 1,
            },
        );
        done(
            &mut run,
            Row::CallToolResult,
            Payload::ToolResult {
                text: "333".into(),
                is_error: false,
                structured: None,
                output_check: None,
            },
        );
        done(
            &mut run,
            Row::LlmAnswer,
            Payload::Text {
                text: "3 times 111 is 333.".into(),
            },
        );
        let live = LiveValues::from_run(&run);
        let label = |row: Row, lang| live.label(row, original(row, lang));
        assert_eq!(label(Row::Question, Lang::En), "\"What is 3 times 111?\"");
        assert_eq!(
            label(Row::CallTool, Lang::En),
            "tools/call (Request)\n[name: \"multiply\", arguments: {\"a\":3.0,\"b\":111.0}]"
        );
        assert!(label(Row::CallToolResult, Lang::En).contains(r#"text: "333""#));
        assert!(label(Row::ResultToLlm, Lang::Zh).contains("工具'multiply'返回：'333'"));
        assert!(label(Row::LlmAnswer, Lang::En).ends_with("\"3 times 111 is 333.\""));
        assert!(
            label(Row::ListToolsResult, Lang::En)
                .contains(r#"{"name": "add", …}, {"name": "multiply", …}"#)
        );
        assert!(label(Row::ToolsToHost, Lang::En).contains("'add', 'multiply'"));
        assert!(!label(Row::CallToolAsk, Lang::En).contains("get_weather"));
    }

    #[test]
    fn a_started_run_shows_placeholders_not_the_tutorials_examples() {
        let mut run = Run::new(Row::ALL.iter().copied());
        done(
            &mut run,
            Row::Question,
            Payload::Question {
                text: "Is it raining in Paris?".into(),
            },
        );
        let live = LiveValues::from_run(&run);
        let all = crate::diagram::diagrams()
            .iter()
            .chain(crate::diagram::modern_diagrams().iter());
        let mut swapped = 0;
        for diagram in all {
            for m in diagram.messages() {
                for lang in [Lang::En, Lang::Zh] {
                    let original = m.label.get(lang);
                    let label = live.label(m.id, original);
                    for example in ["Tokyo", "Sunny", "东京", "晴天", "get_weather"] {
                        assert!(!label.contains(example), "{:?} {lang:?}: {label}", m.id);
                    }
                    if label != original {
                        swapped += 1;
                        assert!(
                            label.contains("Paris") || label.contains(PLACEHOLDER),
                            "{label}"
                        );
                    }
                }
            }
        }
        // Question, tools list and host, choice, ask, confirm, execute, call, result, result
        // to host and to the model, answer: 12 rows, 2 eras, 2 languages (or near it).
        assert!(swapped >= 40, "{swapped} labels changed");
        assert_eq!(
            live.label(Row::LlmAnswer, original(Row::LlmAnswer, Lang::En)),
            "Generate final response (as text)\n\"…\""
        );
        assert_eq!(
            live.label(Row::Question, original(Row::Question, Lang::Zh)),
            "“Is it raining in Paris?”"
        );
    }

    #[test]
    fn a_failed_tool_reads_as_failed_on_its_arrow() {
        let mut run = Run::new(Row::ALL.iter().copied());
        done(
            &mut run,
            Row::CallToolResult,
            Payload::ToolResult {
                text: "Unknown location: Atlantis".into(),
                is_error: true,
                structured: None,
                output_check: None,
            },
        );
        let live = LiveValues::from_run(&run);
        assert_eq!(
            live.label(Row::CallToolResult, original(Row::CallToolResult, Lang::En)),
            "tools/call (Response)\n[result: {content: [{type: \"text\", text: \"Unknown location: Atlantis\"}], isError: true}]"
        );
        let modern = crate::diagram::modern_diagrams()[1]
            .message(Row::CallToolResult)
            .expect("modern d2-8")
            .label
            .get(Lang::Zh);
        let label = live.label(Row::CallToolResult, modern);
        assert!(
            label.ends_with(r#"text: "Unknown location: Atlantis"}], isError: true]"#),
            "{label}"
        );
        assert!(!label.contains("Sunny"), "{label}");
        assert!(run.tool_failed(Row::CallToolResult));
        assert!(!run.tool_failed(Row::LlmChoice));
    }

    #[test]
    fn long_values_are_clipped() {
        let mut run = Run::new([Row::Question]);
        done(
            &mut run,
            Row::Question,
            Payload::Question {
                text: "why ".repeat(100),
            },
        );
        let text =
            LiveValues::from_run(&run).label(Row::Question, original(Row::Question, Lang::En));
        assert!(text.chars().count() < 80, "{text}");
    }
}
