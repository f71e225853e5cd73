//! Building a run's engine in the browser (MCP client over `fetch`, the chosen model, the host),
//! in the `run` module, fetched when the page's first run starts (or earlier, when a row is
//! selected or the server is a bridge: those views need the same module): the protocol code is
//! not in the first load, only the page that shows it.

use std::rc::Rc;

use crate::clock::{BrowserClock, SharedClock};
use futures_util::future::LocalBoxFuture;

use crate::flow::engine::{Engine, browse_walk};
use crate::flow::gate::Gate;
use crate::flow::hearing::legacy_code;
use crate::flow::host::{Approval, BrowseWalk, Emit, Host, HostEvent, LegacyCode, ServerMemory};
use crate::flow::session::RunSession;
use crate::llm::boxed::DynLlm;
use crate::llm::choice::{LlmSettings, ModelSupport, Provider};
use crate::llm::offline::OfflineModel;
use crate::mcp::auth::popup::PopupConsent;
use crate::mcp::auth::{AuthConfig, PreRegistered};
use crate::mcp::browser::Fetch;
use crate::mcp::client::McpClient;
use crate::mcp::era::EraChoice;
use crate::mcp::log_level::LogLevel;
use crate::mcp::old_sse::old_sse_code;
use crate::mcp::transport::OldSseCode;
use crate::on_demand::{OnDemandError, call_on_demand, on_demand};
use crate::output_check::worker::SchemaWorker;
use crate::record::run::RunEvent;

/// Everything a run's engine is made of that the page decides.
pub struct EngineParts {
    pub server: String,
    pub llm: LlmSettings,
    pub seats: ModelSupport,
    pub gate: Rc<Gate>,
    pub approval: Approval,
    pub emit: Emit,
    pub era: EraChoice,
    pub memory: ServerMemory,
    pub headers: String,
    pub log_level: Option<LogLevel>,
    /// The pre-registered client from the settings, if one is named.
    pub client: Option<PreRegistered>,
    /// The output-schema checker's worker, kept by the page across runs.
    pub schema: Rc<SchemaWorker>,
    /// The roots a server's `roots/list` is answered with, as the settings hold them.
    pub roots: String,
    /// The run the engine belongs to: what it starts on its own (hearing the server) ends with it.
    pub session: RunSession,
}

/// Makes the model the settings name, from the models' module.
type BuildModel = fn(&LlmSettings, SharedClock, &ModelSupport) -> Box<dyn DynLlm>;

on_demand!(
    models,
    fn models_builder() -> Result<BuildModel, OnDemandError> {
        Ok(|settings, clock, seats| Box::new(settings.build(Fetch, clock, seats)))
    }
);

/// Makes a run's engine from its parts; the error is the first row's.
pub type BuildEngine = fn(EngineParts) -> LocalBoxFuture<'static, Result<Rc<dyn Engine>, String>>;

/// The model the settings name: the offline one in place, any other from the models' module.
async fn model(parts: &EngineParts, clock: SharedClock) -> Result<PageLlm, String> {
    if parts.llm.provider == Provider::Offline {
        return Ok(Box::new(OfflineModel::new(clock)));
    }
    let make =
        call_on_demand!(models_builder()).map_err(|e| e.into_message("runs the chosen model"))?;
    Ok(make(&parts.llm, clock, &parts.seats))
}

async fn build(parts: EngineParts) -> Result<Rc<dyn Engine>, String> {
    let clock: SharedClock = Rc::new(BrowserClock);
    let llm = model(&parts, clock.clone()).await?;
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
    // The page renders a tool's app (MCP Apps) through its sandbox proxy.
    client.set_hosts_apps(true);
    client.transport.set_old_sse_loader(load_old_sse);
    let host = Rc::new(
        Host::new(client, llm, parts.gate, parts.approval, parts.emit)
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
            .with_checker(parts.schema.checker())
            .with_browse_loader(load_browse)
            .with_legacy_loader(load_legacy)
            .with_roots(crate::mcp::roots::parse(&parts.roots).unwrap_or_default()),
    );
    // The server is heard outside requests for as long as the run lives.
    let hearing = parts.session.bind(Host::hear(&host));
    leptos::task::spawn_local(async move {
        let _ = hearing.await;
    });
    Ok(host)
}

/// The run's model as the page holds it.
type PageLlm = Box<dyn DynLlm>;

/// The host as the page builds it (what [`crate::flow::engine::Engine::host`] hands back).
pub type PageHost = Host<Fetch, PageLlm>;

/// The walk as the page's host runs it.
type PageWalk = BrowseWalk<Fetch, PageLlm>;

on_demand!(
    browse,
    fn browse_walk_fn() -> Result<PageWalk, OnDemandError> {
        Ok(browse_walk)
    }
);

fn load_browse() -> LocalBoxFuture<'static, Result<PageWalk, OnDemandError>> {
    Box::pin(async { call_on_demand!(browse_walk_fn()) })
}

/// What a 2025-11-25 session needs beyond the run, as the page's host runs it.
type PageLegacy = LegacyCode<Fetch, PageLlm>;

on_demand!(
    legacy_session,
    fn legacy_code_fn() -> Result<PageLegacy, OnDemandError> {
        Ok(legacy_code())
    }
);

fn load_legacy() -> LocalBoxFuture<'static, Result<PageLegacy, OnDemandError>> {
    Box::pin(async { call_on_demand!(legacy_code_fn()) })
}

/// The HTTP+SSE transport (2024-11-05) as the page's client runs it.
type PageOldSse = OldSseCode<Fetch>;

on_demand!(
    legacy_session,
    fn old_sse_code_fn() -> Result<PageOldSse, OnDemandError> {
        Ok(old_sse_code())
    }
);

fn load_old_sse() -> LocalBoxFuture<'static, Result<PageOldSse, String>> {
    Box::pin(async {
        call_on_demand!(old_sse_code_fn()).map_err(|e| e.into_message("speaks HTTP+SSE"))
    })
}

on_demand!(
    run,
    pub fn engine_builder() -> Result<BuildEngine, OnDemandError> {
        Ok(|parts| Box::pin(build(parts)))
    }
);
