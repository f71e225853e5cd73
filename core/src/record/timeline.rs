//! A run on a time axis: each HTTP exchange a span from its request to its last byte, the SSE
//! events it carried as ticks, each model call a span, in lanes by what they are. Read from the
//! record alone, so a live run and the same run imported give the same timeline.

use super::run::Run;
use crate::decimal::fixed;
use crate::diagram::Row;

/// A horizontal band of the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// A request the client sent and its answer (JSON, or an SSE stream that ends with it).
    Requests,
    /// A stream the client keeps open to hear the server (the GET stream, `subscriptions/listen`).
    Streams,
    /// A task the server runs: from the answer that created it to the poll that saw it end,
    /// each poll's answer a tick.
    Tasks,
    /// A call to the model.
    Model,
    /// A request of the authorization flow.
    Authorization,
    /// A tool's app: from the host's first message to it to the last one either way, each
    /// `postMessage` a tick.
    App,
}

impl Lane {
    pub const ALL: [Lane; 6] = [
        Lane::Authorization,
        Lane::Requests,
        Lane::Streams,
        Lane::Tasks,
        Lane::Model,
        Lane::App,
    ];

    pub fn name(self, lang: crate::diagram::Lang) -> &'static str {
        use crate::diagram::Lang::{En, Zh};
        match (self, lang) {
            (Lane::Requests, En) => "Requests and answers",
            (Lane::Requests, Zh) => "请求与应答",
            (Lane::Streams, En) => "Streams kept open",
            (Lane::Streams, Zh) => "保持打开的流",
            (Lane::Tasks, En) => "Tasks",
            (Lane::Tasks, Zh) => "任务",
            (Lane::Model, En) => "Model",
            (Lane::Model, Zh) => "模型",
            (Lane::Authorization, En) => "Authorization",
            (Lane::Authorization, Zh) => "授权",
            (Lane::App, En) => "App (postMessage)",
            (Lane::App, Zh) => "应用（postMessage）",
        }
    }
}

/// One thing that took time.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub lane: Lane,
    /// The JSON-RPC method, else the HTTP method and path; for a model call, its provider.
    pub label: String,
    /// The diagram row it belongs to, if any (a replay from the message log has none).
    pub row: Option<Row>,
    /// Milliseconds from the timeline's start.
    pub start: f64,
    /// `None` while it is still going.
    pub end: Option<f64>,
    /// When each SSE event arrived, from the timeline's start.
    pub ticks: Vec<f64>,
    pub failed: bool,
    /// The round of a `tools/call` the server answered with `input_required` and the client
    /// sent again with its answers (2026-07-28, MRTR): 1, 2, …; `None` for any other span.
    pub round: Option<u32>,
}

/// The rounds of one MRTR exchange, as one bracket over its spans.
#[derive(Debug, Clone, PartialEq)]
pub struct Rounds {
    pub start: f64,
    pub end: f64,
    pub rounds: u32,
}

/// The spans of a run, in the order they started.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timeline {
    pub spans: Vec<Span>,
    /// The MRTR exchanges, each from its first round's start to its last round's end.
    pub rounds: Vec<Rounds>,
    /// From the first start to the last end (or tick) seen.
    pub duration: f64,
}

impl Timeline {
    pub fn of(run: &Run) -> Self {
        let row_of_mcp = |seq: usize| run.rows.iter().find(|r| r.mcp.contains(&seq)).map(|r| r.id);
        let row_of_llm = |i: usize| run.rows.iter().find(|r| r.llm.contains(&i)).map(|r| r.id);
        // (when it started, the span, whether it is an MRTR retry)
        let mut raw: Vec<(f64, Span, bool)> = Vec::new();
        for x in &run.mcp.exchanges {
            let streams =
                x.method == "GET" || x.rpc_method.as_deref() == Some("subscriptions/listen");
            let lane = match (x.auth.is_some(), streams) {
                (true, _) => Lane::Authorization,
                (false, true) => Lane::Streams,
                (false, false) => Lane::Requests,
            };
            let label = x.rpc_method.clone().unwrap_or_else(|| {
                let path = x
                    .url
                    .split("://")
                    .nth(1)
                    .and_then(|r| r.find('/').map(|i| &r[i..]));
                format!("{} {}", x.method, path.unwrap_or("/"))
            });
            raw.push((
                x.started_ms,
                Span {
                    lane,
                    label,
                    row: row_of_mcp(x.seq),
                    start: x.started_ms,
                    end: x.finished_ms,
                    ticks: x.events.iter().map(|e| e.at_ms).collect(),
                    failed: x.error.is_some(),
                    round: None,
                },
                // A tools/call sent again with answers (MRTR) continues the one before it.
                x.rpc_method.as_deref() == Some("tools/call")
                    && x.request_body
                        .as_deref()
                        .is_some_and(|b| b.contains("\"inputResponses\"")),
            ));
        }
        for (i, x) in run.llm.iter().enumerate() {
            raw.push((
                x.started_ms,
                Span {
                    lane: Lane::Model,
                    label: x.provider.clone(),
                    row: row_of_llm(i),
                    start: x.started_ms,
                    end: Some(x.finished_ms),
                    ticks: Vec::new(),
                    failed: x.error.is_some(),
                    round: None,
                },
                false,
            ));
        }
        if let Some(task) = task_span(run) {
            raw.push((task.start, task, false));
        }
        if let Some(app) = app_span(run) {
            raw.push((app.start, app, false));
        }
        raw.sort_by(|a, b| a.0.total_cmp(&b.0));
        let origin = raw.first().map_or(0.0, |(t, ..)| *t);
        let retries: Vec<bool> = raw.iter().map(|(.., retry)| *retry).collect();
        let mut duration: f64 = 0.0;
        let spans = raw
            .into_iter()
            .map(|(_, mut s, _)| {
                s.start -= origin;
                s.end = s.end.map(|e| e - origin);
                for t in &mut s.ticks {
                    *t -= origin;
                }
                let last = s.ticks.iter().copied().chain(s.end).fold(s.start, f64::max);
                duration = duration.max(last);
                s
            })
            .collect();
        let mut timeline = Self {
            spans,
            rounds: Vec::new(),
            duration,
        };
        timeline.number_rounds(&retries);
        timeline
    }

    /// A retry with answers (`retries[i]`) continues the `tools/call` before it: rounds 1, 2,
    /// … and one bracket over each such exchange.
    fn number_rounds(&mut self, retries: &[bool]) {
        let mut previous: Option<usize> = None;
        for (i, retry) in retries.iter().enumerate() {
            if self.spans[i].label != "tools/call" {
                continue;
            }
            if let (true, Some(p)) = (*retry, previous) {
                let round = self.spans[p].round.unwrap_or(1);
                self.spans[p].round = Some(round);
                self.spans[i].round = Some(round + 1);
                let end = self.spans[i].end.unwrap_or(self.duration);
                match self.rounds.last_mut() {
                    Some(r) if round > 1 => {
                        r.end = end;
                        r.rounds = round + 1;
                    }
                    _ => self.rounds.push(Rounds {
                        start: self.spans[p].start,
                        end,
                        rounds: 2,
                    }),
                }
            }
            previous = Some(i);
        }
    }
}

/// The task the browse followed (rows 22 to 25): from the answer that created it to the last
/// poll's answer (still going until its status row is done or the polling failed), a tick at
/// each poll's answer.
fn task_span(run: &Run) -> Option<Span> {
    use crate::record::payload::Payload;
    let Some(Payload::Task { id, .. }) = run.payload(Row::TaskCreated) else {
        return None;
    };
    let answers = |row: Row| -> Vec<f64> {
        let seqs = run.row(row).map(|r| r.mcp.clone()).unwrap_or_default();
        run.mcp
            .exchanges
            .iter()
            .filter(|x| seqs.contains(&x.seq))
            .filter_map(|x| x.finished_ms)
            .collect()
    };
    let start = answers(Row::TaskCall).last().copied()?;
    let ticks = answers(Row::TaskPoll);
    use crate::record::run::RowStatus;
    let stopped = [Row::TaskPoll, Row::TaskStatus]
        .iter()
        .any(|r| run.status(*r) == RowStatus::Failed);
    let ended = stopped || run.status(Row::TaskStatus) == RowStatus::Done;
    let status = match run.payload(Row::TaskStatus) {
        Some(Payload::Task { status, .. }) => status.as_str(),
        _ => "",
    };
    let end = ended.then(|| ticks.last().copied().unwrap_or(start));
    Some(Span {
        lane: Lane::Tasks,
        label: format!("task {id}"),
        row: Some(Row::TaskCreated),
        start,
        end,
        ticks,
        failed: stopped || matches!(status, "failed" | "cancelled"),
        round: None,
    })
}

/// What part of the timeline is shown: `zoom` 1 fits the whole run, 2 shows half of it;
/// `from` is the fraction of the run at the left edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    pub zoom: f64,
    pub from: f64,
}

impl Default for View {
    fn default() -> Self {
        Self {
            zoom: 1.0,
            from: 0.0,
        }
    }
}

impl View {
    pub const MAX_ZOOM: f64 = 64.0;

    /// Twice as close (or as far, `closer` false), keeping the middle where it is.
    pub fn zoomed(self, closer: bool) -> Self {
        let zoom = if closer {
            self.zoom * 2.0
        } else {
            self.zoom / 2.0
        }
        .clamp(1.0, Self::MAX_ZOOM);
        let middle = self.from + 0.5 / self.zoom;
        Self {
            zoom,
            from: middle - 0.5 / zoom,
        }
        .clamped()
    }

    /// Moved by a quarter of what is shown, right when `later`.
    pub fn panned(self, later: bool) -> Self {
        let step = 0.25 / self.zoom;
        Self {
            from: self.from + if later { step } else { -step },
            ..self
        }
        .clamped()
    }

    fn clamped(self) -> Self {
        Self {
            from: self.from.clamp(0.0, 1.0 - 1.0 / self.zoom),
            ..self
        }
    }

    /// `marks` + 1 evenly spaced times across what is shown of a run of `duration` ms, each with
    /// its place as a fraction of the plot's width (0 to 1).
    pub fn axis(self, duration: f64, marks: u32) -> Vec<(f64, f64)> {
        let start = self.from * duration;
        let shown = duration / self.zoom;
        (0..=marks)
            .map(|k| {
                let fraction = f64::from(k) / f64::from(marks.max(1));
                (fraction, start + fraction * shown)
            })
            .collect()
    }

    /// The x of `ms` in a plot `width` wide showing `duration` ms at zoom 1 (outside the plot
    /// when not shown).
    pub fn x(self, ms: f64, duration: f64, width: f64) -> f64 {
        let duration = duration.max(1.0);
        (ms / duration - self.from) * self.zoom * width
    }
}

/// A time on the axis: whole milliseconds below a second, else seconds with one decimal.
pub fn format_ms(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{} ms", fixed(ms, 0))
    } else {
        format!("{} s", fixed(ms / 1000.0, 1))
    }
}

/// A tool's app as one span: its first message to its last, each message a tick.
fn app_span(run: &Run) -> Option<Span> {
    let first = run.app.first()?;
    let last = run.app.last()?;
    Some(Span {
        lane: Lane::App,
        label: match run.app.iter().filter(|p| p.refused.is_some()).count() {
            0 => format!("postMessage × {}", run.app.len()),
            refused => format!("postMessage × {}, {refused} refused", run.app.len()),
        },
        row: Some(Row::AppRender),
        start: first.at_ms,
        end: Some(last.at_ms),
        ticks: run.app.iter().map(|p| p.at_ms).collect(),
        failed: run.app.iter().any(|p| p.refused.is_some()),
        round: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::LlmExchange;
    use crate::record::run::RunEvent;
    use mcp_flow_client::http::HttpRequest;
    use mcp_flow_client::record::{Exchange, RecordedEvent, Update};

    fn send(run: &mut Run, seq: usize, method: &'static str, rpc: Option<&str>, at: f64) {
        let request = HttpRequest {
            method,
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: Vec::new(),
            body: rpc.map(|m| format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{m}"}}"#)),
        };
        let body = rpc.map(|m| serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": m}));
        let x = Exchange::sent(seq, &request, body.as_ref(), None, at);
        run.apply(RunEvent::Mcp(Update::Sent(Box::new(x))));
    }

    fn event(run: &mut Run, seq: usize, at_ms: f64) {
        let event = RecordedEvent {
            at_ms,
            id: None,
            event: "message".into(),
            data: "{}".into(),
            retry: None,
        };
        run.apply(RunEvent::Mcp(Update::Event { seq, event }));
    }

    fn done(run: &mut Run, seq: usize, at_ms: f64) {
        run.apply(RunEvent::Mcp(Update::Done { seq, at_ms }));
    }

    fn sample() -> Run {
        let mut run = Run::new([Row::ListTools, Row::AskLlm, Row::CallTool, Row::Subscribe]);
        run.apply(RunEvent::Active {
            row: Row::ListTools,
            at_ms: 1000.0,
        });
        send(&mut run, 0, "POST", Some("tools/list"), 1000.0);
        done(&mut run, 0, 1010.0);
        run.apply(RunEvent::Active {
            row: Row::AskLlm,
            at_ms: 1020.0,
        });
        run.apply(RunEvent::Llm(Box::new(LlmExchange {
            provider: "offline".into(),
            url: "offline:".into(),
            request: serde_json::Value::Null,
            response: None,
            status: None,
            started_ms: 1020.0,
            finished_ms: 1025.0,
            error: None,
        })));
        run.apply(RunEvent::Active {
            row: Row::CallTool,
            at_ms: 1030.0,
        });
        send(&mut run, 1, "POST", Some("tools/call"), 1030.0);
        event(&mut run, 1, 1040.0);
        event(&mut run, 1, 1050.0);
        done(&mut run, 1, 1050.0);
        run.apply(RunEvent::Active {
            row: Row::Subscribe,
            at_ms: 1060.0,
        });
        send(&mut run, 2, "GET", None, 1060.0);
        event(&mut run, 2, 1100.0);
        run
    }

    #[test]
    fn each_exchange_and_model_call_is_a_span_from_the_first_start() {
        let timeline = Timeline::of(&sample());
        type FieldValue<'a> = (Lane, &'a str, Option<Row>, f64, Option<f64>);
        let shown: Vec<FieldValue> = timeline
            .spans
            .iter()
            .map(|s| (s.lane, s.label.as_str(), s.row, s.start, s.end))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    Lane::Requests,
                    "tools/list",
                    Some(Row::ListTools),
                    0.0,
                    Some(10.0)
                ),
                (Lane::Model, "offline", Some(Row::AskLlm), 20.0, Some(25.0)),
                (
                    Lane::Requests,
                    "tools/call",
                    Some(Row::CallTool),
                    30.0,
                    Some(50.0)
                ),
                (Lane::Streams, "GET /mcp", Some(Row::Subscribe), 60.0, None),
            ]
        );
        assert_eq!(timeline.spans[2].ticks, [40.0, 50.0]);
        assert_eq!(
            timeline.spans[3].ticks,
            [100.0],
            "a stream still open has its ticks"
        );
        assert_eq!(timeline.duration, 100.0, "to the last thing seen");
        assert!(timeline.spans.iter().all(|s| !s.failed));
        assert_eq!(Timeline::of(&Run::default()), Timeline::default());
    }

    #[test]
    fn a_tools_app_is_one_span_with_a_tick_per_message() {
        use crate::record::run::{AppPost, RunEvent};
        let mut run = Run::new(crate::diagram::app_rows());
        assert!(Timeline::of(&run).spans.is_empty(), "no app, no span");
        for (at_ms, to_app, refused) in [
            (10.0, true, None),
            (12.5, false, None),
            (40.0, false, Some("malformed".to_owned())),
        ] {
            run.apply(RunEvent::App(Box::new(AppPost {
                at_ms,
                row: Some(Row::AppRender),
                to_app,
                message: serde_json::json!({"jsonrpc": "2.0"}),
                refused,
            })));
        }
        let line = Timeline::of(&run);
        let app = line
            .spans
            .iter()
            .find(|s| s.lane == Lane::App)
            .expect("the app's span");
        assert_eq!((app.start, app.end), (0.0, Some(30.0)));
        assert_eq!(app.ticks, [0.0, 2.5, 30.0]);
        assert_eq!(app.label, "postMessage × 3, 1 refused");
        assert!(app.failed, "a refused message marks it");
        assert_eq!(app.row, Some(Row::AppRender));
    }

    #[test]
    fn a_task_is_a_span_from_its_creation_to_the_poll_that_saw_it_end() {
        use crate::record::payload::Payload;
        let rows = [
            Row::TaskCall,
            Row::TaskCreated,
            Row::TaskPoll,
            Row::TaskStatus,
        ];
        let mut run = Run::new(rows);
        let active = |row, at_ms| RunEvent::Active { row, at_ms };
        let task = |status: &str, polls| Payload::Task {
            id: "t-1".into(),
            status: status.into(),
            message: None,
            poll_ms: Some(500),
            polls,
        };
        run.apply(active(Row::TaskCall, 0.0));
        send(&mut run, 0, "POST", Some("tools/call"), 0.0);
        done(&mut run, 0, 20.0);
        run.apply(RunEvent::Done {
            row: Row::TaskCreated,
            at_ms: 20.0,
            payload: Some(task("working", 0)),
        });
        run.apply(active(Row::TaskPoll, 20.0));
        for (seq, at) in [(1, 520.0), (2, 1020.0)] {
            send(&mut run, seq, "POST", Some("tasks/get"), at);
            done(&mut run, seq, at + 5.0);
        }
        let going = Timeline::of(&run);
        let span = going.spans.iter().find(|s| s.lane == Lane::Tasks);
        let span = span.expect("a task span");
        assert_eq!(
            (span.label.as_str(), span.row, span.start, span.end),
            ("task t-1", Some(Row::TaskCreated), 20.0, None),
            "still going until its status row is done"
        );
        assert_eq!(span.ticks, [525.0, 1025.0]);
        run.apply(RunEvent::Done {
            row: Row::TaskStatus,
            at_ms: 1030.0,
            payload: Some(task("completed", 2)),
        });
        let ended = Timeline::of(&run);
        let span = ended.spans.iter().find(|s| s.lane == Lane::Tasks);
        assert_eq!(span.and_then(|s| s.end), Some(1025.0));
        let polls = ended
            .spans
            .iter()
            .filter(|s| s.label == "tasks/get")
            .count();
        assert_eq!(polls, 2, "each poll is its own request span too");
        // Polling that failed ends the bar at the last answer, marked failed.
        run.apply(RunEvent::Failed {
            row: Row::TaskStatus,
            at_ms: 1030.0,
            error: "gone".into(),
        });
        let stopped = Timeline::of(&run);
        let span = stopped.spans.iter().find(|s| s.lane == Lane::Tasks);
        assert_eq!(span.map(|s| (s.end, s.failed)), Some((Some(1025.0), true)));
    }

    /// A tools/call, with `inputResponses` when it answers the server's question (MRTR).
    fn call(run: &mut Run, seq: usize, answers: bool, at: f64) {
        let mut params = serde_json::json!({"name": "get_weather"});
        if answers {
            params["inputResponses"] = serde_json::json!({"city": {"action": "accept"}});
        }
        let body = serde_json::json!({"jsonrpc": "2.0", "id": seq, "method": "tools/call", "params": params});
        let request = HttpRequest {
            method: "POST",
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: Vec::new(),
            body: Some(body.to_string()),
        };
        let x = Exchange::sent(seq, &request, Some(&body), None, at);
        run.apply(RunEvent::Mcp(Update::Sent(Box::new(x))));
        done(run, seq, at + 5.0);
    }

    #[test]
    fn the_rounds_of_an_mrtr_call_are_numbered_and_bracketed() {
        let mut run = Run::new([Row::CallTool]);
        run.apply(RunEvent::Active {
            row: Row::CallTool,
            at_ms: 0.0,
        });
        call(&mut run, 0, false, 0.0);
        call(&mut run, 1, true, 10.0);
        call(&mut run, 2, true, 20.0);
        call(&mut run, 3, false, 40.0);
        let timeline = Timeline::of(&run);
        let rounds: Vec<Option<u32>> = timeline.spans.iter().map(|s| s.round).collect();
        assert_eq!(rounds, [Some(1), Some(2), Some(3), None]);
        assert_eq!(
            timeline.rounds,
            [Rounds {
                start: 0.0,
                end: 25.0,
                rounds: 3
            }]
        );
        let plain = Timeline::of(&sample());
        assert!(plain.rounds.is_empty() && plain.spans.iter().all(|s| s.round.is_none()));
    }

    #[test]
    fn the_axis_marks_what_is_shown() {
        let marks = View {
            zoom: 2.0,
            from: 0.5,
        }
        .axis(800.0, 4);
        assert_eq!(
            marks,
            [
                (0.0, 400.0),
                (0.25, 500.0),
                (0.5, 600.0),
                (0.75, 700.0),
                (1.0, 800.0)
            ]
        );
        assert_eq!(format_ms(12.4), "12 ms");
        assert_eq!(format_ms(1234.0), "1.2 s");
    }

    #[test]
    fn an_imported_run_has_the_live_runs_timeline() {
        let live = sample();
        let json = serde_json::to_string(&live).expect("exported");
        let imported: Run = serde_json::from_str(&json).expect("imported");
        assert_eq!(Timeline::of(&imported), Timeline::of(&live));
    }

    #[test]
    fn the_view_zooms_about_its_middle_and_pans_within_the_run() {
        let whole = View::default();
        assert_eq!(whole.x(50.0, 100.0, 800.0), 400.0);
        let closer = whole.zoomed(true);
        assert_eq!(
            closer,
            View {
                zoom: 2.0,
                from: 0.25
            }
        );
        assert_eq!(closer.x(50.0, 100.0, 800.0), 400.0, "the middle stays");
        assert_eq!(closer.x(25.0, 100.0, 800.0), 0.0);
        assert_eq!(
            closer.panned(true),
            View {
                zoom: 2.0,
                from: 0.375
            }
        );
        assert_eq!(
            closer.panned(false).panned(false).panned(false).from,
            0.0,
            "not before the start"
        );
        let far = View {
            zoom: 2.0,
            from: 0.5,
        }
        .panned(true);
        assert_eq!(far.from, 0.5, "not past the end");
        assert_eq!(
            whole.zoomed(false),
            whole,
            "zoom 1 fits the run: no further out"
        );
        let mut v = whole;
        for _ in 0..10 {
            v = v.zoomed(true);
        }
        assert_eq!(v.zoom, View::MAX_ZOOM);
        assert_eq!(
            whole.x(10.0, 0.0, 100.0),
            1000.0,
            "an instant run does not divide by zero"
        );
    }
}
