//! The connection panel: what the run learned about the server and the link to it (from the real
//! exchanges, see `record::facts`), and the server's log lines with a level filter.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{Msg, by_lang};
use super::lazy_view::{ViewFn, lazy_panel};
use super::stores::Settings;
use crate::mcp::era::Era;
use crate::mcp::log_level::{self, LogLevel};
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};
use crate::record::diff::{Change, Offer, diff};
use crate::record::facts::{ConnectionFacts, log_lines};

/// The panel body's texts, kept with its on-demand view (out of the first load's table).
#[derive(Clone, Copy)]
enum ConnText {
    ConnServer,
    ConnVersion,
    ConnSession,
    ConnClosed,
    ConnStateless,
    ConnNoSession,
    ConnVersions,
    ConnFresh,
    ConnInstructions,
    ConnServerCaps,
    ConnClientCaps,
    ConnNothing,
    Logs,
    LogsNone,
    LogAsk,
    LogAskOff,
    LogAskHint,
    LogLevel,
    Browse,
    BrowseHint,
    CallTool,
    CallArgs,
    CallHint,
    Changed,
    ChangedSince,
    ChangedFile,
    ChangedAgainst,
    ChangedNone,
    ChangedNoEarlier,
}

impl ConnText {
    fn get(self, lang: crate::diagram::Lang) -> &'static str {
        match self {
            Self::ConnServer => by_lang(lang, "Server", "服务器"),
            Self::ConnVersion => by_lang(lang, "Protocol version", "协议版本"),
            Self::ConnSession => by_lang(lang, "Session", "会话"),
            Self::ConnClosed => by_lang(lang, "closed with DELETE", "已用 DELETE 关闭"),
            Self::ConnStateless => by_lang(lang, "none (a stateless server)", "无（无状态服务器）"),
            Self::ConnNoSession => by_lang(
                lang,
                "none: 2026-07-28 has no sessions",
                "无：2026-07-28 没有会话",
            ),
            Self::ConnVersions => by_lang(lang, "Versions the server supports", "服务器支持的版本"),
            Self::ConnFresh => by_lang(lang, "Discovery stays fresh for", "发现结果的有效期"),
            Self::ConnInstructions => by_lang(lang, "Instructions", "说明"),
            Self::ConnServerCaps => by_lang(lang, "Server capabilities", "服务器能力"),
            Self::ConnClientCaps => {
                by_lang(lang, "Client capabilities (sent)", "客户端能力（已发送）")
            }
            Self::ConnNothing => by_lang(
                lang,
                "Nothing known yet: start a run.",
                "尚无信息：请开始一次运行。",
            ),
            Self::Logs => by_lang(
                lang,
                "Server logs (notifications/message)",
                "服务器日志（notifications/message）",
            ),
            Self::LogsNone => by_lang(lang, "No log lines at this level.", "此级别没有日志。"),
            Self::LogAsk => by_lang(lang, "Ask the server for", "向服务器请求的级别"),
            Self::LogAskOff => by_lang(lang, "no log lines", "不要日志"),
            Self::LogAskHint => by_lang(
                lang,
                "From the next run: logging/setLevel after initialize (2025-11-25), or the level in each request's _meta (2026-07-28). Below, filter what came.",
                "从下一次运行起生效：initialize 之后发送 logging/setLevel（2025-11-25），或在每个请求的 _meta 中携带级别（2026-07-28）。下面筛选已收到的日志。",
            ),
            Self::LogLevel => by_lang(lang, "At least", "最低级别"),
            Self::Browse => by_lang(
                lang,
                "Browse resources, prompts and tasks",
                "浏览资源、提示和任务",
            ),
            Self::Changed => by_lang(
                lang,
                "What changed (capabilities, tools, resources, templates, prompts and their schemas)",
                "有什么变化（能力、工具、资源、模板、提示及其模式）",
            ),
            Self::ChangedSince => by_lang(lang, "From run", "对比运行"),
            Self::ChangedFile => by_lang(
                lang,
                "or from a recording (not loaded)",
                "或对比一个记录（不加载）",
            ),
            Self::ChangedAgainst => by_lang(lang, "From the recording", "对比记录"),
            Self::ChangedNone => by_lang(
                lang,
                "Nothing changed in what both runs listed.",
                "两次运行都列出的内容没有变化。",
            ),
            Self::ChangedNoEarlier => by_lang(
                lang,
                "No earlier run on this page yet: run again (or load a recording) to compare.",
                "本页面还没有更早的运行：再运行一次（或加载一个记录）即可比较。",
            ),
            Self::CallTool => by_lang(lang, "Call a tool without the model", "不经模型调用工具"),
            Self::CallArgs => by_lang(lang, "Arguments (a JSON object)", "参数（JSON 对象）"),
            Self::CallHint => by_lang(
                lang,
                "Diagram 2 calls the tool itself, as the link ?call=TOOL&args=JSON does: the model's rows are skipped, the result is the answer, and the tool's app, if it has one, is rendered.",
                "图 2 直接调用该工具，和链接 ?call=TOOL&args=JSON 一样：跳过模型的步骤，结果即为回答；如果工具带有应用，则渲染该应用。",
            ),
            Self::BrowseHint => by_lang(
                lang,
                "Lists and reads the server's resources, completes a template's variable, gets a prompt, listens for an update and follows a tool as a task, as the diagram \"Resources, prompts, completion and tasks\" (on this connection, or a new one).",
                "列出并读取服务器的资源，补全模板变量，获取提示，监听更新，并把一个工具作为任务跟踪，绘成图「资源、提示、补全与任务」（使用当前连接，或新建连接）。",
            ),
        }
    }

    /// The text in the page's language, as the page's language changes.
    fn shown(self) -> impl Fn() -> &'static str + Copy {
        let settings = expect_context::<Settings>();
        move || self.get(settings.lang.get())
    }
}

fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn connection_body(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let level = RwSignal::new(LogLevel::Debug);
    let facts = Memo::new(move |_| ctl.run.with(ConnectionFacts::of));
    let rows = move || {
        let lang = settings.lang.get();
        let t = move |m: ConnText| m.get(lang);
        let f = facts.get();
        let mut out: Vec<(ConnText, String, bool)> = Vec::new();
        let mut add = |m: ConnText, v: Option<String>, code: bool| {
            if let Some(v) = v {
                out.push((m, v, code));
            }
        };
        add(
            ConnText::ConnServer,
            f.server.clone().map(|s| match &f.server_title {
                Some(title) => format!("{s} ({title})"),
                None => s,
            }),
            false,
        );
        add(
            ConnText::ConnVersion,
            f.version.clone().map(|v| match f.era {
                Some(Era::Modern) => format!("{v} (2026-07-28 era)"),
                Some(Era::Legacy) => format!("{v} (2025-11-25 era)"),
                None => v,
            }),
            false,
        );
        add(
            ConnText::ConnSession,
            match f.era {
                Some(Era::Legacy) => Some(match &f.session {
                    Some(id) if f.session_closed => format!("{id} ({})", t(ConnText::ConnClosed)),
                    Some(id) => id.clone(),
                    None => t(ConnText::ConnStateless).to_owned(),
                }),
                Some(Era::Modern) => Some(t(ConnText::ConnNoSession).to_owned()),
                None => None,
            },
            false,
        );
        add(
            ConnText::ConnVersions,
            (!f.supported_versions.is_empty()).then(|| f.supported_versions.join(", ")),
            false,
        );
        add(
            ConnText::ConnFresh,
            f.ttl_ms.map(|ms| match &f.cache_scope {
                Some(scope) => format!("{ms} ms, {scope}"),
                None => format!("{ms} ms"),
            }),
            false,
        );
        add(ConnText::ConnInstructions, f.instructions.clone(), false);
        add(
            ConnText::ConnServerCaps,
            f.server_capabilities.as_ref().map(pretty),
            true,
        );
        add(
            ConnText::ConnClientCaps,
            f.client_capabilities.as_ref().map(pretty),
            true,
        );
        if out.is_empty() {
            return view! { <p class="mf-hint">{t(ConnText::ConnNothing)}</p> }.into_any();
        }
        view! {
            <dl class="mf-values">
                {out.into_iter().map(|(m, v, code)| view! {
                    <dt>{t(m)}</dt>
                    <dd>{if code { view! { <pre class="mf-json">{v}</pre> }.into_any() } else { v.into_any() }}</dd>
                }).collect_view()}
            </dl>
        }
        .into_any()
    };
    let logs = move || {
        let lines = ctl.run.with(|r| log_lines(r, level.get()));
        if lines.is_empty() {
            return view! { <p class="mf-hint">{ConnText::LogsNone.shown()}</p> }.into_any();
        }
        view! {
            <ol id="mf-logs" class="mf-logs">
                {lines.into_iter().map(|l| view! {
                    <li data-level=l.level.clone()>
                        <span class="mf-log-level">{l.level.clone()}</span>" "
                        {l.logger.map(|g| view! { <span class="mf-log-logger">{g}</span>" " })}
                        <span class="mf-log-text">{l.text}</span>
                    </li>
                }).collect_view()}
            </ol>
        }
        .into_any()
    };
    view! {
            <p>
                <button
                    id="mf-browse"
                    disabled=move || ctl.running.get()
                    on:click=move |_| ctl.browse(ctl.mode.get_untracked())
                >
                    {ConnText::Browse.shown()}
                </button>
                " "
                <span class="mf-hint">{ConnText::BrowseHint.shown()}</span>
            </p>
            {call_form(ctl)}
            <div id="mf-connection-facts">{rows}</div>
            {changes(ctl)}
            <h3>{ConnText::Logs.shown()}</h3>
            <label>
                {ConnText::LogAsk.shown()}
                <select
                    id="mf-log-ask"
                    on:change=move |ev| settings.log_level.set(log_level::asked_from_str(&event_target_value(&ev)))
                >
                    <option value="off" selected=move || settings.log_level.get().is_none()>
                        {ConnText::LogAskOff.shown()}
                    </option>
                    {LogLevel::ALL.into_iter().map(|l| view! {
                        <option value=l.as_str() selected=move || settings.log_level.get() == Some(l)>
                            {l.as_str()}
                        </option>
                    }).collect_view()}
                </select>
            </label>
            <p class="mf-hint">{ConnText::LogAskHint.shown()}</p>
            <label>
                {ConnText::LogLevel.shown()}
                <select
                    id="mf-log-level"
                    on:change=move |ev| level.set(LogLevel::parse(&event_target_value(&ev)).unwrap_or(LogLevel::Debug))
                >
                    {LogLevel::ALL.into_iter().map(|l| view! { <option value=l.as_str()>{l.as_str()}</option> }).collect_view()}
                </select>
            </label>
            {logs}
    }
}

/// The tools the run listed, to call one without the model (what `?call=` does).
fn call_form(ctl: Controller) -> impl IntoView {
    let tools = Memo::new(move |_| {
        ctl.run
            .with(|r| match r.payload(crate::diagram::Row::ListToolsResult) {
                Some(crate::record::payload::Payload::Tools { names, .. }) => names.clone(),
                _ => Vec::new(),
            })
    });
    let picked = RwSignal::new(String::new());
    let args = RwSignal::new("{}".to_owned());
    let call = move |_| {
        let tool = picked.get_untracked();
        let tool = if tool.is_empty() {
            tools
                .with_untracked(|t| t.first().cloned())
                .unwrap_or_default()
        } else {
            tool
        };
        if tool.is_empty() {
            return;
        }
        let settings = ctl.settings;
        settings.call_tool.set(tool);
        settings.call_args.set(args.get_untracked());
        ctl.ask(ctl.mode.get_untracked());
        // This once: the next Ask asks the model again.
        settings.call_tool.set(String::new());
    };
    move || {
        (!tools.with(Vec::is_empty)).then(|| {
            view! {
                <fieldset id="mf-call-form" class="mf-call-form">
                    <legend>{ConnText::CallTool.shown()}</legend>
                    <select id="mf-call-tool" on:change=move |ev| picked.set(event_target_value(&ev))>
                        {tools.get().into_iter().map(|name| view! { <option value=name.clone()>{name.clone()}</option> }).collect_view()}
                    </select>
                    <label>
                        {ConnText::CallArgs.shown()}
                        <input id="mf-call-args" type="text" prop:value=move || args.get()
                            on:input=move |ev| args.set(event_target_value(&ev)) />
                    </label>
                    <button id="mf-call" disabled=move || ctl.running.get() on:click=call>
                        {ConnText::CallTool.shown()}
                    </button>
                    <p class="mf-hint">{ConnText::CallHint.shown()}</p>
                </fieldset>
            }
        })
    }
}

/// What changed from an earlier run of this page (the previous one at first) to the run shown.
fn changes(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    // The earlier run compared, by its number; `None`: the latest one.
    let picked = RwSignal::new(None::<usize>);
    // A recording read from a file, compared without loading it: its name and what it offered.
    let against = RwSignal::new(None::<(String, Offer)>);
    let problem = RwSignal::new(String::new());
    let read_file = move |ev: leptos::ev::Event| {
        let Some(file) = super::share::picked_file(&ev) else {
            return;
        };
        let name = file.name();
        let lang = settings.lang.get_untracked();
        leptos::task::spawn_local(async move {
            match super::share::read_recording_file(file, lang).await {
                Ok(rec) => {
                    problem.set(String::new());
                    against.set(Some((name, Offer::of(&rec.run.mcp.exchanges))));
                }
                Err(why) => {
                    against.set(None);
                    problem.set(why);
                }
            }
        });
    };
    let list = move || {
        let lang = settings.lang.get();
        let runs = ctl.past.runs.get();
        let earlier = picked
            .get()
            .and_then(|n| runs.iter().find(|r| r.run == n))
            .or(runs.last())
            .map(|r| Offer::of(&r.exchanges));
        let Some(before) = against
            .with(|a| a.as_ref().map(|(_, o)| o.clone()))
            .or(earlier)
        else {
            return view! { <p class="mf-hint">{ConnText::ChangedNoEarlier.get(lang)}</p> }
                .into_any();
        };
        let after = ctl.run.with(|r| Offer::of(&r.mcp.exchanges));
        let found = diff(&before, &after);
        if found.is_empty() {
            return view! { <p id="mf-diff" class="mf-hint">{ConnText::ChangedNone.get(lang)}</p> }
                .into_any();
        }
        view! {
            <ul id="mf-diff">
                {found.into_iter().map(|c| {
                    let how = match c {
                        Change::Added { .. } => "added",
                        Change::Removed { .. } => "removed",
                        Change::Changed { .. } => "changed",
                    };
                    view! { <li data-change=how>{c.say(lang)}</li> }
                }).collect_view()}
            </ul>
        }
        .into_any()
    };
    view! {
        <h3>{ConnText::Changed.shown()}</h3>
        <label>
            {ConnText::ChangedSince.shown()}
            <select id="mf-diff-from" on:change=move |ev| {
                against.set(None);
                picked.set(event_target_value(&ev).parse().ok());
            }>
                {move || ctl.past.runs.get().iter().rev().map(|r| {
                    let n = r.run;
                    view! { <option value=n.to_string()>{format!("#{n}")}</option> }
                }).collect_view()}
            </select>
        </label>
        <label>
            {ConnText::ChangedFile.shown()}
            " "
            <input id="mf-diff-file" type="file" accept=".json,application/json" on:change=read_file />
        </label>
        {move || against.with(|a| a.as_ref().map(|(name, _)| view! {
            <p id="mf-diff-against" class="mf-hint">{ConnText::ChangedAgainst.shown()}": "{name.clone()}</p>
        }))}
        {move || (!problem.get().is_empty()).then(|| view! { <p class="mf-error" role="alert">{problem.get()}</p> })}
        {list}
    }
}

on_demand!(
    ui_panels,
    fn connection_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| connection_body(ctl).into_any())
    }
);

/// The connection's facts and the server's logs, closed at first: the body is fetched the first
/// time the user opens it.
#[component]
pub fn ConnectionPanel(ctl: Controller) -> impl IntoView {
    lazy_panel(
        ctl,
        "mf-connection",
        "mf-connection",
        Msg::Connection,
        false,
        || Box::pin(async { call_on_demand!(connection_fn()) }),
    )
}
