//! Resource updates on the server's clock: every city report is observed anew each period
//! (`--update-secs`, default 10 s), its `observedAt` moves on, and a subscriber hears
//! `notifications/resources/updated` for it: through `resources/subscribe` on a 2025-11-25
//! session (on the session's GET stream), through `subscriptions/listen` in 2026-07-28 (on the
//! listen request's own stream). The list of cities and the icon never change.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::{Peer, RoleServer, model::ResourceUpdatedNotificationParam};

use crate::handlers::resources::CITY_PREFIX;

/// When reports are observed: at each multiple of the period, in seconds since the Unix epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    period_secs: u64,
}

impl Default for Clock {
    fn default() -> Self {
        Self::every(10)
    }
}

impl Clock {
    /// A clock that observes every `period_secs` (at least 1).
    pub fn every(period_secs: u64) -> Self {
        Self {
            period_secs: period_secs.max(1),
        }
    }

    fn now() -> Duration {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
    }

    /// The latest observation time (Unix seconds).
    pub fn observed_at(&self) -> u64 {
        Self::now().as_secs() / self.period_secs * self.period_secs
    }

    /// How long until the next observation.
    pub fn until_next(&self) -> Duration {
        let next = Duration::from_secs(self.observed_at() + self.period_secs);
        next.saturating_sub(Self::now())
    }
}

/// Whether the resource at `uri` changes on the clock (a city's report).
pub fn changes(uri: &str) -> bool {
    uri.starts_with(CITY_PREFIX)
}

/// A 2025-11-25 session's subscriptions, and the one ticker that sends their updates.
#[derive(Debug, Clone, Default)]
pub struct Subscriptions {
    uris: Arc<Mutex<BTreeSet<String>>>,
    ticking: Arc<AtomicBool>,
}

impl Subscriptions {
    pub fn add(&self, uri: String, peer: &Peer<RoleServer>, clock: Clock) {
        self.lock().insert(uri);
        if !self.ticking.swap(true, Ordering::SeqCst) {
            tokio::spawn(tick(self.clone(), peer.clone(), clock));
        }
    }

    pub fn remove(&self, uri: &str) {
        self.lock().remove(uri);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        self.uris.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Sends each subscribed report's update at every observation, until the session's transport
/// closes (the session ended) or a send fails.
async fn tick(subscriptions: Subscriptions, peer: Peer<RoleServer>, clock: Clock) {
    loop {
        tokio::time::sleep(clock.until_next()).await;
        if peer.is_transport_closed() {
            return;
        }
        let due: Vec<String> = subscriptions
            .lock()
            .iter()
            .filter(|uri| changes(uri))
            .cloned()
            .collect();
        for uri in due {
            let update = ResourceUpdatedNotificationParam::new(uri);
            if let Err(error) = peer.notify_resource_updated(update).await {
                tracing::debug!(%error, "a subscription's session is gone");
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observations_fall_on_multiples_of_the_period() {
        let clock = Clock::every(10);
        assert_eq!(clock.observed_at() % 10, 0);
        assert!(clock.until_next() <= Duration::from_secs(10));
        assert_eq!(Clock::every(0), Clock::every(1));
    }

    #[test]
    fn only_city_reports_change() {
        assert!(changes("weather://city/Tokyo"));
        assert!(!changes("weather://cities"));
        assert!(!changes("weather://icon.png"));
    }
}
