//! The user's consent to a tool call: the model's (diagram 2, rows 4 and 5) and an app's (the
//! App diagram's `tools/call`, row app-10), through the same dialog, which names the server the
//! call goes to.

use futures_channel::oneshot;
use serde_json::Value;

use super::host::{Approval, ApprovalRequest, Consent, Host, HostEvent};
use crate::diagram::Row;
use crate::llm::{Llm, ToolCall};
use crate::record::payload::{Payload, SkipReason};
use mcp_flow_client::http::Http;

/// How an app's tool call was allowed, for its row; why not, when it was not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppCallConsent {
    Allowed(&'static str),
    Declined,
}

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// The dialog's question for `tool`, naming where the call goes.
    fn approval_request(
        &self,
        tool: &str,
        arguments: &Value,
        app: Option<&str>,
    ) -> ApprovalRequest {
        let transport = &self.client.transport;
        let server = mcp_flow_client::origin::origin(&transport.url)
            .map(|o| o.serialize())
            .unwrap_or_else(|| transport.url.clone());
        ApprovalRequest {
            tool: tool.to_owned(),
            arguments: arguments.clone(),
            server,
            upstream: transport.upstream(),
            app: app.map(str::to_owned),
        }
    }

    /// Puts `request` to the user: the dialog shows from now on.
    fn put_to_user(&self, request: ApprovalRequest) -> oneshot::Receiver<Consent> {
        let rx = self.answers.await_approval();
        (self.steps.emit)(HostEvent::Approval(Some(request)));
        rx
    }

    /// The user's answer (declined when the dialog went away unanswered); the dialog closes.
    async fn answer(&self, asked: oneshot::Receiver<Consent>) -> Consent {
        let consent = asked.await.unwrap_or(Consent::Declined);
        (self.steps.emit)(HostEvent::Approval(None));
        consent
    }

    /// Rows 4 and 5: ask the user, or skip them when approval is off.
    pub(super) async fn approve(&self, call: &ToolCall, round: u32) -> bool {
        if self.approval.get() == Approval::Auto {
            self.skip(&[Row::Confirm, Row::Confirmed], SkipReason::ApprovalOff);
            return true;
        }
        self.begin(Row::Confirm).await;
        let request = self.approval_request(&call.name, &call.arguments, None);
        let asked = self.put_to_user(request);
        self.done(
            Row::Confirm,
            Some(Payload::ToolCall {
                tool: call.name.clone(),
                arguments: call.arguments.clone(),
                round,
            }),
        );
        self.steps.activate(Row::Confirmed);
        let approved = self.answer(asked).await != Consent::Declined;
        self.done(Row::Confirmed, Some(Payload::Decision { approved }));
        approved
    }

    /// An app's `tools/call` of `tool`: asked as the model's would be (the app named), unless
    /// approval is off or the user allowed this app's calls of this tool for the rest of the run.
    pub(super) async fn approve_app_call(
        &self,
        app: &str,
        tool: &str,
        arguments: &Value,
    ) -> AppCallConsent {
        if self.approval.get() == Approval::Auto {
            return AppCallConsent::Allowed("approval is off");
        }
        if self.answers.allowed_for_run(app, tool) {
            return AppCallConsent::Allowed("allowed for the rest of the run");
        }
        let request = self.approval_request(tool, arguments, Some(app));
        let asked = self.put_to_user(request);
        match self.answer(asked).await {
            Consent::Declined => AppCallConsent::Declined,
            Consent::Once => AppCallConsent::Allowed("approved by the user"),
            Consent::ForTheRun => {
                self.answers.allow_for_run(app, tool);
                AppCallConsent::Allowed("approved by the user for the rest of the run")
            }
        }
    }
}
