//! The server's form (an elicitation), built from its schema: a field per property, with the
//! required ones marked; Send checks the entries against the schema before anything goes out.

use leptos::prelude::*;
use rmcp::model::{ElicitResult, ElicitationAction};
use serde_json::{Map, Value};

use super::controller::Controller;
use super::i18n::in_lang;
use super::lazy_view::{ViewFn, lazy_view};
use super::stores::Settings;
use crate::flow::form_fields::{FieldKind, FormField, content, fields, picked, toggled};
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};

/// One field of a form built from a schema; its input's id is `{prefix}-{name}`.
pub(super) fn field_view(
    prefix: &'static str,
    field: FormField,
    entries: RwSignal<Map<String, Value>>,
    lang: RwSignal<crate::diagram::Lang>,
) -> impl IntoView {
    let name = field.name.clone();
    let id = format!("{prefix}-{}", field.name);
    let set = {
        let name = name.clone();
        move |value: Value| entries.update(|e| drop(e.insert(name.clone(), value)))
    };
    let multi = matches!(field.kind, FieldKind::MultiChoice { .. });
    let input = match field.kind.clone() {
        FieldKind::Choice(choices) => {
            let set = set.clone();
            let default = field.default.clone();
            view! {
                <select id=id.clone() on:change=move |ev| set(Value::String(event_target_value(&ev)))>
                    <option value="">"—"</option>
                    {choices.into_iter().map(|(value, title)| {
                        let chosen = default.as_deref() == Some(value.as_str());
                        view! { <option value=value selected=chosen>{title}</option> }
                    }).collect_view()}
                </select>
            }
            .into_any()
        }
        FieldKind::MultiChoice { choices, .. } => {
            let start = picked(field.default.clone().map(Value::String).as_ref());
            let boxes = choices
                .into_iter()
                .enumerate()
                .map(|(i, (value, title))| {
                    let name = name.clone();
                    let ticked = start.contains(&value);
                    let on_change = move |ev| {
                        let on = event_target_checked(&ev);
                        entries.update(|e| {
                            let now = toggled(e.get(&name), &value, on);
                            e.insert(name.clone(), now);
                        });
                    };
                    view! {
                        <label class="mf-form-choice">
                            <input id=format!("{id}-{i}") type="checkbox" prop:checked=ticked on:change=on_change />
                            {title}
                        </label>
                    }
                })
                .collect_view();
            view! { <span id=id.clone() class="mf-form-choices">{boxes}</span> }.into_any()
        }
        FieldKind::Boolean => {
            let set = set.clone();
            view! {
                <input id=id.clone() type="checkbox"
                    prop:checked=field.default.as_deref() == Some("true")
                    on:change=move |ev| set(Value::Bool(event_target_checked(&ev))) />
            }
            .into_any()
        }
        FieldKind::Number { .. } => {
            let set = set.clone();
            view! {
                <input id=id.clone() type="number" prop:value=field.default.clone().unwrap_or_default()
                    on:input=move |ev| set(Value::String(event_target_value(&ev))) />
            }
            .into_any()
        }
        FieldKind::Text { format } => {
            let kind = match format.as_deref() {
                Some("email") => "email",
                Some("uri") => "url",
                Some("date") => "date",
                _ => "text",
            };
            let set = set.clone();
            view! {
                <input id=id.clone() type=kind prop:value=field.default.clone().unwrap_or_default()
                    on:input=move |ev| set(Value::String(event_target_value(&ev))) />
            }
            .into_any()
        }
    };
    let title = view! {
        {field.title.clone()}
        {field.required.then(|| view! { <span class="mf-required" title=in_lang(lang, "required", "必填")>" *"</span> })}
    };
    let description = field
        .description
        .clone()
        .map(|d| view! { <small>{d}</small> });
    if multi {
        // Several boxes, each with its own label: a group named by its legend.
        return view! {
            <fieldset class="mf-form-field">
                <legend class="mf-form-title">{title}</legend>
                {input}
                {description}
            </fieldset>
        }
        .into_any();
    }
    view! {
        <label class="mf-form-field" for=id>
            <span class="mf-form-title">{title}</span>
            {input}
            {description}
        </label>
    }
    .into_any()
}

fn form_dialog(ctl: Controller) -> impl IntoView {
    let settings = expect_context::<Settings>();
    let problem = RwSignal::new(String::new());
    move || {
        let form = ctl.dialogs.form.get()?;
        if form.awaiting {
            return Some(waiting_view(ctl, form.message.clone()).into_any());
        }
        if let Some(page) = form.url.clone() {
            return Some(url_view(ctl, form.message.clone(), page).into_any());
        }
        let fields = fields(&form.schema);
        let entries = RwSignal::new(
            fields
                .iter()
                .filter_map(|f| {
                    f.default
                        .clone()
                        .map(|d| (f.name.clone(), Value::String(d)))
                })
                .collect::<Map<String, Value>>(),
        );
        problem.set(String::new());
        let send = {
            let fields = fields.clone();
            move |_| match content(&fields, &entries.get_untracked()) {
                Ok(content) => ctl.answer_form(
                    ElicitResult::new(ElicitationAction::Accept).with_content(content),
                ),
                Err(why) => problem.set(why),
            }
        };
        Some(view! {
            <div class="mf-dialog mf-form" role="dialog" aria-modal="true" aria-labelledby="mf-form-title">
                <h2 id="mf-form-title">{in_lang(settings.lang, "The server asks", "服务器提问")}</h2>
                <p class="mf-form-message">{form.message.clone()}</p>
                {fields.into_iter().map(|f| field_view("mf-form", f, entries, settings.lang)).collect_view()}
                <p id="mf-form-problem" class="mf-error-line" role="alert">{move || problem.get()}</p>
                <button id="mf-form-send" on:click=send>{in_lang(settings.lang, "Send", "发送")}</button>
                <button id="mf-form-decline" on:click=move |_| ctl.answer_form(ElicitResult::new(ElicitationAction::Decline))>
                    {in_lang(settings.lang, "Decline", "拒绝")}
                </button>
                <button id="mf-form-cancel" on:click=move |_| ctl.answer_form(ElicitResult::new(ElicitationAction::Cancel))>
                    {in_lang(settings.lang, "Cancel", "取消")}
                </button>
            </div>
        }.into_any())
    }
}

/// URL mode: the server's message, the page and its origin; the page opens only when the user
/// says so, in a new tab with no opener and no referrer (nothing of this page goes with it).
fn url_view(ctl: Controller, message: String, page: crate::flow::host::UrlToOpen) -> impl IntoView {
    let lang = expect_context::<Settings>().lang;
    let open = {
        let url = page.url.clone();
        move |_| {
            let opened = web_sys::window().and_then(|w| {
                w.open_with_url_and_target_and_features(&url, "_blank", "noopener,noreferrer")
                    .ok()
            });
            // With noopener the browser hands back no window: the tab opened all the same.
            let _ = opened;
            ctl.answer_form(ElicitResult::new(ElicitationAction::Accept));
        }
    };
    view! {
        <div id="mf-form-url" class="mf-dialog mf-form" role="dialog" aria-modal="true" aria-labelledby="mf-form-title">
            <h2 id="mf-form-title">{in_lang(lang, "The server asks you to open a page", "服务器请你打开一个页面")}</h2>
            <p class="mf-form-message">{message}</p>
            <p>{in_lang(lang, "It leads to", "它通向")}" "<strong id="mf-form-origin">{page.origin.clone()}</strong></p>
            <p><code id="mf-form-url-text" class="mf-url">{page.url.clone()}</code></p>
            <p><small>{in_lang(lang, "Opened in a new tab, without this page's tokens; the server learns only your answer.", "在新标签页中打开，不带本页面的令牌；服务器只会得知你的回答。")}</small></p>
            <button id="mf-form-open" on:click=open>{in_lang(lang, "Open it", "打开")}</button>
            <button id="mf-form-decline" on:click=move |_| ctl.answer_form(ElicitResult::new(ElicitationAction::Decline))>
                {in_lang(lang, "Decline", "拒绝")}
            </button>
            <button id="mf-form-cancel" on:click=move |_| ctl.answer_form(ElicitResult::new(ElicitationAction::Cancel))>
                {in_lang(lang, "Cancel", "取消")}
            </button>
        </div>
    }
}

/// Error -32042: the pages were opened and the host waits for the server to say they are done;
/// the user may send the call again at once, or give up on it.
fn waiting_view(ctl: Controller, message: String) -> impl IntoView {
    let lang = expect_context::<Settings>().lang;
    view! {
        <div id="mf-form-wait" class="mf-dialog mf-form" role="dialog" aria-modal="true" aria-labelledby="mf-form-title">
            <h2 id="mf-form-title">{in_lang(lang, "Waiting for the server's page", "等待服务器的页面")}</h2>
            <p class="mf-form-message">{message}</p>
            <button id="mf-form-retry" on:click=move |_| ctl.answer_form(ElicitResult::new(ElicitationAction::Accept))>
                {in_lang(lang, "Call again now", "立即再次调用")}
            </button>
            <button id="mf-form-cancel" on:click=move |_| ctl.answer_form(ElicitResult::new(ElicitationAction::Cancel))>
                {in_lang(lang, "Cancel", "取消")}
            </button>
        </div>
    }
}

on_demand!(
    server_questions,
    fn form_dialog_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| form_dialog(ctl).into_any())
    }
);

/// The form of a question the server asks, fetched the first time a server asks one.
#[component]
pub fn FormDialog(ctl: Controller) -> impl IntoView {
    lazy_view(
        ctl,
        Box::new(move || ctl.dialogs.form.with(Option::is_some)),
        || Box::pin(async { call_on_demand!(form_dialog_fn()) }),
    )
}
