//! The model's turn when the user is the model: pick a tool and fill its arguments in a form
//! built from its `inputSchema` (JSON where a form cannot show the schema, and why), or write the
//! answer. Everything is checked against the schema before the host sees it.

use leptos::prelude::*;
use serde_json::{Map, Value};

use super::controller::Controller;
use super::form::field_view;
use super::i18n::{by_lang, fill};
use super::lazy_view::{ViewFn, lazy_view};
use super::stores::Settings;
use crate::flow::form_fields::fields;
use crate::llm::you::{ArgumentsCheck, Turn, form_arguments, json_arguments, why_json};
use crate::llm::{LlmReply, ToolCall, ToolSpec};
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};

/// The tool picker, its form or JSON box, and the call button.
/// The dialog's texts, kept with its on-demand view (out of the first load's table).
#[derive(Clone, Copy)]
enum YouText {
    Tool,
    Json,
    JsonWhy,
    Call,
    CallAnyway,
    Write,
    ResultError,
    Result,
    Title,
    Asked,
    NoTool,
    SendAnswer,
}

impl YouText {
    fn get(self, lang: crate::diagram::Lang) -> &'static str {
        match self {
            Self::Tool => by_lang(lang, "Tool", "工具"),
            Self::Json => by_lang(lang, "Arguments as JSON", "以 JSON 填写参数"),
            Self::JsonWhy => by_lang(
                lang,
                "A form cannot show this schema ({why}): type the arguments as JSON.",
                "表单无法表示这个 schema（{why}）：请以 JSON 填写参数。",
            ),
            Self::Call => by_lang(lang, "Call the tool", "调用工具"),
            Self::CallAnyway => by_lang(
                lang,
                "Call anyway (see how the server answers)",
                "仍然调用（看服务器如何回应）",
            ),
            Self::Write => by_lang(lang, "The answer the user will see", "用户将看到的回答"),
            Self::ResultError => by_lang(
                lang,
                "{tool} failed (isError: true):",
                "{tool} 失败（isError: true）：",
            ),
            Self::Result => by_lang(lang, "{tool} returned:", "{tool} 返回："),
            Self::Title => by_lang(lang, "You are the model", "你就是模型"),
            Self::Asked => by_lang(lang, "The user asked: {question}", "用户提问：{question}"),
            Self::NoTool => by_lang(lang, "Or answer without a tool", "或者不用工具直接回答"),
            Self::SendAnswer => by_lang(lang, "Send the answer", "发送回答"),
        }
    }

    /// The text in the page's language, as the page's language changes.
    fn shown(self) -> impl Fn() -> &'static str + Copy {
        let settings = expect_context::<Settings>();
        move || self.get(settings.lang.get())
    }
}

fn tool_picker(ctl: Controller, tools: Vec<ToolSpec>, problem: RwSignal<String>) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let chosen = RwSignal::new(0usize);
    let entries = RwSignal::new(Map::<String, Value>::new());
    let json_text = RwSignal::new(String::from("{}"));
    let json_mode = RwSignal::new(false);
    // Arguments typed as JSON that broke the schema: "Call anyway" sends them.
    let anyway = RwSignal::new(None::<Value>);
    let checking = RwSignal::new(false);
    let tools = StoredValue::new(tools);
    let tool = move || tools.with_value(|t| t.get(chosen.get()).cloned());
    let send = move |name: String, arguments: Value| {
        ctl.you_reply(LlmReply::ToolCalls(vec![ToolCall {
            id: String::new(),
            name,
            arguments,
        }]))
    };
    let call = move |_| {
        let Some(tool) = tools.with_value(|t| t.get(chosen.get_untracked()).cloned()) else {
            return;
        };
        anyway.set(None);
        let forced = why_json(&tool.input_schema).is_some();
        if !forced && !json_mode.get_untracked() {
            match form_arguments(&tool, &entries.get_untracked()) {
                Ok(arguments) => send(tool.name, arguments),
                Err(why) => problem.set(why),
            }
            return;
        }
        // JSON can say anything: the whole inputSchema judges it (in the schema worker).
        match json_arguments(&tool, &json_text.get_untracked()) {
            Ok(arguments) => {
                checking.set(true);
                let name = tool.name.clone();
                let sent = arguments.clone();
                ctl.check_arguments(tool.input_schema.clone(), arguments, move |check| {
                    checking.set(false);
                    match check {
                        ArgumentsCheck::Fine | ArgumentsCheck::NotChecked(_) => send(name, sent),
                        ArgumentsCheck::Breaks(why) => {
                            problem.set(why);
                            anyway.set(Some(sent));
                        }
                    }
                });
            }
            Err(why) => problem.set(why),
        }
    };
    let call_anyway = move |_| {
        let (Some(arguments), Some(tool)) = (
            anyway.get_untracked(),
            tools.with_value(|t| t.get(chosen.get_untracked()).cloned()),
        ) else {
            return;
        };
        send(tool.name, arguments);
    };
    view! {
        <label>
            {YouText::Tool.shown()}
            <select id="mf-you-tool" on:change=move |ev| {
                chosen.set(event_target_value(&ev).parse().unwrap_or(0));
                entries.set(Map::new());
                problem.set(String::new());
                anyway.set(None);
            }>
                {tools.with_value(|t| t.iter().enumerate().map(|(i, t)| view! {
                    <option value=i.to_string()>{t.name.clone()}</option>
                }).collect_view())}
            </select>
        </label>
        {move || tool().map(|tool| {
            let why = why_json(&tool.input_schema);
            let forced = why.is_some();
            let description = (!tool.description.is_empty()).then(|| view! { <p class="mf-you-description">{tool.description.clone()}</p> });
            // The tool's annotations, as the server declared them: hints, not guarantees.
            let badges = (!tool.badges.is_empty()).then(|| view! {
                <p id="mf-you-badges">{tool.badges.iter().map(|b| view! { <span class="mf-badge">{b.clone()}</span> }).collect_view()}</p>
            });
            let form = (!forced).then(|| {
                let fields = fields(&tool.input_schema);
                view! {
                    <div class="mf-you-fields" class:mf-hidden=move || json_mode.get()>
                        {fields.into_iter().map(|f| field_view("mf-you", f, entries, settings.lang)).collect_view()}
                    </div>
                    <label class="mf-check">
                        <input id="mf-you-json-toggle" type="checkbox"
                            prop:checked=move || json_mode.get()
                            on:change=move |ev| json_mode.set(event_target_checked(&ev)) />
                        {YouText::Json.shown()}
                    </label>
                }
            });
            view! {
                {description}
                {badges}
                {why.map(|why| view! {
                    <p id="mf-you-why" class="mf-note-line">{move || fill(YouText::JsonWhy.get(settings.lang.get()), &[("why", &why)])}</p>
                })}
                {form}
                <textarea id="mf-you-json" rows="4" class:mf-hidden=move || !forced && !json_mode.get()
                    prop:value=move || json_text.get()
                    on:input=move |ev| {
                        json_text.set(event_target_value(&ev));
                        anyway.set(None);
                    }></textarea>
            }
        })}
        <button id="mf-you-call" on:click=call prop:disabled=move || checking.get()>{YouText::Call.shown()}</button>
        <button id="mf-you-call-anyway" on:click=call_anyway
            class:mf-hidden=move || anyway.with(Option::is_none)>{YouText::CallAnyway.shown()}</button>
    }
}

fn you_dialog(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let problem = RwSignal::new(String::new());
    move || {
        let turn = ctl.dialogs.you_turn.get()?;
        problem.set(String::new());
        let answer = RwSignal::new(match &turn {
            Turn::Answer { result, .. } => result.clone(),
            Turn::Choose { .. } => String::new(),
        });
        let send_answer = move |_| {
            let text = answer.get_untracked();
            if text.trim().is_empty() {
                problem.set(YouText::Write.get(settings.lang.get_untracked()).to_owned());
            } else {
                ctl.you_reply(LlmReply::Text(text));
            }
        };
        let (question, head) = match &turn {
            Turn::Choose { question, .. } => (question.clone(), None),
            Turn::Answer {
                question,
                tool,
                result,
                is_error,
                ..
            } => {
                let (tool, result, is_error) = (tool.clone(), result.clone(), *is_error);
                let msg = if is_error {
                    YouText::ResultError
                } else {
                    YouText::Result
                };
                (
                    question.clone(),
                    Some(view! {
                        <p class="mf-you-result-title" class:mf-error-line=is_error>
                            {move || fill(msg.get(settings.lang.get()), &[("tool", &tool)])}
                        </p>
                        <pre id="mf-you-result" class="mf-json">{result}</pre>
                    }),
                )
            }
        };
        let choosing = matches!(turn, Turn::Choose { .. });
        let tools = turn.tools().to_vec();
        Some(view! {
            <div id="mf-you" class="mf-dialog mf-form" role="dialog" aria-modal="true" aria-labelledby="mf-you-title">
                <h2 id="mf-you-title">{YouText::Title.shown()}</h2>
                <p class="mf-form-message">{move || fill(YouText::Asked.get(settings.lang.get()), &[("question", &question)])}</p>
                {head}
                {(choosing && !tools.is_empty()).then(|| tool_picker(ctl, tools, problem))}
                <details class="mf-you-answer" open=!choosing>
                    <summary>{(if choosing { YouText::NoTool } else { YouText::Write }).shown()}</summary>
                    <textarea id="mf-you-text" rows="3"
                        prop:value=move || answer.get()
                        on:input=move |ev| answer.set(event_target_value(&ev))></textarea>
                    <button id="mf-you-answer" on:click=send_answer>{YouText::SendAnswer.shown()}</button>
                </details>
                <p id="mf-you-problem" class="mf-error-line" role="alert">{move || problem.get()}</p>
            </div>
        })
    }
}

on_demand!(
    ui_you,
    fn you_dialog_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| you_dialog(ctl).into_any())
    }
);

/// The dialog of the user in the model's place, fetched the first time the user has a turn.
#[component]
pub fn YouDialog(ctl: Controller) -> impl IntoView {
    lazy_view(
        ctl,
        Box::new(move || ctl.dialogs.you_turn.with(Option::is_some)),
        || Box::pin(async { call_on_demand!(you_dialog_fn()) }),
    )
}
