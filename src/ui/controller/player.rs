//! The player's actions (Play, Pause, →, the speed) and the selection's moves through the rows
//! that have happened.

use leptos::prelude::*;

use super::Controller;
use crate::diagram::Row;
use crate::flow::gate::Mode;
use crate::ui::history::{self, Next};

impl Controller {
    pub fn play(&self) {
        self.mode.set(Mode::Play);
        if self.running.get_untracked() {
            self.gate().set_mode(Mode::Play);
        } else {
            self.start(Mode::Play);
        }
    }

    pub fn pause(&self) {
        self.mode.set(Mode::Step);
        self.gate().set_mode(Mode::Step);
    }

    pub fn toggle(&self) {
        if self.running.get_untracked() && self.mode.get_untracked() == Mode::Play {
            self.pause();
        } else {
            self.play();
        }
    }

    pub(super) fn visited(&self) -> Vec<Row> {
        self.run.with_untracked(history::visited)
    }

    /// → : after going back, step forward through the rows that have happened; at the newest
    /// one, advance the host one row (starting a run in Step mode if none is going).
    pub fn next(&self) {
        let visited = self.visited();
        let mut cursor = self.cursor.get_untracked();
        let next = cursor.next(&visited);
        self.cursor.set(cursor);
        if next == Next::Advance {
            if !self.running.get_untracked() {
                self.start(Mode::Step);
            }
            self.gate().next();
        }
    }

    pub fn set_speed(&self, speed: Option<f64>) {
        self.settings.speed.set(speed);
        self.gate().set_speed(speed);
    }

    /// ← / Home / End: move the selection through rows that have happened (history only).
    pub fn select_step(&self, delta: i32) {
        let visited = self.visited();
        self.cursor.update(|c| c.step(&visited, delta));
    }

    pub fn select_first(&self) {
        let visited = self.visited();
        self.cursor.update(|c| c.first(&visited));
    }

    pub fn select_last(&self) {
        let visited = self.visited();
        self.cursor.update(|c| c.last(&visited));
    }

    pub fn select(&self, row: Row) {
        self.cursor.update(|c| c.select(row));
    }

    /// Follow the run again (the "follow" toggle).
    pub fn follow(&self) {
        let visited = self.visited();
        self.cursor.update(|c| c.resume(&visited));
    }
}
