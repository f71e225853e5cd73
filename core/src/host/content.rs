//! A tool result's content blocks by kind, for the inspector: text, image, audio, a link to a
//! resource, an embedded resource (MCP 2025-06-18 on), each with its annotations. Read from the
//! result as it arrived; whatever the server sent is shown as text, and media become `data:`
//! URLs only when the `mimeType` says image or audio and the data is base64 that decodes.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

/// Media larger than this are described, not shown.
pub const MAX_MEDIA_BYTES: usize = 4 * 1024 * 1024;

/// One content block as the inspector shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub kind: Kind,
    /// `audience`, `priority`, `lastModified`, as "name: value" badges.
    pub annotations: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Text(String),
    /// An image or audio clip: what it claims to be, its size, and a `data:` URL if it can be
    /// shown (else why not).
    Media {
        audio: bool,
        mime: String,
        bytes: usize,
        shown: Result<String, String>,
    },
    ResourceLink {
        uri: String,
        name: String,
        title: Option<String>,
        description: Option<String>,
        mime: Option<String>,
    },
    /// An embedded resource: its text, or the size of its binary `blob`.
    Resource {
        uri: String,
        mime: Option<String>,
        text: Option<String>,
        blob_bytes: Option<usize>,
    },
    /// A block this page does not know, or one missing what its kind needs.
    Other {
        kind: String,
        why: String,
    },
}

impl Kind {
    /// The kind's name as the specification spells it.
    pub fn name(&self) -> String {
        match self {
            Kind::Text(_) => "text".into(),
            Kind::Media { audio: true, .. } => "audio".into(),
            Kind::Media { audio: false, .. } => "image".into(),
            Kind::ResourceLink { .. } => "resource_link".into(),
            Kind::Resource { .. } => "resource".into(),
            Kind::Other { kind, .. } => kind.clone(),
        }
    }
}

/// The blocks of a `tools/call` result (its `content` array); empty if there is none.
pub fn blocks(result: &Value) -> Vec<Block> {
    result
        .get("content")
        .and_then(Value::as_array)
        .map(|blocks| blocks.iter().map(block).collect())
        .unwrap_or_default()
}

/// The contents of a `resources/read` result as blocks: an image or audio blob drawn like a
/// tool's media, any other item as an embedded resource (its text, or its blob's size).
pub fn read_blocks(result: &Value) -> Vec<Block> {
    let items = result.get("contents").and_then(Value::as_array);
    items
        .into_iter()
        .flatten()
        .map(|item| {
            let s = |key: &str| item.get(key).and_then(Value::as_str).map(str::to_owned);
            let mime = s("mimeType");
            let media_kind = mime
                .as_deref()
                .filter(|m| m.starts_with("image/") || m.starts_with("audio/"));
            let kind = match (s("uri"), media_kind, s("blob")) {
                (None, ..) => missing("resource", "uri"),
                (Some(_), Some(m), Some(blob)) => {
                    media(m.starts_with("audio/"), mime.clone(), Some(blob))
                }
                (Some(uri), ..) => Kind::Resource {
                    uri,
                    mime,
                    text: s("text"),
                    blob_bytes: s("blob").map(|b| decoded_len(&b)),
                },
            };
            Block {
                kind,
                annotations: annotations(item.get("annotations")),
            }
        })
        .collect()
}

/// The content of each message of a `prompts/get` result, as blocks.
pub fn prompt_blocks(result: &Value) -> Vec<Block> {
    let messages = result.get("messages").and_then(Value::as_array);
    messages
        .into_iter()
        .flatten()
        .filter_map(|m| m.get("content"))
        .map(block)
        .collect()
}

fn block(value: &Value) -> Block {
    let s = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
    let kind_name = s("type").unwrap_or_else(|| "(no type)".into());
    let kind = match kind_name.as_str() {
        "text" => match s("text") {
            Some(text) => Kind::Text(text),
            None => missing(&kind_name, "text"),
        },
        "image" | "audio" => media(kind_name == "audio", s("mimeType"), s("data")),
        "resource_link" => match (s("uri"), s("name")) {
            (Some(uri), Some(name)) => Kind::ResourceLink {
                uri,
                name,
                title: s("title"),
                description: s("description"),
                mime: s("mimeType"),
            },
            (None, _) => missing(&kind_name, "uri"),
            (_, None) => missing(&kind_name, "name"),
        },
        "resource" => {
            let inner = value.get("resource");
            let r = |key: &str| {
                inner
                    .and_then(|r| r.get(key))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            };
            match r("uri") {
                Some(uri) => Kind::Resource {
                    uri,
                    mime: r("mimeType"),
                    text: r("text"),
                    blob_bytes: r("blob").map(|b| decoded_len(&b)),
                },
                None => missing(&kind_name, "resource.uri"),
            }
        }
        _ => Kind::Other {
            kind: kind_name.clone(),
            why: "not a content kind of the specification".into(),
        },
    };
    Block {
        kind,
        annotations: annotations(value.get("annotations")),
    }
}

fn missing(kind: &str, field: &str) -> Kind {
    Kind::Other {
        kind: kind.to_owned(),
        why: format!("it has no `{field}`"),
    }
}

fn media(audio: bool, mime: Option<String>, data: Option<String>) -> Kind {
    let want = if audio { "audio/" } else { "image/" };
    let mime = mime.unwrap_or_default();
    let Some(data) = data else {
        return missing(if audio { "audio" } else { "image" }, "data");
    };
    let bytes = decoded_len(&data);
    let shown = if !mime.starts_with(want) {
        Err(format!(
            "its mimeType {mime:?} is not {want}…, so it is not shown"
        ))
    } else if bytes > MAX_MEDIA_BYTES {
        Err(format!("{bytes} bytes, more than this page shows"))
    } else {
        match STANDARD.decode(data.as_bytes()) {
            Ok(_) => Ok(format!("data:{mime};base64,{data}")),
            Err(e) => Err(format!("its data is not base64 ({e})")),
        }
    };
    Kind::Media {
        audio,
        mime,
        bytes,
        shown,
    }
}

/// The size base64 text decodes to.
fn decoded_len(data: &str) -> usize {
    let padding = data.bytes().rev().take_while(|b| *b == b'=').count();
    (data.len() / 4 * 3).saturating_sub(padding)
}

fn annotations(value: Option<&Value>) -> Vec<String> {
    let Some(a) = value.and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut shown = Vec::new();
    if let Some(audience) = a.get("audience").and_then(Value::as_array) {
        let who: Vec<&str> = audience.iter().filter_map(Value::as_str).collect();
        shown.push(format!("audience: {}", who.join(", ")));
    }
    if let Some(priority) = a.get("priority").and_then(Value::as_f64) {
        shown.push(format!("priority: {priority}"));
    }
    if let Some(when) = a.get("lastModified").and_then(Value::as_str) {
        shown.push(format!("lastModified: {when}"));
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reads_contents_and_a_prompts_messages_are_blocks() {
        let png = STANDARD.encode([0x89, b'P', b'N', b'G']);
        let read = serde_json::json!({"contents": [
            {"uri": "weather://icon.png", "mimeType": "image/png", "blob": png},
            {"uri": "weather://cities", "mimeType": "application/json", "text": "[\"Tokyo\"]"},
            {"uri": "weather://x.bin", "mimeType": "application/octet-stream", "blob": png},
            {"text": "no uri"}]});
        let blocks = read_blocks(&read);
        assert!(
            matches!(&blocks[0].kind, Kind::Media { audio: false, bytes: 4, shown: Ok(url), .. } if url.starts_with("data:image/png;base64,")),
            "{:?}",
            blocks[0]
        );
        assert!(
            matches!(&blocks[1].kind, Kind::Resource { text: Some(t), .. } if t == "[\"Tokyo\"]")
        );
        assert!(matches!(
            &blocks[2].kind,
            Kind::Resource {
                blob_bytes: Some(4),
                ..
            }
        ));
        assert!(matches!(&blocks[3].kind, Kind::Other { .. }));
        let got = serde_json::json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "Hi"}}]});
        assert_eq!(prompt_blocks(&got)[0].kind, Kind::Text("Hi".into()));
        assert!(read_blocks(&serde_json::json!({})).is_empty());
    }
    use serde_json::json;

    const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMwSDgAAAIUAVF6s6xeAAAAAElFTkSuQmCC";

    #[test]
    fn each_kind_is_read_with_what_it_needs() {
        let result = json!({"content": [
            {"type": "text", "text": "Sunny",
             "annotations": {"audience": ["user"], "priority": 0.9, "lastModified": "2026-11-30T10:00:00Z"}},
            {"type": "image", "data": PNG, "mimeType": "image/png"},
            {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
            {"type": "resource_link", "uri": "weather://tokyo", "name": "forecast", "title": "Tokyo"},
            {"type": "resource", "resource": {"uri": "weather://today", "text": "Sunny, 22 °C"}},
            {"type": "resource", "resource": {"uri": "file:///a.bin", "blob": "AAECAw=="}},
        ]});
        let blocks = blocks(&result);
        let names: Vec<String> = blocks.iter().map(|b| b.kind.name()).collect();
        assert_eq!(
            names,
            [
                "text",
                "image",
                "audio",
                "resource_link",
                "resource",
                "resource"
            ]
        );
        assert_eq!(blocks[0].kind, Kind::Text("Sunny".into()));
        assert_eq!(
            blocks[0].annotations,
            [
                "audience: user",
                "priority: 0.9",
                "lastModified: 2026-11-30T10:00:00Z"
            ]
        );
        let Kind::Media { bytes, shown, .. } = &blocks[1].kind else {
            panic!("{:?}", blocks[1]);
        };
        assert_eq!(*bytes, 69);
        assert_eq!(
            shown.as_deref(),
            Ok(format!("data:image/png;base64,{PNG}").as_str())
        );
        assert!(
            matches!(&blocks[2].kind, Kind::Media { audio: true, shown: Ok(u), .. } if u.starts_with("data:audio/wav;base64,"))
        );
        assert!(
            matches!(&blocks[3].kind, Kind::ResourceLink { title: Some(t), mime: None, .. } if t == "Tokyo")
        );
        assert!(
            matches!(&blocks[4].kind, Kind::Resource { text: Some(t), blob_bytes: None, .. } if t == "Sunny, 22 °C")
        );
        assert!(matches!(
            &blocks[5].kind,
            Kind::Resource {
                blob_bytes: Some(4),
                ..
            }
        ));
    }

    #[test]
    fn media_that_lie_or_break_are_described_not_shown() {
        let result = json!({"content": [
            {"type": "image", "data": "PHNjcmlwdD4=", "mimeType": "text/html"},
            {"type": "audio", "data": PNG, "mimeType": "image/png"},
            {"type": "image", "data": "not base64!", "mimeType": "image/png"},
            {"type": "image", "mimeType": "image/png"},
        ]});
        let blocks = blocks(&result);
        let why = |i: usize| match &blocks[i].kind {
            Kind::Media {
                shown: Err(why), ..
            } => why.clone(),
            Kind::Other { why, .. } => why.clone(),
            other => panic!("block {i} was shown: {other:?}"),
        };
        assert!(why(0).contains("\"text/html\" is not image/"), "{}", why(0));
        assert!(why(1).contains("is not audio/"), "{}", why(1));
        assert!(why(2).contains("not base64"), "{}", why(2));
        assert_eq!(why(3), "it has no `data`");
    }

    #[test]
    fn unknown_and_incomplete_blocks_say_so() {
        let result = json!({"content": [
            {"type": "video", "data": "AAAA"},
            {"text": "no type"},
            {"type": "text"},
            {"type": "resource_link", "uri": "a://b"},
            {"type": "resource", "resource": {}},
        ]});
        let whys: Vec<String> = blocks(&result)
            .into_iter()
            .map(|b| match b.kind {
                Kind::Other { kind, why } => format!("{kind}: {why}"),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            whys,
            [
                "video: not a content kind of the specification",
                "(no type): not a content kind of the specification",
                "text: it has no `text`",
                "resource_link: it has no `name`",
                "resource: it has no `resource.uri`",
            ]
        );
        assert!(blocks(&json!({"isError": true})).is_empty());
    }
}
