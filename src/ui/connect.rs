//! The first page: a server URL and a Connect button that performs a real handshake.

use std::rc::Rc;

use leptos::prelude::*;

use super::params;
use crate::mcp::browser::Fetch;
use crate::mcp::client::McpClient;

#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Connecting,
    Connected { version: String, server: String },
    Failed(String),
}

#[component]
pub fn App() -> impl IntoView {
    let location = window().location();
    let query = location.search().unwrap_or_default();
    let origin = location.origin().unwrap_or_default();
    let server = RwSignal::new(params::server_url(&query, &origin));
    let status = RwSignal::new(Status::Idle);

    let connect = move |_: ()| {
        let url = server.get_untracked();
        status.set(Status::Connecting);
        leptos::task::spawn_local(async move {
            let client = McpClient::new(Fetch, url, Rc::new(|_| {}));
            let next = match client.connect().await {
                Ok(hs) => Status::Connected {
                    version: hs.protocol_version.to_owned(),
                    server: format!("{} {}", hs.server_name, hs.server_version),
                },
                Err(e) => Status::Failed(e.to_string()),
            };
            status.set(next);
        });
    };
    if params::flag(&query, "autoplay") {
        connect(());
    }

    view! {
        <main class="mf-app">
            <h1 class="mf-title">"MCP Flow"</h1>
            <p class="mf-lede">"A real MCP client in your browser, talking Streamable HTTP."</p>
            <div class="mf-connect">
                <label for="mf-server">"MCP server URL"</label>
                <input
                    id="mf-server"
                    type="url"
                    prop:value=move || server.get()
                    on:input=move |ev| server.set(event_target_value(&ev))
                />
                <button
                    id="mf-connect"
                    on:click=move |_| connect(())
                    disabled=move || status.get() == Status::Connecting
                >
                    "Connect"
                </button>
            </div>
            <p
                id="mf-status"
                class="mf-status"
                data-state=move || match status.get() {
                    Status::Idle => "idle",
                    Status::Connecting => "connecting",
                    Status::Connected { .. } => "connected",
                    Status::Failed(_) => "failed",
                }
            >
                {move || match status.get() {
                    Status::Idle => "Not connected.".to_owned(),
                    Status::Connecting => "Connecting…".to_owned(),
                    Status::Connected { version, server } => {
                        format!("Connected to {server}, protocol version {version}")
                    }
                    Status::Failed(e) => format!("Connection failed: {e}"),
                }}
            </p>
        </main>
    }
}
