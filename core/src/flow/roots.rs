//! The client's roots on diagram 2: the server asks for them (legacy: `roots/list` on the open
//! tools/call stream; modern: an `inputRequests` entry of an `input_required` result) and gets the
//! roots the user listed in the settings, if the user shares them with that server: the first
//! time a server asks, the page asks the user, and remembers the answer for that server for the
//! page's lifetime. Rows Roots and RootsReply (legacy; in 2026-07-28 the roots go back with the
//! retried tools/call, row ElicitReply).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use futures_channel::oneshot;
use mcp_flow_client::client::RootsGiver;
use mcp_flow_client::roots::Root;

use super::steps::{HostEvent, RootsQuestion, Steps};
use crate::diagram::Row;
use crate::record::payload::Payload;

/// The roots' rows: the question with the roots given, and (2025-11-25) the POSTed reply.
pub const ROOTS_ROWS: [Row; 2] = [Row::Roots, Row::RootsReply];

/// Which servers (by origin) the user shared the settings' roots with, or refused them to, for
/// the page's lifetime.
#[derive(Debug, Clone, Default)]
pub struct RootsShared(Rc<RefCell<HashMap<String, bool>>>);

impl RootsShared {
    fn get(&self, server: &str) -> Option<bool> {
        self.0.borrow().get(server).copied()
    }

    fn set(&self, server: &str, shared: bool) {
        self.0.borrow_mut().insert(server.to_owned(), shared);
    }
}

/// Names the server that asks (its origin, or the upstream of a bridge on this machine).
pub type ServerName = Rc<dyn Fn() -> String>;

/// The roots a run answers with, and the answer waiting for its reply row.
pub struct RootsAnswers {
    roots: RefCell<Vec<Root>>,
    /// The roots handed to the client to POST (legacy); their row is done when the call ends.
    reply_pending: RefCell<Option<Payload>>,
    /// How many times the server asked in this run.
    rounds: Cell<u32>,
    shared: RefCell<RootsShared>,
    server: ServerName,
    /// The user's answer to "share your roots with this server?", while it is asked.
    answer: RefCell<Option<oneshot::Sender<bool>>>,
}

impl RootsAnswers {
    pub fn new(server: ServerName) -> Self {
        Self {
            roots: RefCell::default(),
            reply_pending: RefCell::default(),
            rounds: Cell::new(0),
            shared: RefCell::default(),
            server,
            answer: RefCell::default(),
        }
    }

    /// The roots from now on (the settings changed).
    pub fn set(&self, roots: Vec<Root>) {
        *self.roots.borrow_mut() = roots;
    }

    /// What the page remembers of the user's answers, shared with the runs before and after.
    pub fn remember_in(&self, shared: RootsShared) {
        *self.shared.borrow_mut() = shared;
    }

    /// As if the user had already shared the roots with the server this run reaches.
    #[cfg(test)]
    pub(crate) fn shared_already(&self) {
        self.shared.borrow().set(&(self.server)(), true);
    }

    /// The user's answer to "share your roots with this server?".
    pub fn decide(&self, share: bool) {
        if let Some(tx) = self.answer.borrow_mut().take() {
            let _ = tx.send(share);
        }
    }

    /// The roots this server gets, and whether the user withheld them: none when none are
    /// listed; otherwise asked of the user the first time this server asks.
    pub async fn given(&self, steps: &Steps) -> (Vec<Root>, bool) {
        let roots = self.roots.borrow().clone();
        if roots.is_empty() {
            return (roots, false);
        }
        let server = (self.server)();
        let shared = self.shared.borrow().clone();
        let share = match shared.get(&server) {
            Some(share) => share,
            None => {
                let (tx, rx) = oneshot::channel();
                *self.answer.borrow_mut() = Some(tx);
                (steps.emit)(HostEvent::Roots(Some(RootsQuestion {
                    server: server.clone(),
                    roots: roots.iter().map(|r| r.uri.clone()).collect(),
                })));
                let share = rx.await.unwrap_or(false);
                (steps.emit)(HostEvent::Roots(None));
                shared.set(&server, share);
                share
            }
        };
        if share {
            (roots, false)
        } else {
            (Vec::new(), true)
        }
    }

    /// The roots as their rows carry them, in the next round of asking.
    pub fn asked(&self, given: &[Root], withheld: bool, state: Option<String>) -> Payload {
        self.rounds.set(self.rounds.get() + 1);
        Payload::Roots {
            roots: given.iter().map(|r| r.uri.clone()).collect(),
            state,
            round: self.rounds.get(),
            withheld,
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
            let (given, withheld) = answers.given(&steps).await;
            // Outside a tool call (the GET stream) the roots go back undrawn.
            if !steps.calling.get() {
                return given;
            }
            let payload = answers.asked(&given, withheld, None);
            steps.begin(Row::Roots).await;
            steps.done(Row::Roots, Some(payload.clone()));
            steps.begin(Row::RootsReply).await;
            *answers.reply_pending.borrow_mut() = Some(payload);
            given
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::gate::{Gate, Mode};
    use futures_executor::LocalPool;
    use futures_util::task::LocalSpawnExt;

    fn root(uri: &str) -> Root {
        Root {
            uri: uri.into(),
            name: None,
        }
    }

    #[test]
    fn the_roots_go_to_a_server_only_once_the_user_shared_them_with_it() {
        let asked: Rc<RefCell<Vec<Option<RootsQuestion>>>> = Rc::default();
        let heard = asked.clone();
        let emit: super::super::steps::Emit = Rc::new(move |event| {
            if let HostEvent::Roots(q) = event {
                heard.borrow_mut().push(q);
            }
        });
        let clock = mcp_flow_client::scripted::Scripted::default();
        let steps = Rc::new(Steps::new(
            emit,
            Rc::new(Gate::new(Mode::Play, None)),
            Rc::new(clock),
        ));
        let server = Rc::new(RefCell::new("http://127.0.0.1:8000".to_owned()));
        let named = server.clone();
        let answers = Rc::new(RootsAnswers::new(Rc::new(move || named.borrow().clone())));
        let shared = RootsShared::default();
        answers.remember_in(shared.clone());
        let mut pool = LocalPool::new();
        type Given = Vec<(Vec<Root>, bool)>;
        let given: Rc<RefCell<Given>> = Rc::default();
        let ask = |pool: &mut LocalPool| {
            let (answers, steps, given) = (answers.clone(), steps.clone(), given.clone());
            pool.spawner()
                .spawn_local(async move {
                    let roots = answers.given(&steps).await;
                    given.borrow_mut().push(roots);
                })
                .expect("spawned");
            pool.run_until_stalled();
        };

        // None listed: nothing to ask.
        ask(&mut pool);
        assert!(asked.borrow().is_empty());
        assert_eq!(given.borrow()[0], (Vec::new(), false));

        answers.set(vec![root("file:///home/me/trips")]);
        ask(&mut pool);
        let question = asked.borrow()[0].clone().expect("asked");
        assert_eq!(question.server, "http://127.0.0.1:8000");
        assert_eq!(question.roots, ["file:///home/me/trips"]);
        answers.decide(true);
        pool.run_until_stalled();
        assert_eq!(
            given.borrow()[1],
            (vec![root("file:///home/me/trips")], false)
        );
        // Asked once per server: the same server again gets them without a question.
        ask(&mut pool);
        assert_eq!(asked.borrow().len(), 2, "shown, then closed");
        assert_eq!(given.borrow()[2].0.len(), 1);

        // Another server asks: the user is asked again, and says no.
        *server.borrow_mut() = "http://127.0.0.1:9999".into();
        ask(&mut pool);
        assert_eq!(
            asked.borrow()[2].as_ref().map(|q| q.server.clone()),
            Some("http://127.0.0.1:9999".into())
        );
        answers.decide(false);
        pool.run_until_stalled();
        assert_eq!(given.borrow()[3], (Vec::new(), true));
        assert_eq!(shared.get("http://127.0.0.1:9999"), Some(false));
        assert_eq!(shared.get("http://127.0.0.1:8000"), Some(true));
    }
}
