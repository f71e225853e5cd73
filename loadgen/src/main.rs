//! `mcp-flow-load`: drives any Streamable HTTP MCP server with concurrent sessions making
//! `tools/call`, and prints throughput and latency percentiles. Loopback targets only.
//!
//! ```text
//! mcp-flow-load --url http://127.0.0.1:8000/mcp --sessions 50 --calls 20000
//!               [--rate 1000] [--tool get_weather] [--args '{"location":"Tokyo"}']
//!               [--expect Sunny] [--open-only] [--keep-open] [--print-sessions] [--modern]
//! ```
//!
//! Closed loop (default): every session sends its next call when the previous answer arrived,
//! until `--calls` in total. With `--rate R`: calls start on a fixed schedule of R per second
//! spread over the sessions, and latency counts from the scheduled start (so a stalled server
//! cannot hide its queueing delay). `--open-only` opens the sessions and stops (for measuring
//! per-session memory); sessions are closed with DELETE at the end unless `--keep-open`.
//! `--print-sessions` prints each open session's id (`session: ID`), for another load generator.
//! The last line is machine-readable: `load: key=value …`.

mod mcp;
mod stats;

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use clap::builder::RangedU64ValueParser;
use mcp::Session;

/// Drives a Streamable HTTP MCP server with concurrent sessions making tools/call, and prints
/// throughput and latency percentiles. Loopback targets only.
#[derive(Debug, Parser)]
#[command(
    name = "mcp-flow-load",
    after_help = "Closed loop (default): every session sends its next call when the previous \
                  answer arrived, until --calls in total. With --rate R: calls start on a fixed \
                  schedule of R per second spread over the sessions, and latency counts from the \
                  scheduled start. The last line is machine-readable: `load: key=value ...`."
)]
struct Options {
    /// The server's endpoint: http:// to 127.0.0.1, localhost or [::1] only
    #[arg(long, value_name = "URL", value_parser = loopback_url)]
    url: String,
    /// How many sessions to open
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    sessions: usize,
    /// How many tools/call in total
    #[arg(long, value_name = "N", default_value_t = 1000)]
    calls: usize,
    /// Open loop: start this many calls per second (default: closed loop)
    #[arg(long, value_name = "R")]
    rate: Option<f64>,
    /// The tool to call
    #[arg(long, value_name = "NAME", default_value = "get_weather")]
    tool: String,
    /// The tool's arguments as JSON
    #[arg(long, value_name = "JSON", default_value = r#"{"location":"Tokyo"}"#,
          value_parser = json_value)]
    args: serde_json::Value,
    /// Text the first content block of each answer must hold; empty to accept any
    #[arg(long, value_name = "TEXT", default_value = "Sunny")]
    expect: String,
    /// Open the sessions and stop (for measuring per-session memory)
    #[arg(long)]
    open_only: bool,
    /// Leave the sessions open at the end instead of closing them with DELETE
    #[arg(long)]
    keep_open: bool,
    /// Print each session's id on a line of its own (`session: ID`)
    #[arg(long)]
    print_sessions: bool,
    /// 2026-07-28: no handshake and no session; each call carries its `_meta` and headers
    /// (`--sessions` is then the number of concurrent callers)
    #[arg(long)]
    modern: bool,
    /// While the calls run, read this bridge's watch feed as a watching page does (long polls,
    /// each answer parsed): the relay measured with a watcher
    #[arg(long, value_name = "URL", value_parser = loopback_url)]
    watch: Option<String>,
}

/// `--url`: only loopback targets.
fn loopback_url(url: &str) -> Result<String, String> {
    if is_loopback_url(url) {
        Ok(url.to_owned())
    } else {
        Err("must be an http:// loopback address (127.0.0.1, localhost or [::1])".into())
    }
}

/// `--args`: any JSON value.
fn json_value(text: &str) -> Result<serde_json::Value, String> {
    serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))
}

/// Whether `url` is `http://` to 127.0.0.1, localhost or [::1] (this tool sends load nowhere else).
fn is_loopback_url(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or("");
    let host = if authority.starts_with('[') {
        authority.split_inclusive(']').next().unwrap_or("")
    } else {
        authority.split(':').next().unwrap_or("")
    };
    matches!(host, "127.0.0.1" | "localhost" | "[::1]")
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    // A usage error exits with status 2, --help with 0.
    let o = Options::parse();
    match run(o).await {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("mcp-flow-load: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(o: Options) -> Result<bool, String> {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(o.sessions * 2)
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| e.to_string())?;
    let opened = Instant::now();
    let mut sessions = Vec::with_capacity(o.sessions);
    for _ in 0..o.sessions {
        let session = if o.modern {
            Session::stateless(&http, &o.url)
        } else {
            Session::open(&http, &o.url).await?
        };
        sessions.push(Arc::new(session));
    }
    let open_ms = opened.elapsed().as_secs_f64() * 1000.0;
    if o.print_sessions {
        for id in sessions.iter().filter_map(|s| s.id()) {
            println!("session: {id}");
        }
    }
    if o.open_only {
        println!(
            "load: sessions={} calls=0 errors=0 throughput=0 p50_ms=0 p99_ms=0 open_ms={open_ms:.1}",
            sessions.len()
        );
        return Ok(true);
    }

    let call = Arc::new(mcp::Call {
        tool: o.tool.clone(),
        args: o.args.clone(),
        expect: Some(o.expect.clone()).filter(|s| !s.is_empty()),
    });
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = o
        .watch
        .clone()
        .map(|feed| tokio::spawn(read_feed(http.clone(), feed, Arc::clone(&stop))));
    let started = Instant::now();
    let (latencies, errors) = match o.rate {
        None => closed_loop(&sessions, &call, o.calls).await,
        Some(rate) => open_loop(&sessions, &call, o.calls, rate).await,
    };
    let elapsed = started.elapsed().as_secs_f64();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let watched = match reader {
        Some(reader) => reader
            .await
            .unwrap_or(Err("the feed's reader stopped".into()))?,
        None => 0,
    };
    if !o.keep_open {
        for s in &sessions {
            s.close().await;
        }
    }
    let s = stats::Summary::of(latencies);
    let throughput = s.count as f64 / elapsed;
    println!(
        "{} calls in {:.2} s over {} sessions: {:.0} calls/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {} errors",
        s.count,
        elapsed,
        sessions.len(),
        throughput,
        s.p50,
        s.p99,
        s.max,
        errors.len()
    );
    for e in errors.iter().take(5) {
        eprintln!("error: {e}");
    }
    println!(
        "load: sessions={} calls={} errors={} seconds={elapsed:.3} throughput={throughput:.1} p50_ms={:.3} p99_ms={:.3} max_ms={:.3} open_ms={open_ms:.1} watched_events={watched}",
        sessions.len(),
        s.count,
        errors.len(),
        s.p50,
        s.p99,
        s.max
    );
    Ok(errors.is_empty())
}

/// Reads the watch feed from its start until `stop`, as the page does: each answer whole, parsed,
/// the next read from where it ended. Returns how many events it read.
async fn read_feed(
    http: reqwest::Client,
    feed: String,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> Result<u64, String> {
    let (mut since, mut read) = (0u64, 0u64);
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let answer = http
            .get(format!("{feed}?since={since}&wait=1"))
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| format!("the watch feed: {e}"))?;
        let text = answer.text().await.map_err(|e| e.to_string())?;
        let page: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("the watch feed is not JSON: {e}"))?;
        since = page["next"].as_u64().unwrap_or(since);
        read += page["events"].as_array().map_or(0, |e| e.len() as u64);
    }
    Ok(read)
}

type Outcome = (Vec<f64>, Vec<String>);

async fn closed_loop(sessions: &[Arc<Session>], call: &Arc<mcp::Call>, total: usize) -> Outcome {
    let n = sessions.len();
    let mut tasks = Vec::new();
    for (i, session) in sessions.iter().enumerate() {
        let share = total / n + usize::from(i < total % n);
        let (session, call) = (session.clone(), call.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(share);
            let mut errors = Vec::new();
            for _ in 0..share {
                let t = Instant::now();
                match session.call(&call).await {
                    Ok(()) => latencies.push(t.elapsed().as_secs_f64() * 1000.0),
                    Err(e) => errors.push(e),
                }
            }
            (latencies, errors)
        }));
    }
    gather(tasks).await
}

async fn open_loop(
    sessions: &[Arc<Session>],
    call: &Arc<mcp::Call>,
    total: usize,
    rate: f64,
) -> Outcome {
    // The schedule runs on a thread of its own with the OS's sleep: tokio's timer wakes on whole
    // milliseconds, so calls would start up to 1 ms late and the lateness would count as the
    // server's latency.
    let interval = Duration::from_secs_f64(1.0 / rate.max(1.0));
    let (sessions, call) = (sessions.to_vec(), call.clone());
    let runtime = tokio::runtime::Handle::current();
    let scheduled = tokio::task::spawn_blocking(move || {
        let start = Instant::now();
        let mut tasks = Vec::with_capacity(total);
        for i in 0..total {
            let due = start + interval.mul_f64(i as f64);
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            let (session, call) = (sessions[i % sessions.len()].clone(), call.clone());
            tasks.push(runtime.spawn(async move {
                let result = session.call(&call).await;
                let ms = due.elapsed().as_secs_f64() * 1000.0;
                match result {
                    Ok(()) => (vec![ms], vec![]),
                    Err(e) => (vec![], vec![e]),
                }
            }));
        }
        tasks
    })
    .await;
    match scheduled {
        Ok(tasks) => gather(tasks).await,
        Err(e) => (Vec::new(), vec![format!("the schedule failed: {e}")]),
    }
}

async fn gather(tasks: Vec<tokio::task::JoinHandle<Outcome>>) -> Outcome {
    let mut latencies = Vec::new();
    let mut errors = Vec::new();
    for t in tasks {
        match t.await {
            Ok((l, e)) => {
                latencies.extend(l);
                errors.extend(e);
            }
            Err(e) => errors.push(format!("task failed: {e}")),
        }
    }
    (latencies, errors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Options, clap::Error> {
        Options::try_parse_from(std::iter::once("mcp-flow-load").chain(args.iter().copied()))
    }

    #[test]
    fn only_loopback_targets_are_accepted() {
        for ok in [
            "http://127.0.0.1:8000/mcp",
            "http://localhost/mcp",
            "http://[::1]:9/mcp",
        ] {
            assert!(is_loopback_url(ok), "{ok}");
            assert!(parse(&["--url", ok]).is_ok(), "{ok}");
        }
        for bad in [
            "https://127.0.0.1/mcp",
            "http://10.0.0.1/mcp",
            "http://[2001:db8::1]:80/mcp",
            "http://127.0.0.1.example.com/mcp",
            "http://localhost@example.com/",
        ] {
            assert!(!is_loopback_url(bad), "{bad}");
            let err = parse(&["--url", bad]).unwrap_err();
            assert_eq!(err.exit_code(), 2);
            assert!(err.to_string().contains("loopback"), "{bad}: {err}");
        }
        assert!(parse(&[]).unwrap_err().to_string().contains("--url"));
    }

    #[test]
    fn flags_and_defaults() {
        let o = parse(&["--url", "http://127.0.0.1:1/mcp"]).unwrap();
        assert_eq!(
            (o.sessions, o.calls, o.rate, o.tool.as_str()),
            (10, 1000, None, "get_weather")
        );
        assert_eq!(o.args, serde_json::json!({"location": "Tokyo"}));
        assert_eq!(o.expect, "Sunny");
        assert!(!o.open_only && !o.keep_open && !o.print_sessions);
        let o = parse(&[
            "--url",
            "http://localhost/mcp",
            "--sessions",
            "50",
            "--calls",
            "20000",
            "--rate",
            "1000",
            "--tool",
            "add",
            "--args",
            r#"{"a":1}"#,
            "--expect",
            "",
            "--open-only",
            "--keep-open",
        ])
        .unwrap();
        assert_eq!((o.sessions, o.calls, o.rate), (50, 20000, Some(1000.0)));
        assert_eq!((o.tool.as_str(), o.expect.as_str()), ("add", ""));
        assert_eq!(o.args, serde_json::json!({"a": 1}));
        assert!(o.open_only && o.keep_open);
        for bad in [
            &["--url", "http://localhost/", "--sessions", "0"][..],
            &["--url", "http://localhost/", "--args", "{"],
            &["--url", "http://localhost/", "--calls", "x"],
            &["--url", "http://localhost/", "--verbose"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        Options::command().debug_assert();
    }
}
