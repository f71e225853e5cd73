//! Everything the authorization server remembers, in memory: registered clients, consent
//! requests waiting for a decision, authorization codes, access and refresh tokens (the records
//! of [`crate::auth::server::records`]), and the codes and refresh tokens already spent. Secrets are kept as
//! fingerprints; expired entries are swept whenever a table grows.
//!
//! Nothing an anonymous caller sends can fill it for good: registrations and waiting requests
//! are capped and the oldest give way to new ones, unused registrations expire, and a spent code
//! or refresh token presented again revokes every token of its family. A registration counts as
//! used only once a token was issued to it (after the user's consent), so a flood of
//! registrations, even one that opens the consent page for each, gives way before any client a
//! user authorized: first registrations with no request waiting, then those waiting for a
//! decision, oldest first.

use std::{
    collections::HashMap,
    sync::{Mutex, MutexGuard, PoisonError},
    time::{Duration, Instant},
};

pub use crate::auth::server::records::{
    Access, Client, ClientAuth, Code, Grant, Issued, Pending, Redirects,
};
use crate::auth::types::{ClientId, Fingerprint, Scopes, random_secret};

/// How long an authorization code may be redeemed.
pub const CODE_TTL: Duration = Duration::from_secs(60);
/// How long the consent page waits for a decision.
pub const PENDING_TTL: Duration = Duration::from_secs(600);
/// How long a refresh token lasts (each use replaces it).
pub const REFRESH_TTL: Duration = Duration::from_secs(24 * 3600);
/// How long a registered client that nobody has used is kept.
pub const UNUSED_CLIENT_TTL: Duration = Duration::from_secs(3600);
/// How long a client that was used is kept after its last use.
pub const USED_CLIENT_TTL: Duration = REFRESH_TTL;
/// How long a spent code is remembered, to revoke what it issued if it comes again.
const SPENT_CODE_TTL: Duration = Duration::from_secs(600);
/// The most entries a token or code table holds; beyond, new ones are refused (a demo, not a
/// database). Tokens and codes exist only after a user's consent.
const MAX_ENTRIES: usize = 10_000;
/// The most registered clients; beyond, the oldest unused one gives way.
pub const MAX_CLIENTS: usize = 1_000;
/// The most authorization requests waiting for a decision, in all and per client; beyond, the
/// oldest gives way.
pub const MAX_PENDING: usize = 1_000;
pub const MAX_PENDING_PER_CLIENT: usize = 16;

/// The store could not take a new entry (full, or no randomness for a secret).
#[derive(Debug)]
pub struct Unavailable;

/// Why a refresh token was not exchanged.
#[derive(Debug)]
pub enum RefreshError<E> {
    /// Unknown or expired.
    Unknown,
    /// Already used: every token of its family is now revoked.
    Replayed,
    /// The caller's check refused it; the token stays valid.
    Refused(E),
    Unavailable,
}

/// Why a code was not redeemed.
#[derive(Debug, PartialEq, Eq)]
pub enum Redeem {
    /// Unknown or expired.
    Unknown,
    /// Already redeemed: the tokens it issued are now revoked.
    Replayed,
}

/// The tokens that descend from one code: its access tokens and its chain of refresh tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Family(u64);

struct Table<T> {
    entries: HashMap<Fingerprint, (Instant, T)>,
    max: usize,
}

impl<T> Table<T> {
    fn new(max: usize) -> Self {
        Self {
            entries: HashMap::new(),
            max,
        }
    }

    fn sweep(&mut self) {
        let now = Instant::now();
        self.entries.retain(|_, (expires, _)| *expires > now);
    }

    /// Stores `value` under a fresh secret for `ttl`; returns the secret. Refused when full.
    fn insert(&mut self, value: T, ttl: Duration) -> Result<String, Unavailable> {
        self.sweep();
        if self.entries.len() >= self.max {
            tracing::warn!(max = self.max, "authorization table full");
            return Err(Unavailable);
        }
        let secret = random_secret().ok_or(Unavailable)?;
        self.put(Fingerprint::of(&secret), value, ttl);
        Ok(secret)
    }

    /// Stores `value` under `key` for `ttl`; when full, the entry closest to expiry among
    /// those `evictable` gives way (or, if none is, the closest of all).
    fn put_evicting(
        &mut self,
        key: Fingerprint,
        value: T,
        ttl: Duration,
        evictable: impl Fn(&T) -> bool,
    ) {
        self.sweep();
        while self.entries.len() >= self.max {
            let oldest = |only: bool| {
                self.entries
                    .iter()
                    .filter(|(_, (_, v))| !only || evictable(v))
                    .min_by_key(|(_, (expires, _))| *expires)
                    .map(|(k, _)| *k)
            };
            match oldest(true).or_else(|| oldest(false)) {
                Some(k) => self.entries.remove(&k),
                None => break,
            };
        }
        self.put(key, value, ttl);
    }

    fn put(&mut self, key: Fingerprint, value: T, ttl: Duration) {
        self.entries.insert(key, (Instant::now() + ttl, value));
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

    fn count(&self, matches: impl Fn(&T) -> bool) -> usize {
        let now = Instant::now();
        self.entries
            .values()
            .filter(|(expires, v)| *expires > now && matches(v))
            .count()
    }
}

/// A registered client and whether it was ever used (a token issued to it).
struct Registered {
    client: Client,
    used: bool,
}

struct Tables {
    clients: Table<Registered>,
    pending: Table<Pending>,
    codes: Table<Code>,
    access: Table<(Access, Family)>,
    refresh: Table<(Grant, Family)>,
    /// Spent codes and rotated-out refresh tokens, with the family they belong to.
    spent: Table<Family>,
    families: u64,
}

impl Default for Tables {
    fn default() -> Self {
        Self {
            clients: Table::new(MAX_CLIENTS),
            pending: Table::new(MAX_PENDING),
            codes: Table::new(MAX_ENTRIES),
            access: Table::new(MAX_ENTRIES),
            refresh: Table::new(MAX_ENTRIES),
            spent: Table::new(MAX_ENTRIES),
            families: 0,
        }
    }
}

impl Tables {
    fn new_family(&mut self) -> Family {
        self.families += 1;
        Family(self.families)
    }

    /// An access token (and a refresh token if the client takes them) for `grant`.
    fn issue(
        &mut self,
        grant: Grant,
        family: Family,
        access_ttl: Duration,
    ) -> Result<Issued, Unavailable> {
        self.touch(&grant.client.id);
        let access = Access {
            client: grant.client.id.clone(),
            scope: grant.scope.clone(),
            resource: grant.resource.clone(),
        };
        let scope = grant.scope.clone();
        let access_token = self.access.insert((access, family), access_ttl)?;
        let refresh_token = if grant.client.refresh {
            Some(self.refresh.insert((grant, family), REFRESH_TTL)?)
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

    /// Every access and refresh token of `family` stops working.
    fn revoke(&mut self, family: Family) {
        self.access.entries.retain(|_, (_, (_, f))| *f != family);
        self.refresh.entries.retain(|_, (_, (_, f))| *f != family);
        tracing::warn!(
            family = family.0,
            "a spent code or refresh token came again: its tokens are revoked"
        );
    }

    /// Remembers a spent secret of `family` for `ttl`.
    fn spend(&mut self, secret: &str, family: Family, ttl: Duration) {
        self.spent
            .put_evicting(Fingerprint::of(secret), family, ttl, |_| true);
    }

    /// A registered client was used: it is kept [`USED_CLIENT_TTL`] from now.
    fn touch(&mut self, id: &ClientId) {
        let key = Fingerprint::of(id.as_str());
        if let Some((expires, registered)) = self.clients.entries.get_mut(&key) {
            registered.used = true;
            *expires = Instant::now() + USED_CLIENT_TTL;
        }
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

    /// Adds a dynamically registered client, kept [`UNUSED_CLIENT_TTL`] until it is used; when
    /// the table is full, the oldest unused client with no request waiting gives way, else the
    /// oldest unused one, and only when every client got a token, the oldest of all.
    pub fn register(&self, client: Client) {
        let key = Fingerprint::of(client.id.as_str());
        let registered = Registered {
            client,
            used: false,
        };
        let mut tables = self.tables();
        tables.pending.sweep();
        let waiting: std::collections::HashSet<ClientId> = tables
            .pending
            .entries
            .values()
            .map(|(_, p)| p.grant.client.id.clone())
            .collect();
        let clients = &mut tables.clients;
        clients.sweep();
        while clients.entries.len() >= clients.max {
            let oldest = |evictable: &dyn Fn(&Registered) -> bool| {
                clients
                    .entries
                    .iter()
                    .filter(|(_, (_, r))| evictable(r))
                    .min_by_key(|(_, (expires, _))| *expires)
                    .map(|(k, _)| *k)
            };
            let gives_way = oldest(&|r| !r.used && !waiting.contains(&r.client.id))
                .or_else(|| oldest(&|r| !r.used))
                .or_else(|| oldest(&|_| true));
            match gives_way {
                Some(k) => clients.entries.remove(&k),
                None => break,
            };
        }
        clients.put(key, registered, UNUSED_CLIENT_TTL);
    }

    pub fn registered(&self, id: &ClientId) -> Option<Client> {
        self.tables()
            .clients
            .get(id.as_str())
            .map(|r| r.client.clone())
    }

    /// How many registered clients are kept.
    #[cfg(test)]
    pub fn clients(&self) -> usize {
        self.tables().clients.count(|_| true)
    }

    /// Holds a request for the consent page; returns its id. Past [`MAX_PENDING_PER_CLIENT`]
    /// for its client, or [`MAX_PENDING`] in all, the oldest waiting request gives way.
    pub fn hold(&self, pending: Pending) -> Result<String, Unavailable> {
        let mut tables = self.tables();
        let client = pending.grant.client.id.clone();
        tables.pending.sweep();
        let mine = |p: &Pending| p.grant.client.id == client;
        if tables.pending.count(mine) >= MAX_PENDING_PER_CLIENT {
            let oldest = tables
                .pending
                .entries
                .iter()
                .filter(|(_, (_, p))| mine(p))
                .min_by_key(|(_, (expires, _))| *expires)
                .map(|(k, _)| *k);
            if let Some(k) = oldest {
                tables.pending.entries.remove(&k);
            }
        }
        let secret = random_secret().ok_or(Unavailable)?;
        tables
            .pending
            .put_evicting(Fingerprint::of(&secret), pending, PENDING_TTL, |_| true);
        Ok(secret)
    }

    /// How many requests wait for a decision (all, and `client`'s).
    #[cfg(test)]
    pub fn pending(&self, client: &ClientId) -> (usize, usize) {
        let tables = self.tables();
        (
            tables.pending.count(|_| true),
            tables.pending.count(|p| &p.grant.client.id == client),
        )
    }

    /// The held request, once.
    pub fn decide(&self, id: &str) -> Option<Pending> {
        self.tables().pending.take(id)
    }

    pub fn issue_code(&self, code: Code) -> Result<String, Unavailable> {
        self.tables().codes.insert(code, CODE_TTL)
    }

    /// The code's request, once: a code is spent by any attempt to redeem it. A code redeemed
    /// before that issued tokens revokes them (RFC 6749 §4.1.2).
    pub fn redeem_code(&self, code: &str) -> Result<Code, Redeem> {
        let mut tables = self.tables();
        if let Some(record) = tables.codes.take(code) {
            return Ok(record);
        }
        match tables.spent.take(code) {
            Some(family) => {
                tables.revoke(family);
                Err(Redeem::Replayed)
            }
            None => Err(Redeem::Unknown),
        }
    }

    /// Tokens for a code just redeemed (`code`, remembered as spent with their family).
    pub fn issue_tokens(&self, code: &str, grant: Grant) -> Result<Issued, Unavailable> {
        let mut tables = self.tables();
        let family = tables.new_family();
        let issued = tables.issue(grant, family, self.access_ttl)?;
        tables.spend(code, family, SPENT_CODE_TTL);
        Ok(issued)
    }

    /// What a live access token allows.
    pub fn access(&self, token: &str) -> Option<Access> {
        self.tables().access.get(token).map(|(a, _)| a.clone())
    }

    /// Exchanges a refresh token: `check` sees its grant and returns the access token's scope;
    /// then the token is replaced by a new one for the same grant (rotation). A rotated-out
    /// token presented again revokes its whole family (RFC 9700 §4.14.2).
    pub fn refresh<E>(
        &self,
        token: &str,
        check: impl FnOnce(&Grant) -> Result<Scopes, E>,
    ) -> Result<Issued, RefreshError<E>> {
        let mut tables = self.tables();
        let Some((grant, _)) = tables.refresh.get(token) else {
            return match tables.spent.take(token) {
                Some(family) => {
                    tables.revoke(family);
                    Err(RefreshError::Replayed)
                }
                None => Err(RefreshError::Unknown),
            };
        };
        let scope = check(grant).map_err(RefreshError::Refused)?;
        let (grant, family) = tables.refresh.take(token).ok_or(RefreshError::Unknown)?;
        tables.touch(&grant.client.id);
        let access = Access {
            client: grant.client.id.clone(),
            scope: scope.clone(),
            resource: grant.resource.clone(),
        };
        let access_token = tables
            .access
            .insert((access, family), self.access_ttl)
            .map_err(|_| RefreshError::Unavailable)?;
        let refresh_token = tables
            .refresh
            .insert((grant, family), REFRESH_TTL)
            .map_err(|_| RefreshError::Unavailable)?;
        tables.spend(token, family, REFRESH_TTL);
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

    /// A refresh that keeps the grant's scope.
    fn rotate(store: &Store, token: &str) -> Result<Issued, RefreshError<()>> {
        store.refresh::<()>(token, |g| Ok(g.scope.clone()))
    }

    fn issued_code(store: &Store) -> String {
        store
            .issue_code(Code {
                grant: grant(true),
                redirect_uri: "http://127.0.0.1/cb".into(),
                challenge: "c".into(),
            })
            .expect("issued")
    }

    #[test]
    fn codes_are_single_use() {
        let store = Store::new(Duration::from_secs(60));
        let code = issued_code(&store);
        assert!(store.redeem_code(&code).is_ok());
        // Spent without tokens (a failed redemption): unknown, nothing to revoke.
        assert_eq!(store.redeem_code(&code).err(), Some(Redeem::Unknown));
    }

    #[test]
    fn a_code_redeemed_twice_revokes_what_it_issued() {
        let store = Store::new(Duration::from_secs(60));
        let code = issued_code(&store);
        let record = store.redeem_code(&code).expect("first redemption");
        let issued = store.issue_tokens(&code, record.grant).expect("tokens");
        let other = store
            .issue_tokens("another code", grant(true))
            .expect("tokens");
        assert!(store.access(&issued.access_token).is_some());
        assert_eq!(store.redeem_code(&code).err(), Some(Redeem::Replayed));
        assert!(store.access(&issued.access_token).is_none());
        let refresh = issued.refresh_token.expect("refresh token");
        assert!(matches!(
            rotate(&store, &refresh),
            Err(RefreshError::Unknown)
        ));
        assert!(
            store.access(&other.access_token).is_some(),
            "another family stays"
        );
    }

    #[test]
    fn refresh_rotates_and_a_refused_check_keeps_the_token() {
        let store = Store::new(Duration::from_secs(60));
        let issued = store.issue_tokens("code", grant(true)).expect("issued");
        assert!(store.access(&issued.access_token).is_some());
        let old = issued.refresh_token.expect("refresh token");
        let refused = store.refresh(&old, |_| Err("no"));
        assert!(matches!(refused, Err(RefreshError::Refused("no"))));
        let again = store
            .refresh::<()>(&old, |g| Ok(g.scope.clone()))
            .expect("rotated");
        assert!(store.access(&again.access_token).is_some());
        // The rotated-out token again: refused, and the whole family with it.
        assert!(matches!(rotate(&store, &old), Err(RefreshError::Replayed)));
        assert!(store.access(&again.access_token).is_none());
        assert!(store.access(&issued.access_token).is_none());
        let newest = again.refresh_token.expect("rotated refresh token");
        assert!(matches!(
            rotate(&store, &newest),
            Err(RefreshError::Unknown)
        ));
        assert!(
            store
                .issue_tokens("code 2", grant(false))
                .expect("issued")
                .refresh_token
                .is_none()
        );
    }

    #[test]
    fn expired_tokens_are_unknown() {
        let store = Store::new(Duration::ZERO);
        let issued = store.issue_tokens("code", grant(false)).expect("issued");
        assert!(store.access(&issued.access_token).is_none());
    }

    fn client(id: &str) -> Client {
        Client {
            id: ClientId(id.into()),
            ..grant(true).client
        }
    }

    fn pending(client_id: &str) -> Pending {
        Pending {
            grant: Grant {
                client: client(client_id),
                ..grant(true)
            },
            redirect_uri: "http://127.0.0.1/cb".into(),
            challenge: "c".into(),
            state: None,
            issuer: "http://127.0.0.1:1".into(),
        }
    }

    #[test]
    fn a_flood_of_registrations_never_blocks_a_new_one_and_spares_used_clients() {
        let store = Store::new(Duration::from_secs(60));
        store.register(client("real"));
        store.hold(pending("real")).expect("held");
        for i in 0..MAX_CLIENTS + 50 {
            store.register(client(&format!("flood-{i}")));
        }
        assert_eq!(store.clients(), MAX_CLIENTS);
        assert!(
            store.registered(&ClientId("real".into())).is_some(),
            "used: kept"
        );
        assert!(
            store.registered(&ClientId("flood-0".into())).is_none(),
            "oldest unused: gone"
        );
        store.register(client("late"));
        assert!(store.registered(&ClientId("late".into())).is_some());
    }

    #[test]
    fn a_flood_that_also_opens_the_consent_page_never_evicts_a_client_the_user_authorized() {
        let store = Store::new(Duration::from_secs(60));
        store.register(client("authorized"));
        let family = store.tables().new_family();
        store
            .tables()
            .issue(
                Grant {
                    client: client("authorized"),
                    ..grant(true)
                },
                family,
                Duration::from_secs(60),
            )
            .expect("a token, after the user's consent");
        store.register(client("deciding"));
        store.hold(pending("deciding")).expect("held");
        // Each flood registration also opens the consent page: waiting, but never consented.
        for i in 0..MAX_CLIENTS + 50 {
            let id = format!("flood-{i}");
            store.register(client(&id));
            store.hold(pending(&id)).expect("held");
        }
        assert_eq!(store.clients(), MAX_CLIENTS);
        assert!(
            store.registered(&ClientId("authorized".into())).is_some(),
            "a client with a token outlasts any flood"
        );
        // With nothing but waiting clients left, the oldest of them gives way first.
        assert!(store.registered(&ClientId("deciding".into())).is_none());
        assert!(store.registered(&ClientId("flood-0".into())).is_none());
        store.register(client("late"));
        assert!(store.registered(&ClientId("late".into())).is_some());
    }

    #[test]
    fn a_registration_flood_takes_idle_registrations_before_one_waiting_for_consent() {
        let store = Store::new(Duration::from_secs(60));
        store.register(client("deciding"));
        store.hold(pending("deciding")).expect("held");
        for i in 0..MAX_CLIENTS + 50 {
            store.register(client(&format!("flood-{i}")));
        }
        assert!(store.registered(&ClientId("deciding".into())).is_some());
    }

    #[test]
    fn waiting_requests_are_capped_per_client_and_in_all_and_new_ones_still_wait() {
        let store = Store::new(Duration::from_secs(60));
        let first = store.hold(pending("flood")).expect("held");
        for _ in 0..MAX_PENDING_PER_CLIENT + 5 {
            store.hold(pending("flood")).expect("held");
        }
        assert_eq!(
            store.pending(&ClientId("flood".into())).1,
            MAX_PENDING_PER_CLIENT
        );
        assert!(store.decide(&first).is_none(), "the oldest gave way");
        for i in 0..MAX_PENDING + 10 {
            store.hold(pending(&format!("c{}", i % 500))).expect("held");
        }
        assert_eq!(store.pending(&ClientId("x".into())).0, MAX_PENDING);
        let real = store
            .hold(pending("real"))
            .expect("a real request still waits");
        assert!(store.decide(&real).is_some());
    }
}
