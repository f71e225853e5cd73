//! The tool-call turn. The assistant's reply is `{"tool_name": "…", "arguments": {…}}`:
//!
//! 1. The prompt and the fixed opening `{"tool_name": "` are fed.
//! 2. The point of choice: each listed tool's name, and "none" (no tool fits), is scored by the
//!    model's own probability of writing it there (followed by `",`); the choice is the most
//!    likely one (or sampled, at a temperature). These probabilities are the [`Decision`].
//! 3. The arguments are generated token by token, each token masked by the chosen tool's
//!    `inputSchema` ([`Grammar`]), so the call is valid against it. A schema the constraint
//!    cannot express falls back to unconstrained generation and lenient extraction, and the
//!    decision says so.

use serde::Serialize;
use serde_json::Value;

use crate::Error;
use crate::chat::{self, Message, Role};
use crate::constraint::Grammar;
use crate::decision::{ArgumentTrace, Choice, Decision, TokenStep};
use crate::engine::Engine;
use crate::model::Model;
use crate::sampling::{self, Rng, Sampling};
use crate::tokenizer::TokenId;

pub use mcp_flow_smollm_wire::decision::ToolCallOutcome;
pub use mcp_flow_smollm_wire::prompt::{Tool, no_tool_name, system_prompt};

/// A tool-call turn: what the model decided, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolTurn {
    pub outcome: ToolCallOutcome,
    pub decision: Decision,
}

const OPENING: &str = "{\"tool_name\": \"";
/// Upper bound on generated argument tokens (the constraint ends sooner: strings and numbers are
/// bounded).
const MAX_ARGUMENT_TOKENS: usize = 160;
const ALTERNATIVES: usize = 5;

impl Model {
    /// The tool-call turn for a conversation. Without a system message first, the tools'
    /// [`system_prompt`] is put there. `on_token` receives the reply's text as it is written.
    pub fn tool_call(
        &self,
        messages: &[Message],
        tools: &[Tool],
        sampling: Sampling,
        on_token: &mut dyn FnMut(&str),
    ) -> Result<ToolTurn, Error> {
        let mut conversation = Vec::with_capacity(messages.len() + 1);
        if messages.first().map(|m| m.role) != Some(Role::System) {
            conversation.push(Message::system(system_prompt(tools)));
        }
        conversation.extend_from_slice(messages);
        let prompt = chat::render(&conversation);
        let (engine, logits, prompt_tokens) = self.read(&conversation, OPENING)?;
        on_token(OPENING);
        let mut text = String::from(OPENING);

        let none = no_tool_name(tools);
        let mut options: Vec<Scored> = Vec::with_capacity(tools.len() + 1);
        for name in tools.iter().map(|t| t.name.as_str()).chain([none]) {
            options.push(self.score(&engine, &logits, name)?);
        }
        let choices = normalise(&options);
        let mut rng = Rng::new(sampling.seed);
        let as_dist: Vec<(u32, f32)> = choices
            .iter()
            .enumerate()
            .map(|(i, c)| (i as u32, c.1))
            .collect();
        let picked = sampling::pick(&as_dist, &sampling, &mut rng).unwrap_or(0) as usize;
        let chosen_index = choices.get(picked).map(|c| c.0).unwrap_or(0);
        let chosen = options
            .into_iter()
            .nth(chosen_index)
            .ok_or_else(|| Error::Engine("no option to choose".into()))?;
        let choice_list: Vec<Choice> = choices
            .iter()
            .map(|&(i, p, lp)| Choice {
                tool: tools.get(i).map(|t| t.name.clone()),
                probability: p,
                log_prob: lp,
            })
            .collect();
        let named = format!("{}\",", chosen.name);
        on_token(&named);
        text.push_str(&named);
        let mut decision = Decision {
            prompt,
            constraint: String::new(),
            choices: choice_list,
            arguments: Vec::new(),
            text: String::new(),
            prompt_tokens,
            generated_tokens: 0,
        };

        let Some(tool) = tools.iter().find(|t| t.name == chosen.name) else {
            let rest = " \"arguments\": {}}";
            on_token(rest);
            text.push_str(rest);
            decision.constraint = format!(
                "the tool name is one of the {} listed tools or \"{none}\"",
                tools.len()
            );
            decision.text = text;
            decision.generated_tokens = chosen.tokens;
            return Ok(ToolTurn {
                outcome: ToolCallOutcome::NoTool,
                decision,
            });
        };

        let generated = match Grammar::for_arguments(&tool.input_schema) {
            Ok(grammar) => {
                decision.constraint = format!(
                    "the tool name is one of the {} listed tools or \"{none}\"; the arguments \
                     follow the input schema of {}",
                    tools.len(),
                    tool.name
                );
                self.constrained(chosen, &grammar, sampling, &mut rng, on_token)?
            }
            Err(unsupported) => {
                decision.constraint = format!(
                    "the tool name is one of the {} listed tools or \"{none}\"; the arguments \
                     are unconstrained ({unsupported}) and extracted leniently",
                    tools.len()
                );
                self.unconstrained(chosen, sampling, &mut rng, on_token)?
            }
        };
        text.push_str(&generated.text);
        decision.generated_tokens = generated.tokens;
        let Some(arguments) = arguments_from(&text) else {
            // Only unconstrained generation can get here: the constraint always closes the call.
            decision.text = text;
            return Ok(ToolTurn {
                outcome: ToolCallOutcome::Unparsed {
                    name: tool.name.clone(),
                },
                decision,
            });
        };
        decision.arguments = generated
            .slots
            .into_iter()
            .map(|(name, steps)| ArgumentTrace {
                value: arguments.get(&name).cloned().unwrap_or(Value::Null),
                name,
                steps,
            })
            .collect();
        decision.text = text;
        Ok(ToolTurn {
            outcome: ToolCallOutcome::Call {
                name: tool.name.clone(),
                arguments,
            },
            decision,
        })
    }

    /// Feeds `name",` after the opening; the model's log-probability of writing it.
    fn score(&self, engine: &Engine, logits: &[f32], name: &str) -> Result<Scored, Error> {
        let ids = self.tokenizer.encode(&format!("{name}\","));
        let mut engine = engine.clone();
        let mut logits = logits.to_vec();
        let mut log_prob = 0.0;
        for &id in &ids {
            log_prob += sampling::log_prob(&logits, id);
            logits = engine.feed(&[id])?;
        }
        Ok(Scored {
            name: name.to_owned(),
            log_prob,
            tokens: ids.len(),
            engine,
            logits,
        })
    }

    fn constrained(
        &self,
        start: Scored,
        grammar: &Grammar,
        sampling: Sampling,
        rng: &mut Rng,
        on_token: &mut dyn FnMut(&str),
    ) -> Result<Generated, Error> {
        let vocab: Vec<&[u8]> = (0..self.tokenizer.vocab_size() as TokenId)
            .map(|id| {
                if self.tokenizer.is_control(id) {
                    &[][..]
                } else {
                    self.tokenizer.token_bytes(id)
                }
            })
            .collect();
        let Scored {
            mut engine,
            mut logits,
            tokens,
            ..
        } = start;
        let mut state = grammar.start();
        let mut bytes = Vec::new();
        let mut slots: Vec<(String, Vec<TokenStep>)> = Vec::new();
        let mut steps = 0;
        while !grammar.is_finished(&state) {
            if steps >= MAX_ARGUMENT_TOKENS {
                return Err(Error::Engine(format!(
                    "no complete call within {MAX_ARGUMENT_TOKENS} tokens"
                )));
            }
            let allowed = grammar.allowed(&state, &vocab);
            let dist = sampling::distribution(&logits, Some(&allowed));
            let next = sampling::pick(&dist, &sampling, rng)
                .ok_or_else(|| Error::Engine("the constraint allows no token".into()))?;
            let piece = self.tokenizer.token_bytes(next);
            if let Some(slot) = grammar.slot(&state) {
                let name = grammar
                    .slots
                    .get(slot as usize)
                    .cloned()
                    .unwrap_or_default();
                let step = TokenStep {
                    token: String::from_utf8_lossy(piece).into_owned(),
                    probability: dist
                        .iter()
                        .find(|(id, _)| *id == next)
                        .map(|d| d.1)
                        .unwrap_or(0.0),
                    alternatives: dist
                        .iter()
                        .take(ALTERNATIVES)
                        .map(|&(id, p)| {
                            let text = String::from_utf8_lossy(self.tokenizer.token_bytes(id));
                            (text.into_owned(), p)
                        })
                        .collect(),
                };
                match slots.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, list)) => list.push(step),
                    None => slots.push((name, vec![step])),
                }
            }
            state = grammar
                .advance(&state, piece)
                .ok_or_else(|| Error::Engine("the constraint refused its own token".into()))?;
            bytes.extend_from_slice(piece);
            on_token(&String::from_utf8_lossy(piece));
            steps += 1;
            if !grammar.is_finished(&state) {
                logits = engine.feed(&[next])?;
            }
        }
        Ok(Generated {
            text: String::from_utf8_lossy(&bytes).into_owned(),
            tokens: tokens + steps,
            slots,
        })
    }

    /// Free generation to the end of the turn, for schemas the constraint cannot express.
    fn unconstrained(
        &self,
        start: Scored,
        sampling: Sampling,
        rng: &mut Rng,
        on_token: &mut dyn FnMut(&str),
    ) -> Result<Generated, Error> {
        let Scored {
            mut engine,
            mut logits,
            tokens,
            ..
        } = start;
        let mut out = Vec::new();
        while out.len() < MAX_ARGUMENT_TOKENS {
            let dist = sampling::distribution(&logits, None);
            let Some(next) = sampling::pick(&dist, &sampling, rng) else {
                break;
            };
            if self.is_end(next) {
                break;
            }
            out.push(next);
            on_token(&String::from_utf8_lossy(self.tokenizer.token_bytes(next)));
            logits = engine.feed(&[next])?;
        }
        Ok(Generated {
            text: self.tokenizer.decode(&out),
            tokens: tokens + out.len(),
            slots: Vec::new(),
        })
    }
}

struct Scored {
    name: String,
    log_prob: f32,
    tokens: usize,
    engine: Engine,
    logits: Vec<f32>,
}

struct Generated {
    text: String,
    tokens: usize,
    slots: Vec<(String, Vec<TokenStep>)>,
}

/// (option index, probability, log-probability), most likely first; index `tools.len()` is
/// "no tool".
fn normalise(options: &[Scored]) -> Vec<(usize, f32, f32)> {
    let max = options
        .iter()
        .map(|o| o.log_prob)
        .fold(f32::NEG_INFINITY, f32::max);
    let weights: Vec<f32> = options.iter().map(|o| (o.log_prob - max).exp()).collect();
    let total: f32 = weights.iter().sum();
    let mut out: Vec<(usize, f32, f32)> = options
        .iter()
        .enumerate()
        .map(|(i, o)| (i, weights[i] / total.max(f32::MIN_POSITIVE), o.log_prob))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out
}

/// The `arguments` object of a reply: parsed whole when it is valid JSON, else the first
/// balanced `{…}` after `"arguments"` that parses (lenient extraction).
pub fn arguments_from(text: &str) -> Option<Value> {
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        return v.get("arguments").filter(|a| a.is_object()).cloned();
    }
    let after = &text[text.find("\"arguments\"")?..];
    let open = after.find('{')?;
    let body = &after[open..];
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '{' if !in_string => depth += 1,
            '}' if !in_string => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return serde_json::from_str(&body[..=i]).ok();
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn extracts_arguments_strictly_or_leniently() {
        assert_eq!(
            arguments_from(r#"{"tool_name": "add", "arguments": {"a": 1, "b": 2}}"#),
            Some(json!({"a": 1, "b": 2}))
        );
        assert_eq!(
            arguments_from(
                r#"{"tool_name": "t", "arguments": {"q": "a}b", "n": {"x": 1}}} and more"#
            ),
            Some(json!({"q": "a}b", "n": {"x": 1}}))
        );
        assert_eq!(arguments_from(r#"{"tool_name": "t", "arguments": {"#), None);
    }
}
