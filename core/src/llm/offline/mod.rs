//! The built-in offline model: a deterministic rules model that stands in for an LLM, with no
//! network. It reads the tools' names, descriptions and schemas, picks the one tool that fits
//! the question best (a tie or no match means no tool), fills the required arguments from the
//! question by the schema, and phrases the final answer from the tool result in the question's
//! language (English, Chinese, or Japanese when the question has kana). It answers in the OpenAI
//! chat-completions wire shape so the inspector shows what a real provider would exchange.
//!
//! - [`text`]: the question's language and tokens;
//! - [`pick`]: which tool fits;
//! - [`args`] and [`place`]: the arguments, and the place in the sentence;
//! - [`answer`]: everything the model says.

mod answer;
mod args;
#[cfg(test)]
mod held_out;
mod pick;
mod place;
#[cfg(test)]
mod table;
#[cfg(test)]
mod tests;
mod text;

use serde_json::{Value, json};

use super::{ChatMessage, Llm, LlmExchange, LlmReply, ToolCall, ToolSpec, openai};
use args::Gap;
use mcp_flow_client::clock::SharedClock;
use mcp_flow_client::sampling::SamplingRequest;
use pick::Pick;
use text::{Lang, Question};

pub const MODEL: &str = "mcp-flow-offline";

/// How the page names this model.
pub const LABEL: &str = "Built-in offline model";

/// The rules model, with the run's clock for its exchange times.
#[derive(Clone)]
pub struct OfflineModel {
    pub clock: SharedClock,
}

impl OfflineModel {
    pub fn new(clock: SharedClock) -> Self {
        Self { clock }
    }
}

/// What the model decided for a question, before it is phrased.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Call this tool.
    Call(ToolCall),
    /// No tool fits; `tie` names the tools that fit equally well, if that was the reason.
    NoTool { tie: Vec<String> },
    /// The best tool needs an argument the question does not give.
    Missing { tool: String, argument: String },
    /// The question has more numbers than the best tool takes: one call cannot answer it.
    TooManyNumbers { tool: String, taken: usize },
}

/// The decision for a question, given the tools.
pub fn choose(question: &str, tools: &[ToolSpec]) -> Decision {
    let question = Question::new(question);
    match pick::pick(&question, tools) {
        Pick::Nothing => Decision::NoTool { tie: Vec::new() },
        Pick::Tie(names) => Decision::NoTool {
            tie: names.into_iter().map(str::to_owned).collect(),
        },
        Pick::Tool { tool, anchors } => match args::arguments(&question, tool, &anchors) {
            Ok(arguments) => Decision::Call(ToolCall {
                id: "call_1".into(),
                name: tool.name.clone(),
                arguments,
            }),
            Err(Gap::Missing(argument)) => Decision::Missing {
                tool: tool.name.clone(),
                argument,
            },
            Err(Gap::ExtraNumbers { taken, .. }) => Decision::TooManyNumbers {
                tool: tool.name.clone(),
                taken,
            },
        },
    }
}

/// The model's reply to a conversation: after a tool result, the answer from it; otherwise a
/// tool call, or text when no tool fits or an argument is missing.
pub fn decide(messages: &[ChatMessage], tools: &[ToolSpec]) -> LlmReply {
    let question = super::last_question(messages);
    let lang = Lang::of(question);
    if let Some(ChatMessage::ToolResult {
        call_id,
        content,
        is_error,
        structured,
        ..
    }) = messages.last()
    {
        let call = super::answered_call(messages, call_id);
        if let Some(call) = call {
            let tool = tools.iter().find(|t| t.name == call.name);
            return LlmReply::Text(answer::from_result(
                lang,
                &call,
                tool,
                content,
                structured.as_ref(),
                *is_error,
            ));
        }
    }
    match choose(question, tools) {
        Decision::Call(call) => LlmReply::ToolCalls(vec![call]),
        Decision::NoTool { tie } => {
            let tie: Vec<&str> = tie.iter().map(String::as_str).collect();
            LlmReply::Text(answer::no_tool(lang, tools, &tie))
        }
        Decision::Missing { tool, argument } => {
            LlmReply::Text(answer::missing(lang, &tool, &argument))
        }
        Decision::TooManyNumbers { tool, taken } => {
            LlmReply::Text(answer::too_many_numbers(lang, &tool, taken))
        }
    }
}

/// The offline model's answer to a sampling request: it writes no free text, so it says so and
/// hands back the request's last user message, for the user to edit before it goes back.
pub fn sampled(request: &SamplingRequest) -> String {
    let last = request.last_user_text();
    match Lang::of(last) {
        Lang::Zh => format!("（内置离线模型不会自由写作，因此原样返回请求的最后一条消息）{last}"),
        _ => format!(
            "(The built-in offline model writes no free text, so it returns the request's last \
             message.) {last}"
        ),
    }
}

impl OfflineModel {
    /// One of its calls in the OpenAI wire shape: `request`, then `reply` as a response.
    fn exchange(&self, started_ms: f64, request: Value, reply: &LlmReply) -> LlmExchange {
        LlmExchange {
            provider: "offline".into(),
            url: "in-page (no network)".into(),
            request,
            response: Some(openai::response("offline-1", MODEL, reply)),
            status: None,
            started_ms,
            finished_ms: self.clock.now_ms(),
            error: None,
        }
    }
}

impl Llm for OfflineModel {
    fn label(&self) -> String {
        LABEL.into()
    }

    fn format_tools(&self, tools: &[ToolSpec]) -> Value {
        openai::tools(tools)
    }

    async fn complete(
        &self,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> (Result<LlmReply, String>, LlmExchange) {
        let started_ms = self.clock.now_ms();
        let request = json!({
            "model": MODEL,
            "messages": openai::messages(messages),
            "tools": openai::tools(tools),
        });
        let reply = decide(messages, tools);
        let exchange = self.exchange(started_ms, request, &reply);
        (Ok(reply), exchange)
    }

    async fn sample(&self, request: &SamplingRequest) -> (Result<String, String>, LlmExchange) {
        let started_ms = self.clock.now_ms();
        let text = sampled(request);
        let sent = json!({
            "model": MODEL,
            "messages": openai::messages(&super::sampling_messages(request)),
            "max_tokens": request.tokens(),
        });
        let exchange = self.exchange(started_ms, sent, &LlmReply::Text(text.clone()));
        (Ok(text), exchange)
    }
}
