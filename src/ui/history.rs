//! Which row the inspector shows, and whether it follows the run: the player's ←, →, Home and
//! End move through the rows that have happened without sending anything; → at the newest row
//! advances the host.

use crate::diagram::Row;
use crate::record::run::{RowStatus, Run};

/// The selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub selected: Option<Row>,
    /// The selection follows the active row (and the page keeps it in view).
    pub follow: bool,
}

impl Default for Cursor {
    fn default() -> Self {
        Self {
            selected: None,
            follow: true,
        }
    }
}

/// What → should do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// The selection moved forward through history; nothing is sent.
    Moved,
    /// At the newest row: the host should advance one row.
    Advance,
}

/// Rows that have happened (done, failed, active), in diagram order.
pub fn visited(run: &Run) -> Vec<Row> {
    run.rows
        .iter()
        .filter(|r| !matches!(r.status, RowStatus::Pending | RowStatus::Skipped))
        .map(|r| r.id)
        .collect()
}

impl Cursor {
    /// A row became active.
    pub fn on_active(&mut self, row: Row) {
        if self.follow {
            self.selected = Some(row);
        }
    }

    /// The user picked a row: it stays selected while the run goes on.
    pub fn select(&mut self, row: Row) {
        self.selected = Some(row);
        self.follow = false;
    }

    /// Follow the run again from its newest row.
    pub fn resume(&mut self, visited: &[Row]) {
        self.follow = true;
        if let Some(last) = visited.last() {
            self.selected = Some(*last);
        }
    }

    fn position(&self, visited: &[Row]) -> Option<usize> {
        self.selected
            .and_then(|s| visited.iter().position(|r| *r == s))
    }

    /// ← (`delta` −1) and the like: move through history, clamped at its ends.
    pub fn step(&mut self, visited: &[Row], delta: i32) {
        if visited.is_empty() {
            return;
        }
        let at = self.position(visited).unwrap_or(visited.len() - 1);
        let to = (at as i32 + delta).clamp(0, visited.len() as i32 - 1) as usize;
        self.follow = false;
        self.selected = Some(visited[to]);
    }

    /// Home.
    pub fn first(&mut self, visited: &[Row]) {
        if let Some(first) = visited.first() {
            self.follow = false;
            self.selected = Some(*first);
        }
    }

    /// End: the newest row, following the run again.
    pub fn last(&mut self, visited: &[Row]) {
        if let Some(last) = visited.last() {
            self.follow = true;
            self.selected = Some(*last);
        }
    }

    /// →: after going back, step forward through history; at the newest row, follow the run
    /// and tell the caller to advance the host.
    pub fn next(&mut self, visited: &[Row]) -> Next {
        if !self.follow
            && let Some(at) = self.position(visited)
            && at + 1 < visited.len()
        {
            self.selected = Some(visited[at + 1]);
            self.follow = at + 2 == visited.len();
            return Next::Moved;
        }
        self.follow = true;
        Next::Advance
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROWS: [Row; 3] = [Row::Prepare, Row::Initialize, Row::InitializeResult];

    #[test]
    fn back_and_forward_move_through_history() {
        let mut c = Cursor::default();
        c.on_active(Row::InitializeResult);
        c.step(&ROWS, -1);
        c.step(&ROWS, -1);
        assert_eq!(c.selected, Some(Row::Prepare));
        c.step(&ROWS, -1);
        assert_eq!(c.selected, Some(Row::Prepare), "clamped at the first row");
        assert_eq!(c.next(&ROWS), Next::Moved);
        assert_eq!(c.selected, Some(Row::Initialize));
        assert!(!c.follow);
        assert_eq!(c.next(&ROWS), Next::Moved);
        assert_eq!(c.selected, Some(Row::InitializeResult));
        assert!(c.follow, "back at the newest row, the cursor follows again");
        assert_eq!(c.next(&ROWS), Next::Advance);
    }

    #[test]
    fn a_picked_row_stays_while_the_run_goes_on() {
        let mut c = Cursor::default();
        c.on_active(Row::Prepare);
        assert_eq!(c.selected, Some(Row::Prepare));
        c.select(Row::Prepare);
        c.on_active(Row::Initialize);
        assert_eq!(c.selected, Some(Row::Prepare));
        c.resume(&ROWS[..2]);
        assert_eq!(c.selected, Some(Row::Initialize));
        c.on_active(Row::InitializeResult);
        assert_eq!(c.selected, Some(Row::InitializeResult));
    }

    #[test]
    fn home_and_end_jump_to_the_first_and_newest_rows() {
        let mut c = Cursor::default();
        c.first(&ROWS);
        assert_eq!((c.selected, c.follow), (Some(Row::Prepare), false));
        c.last(&ROWS);
        assert_eq!((c.selected, c.follow), (Some(Row::InitializeResult), true));
        let mut empty = Cursor::default();
        empty.step(&[], -1);
        empty.first(&[]);
        assert_eq!(empty, Cursor::default());
    }

    #[test]
    fn visited_rows_leave_out_pending_and_skipped() {
        use crate::record::payload::SkipReason;
        use crate::record::run::RunEvent;
        let mut run = Run::new([
            Row::Confirm,
            Row::Confirmed,
            Row::CallToolAsk,
            Row::CallTool,
        ]);
        run.apply(RunEvent::Skipped {
            row: Row::Confirm,
            why: SkipReason::ApprovalOff,
        });
        run.apply(RunEvent::Active {
            row: Row::CallToolAsk,
            at_ms: 0.0,
        });
        assert_eq!(visited(&run), [Row::CallToolAsk]);
    }
}
