//! The page as an observer (`?watch=FEED`): reads the bridge's feed of a host's traffic, folds it
//! into one run per session (`core::watch`), lists the sessions and shows the one picked on the
//! diagrams as it grows. Fetched on demand with the `watch` group.

use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

use leptos::prelude::*;

use super::bounded_get::bounded_get;
use super::controller::Controller;
use super::i18n::by_lang;
use super::lazy_view::ViewFn;
use super::params;
use super::stores::Settings;
use crate::diagram::Lang;
use crate::mcp::era::Era;
use crate::on_demand::{OnDemandError, on_demand};
use crate::watch::{PATH, Page, SESSIONLESS, Summary, Watch, feed_url};

/// How long the bridge holds a read that finds nothing new, and the page's bound on it.
const WAIT_SECS: u32 = 20;
const READ_BOUND_MS: u32 = 30_000;
/// After a read that failed, the next one waits this long.
const RETRY_MS: u32 = 2_000;
/// The most one answer of the feed may be.
const MAX_BYTES: usize = 64 * 1024 * 1024;

on_demand!(
    watch,
    pub fn watch_panel_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| view! { <WatchPanel ctl=ctl /> }.into_any())
    }
);

/// How reading the feed goes.
#[derive(Clone, PartialEq)]
enum Status {
    Reading,
    Live,
    Lost(String),
    Refused(String),
}

/// One answer of the feed, or why there is none.
async fn read(url: String) -> Result<Page, String> {
    let bytes = bounded_get(url, MAX_BYTES, READ_BOUND_MS, "the feed").await?;
    serde_json::from_slice::<Page>(&bytes).map_err(|e| format!("not a feed: {e}"))
}

/// A session as its button says it.
fn label(s: &Summary, lang: Lang) -> String {
    let client = s.client.clone().unwrap_or_else(|| {
        by_lang(
            lang,
            "a client that has not said its name",
            "未报名称的客户端",
        )
        .to_owned()
    });
    let era = match s.era {
        Some(Era::Legacy) => "2025-11-25",
        Some(Era::Modern) => "2026-07-28",
        None => "?",
    };
    let ended = if s.ended {
        by_lang(lang, ", ended", "，已结束")
    } else {
        ""
    };
    let messages = by_lang(lang, "messages", "条消息");
    // A sessionless key names the client again: the button says only that it has no session.
    let session = if s.key.starts_with(SESSIONLESS) {
        by_lang(lang, SESSIONLESS, "无会话")
    } else {
        s.key.as_str()
    };
    format!(
        "{client} · {era} · {session} · {} {messages}{ended}",
        s.messages
    )
}

#[component]
fn WatchPanel(ctl: Controller) -> impl IntoView {
    let lang = expect_context::<Settings>().lang;
    let query = window().location().search().unwrap_or_default();
    let asked = params::query_param(&query, "watch").unwrap_or_default();
    let feed = feed_url(&asked);
    let watch = StoredValue::new_local(Watch::default());
    let sessions = RwSignal::new(Vec::<Summary>::new());
    let picked = RwSignal::new(None::<String>);
    // Until the user picks a session, the newest one is drawn (a host's new session, live).
    let user_picked = RwSignal::new(false);
    let status = RwSignal::new(match &feed {
        Ok(_) => Status::Reading,
        Err(why) => Status::Refused(why.clone()),
    });
    let missed = RwSignal::new(0u64);
    let target = RwSignal::new(String::new());

    // The picked session on the diagrams; `first` when it was just picked.
    let show = move |key: &str, first: bool| {
        let shown = watch.with_value(|w| w.session(key).map(|s| s.run.clone()));
        if let Some(run) = shown {
            ctl.show_watched(run, target.get_untracked(), first);
        }
    };

    // The feed is read while the panel lives.
    let alive = Arc::new(AtomicBool::new(true));
    if let Ok(feed) = feed.clone() {
        let alive = Arc::clone(&alive);
        leptos::task::spawn_local(async move {
            let mut since = 0u64;
            // The first read answers at once, so the panel says where things stand.
            let mut wait = 0;
            while alive.load(Ordering::Relaxed) {
                let url = format!("{feed}?since={since}&wait={wait}");
                wait = WAIT_SECS;
                match read(url).await {
                    Ok(page) if alive.load(Ordering::Relaxed) => {
                        since = page.next;
                        let before: Vec<Summary> = sessions.get_untracked();
                        watch.update_value(|w| w.apply(page));
                        let now: Vec<Summary> =
                            watch.with_value(|w| w.sessions().cloned().collect());
                        let (lost, from) = watch.with_value(|w| (w.missed, w.target.clone()));
                        missed.set(lost);
                        target.set(from);
                        status.set(Status::Live);
                        let newest = now.last().map(|s| s.key.clone());
                        match picked.get_untracked() {
                            shown if !user_picked.get_untracked() && shown != newest => {
                                if let Some(newest) = newest {
                                    show(&newest, true);
                                    picked.set(Some(newest));
                                }
                            }
                            None => {}
                            Some(key) => {
                                let changed = before.iter().find(|s| s.key == key)
                                    != now.iter().find(|s| s.key == key);
                                if changed {
                                    show(&key, false);
                                }
                            }
                        }
                        if now != before {
                            sessions.set(now);
                        }
                    }
                    Ok(_) => break,
                    Err(why) => {
                        if !alive.load(Ordering::Relaxed) {
                            break;
                        }
                        status.set(Status::Lost(why));
                        gloo_timers::future::TimeoutFuture::new(RETRY_MS).await;
                    }
                }
            }
        });
    }
    on_cleanup(move || alive.store(false, Ordering::Relaxed));

    let endpoint = feed.clone().ok().map(|f| {
        let base = f.trim_end_matches(PATH);
        format!("{base}mcp")
    });
    let said = move || {
        let lang = lang.get();
        match status.get() {
            Status::Refused(why) => why,
            Status::Lost(why) => format!(
                "{} ({why}); {}",
                by_lang(lang, "The feed cannot be read", "无法读取观察流"),
                by_lang(
                    lang,
                    "trying again. Is the bridge still running?",
                    "正在重试。桥接程序还在运行吗？"
                )
            ),
            Status::Reading => by_lang(lang, "Reading the feed…", "正在读取观察流…").to_owned(),
            Status::Live if sessions.with(Vec::is_empty) => format!(
                "{} {}",
                by_lang(
                    lang,
                    "Nothing has passed yet: point your host at",
                    "还没有任何消息经过：把主机指向"
                ),
                endpoint.clone().unwrap_or_default()
            ),
            Status::Live => format!(
                "{} {} {} {} · {}",
                by_lang(lang, "Live: hosts pointed at", "实时：指向"),
                endpoint.clone().unwrap_or_default(),
                by_lang(lang, "reach", "的主机访问"),
                target.get(),
                if user_picked.get() {
                    by_lang(
                        lang,
                        "pick another session to draw it",
                        "选择另一个会话来绘制",
                    )
                } else {
                    by_lang(
                        lang,
                        "the newest session is drawn until you pick one",
                        "在你选择之前绘制最新的会话",
                    )
                }
            ),
        }
    };

    view! {
        <section id="mf-watch" class="mf-watch" aria-labelledby="mf-watch-title">
            <p><strong id="mf-watch-title">{move || by_lang(lang.get(), "Watching a host through the bridge", "通过桥接观察主机")}</strong></p>
            <p id="mf-watch-status" class="mf-watch-status" role="status">{said}</p>
            <p class="mf-watch-note">{move || by_lang(lang.get(),
                "Step mode does not apply: the page cannot hold a third party's request. Each row lights when its message passes; what the host does inside itself (its model, its user) stays skipped.",
                "单步模式不适用：页面无法暂停第三方的请求。每一行在其消息经过时点亮；主机内部的步骤（模型、用户）保持跳过。")}</p>
            <Show when=move || { missed.get() > 0 }>
                <p class="mf-watch-missed" role="alert">{move || format!("{} {}", by_lang(lang.get(),
                    "The feed let go of older messages before the page read them:", "页面读取前观察流已丢弃较早的消息："), missed.get())}</p>
            </Show>
            <p class="mf-watch-sessions">
                <For each=move || sessions.get() key=|s| (s.key.clone(), s.messages, s.ended) let:s>
                    {
                        let key = s.key.clone();
                        let mine = key.clone();
                        let attr = key.clone();
                        view! {
                                <button class="mf-watch-session" data-session=attr
                                    aria-pressed=move || (picked.get().as_deref() == Some(mine.as_str())).to_string()
                                    on:click=move |_| {
                                        user_picked.set(true);
                                        picked.set(Some(key.clone()));
                                        show(&key, true);
                                    }>
                                    {move || label(&s, lang.get())}
                                </button>
                        }
                    }
                </For>
            </p>
        </section>
    }
}
