use std::{io::Write, process::ExitCode};

use clap::Parser;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;
use weather_server::{Config, listening_line, serve};

/// mimalloc: under load, glibc's malloc took about a quarter of the server's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let config = Config::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();

    let listener = match TcpListener::bind(config.bind).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("weather-server: cannot listen on {}: {error}", config.bind);
            return ExitCode::FAILURE;
        }
    };
    let local_addr = match listener.local_addr() {
        Ok(addr) => addr,
        Err(error) => {
            eprintln!("weather-server: cannot read the bound address: {error}");
            return ExitCode::FAILURE;
        }
    };
    // Tools parse this line to find the endpoint; flush so they see it now.
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{}", listening_line(local_addr))
        .and_then(|()| stdout.flush())
        .is_err()
    {
        tracing::warn!("could not write the listening line to stdout");
    }
    drop(stdout);

    match serve(config, listener, shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("weather-server: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Completes on Ctrl-C, or on SIGTERM on Unix.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
