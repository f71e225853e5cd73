//! The tokenizer built from the GGUF vocabulary gives the same ids as Hugging Face `tokenizers`
//! (0.23.3, with SmolLM2's pre-tokenizer: digits one by one, then byte-level) on the same
//! vocabulary and merges.

mod common;

#[test]
fn encodes_as_the_reference_tokenizer_does() {
    let Some(model) = common::model() else { return };
    let tok = model.tokenizer();
    let cases: [(&str, &[u32]); 1] = [(
        "<|im_start|>user\nWhat is the capital of France? 3*111 東京 x  y\n\n z<|im_end|>",
        &[
            1, 4093, 198, 1780, 314, 260, 3575, 282, 4649, 47, 216, 35, 26, 33, 33, 33, 17097, 247,
            126, 16736, 122, 1792, 216, 329, 1116, 1892, 2,
        ],
    )];
    for (text, ids) in cases {
        assert_eq!(tok.encode(text), ids, "{text}");
        assert_eq!(tok.decode(ids), text);
    }
}
