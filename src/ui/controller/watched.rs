//! Showing a watched host's session (`?watch=`): its record in the same player, inspector, log
//! and timeline, as it grows. Nothing is sent; Restart starts the page's own run, and picking a
//! session again goes back to watching.

use leptos::prelude::*;

use super::{Controller, RecordingInfo};
use crate::record::run::Run;

impl Controller {
    /// Shows `run`, a session of the host watched through the bridge at `target`. `first`: the
    /// session was just picked (the page's own run ends, its traffic stays in the log).
    pub fn show_watched(&self, run: Run, target: String, first: bool) {
        if !first {
            if self.showing_watched() {
                self.run.set(run);
            }
            return;
        }
        let this = *self;
        self.after_app("a watched session is shown", move || {
            this.stop_comparing();
            this.end_run(None);
            this.app.set(false);
            this.keep_for_the_log();
            // `created` left empty: a watched session, which the watch panel describes.
            this.recording.set(Some(RecordingInfo {
                server: target,
                llm: String::new(),
                created: String::new(),
            }));
            this.run.set(run);
            this.select_first();
        });
    }

    /// Whether the run shown is a watched session's (not the page's own, not a recording's).
    pub fn showing_watched(&self) -> bool {
        self.recording
            .with_untracked(|r| r.as_ref().is_some_and(|r| r.created.is_empty()))
    }
}
