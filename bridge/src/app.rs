//! The state of a stdio bridge: its fixed command, its limits and its sessions (open, and the
//! last ended ones, whose records stay readable).

use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex, MutexGuard},
    time::Duration,
};

use axum::http::StatusCode;

use crate::{
    child::ChildEnv,
    config::Options,
    jsonrpc::Failure,
    param_headers::ParamHeaders,
    record::{ALL_TEXT_KEPT_BYTES, Budget},
    secret::random_hex,
    session::{Launch, Session},
};

/// Ended sessions whose records stay readable on the legs endpoint.
const ENDED_KEPT: usize = 32;

pub struct App {
    /// The server's command and what it gets of the environment, fixed at start.
    pub launch: Launch,
    pub options: Options,
    open: Mutex<HashMap<String, Arc<Session>>>,
    ended: Mutex<VecDeque<Arc<Session>>>,
    /// Serialises session starts so the cap cannot be overshot.
    starting: tokio::sync::Mutex<()>,
    /// The id of the child shared by requests without a session (2026-07-28), once started.
    sessionless: tokio::sync::Mutex<Option<String>>,
    /// The `Mcp-Param-*` headers the shared child's tools ask for (2026-07-28), learnt from its
    /// `tools/list` answers.
    pub param_headers: Arc<Mutex<ParamHeaders>>,
}

impl App {
    pub fn new(command: Vec<String>, env: ChildEnv, options: Options) -> Self {
        Self {
            launch: Launch {
                command,
                env,
                budget: Budget::new(ALL_TEXT_KEPT_BYTES),
            },
            options,
            open: Mutex::default(),
            ended: Mutex::default(),
            starting: tokio::sync::Mutex::new(()),
            sessionless: tokio::sync::Mutex::new(None),
            param_headers: Arc::default(),
        }
    }

    fn open(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn ended(&self) -> MutexGuard<'_, VecDeque<Arc<Session>>> {
        self.ended
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The child for requests without a session (the 2026-07-28 era, where every request
    /// stands alone): one for the bridge, started on first use and again after it ends.
    pub async fn sessionless_session(&self) -> Result<Arc<Session>, Failure> {
        let mut shared = self.sessionless.lock().await;
        if let Some(id) = shared.as_deref() {
            match self.session(id) {
                Some(session) if session.ended().is_none() => return Ok(session),
                Some(_) => {
                    let id = id.to_owned();
                    self.end_session(&id, "its process ended; a new one takes over")
                        .await;
                }
                None => {}
            }
        }
        let session = self.start_session(true).await?;
        *shared = Some(session.id.clone());
        Ok(session)
    }

    /// Starts a session and its child, within the session cap.
    pub async fn start_session(&self, sessionless: bool) -> Result<Arc<Session>, Failure> {
        let _starting = self.starting.lock().await;
        let max = self.options.max_sessions;
        if self.open().len() >= usize::try_from(max).unwrap_or(usize::MAX) {
            return Err(Failure::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "bridge",
                "session-limit",
                format!(
                    "The bridge's session limit ({max}) is reached: end a session (DELETE) or \
                     wait for one to expire, or start the bridge with a larger --max-sessions"
                ),
            ));
        }
        let id = random_hex(16).map_err(|error| {
            Failure::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "bridge",
                "no-random",
                format!("No random source for a session id: {error}"),
            )
        })?;
        let session = Session::start(id.clone(), &self.launch, sessionless).map_err(|error| {
            Failure::new(
                StatusCode::BAD_GATEWAY,
                "stdio",
                "spawn-failed",
                format!("Cannot start `{}`: {error}", self.launch.command.join(" ")),
            )
        })?;
        self.open().insert(id, Arc::clone(&session));
        Ok(session)
    }

    /// An open session.
    pub fn session(&self, id: &str) -> Option<Arc<Session>> {
        self.open().get(id).cloned()
    }

    /// An open or recently ended session (for its record).
    pub fn any_session(&self, id: &str) -> Option<Arc<Session>> {
        self.session(id)
            .or_else(|| self.ended().iter().find(|s| s.id == id).cloned())
    }

    /// Open sessions, then ended ones.
    pub fn all_sessions(&self) -> Vec<Arc<Session>> {
        let mut all: Vec<_> = self.open().values().cloned().collect();
        all.sort_by(|a, b| a.started_at_ms.total_cmp(&b.started_at_ms));
        all.extend(self.ended().iter().cloned());
        all
    }

    /// Ends a session: its child is killed and gone when this returns.
    pub async fn end_session(&self, id: &str, reason: &str) -> bool {
        let Some(session) = self.open().remove(id) else {
            return false;
        };
        session.stop(reason).await;
        let mut ended = self.ended();
        ended.push_front(session);
        ended.truncate(ENDED_KEPT);
        true
    }

    /// Ends the sessions idle for longer than `--idle-secs`.
    pub async fn end_idle_sessions(&self) {
        let idle = self.options.idle();
        let expired: Vec<String> = self
            .open()
            .values()
            .filter(|session| session.is_idle(idle))
            .map(|session| session.id.clone())
            .collect();
        for id in expired {
            let reason = format!("idle for {} s", idle.as_secs());
            self.end_session(&id, &reason).await;
        }
    }

    /// Ends every session (the bridge is stopping).
    pub async fn end_all(&self) {
        let ids: Vec<String> = self.open().keys().cloned().collect();
        let ends = ids
            .iter()
            .map(|id| self.end_session(id, "the bridge is stopping"));
        futures::future::join_all(ends).await;
    }

    /// How often idle sessions are looked for.
    pub fn reap_interval(&self) -> Duration {
        (self.options.idle() / 4).clamp(Duration::from_millis(100), Duration::from_secs(5))
    }
}
