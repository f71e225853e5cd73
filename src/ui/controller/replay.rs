//! Replays from the message log, through the live connection: checked before anything is sent,
//! sent as a task of the run (it ends with the run), recorded as the user's replay so it joins
//! the log and the exports.

use leptos::prelude::*;
use serde_json::Value;

use super::Controller;
use crate::mcp::record::{Exchange, ReplayOf};
use crate::mcp::replay::{Original, Prepared};
use crate::record::message_log::LineId;

/// Why nothing can be replayed now.
pub const NO_CONNECTION: &str =
    "A replay goes through the live connection: start a run first (Connect or Ask).";

impl Controller {
    /// The exchange `line` of the message log: the shown run's or an earlier run's.
    pub fn logged_exchange(&self, line: LineId) -> Option<Exchange> {
        let find = |exchanges: &[Exchange]| exchanges.iter().find(|x| x.seq == line.seq).cloned();
        if line.run == self.past.run_number.get_untracked()
            && self.recording.with_untracked(Option::is_none)
        {
            return self.run.with_untracked(|r| find(&r.mcp.exchanges));
        }
        self.past.runs.with_untracked(|past| {
            past.iter()
                .find(|p| p.run == line.run)
                .and_then(|p| find(&p.exchanges))
        })
    }

    /// Whether a replay can go now: a run is alive and knows its era.
    pub fn can_replay(&self) -> bool {
        self.alive.get() && self.run.with(|r| r.era.is_some())
    }

    /// `text` checked as a replay of `line` on the live connection; nothing is sent.
    pub fn prepare_replay(&self, line: LineId, text: &str) -> Result<Prepared, String> {
        let engine = self
            .engine()
            .filter(|_| self.run.with_untracked(|r| r.era.is_some()))
            .ok_or(NO_CONNECTION)?;
        let original = self
            .logged_exchange(line)
            .ok_or("That request is no longer in the log.")?;
        engine.prepare_replay(
            text,
            &Original {
                url: &original.url,
                headers: &original.request_headers,
            },
        )
    }

    /// Sends `text` as a replay of `line`; `done` hears how it ended (the answer itself is in
    /// the record, on the log's newest line).
    pub fn replay(&self, line: LineId, text: &str, done: impl Fn(Result<(), String>) + 'static) {
        let prepared = match self.prepare_replay(line, text) {
            Ok(prepared) => prepared,
            Err(why) => return done(Err(why)),
        };
        // `prepare_replay` found the run's engine, so the run is live.
        let (Some(live), Some(engine)) = (self.live.get_value(), self.engine()) else {
            return done(Err(NO_CONNECTION.into()));
        };
        let recorded = self
            .logged_exchange(line)
            .and_then(|x| x.request_body)
            .and_then(|body| serde_json::from_str::<Value>(&body).ok());
        let of = ReplayOf {
            run: line.run,
            seq: line.seq,
            edited: recorded.as_ref() != Some(&prepared.message),
        };
        let task = live.bind(engine.replay(prepared, of));
        leptos::task::spawn_local(async move {
            done(match task.await {
                Some(Ok(())) => Ok(()),
                Some(Err(e)) => Err(e.to_string()),
                None => Err("The run ended before the answer came.".into()),
            })
        });
    }
}
