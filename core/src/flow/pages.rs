//! Error -32042 (2025-11-25): a tools/call the server will run only once the user has been
//! through its pages (URL elicitations). The pages are put to the user on the form rows; once
//! opened, the host waits on row ElicitReply for the server to say each is done
//! (`notifications/elicitation/complete`), or for the user to retry at once or cancel, then sends
//! the same call again.

use futures_channel::mpsc::UnboundedReceiver;
use futures_util::StreamExt;
use futures_util::future::{Either, select};
use rmcp::model::ElicitationAction;
use serde_json::Value;

use super::host::Host;
use super::steps::{FormRequest, HostEvent, Stopped};
use crate::diagram::Row;
use crate::llm::Llm;
use mcp_flow_client::http::Http;
use mcp_flow_client::questions::completes;
use mcp_flow_client::tools::Retry;

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// After the user's answers to the pages `ids` (in `answered`): every page opened, then
    /// the server says each is done, or the user retries; otherwise the call is not sent again.
    pub(super) async fn until_pages_done(
        &self,
        answered: &Retry,
        ids: Vec<String>,
        mut heard: UnboundedReceiver<Value>,
    ) -> Result<(), Stopped> {
        let refused = answered.responses.values().find_map(|answer| {
            let action = answer.get("action").and_then(Value::as_str).unwrap_or("?");
            (action != "accept").then(|| action.to_owned())
        });
        if let Some(action) = refused {
            return Err(self.fail(
                Row::ElicitReply,
                format!(
                    "not called again: the server runs the tool only after its page is done \
                     (error -32042), and you answered {action}"
                ),
            ));
        }
        let mut left = ids;
        let mut user = self.answers.await_form();
        (self.steps.emit)(HostEvent::Form(Some(FormRequest {
            message: waiting_message(&left, self.client.is_hearing()),
            schema: Value::Null,
            url: None,
            awaiting: true,
        })));
        let outcome = loop {
            match select(heard.next(), &mut user).await {
                Either::Left((Some(message), _)) => {
                    left.retain(|id| !completes(&message, id));
                    if left.is_empty() {
                        break Ok(());
                    }
                }
                // The client is gone: only the user can end the wait.
                Either::Left((None, _)) => {
                    let answer = (&mut user).await;
                    break match answer {
                        Ok(a) if a.action == ElicitationAction::Accept => Ok(()),
                        _ => Err(()),
                    };
                }
                Either::Right((Ok(a), _)) if a.action == ElicitationAction::Accept => break Ok(()),
                Either::Right(_) => break Err(()),
            }
        };
        (self.steps.emit)(HostEvent::Form(None));
        outcome.map_err(|()| {
            self.fail(
                Row::ElicitReply,
                "not called again: you cancelled while waiting for the server to say its page \
                 is done (error -32042)"
                    .into(),
            )
        })
    }
}

/// What the wait says: which pages, and whether the server can say they are done.
fn waiting_message(ids: &[String], hearing: bool) -> String {
    let how = if hearing {
        "The call goes again once the server says the page is done \
         (notifications/elicitation/complete on the session's GET stream), or now if you retry."
    } else {
        "The server has no GET stream open to say the page is done: retry once you are through it."
    };
    format!("Waiting for the page ({}). {how}", ids.join(", "))
}
