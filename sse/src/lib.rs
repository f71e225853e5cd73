//! Incremental parser for `text/event-stream` bodies (WHATWG HTML, "Server-sent events").
//!
//! Bytes are pushed as they arrive; complete events come out in order. A chunk may end anywhere:
//! inside a field name, inside a UTF-8 character, or between the CR and LF of a line break.
//!
//! An event is dispatched only by the blank line that ends it. A stream that ends (or breaks)
//! in the middle of an event leaves that event undispatched: [`SseParser::unfinished`] shows
//! what had arrived of it and [`SseParser::finish`] discards it, as the specification requires.
//!
//! One deliberate difference from a browser's `EventSource`: an event without `data` (only
//! `id`, `retry` or `event` fields) is still reported, with empty data, so a client can show a
//! server's priming event. [`SseEvent::is_empty`] tells such events apart.
//!
//! Used by the app (`mcp_flow_client::sse`), the load generator and the weather server's tests.

#![forbid(unsafe_code)]

/// One event of an SSE stream, as dispatched by a blank line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The last event id seen on the stream when this event was dispatched.
    pub id: Option<String>,
    /// The `event:` field, `"message"` when absent.
    pub event: String,
    /// The joined `data:` lines; empty for events without data (such as rmcp's priming event).
    pub data: String,
    /// The `retry:` value in milliseconds, if this event carried one.
    pub retry: Option<u64>,
}

impl SseEvent {
    /// An event without data carries nothing for the application (a priming event, for example).
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// Incremental SSE parser: feed bytes with [`SseParser::push`], read events as they complete.
#[derive(Debug)]
pub struct SseParser {
    line: Vec<u8>,
    after_cr: bool,
    at_start: bool,
    data: Option<String>,
    event: Option<String>,
    retry: Option<u64>,
    saw_field: bool,
    /// The id buffer: set by an `id` field, kept across events.
    id: Option<String>,
    /// The id of the last dispatched event (the spec's "last event ID string").
    last_id: Option<String>,
}

impl Default for SseParser {
    fn default() -> Self {
        Self::new()
    }
}

impl SseParser {
    pub fn new() -> Self {
        Self {
            line: Vec::new(),
            after_cr: false,
            at_start: true,
            data: None,
            event: None,
            retry: None,
            saw_field: false,
            id: None,
            last_id: None,
        }
    }

    /// The id of the last event dispatched, for `Last-Event-ID` when resuming. An `id` field of
    /// an event that never got its blank line does not count: that event was not received.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// Feeds a chunk of bytes and returns the events it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        for &byte in chunk {
            if self.after_cr {
                self.after_cr = false;
                if byte == b'\n' {
                    continue;
                }
            }
            match byte {
                b'\r' => {
                    self.after_cr = true;
                    self.end_line(&mut out);
                }
                b'\n' => self.end_line(&mut out),
                _ => self.line.push(byte),
            }
        }
        out
    }

    /// The event still waiting for its blank line, as SSE text: the fields read so far and the
    /// unterminated line. `None` when nothing is pending.
    pub fn unfinished(&self) -> Option<String> {
        let mut text = String::new();
        if self.saw_field
            && self.id != self.last_id
            && let Some(id) = &self.id
        {
            text.push_str(&format!("id: {id}\n"));
        }
        if let Some(event) = &self.event {
            text.push_str(&format!("event: {event}\n"));
        }
        if let Some(retry) = self.retry {
            text.push_str(&format!("retry: {retry}\n"));
        }
        for line in self.data.iter().flat_map(|d| d.split('\n')) {
            text.push_str(&format!("data: {line}\n"));
        }
        text.push_str(&String::from_utf8_lossy(&self.line));
        (!text.is_empty()).then_some(text)
    }

    /// Ends the stream. A final event that was never terminated by a blank line is discarded, as
    /// the specification requires; this reports whether such a partial event was pending.
    pub fn finish(&mut self) -> bool {
        let pending = !self.line.is_empty() || self.saw_field;
        self.line.clear();
        self.after_cr = false;
        // The id of a discarded event must not be resumed from.
        self.id = self.last_id.clone();
        self.reset_event();
        pending
    }

    fn end_line(&mut self, out: &mut Vec<SseEvent>) {
        let mut bytes = std::mem::take(&mut self.line);
        if self.at_start {
            self.at_start = false;
            if bytes.starts_with("\u{feff}".as_bytes()) {
                bytes.drain(..3);
            }
        }
        if bytes.is_empty() {
            self.dispatch(out);
            return;
        }
        let line = String::from_utf8_lossy(&bytes);
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_ref(), ""),
        };
        match field {
            "data" => {
                // A second data line joins the first with a newline, even if the first was empty.
                match self.data.as_mut() {
                    Some(data) => {
                        data.push('\n');
                        data.push_str(value);
                    }
                    None => self.data = Some(value.to_owned()),
                }
                self.saw_field = true;
            }
            "event" => {
                self.event = Some(value.to_owned());
                self.saw_field = true;
            }
            "id" if !value.contains('\0') => {
                self.id = Some(value.to_owned());
                self.saw_field = true;
            }
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry = value.parse().ok();
                self.saw_field = true;
            }
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        self.last_id = self.id.clone();
        if self.saw_field {
            out.push(SseEvent {
                id: self.id.clone(),
                event: self
                    .event
                    .take()
                    .filter(|e| !e.is_empty())
                    .unwrap_or_else(|| "message".to_owned()),
                data: self.data.take().unwrap_or_default(),
                retry: self.retry.take(),
            });
        }
        self.reset_event();
    }

    fn reset_event(&mut self) {
        self.data = None;
        self.event = None;
        self.retry = None;
        self.saw_field = false;
    }
}

/// A whole body read at once, split into its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The events that were terminated by a blank line, in order.
    pub events: Vec<SseEvent>,
    /// An event the body ended in the middle of (not dispatched), as SSE text.
    pub unfinished: Option<String>,
}

/// Parses a complete body (for callers that read the whole response before looking at it).
/// A final event without its blank line is not in `events`; it is reported in `unfinished`.
pub fn parse(body: &[u8]) -> Parsed {
    let mut parser = SseParser::new();
    let events = parser.push(body);
    let unfinished = parser.unfinished();
    parser.finish();
    Parsed { events, unfinished }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STREAM: &str = "id: 0\nretry: 3000\ndata:\n\n: keep-alive comment\nevent: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\ndata: \"method\":\"东京\"}\n\n";

    fn parse_all(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut parser = SseParser::new();
        chunks.iter().flat_map(|c| parser.push(c)).collect()
    }

    fn expected() -> Vec<SseEvent> {
        vec![
            SseEvent {
                id: Some("0".into()),
                event: "message".into(),
                data: String::new(),
                retry: Some(3000),
            },
            SseEvent {
                id: Some("1".into()),
                event: "message".into(),
                data: "{\"jsonrpc\":\"2.0\",\n\"method\":\"东京\"}".into(),
                retry: None,
            },
        ]
    }

    #[test]
    fn whole_stream_in_one_chunk() {
        assert_eq!(parse_all(&[STREAM.as_bytes()]), expected());
    }

    #[test]
    fn every_split_point_gives_the_same_events() {
        let bytes = STREAM.as_bytes();
        for cut in 0..=bytes.len() {
            let (a, b) = bytes.split_at(cut);
            assert_eq!(parse_all(&[a, b]), expected(), "split at byte {cut}");
        }
    }

    #[test]
    fn byte_by_byte_with_crlf_line_ends() {
        let crlf = STREAM.replace('\n', "\r\n");
        let chunks: Vec<&[u8]> = crlf.as_bytes().chunks(1).collect();
        assert_eq!(parse_all(&chunks), expected());
    }

    #[test]
    fn lone_cr_ends_lines_and_cr_lf_split_across_chunks_is_one_break() {
        let events = parse_all(&[b"data: a\r", b"\ndata: b\r\r"]);
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].data, "a\nb");
    }

    #[test]
    fn priming_event_is_reported_empty() {
        let events = parse_all(&[b"id: 7\nretry: 500\ndata:\n\n"]);
        assert_eq!(events.len(), 1);
        assert!(events[0].is_empty());
        assert_eq!(events[0].retry, Some(500));
    }

    #[test]
    fn id_persists_and_bad_retry_is_ignored() {
        let mut parser = SseParser::new();
        let events = parser.push(b"id: 5\ndata: x\n\nretry: 12a\ndata: y\n\n");
        assert_eq!(events[1].id.as_deref(), Some("5"));
        assert_eq!(events[1].retry, None);
        assert_eq!(parser.last_event_id(), Some("5"));
    }

    #[test]
    fn field_without_colon_and_without_space() {
        let events = parse_all(&[b"data\ndata:x\nevent:custom\n\n"]);
        assert_eq!(events[0].data, "\nx");
        assert_eq!(events[0].event, "custom");
    }

    #[test]
    fn comments_alone_dispatch_nothing_and_unterminated_event_is_pending() {
        let mut parser = SseParser::new();
        assert!(parser.push(b": hello\n\n").is_empty());
        assert!(parser.push(b"data: half").is_empty());
        assert!(parser.finish());
        assert!(!parser.finish(), "nothing is pending after finish");
    }

    #[test]
    fn an_unfinished_event_can_be_shown() {
        let mut parser = SseParser::new();
        assert_eq!(parser.unfinished(), None);
        parser.push(b"id: 1\ndata: done\n\nevent: message\ndata: a\ndata: {\"id\":3,\"res");
        assert_eq!(
            parser.unfinished().as_deref(),
            Some("event: message\ndata: a\ndata: {\"id\":3,\"res")
        );
        parser.push(b"ult\":{}}\n\n");
        assert_eq!(parser.unfinished(), None);
    }

    #[test]
    fn an_unterminated_final_event_is_not_dispatched() {
        // Complete lines, but no blank line after the last event: the stream ended inside it.
        let body = b"id: 1\ndata: {\"id\":1}\n\nid: 2\ndata: a\ndata: b\n";
        let mut parser = SseParser::new();
        let events = parser.push(body);
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].data, "{\"id\":1}");
        assert_eq!(
            parser.unfinished().as_deref(),
            Some("id: 2\ndata: a\ndata: b\n")
        );
        assert!(parser.finish(), "a partial event was pending");
        assert_eq!(parser.unfinished(), None);
        // The id of the discarded event is not one to resume from.
        assert_eq!(parser.last_event_id(), Some("1"));

        // The same through `parse`, as the load generator and the server tests read bodies.
        let parsed = parse(body);
        assert_eq!(parsed.events, events);
        assert_eq!(
            parsed.unfinished.as_deref(),
            Some("id: 2\ndata: a\ndata: b\n")
        );
        // A body that ends exactly at an event's blank line has nothing unfinished.
        assert_eq!(parse(b"data: x\n\n").unfinished, None);
        assert_eq!(parse(b"").events, []);
    }

    #[test]
    fn last_event_id_moves_only_when_an_event_is_dispatched() {
        let mut parser = SseParser::new();
        parser.push(b"id: a\ndata: 1\n\nid: b\ndata: 2");
        assert_eq!(parser.last_event_id(), Some("a"));
        parser.push(b"\n\n");
        assert_eq!(parser.last_event_id(), Some("b"));
        // An id alone, dispatched by its blank line, still moves it (and is reported, empty).
        let events = parser.push(b"id: c\n\n");
        assert!(events[0].is_empty());
        assert_eq!(parser.last_event_id(), Some("c"));
        // After a discarded event the id buffer is back at the last dispatched id.
        parser.push(b"id: d\ndata: 3\n");
        parser.finish();
        let events = parser.push(b"data: 4\n\n");
        assert_eq!(events[0].id.as_deref(), Some("c"));
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        let events = parse_all(&["\u{feff}data: ok\n\n".as_bytes()]);
        assert_eq!(events[0].data, "ok");
    }
}
