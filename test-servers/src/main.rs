//! Servers for the test command, each printing `… listening on http://ADDR/…` when ready:
//!
//! - `llm`: a small OpenAI-compatible chat-completions endpoint that answers by the documented
//!   protocol (native `tool_calls`, or a JSON object in text when the tools come in the system
//!   prompt), so the app's full run can go through a real HTTP model API offline.
//! - `faulty`: an MCP server that misbehaves in a chosen way at `/fault/<name>/mcp` and behaves at
//!   `/healthy/mcp` (see `faulty.rs`); it prints its base URL, without a path.
//! - `floor`: the benchmark's floor at `/mcp`, HTTP and JSON-RPC parsing with no MCP in it
//!   (see `floor.rs`).

mod faulty;
mod floor;
mod llm;

const USAGE: &str = "usage: mcp-flow-test-servers llm|faulty|floor [--bind 127.0.0.1:PORT]";

use std::net::SocketAddr;

/// The weather server's allocator, so the floor beside it differs by MCP alone.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_default();
    let mut bind: SocketAddr = SocketAddr::from(([127, 0, 0, 1], 0));
    while let Some(flag) = args.next() {
        match (flag.as_str(), args.next().map(|v| v.parse())) {
            // Loopback only: these servers are for tests.
            ("--bind", Some(Ok::<SocketAddr, _>(addr))) if addr.ip().is_loopback() => bind = addr,
            _ => {
                eprintln!("{USAGE}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    let (router, path) = match which.as_str() {
        "llm" => (llm::router(), "/v1"),
        "faulty" => (faulty::router(), ""),
        "floor" => (floor::router(), "/mcp"),
        _ => {
            eprintln!("{USAGE}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let listener = match tokio::net::TcpListener::bind(bind).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on {bind}: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match listener.local_addr() {
        Ok(addr) => println!("test-servers {which} listening on http://{addr}{path}"),
        Err(e) => {
            eprintln!("cannot read the bound address: {e}");
            return std::process::ExitCode::FAILURE;
        }
    }
    match axum::serve(listener, router).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::FAILURE
        }
    }
}
