//! The server's sampling request, with the user in the loop: first the request (its system prompt
//! and messages, editable; its limits and model preferences), sent to the model or refused; then
//! the model's answer, editable, sent to the server or refused. Server text is shown as text.

use leptos::prelude::*;

use super::controller::Controller;
use super::i18n::{by_lang, fill, in_lang};
use super::lazy_view::{ViewFn, lazy_view};
use super::stores::Settings;
use crate::flow::host::SamplingDialog;
use crate::mcp::sampling::SamplingRequest;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};

/// The request as the user may change it: the system prompt and each message's text.
fn review_view(ctl: Controller, request: SamplingRequest) -> AnyView {
    let lang = expect_context::<Settings>().lang;
    let system = RwSignal::new(request.system_prompt.clone());
    let texts: Vec<RwSignal<String>> = request
        .messages
        .iter()
        .map(|m| RwSignal::new(m.text.clone()))
        .collect();
    let limits = fill(
        by_lang(
            lang.get_untracked(),
            "At most {tokens} tokens (the server asked {asked}). Model preferences: {preferences}.",
            "最多 {tokens} 个 token（服务器请求 {asked} 个）。模型偏好：{preferences}。",
        ),
        &[
            ("tokens", &request.tokens().to_string()),
            ("asked", &request.max_tokens.to_string()),
            ("preferences", request.preferences.as_deref().unwrap_or("—")),
        ],
    );
    let messages = request
        .messages
        .iter()
        .zip(texts.iter().copied())
        .enumerate()
        .map(|(i, (m, t))| {
            let id = format!("mf-sampling-msg-{i}");
            let label_for = id.clone();
            view! {
                <label class="mf-form-field" for=label_for>
                    <span class="mf-form-title">{m.role.word()}</span>
                    <textarea id=id rows="3" prop:value=move || t.get()
                        on:input=move |ev| t.set(event_target_value(&ev))></textarea>
                </label>
            }
        })
        .collect_view();
    let send = move |_| {
        let mut edited = request.clone();
        edited.system_prompt = system.get_untracked();
        for (m, t) in edited.messages.iter_mut().zip(&texts) {
            m.text = t.get_untracked();
        }
        ctl.review_sampling(Some(edited));
    };
    view! {
        <h2 id="mf-sampling-title">{in_lang(lang, "The server asks your model", "服务器请求使用你的模型")}</h2>
        <p>{in_lang(lang, "No model sees this until you send it. You may edit it first.", "在你发送之前，任何模型都看不到它。你可以先编辑。")}</p>
        <p id="mf-sampling-limits" class="mf-sampling-limits">{limits}</p>
        {move || system.get().is_some().then(|| view! {
            <label class="mf-form-field" for="mf-sampling-system">
                <span class="mf-form-title">{in_lang(lang, "System prompt", "系统提示")}</span>
                <textarea id="mf-sampling-system" rows="2" prop:value=move || system.get().unwrap_or_default()
                    on:input=move |ev| system.set(Some(event_target_value(&ev)))></textarea>
            </label>
        })}
        {messages}
        <button id="mf-sampling-send" on:click=send>{in_lang(lang, "Send to the model", "发送给模型")}</button>
        <button id="mf-sampling-refuse" on:click=move |_| ctl.review_sampling(None)>
            {in_lang(lang, "Refuse", "拒绝")}
        </button>
    }
    .into_any()
}

/// The model's answer, which the user may edit before it goes back.
fn approve_view(ctl: Controller, answer: String, model: String) -> AnyView {
    let lang = expect_context::<Settings>().lang;
    let edited = RwSignal::new(answer);
    view! {
        <h2 id="mf-sampling-title">
            {move || fill(by_lang(lang.get(), "Your model answered ({model})", "你的模型已回答（{model}）"), &[("model", &model)])}
        </h2>
        <p>{in_lang(lang, "Nothing goes back to the server until you send it. You may edit it first.", "在你发送之前，什么都不会发回服务器。你可以先编辑。")}</p>
        <textarea id="mf-sampling-answer" rows="5" aria-labelledby="mf-sampling-title" prop:value=move || edited.get()
            on:input=move |ev| edited.set(event_target_value(&ev))></textarea>
        <p>
            <button id="mf-sampling-approve" on:click=move |_| ctl.approve_sampling(Some(edited.get_untracked()))>
                {in_lang(lang, "Send to the server", "发送给服务器")}
            </button>
            <button id="mf-sampling-refuse" on:click=move |_| ctl.approve_sampling(None)>
                {in_lang(lang, "Refuse", "拒绝")}
            </button>
        </p>
    }
    .into_any()
}

fn sampling_dialog(ctl: Controller) -> impl IntoView {
    move || {
        let inner = match ctl.dialogs.sampling.get()? {
            SamplingDialog::Review(request) => review_view(ctl, request),
            SamplingDialog::Approve { answer, model, .. } => approve_view(ctl, answer, model),
        };
        Some(view! {
            <div id="mf-sampling" class="mf-dialog mf-form mf-sampling" role="dialog" aria-modal="true"
                aria-labelledby="mf-sampling-title">
                {inner}
            </div>
        })
    }
}

on_demand!(
    server_questions,
    fn sampling_dialog_fn() -> Result<ViewFn, OnDemandError> {
        Ok(|ctl| sampling_dialog(ctl).into_any())
    }
);

/// The sampling dialog, fetched the first time a server asks for the model.
#[component]
pub fn SamplingDialogView(ctl: Controller) -> impl IntoView {
    lazy_view(
        ctl,
        Box::new(move || ctl.dialogs.sampling.with(Option::is_some)),
        || Box::pin(async { call_on_demand!(sampling_dialog_fn()) }),
    )
}
