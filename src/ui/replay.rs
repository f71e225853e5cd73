//! The replay panel under the message log: the request's body to edit, what goes with it and
//! what differs from the original (checked as the user types, before anything is sent), and
//! how the send ended.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{by_lang, fill, in_lang};
use super::stores::Settings;
use crate::record::message_log::LineId;

/// The body as the panel first shows it: the recorded one, indented when it is JSON.
pub fn shown_body(recorded: &str) -> String {
    serde_json::from_str::<serde_json::Value>(recorded)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| recorded.to_owned())
}

#[component]
pub fn ReplayPanel(
    ctl: Controller,
    line: LineId,
    body: RwSignal<String>,
    open: RwSignal<Option<LineId>>,
) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let status = RwSignal::new(None::<Result<String, String>>);
    // Checked again when the body or the connection changes, not on every step of the run.
    let connected = Memo::new(move |_| ctl.can_replay());
    let checked = Memo::new(move |_| {
        let _ = connected.get();
        body.with(|b| ctl.prepare_replay(line, b))
    });
    let title = move || {
        fill(
            by_lang(
                settings.lang.get(),
                "Replay of run {run} #{seq}: edit the body, then send it through the live connection",
                "重放第 {run} 次运行的 #{seq}：编辑请求体，然后通过当前连接发送",
            ),
            &[
                ("run", &line.run.to_string()),
                ("seq", &line.seq.to_string()),
            ],
        )
    };
    let send = move |_| {
        let lang = settings.lang.get_untracked();
        status.set(Some(Ok(by_lang(lang, "Sending…", "发送中…").to_owned())));
        ctl.replay(line, &body.get_untracked(), move |ended| {
            status.set(Some(ended.map(|()| {
                by_lang(
                    lang,
                    "Sent: its answer is the log's newest line.",
                    "已发送：应答是日志的最新一行。",
                )
                .to_owned()
            })));
        });
    };
    let notes = move || {
        match checked.get() {
        Ok(p) => view! {
            <ul id="mf-replay-notes" class="mf-replay-notes">
                {p.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
            </ul>
            <p>{in_lang(settings.lang, "Protocol headers it goes with", "随之发送的协议头")}</p>
            <pre id="mf-replay-headers" class="mf-json">
                {p.protocol_headers.into_iter().map(|(n, v)| format!("{n}: {v}\n")).collect::<String>()}
            </pre>
        }
        .into_any(),
        Err(why) => view! { <p id="mf-replay-error" class="mf-error" role="alert">{why}</p> }.into_any(),
    }
    };
    view! {
        <div id="mf-replay" class="mf-replay">
            <p class="mf-replay-title">{title}</p>
            <textarea
                id="mf-replay-body"
                class="mf-json"
                rows="12"
                spellcheck="false"
                prop:value=move || body.get()
                on:input=move |ev| body.set(event_target_value(&ev))
            ></textarea>
            {notes}
            <button id="mf-replay-send" disabled=move || checked.with(Result::is_err) on:click=send>
                {in_lang(settings.lang, "Send", "发送")}
            </button>
            " "
            <button id="mf-replay-close" on:click=move |_| open.set(None)>
                {in_lang(settings.lang, "Close", "关闭")}
            </button>
            {move || status.get().map(|s| match s {
                Ok(done) => view! { <p id="mf-replay-status" role="status">{done}</p> }.into_any(),
                Err(why) => view! { <p id="mf-replay-status" class="mf-error" role="alert">{why}</p> }.into_any(),
            })}
        </div>
    }
}
