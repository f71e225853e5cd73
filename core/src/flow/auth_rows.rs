//! The authorization flow as rows of the Authorization diagram: the host watches the client's
//! [`Authorizer`](mcp_flow_client::auth::Authorizer), passes the gate before each request (Step mode
//! waits there too) and records how each ended.

use std::rc::Rc;

use futures_util::future::LocalBoxFuture;

use super::steps::Steps;
use crate::diagram::Row;
use crate::record::payload::{Payload, SkipReason};
use mcp_flow_client::auth::{AuthStep, Watcher};

/// The rows of a step: the one that goes out first, then the ones its answer finishes.
fn rows(step: AuthStep) -> &'static [Row] {
    match step {
        AuthStep::Challenge => &[Row::AuthChallenge],
        AuthStep::ResourceMetadata => &[Row::AuthResourceMetadata, Row::AuthResourceMetadataResult],
        AuthStep::ServerMetadata => &[Row::AuthServerMetadata, Row::AuthServerMetadataResult],
        AuthStep::Registration => &[Row::AuthRegister, Row::AuthRegistered],
        AuthStep::Consent => &[Row::AuthOpen, Row::AuthConsent, Row::AuthRedirect],
        AuthStep::Token => &[Row::AuthToken, Row::AuthTokenResult],
        AuthStep::Retry => &[Row::AuthRetry],
        AuthStep::Refresh => &[Row::AuthRefresh, Row::AuthRefreshResult],
    }
}

/// The host's side of the flow.
pub struct AuthRows {
    pub steps: Rc<Steps>,
}

impl Watcher for AuthRows {
    fn before(&self, step: AuthStep, asked: String) -> LocalBoxFuture<'static, ()> {
        let steps = self.steps.clone();
        Box::pin(async move {
            let [first, ..] = rows(step) else {
                return;
            };
            steps.begin(*first).await;
            // The request row is done as it goes; its answer finishes the rest.
            if rows(step).len() > 1 {
                steps.done(*first, Some(Payload::Auth { detail: asked }));
            }
            // The user's turn: consenting at the authorization server (the request that
            // carries it, on the command line, is this row's).
            if step == AuthStep::Consent {
                steps.activate(Row::AuthConsent);
            }
        })
    }

    fn after(&self, step: AuthStep, outcome: Result<String, String>) {
        let rows = rows(step);
        match outcome {
            Ok(detail) => {
                let last = rows.len() - 1;
                for (i, row) in rows.iter().enumerate() {
                    // The request row is already done; a one-row step is done here.
                    if i == 0 && last > 0 {
                        continue;
                    }
                    self.steps.done(
                        *row,
                        Some(Payload::Auth {
                            detail: detail.clone(),
                        }),
                    );
                }
            }
            Err(error) => {
                let row = rows.get(1).unwrap_or(&rows[0]);
                let _ = self.steps.fail(*row, error);
            }
        }
    }

    fn not_needed(&self, step: AuthStep) {
        self.steps.skip(rows(step), SkipReason::ClientKnown);
    }
}
