//! The in-page model's decision as the inspector shows it, read from the exchange's recorded
//! response (the worker's `tool_turn` event, kept as JSON): the probability of every choice at
//! the point of choice, and for each argument token the alternatives the model weighed.

use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Each tool (or "no tool") with its probability, most likely first.
    pub choices: Vec<(String, f64)>,
    pub arguments: Vec<Argument>,
    pub constraint: String,
    /// The prompt as the model saw it, chat template applied.
    pub prompt: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Argument {
    pub name: String,
    pub value: String,
    pub steps: Vec<Step>,
}

/// One generated token: its probability, and the alternatives the model weighed (token, p).
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub token: String,
    pub probability: f64,
    pub alternatives: Vec<(String, f64)>,
}

/// The decision in a `{"tool_turn": …}` response (also inside `{"turns": [...]}`), if there is
/// one.
pub fn summary(response: &Value) -> Option<Summary> {
    let turn = match response.get("turns") {
        Some(Value::Array(turns)) => turns.first()?,
        _ => response,
    };
    let decision = turn.get("tool_turn")?.get("decision")?;
    let choices = decision
        .get("choices")?
        .as_array()?
        .iter()
        .map(|c| {
            let name = c
                .get("tool")
                .and_then(Value::as_str)
                .map_or_else(|| "no tool".to_owned(), str::to_owned);
            (
                name,
                c.get("probability").and_then(Value::as_f64).unwrap_or(0.0),
            )
        })
        .collect();
    let arguments = decision
        .get("arguments")
        .and_then(Value::as_array)
        .map(|args| args.iter().map(argument).collect())
        .unwrap_or_default();
    Some(Summary {
        choices,
        arguments,
        constraint: decision
            .get("constraint")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        prompt: decision
            .get("prompt")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    })
}

fn argument(a: &Value) -> Argument {
    let steps = a
        .get("steps")
        .and_then(Value::as_array)
        .map(|steps| {
            steps
                .iter()
                .map(|s| {
                    let alternatives = s
                        .get("alternatives")
                        .and_then(Value::as_array)
                        .map(|alts| {
                            alts.iter()
                                .filter_map(|pair| {
                                    Some((
                                        pair.get(0)?.as_str()?.to_owned(),
                                        pair.get(1)?.as_f64()?,
                                    ))
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    Step {
                        token: s
                            .get("token")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned(),
                        probability: s.get("probability").and_then(Value::as_f64).unwrap_or(0.0),
                        alternatives,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    Argument {
        name: a
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        value: a.get("value").map(Value::to_string).unwrap_or_default(),
        steps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_flow_smollm_wire::{
        ArgumentTrace, Choice, Decision, Event, TokenStep, ToolCallOutcome,
    };
    use serde_json::json;

    #[test]
    fn reads_the_choices_and_each_tokens_alternatives_from_the_recorded_turn() {
        let turn = Event::ToolTurn {
            id: 1,
            outcome: ToolCallOutcome::Call {
                name: "get_weather".into(),
                arguments: json!({"location": "Tokyo"}),
            },
            decision: Decision {
                prompt: "<|im_start|>system".into(),
                constraint: "JSON shaped by the input schema of get_weather".into(),
                choices: vec![
                    Choice {
                        tool: Some("get_weather".into()),
                        probability: 0.96875,
                        log_prob: -0.1,
                    },
                    Choice {
                        tool: None,
                        probability: 0.03125,
                        log_prob: -3.0,
                    },
                ],
                arguments: vec![ArgumentTrace {
                    name: "location".into(),
                    value: json!("Tokyo"),
                    steps: vec![TokenStep {
                        token: "Tokyo".into(),
                        probability: 0.75,
                        alternatives: vec![("Tokyo".into(), 0.75), ("Japan".into(), 0.125)],
                    }],
                }],
                text: "t".into(),
                prompt_tokens: 1,
                generated_tokens: 1,
            },
            ms: 1.0,
            read_ms: None,
        };
        let response = serde_json::to_value(&turn).unwrap();
        let s = summary(&response).expect("a decision");
        assert_eq!(
            s.choices,
            vec![("get_weather".into(), 0.96875), ("no tool".into(), 0.03125)]
        );
        assert_eq!(s.arguments[0].name, "location");
        assert_eq!(s.arguments[0].value, "\"Tokyo\"");
        assert_eq!(
            s.arguments[0].steps[0],
            Step {
                token: "Tokyo".into(),
                probability: 0.75,
                alternatives: vec![("Tokyo".into(), 0.75), ("Japan".into(), 0.125)]
            }
        );
        assert_eq!(
            s.constraint,
            "JSON shaped by the input schema of get_weather"
        );

        let both = json!({"turns": [response, {"answer": {}}]});
        assert_eq!(summary(&both), Some(s));
        assert_eq!(summary(&json!({"answer": {"text": "hi"}})), None);
    }
}
