//! Which client opened each 2025-11-25 session at `/mcp` under `--auth`, so that only that
//! client's tokens reach the session (another client's token meets "session not found").

use std::{
    collections::{HashMap, VecDeque},
    sync::{Mutex, MutexGuard, PoisonError},
};

use crate::auth::types::ClientId;

/// Which client opened each session, so that only its tokens reach it. At most
/// [`MAX_OWNED`] are kept (far more than the sessions the server allows); the oldest is
/// forgotten first, and a session without a known owner is answered as unknown.
#[derive(Default)]
pub struct Owners {
    sessions: Mutex<(VecDeque<String>, HashMap<String, ClientId>)>,
}

/// The most sessions whose owner is remembered.
const MAX_OWNED: usize = 10_000;

impl Owners {
    fn lock(&self) -> MutexGuard<'_, (VecDeque<String>, HashMap<String, ClientId>)> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn open(&self, session: String, client: ClientId) {
        let mut guard = self.lock();
        let (order, owners) = &mut *guard;
        if order.len() >= MAX_OWNED
            && let Some(oldest) = order.pop_front()
        {
            owners.remove(&oldest);
        }
        order.push_back(session.clone());
        owners.insert(session, client);
    }

    pub fn close(&self, session: &str) {
        let mut guard = self.lock();
        let (order, owners) = &mut *guard;
        owners.remove(session);
        order.retain(|s| s != session);
    }

    /// Whether `client`'s token may use `session`: only the client that opened it.
    pub fn allows(&self, session: &str, client: &ClientId) -> bool {
        let guard = self.lock();
        guard.1.get(session).is_some_and(|owner| owner == client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_answers_only_the_client_that_opened_it() {
        let owners = Owners::default();
        let (a, b) = (ClientId("a".into()), ClientId("b".into()));
        owners.open("s1".into(), a.clone());
        assert!(owners.allows("s1", &a));
        assert!(!owners.allows("s1", &b));
        assert!(!owners.allows("never-seen", &a));
        owners.close("s1");
        assert!(!owners.allows("s1", &a));
    }
}
