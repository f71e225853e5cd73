//! The server asks the client's model (`sampling/createMessage`), with the user in the loop as
//! the spec asks: the request is shown (approve, edit or refuse), the host's own model answers
//! with no tools, and the answer is shown (approve, edit or refuse) before it goes back. Legacy:
//! the request arrives on the open tools/call stream and the answer is POSTed; modern: it is an
//! `inputRequests` entry and the answer goes with the retry. This module holds what waits for the
//! user; the rows are done in `sampling_rows.rs`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures_channel::{mpsc, oneshot};

use crate::diagram::Row;
use crate::record::payload::Payload;
use mcp_flow_client::client::Sampler;
use mcp_flow_client::sampling::{SampleAnswer, SamplingRequest};

/// The rows of a sampling request, in order.
pub const SAMPLING_ROWS: [Row; 6] = [
    Row::Sample,
    Row::SampleReview,
    Row::SampleLlm,
    Row::SampleLlmAnswer,
    Row::SampleApprove,
    Row::SampleReply,
];

/// Sampling requests a run answers before it refuses the rest unasked (a server in a loop).
pub const MAX_SAMPLING_ROUNDS: u32 = 10;

/// The answer a refusal goes back with (the spec's example message for error -1).
pub const REFUSED: &str = "User rejected sampling request";

/// A legacy request waiting for the host, and where its answer goes.
pub(super) type Asked = (
    Result<SamplingRequest, String>,
    oneshot::Sender<Result<SampleAnswer, String>>,
);

/// The user's pending answers to a sampling request, and the legacy requests waiting for the
/// host while a tool call is open.
pub struct SamplingDesk {
    pub(super) review: RefCell<Option<oneshot::Sender<Option<SamplingRequest>>>>,
    pub(super) approval: RefCell<Option<oneshot::Sender<Option<String>>>>,
    pub(super) inbox_tx: mpsc::UnboundedSender<Asked>,
    pub(super) inbox: RefCell<Option<mpsc::UnboundedReceiver<Asked>>>,
    /// A tool call is open and the host answers sampling requests.
    pub(super) serving: Cell<bool>,
    /// The legacy answer handed to the client to POST; its row is done when the call ends.
    pub(super) reply_pending: RefCell<Option<Payload>>,
    /// Requests asked in this run, and whether one was asked in the current call.
    pub(super) rounds: Cell<u32>,
    pub(super) asked_in_call: Cell<bool>,
}

impl Default for SamplingDesk {
    fn default() -> Self {
        let (inbox_tx, inbox) = mpsc::unbounded();
        Self {
            review: RefCell::new(None),
            approval: RefCell::new(None),
            inbox_tx,
            inbox: RefCell::new(Some(inbox)),
            serving: Cell::new(false),
            reply_pending: RefCell::new(None),
            rounds: Cell::new(0),
            asked_in_call: Cell::new(false),
        }
    }
}

impl SamplingDesk {
    /// The user's verdict on the request: the request to put to the model (edited or not), or
    /// `None` to refuse it.
    pub fn review(&self, request: Option<SamplingRequest>) {
        if let Some(tx) = self.review.borrow_mut().take() {
            let _ = tx.send(request);
        }
    }

    /// The user's verdict on the model's answer: the text to send back (edited or not), or
    /// `None` to refuse it.
    pub fn approve(&self, answer: Option<String>) {
        if let Some(tx) = self.approval.borrow_mut().take() {
            let _ = tx.send(answer);
        }
    }

    /// A tool call begins: no request asked in it yet.
    pub fn new_call(&self) {
        self.asked_in_call.set(false);
    }

    /// Whether a sampling request was asked in this call.
    pub fn asked(&self) -> bool {
        self.asked_in_call.get()
    }

    /// The legacy answer the client POSTed, if any, for its reply row.
    pub fn take_reply_pending(&self) -> Option<Payload> {
        self.reply_pending.take()
    }
}

/// The client's sampler (legacy): hands each request to the host serving the open tool call;
/// outside a tool call it is refused with why.
pub fn legacy_sampler(desk: Rc<SamplingDesk>) -> Sampler {
    Rc::new(move |asked| {
        let desk = desk.clone();
        Box::pin(async move {
            if !desk.serving.get() {
                return Err("this client answers sampling requests during a tool call only".into());
            }
            let (tx, rx) = oneshot::channel();
            desk.inbox_tx
                .unbounded_send((asked, tx))
                .map_err(|_| "the run has ended".to_owned())?;
            rx.await.unwrap_or_else(|_| Err("the run has ended".into()))
        })
    })
}

/// A request as its rows carry it.
pub(super) fn asked_payload(
    request: &SamplingRequest,
    state: Option<String>,
    round: u32,
) -> Payload {
    Payload::Sampling {
        messages: request
            .messages
            .iter()
            .map(|m| format!("{}: {}", m.role.word(), m.text))
            .collect(),
        system_prompt: request.system_prompt.clone(),
        max_tokens: request.max_tokens,
        preferences: request.preferences.clone(),
        state,
        round,
    }
}

pub(super) fn sampled(text: &str, model: &str, verdict: &str) -> Payload {
    Payload::Sampled {
        text: text.to_owned(),
        model: model.to_owned(),
        verdict: verdict.to_owned(),
    }
}

/// The model's text within the request's limits: cut at the first stop sequence, and at about
/// four characters a token; with why it stopped.
pub fn within_limits(text: &str, request: &SamplingRequest) -> (String, &'static str) {
    let stop = request
        .stop_sequences
        .iter()
        .filter(|s| !s.is_empty())
        .filter_map(|s| text.find(s.as_str()))
        .min();
    let (text, mut reason) = match stop {
        Some(at) => (&text[..at], "stopSequence"),
        None => (text, "endTurn"),
    };
    let most = request.tokens() as usize * 4;
    let text = match text.char_indices().nth(most) {
        Some((at, _)) => {
            reason = "maxTokens";
            &text[..at]
        }
        None => text,
    };
    (text.trim().to_owned(), reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_flow_client::sampling::{SampleMessage, SampleRole};

    fn asking(stop: &[&str], max_tokens: u32) -> SamplingRequest {
        SamplingRequest {
            messages: vec![SampleMessage {
                role: SampleRole::User,
                text: "x".into(),
            }],
            max_tokens,
            stop_sequences: stop.iter().map(|s| (*s).to_owned()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn an_answer_stops_at_the_first_stop_sequence_and_within_the_tokens() {
        assert_eq!(
            within_limits("Pack light. END more", &asking(&["END", "more"], 100)),
            ("Pack light.".into(), "stopSequence")
        );
        assert_eq!(
            within_limits("abcdefghij", &asking(&[], 2)),
            ("abcdefgh".into(), "maxTokens")
        );
        assert_eq!(
            within_limits("  Sunny.  ", &asking(&[""], 100)),
            ("Sunny.".into(), "endTurn")
        );
        // Characters, not bytes: no cut inside a character.
        assert_eq!(within_limits("晴晴晴晴晴", &asking(&[], 1)).0, "晴晴晴晴");
    }
}
