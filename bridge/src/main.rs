use std::{io::Write, process::ExitCode};

use clap::Parser;
use mcp_flow_bridge::{
    Bridge,
    config::{Cli, Mode},
};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();

    if let Mode::Tap { feed, command } = cli.mode {
        return match mcp_flow_bridge::tap::run(feed, command).await {
            Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            Err(error) => {
                eprintln!("mcp-flow-bridge tap: {error}");
                ExitCode::FAILURE
            }
        };
    }
    let bridge = match Bridge::bind(cli.mode).await {
        Ok(bridge) => bridge,
        Err(error) => {
            eprintln!("mcp-flow-bridge: {error}");
            return ExitCode::FAILURE;
        }
    };
    // Scripts read this line to find the endpoint; flush so they see it now.
    let mut stdout = std::io::stdout().lock();
    let mut lines = bridge.endpoint_line();
    // With --watch: the page to open, watching the feed (the first --allow-origin serves it).
    let watch_page = bridge.feed_url().and_then(|feed| {
        let origin = bridge.page_origins().first()?;
        Some(format!("{origin}/?watch={}", query_encode(&feed)))
    });
    if let Some(page) = &watch_page {
        lines.push_str(&format!("\nWatch in the page: {page}"));
    }
    // stdio: what the host runs in place of the server's command.
    if let Some(command) = bridge.host_command() {
        lines.push_str(&format!("\nHost command: {command}"));
    }
    if writeln!(stdout, "{lines}")
        .and_then(|()| stdout.flush())
        .is_err()
    {
        tracing::warn!("could not write the endpoint line to stdout");
    }
    drop(stdout);
    eprintln!(
        "mcp-flow-bridge: serving {}\n  \
         record of the second leg: {}/legs\n  \
         browser pages allowed from: {}",
        bridge.describe(),
        bridge.base_url(),
        bridge.allowed_origins().join(", ")
    );

    if bridge.feed_url().is_some() {
        eprintln!(
            "  watching: point your host at the MCP endpoint above; {}",
            if watch_page.is_some() {
                "the page draws what passes"
            } else {
                "give --allow-origin ORIGIN (where the app is served) for the page's address"
            }
        );
    }
    for origin in bridge.page_origins() {
        eprintln!(
            "  open the app at {origin}/?server={}",
            query_encode(&bridge.endpoint_url())
        );
    }

    match bridge.run(shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-flow-bridge: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Percent-encodes a query value (everything but RFC 3986's unreserved characters).
fn query_encode(value: &str) -> String {
    value
        .bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                char::from(byte).to_string()
            } else {
                format!("%{byte:02X}")
            }
        })
        .collect()
}

/// Completes on Ctrl-C, or on SIGTERM on Unix.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::query_encode;

    #[test]
    fn the_endpoint_is_encoded_for_the_page_address() {
        assert_eq!(
            query_encode("http://127.0.0.1:8001/s/ab12/mcp"),
            "http%3A%2F%2F127.0.0.1%3A8001%2Fs%2Fab12%2Fmcp"
        );
    }
}
