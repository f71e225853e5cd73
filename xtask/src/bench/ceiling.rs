//! The server beside the floor under a load generator that does not set the ceiling: the server
//! under test pinned to one CPU, wrk (`bench/wrk/call.lua`) pinned to the other, so neither
//! takes the other's core. Rounds alternate the floor and the weather server, three each, per
//! era; the round with the median rate is reported. Each round also says how busy the server's
//! CPU was (its CPU time over the round's wall time): near 100% means the server set the rate,
//! not wrk. `cargo xtask bench-ceiling` prints only these rows; `cargo xtask bench` includes them.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::bench::SESSIONS;
use crate::bench::figures::{self, field};
use crate::server::{self, Server};
use crate::setup::tools::Tools;
use crate::sh::{self, Result};
use crate::workspace_root;

/// The CPU of the server under test, and wrk's.
const SERVER_CPU: &str = "0";
const LOAD_CPU: &str = "1";
const ROUNDS: usize = 3;
const SECONDS: u32 = 5;
/// A first, uncounted run against each server before its rounds (a fresh server's first
/// seconds, and a session's first calls, run slower than its steady state).
const WARM_UP_SECONDS: u32 = 2;
/// wrk's threads and connections in all (16 a thread, as #50 measured).
const THREADS: u32 = 2;
const CONNECTIONS: u32 = 32;
/// Linux's `USER_HZ`: the unit of `/proc/PID/stat`'s CPU times.
const TICKS_PER_SECOND: f64 = 100.0;

/// One wrk round against one server.
#[derive(Clone, Copy)]
struct Round {
    rate: f64,
    p50: f64,
    p99: f64,
    /// The server's CPU time over the round's wall time.
    busy: f64,
}

/// CPU time (user + system, every thread) a process has used, in seconds.
fn cpu_seconds(pid: u32) -> Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    parse_cpu_seconds(&stat).ok_or_else(|| format!("unreadable /proc/{pid}/stat").into())
}

/// utime and stime are the 14th and 15th fields; the 2nd (the name, in parentheses) may hold spaces.
fn parse_cpu_seconds(stat: &str) -> Option<f64> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    Some((ticks(11)? + ticks(12)?) / TICKS_PER_SECOND)
}

/// A server started on `SERVER_CPU` only (taskset execs it: the pid is the server's).
fn pinned(name: &str, binary: &Path, args: &[&str]) -> Result<Server> {
    let mut cmd = Command::new("taskset");
    cmd.args(["-c", SERVER_CPU]).arg(binary);
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    server::start_command(name, &mut cmd, &args, true)
}

/// Opens `SESSIONS` 2025-11-25 sessions at `url` and leaves them open; their ids.
fn session_ids(loadgen: &Path, url: &str) -> Result<Vec<String>> {
    let out = sh::capture(Command::new(loadgen).args([
        "--url",
        url,
        "--sessions",
        &SESSIONS.to_string(),
        "--open-only",
        "--keep-open",
        "--print-sessions",
    ]))?;
    let ids: Vec<String> = out
        .lines()
        .filter_map(|l| l.strip_prefix("session: "))
        .map(str::to_owned)
        .collect();
    if ids.is_empty() {
        return Err(format!("no session opened at {url}: {out}").into());
    }
    Ok(ids)
}

/// One wrk run of `seconds` against `server`.
fn round(wrk: &Path, server: &Server, script_args: &[String], seconds: u32) -> Result<Round> {
    let before = cpu_seconds(server.pid())?;
    let started = Instant::now();
    let out = sh::capture(
        Command::new("taskset")
            .args(["-c", LOAD_CPU])
            .arg(wrk)
            .arg(format!("-t{THREADS}"))
            .arg(format!("-c{CONNECTIONS}"))
            .arg(format!("-d{seconds}s"))
            .arg("-s")
            .arg(workspace_root().join("bench/wrk/call.lua"))
            .arg(&server.url)
            .arg("--")
            .args(script_args),
    )?;
    let wall = started.elapsed().as_secs_f64();
    let busy = (cpu_seconds(server.pid())? - before) / wall;
    let line = figures::line(&out, "wrk", "wrk")?;
    println!("  {} {line} busy={:.0}%", server.url, 100.0 * busy);
    if field(line, "wrong")? > 0.0 || field(line, "errors")? > 0.0 {
        return Err(format!("wrong answers or errors from {}: {line}", server.url).into());
    }
    Ok(Round {
        rate: field(line, "requests")? / field(line, "seconds")?,
        p50: field(line, "p50_ms")?,
        p99: field(line, "p99_ms")?,
        busy,
    })
}

/// The round with the median rate.
fn median(mut rounds: Vec<Round>) -> Round {
    rounds.sort_by(|a, b| a.rate.total_cmp(&b.rate));
    rounds[rounds.len() / 2]
}

/// `(ours, floor)` for one era, rounds taken in turn.
fn era(
    wrk: &Path,
    ours: (&Server, &[String]),
    floor: (&Server, &[String]),
) -> Result<(Round, Round)> {
    round(wrk, ours.0, ours.1, WARM_UP_SECONDS)?;
    round(wrk, floor.0, floor.1, WARM_UP_SECONDS)?;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        a.push(round(wrk, ours.0, ours.1, SECONDS)?);
        b.push(round(wrk, floor.0, floor.1, SECONDS)?);
    }
    Ok((median(a), median(b)))
}

/// The two table rows (2025-11-25 with sessions, 2026-07-28 stateless).
pub fn rows(
    tools: &Tools,
    weather: &Path,
    fixtures: &Path,
    loadgen: &Path,
) -> Result<Vec<[String; 4]>> {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    if cpus < 2 {
        return Err(
            format!("the pinned measurement needs two CPUs; this machine has {cpus}").into(),
        );
    }
    let wrk = tools.ensure_wrk()?;
    let ours = pinned(
        "server-ceiling",
        weather,
        &["--bind", "127.0.0.1:0", "--max-sessions", "1000"],
    )?;
    let floor = pinned("server-ceiling-floor", fixtures, &["floor"])?;
    let legacy = |ids: Vec<String>| [vec!["legacy".to_owned()], ids].concat();
    let ours_legacy = legacy(session_ids(loadgen, &ours.url)?);
    let floor_legacy = legacy(session_ids(loadgen, &floor.url)?);
    let modern = vec!["modern".to_owned()];
    sh::step("tools/call beside the floor, 2025-11-25 sessions (server on CPU 0, wrk on CPU 1)");
    let (a, b) = era(&wrk, (&ours, &ours_legacy), (&floor, &floor_legacy))?;
    sh::step("tools/call beside the floor, 2026-07-28 stateless");
    let (c, d) = era(&wrk, (&ours, &modern), (&floor, &modern))?;
    let shown = |r: &Round| {
        format!(
            "{:.0}/s, p50 {:.2} ms, p99 {:.2} ms, its CPU {:.0}% busy",
            r.rate,
            r.p50,
            r.p99,
            100.0 * r.busy
        )
    };
    let ratio = |ours: &Round, floor: &Round, goal: f64| {
        let share = 100.0 * ours.rate / floor.rate;
        let verdict = if share >= goal { "met" } else { "missed" };
        format!("{share:.0}% of the floor (goal ≥ {goal:.0}%): {verdict}")
    };
    let how = format!(
        "wrk with {THREADS} threads and {CONNECTIONS} connections on one CPU, the server alone on the other, {SECONDS} s, median of {ROUNDS} rounds after a {WARM_UP_SECONDS} s warm-up"
    );
    Ok(vec![
        [
            format!("`tools/call` beside the floor, {how}: 2025-11-25, {SESSIONS} sessions"),
            shown(&a),
            format!("floor {}", shown(&b)),
            ratio(&a, &b, 25.0),
        ],
        [
            "the same, 2026-07-28 stateless calls".into(),
            shown(&c),
            format!("floor {}", shown(&d)),
            ratio(&c, &d, 40.0),
        ],
    ])
}

/// `cargo xtask bench-ceiling`: only these rows.
pub fn run() -> Result<()> {
    let tools = Tools::locate();
    let weather = server::build_weather_server()?;
    let native = server::build_native(&["loadgen", "test-servers"])?;
    let rows = rows(
        &tools,
        &weather,
        &native.join("mcp-flow-test-servers"),
        &native.join("mcp-flow-load"),
    )?;
    println!("| figure | MCP Flow | peer | ratio / goal |");
    println!("| --- | --- | --- | --- |");
    for [a, b, c, d] in rows {
        println!("| {a} | {b} | {c} | {d} |");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_is_read_past_a_name_with_spaces_and_parentheses() {
        let stat = "4242 (weather (x) y) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 75 0 0 20 0 6 0";
        assert_eq!(parse_cpu_seconds(stat), Some(3.25));
        assert_eq!(parse_cpu_seconds("4242 (cut) S 1"), None);
    }
}
