//! "You are the model": the user takes the LLM's place. At the model's turns (rows d2-2/d2-3 and
//! d2-10/d2-11) the page asks the user instead of a model: which tool to call, with which
//! arguments (a form built from the tool's `inputSchema`, or JSON where a form cannot express the
//! schema), or what to answer. The host and the diagrams run exactly as with a model.

use std::cell::RefCell;
use std::rc::Rc;

use futures_channel::oneshot;
use serde_json::{Map, Value, json};

use super::{ChatMessage, Llm, LlmExchange, LlmReply, ToolCall, ToolSpec};
use crate::flow::form_fields::{content, fields};
use crate::output_check::Verdict;
use mcp_flow_client::clock::SharedClock;

pub const LABEL: &str = "You, in the model's place";

/// What the page asks the user at one of the model's turns.
#[derive(Debug, Clone, PartialEq)]
pub enum Turn {
    /// Pick a tool and its arguments, or answer the question directly.
    Choose {
        question: String,
        tools: Vec<ToolSpec>,
    },
    /// A tool answered: write the answer (or call another tool).
    Answer {
        question: String,
        tool: String,
        result: String,
        is_error: bool,
        tools: Vec<ToolSpec>,
    },
}

impl Turn {
    pub fn tools(&self) -> &[ToolSpec] {
        match self {
            Self::Choose { tools, .. } | Self::Answer { tools, .. } => tools,
        }
    }
}

/// Where the model's turns meet the page: the turn being asked, shown through `show`, and the
/// user's reply, sent back through [`UserTurns::reply`].
pub struct UserTurns {
    pending: RefCell<Option<oneshot::Sender<LlmReply>>>,
    show: Box<dyn Fn(Option<Turn>)>,
}

impl UserTurns {
    pub fn new(show: impl Fn(Option<Turn>) + 'static) -> Rc<Self> {
        Rc::new(Self {
            pending: RefCell::new(None),
            show: Box::new(show),
        })
    }

    fn ask(&self, turn: Turn) -> oneshot::Receiver<LlmReply> {
        let (tx, rx) = oneshot::channel();
        *self.pending.borrow_mut() = Some(tx);
        (self.show)(Some(turn));
        rx
    }

    /// The user's reply to the turn being asked; `false` when none is asked (any more).
    pub fn reply(&self, reply: LlmReply) -> bool {
        let sent = self
            .pending
            .borrow_mut()
            .take()
            .is_some_and(|tx| tx.send(reply).is_ok());
        (self.show)(None);
        sent
    }

    /// Drops the turn being asked (the run ended): the waiting call ends with an error.
    pub fn clear(&self) {
        self.pending.borrow_mut().take();
        (self.show)(None);
    }
}

/// Why a form cannot stand for `schema` (the page then offers JSON), or `None` when it can: a
/// flat object whose properties are strings, numbers, integers, booleans or enums.
pub fn why_json(schema: &Value) -> Option<String> {
    /// More fields than this make a page, not a form.
    const MAX_FORM_FIELDS: usize = 100;
    let Some(object) = schema.as_object() else {
        return Some("the input schema is not a JSON object".into());
    };
    for key in ["$ref", "oneOf", "anyOf", "allOf", "not", "if"] {
        if object.contains_key(key) {
            return Some(format!("the input schema uses `{key}`"));
        }
    }
    let properties = object.get("properties")?;
    let Some(properties) = properties.as_object() else {
        return Some("`properties` is not an object".into());
    };
    if properties.len() > MAX_FORM_FIELDS {
        return Some(format!(
            "the input schema has {} properties, more than a form shows ({MAX_FORM_FIELDS})",
            properties.len()
        ));
    }
    for (name, property) in properties {
        if property.get("$ref").is_some() {
            return Some(format!("`{name}` is a `$ref`"));
        }
        let has_choices = property.get("enum").is_some() || property.get("oneOf").is_some();
        match property.get("type") {
            Some(Value::String(t))
                if matches!(t.as_str(), "string" | "number" | "integer" | "boolean") => {}
            None if has_choices => {}
            Some(Value::String(t)) if t == "array" => {
                return Some(format!("`{name}` is an array"));
            }
            Some(Value::String(t)) if t == "object" => {
                return Some(format!("`{name}` is an object"));
            }
            Some(other) => return Some(format!("`{name}` has type {other}")),
            None => return Some(format!("`{name}` has no type")),
        }
    }
    None
}

/// The arguments of a call to `tool` from the form's entries (checked against its schema).
pub fn form_arguments(tool: &ToolSpec, entries: &Map<String, Value>) -> Result<Value, String> {
    content(&fields(&tool.input_schema), entries)
}

/// The arguments of a call to `tool` typed as JSON: an object with every required property.
pub fn json_arguments(tool: &ToolSpec, text: &str) -> Result<Value, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("the arguments are not JSON: {e}"))?;
    let Some(object) = value.as_object() else {
        return Err("the arguments must be a JSON object".into());
    };
    let required = tool
        .input_schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect::<Vec<_>>())
        .unwrap_or_default();
    if let Some(missing) = required.iter().find(|k| !object.contains_key(**k)) {
        return Err(format!("{missing} is required"));
    }
    Ok(value)
}

/// Arguments typed as JSON, checked against the tool's whole `inputSchema` (in the schema
/// worker) before they are sent.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgumentsCheck {
    /// They match: send them.
    Fine,
    /// They break the schema: what the check found, for the user to fix or send anyway (a
    /// debugger may want to see how the server answers them).
    Breaks(String),
    /// The check could not run (the schema is unusable, or the worker failed): send them, and
    /// the server judges.
    NotChecked(String),
}

/// At most this many violations are named.
const NAMED_VIOLATIONS: usize = 3;

impl ArgumentsCheck {
    /// Reads the checker's answer.
    pub fn from_verdict(verdict: Result<Verdict, String>) -> Self {
        match verdict {
            Ok(Verdict::Valid) => Self::Fine,
            Ok(Verdict::Invalid { violations, more }) => {
                let n = violations.len() + more;
                let named: Vec<String> = violations
                    .iter()
                    .take(NAMED_VIOLATIONS)
                    .map(|v| {
                        let at = if v.at.is_empty() {
                            "(arguments)"
                        } else {
                            &v.at
                        };
                        format!("{at}: {}", v.message)
                    })
                    .collect();
                let s = if n == 1 { "" } else { "s" };
                Self::Breaks(format!(
                    "the arguments do not match the tool's inputSchema ({n} violation{s}): {}",
                    named.join("; ")
                ))
            }
            Ok(Verdict::SchemaUnusable { reason }) => Self::NotChecked(format!(
                "the tool's inputSchema cannot be used for a check ({reason})"
            )),
            Err(why) => Self::NotChecked(why),
        }
    }
}

/// The user in the model's place.
pub struct YouModel {
    desk: Rc<UserTurns>,
    clock: SharedClock,
    calls: RefCell<u32>,
}

impl YouModel {
    pub fn new(desk: Rc<UserTurns>, clock: SharedClock) -> Self {
        Self {
            desk,
            clock,
            calls: RefCell::new(0),
        }
    }

    /// The turn `messages` have reached: after a tool result, the answer; else the choice.
    fn turn(messages: &[ChatMessage], tools: &[ToolSpec]) -> Turn {
        let question = messages
            .iter()
            .rev()
            .find_map(|m| match m {
                ChatMessage::User(text) => Some(text.clone()),
                _ => None,
            })
            .unwrap_or_default();
        match messages.last() {
            Some(ChatMessage::ToolResult {
                name,
                content,
                is_error,
                ..
            }) => Turn::Answer {
                question,
                tool: name.clone(),
                result: content.clone(),
                is_error: *is_error,
                tools: tools.to_vec(),
            },
            _ => Turn::Choose {
                question,
                tools: tools.to_vec(),
            },
        }
    }
}

impl Llm for YouModel {
    fn label(&self) -> String {
        LABEL.to_owned()
    }

    /// The tools as the server listed them: that is what the user reads.
    fn format_tools(&self, tools: &[ToolSpec]) -> Value {
        Value::Array(
            tools
                .iter()
                .map(|t| json!({"name": t.name, "description": t.description, "inputSchema": t.input_schema}))
                .collect(),
        )
    }

    async fn complete(
        &self,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> (Result<LlmReply, String>, LlmExchange) {
        let started_ms = self.clock.now_ms();
        let turn = Self::turn(messages, tools);
        let request = match &turn {
            Turn::Choose { question, .. } => json!({"turn": "choose", "question": question}),
            Turn::Answer {
                tool,
                result,
                is_error,
                ..
            } => json!({"turn": "answer", "tool": tool, "result": result, "isError": is_error}),
        };
        let reply = self.desk.ask(turn).await;
        let mut exchange = LlmExchange {
            provider: "you".into(),
            url: String::new(),
            request,
            response: None,
            status: None,
            started_ms,
            finished_ms: self.clock.now_ms(),
            error: None,
        };
        match reply {
            Ok(mut reply) => {
                if let LlmReply::ToolCalls(calls) = &mut reply {
                    let mut n = self.calls.borrow_mut();
                    for call in calls.iter_mut().filter(|c| c.id.is_empty()) {
                        *n += 1;
                        call.id = format!("you_{n}");
                    }
                }
                exchange.response = Some(reply_json(&reply));
                (Ok(reply), exchange)
            }
            Err(_) => {
                let why = "no answer: the run ended while it waited for you".to_owned();
                exchange.error = Some(why.clone());
                (Err(why), exchange)
            }
        }
    }
}

fn reply_json(reply: &LlmReply) -> Value {
    match reply {
        LlmReply::Text(text) => json!({"text": text}),
        LlmReply::ToolCalls(calls) => Value::Array(
            calls
                .iter()
                .map(|c: &ToolCall| json!({"name": c.name, "arguments": c.arguments}))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_arguments_are_judged_by_the_whole_input_schema() {
        use crate::output_check::Violation;
        let violation = |at: &str, message: &str| Violation {
            at: at.into(),
            rule: "/properties/units/enum".into(),
            message: message.into(),
        };
        assert_eq!(
            ArgumentsCheck::from_verdict(Ok(Verdict::Valid)),
            ArgumentsCheck::Fine
        );
        let broken = ArgumentsCheck::from_verdict(Ok(Verdict::Invalid {
            violations: vec![
                violation(
                    "/units",
                    "\"kelvin\" is not one of [\"celsius\",\"fahrenheit\"]",
                ),
                violation("", "\"location\" is a required property"),
                violation("/a", "one"),
                violation("/b", "two"),
            ],
            more: 1,
        }));
        assert_eq!(
            broken,
            ArgumentsCheck::Breaks(
                "the arguments do not match the tool's inputSchema (5 violations): /units: \
                 \"kelvin\" is not one of [\"celsius\",\"fahrenheit\"]; (arguments): \"location\" \
                 is a required property; /a: one"
                    .into()
            )
        );
        assert!(matches!(
            ArgumentsCheck::from_verdict(Ok(Verdict::SchemaUnusable { reason: "bad $ref".into() })),
            ArgumentsCheck::NotChecked(why) if why.contains("bad $ref")
        ));
        assert_eq!(
            ArgumentsCheck::from_verdict(Err("the worker failed".into())),
            ArgumentsCheck::NotChecked("the worker failed".into())
        );
    }
    use crate::llm::{tokyo_conversation, weather_tool};
    use futures_executor::block_on;
    use futures_util::future::join;
    use mcp_flow_client::scripted::Scripted;

    type FieldValue = Rc<RefCell<Vec<Option<Turn>>>>;

    fn desk() -> (Rc<UserTurns>, FieldValue) {
        let shown = Rc::new(RefCell::new(Vec::new()));
        let log = shown.clone();
        (UserTurns::new(move |t| log.borrow_mut().push(t)), shown)
    }

    #[test]
    fn the_user_picks_the_tool_and_then_writes_the_answer() {
        let (desk, shown) = desk();
        let model = YouModel::new(desk.clone(), Rc::new(Scripted::default()));
        let tools = [weather_tool()];
        let question = [ChatMessage::User("What's the weather in Tokyo?".into())];
        let user = async {
            let call = ToolCall {
                id: String::new(),
                name: "get_weather".into(),
                arguments: json!({"location": "Tokyo"}),
            };
            assert!(desk.reply(LlmReply::ToolCalls(vec![call])));
        };
        let ((reply, exchange), ()) = block_on(join(model.complete(&question, &tools), user));
        match reply {
            Ok(LlmReply::ToolCalls(calls)) => {
                assert_eq!(calls[0].name, "get_weather");
                assert_eq!(calls[0].id, "you_1");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(exchange.provider, "you");
        assert_eq!(exchange.request["turn"], "choose");
        assert_eq!(
            shown.borrow()[0],
            Some(Turn::Choose {
                question: "What's the weather in Tokyo?".into(),
                tools: tools.to_vec()
            })
        );
        assert_eq!(shown.borrow()[1], None, "the dialog closes on the reply");

        let user = async {
            assert!(desk.reply(LlmReply::Text("Sunny in Tokyo.".into())));
        };
        let ((reply, exchange), ()) =
            block_on(join(model.complete(&tokyo_conversation(), &tools), user));
        assert_eq!(reply, Ok(LlmReply::Text("Sunny in Tokyo.".into())));
        assert_eq!(exchange.request["result"], "Sunny");
        assert!(
            matches!(&shown.borrow()[2], Some(Turn::Answer { tool, .. }) if tool == "get_weather")
        );
    }

    #[test]
    fn a_run_that_ends_while_waiting_is_an_error_not_a_hang() {
        let (desk, _) = desk();
        let model = YouModel::new(desk.clone(), Rc::new(Scripted::default()));
        let ended = async { desk.clear() };
        let ((reply, exchange), ()) = block_on(join(
            model.complete(&[ChatMessage::User("q".into())], &[weather_tool()]),
            ended,
        ));
        assert!(reply.unwrap_err().contains("run ended"));
        assert!(exchange.error.is_some());
        assert!(
            !desk.reply(LlmReply::Text("late".into())),
            "nothing is asked any more"
        );
    }

    #[test]
    fn a_form_gives_way_to_json_where_it_cannot_express_the_schema() {
        assert_eq!(why_json(&weather_tool().input_schema), None);
        let calculator = json!({"type": "object", "properties": {
            "a": {"type": "number"}, "b": {"type": "number"},
            "op": {"enum": ["add", "sub"]}}, "required": ["a", "b"]});
        assert_eq!(why_json(&calculator), None);
        let cases = [
            (json!({"$ref": "#/$defs/x"}), "`$ref`"),
            (json!({"oneOf": [{}, {}]}), "`oneOf`"),
            (
                json!({"properties": {"days": {"type": "array", "items": {"type": "object"}}}}),
                "`days` is an array",
            ),
            (
                json!({"properties": {"where": {"type": "object"}}}),
                "`where` is an object",
            ),
            (
                json!({"properties": {"x": {"$ref": "#/$defs/x"}}}),
                "`x` is a `$ref`",
            ),
            (
                json!({"properties": {"x": {"type": ["string", "null"]}}}),
                "`x` has type",
            ),
            (json!("string"), "not a JSON object"),
            (json!({"$ref": "#"}), "`$ref`"),
            (
                json!({"properties": (0..5_000)
                    .map(|i| (format!("p{i}"), json!({"type": "string"})))
                    .collect::<serde_json::Map<_, _>>()}),
                "5000 properties, more than a form shows (100)",
            ),
        ];
        for (schema, why) in cases {
            let said = why_json(&schema).unwrap_or_default();
            assert!(said.contains(why), "{schema}: {said}");
        }
    }

    #[test]
    fn arguments_are_checked_against_the_schema_before_the_call() {
        let tool = weather_tool();
        let entries = |v: Value| v.as_object().cloned().unwrap_or_default();
        assert_eq!(
            form_arguments(&tool, &entries(json!({"location": "Tokyo"}))),
            Ok(json!({"location": "Tokyo"}))
        );
        assert_eq!(
            form_arguments(&tool, &entries(json!({}))),
            Err("location is required".into())
        );
        assert_eq!(
            json_arguments(&tool, r#"{"location": "Paris"}"#),
            Ok(json!({"location": "Paris"}))
        );
        assert!(
            json_arguments(&tool, "{}")
                .unwrap_err()
                .contains("location is required")
        );
        assert!(json_arguments(&tool, "[1]").unwrap_err().contains("object"));
        assert!(
            json_arguments(&tool, "{nope")
                .unwrap_err()
                .contains("not JSON")
        );
    }
}
