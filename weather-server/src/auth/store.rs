//! Everything the authorization server remembers, in memory: registered clients, consent
//! requests waiting for a decision, authorization codes, access and refresh tokens (the records
//! of [`super::records`]). Secrets are kept as fingerprints; expired entries are swept whenever a
//! table grows.

use std::{
    collections::HashMap,
    sync::{Mutex, MutexGuard, PoisonError},
    time::{Duration, Instant},
};

pub use super::records::{Access, Client, ClientAuth, Code, Grant, Issued, Pending, Redirects};
use super::types::{ClientId, Fingerprint, Scopes, random_secret};

/// How long an authorization code may be redeemed.
pub const CODE_TTL: Duration = Duration::from_secs(60);
/// How long the consent page waits for a decision.
pub const PENDING_TTL: Duration = Duration::from_secs(600);
/// How long a refresh token lasts (each use replaces it).
pub const REFRESH_TTL: Duration = Duration::from_secs(24 * 3600);
/// The most entries a table holds; beyond, new ones are refused (a demo, not a database).
const MAX_ENTRIES: usize = 10_000;

/// The store could not take a new entry (full, or no randomness for a secret).
#[derive(Debug)]
pub struct Unavailable;

/// Why a refresh token was not exchanged.
#[derive(Debug)]
pub enum RefreshError<E> {
    /// Unknown, expired or already used.
    Unknown,
    /// The caller's check refused it; the token stays valid.
    Refused(E),
    Unavailable,
}

struct Table<T> {
    entries: HashMap<Fingerprint, (Instant, T)>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Self {
            entries: HashMap::new(),
        }
    }
}

impl<T> Table<T> {
    /// Stores `value` under a fresh secret for `ttl`; returns the secret.
    fn insert(&mut self, value: T, ttl: Duration) -> Result<String, Unavailable> {
        let now = Instant::now();
        self.entries.retain(|_, (expires, _)| *expires > now);
        if self.entries.len() >= MAX_ENTRIES {
            tracing::warn!(max = MAX_ENTRIES, "authorization table full");
            return Err(Unavailable);
        }
        let secret = random_secret().ok_or(Unavailable)?;
        self.entries
            .insert(Fingerprint::of(&secret), (now + ttl, value));
        Ok(secret)
    }

    fn get(&self, secret: &str) -> Option<&T> {
        self.entries
            .get(&Fingerprint::of(secret))
            .filter(|(expires, _)| *expires > Instant::now())
            .map(|(_, value)| value)
    }

    /// Removes the entry; returns it if it had not expired.
    fn take(&mut self, secret: &str) -> Option<T> {
        self.entries
            .remove(&Fingerprint::of(secret))
            .filter(|(expires, _)| *expires > Instant::now())
            .map(|(_, value)| value)
    }
}

#[derive(Default)]
struct Tables {
    clients: HashMap<ClientId, Client>,
    pending: Table<Pending>,
    codes: Table<Code>,
    access: Table<Access>,
    refresh: Table<Grant>,
}

impl Tables {
    fn issue(&mut self, grant: Grant, access_ttl: Duration) -> Result<Issued, Unavailable> {
        let access = Access {
            client: grant.client.id.clone(),
            scope: grant.scope.clone(),
            resource: grant.resource.clone(),
        };
        let scope = grant.scope.clone();
        let access_token = self.access.insert(access, access_ttl)?;
        let refresh_token = if grant.client.refresh {
            Some(self.refresh.insert(grant, REFRESH_TTL)?)
        } else {
            None
        };
        Ok(Issued {
            access_token,
            refresh_token,
            expires_in: access_ttl.as_secs(),
            scope,
        })
    }
}

/// The authorization server's memory, shared by its handlers and the `/mcp` guard.
pub struct Store {
    tables: Mutex<Tables>,
    access_ttl: Duration,
}

impl Store {
    pub fn new(access_ttl: Duration) -> Self {
        Self {
            tables: Mutex::default(),
            access_ttl,
        }
    }

    fn tables(&self) -> MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds a dynamically registered client.
    pub fn register(&self, client: Client) -> Result<(), Unavailable> {
        let mut tables = self.tables();
        if tables.clients.len() >= MAX_ENTRIES {
            tracing::warn!(max = MAX_ENTRIES, "client registrations full");
            return Err(Unavailable);
        }
        tables.clients.insert(client.id.clone(), client);
        Ok(())
    }

    pub fn registered(&self, id: &ClientId) -> Option<Client> {
        self.tables().clients.get(id).cloned()
    }

    /// Holds a request for the consent page; returns its id.
    pub fn hold(&self, pending: Pending) -> Result<String, Unavailable> {
        self.tables().pending.insert(pending, PENDING_TTL)
    }

    /// The held request, once.
    pub fn decide(&self, id: &str) -> Option<Pending> {
        self.tables().pending.take(id)
    }

    pub fn issue_code(&self, code: Code) -> Result<String, Unavailable> {
        self.tables().codes.insert(code, CODE_TTL)
    }

    /// The code's request, once: a code is spent by any attempt to redeem it.
    pub fn redeem_code(&self, code: &str) -> Option<Code> {
        self.tables().codes.take(code)
    }

    pub fn issue_tokens(&self, grant: Grant) -> Result<Issued, Unavailable> {
        self.tables().issue(grant, self.access_ttl)
    }

    /// What a live access token allows.
    pub fn access(&self, token: &str) -> Option<Access> {
        self.tables().access.get(token).cloned()
    }

    /// Exchanges a refresh token: `check` sees its grant and returns the access token's scope;
    /// then the token is replaced by a new one for the same grant (rotation).
    pub fn refresh<E>(
        &self,
        token: &str,
        check: impl FnOnce(&Grant) -> Result<Scopes, E>,
    ) -> Result<Issued, RefreshError<E>> {
        let mut tables = self.tables();
        let grant = tables.refresh.get(token).ok_or(RefreshError::Unknown)?;
        let scope = check(grant).map_err(RefreshError::Refused)?;
        let grant = tables.refresh.take(token).ok_or(RefreshError::Unknown)?;
        let access = Access {
            client: grant.client.id.clone(),
            scope: scope.clone(),
            resource: grant.resource.clone(),
        };
        let access_token = tables
            .access
            .insert(access, self.access_ttl)
            .map_err(|_| RefreshError::Unavailable)?;
        let refresh_token = tables
            .refresh
            .insert(grant, REFRESH_TTL)
            .map_err(|_| RefreshError::Unavailable)?;
        Ok(Issued {
            access_token,
            refresh_token: Some(refresh_token),
            expires_in: self.access_ttl.as_secs(),
            scope,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::types::MCP_BASIC;

    fn grant(refresh: bool) -> Grant {
        Grant {
            client: Client {
                id: ClientId("c".into()),
                name: None,
                auth: ClientAuth::None,
                redirects: Redirects::AnyLoopback,
                refresh,
            },
            scope: Scopes::of(&[MCP_BASIC]),
            resource: "http://127.0.0.1:1/mcp".into(),
        }
    }

    #[test]
    fn codes_are_single_use() {
        let store = Store::new(Duration::from_secs(60));
        let code = store
            .issue_code(Code {
                grant: grant(true),
                redirect_uri: "http://127.0.0.1/cb".into(),
                challenge: "c".into(),
            })
            .expect("issued");
        assert!(store.redeem_code(&code).is_some());
        assert!(store.redeem_code(&code).is_none());
    }

    #[test]
    fn refresh_rotates_and_a_refused_check_keeps_the_token() {
        let store = Store::new(Duration::from_secs(60));
        let issued = store.issue_tokens(grant(true)).expect("issued");
        assert!(store.access(&issued.access_token).is_some());
        let old = issued.refresh_token.expect("refresh token");
        let refused = store.refresh(&old, |_| Err("no"));
        assert!(matches!(refused, Err(RefreshError::Refused("no"))));
        let again = store
            .refresh::<()>(&old, |g| Ok(g.scope.clone()))
            .expect("rotated");
        assert!(store.access(&again.access_token).is_some());
        assert!(matches!(
            store.refresh::<()>(&old, |g| Ok(g.scope.clone())),
            Err(RefreshError::Unknown)
        ));
        assert!(
            store
                .issue_tokens(grant(false))
                .expect("issued")
                .refresh_token
                .is_none()
        );
    }

    #[test]
    fn expired_tokens_are_unknown() {
        let store = Store::new(Duration::ZERO);
        let issued = store.issue_tokens(grant(false)).expect("issued");
        assert!(store.access(&issued.access_token).is_none());
    }
}
