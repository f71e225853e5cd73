//! SmolLM2's tokenizer, built from the GGUF file's own vocabulary: GPT-2 style byte-level BPE
//! (`tokenizer.ggml.tokens` and `tokenizer.ggml.merges`), with the "smollm" pre-tokenizer (digits
//! one by one, then the GPT-2 word split) and the control tokens (`<|im_start|>` …) matched whole.
//!
//! Written here rather than taken from a crate: candle's GGUF tokenizer is compiled out on
//! wasm32, and the `tokenizers` crate needs regex engines and more than this model uses.

use std::collections::HashMap;

use candle_core::quantized::gguf_file::{Content, Value};

use crate::Error;

/// Token ids are `u32` as candle takes them.
pub type TokenId = u32;

pub struct Tokenizer {
    /// Each token's bytes (control tokens: their text, e.g. `<|im_end|>`).
    bytes: Vec<Vec<u8>>,
    /// Control tokens (GGUF token type 3): never produced by BPE, matched whole in the input.
    control: Vec<bool>,
    by_text: HashMap<Vec<u8>, TokenId>,
    /// Merge rank of a pair of token ids, and the id of the merged token.
    merges: HashMap<(TokenId, TokenId), (u32, TokenId)>,
    /// Control tokens by text, longest first.
    specials: Vec<(String, TokenId)>,
    /// The single-byte tokens (the vocabulary lacks a few bytes that UTF-8 text never holds).
    byte_token: [Option<TokenId>; 256],
}

impl Tokenizer {
    /// Reads the vocabulary from the GGUF metadata.
    pub fn from_gguf(content: &Content) -> Result<Self, Error> {
        let tokens = strings(content, "tokenizer.ggml.tokens")?;
        let merges = strings(content, "tokenizer.ggml.merges")?;
        let types: Vec<i64> = match content.metadata.get("tokenizer.ggml.token_type") {
            Some(Value::Array(v)) => v
                .iter()
                .map(|t| t.to_i32().map(i64::from).unwrap_or(1))
                .collect(),
            _ => vec![1; tokens.len()],
        };
        let unicode_to_byte = unicode_to_byte();
        let mut bytes = Vec::with_capacity(tokens.len());
        let mut control = Vec::with_capacity(tokens.len());
        let mut specials = Vec::new();
        for (id, text) in tokens.iter().enumerate() {
            let is_control = types.get(id).copied() == Some(3);
            control.push(is_control);
            if is_control {
                bytes.push(text.as_bytes().to_vec());
                specials.push((text.clone(), id as TokenId));
                continue;
            }
            let mut b = Vec::with_capacity(text.len());
            for c in text.chars() {
                match unicode_to_byte.get(&c) {
                    Some(&byte) => b.push(byte),
                    None => {
                        return Err(Error::Format(format!(
                            "token {id} ({text:?}) is not byte-level BPE"
                        )));
                    }
                }
            }
            bytes.push(b);
        }
        specials.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
        let mut by_text = HashMap::with_capacity(bytes.len());
        for (id, b) in bytes.iter().enumerate() {
            if !control[id] {
                by_text.entry(b.clone()).or_insert(id as TokenId);
            }
        }
        let mut byte_token = [None; 256];
        for (byte, slot) in byte_token.iter_mut().enumerate() {
            *slot = by_text.get(&vec![byte as u8]).copied();
        }
        if byte_token[b'a' as usize].is_none() {
            return Err(Error::Format(
                "the vocabulary has no single-byte tokens".into(),
            ));
        }
        let mut merge_table = HashMap::with_capacity(merges.len());
        for (rank, line) in merges.iter().enumerate() {
            let Some((a, b)) = line.split_once(' ') else {
                return Err(Error::Format(format!(
                    "merge {rank} is not a pair: {line:?}"
                )));
            };
            let to_bytes = |s: &str| -> Option<Vec<u8>> {
                s.chars()
                    .map(|c| unicode_to_byte.get(&c).copied())
                    .collect()
            };
            let (Some(a), Some(b)) = (to_bytes(a), to_bytes(b)) else {
                return Err(Error::Format(format!(
                    "merge {rank} has unknown characters"
                )));
            };
            let joined = [a.as_slice(), b.as_slice()].concat();
            if let (Some(&ia), Some(&ib), Some(&ij)) =
                (by_text.get(&a), by_text.get(&b), by_text.get(&joined))
            {
                merge_table.entry((ia, ib)).or_insert((rank as u32, ij));
            }
        }
        Ok(Self {
            bytes,
            control,
            by_text,
            merges: merge_table,
            specials,
            byte_token,
        })
    }

    pub fn vocab_size(&self) -> usize {
        self.bytes.len()
    }

    /// The id of a control token such as `<|im_end|>`.
    pub fn special(&self, text: &str) -> Option<TokenId> {
        self.specials
            .iter()
            .find(|(t, _)| t == text)
            .map(|(_, id)| *id)
    }

    pub fn is_control(&self, id: TokenId) -> bool {
        self.control.get(id as usize).copied().unwrap_or(false)
    }

    /// The bytes a token stands for (empty for an unknown id).
    pub fn token_bytes(&self, id: TokenId) -> &[u8] {
        self.bytes
            .get(id as usize)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Text to ids; control tokens written in the text (`<|im_start|>`) become their ids.
    pub fn encode(&self, text: &str) -> Vec<TokenId> {
        let mut out = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let next = self
                .specials
                .iter()
                .filter_map(|(t, id)| rest.find(t.as_str()).map(|at| (at, t.len(), *id)))
                .min_by_key(|(at, len, _)| (*at, std::cmp::Reverse(*len)));
            match next {
                Some((at, len, id)) => {
                    self.encode_plain(&rest[..at], &mut out);
                    out.push(id);
                    rest = &rest[at + len..];
                }
                None => {
                    self.encode_plain(rest, &mut out);
                    rest = "";
                }
            }
        }
        out
    }

    /// Ids to text (control tokens included as their text; invalid UTF-8 replaced).
    pub fn decode(&self, ids: &[TokenId]) -> String {
        let bytes: Vec<u8> = ids
            .iter()
            .flat_map(|&id| self.token_bytes(id).iter().copied())
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn encode_plain(&self, text: &str, out: &mut Vec<TokenId>) {
        for piece in pre_tokenize(text) {
            if let Some(&id) = self.by_text.get(piece.as_bytes()) {
                out.push(id);
                continue;
            }
            self.bpe(piece.as_bytes(), out);
        }
    }

    /// Merges the piece's bytes pair by pair, lowest rank first.
    fn bpe(&self, piece: &[u8], out: &mut Vec<TokenId>) {
        let mut ids: Vec<TokenId> = piece
            .iter()
            .filter_map(|&b| self.byte_token[b as usize])
            .collect();
        while ids.len() > 1 {
            let best = ids
                .windows(2)
                .enumerate()
                .filter_map(|(i, w)| self.merges.get(&(w[0], w[1])).map(|&(r, m)| (r, i, m)))
                .min();
            let Some((_, i, merged)) = best else { break };
            ids[i] = merged;
            ids.remove(i + 1);
        }
        out.extend(ids);
    }
}

fn strings(content: &Content, key: &str) -> Result<Vec<String>, Error> {
    match content.metadata.get(key) {
        Some(Value::Array(values)) => values
            .iter()
            .map(|v| {
                v.to_string()
                    .cloned()
                    .map_err(|e| Error::Format(format!("{key}: {e}")))
            })
            .collect(),
        _ => Err(Error::Format(format!("the GGUF file has no {key}"))),
    }
}

/// GPT-2's reversible map from bytes to printable characters, inverted.
fn unicode_to_byte() -> HashMap<char, u8> {
    let mut printable: Vec<u32> = (b'!' as u32..=b'~' as u32)
        .chain(0xA1..=0xAC)
        .chain(0xAE..=0xFF)
        .collect();
    let mut map = HashMap::with_capacity(256);
    for &b in &printable {
        if let Some(c) = char::from_u32(b) {
            map.insert(c, b as u8);
        }
    }
    let mut extra = 0u32;
    for b in 0u32..256 {
        if !printable.contains(&b) {
            if let Some(c) = char::from_u32(256 + extra) {
                map.insert(c, b as u8);
            }
            printable.push(b);
            extra += 1;
        }
    }
    map
}

/// The "smollm" pre-tokenizer: every digit alone, then GPT-2's split
/// (`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`).
pub fn pre_tokenize(text: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |i: usize| chars.get(i).map(|(at, _)| *at).unwrap_or(text.len());
    let mut pieces = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let c = chars[i].1;
        if c == '\'' {
            let rest = &text[chars[i].0..];
            let contraction = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d"]
                .iter()
                .find(|s| rest.starts_with(**s));
            if let Some(s) = contraction {
                i += s.chars().count();
                pieces.push(&text[chars[start].0..end_of(i)]);
                continue;
            }
        }
        if c.is_numeric() {
            i += 1;
            pieces.push(&text[chars[start].0..end_of(i)]);
            continue;
        }
        let (lead, kind_at) = if c == ' ' && i + 1 < chars.len() && !chars[i + 1].1.is_whitespace()
        {
            (1, i + 1)
        } else {
            (0, i)
        };
        let k = chars[kind_at].1;
        if !k.is_whitespace() {
            i += lead;
            if k.is_numeric() {
                // A digit after a space: the space stands alone, digits go one by one.
                if lead == 1 {
                    pieces.push(&text[chars[start].0..end_of(start + 1)]);
                }
                continue;
            }
            let class = |c: char| {
                if c.is_alphabetic() {
                    0
                } else if c.is_numeric() {
                    1
                } else if c.is_whitespace() {
                    3
                } else {
                    2
                }
            };
            let kind = class(k);
            while i < chars.len() && class(chars[i].1) == kind {
                i += 1;
            }
            pieces.push(&text[chars[start].0..end_of(i)]);
            continue;
        }
        // Whitespace: a run, leaving its last one to the word that follows (`\s+(?!\S)`).
        while i < chars.len() && chars[i].1.is_whitespace() {
            i += 1;
        }
        if i < chars.len() && i - start > 1 {
            i -= 1;
        }
        pieces.push(&text[chars[start].0..end_of(i)]);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::pre_tokenize;

    #[test]
    fn splits_words_digits_and_spaces_as_gpt2_does() {
        assert_eq!(
            pre_tokenize("What's the weather in Tokyo?"),
            ["What", "'s", " the", " weather", " in", " Tokyo", "?"]
        );
        assert_eq!(pre_tokenize("3*111"), ["3", "*", "1", "1", "1"]);
        assert_eq!(pre_tokenize("a  b\n\nc"), ["a", " ", " b", "\n", "\n", "c"]);
        assert_eq!(pre_tokenize("東京 weather"), ["東京", " weather"]);
        assert_eq!(pre_tokenize("x 42"), ["x", " ", "4", "2"]);
    }
}
