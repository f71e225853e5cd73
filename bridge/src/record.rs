//! The record of one session's stdio leg: every line written to the child's stdin, read from
//! its stdout or stderr, and what the bridge did (started, routed, killed), each with its time.

use std::{
    collections::VecDeque,
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{SystemTime, UNIX_EPOCH},
};

use serde::Serialize;

/// Stderr kept per session; later stderr lines are counted, not kept (a child flooding stderr
/// cannot exhaust memory). Stdin and stdout lines are always kept.
pub const STDERR_KEPT_BYTES: usize = 1024 * 1024;
/// Stdin and stdout text kept per session; past it, entries are still recorded (time, leg,
/// note) but their text is replaced by its length, so a long session cannot exhaust memory.
pub const TEXT_KEPT_BYTES: usize = 64 * 1024 * 1024;
/// Text kept by all the bridge's records together (open sessions and the ended ones still
/// readable): a session's limits times the sessions would be gigabytes.
pub const ALL_TEXT_KEPT_BYTES: usize = 256 * 1024 * 1024;
/// Stderr lines kept for error messages ("the last lines the server wrote to stderr").
pub const STDERR_TAIL_LINES: usize = 20;

/// Which stream a record entry is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Leg {
    /// A line the bridge wrote to the child's stdin.
    Stdin,
    /// A line the child wrote to its stdout.
    Stdout,
    /// A line the child wrote to its stderr.
    Stderr,
    /// Something the bridge did or saw (start, exit, kill, a refused request).
    Bridge,
}

/// One entry of the record.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// Position in the session's record, from 0.
    pub seq: u64,
    /// Milliseconds since the Unix epoch.
    pub at_ms: f64,
    pub leg: Leg,
    /// The line as text (invalid UTF-8 replaced), without its line break.
    pub text: String,
    /// What the bridge made of it: where a stdout message went, why a line was refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Default)]
struct Inner {
    entries: Vec<Entry>,
    stderr_bytes: usize,
    stderr_dropped: u64,
    text_bytes: usize,
    stderr_tail: VecDeque<String>,
}

/// Bytes the records of one bridge may still keep; a record gives its bytes back when it goes.
#[derive(Debug)]
pub struct Budget {
    left: AtomicUsize,
}

impl Budget {
    pub fn new(bytes: usize) -> Arc<Self> {
        Arc::new(Self {
            left: AtomicUsize::new(bytes),
        })
    }

    /// Takes `n` bytes if that many are left.
    fn take(&self, n: usize) -> bool {
        self.left
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |left| {
                left.checked_sub(n)
            })
            .is_ok()
    }

    fn give(&self, n: usize) {
        self.left.fetch_add(n, Ordering::AcqRel);
    }

    pub fn left(&self) -> usize {
        self.left.load(Ordering::Acquire)
    }
}

/// A session's record, shared by the tasks that read and write the child.
pub struct Record {
    inner: Mutex<Inner>,
    budget: Arc<Budget>,
}

/// A record with a budget of its own.
impl Default for Record {
    fn default() -> Self {
        Self::new(Budget::new(ALL_TEXT_KEPT_BYTES))
    }
}

impl Drop for Record {
    fn drop(&mut self) {
        let inner = self.lock();
        self.budget.give(inner.text_bytes + inner.stderr_bytes);
    }
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |elapsed| elapsed.as_secs_f64() * 1000.0)
}

impl Record {
    /// An empty record whose text counts against `budget`.
    pub fn new(budget: Arc<Budget>) -> Self {
        Self {
            inner: Mutex::default(),
            budget,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves plain data behind: keep using it.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Appends an entry; returns its sequence number.
    pub fn push(&self, leg: Leg, text: impl Into<String>, note: Option<String>) -> u64 {
        let mut text = text.into();
        let mut note = note;
        let mut inner = self.lock();
        if matches!(leg, Leg::Stdin | Leg::Stdout) {
            let full = if inner.text_bytes + text.len() > TEXT_KEPT_BYTES {
                Some(format!(
                    "the session's record passed {TEXT_KEPT_BYTES} bytes"
                ))
            } else if !self.budget.take(text.len()) {
                Some(format!(
                    "the bridge's records passed {ALL_TEXT_KEPT_BYTES} bytes together"
                ))
            } else {
                None
            };
            if let Some(why) = full {
                let dropped = format!("text of {} bytes not kept: {why}", text.len());
                note = Some(match note {
                    Some(note) => format!("{note}; {dropped}"),
                    None => dropped,
                });
                text = String::new();
            } else {
                inner.text_bytes += text.len();
            }
        }
        if leg == Leg::Stderr {
            inner.stderr_tail.push_back(text.clone());
            if inner.stderr_tail.len() > STDERR_TAIL_LINES {
                inner.stderr_tail.pop_front();
            }
            // Once over, every later stderr line is dropped: the kept ones have no holes.
            if inner.stderr_dropped > 0
                || inner.stderr_bytes + text.len() > STDERR_KEPT_BYTES
                || !self.budget.take(text.len())
            {
                inner.stderr_dropped += 1;
                return u64::MAX;
            }
            inner.stderr_bytes += text.len();
        }
        let seq = inner.entries.len() as u64;
        inner.entries.push(Entry {
            seq,
            at_ms: now_ms(),
            leg,
            text,
            note,
        });
        seq
    }

    /// Entries from `since` on.
    pub fn entries_since(&self, since: u64) -> Vec<Entry> {
        let inner = self.lock();
        let start = usize::try_from(since)
            .unwrap_or(usize::MAX)
            .min(inner.entries.len());
        inner.entries[start..].to_vec()
    }

    /// Number of entries so far.
    pub fn len(&self) -> u64 {
        self.lock().entries.len() as u64
    }

    /// Whether nothing was recorded yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Stderr lines not kept because the session passed [`STDERR_KEPT_BYTES`].
    pub fn stderr_dropped(&self) -> u64 {
        self.lock().stderr_dropped
    }

    /// The last stderr lines (up to [`STDERR_TAIL_LINES`]), oldest first.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.lock().stderr_tail.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_text_limit_entries_keep_their_place_but_not_their_text() {
        let record = Record::default();
        let big = "x".repeat(TEXT_KEPT_BYTES / 2 + 1);
        record.push(Leg::Stdin, big.clone(), None);
        record.push(Leg::Stdout, big, Some("answers POST ping (id 1)".into()));
        let entries = record.entries_since(0);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].text.len(), TEXT_KEPT_BYTES / 2 + 1);
        assert!(entries[1].text.is_empty());
        let note = entries[1].note.as_deref().expect("note");
        assert!(
            note.starts_with("answers POST ping (id 1); text of"),
            "{note}"
        );
    }

    #[test]
    fn the_records_of_one_bridge_share_a_budget_given_back_when_they_go() {
        let budget = Budget::new(10);
        let a = Record::new(Arc::clone(&budget));
        let b = Record::new(Arc::clone(&budget));
        a.push(Leg::Stdout, "123456", None);
        b.push(Leg::Stdin, "123456", None);
        b.push(Leg::Stderr, "1234", None);
        let kept = b.entries_since(0);
        assert!(kept[0].text.is_empty(), "over the shared budget");
        let note = kept[0].note.as_deref().expect("note");
        assert!(note.contains("the bridge's records passed"), "{note}");
        assert_eq!(kept[1].text, "1234");
        assert_eq!(budget.left(), 0);
        drop(a);
        assert_eq!(budget.left(), 6);
        b.push(Leg::Stdin, "abc", None);
        assert_eq!(b.entries_since(2)[0].text, "abc");
        drop(b);
        assert_eq!(budget.left(), 10);
    }

    #[test]
    fn entries_are_numbered_and_read_from_a_position() {
        let record = Record::default();
        record.push(Leg::Stdin, "{\"id\":1}", None);
        record.push(
            Leg::Stdout,
            "{\"id\":1,\"result\":{}}",
            Some("answers".into()),
        );
        let later = record.entries_since(1);
        assert_eq!(later.len(), 1);
        assert_eq!(later[0].seq, 1);
        assert_eq!(later[0].leg, Leg::Stdout);
        assert!(record.entries_since(9).is_empty());
    }

    #[test]
    fn a_stderr_flood_is_counted_not_kept_but_the_tail_stays_current() {
        let record = Record::default();
        let line = "x".repeat(1000);
        let lines = STDERR_KEPT_BYTES / 1000 + 50;
        for _ in 0..lines {
            record.push(Leg::Stderr, line.clone(), None);
        }
        record.push(Leg::Stderr, "the last words", None);
        record.push(Leg::Stdout, "{}", None);
        assert_eq!(record.stderr_dropped(), 51);
        assert_eq!(
            record.stderr_tail().last().map(String::as_str),
            Some("the last words")
        );
        assert_eq!(record.stderr_tail().len(), STDERR_TAIL_LINES);
        // Stdout is kept whatever stderr did.
        assert_eq!(
            record.entries_since(0).last().map(|e| e.leg),
            Some(Leg::Stdout)
        );
    }
}
