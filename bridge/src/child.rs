//! The child process behind a session: started in its own process group, its stdin written
//! one line at a time, its stdout and stderr read line by line into the [`Record`], and the
//! whole group killed when the session ends, when the child exits, or when the bridge stops.

use std::{fmt, process::Stdio, sync::Arc, time::Duration};

use serde::Serialize;
use tokio::{
    io::{AsyncWriteExt, BufReader},
    process::{ChildStdin, Command},
    sync::{Mutex, mpsc, watch},
};
use tokio_util::sync::CancellationToken;

use crate::{
    lines::{Line, next_line},
    record::{Leg, Record, now_ms},
};

/// Longest line read from a child's stdout or stderr.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// How long the bridge waits for a killed child to be gone.
const KILL_WAIT: Duration = Duration::from_secs(5);
/// How long the bridge waits, once the child exited, for the rest of its output.
const DRAIN_WAIT: Duration = Duration::from_secs(1);

/// How the child ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exit {
    /// The exit code, when it exited by itself.
    pub code: Option<i32>,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
    /// Why the bridge killed it, when the bridge did.
    pub killed_by_bridge: Option<String>,
    pub at_ms: f64,
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(reason) = &self.killed_by_bridge {
            return write!(f, "was stopped by the bridge ({reason})");
        }
        match (self.code, self.signal) {
            (Some(code), _) => write!(f, "exited with code {code}"),
            (None, Some(signal)) => write!(f, "was killed by signal {signal}"),
            (None, None) => write!(f, "ended"),
        }
    }
}

/// What the child's stdout produced, in order; [`Output::Exited`] comes last.
#[derive(Debug)]
pub enum Output {
    Line(Vec<u8>),
    /// A line over [`MAX_LINE_BYTES`] was skipped (its length).
    TooLong(usize),
    Exited(Exit),
}

/// What the child gets of the bridge's environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChildEnv {
    /// [`DEFAULT_ENV`] and these names.
    Only(Vec<String>),
    /// All of it.
    Inherit,
}

/// The variables a child gets unless told otherwise: what a program needs to run, none of the
/// secrets a shell may hold (the official SDKs' stdio clients pass the same on POSIX).
pub const DEFAULT_ENV: &[&str] = &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/// Child output not yet routed: past it the reader waits, and so does the child's next write.
const OUTPUT_CAPACITY: usize = 64;

impl ChildEnv {
    /// The variables to set, from `vars` (the bridge's environment); `None`: inherit all.
    fn pick(
        &self,
        vars: impl Iterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
    ) -> Option<Vec<(std::ffi::OsString, std::ffi::OsString)>> {
        match self {
            Self::Inherit => None,
            Self::Only(names) => Some(
                vars.filter(|(name, _)| {
                    let name = name.to_string_lossy();
                    DEFAULT_ENV.contains(&name.as_ref()) || names.iter().any(|n| *n == name)
                })
                .collect(),
            ),
        }
    }
}

/// A running child. Dropping it kills the process group.
pub struct Child {
    pub pid: u32,
    stdin: Mutex<Option<ChildStdin>>,
    kill: CancellationToken,
    kill_reason: std::sync::Mutex<Option<String>>,
    exit: watch::Receiver<Option<Exit>>,
    record: Arc<Record>,
}

impl Child {
    /// Starts `command` (program and arguments) with the bridge's working folder and `env` of
    /// its environment; its stdout arrives on the returned channel.
    pub fn spawn(
        command: &[String],
        env: &ChildEnv,
        record: Arc<Record>,
    ) -> std::io::Result<(Arc<Self>, mpsc::Receiver<Output>)> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| std::io::Error::other("no command given"))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if let Some(vars) = env.pick(std::env::vars_os()) {
            cmd.env_clear().envs(vars);
        }
        #[cfg(unix)]
        {
            // Its own process group, so the bridge can end the child and everything it started.
            cmd.process_group(0);
        }
        #[cfg(target_os = "linux")]
        {
            // SAFETY: prctl is async-signal-safe; the closure allocates nothing.
            unsafe {
                cmd.pre_exec(|| {
                    // If the bridge dies without cleaning up (SIGKILL), the child gets SIGKILL too.
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = cmd.spawn()?;
        let pid = child.id().unwrap_or(0);
        record.push(
            Leg::Bridge,
            format!("started `{}` as process {pid}", command.join(" ")),
            None,
        );
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let (tx, rx) = mpsc::channel(OUTPUT_CAPACITY);
        let (exit_tx, exit_rx) = watch::channel(None);
        let kill = CancellationToken::new();

        let stdout_task = stdout.map(|stdout| {
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut reader = BufReader::new(stdout);
                while let Ok(Some(line)) = next_line(&mut reader, MAX_LINE_BYTES).await {
                    let output = match line {
                        Line::Full(bytes) => Output::Line(bytes),
                        Line::TooLong(length) => Output::TooLong(length),
                    };
                    if tx.send(output).await.is_err() {
                        break;
                    }
                }
            })
        });
        let stderr_task = stderr.map(|stderr| {
            let record = Arc::clone(&record);
            tokio::spawn(async move {
                let mut reader = BufReader::new(stderr);
                while let Ok(Some(line)) = next_line(&mut reader, MAX_LINE_BYTES).await {
                    match line {
                        Line::Full(bytes) => {
                            record.push(Leg::Stderr, String::from_utf8_lossy(&bytes), None)
                        }
                        Line::TooLong(length) => record.push(
                            Leg::Stderr,
                            "",
                            Some(format!("a line of {length} bytes, over the limit, skipped")),
                        ),
                    };
                }
            })
        });

        let this = Arc::new(Self {
            pid,
            stdin: Mutex::new(stdin),
            kill: kill.clone(),
            kill_reason: std::sync::Mutex::new(None),
            exit: exit_rx,
            record: Arc::clone(&record),
        });
        let reason_of = Arc::downgrade(&this);
        tokio::spawn(async move {
            let group = GroupGuard(pid);
            let status = tokio::select! {
                status = child.wait() => status,
                () = kill.cancelled() => {
                    group.kill();
                    let _ = child.start_kill();
                    child.wait().await
                }
            };
            // Whatever the child left behind in its group goes with it.
            group.kill();
            for task in [stdout_task, stderr_task].into_iter().flatten() {
                let _ = tokio::time::timeout(DRAIN_WAIT, task).await;
            }
            let killed_by_bridge = reason_of.upgrade().and_then(|child| child.reason());
            let exit = Exit {
                code: status.as_ref().ok().and_then(|status| status.code()),
                signal: status.as_ref().ok().and_then(signal_of),
                killed_by_bridge,
                at_ms: now_ms(),
            };
            record.push(Leg::Bridge, format!("process {pid} {exit}"), None);
            let _ = tx.send(Output::Exited(exit.clone())).await;
            let _ = exit_tx.send(Some(exit));
        });
        Ok((this, rx))
    }

    fn reason(&self) -> Option<String> {
        self.kill_reason
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Writes one message to the child's stdin, followed by a line break, and records it.
    pub async fn write_line(&self, line: &str) -> std::io::Result<()> {
        let mut stdin = self.stdin.lock().await;
        let Some(pipe) = stdin.as_mut() else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "the server's stdin is closed",
            ));
        };
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        // Recorded before it is written: a child that answers at once must not have its answer
        // recorded before the line it answers.
        let seq = self.record.push(Leg::Stdin, line, None);
        let written = async {
            pipe.write_all(&bytes).await?;
            pipe.flush().await
        }
        .await;
        if let Err(error) = &written {
            self.record.push(
                Leg::Bridge,
                format!("the stdin line #{seq} could not be written: {error}"),
                None,
            );
            *stdin = None;
        }
        written
    }

    /// How the child ended, if it has.
    pub fn exit(&self) -> Option<Exit> {
        self.exit.borrow().clone()
    }

    /// Kills the child's process group (once; the first reason is kept) and waits until the
    /// child is gone, within a bound.
    pub async fn stop(&self, reason: &str) {
        {
            let mut kept = self
                .kill_reason
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if kept.is_none() && self.exit().is_none() {
                *kept = Some(reason.to_owned());
                self.record.push(
                    Leg::Bridge,
                    format!("stopping process {} ({reason})", self.pid),
                    None,
                );
            }
        }
        self.kill.cancel();
        let mut exit = self.exit.clone();
        let _ = tokio::time::timeout(KILL_WAIT, exit.wait_for(Option::is_some)).await;
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        // The supervising task kills the group when it sees this; if the runtime is going
        // away, its guard does.
        self.kill.cancel();
    }
}

/// Kills a process group when asked, and when dropped (the bridge stopping drops every task).
struct GroupGuard(u32);

impl GroupGuard {
    fn kill(&self) {
        #[cfg(unix)]
        if let Ok(pgid) = libc::pid_t::try_from(self.0)
            && pgid > 0
        {
            // SAFETY: killpg only sends a signal; a group that is already gone gives ESRCH.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(unix)]
fn signal_of(status: &std::process::ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(status)
}

#[cfg(not(unix))]
fn signal_of(_: &std::process::ExitStatus) -> Option<i32> {
    None
}
