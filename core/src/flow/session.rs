//! A run in progress as the page holds it: its lifetime, the engine doing its steps (set once
//! the engine's module is fetched, a moment after the run starts) and the desk where the user
//! answers the model's turns. Ending the session ends everything the run started.

use std::cell::OnceCell;
use std::future::Future;
use std::rc::Rc;

use super::engine::Engine;
use super::lifetime::Lifetime;
use crate::llm::you::UserTurns;

/// One live run. Clones share it.
#[derive(Clone)]
pub struct RunSession {
    lifetime: Rc<Lifetime>,
    engine: Rc<OnceCell<Rc<dyn Engine>>>,
    desk: Rc<UserTurns>,
}

impl RunSession {
    pub fn new(desk: Rc<UserTurns>) -> Self {
        Self {
            lifetime: Lifetime::new(),
            engine: Rc::new(OnceCell::new()),
            desk,
        }
    }

    pub fn lifetime(&self) -> &Rc<Lifetime> {
        &self.lifetime
    }

    /// The engine, once its module is in.
    pub fn engine(&self) -> Option<Rc<dyn Engine>> {
        self.engine.get().cloned()
    }

    /// Hands the session its engine (the first one given stays).
    pub fn set_engine(&self, engine: Rc<dyn Engine>) {
        let _ = self.engine.set(engine);
    }

    pub fn desk(&self) -> &Rc<UserTurns> {
        &self.desk
    }

    /// `task`, bound to this run (see [`Lifetime::bind`]).
    pub fn bind<F: Future>(&self, task: F) -> impl Future<Output = Option<F::Output>> + use<F> {
        self.lifetime.bind(task)
    }

    /// Ends the run: its tasks are dropped, its events go quiet and a turn waiting for the user
    /// is withdrawn. The engine, if it came, is returned so its session can be closed.
    pub fn end(&self) -> Option<Rc<dyn Engine>> {
        self.lifetime.end();
        self.desk.clear();
        self.engine()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_executor::block_on;

    #[test]
    fn ending_a_session_drops_its_tasks_and_refuses_new_ones() {
        let session = RunSession::new(UserTurns::new(|_| {}));
        let pending = session.bind(futures_util::future::pending::<()>());
        assert!(session.end().is_none(), "no engine came");
        assert_eq!(block_on(pending), None, "the task ended with the run");
        assert!(session.lifetime().is_ended());
        let late = session.bind(async { 1 });
        assert_eq!(
            block_on(late),
            None,
            "a task bound after the end never runs"
        );
    }

    #[test]
    fn a_live_sessions_tasks_finish() {
        let session = RunSession::new(UserTurns::new(|_| {}));
        assert_eq!(block_on(session.bind(async { 7 })), Some(7));
        assert!(session.engine().is_none());
    }
}
