//! Loading a GGUF file and generating free text (the answer turn).

use std::io::Cursor;
use std::sync::Mutex;

use candle_core::Device;
use candle_core::quantized::gguf_file::Content;
use candle_transformers::models::quantized_llama::ModelWeights;
use serde::Serialize;

use crate::Error;
use crate::chat::{self, Message};
use crate::engine::Engine;
use crate::sampling::{self, Rng, Sampling};
use crate::tokenizer::{TokenId, Tokenizer};

/// What the file says about itself.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelInfo {
    pub name: String,
    /// The weights' quantization, e.g. "Q8_0" (the most common one among the matrices).
    pub quantization: String,
    pub vocab_size: usize,
    pub layers: usize,
}

pub struct Model {
    /// The weights with an empty cache; every turn starts from a clone.
    fresh: Engine,
    pub(crate) tokenizer: Tokenizer,
    pub(crate) end_of_turn: TokenId,
    pub(crate) end_of_text: Option<TokenId>,
    info: ModelInfo,
    /// The last system message fed, as tokens, and the model just after it: a conversation
    /// that starts with the same system message (same tools) skips feeding it again.
    prefix: Mutex<Option<(Vec<TokenId>, Engine)>>,
}

/// Text the model wrote, and how it went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Generation {
    pub text: String,
    pub prompt_tokens: usize,
    pub generated_tokens: usize,
    /// True when it stopped at the end of its turn, false when it hit the length bound.
    pub finished: bool,
}

impl Model {
    /// Loads a GGUF file held in memory (what a browser has after a download).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let mut reader = Cursor::new(bytes);
        let content =
            Content::read(&mut reader).map_err(|e| Error::Format(format!("GGUF header: {e}")))?;
        let tokenizer = Tokenizer::from_gguf(&content)?;
        let info = info(&content, tokenizer.vocab_size());
        let end_of_turn = tokenizer
            .special(chat::END_OF_TURN)
            .ok_or_else(|| Error::Format("the vocabulary has no <|im_end|>".into()))?;
        let end_of_text = tokenizer.special("<|endoftext|>");
        let weights = ModelWeights::from_gguf(content, &mut reader, &Device::Cpu)
            .map_err(|e| Error::Format(format!("weights: {e}")))?;
        Ok(Self {
            fresh: Engine::new(weights),
            tokenizer,
            end_of_turn,
            end_of_text,
            info,
            prefix: Mutex::new(None),
        })
    }

    /// Loads a GGUF file from disk (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_file(path: &std::path::Path) -> Result<Self, Error> {
        let bytes = std::fs::read(path)
            .map_err(|e| Error::Format(format!("cannot read {}: {e}", path.display())))?;
        Self::from_bytes(&bytes)
    }

    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    pub(crate) fn fresh(&self) -> Engine {
        self.fresh.clone()
    }

    /// A model that has read `messages` rendered with the template (plus `extra` text after the
    /// assistant's opening), and its logits for the next token. The first message (the system
    /// message) is kept and reused by the next conversation that starts with it.
    pub(crate) fn read(
        &self,
        messages: &[Message],
        extra: &str,
    ) -> Result<(Engine, Vec<f32>, usize), Error> {
        let prompt = chat::render(messages);
        let ids = self.tokenizer.encode(&prompt);
        let prompt_tokens = ids.len();
        let mut all = ids;
        all.extend(self.tokenizer.encode(extra));
        let first = self.tokenizer.encode(&chat::render_first(messages));
        let cached = self
            .prefix
            .lock()
            .ok()
            .and_then(|p| p.clone())
            .filter(|(ids, _)| *ids == first && all.starts_with(ids) && all.len() > ids.len());
        let mut engine = match cached {
            Some((_, engine)) => engine,
            None => {
                let mut engine = self.fresh();
                if !first.is_empty() && all.starts_with(&first) && all.len() > first.len() {
                    engine.feed(&first)?;
                    if let Ok(mut p) = self.prefix.lock() {
                        *p = Some((first.clone(), engine.clone()));
                    }
                }
                engine
            }
        };
        let done = engine.position();
        let logits = engine.feed(&all[done..])?;
        Ok((engine, logits, prompt_tokens))
    }

    pub(crate) fn is_end(&self, id: TokenId) -> bool {
        id == self.end_of_turn || Some(id) == self.end_of_text
    }

    /// The prompt the model sees for `messages`, chat template applied.
    pub fn prompt(&self, messages: &[Message]) -> String {
        chat::render(messages)
    }

    /// Feeds `prompt` (template already applied) and generates nothing: how many tokens it was.
    /// For measuring the prompt rate.
    pub fn prefill(&self, prompt: &str) -> Result<usize, Error> {
        let ids = self.tokenizer.encode(prompt);
        self.fresh().feed(&ids)?;
        Ok(ids.len())
    }

    /// The assistant's next turn as free text, stopping at the end of its turn or after
    /// `max_tokens`. `on_token` receives each piece of text as it is generated.
    pub fn generate(
        &self,
        messages: &[Message],
        max_tokens: usize,
        sampling: Sampling,
        on_token: &mut dyn FnMut(&str),
    ) -> Result<Generation, Error> {
        let (mut engine, mut logits, prompt_tokens) = self.read(messages, "")?;
        let mut rng = Rng::new(sampling.seed);
        let mut out: Vec<TokenId> = Vec::new();
        let mut shown = 0;
        let mut finished = false;
        while out.len() < max_tokens {
            let dist = sampling::distribution(&logits, None);
            let Some(next) = sampling::pick(&dist, &sampling, &mut rng) else {
                break;
            };
            if self.is_end(next) {
                finished = true;
                break;
            }
            out.push(next);
            // Only whole characters are passed on (a CJK character may span tokens).
            let text = self.tokenizer.decode(&out);
            let complete = text.trim_end_matches('\u{FFFD}');
            if complete.len() > shown {
                on_token(&complete[shown..]);
                shown = complete.len();
            }
            logits = engine.feed(&[next])?;
        }
        let text = self.tokenizer.decode(&out);
        if text.len() > shown {
            on_token(&text[shown..]);
        }
        Ok(Generation {
            text: text.trim().to_owned(),
            prompt_tokens,
            generated_tokens: out.len(),
            finished,
        })
    }
}

fn info(content: &Content, vocab_size: usize) -> ModelInfo {
    let text = |key: &str| {
        content
            .metadata
            .get(key)
            .and_then(|v| v.to_string().ok().cloned())
    };
    let layers = content
        .metadata
        .get("llama.block_count")
        .and_then(|v| v.to_u32().ok())
        .unwrap_or(0) as usize;
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for t in content.tensor_infos.values() {
        if t.shape.dims().len() == 2 {
            *counts.entry(format!("{:?}", t.ggml_dtype)).or_default() += 1;
        }
    }
    let quantization = counts
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(q, _)| q)
        .unwrap_or_default();
    ModelInfo {
        name: text("general.name").unwrap_or_else(|| "unnamed".into()),
        quantization,
        vocab_size,
        layers,
    }
}
