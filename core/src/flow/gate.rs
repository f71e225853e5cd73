//! The gate the host passes before every diagram row: in Step mode it waits for the user's Next;
//! in Play mode it waits a delay set by the speed (none at "instant").

use std::cell::{Cell, RefCell};

use futures_channel::oneshot;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    Step,
    Play,
}

/// Delay before each row at 1× speed.
pub const BASE_DELAY_MS: f64 = 900.0;

#[derive(Default)]
pub struct Gate {
    mode: Cell<Option<Mode>>,
    /// Multiplier: 0.25 … 4; `None` is instant.
    speed: Cell<Option<f64>>,
    waiting: RefCell<Option<oneshot::Sender<()>>>,
    /// A Next pressed while the host was not yet waiting: the next wait ends at once.
    credit: Cell<bool>,
}

/// What the host must do before the next row.
#[derive(Debug, PartialEq)]
pub enum Wait {
    Now,
    Sleep(u32),
    UntilNext,
}

impl Gate {
    pub fn new(mode: Mode, speed: Option<f64>) -> Self {
        let gate = Self::default();
        gate.mode.set(Some(mode));
        gate.speed.set(speed);
        gate
    }

    pub fn mode(&self) -> Mode {
        self.mode.get().unwrap_or(Mode::Step)
    }

    /// Switching to Play releases a host that waits for Next.
    pub fn set_mode(&self, mode: Mode) {
        self.mode.set(Some(mode));
        if mode == Mode::Play
            && let Some(tx) = self.waiting.borrow_mut().take()
        {
            let _ = tx.send(());
        }
    }

    pub fn set_speed(&self, speed: Option<f64>) {
        self.speed.set(speed.map(|s| s.clamp(0.25, 4.0)));
    }

    pub fn speed(&self) -> Option<f64> {
        self.speed.get()
    }

    /// What to wait for now.
    pub fn plan(&self) -> Wait {
        match (self.mode(), self.speed.get()) {
            (Mode::Step, _) => Wait::UntilNext,
            (Mode::Play, None) => Wait::Now,
            (Mode::Play, Some(s)) => Wait::Sleep((BASE_DELAY_MS / s.clamp(0.25, 4.0)) as u32),
        }
    }

    /// A receiver that resolves on the user's Next (or a switch to Play).
    pub fn arm(&self) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        if self.credit.replace(false) {
            let _ = tx.send(());
        } else {
            *self.waiting.borrow_mut() = Some(tx);
        }
        rx
    }

    /// Whether the host is waiting for Next.
    pub fn is_waiting(&self) -> bool {
        self.waiting.borrow().is_some()
    }

    /// The user pressed Next.
    pub fn next(&self) {
        match self.waiting.borrow_mut().take() {
            Some(tx) => {
                let _ = tx.send(());
            }
            None => self.credit.set(true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_follow_mode_and_speed() {
        let g = Gate::new(Mode::Step, Some(1.0));
        assert_eq!(g.plan(), Wait::UntilNext);
        g.set_mode(Mode::Play);
        assert_eq!(g.plan(), Wait::Sleep(900));
        g.set_speed(Some(4.0));
        assert_eq!(g.plan(), Wait::Sleep(225));
        g.set_speed(Some(100.0));
        assert_eq!(g.plan(), Wait::Sleep(225));
        g.set_speed(None);
        assert_eq!(g.plan(), Wait::Now);
    }

    #[test]
    fn next_and_play_release_a_waiting_host() {
        let g = Gate::new(Mode::Step, None);
        let mut rx = g.arm();
        assert!(g.is_waiting());
        assert_eq!(rx.try_recv(), Ok(None));
        g.next();
        assert_eq!(rx.try_recv(), Ok(Some(())));
        let mut rx = g.arm();
        g.set_mode(Mode::Play);
        assert_eq!(rx.try_recv(), Ok(Some(())));
        assert!(!g.is_waiting());
    }

    #[test]
    fn a_next_before_the_host_waits_is_not_lost() {
        let g = Gate::new(Mode::Step, None);
        g.next();
        let mut rx = g.arm();
        assert_eq!(rx.try_recv(), Ok(Some(())));
        let mut rx = g.arm();
        assert_eq!(rx.try_recv(), Ok(None));
    }
}
