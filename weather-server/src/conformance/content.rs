//! The conformance suite's content fixtures (feature `conformance-fixtures`, turned on by
//! `--conformance-fixtures`): the tools, resources, template, prompts and completion its
//! 2026-07-28 scenarios `tools-call-*`, `resources-*`, `prompts-get-*`, `completion-complete` and
//! `caching` call by name. Never in the shipped server.

use std::time::Duration;

use base64::Engine;
use rmcp::{
    ErrorData as McpError, RoleServer,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams,
        CompleteResult, CompletionInfo, ContentBlock, GetPromptRequestParams, GetPromptResult,
        Prompt, PromptArgument, PromptMessage, Reference, Resource, ResourceContents,
        ResourceTemplate, Role, Tool,
    },
    service::RequestContext,
};

use serde_json::json;

use crate::handlers::weather::WeatherServer;

const SIMPLE_TEXT: &str = "test_simple_text";
const IMAGE: &str = "test_image_content";
const AUDIO: &str = "test_audio_content";
const EMBEDDED: &str = "test_embedded_resource";
const MIXED: &str = "test_multiple_content_types";
const ERROR: &str = "test_error_handling";
const PROGRESS: &str = "test_tool_with_progress";
/// A tool whose input schema uses JSON Schema 2020-12's keywords (scenario `json-schema-2020-12`):
/// `tools/list` must carry them as written.
const SCHEMA_2020_12: &str = "json_schema_2020_12_tool";

pub const TOOLS: [(&str, &str); 7] = [
    (SIMPLE_TEXT, "Conformance diagnostic: one text block"),
    (IMAGE, "Conformance diagnostic: one PNG image"),
    (AUDIO, "Conformance diagnostic: one WAV sound"),
    (
        EMBEDDED,
        "Conformance diagnostic: one embedded text resource",
    ),
    (
        MIXED,
        "Conformance diagnostic: text, an image and a resource",
    ),
    (ERROR, "Conformance diagnostic: a result with isError"),
    (
        PROGRESS,
        "Conformance diagnostic: three progress notifications",
    ),
];

const STATIC_TEXT: &str = "test://static-text";
const STATIC_BINARY: &str = "test://static-binary";
const TEMPLATE: &str = "test://template/{id}/data";
const WATCHED: &str = "test://watched-resource";

const SIMPLE_PROMPT: &str = "test_simple_prompt";
const ARGS_PROMPT: &str = "test_prompt_with_arguments";
const RESOURCE_PROMPT: &str = "test_prompt_with_embedded_resource";
const IMAGE_PROMPT: &str = "test_prompt_with_image";

/// A PNG to show (the weather server's icon).
const PNG: &[u8] = include_bytes!("../../assets/sun.png");

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A tenth of a second of silence as 8 kHz 8-bit mono WAV.
fn wav() -> Vec<u8> {
    let samples = 800u32;
    let mut out = Vec::with_capacity(44 + samples as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + samples).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&8000u32.to_le_bytes());
    out.extend_from_slice(&8000u32.to_le_bytes()); // bytes per second
    out.extend_from_slice(&1u16.to_le_bytes()); // block align
    out.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&samples.to_le_bytes());
    out.resize(44 + samples as usize, 128);
    out
}

fn embedded(uri: &str, mime: &str, text: &str) -> ContentBlock {
    ContentBlock::resource(ResourceContents::text(text, uri).with_mime_type(mime))
}

pub fn tools() -> Vec<Tool> {
    let mut tools = crate::conformance::kit::no_argument_tools(&TOOLS);
    tools.push(schema_2020_12_tool());
    tools
}

/// `$schema`, `$defs` with an `$anchor`, a `$ref`, `allOf`/`anyOf`, `if`/`then`/`else` and
/// `additionalProperties: false`: a contact with a phone or an email, the one its method names.
fn schema_2020_12_tool() -> Tool {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    });
    let schema: rmcp::model::JsonObject = serde_json::from_value(schema).unwrap_or_default();
    Tool::new(
        SCHEMA_2020_12,
        "Conformance diagnostic: an input schema in JSON Schema 2020-12",
        std::sync::Arc::new(schema),
    )
}

/// A call of one of these tools; `None` for another name.
pub async fn call_tool(
    server: &WeatherServer,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<Result<CallToolResponse, McpError>> {
    let content = match request.name.as_ref() {
        SIMPLE_TEXT => vec![ContentBlock::text(
            "This is a simple text response for testing.",
        )],
        IMAGE => vec![ContentBlock::image(base64(PNG), "image/png")],
        AUDIO => vec![ContentBlock::audio(base64(&wav()), "audio/wav")],
        EMBEDDED => vec![embedded(
            "test://embedded-resource",
            "text/plain",
            "This is an embedded resource content.",
        )],
        MIXED => vec![
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(base64(PNG), "image/png"),
            embedded(
                "test://mixed-content-resource",
                "application/json",
                r#"{"test":"data","value":123}"#,
            ),
        ],
        SCHEMA_2020_12 => vec![ContentBlock::text(format!(
            "Contact received: {}",
            serde_json::Value::Object(request.arguments.clone().unwrap_or_default())
        ))],
        ERROR => {
            return Some(Ok(CallToolResult::error(vec![ContentBlock::text(
                "This tool intentionally returns an error for testing",
            )])
            .into()));
        }
        PROGRESS => {
            for (step, done) in [0.0, 0.5, 1.0].into_iter().enumerate() {
                if step > 0 {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                server.progress(context, done, "working").await;
            }
            vec![ContentBlock::text("Progress test finished")]
        }
        _ => return None,
    };
    Some(Ok(CallToolResult::success(content).into()))
}

pub fn resources() -> Vec<Resource> {
    vec![
        Resource::new(STATIC_TEXT, "static-text")
            .with_description("Conformance diagnostic: a text resource")
            .with_mime_type("text/plain"),
        Resource::new(STATIC_BINARY, "static-binary")
            .with_description("Conformance diagnostic: a PNG")
            .with_mime_type("image/png"),
    ]
}

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(TEMPLATE, "template")
            .with_description("Conformance diagnostic: data for an id")
            .with_mime_type("application/json"),
    ]
}

/// The contents at `uri`, when it is one of these resources.
pub fn read(uri: &str) -> Option<ResourceContents> {
    match uri {
        STATIC_TEXT => Some(
            ResourceContents::text("This is the content of the static text resource.", uri)
                .with_mime_type("text/plain"),
        ),
        STATIC_BINARY => Some(ResourceContents::blob(base64(PNG), uri).with_mime_type("image/png")),
        // The resource the legacy suite subscribes to.
        WATCHED => Some(ResourceContents::text("watched", uri).with_mime_type("text/plain")),
        _ => {
            let id = uri
                .strip_prefix("test://template/")?
                .strip_suffix("/data")?;
            let id = crate::handlers::cities::clip(id, 100);
            let text = serde_json::json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
            Some(ResourceContents::text(text.to_string(), uri).with_mime_type("application/json"))
        }
    }
}

pub fn prompts() -> Vec<Prompt> {
    vec![
        Prompt::new(
            SIMPLE_PROMPT,
            Some("Conformance diagnostic: one message"),
            None,
        ),
        Prompt::new(
            ARGS_PROMPT,
            Some("Conformance diagnostic: two arguments substituted"),
            Some(vec![
                PromptArgument::new("arg1").with_required(true),
                PromptArgument::new("arg2").with_required(true),
            ]),
        ),
        Prompt::new(
            RESOURCE_PROMPT,
            Some("Conformance diagnostic: an embedded resource"),
            Some(vec![PromptArgument::new("resourceUri").with_required(true)]),
        ),
        Prompt::new(IMAGE_PROMPT, Some("Conformance diagnostic: an image"), None),
    ]
}

/// `prompts/get` of one of these prompts; `None` for another name.
pub fn get_prompt(request: &GetPromptRequestParams) -> Option<GetPromptResult> {
    let arg = |name: &str| {
        request
            .arguments
            .as_ref()
            .and_then(|a| a.get(name))
            .and_then(|v| v.as_str())
            .map(|v| crate::handlers::cities::clip(v, 200))
            .unwrap_or_default()
    };
    let messages = match request.name.as_str() {
        SIMPLE_PROMPT => vec![PromptMessage::new_text(
            Role::User,
            "This is a simple prompt for testing.",
        )],
        ARGS_PROMPT => vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Prompt with arguments: arg1='{}', arg2='{}'",
                arg("arg1"),
                arg("arg2")
            ),
        )],
        RESOURCE_PROMPT => vec![
            PromptMessage::new(
                Role::User,
                embedded(
                    &arg("resourceUri"),
                    "text/plain",
                    "Embedded resource content for testing.",
                ),
            ),
            PromptMessage::new_text(Role::User, "Please process the embedded resource above."),
        ],
        IMAGE_PROMPT => vec![
            PromptMessage::new_image(Role::User, PNG, "image/png", None, None),
            PromptMessage::new_text(Role::User, "Please analyze the image above."),
        ],
        _ => return None,
    };
    Some(GetPromptResult::new(messages))
}

/// Completion for `test_prompt_with_arguments`'s arguments: none offered (the scenario needs a
/// well-formed answer, not values).
pub fn complete(request: &CompleteRequestParams) -> Option<CompleteResult> {
    match &request.r#ref {
        Reference::Prompt(p) if p.name == ARGS_PROMPT => {
            Some(CompleteResult::new(CompletionInfo::default()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wav_is_a_riff_file_of_its_stated_length() {
        let wav = wav();
        assert_eq!(&wav[..4], b"RIFF");
        let stated = u32::from_le_bytes([wav[4], wav[5], wav[6], wav[7]]) as usize;
        assert_eq!(stated + 8, wav.len());
    }

    #[test]
    fn the_template_substitutes_its_id() {
        let Some(ResourceContents::TextResourceContents { text, .. }) =
            read("test://template/123/data")
        else {
            panic!("no text")
        };
        assert!(text.contains("\"id\":\"123\""), "{text}");
        assert!(read("test://template/123").is_none());
        assert!(read("test://nonexistent-resource-for-conformance-testing").is_none());
    }
}
