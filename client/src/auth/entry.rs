//! The flow's two entry points on [`Authorizer`]: each fetches the flow's module (in the release
//! build; see `flow::entry`) before the flow runs.

use super::{AuthError, Authorizer, Challenge, flow};
use crate::transport::FlowTransport;
use mcp_flow_on_demand::call_on_demand;

impl Authorizer {
    /// Answers a 401 or a 403 `insufficient_scope`: a new authorization, with the union of the
    /// scopes asked so far on a step-up. At most [`MAX_TRIES`] without an accepted request.
    pub async fn on_challenge(
        &self,
        t: &dyn FlowTransport,
        status: u16,
        challenge: &Challenge,
    ) -> Result<(), AuthError> {
        let entry = call_on_demand!(flow::entry())
            .map_err(|e| AuthError::NotLoaded(e.into_message("authorizes")))?;
        (entry.challenge)(self, t, status, challenge).await
    }

    /// Before a request: a token past its end is refreshed when there is a refresh token. A
    /// refusal drops the tokens, so the server's 401 starts a new authorization.
    pub async fn refresh_if_expired(&self, t: &dyn FlowTransport) {
        // Tokens come from a flow, so the flow's module is already here when there are some.
        if self.state.borrow().tokens.is_none() {
            return;
        }
        if let Ok(entry) = call_on_demand!(flow::entry()) {
            (entry.refresh)(self, t).await;
        }
    }
}
