//! Shared by the CLI's tests: the weather server in-process.

/// Starts the weather server with `flags` on its own thread and runtime; returns its MCP URL.
pub fn weather_server(flags: &[&str]) -> String {
    use clap::Parser;
    let mut args = vec!["weather-server", "--bind", "127.0.0.1:0"];
    args.extend_from_slice(flags);
    let config = weather_server::Config::parse_from(args);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind(config.bind)
                .await
                .expect("bind");
            let addr = listener.local_addr().expect("address");
            tx.send(weather_server::endpoint_url(addr)).expect("send");
            let _ = weather_server::serve(config, listener, std::future::pending()).await;
        });
    });
    rx.recv().expect("the server's URL")
}
