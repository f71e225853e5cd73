//! Building a run's engine in the browser (MCP client over `fetch`, the chosen model, the host),
//! in the `run` module, fetched when the page's first run starts (or earlier, when a row is
//! selected or the server is a bridge: those views need the same module): the protocol code is
//! not in the first load, only the page that shows it.

use std::rc::Rc;

use crate::clock::{BrowserClock, SharedClock};
use crate::flow::engine::Engine;
use crate::flow::gate::Gate;
use crate::flow::host::{Approval, Emit, Host, HostEvent, Memory};
use crate::llm::choice::{LlmSettings, Seats};
use crate::mcp::auth::popup::PopupConsent;
use crate::mcp::auth::{AuthConfig, PreRegistered};
use crate::mcp::browser::Fetch;
use crate::mcp::client::McpClient;
use crate::mcp::era::EraChoice;
use crate::mcp::log_level::LogLevel;
use crate::on_demand::{OnDemandError, on_demand};
use crate::output_check::worker::SchemaWorker;
use crate::record::run::RunEvent;

/// Everything a run's engine is made of that the page decides.
pub struct EngineParts {
    pub server: String,
    pub llm: LlmSettings,
    pub seats: Seats,
    pub gate: Rc<Gate>,
    pub approval: Approval,
    pub emit: Emit,
    pub era: EraChoice,
    pub memory: Memory,
    pub headers: String,
    pub log_level: Option<LogLevel>,
    /// The pre-registered client from the settings, if one is named.
    pub client: Option<PreRegistered>,
    /// The output-schema checker's worker, kept by the page across runs.
    pub schema: Rc<SchemaWorker>,
}

/// Makes a run's engine from its parts.
pub type BuildEngine = fn(EngineParts) -> Rc<dyn Engine>;

fn build(parts: EngineParts) -> Rc<dyn Engine> {
    let clock: SharedClock = Rc::new(BrowserClock);
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let consent_emit = parts.emit.clone();
    let consent = PopupConsent::new(Rc::new(move |url| consent_emit(HostEvent::Authorize(url))));
    let mcp_emit = parts.emit.clone();
    let client = Rc::new(McpClient::new(
        Fetch,
        clock.clone(),
        parts.server,
        Rc::new(move |u| mcp_emit(HostEvent::Run(RunEvent::Mcp(u)))),
    ));
    Rc::new(
        Host::new(
            client,
            parts.llm.build(Fetch, clock, &parts.seats),
            parts.gate,
            parts.approval,
            parts.emit,
        )
        .with_era(parts.era, parts.memory)
        .with_authorization(
            AuthConfig {
                pre_registered: parts.client,
                ..AuthConfig::page(&origin)
            },
            Some(Rc::new(consent)),
        )
        .with_headers(&parts.headers)
        .with_log_level(parts.log_level)
        .with_checker(parts.schema.checker()),
    )
}

on_demand!(
    run,
    pub fn engine_builder() -> Result<BuildEngine, OnDemandError> {
        Ok(build)
    }
);
