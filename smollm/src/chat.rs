//! SmolLM2's chat template (ChatML), as its GGUF file states it:
//! `<|im_start|>{role}\n{content}<|im_end|>\n` per message, then `<|im_start|>assistant\n`.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

impl Message {
    pub fn system(content: impl Into<String>) -> Self {
        Self {
            role: Role::System,
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: content.into(),
        }
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Self {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// The template's default system message, used when the conversation has none.
pub const DEFAULT_SYSTEM: &str =
    "You are a helpful AI assistant named SmolLM, trained by Hugging Face";

pub const END_OF_TURN: &str = "<|im_end|>";

/// The prompt as the model sees it, ending with the assistant's turn opened.
pub fn render(messages: &[Message]) -> String {
    let mut out = String::new();
    if messages.first().map(|m| m.role) != Some(Role::System) {
        push(&mut out, "system", DEFAULT_SYSTEM);
    }
    for m in messages {
        let role = match m.role {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        push(&mut out, role, &m.content);
    }
    out.push_str("<|im_start|>assistant\n");
    out
}

/// The part of [`render`]'s text that the first message makes (the default system message when
/// the conversation has none).
pub fn render_first(messages: &[Message]) -> String {
    let mut out = String::new();
    match messages.first() {
        Some(m) if m.role == Role::System => push(&mut out, "system", &m.content),
        _ => push(&mut out, "system", DEFAULT_SYSTEM),
    }
    out
}

fn push(out: &mut String, role: &str, content: &str) {
    out.push_str("<|im_start|>");
    out.push_str(role);
    out.push('\n');
    out.push_str(content);
    out.push_str(END_OF_TURN);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_chatml_with_the_default_system_message() {
        assert_eq!(
            render(&[Message::user("Hi")]),
            "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging \
             Face<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
        );
        assert!(
            render(&[Message::system("S"), Message::user("Q")])
                .starts_with("<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nQ<|im_end|>\n")
        );
    }
}
