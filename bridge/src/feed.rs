//! The watch feed (`--watch`): every request, answer, body chunk and stdio line that passed, in
//! order, for a page that draws a host's traffic (`GET /s/SECRET/watch?since=N&wait=SECS`). The
//! relay only appends (a lock and a copy); the feed keeps the newest events within its bounds
//! and says how many it let go.

use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex, MutexGuard},
    time::Duration,
};

use axum::{
    Json,
    extract::{Query, State},
    http::StatusCode,
    response::{IntoResponse, Response},
};
use mcp_flow_wire::watch::{EVENTS_PER_PAGE, Event, PAGE_BYTES, Page, TapBatch, What, kept};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Notify;

use crate::record::now_ms;

/// Events kept; past it the oldest go.
pub const EVENTS_KEPT: usize = 20_000;
/// Text kept over all events; past it the oldest go.
pub const BYTES_KEPT: usize = 64 * 1024 * 1024;
/// The longest a page's request waits for something new.
pub const LONGEST_WAIT: Duration = Duration::from_secs(25);

#[derive(Default)]
struct Inner {
    events: VecDeque<Event>,
    next: u64,
    dropped: u64,
    bytes: usize,
}

fn size(event: &Event) -> usize {
    match &event.what {
        What::Request { body, headers, .. } => {
            body.len()
                + headers
                    .iter()
                    .map(|(n, v)| n.len() + v.len())
                    .sum::<usize>()
        }
        What::Response { headers, .. } => headers.iter().map(|(n, v)| n.len() + v.len()).sum(),
        What::Chunk { text } | What::Line { text, .. } | What::Stderr { text } => text.len(),
        What::End { error } => error.as_ref().map_or(0, String::len),
        What::Closed { why } => why.len(),
    }
}

/// What passed, for watching pages.
pub struct Feed {
    inner: Mutex<Inner>,
    arrived: Notify,
    /// `http` or `stdio`, and what the host reaches.
    mode: &'static str,
    target: String,
    /// stdio: the taps that sent copies, by name.
    taps: Taps,
    /// The largest batch a tap may send.
    max_body: usize,
}

impl Feed {
    pub fn new(mode: &'static str, target: String, max_body: usize) -> Arc<Self> {
        Arc::new(Self {
            inner: Mutex::default(),
            arrived: Notify::new(),
            mode,
            target,
            taps: Taps::default(),
            max_body,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Appends what passed; the oldest events go past the bounds.
    pub fn push(&self, exchange: u64, session: Option<String>, mut what: What) {
        match &mut what {
            What::Request { body: text, .. }
            | What::Chunk { text }
            | What::Line { text, .. }
            | What::Stderr { text } => *text = kept(std::mem::take(text)),
            What::Response { .. } | What::End { .. } | What::Closed { .. } => {}
        }
        {
            let mut inner = self.lock();
            let event = Event {
                n: inner.next,
                at_ms: now_ms(),
                exchange,
                session,
                what,
            };
            inner.next += 1;
            inner.bytes += size(&event);
            inner.events.push_back(event);
            while inner.events.len() > 1
                && (inner.events.len() > EVENTS_KEPT || inner.bytes > BYTES_KEPT)
            {
                if let Some(old) = inner.events.pop_front() {
                    inner.bytes = inner.bytes.saturating_sub(size(&old));
                    inner.dropped += 1;
                }
            }
        }
        self.arrived.notify_waiters();
    }

    /// The events from `since` on (at most [`EVENTS_PER_PAGE`]).
    pub fn page(&self, since: u64) -> Page {
        let inner = self.lock();
        let first = inner.events.front().map_or(inner.next, |e| e.n);
        let mut bytes = 0;
        let events: Vec<Event> = inner
            .events
            .iter()
            .skip(since.saturating_sub(first) as usize)
            .take(EVENTS_PER_PAGE)
            // At least one event, then only while the answer stays within its bytes.
            .take_while(|event| {
                let fits = bytes == 0 || bytes + size(event) <= PAGE_BYTES;
                bytes += size(event).max(1);
                fits
            })
            .cloned()
            .collect();
        Page {
            mode: self.mode.to_owned(),
            target: self.target.clone(),
            next: events.last().map_or(since.max(first), |e| e.n + 1),
            missed: first.saturating_sub(since),
            dropped: inner.dropped,
            events,
        }
    }

    /// The events from `since` on, waiting up to `wait` for one when there is none yet.
    pub async fn wait_page(&self, since: u64, wait: Duration) -> Page {
        let arrived = self.arrived.notified();
        tokio::pin!(arrived);
        arrived.as_mut().enable();
        let page = self.page(since);
        if !page.events.is_empty() || page.missed > 0 || wait.is_zero() {
            return page;
        }
        let _ = tokio::time::timeout(wait.min(LONGEST_WAIT), arrived).await;
        self.page(since)
    }
}

#[derive(Deserialize)]
pub struct WatchQuery {
    #[serde(default)]
    since: u64,
    /// Seconds to wait for something new (at most 25).
    #[serde(default)]
    wait: u64,
}

/// 404 from a bridge started without `--watch`, saying what it lacks.
fn not_watching(lacks: &str) -> Response {
    let error = format!("this bridge was started without --watch: {lacks}");
    (StatusCode::NOT_FOUND, Json(json!({ "error": error }))).into_response()
}

/// `GET /s/SECRET/watch?since=N&wait=SECS`: the feed from N on.
pub async fn watch(
    State(feed): State<Option<Arc<Feed>>>,
    Query(query): Query<WatchQuery>,
) -> Response {
    let Some(feed) = feed else {
        return not_watching("there is no feed");
    };
    Json(
        feed.wait_page(query.since, Duration::from_secs(query.wait))
            .await,
    )
    .into_response()
}

#[derive(Deserialize)]
pub struct TapQuery {
    name: String,
}

/// `POST /s/SECRET/tap?name=NAME`: a tap's copies of a stdio host's lines, into the feed as
/// that tap's session.
pub async fn tap(
    State(feed): State<Option<Arc<Feed>>>,
    Query(query): Query<TapQuery>,
    headers: axum::http::HeaderMap,
    body: axum::body::Body,
) -> Response {
    let Some(feed) = feed else {
        return not_watching("it takes no copies");
    };
    let bytes = match crate::body::read_body(body, &headers, feed.max_body).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    let batch: TapBatch = match serde_json::from_slice(&bytes) {
        Ok(batch) => batch,
        Err(error) => {
            return (
                StatusCode::BAD_REQUEST,
                Json(json!({"error": format!("not a tap's batch: {error}")})),
            )
                .into_response();
        }
    };
    let name = query.name.chars().take(64).collect::<String>();
    let number = feed.taps.number(&name);
    if batch.dropped > 0 {
        let why = format!(
            "[the tap dropped {} copies: the bridge did not keep up; the host's traffic was not held]",
            batch.dropped
        );
        feed.push(number, Some(name.clone()), What::Stderr { text: why });
    }
    for what in batch.events {
        if matches!(
            what,
            What::Line { .. } | What::Stderr { .. } | What::Closed { .. }
        ) {
            feed.push(number, Some(name.clone()), what);
        }
    }
    StatusCode::NO_CONTENT.into_response()
}

/// Numbers of the feed's exchanges for things that have their own (a tapped host's lines share
/// the tap's number).
#[derive(Default)]
pub struct Taps {
    numbers: Mutex<HashMap<String, u64>>,
}

impl Taps {
    /// The number of the tap named `name`, given on first sight.
    pub fn number(&self, name: &str) -> u64 {
        let mut numbers = self
            .numbers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let next = numbers.len() as u64;
        *numbers.entry(name.to_owned()).or_insert(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(text: &str) -> What {
        What::Chunk { text: text.into() }
    }

    #[test]
    fn a_page_reads_from_where_it_was_and_counts_what_it_missed() {
        let feed = Feed::new("http", "http://127.0.0.1:9/mcp".into(), 1024);
        for i in 0..3 {
            feed.push(i, Some("s".into()), chunk("x"));
        }
        let page = feed.page(1);
        assert_eq!(
            page.events.iter().map(|e| e.n).collect::<Vec<_>>(),
            vec![1, 2]
        );
        assert_eq!((page.next, page.missed), (3, 0));
        assert!(feed.page(3).events.is_empty());
        assert_eq!(feed.page(3).next, 3);
    }

    #[test]
    fn the_oldest_events_go_past_the_bounds_and_a_late_reader_is_told() {
        let feed = Feed::new("http", "u".into(), 1024);
        for i in 0..(EVENTS_KEPT as u64 + 10) {
            feed.push(i, None, chunk(""));
        }
        let page = feed.page(0);
        assert_eq!(page.missed, 10);
        assert_eq!(page.dropped, 10);
        assert_eq!(page.events[0].n, 10);
        assert_eq!(page.events.len(), EVENTS_PER_PAGE);
        // A big text is kept as its size only, and bytes bound the feed too.
        let feed = Feed::new("http", "u".into(), 1024);
        feed.push(
            0,
            None,
            chunk(&"y".repeat(mcp_flow_wire::watch::TEXT_KEPT_BYTES + 1)),
        );
        let page = feed.page(0);
        assert!(matches!(&page.events[0].what, What::Chunk { text } if text.contains("not kept")));
        for i in 0..70 {
            feed.push(i, None, chunk(&"z".repeat(1024 * 1024)));
        }
        let page = feed.page(0);
        assert!(
            page.dropped > 0 && page.missed > 0,
            "{} {}",
            page.dropped,
            page.missed
        );
    }

    #[test]
    fn an_answer_stays_within_its_bytes_and_the_next_goes_on_from_there() {
        let feed = Feed::new("http", "u".into(), 1024);
        let mib = "m".repeat(mcp_flow_wire::watch::TEXT_KEPT_BYTES);
        for i in 0..20 {
            feed.push(i, None, chunk(&mib));
        }
        let first = feed.page(0);
        assert_eq!(first.events.len(), PAGE_BYTES / mib.len());
        let (mut read, mut next) = (first.events.len(), first.next);
        while read < 20 {
            let page = feed.page(next);
            assert_eq!(page.events[0].n, next, "nothing skipped between answers");
            read += page.events.len();
            next = page.next;
        }
        assert_eq!((read, next), (20, 20));
    }

    #[tokio::test]
    async fn a_waiting_reader_wakes_when_something_passes() {
        let feed = Feed::new("http", "u".into(), 1024);
        let waiting = {
            let feed = Arc::clone(&feed);
            tokio::spawn(async move { feed.wait_page(0, Duration::from_secs(20)).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        feed.push(7, None, chunk("hello"));
        let page = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("woken, not timed out")
            .expect("the task ran");
        assert_eq!(page.events.len(), 1);
        assert_eq!(page.events[0].exchange, 7);
    }

    #[test]
    fn taps_keep_their_numbers() {
        let taps = Taps::default();
        assert_eq!(taps.number("a"), 0);
        assert_eq!(taps.number("b"), 1);
        assert_eq!(taps.number("a"), 0);
    }
}
