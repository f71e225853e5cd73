//! `mcp-flow-bridge tap --feed URL -- CMD ARGS…`: what a stdio host runs in place of its server's
//! command while a bridge watches. It starts the command, passes the host's stdin to it and its
//! stdout and stderr back byte for byte, and sends a copy of each line to the bridge's feed. The
//! copies go through a bounded queue and are dropped (and counted) when the bridge is slow or
//! gone: the host's traffic never waits for them.

use std::{
    process::Stdio,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use mcp_flow_wire::watch::{TapBatch, What};
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader},
    process::Command,
    sync::mpsc,
};

/// Copies waiting to be sent; past it a copy is dropped.
pub const QUEUE: usize = 4096;
/// Copies sent in one request at most.
const BATCH: usize = 256;
/// How long the tap waits, at the end, for its last copies to reach the bridge.
const LAST_SEND: Duration = Duration::from_secs(2);

/// The copies' side: the queue, and what could not go into it.
#[derive(Clone)]
struct Copies {
    queue: mpsc::Sender<What>,
    dropped: Arc<AtomicU64>,
}

impl Copies {
    fn copy(&self, what: What) {
        if self.queue.try_send(what).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Relays `from` to `to` line by line, unchanged, copying each line as `copy` makes it.
async fn relay(
    from: impl AsyncRead + Unpin,
    mut to: impl AsyncWrite + Unpin,
    copies: &Copies,
    copy: impl Fn(String) -> What,
) -> std::io::Result<()> {
    let mut from = BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        if from.read_until(b'\n', &mut line).await? == 0 {
            return Ok(());
        }
        to.write_all(&line).await?;
        to.flush().await?;
        let text = String::from_utf8_lossy(&line);
        copies.copy(copy(text.trim_end_matches(['\n', '\r']).to_owned()));
    }
}

/// Sends the copies to the bridge in batches until the queue closes.
async fn send(feed: reqwest::Url, mut queue: mpsc::Receiver<What>, dropped: Arc<AtomicU64>) {
    let Ok(client) = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
    else {
        return;
    };
    while let Some(first) = queue.recv().await {
        let mut events = vec![first];
        while events.len() < BATCH {
            match queue.try_recv() {
                Ok(next) => events.push(next),
                Err(_) => break,
            }
        }
        let count = events.len() as u64;
        let batch = TapBatch {
            events,
            dropped: dropped.swap(0, Ordering::Relaxed),
        };
        let Ok(body) = serde_json::to_vec(&batch) else {
            continue;
        };
        let sent = client
            .post(feed.clone())
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await;
        if !sent.is_ok_and(|r| r.status().is_success()) {
            dropped.fetch_add(count + batch.dropped, Ordering::Relaxed);
        }
    }
}

/// Runs the server's command for the host; returns its exit code.
pub async fn run(feed: reqwest::Url, command: Vec<String>) -> Result<i32, String> {
    let (program, args) = command.split_first().ok_or("no command to run")?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let (Some(child_in), Some(child_out), Some(child_err)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err("the server's pipes could not be opened".into());
    };
    let mut feed = feed;
    feed.query_pairs_mut()
        .append_pair("name", &format!("tap-{}", std::process::id()));
    let (queue, receiver) = mpsc::channel(QUEUE);
    let dropped = Arc::new(AtomicU64::new(0));
    let sender = tokio::spawn(send(feed, receiver, Arc::clone(&dropped)));
    let copies = Copies { queue, dropped };

    {
        let to_server = relay(tokio::io::stdin(), child_in, &copies, |text| What::Line {
            from_host: true,
            text,
        });
        let to_host = relay(child_out, tokio::io::stdout(), &copies, |text| What::Line {
            from_host: false,
            text,
        });
        let errors = relay(child_err, tokio::io::stderr(), &copies, |text| {
            What::Stderr { text }
        });
        // The host closing its stdin closes the server's, whose output then runs to its end; the
        // server ending first ends the tap without waiting for the host.
        let output = async { tokio::join!(to_host, errors) };
        tokio::pin!(output);
        tokio::select! {
            _ = &mut output => {}
            _ = to_server => {
                let _ = (&mut output).await;
            }
        }
    }
    let status = child
        .wait()
        .await
        .map_err(|e| format!("waiting for {program}: {e}"))?;
    copies.copy(What::Closed {
        why: format!("the server's process ended ({status})"),
    });
    drop(copies);
    let _ = tokio::time::timeout(LAST_SEND, sender).await;
    Ok(status.code().unwrap_or(1))
}
