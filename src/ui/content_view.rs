//! A tool result's content blocks, each by its kind (`crate::host::content`): text as text, an
//! image or audio clip from its `data:` URL when its type and data allow, resource links and
//! embedded resources as their URI, name and text; annotations as badges. Nothing the server
//! sent becomes markup or a link.

use leptos::prelude::*;

use crate::host::content::{Block, Kind};

pub fn content_view(blocks: Vec<Block>) -> impl IntoView {
    let n = blocks.len();
    view! {
        <section class="mf-content" aria-label="content blocks">
            <h4>{format!("Content ({n} block{})", if n == 1 { "" } else { "s" })}</h4>
            <ol>{blocks.into_iter().map(block_view).collect_view()}</ol>
        </section>
    }
}

fn block_view(block: Block) -> impl IntoView {
    let name = block.kind.name();
    let badges = block
        .annotations
        .into_iter()
        .map(|a| view! { <span class="mf-badge">{a}</span> })
        .collect_view();
    let body = match block.kind {
        Kind::Text(text) => view! { <pre class="mf-json">{text}</pre> }.into_any(),
        Kind::Media {
            audio,
            mime,
            bytes,
            shown,
        } => {
            let about = format!("{mime}, {bytes} bytes");
            match (shown, audio) {
                (Ok(url), false) => view! {
                    <p>{about}</p><img class="mf-content-media" src=url alt="the image the server sent" />
                }
                .into_any(),
                (Ok(url), true) => view! {
                    <p>{about}</p><audio class="mf-content-media" controls=true src=url></audio>
                }
                .into_any(),
                (Err(why), _) => {
                    view! { <p>{about}</p><p class="mf-error-line">{why}</p> }.into_any()
                }
            }
        }
        Kind::ResourceLink {
            uri,
            name,
            title,
            description,
            mime,
        } => view! {
            <dl class="mf-values">
                <dt>"uri"</dt><dd>{uri}</dd>
                <dt>"name"</dt><dd>{name}</dd>
                {title.map(|t| view! { <dt>"title"</dt><dd>{t}</dd> })}
                {description.map(|d| view! { <dt>"description"</dt><dd>{d}</dd> })}
                {mime.map(|m| view! { <dt>"mimeType"</dt><dd>{m}</dd> })}
            </dl>
        }
        .into_any(),
        Kind::Resource {
            uri,
            mime,
            text,
            blob_bytes,
        } => view! {
            <dl class="mf-values">
                <dt>"uri"</dt><dd>{uri}</dd>
                {mime.map(|m| view! { <dt>"mimeType"</dt><dd>{m}</dd> })}
                {blob_bytes.map(|b| view! { <dt>"blob"</dt><dd>{format!("{b} bytes")}</dd> })}
            </dl>
            {text.map(|t| view! { <pre class="mf-json">{t}</pre> })}
        }
        .into_any(),
        Kind::Other { why, .. } => view! { <p class="mf-error-line">{why}</p> }.into_any(),
    };
    view! {
        <li class="mf-block" data-kind=name.clone()>
            <p><span class="mf-kind">{name.clone()}</span>" "{badges}</p>
            {body}
        </li>
    }
}
