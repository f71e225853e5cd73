//! The second leg, when the server is reached through `mcp-flow-bridge`: the real command or
//! upstream on the MCP server's box, and under each exchange the lines the server behind the
//! bridge really got and wrote (read from the bridge's record, `host::bridge_leg`).

use futures_util::future::LocalBoxFuture;
use leptos::prelude::*;
use serde_json::Value;

use super::bounded_get::bounded_get;
use super::i18n::by_lang;
use super::stores::Settings;
use crate::diagram::Lang;
use crate::host::bridge_leg::{Legs, SESSION_HEADER, legs_url};
use crate::mcp::record::Exchange;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};

/// How long the page waits for the bridge's record.
const WAIT_MS: u32 = 5_000;

/// The most of the record the page reads.
const MAX_BYTES: usize = 8 * 1024 * 1024;

/// The bridge's record at `url`, or why there is none (through the same fetch as the client).
async fn fetch_legs(url: String) -> Result<Legs, String> {
    let bytes = bounded_get(url, MAX_BYTES, WAIT_MS, "the bridge's record").await?;
    Legs::read(&String::from_utf8_lossy(&bytes))
}

/// What the bridge at a record's URL runs or forwards to, if its record says.
type Describe = fn(String) -> LocalBoxFuture<'static, Option<String>>;

/// The bridge's record at a URL, or why there is none.
type ReadLegs = fn(String) -> LocalBoxFuture<'static, Result<Legs, String>>;

// Reading the bridge's record needs the fetch the MCP client goes through: it comes in a module
// of its own, fetched when the server is a bridge endpoint; a run that is not through a bridge
// never fetches it.
on_demand!(
    bridge,
    fn bridge_reader() -> Result<(Describe, ReadLegs), OnDemandError> {
        Ok((
            |url| Box::pin(async move { fetch_legs(url).await.ok().and_then(|l| l.describe()) }),
            |url| Box::pin(fetch_legs(url)),
        ))
    }
);

/// Keeps `Settings::bridge` naming what the bridge runs while the server is a bridge endpoint.
pub fn watch() {
    let settings = expect_context::<Settings>();
    Effect::new(move || {
        let server = settings.server.get();
        settings.bridge.set(None);
        let Some(url) = legs_url(&server) else {
            return;
        };
        leptos::task::spawn_local(async move {
            // Said only when it can be: a record (or its reader's module) that does not come
            // leaves the hint out, as a server that is not a bridge does.
            let Ok((describe, _)) = call_on_demand!(bridge_reader()) else {
                return;
            };
            if let Some(what) = describe(url).await
                && settings.server.get_untracked() == server
            {
                settings.bridge.set(Some(what));
            }
        });
    });
}

/// Under an exchange made through the bridge: a button that reads what the server behind it got.
pub fn second_leg(x: &Exchange, lang: Lang) -> Option<impl IntoView + use<>> {
    let session = x.response_header(SESSION_HEADER)?.to_owned();
    let url = legs_url(&x.url)?;
    let id: Value = serde_json::from_str(x.rpc_id.as_deref()?).ok()?;
    let shown = RwSignal::new(None::<Result<Legs, String>>);
    let load = move |_| {
        let url = format!("{url}?session={session}");
        leptos::task::spawn_local(async move {
            let legs = match call_on_demand!(bridge_reader()) {
                Ok((_, read)) => read(url).await,
                Err(e) => Err(e.into_message("reads the bridge's record")),
            };
            shown.set(Some(legs));
        });
    };
    Some(view! {
        <div class="mf-second-leg">
            <button class="mf-second-leg-load" on:click=load>{by_lang(lang, "What the server behind the bridge got and wrote", "桥后面的服务器实际收到和写出的内容")}</button>
            {move || shown.get().map(|legs| match legs {
                Err(why) => view! { <p class="mf-error-line">{why}</p> }.into_any(),
                Ok(legs) => {
                    let lines = legs.for_id(&id).into_iter().cloned().collect::<Vec<_>>();
                    if lines.is_empty() {
                        return view! { <p class="mf-hint">{by_lang(lang, "The bridge's record has no line for this message.", "桥的记录中没有这条消息的行。")}</p> }.into_any();
                    }
                    view! {
                        <ol class="mf-bridge-lines">
                            {lines.into_iter().map(|e| view! {
                                <li data-leg=e.leg.arrow()>
                                    <span class="mf-leg">{e.leg.arrow()}</span>" "
                                    <code>{e.text}</code>
                                    {e.note.map(|n| view! { <small>" — "{n}</small> })}
                                </li>
                            }).collect_view()}
                        </ol>
                    }
                    .into_any()
                }
            })}
        </div>
    })
}
