//! `mcp-flow-load`: drives any Streamable HTTP MCP server with concurrent sessions making
//! `tools/call`, and prints throughput and latency percentiles. Loopback targets only.
//!
//! ```text
//! mcp-flow-load --url http://127.0.0.1:8000/mcp --sessions 50 --calls 20000
//!               [--rate 1000] [--tool get_weather] [--args '{"location":"Tokyo"}']
//!               [--expect Sunny] [--open-only] [--keep-open]
//! ```
//!
//! Closed loop (default): every session sends its next call when the previous answer arrived,
//! until `--calls` in total. With `--rate R`: calls start on a fixed schedule of R per second
//! spread over the sessions, and latency counts from the scheduled start (so a stalled server
//! cannot hide its queueing delay). `--open-only` opens the sessions and stops (for measuring
//! per-session memory); sessions are closed with DELETE at the end unless `--keep-open`.
//! The last line is machine-readable: `load: key=value …`.

mod mcp;
mod stats;

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp::Session;

struct Options {
    url: String,
    sessions: usize,
    calls: usize,
    rate: Option<f64>,
    tool: String,
    args: serde_json::Value,
    expect: Option<String>,
    open_only: bool,
    keep_open: bool,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        url: String::new(),
        sessions: 10,
        calls: 1000,
        rate: None,
        tool: "get_weather".into(),
        args: serde_json::json!({"location": "Tokyo"}),
        expect: Some("Sunny".into()),
        open_only: false,
        keep_open: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--url" => o.url = value()?,
            "--sessions" => {
                o.sessions = value()?.parse().map_err(|e| format!("--sessions: {e}"))?
            }
            "--calls" => o.calls = value()?.parse().map_err(|e| format!("--calls: {e}"))?,
            "--rate" => o.rate = Some(value()?.parse().map_err(|e| format!("--rate: {e}"))?),
            "--tool" => o.tool = value()?,
            "--args" => {
                o.args = serde_json::from_str(&value()?).map_err(|e| format!("--args: {e}"))?
            }
            "--expect" => o.expect = Some(value()?).filter(|s| !s.is_empty()),
            "--open-only" => o.open_only = true,
            "--keep-open" => o.keep_open = true,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if !is_loopback_url(&o.url) {
        return Err(format!(
            "--url must be an http:// loopback address (127.0.0.1, localhost or [::1]), got {:?}",
            o.url
        ));
    }
    if o.sessions == 0 {
        return Err("--sessions must be at least 1".into());
    }
    Ok(o)
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
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("mcp-flow-load: {e}");
            return std::process::ExitCode::from(2);
        }
    };
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
        sessions.push(Arc::new(Session::open(&http, &o.url).await?));
    }
    let open_ms = opened.elapsed().as_secs_f64() * 1000.0;
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
        expect: o.expect.clone(),
    });
    let started = Instant::now();
    let (latencies, errors) = match o.rate {
        None => closed_loop(&sessions, &call, o.calls).await,
        Some(rate) => open_loop(&sessions, &call, o.calls, rate).await,
    };
    let elapsed = started.elapsed().as_secs_f64();
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
        "load: sessions={} calls={} errors={} seconds={elapsed:.3} throughput={throughput:.1} p50_ms={:.3} p99_ms={:.3} max_ms={:.3} open_ms={open_ms:.1}",
        sessions.len(),
        s.count,
        errors.len(),
        s.p50,
        s.p99,
        s.max
    );
    Ok(errors.is_empty())
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
    let interval = Duration::from_secs_f64(1.0 / rate.max(1.0));
    let start = tokio::time::Instant::now();
    let mut tasks = Vec::with_capacity(total);
    for i in 0..total {
        let due = start + interval.mul_f64(i as f64);
        tokio::time::sleep_until(due).await;
        let (session, call) = (sessions[i % sessions.len()].clone(), call.clone());
        tasks.push(tokio::spawn(async move {
            let result = session.call(&call).await;
            let ms = due.elapsed().as_secs_f64() * 1000.0;
            match result {
                Ok(()) => (vec![ms], vec![]),
                Err(e) => (vec![], vec![e]),
            }
        }));
    }
    gather(tasks).await
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
    use super::is_loopback_url;

    #[test]
    fn only_loopback_targets_are_accepted() {
        for ok in [
            "http://127.0.0.1:8000/mcp",
            "http://localhost/mcp",
            "http://[::1]:9/mcp",
        ] {
            assert!(is_loopback_url(ok), "{ok}");
        }
        for bad in [
            "https://127.0.0.1/mcp",
            "http://10.0.0.1/mcp",
            "http://[2001:db8::1]:80/mcp",
            "http://127.0.0.1.example.com/mcp",
            "http://localhost@example.com/",
        ] {
            assert!(!is_loopback_url(bad), "{bad}");
        }
    }
}
