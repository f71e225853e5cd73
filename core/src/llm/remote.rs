//! A model behind an HTTP API: OpenAI-compatible chat completions (OpenAI, Ollama, llama.cpp
//! server, LM Studio, vLLM, OpenRouter, Groq), Anthropic Messages or Google Gemini. Every call
//! goes through the same [`Http`] the MCP client uses, in either tool-calling style, and is
//! recorded without its key. The wire formats live in one module per provider (`openai`,
//! `anthropic`, `gemini`); this module picks one and makes the call.

use std::pin::pin;

use futures_util::future::{Either, select};
use serde_json::Value;

use super::{ChatMessage, Llm, LlmExchange, LlmReply, Style, ToolSpec};
use super::{anthropic, gemini, openai, prompt_style};
use mcp_flow_client::clock::SharedClock;
use mcp_flow_client::error::clip;
use mcp_flow_client::http::{BodyStream, Http, HttpRequest};
use mcp_flow_client::sampling::SamplingRequest;
use mcp_flow_client::transport::{MAX_BODY, recorded_text};

/// How long a model may take to answer (head and body), unless [`Remote::timeout_ms`] says
/// otherwise. Longer than MCP requests get: a model on a laptop can be slow.
pub const DEFAULT_TIMEOUT_MS: u32 = 60_000;

/// Which HTTP API the model speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    OpenAi,
    Anthropic,
    Gemini,
}

impl Api {
    pub fn name(self) -> &'static str {
        match self {
            Self::OpenAi => "OpenAI-compatible",
            Self::Anthropic => "Anthropic",
            Self::Gemini => "Gemini",
        }
    }

    /// The tools in this API's native format.
    pub fn tools(self, tools: &[ToolSpec]) -> Value {
        match self {
            Self::OpenAi => openai::tools(tools),
            Self::Anthropic => anthropic::tools(tools),
            Self::Gemini => gemini::tools(tools),
        }
    }

    /// The URL of one completion.
    pub fn url(self, base_url: &str, model: &str) -> String {
        match self {
            Self::OpenAi => openai::url(base_url, model),
            Self::Anthropic => anthropic::url(base_url, model),
            Self::Gemini => gemini::url(base_url, model),
        }
    }

    /// The request headers, with the key (if any) where this API wants it.
    pub fn headers(self, key: Option<&str>) -> Vec<(String, String)> {
        match self {
            Self::OpenAi => openai::headers(key),
            Self::Anthropic => anthropic::headers(key),
            Self::Gemini => gemini::headers(key),
        }
    }

    /// The request body of one completion.
    pub fn request_body(self, model: &str, messages: &[ChatMessage], tools: &[ToolSpec]) -> Value {
        match self {
            Self::OpenAi => openai::request_body(model, messages, tools),
            Self::Anthropic => anthropic::request_body(model, messages, tools),
            Self::Gemini => gemini::request_body(model, messages, tools),
        }
    }

    /// A completion's body with a sampling request's limits where this API takes them: the
    /// tokens (capped), the temperature, the stop sequences.
    pub fn with_limits(self, mut body: Value, request: &SamplingRequest) -> Value {
        let tokens = Value::from(request.tokens());
        let temperature = request.temperature.map(|t| Value::from(f64::from(t)));
        let stop = (!request.stop_sequences.is_empty())
            .then(|| Value::from(request.stop_sequences.clone()));
        let Some(map) = body.as_object_mut() else {
            return body;
        };
        let (target, names) = match self {
            Self::OpenAi => (map, ["max_tokens", "temperature", "stop"]),
            Self::Anthropic => (map, ["max_tokens", "temperature", "stop_sequences"]),
            Self::Gemini => {
                let config = map
                    .entry("generationConfig")
                    .or_insert_with(|| Value::Object(serde_json::Map::new()));
                match config.as_object_mut() {
                    Some(config) => (config, ["maxOutputTokens", "temperature", "stopSequences"]),
                    None => return body,
                }
            }
        };
        target.insert(names[0].into(), tokens);
        for (name, value) in [(names[1], temperature), (names[2], stop)] {
            if let Some(value) = value {
                target.insert(name.into(), value);
            }
        }
        body
    }

    /// Reads a response body: tool calls or text, or the provider's error.
    pub fn parse_response(self, response: &Value) -> Result<LlmReply, String> {
        match self {
            Self::OpenAi => openai::parse_response(response),
            Self::Anthropic => anthropic::parse_response(response),
            Self::Gemini => gemini::parse_response(response),
        }
    }
}

pub struct Remote<H: Http> {
    pub http: H,
    /// The run's clock: the exchange's times and the timeout.
    pub clock: SharedClock,
    pub api: Api,
    /// E.g. `http://127.0.0.1:11434/v1` for Ollama.
    pub base_url: String,
    pub model: String,
    /// Kept in memory only; sent in the API's key header, never recorded.
    pub key: Option<String>,
    pub style: Style,
    /// How long to wait for the whole answer, in milliseconds ([`DEFAULT_TIMEOUT_MS`]). When it
    /// passes, the request is dropped, which in a browser aborts the fetch.
    pub timeout_ms: u32,
}

impl<H: Http> Remote<H> {
    /// The URL, headers and body of one completion.
    pub fn request(
        &self,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> (String, Vec<(String, String)>, Value) {
        let prompt;
        let (messages, tools) = match self.style {
            Style::FunctionCalling => (messages, tools),
            Style::SystemPrompt => {
                prompt = prompt_style::prompt_messages(messages, tools);
                (prompt.as_slice(), &[][..])
            }
        };
        let key = self.key.as_deref().filter(|k| !k.is_empty());
        (
            self.api.url(&self.base_url, &self.model),
            self.api.headers(key),
            self.api.request_body(&self.model, messages, tools),
        )
    }

    /// Reads a response body; in the system-prompt style a text reply may carry a tool call.
    pub fn parse(&self, response: &Value) -> Result<LlmReply, String> {
        let reply = self.api.parse_response(response)?;
        Ok(match reply {
            LlmReply::Text(text) if self.style == Style::SystemPrompt => {
                match prompt_style::extract_tool_call(&text) {
                    Some(call) => LlmReply::ToolCalls(vec![call]),
                    None => LlmReply::Text(text),
                }
            }
            other => other,
        })
    }
}

impl<H: Http> Llm for Remote<H> {
    fn label(&self) -> String {
        format!("{} ({})", self.model, self.api.name())
    }

    fn style(&self) -> Style {
        self.style
    }

    fn format_tools(&self, tools: &[ToolSpec]) -> Value {
        match self.style {
            Style::FunctionCalling => self.api.tools(tools),
            Style::SystemPrompt => Value::String(prompt_style::system_prompt(tools)),
        }
    }

    async fn complete(
        &self,
        messages: &[ChatMessage],
        tools: &[ToolSpec],
    ) -> (Result<LlmReply, String>, LlmExchange) {
        self.exchange(self.request(messages, tools)).await
    }

    async fn sample(&self, request: &SamplingRequest) -> (Result<String, String>, LlmExchange) {
        let (url, headers, body) = self.request(&super::sampling_messages(request), &[]);
        let body = self.api.with_limits(body, request);
        let (reply, exchange) = self.exchange((url, headers, body)).await;
        (reply.map(LlmReply::into_text), exchange)
    }
}

impl<H: Http> Remote<H> {
    /// Sends one completion (URL, headers, body) and reads its answer, under the timeout.
    async fn exchange(
        &self,
        (url, headers, body): (String, Vec<(String, String)>, Value),
    ) -> (Result<LlmReply, String>, LlmExchange) {
        let mut exchange = LlmExchange {
            provider: self.api.name().to_owned(),
            url: url.clone(),
            request: body.clone(),
            response: None,
            status: None,
            started_ms: self.clock.now_ms(),
            finished_ms: 0.0,
            error: None,
        };
        let request = HttpRequest {
            method: "POST",
            url,
            headers,
            body: Some(body.to_string()),
        };
        let ms = self.timeout_ms.max(1);
        let mut status = None;
        let mut arrived = Vec::new();
        let finished = {
            // Whichever of the two loses is dropped at the end of this block: on a timeout that
            // is the request with its body, which aborts the fetch in a browser.
            let read = pin!(self.read_answer(&request, &mut status, &mut arrived));
            let timer = pin!(self.clock.sleep(ms));
            match select(read, timer).await {
                Either::Left((read, _)) => Some(read),
                Either::Right(((), _)) => None,
            }
        };
        let read = finished.unwrap_or_else(|| {
            Err(format!(
                "the model did not answer within {}{}",
                duration(ms),
                match status {
                    Some(status) => format!(
                        " (HTTP {status} came, then {} bytes of the answer)",
                        arrived.len()
                    ),
                    None => String::new(),
                }
            ))
        });
        exchange.status = status;
        let result = read.and_then(|()| {
            let status = status.unwrap_or(0);
            let text = String::from_utf8_lossy(&arrived);
            let value: Value = serde_json::from_str(&text).map_err(|e| {
                format!(
                    "HTTP {status}: the reply is not JSON ({e}): {}",
                    clip(&text, 200)
                )
            })?;
            exchange.response = Some(value.clone());
            match self.parse(&value) {
                Err(e) => Err(format!("HTTP {status}: {e}")),
                Ok(r) if (200..300).contains(&status) => Ok(r),
                Ok(_) => Err(format!("HTTP {status}")),
            }
        });
        // Whatever arrived stays in the record, as text when it is not (whole) JSON.
        if exchange.response.is_none() && !arrived.is_empty() {
            exchange.response = Some(Value::String(recorded_text(&arrived)));
        }
        exchange.finished_ms = self.clock.now_ms();
        exchange.error = result.as_ref().err().cloned();
        (result, exchange)
    }

    /// Sends the request and reads the answer into `arrived` (at most [`MAX_BODY`] bytes),
    /// noting the status as soon as the head is in.
    async fn read_answer(
        &self,
        request: &HttpRequest,
        status: &mut Option<u16>,
        arrived: &mut Vec<u8>,
    ) -> Result<(), String> {
        let mut response =
            self.http.send(request).await.map_err(|e| {
                format!("no response from the model's endpoint (network or CORS): {e}")
            })?;
        *status = Some(response.status);
        while let Some(chunk) = response
            .body
            .chunk()
            .await
            .map_err(|e| format!("the model's answer broke off: {e}"))?
        {
            arrived.extend_from_slice(&chunk);
            if arrived.len() > MAX_BODY {
                return Err(format!(
                    "the model's answer passed {} MiB, the most this app reads, so it stopped \
                     reading",
                    MAX_BODY / (1024 * 1024)
                ));
            }
        }
        Ok(())
    }
}

/// `60 s` for whole seconds, `1500 ms` otherwise.
fn duration(ms: u32) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_flow_client::scripted::{Script, Scripted, json_reply};
    use serde_json::json;
    use std::rc::Rc;

    fn weather() -> ToolSpec {
        crate::llm::weather_tool()
    }

    fn remote(api: Api, style: Style) -> (Rc<Scripted>, Remote<Rc<Scripted>>) {
        let http = Rc::new(Scripted::default());
        let remote = Remote {
            http: http.clone(),
            clock: http.clone(),
            api,
            base_url: "http://127.0.0.1:11434/v1/".into(),
            model: "qwen2.5".into(),
            key: Some("sk-secret".into()),
            style,
            timeout_ms: DEFAULT_TIMEOUT_MS,
        };
        (http, remote)
    }

    /// The documented OpenAI shape of a tool-call reply.
    const OPENAI_TOOL_CALL: &str = r#"{"id":"chatcmpl-abc","object":"chat.completion","created":1700000000,
        "model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":null,
        "tool_calls":[{"id":"call_Q1","type":"function","function":{"name":"get_weather",
        "arguments":"{\"location\":\"Tokyo\"}"}}]},"finish_reason":"tool_calls"}],
        "usage":{"prompt_tokens":80,"completion_tokens":17,"total_tokens":97}}"#;

    /// Ollama's OpenAI-compatible endpoint answering in text (system-prompt style).
    const OLLAMA_TEXT: &str = r#"{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,
        "model":"qwen2.5:7b","system_fingerprint":"fp_ollama","choices":[{"index":0,
        "message":{"role":"assistant","content":"```json\n{\"tool_name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}\n```"},
        "finish_reason":"stop"}]}"#;

    fn value(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn a_sampling_completion_carries_the_requests_limits_in_each_apis_words() {
        use mcp_flow_client::sampling::{SampleMessage, SampleRole};
        let request = SamplingRequest {
            messages: vec![SampleMessage {
                role: SampleRole::User,
                text: "Tip?".into(),
            }],
            system_prompt: Some("Be brief.".into()),
            max_tokens: 1_000_000,
            temperature: Some(0.5),
            stop_sequences: vec!["END".into()],
            ..Default::default()
        };
        let body = |api: Api| {
            let (_, remote) = remote(api, Style::FunctionCalling);
            let (_, _, body) = remote.request(&crate::llm::sampling_messages(&request), &[]);
            api.with_limits(body, &request)
        };
        let openai = body(Api::OpenAi);
        assert_eq!(openai["max_tokens"], 4096, "capped");
        assert_eq!(openai["temperature"], 0.5);
        assert_eq!(openai["stop"], json!(["END"]));
        assert_eq!(openai["messages"][0]["role"], "system");
        let anthropic = body(Api::Anthropic);
        assert_eq!(anthropic["max_tokens"], 4096);
        assert_eq!(anthropic["stop_sequences"], json!(["END"]));
        let gemini = body(Api::Gemini);
        assert_eq!(gemini["generationConfig"]["maxOutputTokens"], 4096);
        assert_eq!(gemini["generationConfig"]["stopSequences"], json!(["END"]));
        assert!(
            openai
                .get("tools")
                .is_none_or(|t| t.as_array().is_some_and(Vec::is_empty) || t.is_null())
        );
    }

    #[test]
    fn system_prompt_replies_are_extracted_and_plain_text_stays_text() {
        let v = value(OLLAMA_TEXT);
        for api in [Api::OpenAi, Api::Anthropic, Api::Gemini] {
            let (_, prompt) = remote(api, Style::SystemPrompt);
            let v = match api {
                Api::OpenAi => v.clone(),
                Api::Anthropic => json!({"content": [{"type": "text",
                    "text": v["choices"][0]["message"]["content"]}]}),
                Api::Gemini => json!({"candidates": [{"content": {"parts": [{
                    "text": v["choices"][0]["message"]["content"]}]}}]}),
            };
            assert!(
                matches!(prompt.parse(&v).unwrap(),
                    LlmReply::ToolCalls(c) if c[0].arguments == json!({"location": "Tokyo"})),
                "{api:?}"
            );
            // In function-calling style the same text is just text.
            let (_, native) = remote(api, Style::FunctionCalling);
            assert!(matches!(native.parse(&v).unwrap(), LlmReply::Text(_)));
        }
        let (_, prompt) = remote(Api::OpenAi, Style::SystemPrompt);
        let answer = json!({"choices":[{"message":{"role":"assistant","content":"The weather in Tokyo is sunny."}}]});
        assert_eq!(
            prompt.parse(&answer).unwrap(),
            LlmReply::Text("The weather in Tokyo is sunny.".into())
        );
    }

    fn conversation() -> Vec<ChatMessage> {
        crate::llm::tokyo_conversation()
    }

    #[test]
    fn requests_carry_tools_natively_or_in_the_system_prompt() {
        let (_, native) = remote(Api::OpenAi, Style::FunctionCalling);
        let (url, _, body) = native.request(&conversation(), &[weather()]);
        assert_eq!(url, "http://127.0.0.1:11434/v1/chat/completions");
        assert_eq!(body["tools"][0]["function"]["name"], "get_weather");
        assert_eq!(body["messages"][2]["role"], "tool");
        assert_eq!(
            body["messages"][1]["tool_calls"][0]["function"]["arguments"],
            r#"{"location":"Tokyo"}"#
        );

        let (_, prompt) = remote(Api::OpenAi, Style::SystemPrompt);
        let (_, _, body) = prompt.request(&conversation(), &[weather()]);
        assert!(body.get("tools").is_none());
        let msgs = body["messages"].as_array().unwrap();
        assert_eq!(msgs[0]["role"], "system");
        assert!(
            msgs[0]["content"]
                .as_str()
                .unwrap()
                .contains("Tool: get_weather")
        );
        assert_eq!(
            msgs[2]["content"],
            r#"{"arguments":{"location":"Tokyo"},"tool_name":"get_weather"}"#
        );
        assert_eq!(msgs[3]["role"], "user");
        assert_eq!(
            msgs[3]["content"],
            "Tool 'get_weather' returned: 'Sunny'. Answer the original question based on this."
        );

        // The other APIs in the system-prompt style: the prompt in their system slot, no tools.
        let (_, claude) = remote(Api::Anthropic, Style::SystemPrompt);
        let (url, _, body) = claude.request(&conversation(), &[weather()]);
        assert_eq!(url, "http://127.0.0.1:11434/v1/messages");
        assert!(
            body["system"]
                .as_str()
                .unwrap()
                .contains("Tool: get_weather")
        );
        assert!(body.get("tools").is_none());
        let (_, gem) = remote(Api::Gemini, Style::SystemPrompt);
        let (url, _, body) = gem.request(&conversation(), &[weather()]);
        assert!(url.ends_with("/models/qwen2.5:generateContent"), "{url}");
        assert!(body.get("tools").is_none());
        assert_eq!(body["contents"][2]["role"], "user");
    }

    #[test]
    fn a_completion_goes_over_http_and_the_key_stays_out_of_the_record() {
        for (api, header, reply) in [
            (
                Api::OpenAi,
                ("Authorization", "Bearer sk-secret"),
                value(OPENAI_TOOL_CALL),
            ),
            (
                Api::Anthropic,
                ("x-api-key", "sk-secret"),
                json!({"content": [{"type": "tool_use", "id": "t1", "name": "get_weather",
                    "input": {"location": "Tokyo"}}], "stop_reason": "tool_use"}),
            ),
            (
                Api::Gemini,
                ("x-goog-api-key", "sk-secret"),
                json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall":
                    {"name": "get_weather", "args": {"location": "Tokyo"}}}]}}]}),
            ),
        ] {
            let (http, llm) = remote(api, Style::FunctionCalling);
            http.script.borrow_mut().push_back(json_reply(reply));
            let messages = [ChatMessage::User("What's the weather in Tokyo?".into())];
            let (reply, exchange) =
                futures_executor::block_on(llm.complete(&messages, &[weather()]));
            assert!(
                matches!(reply, Ok(LlmReply::ToolCalls(_))),
                "{api:?}: {reply:?}"
            );
            let sent = &http.sent.borrow()[0];
            assert!(
                sent.headers.contains(&(header.0.into(), header.1.into())),
                "{api:?}"
            );
            assert!(!sent.url.contains("sk-secret"));
            assert_eq!(exchange.status, Some(200));
            assert_eq!(exchange.provider, api.name());
            assert!(
                !serde_json::to_string(&exchange)
                    .unwrap()
                    .contains("sk-secret")
            );
        }
    }

    #[test]
    fn a_slow_model_times_out_and_the_request_is_dropped() {
        let messages = [ChatMessage::User("What's the weather in Tokyo?".into())];
        // No response head at all.
        let (http, mut llm) = remote(Api::OpenAi, Style::FunctionCalling);
        llm.timeout_ms = 60_000;
        http.script.borrow_mut().push_back(Script::Hang);
        let (reply, exchange) = futures_executor::block_on(llm.complete(&messages, &[weather()]));
        assert_eq!(
            reply,
            Err("the model did not answer within 60 s".to_owned())
        );
        assert_eq!(*http.sleeps.borrow(), [60_000]);
        assert_eq!(http.alive.get(), 0, "the hanging request was dropped");
        assert_eq!(exchange.error, reply.err());
        assert_eq!(exchange.request["messages"][0]["content"], messages_text());
        assert_eq!((exchange.status, exchange.response), (None, None));

        // The head and the start of the body, then nothing: what came stays in the record.
        let (http, mut llm) = remote(Api::Anthropic, Style::FunctionCalling);
        llm.timeout_ms = 1_500;
        http.script.borrow_mut().push_back(Script::Stall {
            status: 200,
            headers: vec![("content-type", "application/json".into())],
            chunks: vec![br#"{"content": [{"type": "te"#.to_vec()],
        });
        let (reply, exchange) = futures_executor::block_on(llm.complete(&messages, &[weather()]));
        let err = reply.unwrap_err();
        assert!(
            err.starts_with("the model did not answer within 1500 ms (HTTP 200 came"),
            "{err}"
        );
        assert_eq!(http.alive.get(), 0, "the stalled body was dropped");
        assert_eq!(exchange.status, Some(200));
        assert_eq!(
            exchange.response,
            Some(Value::String(r#"{"content": [{"type": "te"#.into()))
        );
        assert_eq!(exchange.error, Some(err));
        assert_eq!(exchange.request["messages"][0]["content"], messages_text());
    }

    fn messages_text() -> &'static str {
        "What's the weather in Tokyo?"
    }

    #[test]
    fn a_huge_answer_is_cut_at_4_mib() {
        let (http, llm) = remote(Api::Gemini, Style::FunctionCalling);
        let mib = vec![b'x'; 1024 * 1024];
        http.script.borrow_mut().push_back(Script::Respond {
            status: 200,
            headers: vec![("content-type", "application/json".into())],
            chunks: vec![mib; 6],
        });
        let messages = [ChatMessage::User("What's the weather in Tokyo?".into())];
        let (reply, exchange) = futures_executor::block_on(llm.complete(&messages, &[weather()]));
        let err = reply.unwrap_err();
        assert!(err.starts_with("the model's answer passed 4 MiB"), "{err}");
        assert_eq!(http.alive.get(), 0);
        assert_eq!(exchange.status, Some(200));
        assert_eq!(exchange.error, Some(err));
        assert_eq!(
            exchange.request["contents"][0]["parts"][0]["text"],
            messages_text()
        );
        // The record keeps the first MiB of what arrived, and says how much more came.
        let Some(Value::String(kept)) = &exchange.response else {
            panic!("{:?}", exchange.response.map(|_| "not text"));
        };
        assert!(kept.starts_with("xxxx"));
        assert!(
            kept.ends_with(&format!(
                "[… {} more bytes not kept in the record]",
                5 * 1024 * 1024 - mcp_flow_client::transport::MAX_RECORDED_BODY
            )),
            "{}",
            clip(&kept[kept.len() - 80..], 80)
        );
    }

    #[test]
    fn a_reply_that_is_not_json_is_kept_as_text() {
        let (http, llm) = remote(Api::OpenAi, Style::FunctionCalling);
        http.script.borrow_mut().push_back(Script::Respond {
            status: 502,
            headers: vec![("content-type", "text/html".into())],
            chunks: vec![b"<html>Bad Gateway</html>".to_vec()],
        });
        let messages = [ChatMessage::User("hi".into())];
        let (reply, exchange) = futures_executor::block_on(llm.complete(&messages, &[]));
        assert!(
            reply
                .unwrap_err()
                .starts_with("HTTP 502: the reply is not JSON")
        );
        assert_eq!(
            exchange.response,
            Some(Value::String("<html>Bad Gateway</html>".into()))
        );
    }
}
