//! The client's roots on diagram 2: the server asks for them (legacy: `roots/list` on the open
//! tools/call stream; modern: an `inputRequests` entry of an `input_required` result) and gets the
//! roots the user listed in the settings. Rows Roots and RootsReply (legacy; in 2026-07-28 the
//! roots go back with the retried tools/call, row ElicitReply).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mcp_flow_client::client::RootsGiver;
use mcp_flow_client::roots::Root;

use super::steps::Steps;
use crate::diagram::Row;
use crate::record::payload::Payload;

/// The roots' rows: the question with the roots given, and (2025-11-25) the POSTed reply.
pub const ROOTS_ROWS: [Row; 2] = [Row::Roots, Row::RootsReply];

/// The roots a run answers with, and the answer waiting for its reply row.
#[derive(Default)]
pub struct RootsAnswers {
    roots: RefCell<Vec<Root>>,
    /// The roots handed to the client to POST (legacy); their row is done when the call ends.
    reply_pending: RefCell<Option<Payload>>,
    /// How many times the server asked in this run.
    rounds: Cell<u32>,
}

impl RootsAnswers {
    /// The roots from now on (the settings changed).
    pub fn set(&self, roots: Vec<Root>) {
        *self.roots.borrow_mut() = roots;
    }

    pub fn list(&self) -> Vec<Root> {
        self.roots.borrow().clone()
    }

    /// The roots as their rows carry them, in the next round of asking.
    pub fn asked(&self, state: Option<String>) -> Payload {
        self.rounds.set(self.rounds.get() + 1);
        Payload::Roots {
            roots: self.roots.borrow().iter().map(|r| r.uri.clone()).collect(),
            state,
            round: self.rounds.get(),
        }
    }

    /// The legacy answer the client POSTed, if any, for its reply row.
    pub fn take_reply_pending(&self) -> Option<Payload> {
        self.reply_pending.take()
    }
}

/// Answers a legacy server's `roots/list`: row Roots shows the question and the roots, row
/// RootsReply starts (done once the call ends, the POST sent), and the client gets the roots.
pub fn legacy_giver(steps: Rc<Steps>, answers: Rc<RootsAnswers>) -> RootsGiver {
    Rc::new(move || {
        let (steps, answers) = (steps.clone(), answers.clone());
        Box::pin(async move {
            // Outside a tool call (the GET stream) the roots go back undrawn: the user listed
            // them in the settings for any server that asks.
            if !steps.calling.get() {
                return answers.list();
            }
            let payload = answers.asked(None);
            steps.begin(Row::Roots).await;
            steps.done(Row::Roots, Some(payload.clone()));
            steps.begin(Row::RootsReply).await;
            *answers.reply_pending.borrow_mut() = Some(payload);
            answers.list()
        })
    })
}
