use std::{io::Write, process::ExitCode};

use clap::Parser;
use mcp_flow_bridge::{Bridge, config::Cli};
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

    let bridge = match Bridge::bind(cli.mode).await {
        Ok(bridge) => bridge,
        Err(error) => {
            eprintln!("mcp-flow-bridge: {error}");
            return ExitCode::FAILURE;
        }
    };
    // Scripts read this line to find the endpoint; flush so they see it now.
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{}", bridge.endpoint_line())
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

    match bridge.run(shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-flow-bridge: {error}");
            ExitCode::FAILURE
        }
    }
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
