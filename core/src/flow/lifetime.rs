//! A run's lifetime: everything the run started ends with it.
//!
//! Each task of a run (connect, ask) is bound to its [`Lifetime`]; [`Lifetime::end`] drops those
//! tasks, and with them every fetch in flight (a dropped fetch is aborted), every timer, the
//! gate's wait and the wait for the user's approval. Events a run reports pass through
//! [`Lifetime::guard`], so nothing of an ended run reaches the record or the page.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;

use futures_util::future::{AbortHandle, abortable};

#[derive(Default)]
pub struct Lifetime {
    ended: Cell<bool>,
    tasks: RefCell<Vec<AbortHandle>>,
}

impl Lifetime {
    pub fn new() -> Rc<Self> {
        Rc::new(Self::default())
    }

    pub fn is_ended(&self) -> bool {
        self.ended.get()
    }

    /// `task`, bound to this run: it resolves to `None` if the run ends first, and is dropped
    /// at that moment. A task bound after the end never starts.
    pub fn bind<F: Future>(&self, task: F) -> impl Future<Output = Option<F::Output>> + use<F> {
        let (task, handle) = abortable(task);
        if self.ended.get() {
            handle.abort();
        } else {
            let mut tasks = self.tasks.borrow_mut();
            tasks.retain(|h| !h.is_aborted());
            tasks.push(handle);
        }
        async move { task.await.ok() }
    }

    /// Ends the run: every bound task is dropped and every guarded emitter goes quiet.
    pub fn end(&self) {
        self.ended.set(true);
        for handle in self.tasks.borrow_mut().drain(..) {
            handle.abort();
        }
    }

    /// An emitter that forwards to `emit` while the run lives and drops events after.
    pub fn guard<E: 'static>(self: &Rc<Self>, emit: Rc<dyn Fn(E)>) -> Rc<dyn Fn(E)> {
        let this = self.clone();
        Rc::new(move |event| {
            if !this.is_ended() {
                emit(event);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_executor::LocalPool;
    use futures_util::task::LocalSpawnExt;

    /// A task that counts its steps, yielding to the pool between them.
    async fn counter(steps: Rc<Cell<u32>>, done: Rc<Cell<bool>>) {
        struct Flag(Rc<Cell<bool>>);
        impl Drop for Flag {
            fn drop(&mut self) {
                self.0.set(true);
            }
        }
        let _dropped = Flag(done);
        loop {
            steps.set(steps.get() + 1);
            futures_util::pending!();
        }
    }

    #[test]
    fn ending_drops_bound_tasks_and_silences_emitters() {
        let life = Lifetime::new();
        let steps = Rc::new(Cell::new(0));
        let dropped = Rc::new(Cell::new(false));
        let seen = Rc::new(RefCell::new(Vec::new()));
        let sink = seen.clone();
        let emit = life.guard(Rc::new(move |e: u32| sink.borrow_mut().push(e)));

        let mut pool = LocalPool::new();
        let task = life.bind(counter(steps.clone(), dropped.clone()));
        let result = Rc::new(Cell::new(Some(())));
        let out = result.clone();
        pool.spawner()
            .spawn_local(async move { out.set(task.await) })
            .unwrap();
        pool.run_until_stalled();
        emit(1);
        assert_eq!(steps.get(), 1);
        assert!(!dropped.get());

        life.end();
        emit(2);
        pool.run_until_stalled();
        assert!(
            dropped.get(),
            "the task's state is dropped when the run ends"
        );
        assert_eq!(result.get(), None, "an ended task resolves to None");
        assert_eq!(*seen.borrow(), [1], "nothing is emitted after the end");
    }

    #[test]
    fn a_task_bound_after_the_end_never_runs() {
        let life = Lifetime::new();
        life.end();
        let ran = Rc::new(Cell::new(false));
        let flag = ran.clone();
        let out = futures_executor::block_on(life.bind(async move { flag.set(true) }));
        assert_eq!(out, None);
        assert!(!ran.get());
    }
}
