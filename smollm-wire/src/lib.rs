//! The in-page language model speaks to the page through a Web Worker's messages: the page sends
//! a [`Request`], the worker answers with [`Event`]s, each as one JSON string, named by its
//! variant (`{"tool_call": {...}}`; serde's internally tagged form costs the page's first load
//! several kilobytes more to parse). The types live here,
//! apart from the engine, so the page reads them without compiling the model.

pub mod decision;
pub mod prompt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use decision::{ArgumentTrace, Choice, Decision, TokenStep, ToolCallOutcome};
pub use prompt::{Tool, system_prompt};

/// The model file `cargo xtask` prepares and `weather-server --models` serves at `/models/`.
pub const MODEL_FILE: &str = "SmolLM2-135M-Instruct.Q8_0.gguf";

/// The model as the pinned package names it (the GGUF's own `general.name` is its training
/// run's, "Smollm2 135M 8k Lc100K Mix1 Ep2").
pub const MODEL_TITLE: &str = "SmolLM2-135M-Instruct";

/// Its size in bytes (pinned with its hash by `cargo xtask`), told to the user before the
/// download.
pub const MODEL_BYTES: u64 = 144_811_040;

/// The worker's script as Trunk emits it (`data-type="worker" data-loader-shim`).
pub const WORKER_SCRIPT: &str = "smollm-worker_loader.js";

/// Greedy unless `temperature` is above zero; `seed` makes a sampled run repeatable.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    pub temperature: f32,
    pub seed: u64,
}

impl Default for Sampling {
    fn default() -> Self {
        Self {
            temperature: 0.0,
            seed: 0,
        }
    }
}

/// What the page asks the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// Fetch the model file at `url` (or take it from the Cache API) and load it.
    Load { url: String },
    /// The tool-call turn: which of `tools` (MCP tools: `name`, `description`, `inputSchema`)
    /// answers `question`, and with which arguments.
    ToolCall {
        id: u32,
        question: String,
        tools: Vec<Value>,
        /// The system message that presents the tools; `None`: [`system_prompt`]'s.
        #[serde(default)]
        system: Option<String>,
        sampling: Sampling,
    },
    /// The answer turn, after the model called `tool` with `arguments` and it returned `result`.
    Answer {
        id: u32,
        question: String,
        tool: String,
        arguments: Value,
        result: String,
        sampling: Sampling,
    },
    /// A free-text reply to `question`, with no tools (after the model chose none).
    Reply {
        id: u32,
        question: String,
        sampling: Sampling,
    },
}

/// Where loading the model is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Bytes arriving from the server.
    Download,
    /// Bytes read back from the browser's Cache API.
    Cache,
    /// The weights being read into the engine.
    Load,
}

/// The model the worker has loaded: what it is, how big, from where, how long it took.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Loaded {
    pub model: String,
    pub quantization: String,
    pub bytes: u64,
    /// The file came from the Cache API, not the network.
    pub from_cache: bool,
    /// Why the file could not be kept in the Cache API, if it could not.
    pub cache_note: Option<String>,
    pub load_ms: f64,
}

/// What the worker tells the page. The decision's type is a parameter: the worker writes a
/// [`Decision`]; the page reads it as plain JSON ([`PageEvent`]), which keeps the decision's
/// parser out of the app's first load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event<D = Decision> {
    /// The worker is listening. A worker's script finishes before its wasm has started, and a
    /// message sent before then finds no listener: the page holds its requests until this.
    Started,
    Progress {
        phase: Phase,
        done: u64,
        total: Option<u64>,
    },
    Ready(Loaded),
    /// Text the model just wrote for request `id`.
    Token {
        id: u32,
        text: String,
    },
    ToolTurn {
        id: u32,
        outcome: ToolCallOutcome,
        decision: D,
        ms: f64,
        /// Until the first text: the time spent reading the prompt.
        #[serde(default)]
        read_ms: Option<f64>,
    },
    Answer {
        id: u32,
        text: String,
        prompt_tokens: usize,
        generated_tokens: usize,
        /// The model ended its turn (rather than reaching the length bound).
        finished: bool,
        ms: f64,
        /// Until the first text: the time spent reading the prompt.
        #[serde(default)]
        read_ms: Option<f64>,
    },
    /// Request `id` (or loading, `None`) failed.
    Failed {
        id: Option<u32>,
        message: String,
    },
}

/// An [`Event`] as the page reads it: the decision as JSON.
pub type PageEvent = Event<Value>;

/// Generated tokens per second, when the time is known.
pub fn tokens_per_second(tokens: usize, ms: f64) -> Option<f64> {
    (ms > 0.0 && tokens > 0).then(|| tokens as f64 * 1000.0 / ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn requests_and_events_round_trip_as_tagged_json() {
        let request = Request::ToolCall {
            id: 3,
            question: "What's the weather in Tokyo?".into(),
            tools: vec![json!({"name": "get_weather", "inputSchema": {"type": "object"}})],
            system: None,
            sampling: Sampling::default(),
        };
        let text = serde_json::to_string(&request).unwrap();
        assert!(text.starts_with(r#"{"tool_call":{"id":3,"#), "{text}");
        assert_eq!(serde_json::from_str::<Request>(&text).unwrap(), request);

        let event: Event = serde_json::from_value(json!({
            "progress": {"phase": "download", "done": 10, "total": 100}
        }))
        .unwrap();
        assert_eq!(
            event,
            Event::Progress {
                phase: Phase::Download,
                done: 10,
                total: Some(100)
            }
        );
        assert!(serde_json::from_str::<Event>(r#"{"nonsense":{}}"#).is_err());
        assert_eq!(
            serde_json::to_string(&Event::<Decision>::Started).unwrap(),
            r#""started""#
        );

        // What the worker writes, the page reads, the decision kept whole.
        let turn = Event::ToolTurn {
            id: 1,
            outcome: ToolCallOutcome::NoTool,
            decision: Decision {
                prompt: "p".into(),
                constraint: "c".into(),
                choices: vec![Choice {
                    tool: None,
                    probability: 1.0,
                    log_prob: -0.5,
                }],
                arguments: vec![],
                text: "t".into(),
                prompt_tokens: 3,
                generated_tokens: 2,
            },
            ms: 5.0,
            read_ms: None,
        };
        let read: PageEvent = serde_json::from_str(&serde_json::to_string(&turn).unwrap()).unwrap();
        let Event::ToolTurn { decision, .. } = read else {
            panic!("{read:?}");
        };
        assert_eq!(decision["choices"][0]["probability"], 1.0);
        assert_eq!(decision["generated_tokens"], 2);
    }

    #[test]
    fn tokens_per_second_needs_time_and_tokens() {
        assert_eq!(tokens_per_second(20, 2000.0), Some(10.0));
        assert_eq!(tokens_per_second(0, 2000.0), None);
        assert_eq!(tokens_per_second(5, 0.0), None);
    }
}
