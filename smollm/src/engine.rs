//! The running model: candle's quantized llama and how far into the sequence it is. A fork is
//! cheap (the weights and the attention cache are shared tensors), so choices can be scored from
//! one common prefix.

use candle_core::{Device, Tensor};
use candle_transformers::models::quantized_llama::ModelWeights;

use crate::Error;
use crate::tokenizer::TokenId;

#[derive(Clone)]
pub(crate) struct Engine {
    weights: ModelWeights,
    /// Tokens already in the attention cache.
    position: usize,
}

impl Engine {
    pub fn new(weights: ModelWeights) -> Self {
        Self {
            weights,
            position: 0,
        }
    }

    /// Tokens already read.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Feeds `tokens` after what is already there; returns the logits for the next token.
    pub fn feed(&mut self, tokens: &[TokenId]) -> Result<Vec<f32>, Error> {
        if tokens.is_empty() {
            return Err(Error::Engine("nothing to feed".into()));
        }
        let input = Tensor::new(tokens, &Device::Cpu)?.unsqueeze(0)?;
        let logits = self.weights.forward(&input, self.position)?;
        self.position += tokens.len();
        Ok(logits.squeeze(0)?.to_vec1::<f32>()?)
    }
}
