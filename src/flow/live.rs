//! The values a run really carried, put in place of the seeds' examples in the diagram labels
//! ("get_weather", `{"location": "Tokyo"}`, "Sunny", the question and the answer), so a run
//! against another server or question reads true on the arrows themselves.

use super::run::{RowStatus, Run};

/// Longest value shown in a label; the inspector has the whole.
const MAX_CHARS: usize = 60;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveValues {
    question: Option<String>,
    tools: Vec<String>,
    tool: Option<String>,
    arguments: Option<String>,
    result: Option<String>,
    answer: Option<String>,
}

fn clip(s: &str) -> String {
    crate::mcp::error::clip(&s.replace('\n', " "), MAX_CHARS)
}

impl LiveValues {
    /// The values of the rows that finished.
    pub fn from_run(run: &Run) -> Self {
        let value = |row: &str, key: &str| {
            run.row(row)
                .filter(|r| r.status == RowStatus::Done)
                .and_then(|r| r.value(key))
                .map(clip)
        };
        Self {
            question: value("d2-1", "question"),
            tools: run
                .row("d1-6")
                .filter(|r| r.status == RowStatus::Done)
                .and_then(|r| r.value("tools"))
                .map(|t| t.split(", ").filter(|s| !s.is_empty()).map(clip).collect())
                .unwrap_or_default(),
            tool: value("d2-3", "tool"),
            arguments: value("d2-3", "arguments"),
            result: value("d2-8", "text"),
            answer: value("d2-11", "text"),
        }
    }

    /// The label of row `id` with the seed's example values replaced by these.
    pub fn label(&self, id: &str, seed: &str) -> String {
        let mut text = seed.to_owned();
        let mut swap = |from: &str, to: &Option<String>| {
            if let Some(to) = to {
                text = text.replace(from, to);
            }
        };
        match id {
            "d1-6" if !self.tools.is_empty() => {
                let list = self
                    .tools
                    .iter()
                    .map(|t| format!("{{\"name\": \"{t}\", …}}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                text = text.replace(
                    r#"{"name": "get_weather", "description": "...", "inputSchema": {...}}"#,
                    &list,
                );
            }
            "d1-7" if !self.tools.is_empty() => {
                swap(
                    "'get_weather'",
                    &Some(format!("'{}'", self.tools.join("', '"))),
                );
            }
            _ if id.starts_with("d2-") => {
                swap("What's the weather in Tokyo?", &self.question);
                swap("东京的天气怎么样？", &self.question);
                swap(r#"{"location": "Tokyo"}"#, &self.arguments);
                swap("get_weather", &self.tool);
                swap(
                    "\"Sunny\"",
                    &self.result.as_ref().map(|r| format!("\"{r}\"")),
                );
                swap("“Sunny”", &self.result.as_ref().map(|r| format!("“{r}”")));
                swap("'Sunny'", &self.result.as_ref().map(|r| format!("'{r}'")));
                swap("The weather in Tokyo is Sunny.", &self.answer);
                swap("东京的天气是晴天。", &self.answer);
            }
            _ => {}
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::{Lang, find_row};
    use crate::flow::run::RunEvent;

    fn done(run: &mut Run, row: &str, values: &[(&str, &str)]) {
        run.apply(RunEvent::Done {
            row: row.into(),
            at_ms: 0.0,
            values: values
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        });
    }

    fn seed(id: &str, lang: Lang) -> &'static str {
        find_row(id).expect("row").1.label.get(lang)
    }

    #[test]
    fn a_calculator_run_reads_true_on_the_arrows() {
        let mut run = Run::new(["d1-6", "d1-7", "d2-1", "d2-3", "d2-8", "d2-11"]);
        let live = LiveValues::from_run(&run);
        assert_eq!(
            live.label("d2-7", seed("d2-7", Lang::En)),
            seed("d2-7", Lang::En)
        );

        done(&mut run, "d1-6", &[("tools", "add, multiply")]);
        done(&mut run, "d2-1", &[("question", "What is 3 times 111?")]);
        done(
            &mut run,
            "d2-3",
            &[
                ("tool", "multiply"),
                ("arguments", r#"{"a":3.0,"b":111.0}"#),
            ],
        );
        done(&mut run, "d2-8", &[("text", "333")]);
        done(&mut run, "d2-11", &[("text", "multiply returned: 333")]);
        let live = LiveValues::from_run(&run);
        let label = |id: &str, lang| live.label(id, seed(id, lang));
        assert_eq!(label("d2-1", Lang::En), "\"What is 3 times 111?\"");
        assert_eq!(
            label("d2-7", Lang::En),
            "tools/call (Request)\n[name: \"multiply\", arguments: {\"a\":3.0,\"b\":111.0}]"
        );
        assert!(label("d2-8", Lang::En).contains(r#"text: "333""#));
        assert!(label("d2-10", Lang::Zh).contains("工具'multiply'返回：'333'"));
        assert!(label("d2-11", Lang::En).ends_with("\"multiply returned: 333\""));
        assert!(label("d1-6", Lang::En).contains(r#"{"name": "add", …}, {"name": "multiply", …}"#));
        assert!(label("d1-7", Lang::En).contains("'add', 'multiply'"));
        assert!(!label("d2-6", Lang::En).contains("get_weather"));
    }

    #[test]
    fn long_values_are_clipped() {
        let mut run = Run::new(["d2-1"]);
        done(&mut run, "d2-1", &[("question", &"why ".repeat(100))]);
        let text = LiveValues::from_run(&run).label("d2-1", seed("d2-1", Lang::En));
        assert!(text.chars().count() < 80, "{text}");
    }
}
