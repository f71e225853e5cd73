//! Running commands and the child processes the commands start.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Prints a step heading.
pub fn step(what: &str) {
    eprintln!("\n==> {what}");
}

/// Runs a command, inheriting the terminal; fails if it exits non-zero.
pub fn run(cmd: &mut Command) -> Result<()> {
    let status = cmd
        .status()
        .map_err(|e| format!("could not start {:?}: {e}", cmd.get_program()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed ({status})", describe(cmd)).into())
    }
}

/// Runs a command and returns its standard output.
pub fn capture(cmd: &mut Command) -> Result<String> {
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not start {:?}: {e}", cmd.get_program()))?;
    if !out.status.success() {
        return Err(format!("{} failed ({})", describe(cmd), out.status).into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        s.push(' ');
        s.push_str(&arg.to_string_lossy());
    }
    s
}

/// Runs `work` on every item, `workers` at a time (the machines have two cores), and returns the
/// results in the items' order.
pub fn side_by_side<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result = work(item);
                    done.lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((i, result));
                }
            });
        }
    });
    let mut done = done
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// A background process that is killed when dropped.
pub struct Background {
    child: Child,
}

impl Background {
    /// Starts `cmd` and waits until it prints a line containing `marker` on stdout; returns the
    /// process and that line. Later output is passed through to stderr.
    pub fn start(name: &str, cmd: &mut Command, marker: &str) -> Result<(Self, String)> {
        let mut child = cmd
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start {name}: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::channel();
        let marker = marker.to_owned();
        let label = name.to_owned();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stdout).lines().map_while(|l| l.ok()) {
                if !sent && line.contains(&marker) {
                    let _ = tx.send(line);
                    sent = true;
                } else {
                    eprintln!("[{label}] {line}");
                }
            }
        });
        let mut bg = Self { child };
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => Ok((bg, line)),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // Its output ended: it is exiting, or it closed its output and lives on (a
                // moment to learn which; dropping `bg` kills it either way).
                let mut status = None;
                for _ in 0..50 {
                    status = bg.child.try_wait().ok().flatten();
                    if status.is_some() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(format!(
                    "{name} ended its output before it was ready ({})",
                    exit(status)
                )
                .into())
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let status = bg.child.try_wait().ok().flatten();
                Err(format!("{name} did not start within 60 s ({})", exit(status)).into())
            }
        }
    }
}

/// How a process ended, with the signal that killed it (a crash shows as signal 11).
fn exit(status: Option<std::process::ExitStatus>) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status {
        None => "still running".to_owned(),
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => format!("exit code {code}"),
            (None, Some(signal)) => format!("killed by signal {signal}"),
            (None, None) => s.to_string(),
        },
    }
}

impl Background {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until something accepts TCP connections on 127.0.0.1:`port` (at most 30 s); `who`
/// names it in the error.
pub fn wait_for_port(port: u16, who: &str) -> Result<()> {
    for _ in 0..300 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Err(format!("{who} did not listen on port {port} within 30 s").into())
}

/// A TCP port that was free a moment ago on 127.0.0.1.
pub fn free_port() -> Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

/// Every file below `dir` (in its folders too), sorted by path.
pub fn files_under(dir: &std::path::Path) -> Result<Vec<std::path::PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at)? {
            let path = entry?.path();
            if path.is_dir() {
                todo.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::side_by_side;

    #[test]
    fn side_by_side_keeps_the_items_order_and_runs_each_once() {
        let items: Vec<u64> = (0..50).collect();
        let out = side_by_side(&items, 2, |n| {
            // Later items finish first, so the order must be restored.
            std::thread::sleep(std::time::Duration::from_micros(50 - n));
            n * 2
        });
        assert_eq!(out, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert!(side_by_side(&[] as &[u8], 2, |_| ()).is_empty());
    }
}
