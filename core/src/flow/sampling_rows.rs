//! The rows of one sampling request (see `sampling.rs`), done by the host: the request shown,
//! put to the host's model, its answer shown; and the legacy tool call served while it asks.

use std::future::Future;
use std::pin::pin;

use futures_channel::oneshot;
use futures_util::StreamExt;
use futures_util::future::{Either, select};

use super::host::Host;
use super::sampling::{
    MAX_SAMPLING_ROUNDS, REFUSED, SAMPLING_ROWS, asked_payload, sampled, within_limits,
};
use super::steps::{HostEvent, SamplingDialog};
use crate::diagram::Row;
use crate::llm::Llm;
use crate::record::payload::{Payload, SkipReason};
use crate::record::run::RunEvent;
use mcp_flow_client::http::Http;
use mcp_flow_client::sampling::{SampleAnswer, SamplingRequest};

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// Runs `work` (a legacy tool call) while answering the sampling requests that arrive on its
    /// stream, one at a time, each on its rows.
    pub(super) async fn serving_sampling<T>(&self, work: impl Future<Output = T>) -> T {
        let desk = self.sampling.clone();
        let Some(mut inbox) = desk.inbox.borrow_mut().take() else {
            return work.await;
        };
        desk.serving.set(true);
        let mut work = pin!(work);
        let out = loop {
            match select(work.as_mut(), inbox.next()).await {
                Either::Left((out, _)) => break out,
                Either::Right((Some((asked, reply)), _)) => {
                    let answer = self.sample_rows(asked, None).await;
                    let verdict = match &answer {
                        Ok(a) => sampled(&a.text, &a.model, "sent"),
                        Err(why) => sampled(why, "", "error"),
                    };
                    self.steps.begin(Row::SampleReply).await;
                    *desk.reply_pending.borrow_mut() = Some(verdict);
                    let _ = reply.send(answer);
                }
                Either::Right((None, _)) => break work.await,
            }
        };
        desk.serving.set(false);
        *desk.inbox.borrow_mut() = Some(inbox);
        out
    }

    /// Rows Sample to SampleApprove for one request: shown to the user, put to the model, its
    /// answer shown to the user. The answer as approved, or why there is none (the user refused,
    /// the request could not be read, the model failed).
    pub(super) async fn sample_rows(
        &self,
        asked: Result<SamplingRequest, String>,
        state: Option<String>,
    ) -> Result<SampleAnswer, String> {
        let desk = &self.sampling;
        desk.asked_in_call.set(true);
        desk.rounds.set(desk.rounds.get() + 1);
        let round = desk.rounds.get();
        let asked = asked.and_then(|r| {
            if round > MAX_SAMPLING_ROUNDS {
                Err(format!(
                    "the server asked for the model {round} times in this run; this client \
                     answers {MAX_SAMPLING_ROUNDS} and refuses the rest unasked"
                ))
            } else {
                Ok(r)
            }
        });
        self.steps.begin(Row::Sample).await;
        let request = match asked {
            Ok(request) => request,
            Err(why) => {
                let unread = SamplingRequest::default();
                let mut payload = asked_payload(&unread, state, round);
                if let Payload::Sampling { messages, .. } = &mut payload {
                    messages.push(format!("(not put to a model: {why})"));
                }
                self.steps.done(Row::Sample, Some(payload));
                self.steps
                    .skip(&SAMPLING_ROWS[1..5], SkipReason::CannotSample);
                return Err(why);
            }
        };
        self.steps.done(
            Row::Sample,
            Some(asked_payload(&request, state.clone(), round)),
        );

        self.steps.begin(Row::SampleReview).await;
        let (tx, rx) = oneshot::channel();
        *desk.review.borrow_mut() = Some(tx);
        (self.steps.emit)(HostEvent::Sampling(Some(SamplingDialog::Review(
            request.clone(),
        ))));
        self.steps.done(
            Row::SampleReview,
            Some(asked_payload(&request, state.clone(), round)),
        );
        let reviewed = rx.await.unwrap_or(None);
        (self.steps.emit)(HostEvent::Sampling(None));
        let Some(request) = reviewed else {
            self.steps.skip(
                &[Row::SampleLlm, Row::SampleLlmAnswer],
                SkipReason::SamplingRefused,
            );
            self.steps.activate(Row::SampleApprove);
            self.steps
                .done(Row::SampleApprove, Some(sampled(REFUSED, "", "refused")));
            return Err(REFUSED.into());
        };

        self.steps.begin(Row::SampleLlm).await;
        let model = self.llm.label();
        let (written, exchange) = self.llm.sample(&request).await;
        self.steps.record(RunEvent::Llm(Box::new(exchange)));
        self.steps
            .done(Row::SampleLlm, Some(asked_payload(&request, state, round)));
        self.steps.begin(Row::SampleLlmAnswer).await;
        let (text, reason) = match written {
            Ok(text) => within_limits(&text, &request),
            Err(e) => {
                let why = format!("the client's model failed: {e}");
                self.steps
                    .done(Row::SampleLlmAnswer, Some(sampled(&why, &model, "failed")));
                self.steps
                    .skip(&[Row::SampleApprove], SkipReason::CannotSample);
                return Err(why);
            }
        };
        self.steps.done(
            Row::SampleLlmAnswer,
            Some(sampled(&text, &model, "written")),
        );

        self.steps.activate(Row::SampleApprove);
        let (tx, rx) = oneshot::channel();
        *desk.approval.borrow_mut() = Some(tx);
        (self.steps.emit)(HostEvent::Sampling(Some(SamplingDialog::Approve {
            request,
            answer: text.clone(),
            model: model.clone(),
        })));
        let approved = rx.await.unwrap_or(None);
        (self.steps.emit)(HostEvent::Sampling(None));
        match approved {
            None => {
                self.steps.done(
                    Row::SampleApprove,
                    Some(sampled(REFUSED, &model, "refused")),
                );
                Err(REFUSED.into())
            }
            Some(final_text) => {
                let edited = final_text != text;
                let verdict = if edited { "edited" } else { "approved" };
                self.steps.done(
                    Row::SampleApprove,
                    Some(sampled(&final_text, &model, verdict)),
                );
                Ok(SampleAnswer {
                    text: final_text,
                    model: if edited {
                        format!("{model} (edited by the user)")
                    } else {
                        model
                    },
                    stop_reason: (!edited).then(|| reason.to_owned()),
                })
            }
        }
    }
}
