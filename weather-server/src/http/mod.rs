//! The HTTP side: the `/mcp` endpoint with CORS, request guards (body limit,
//! session cap, JSON-RPC parse errors, the era rules of [`crate::http::modern`]), the cap on open
//! streams ([`crate::http::stream_cap`]) and the optional static web app.

pub mod journal;
pub mod jsonrpc;
pub mod modern;
pub mod sandbox;
pub mod stream_cap;
pub mod streams;

use std::{net::SocketAddr, path::Path, sync::Arc};

use axum::{
    Router,
    body::{Body, Bytes},
    extract::{Request, State},
    http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::{any, get},
};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService,
    session::{
        SessionManager,
        local::{LocalSessionManager, SessionConfig},
    },
};
use serde::Deserialize;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tower_http::{
    cors::{AllowOrigin, CorsLayer},
    services::{ServeDir, ServeFile},
    set_header::SetResponseHeader,
};

use rmcp::{
    ServerHandler,
    model::{
        CallToolRequestMethod, CallToolRequestParams, CancelTaskMethod, ClientJsonRpcMessage,
        ClientRequest, CompleteRequestMethod, ConstString, DiscoverRequestMethod,
        GetPromptRequestMethod, GetSkillRequestMethod, GetTaskMethod, InitializeRequestParams,
        InitializeResultMethod, JsonRpcMessage, ListPromptsRequestMethod,
        ListResourceTemplatesRequestMethod, ListResourcesRequestMethod, ListSkillsRequestMethod,
        ListToolsRequestMethod, PingRequestMethod, ReadResourceDirectoryRequestMethod,
        ReadResourceRequestMethod, SetLevelRequestMethod, SubscribeRequestMethod,
        SubscriptionsListenRequestMethod, UnsubscribeRequestMethod, UpdateTaskMethod,
    },
};

use crate::{
    auth::Auth,
    config::Config,
    era::Era,
    handlers::calc::CalculatorServer,
    handlers::weather::{Shared, WeatherServer},
    sealed::Sealer,
};
use journal::Journal;
use jsonrpc::{jsonrpc_error_response, too_large};
use stream_cap::StreamCap;
use streams::RoutingSessionManager;

/// Path of the MCP endpoint.
pub const MCP_PATH: &str = "/mcp";
/// Path of the calculator's MCP endpoint.
pub const CALC_PATH: &str = "/calc";
/// The weather server with the long-running `get_forecast` (a task where the client takes tasks).
pub const FORECAST_PATH: &str = "/forecast";
/// The weather server with `packing_advice`, which asks the client's model and roots.
pub const PACKING_PATH: &str = "/packing";

const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");
const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");
/// Prefix of the 2026-07-28 headers mirroring tool arguments (`x-mcp-header`).
const MCP_PARAM_PREFIX: &str = "mcp-param-";

/// JSON-RPC error codes used by the guard.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;
const SERVER_BUSY: i64 = -32000;

/// The client request methods rmcp reads into typed requests. rmcp reads a request naming one of
/// them whose params do not fit (e.g. `tools/call` without `name`) as a custom request and
/// answers -32601 "method not found"; JSON-RPC calls that -32602, so the guard answers first.
const TYPED_METHODS: &[&str] = &[
    PingRequestMethod::VALUE,
    InitializeResultMethod::VALUE,
    DiscoverRequestMethod::VALUE,
    CompleteRequestMethod::VALUE,
    SetLevelRequestMethod::VALUE,
    GetPromptRequestMethod::VALUE,
    ListPromptsRequestMethod::VALUE,
    ListResourcesRequestMethod::VALUE,
    ListResourceTemplatesRequestMethod::VALUE,
    ReadResourceRequestMethod::VALUE,
    SubscriptionsListenRequestMethod::VALUE,
    SubscribeRequestMethod::VALUE,
    UnsubscribeRequestMethod::VALUE,
    CallToolRequestMethod::VALUE,
    ListToolsRequestMethod::VALUE,
    GetTaskMethod::VALUE,
    UpdateTaskMethod::VALUE,
    CancelTaskMethod::VALUE,
    ListSkillsRequestMethod::VALUE,
    GetSkillRequestMethod::VALUE,
    ReadResourceDirectoryRequestMethod::VALUE,
];

/// The tools and prompts served beside the weather server's: the conformance suite's, in a build
/// with them and when asked for; none otherwise.
#[cfg(feature = "conformance-fixtures")]
fn extra(config: &Config) -> Option<Arc<dyn crate::handlers::weather::Extra>> {
    config
        .conformance_fixtures
        .then(|| Arc::new(crate::conformance::Fixtures) as Arc<dyn crate::handlers::weather::Extra>)
}

#[cfg(not(feature = "conformance-fixtures"))]
fn extra(_config: &Config) -> Option<Arc<dyn crate::handlers::weather::Extra>> {
    None
}

/// Builds the application: `/mcp` (the weather server), `/calc` (the tutorial's calculator),
/// `/forecast` (the weather server with a long-running tool) and `/packing` (with a tool that
/// asks the client's model and roots),
/// each rmcp Streamable HTTP behind CORS and the guard; with `--auth`, `/mcp` behind a bearer
/// token and the authorization server's routes ([`crate::auth`]); with `--static`, the web app
/// at `/`.
///
/// `local_addr` is the address actually bound (its port joins the Origin and
/// Host allow-lists); cancelling `cancel` ends every session and SSE stream. `Err` when the OS
/// gives no randomness for the requestState key.
pub fn router(
    config: &Config,
    local_addr: SocketAddr,
    cancel: CancellationToken,
) -> std::io::Result<Router> {
    let shared = Shared {
        era: config.era,
        sealer: Arc::new(Sealer::random().map_err(std::io::Error::other)?),
        extra: extra(config),
        tasks: Default::default(),
        clock: crate::handlers::updates::Clock::every(config.update_secs),
    };
    let era = config.era;
    // Its own tasks: /mcp declares none and must not answer tasks/get for these.
    let forecast_shared = Shared {
        extra: Some(Arc::new(crate::handlers::forecast::ForecastTool::default())),
        tasks: Default::default(),
        ..shared.clone()
    };
    let forecast = move || WeatherServer::with_shared(forecast_shared.clone());
    let packing_shared = Shared {
        extra: Some(Arc::new(crate::handlers::packing::PackingTool)),
        tasks: Default::default(),
        ..shared.clone()
    };
    let packing = move || WeatherServer::with_shared(packing_shared.clone());
    let weather = move || WeatherServer::with_shared(shared.clone());
    let calc = move || CalculatorServer::new(era);
    // With --auth, /mcp needs a bearer token; /calc, /models and the app stay open, and
    // /forecast and /packing (the weather server again, with one more tool) are not served.
    let auth = config.auth.then(|| Auth::new(config, local_addr));
    let weather = endpoint(MCP_PATH, weather, config, local_addr, &cancel);
    let weather = match &auth {
        Some(auth) => auth.protect(weather),
        None => weather,
    };
    let mut mcp = weather.merge(endpoint(CALC_PATH, calc, config, local_addr, &cancel));
    if auth.is_none() {
        mcp = mcp
            .merge(endpoint(
                FORECAST_PATH,
                forecast,
                config,
                local_addr,
                &cancel,
            ))
            .merge(endpoint(PACKING_PATH, packing, config, local_addr, &cancel));
    }
    if config.journal {
        let journal = Journal::default();
        let read = Router::new().route(
            "/journal",
            get(journal::read)
                .with_state(journal.clone())
                .layer(middleware::from_fn_with_state(
                    Arc::new(crate::auth::site::Gate::of(config, local_addr)),
                    crate::auth::site::guard,
                )),
        );
        // It shows session ids: under --auth, only to a caller with a token, as /mcp.
        let read = match &auth {
            Some(auth) => auth.protect(read),
            None => read,
        };
        mcp = mcp
            .layer(middleware::from_fn_with_state(
                (journal, config.max_body()),
                journal::record,
            ))
            .merge(read);
    }
    let cors = match &auth {
        // A browser client must read the 401's and 403's challenge.
        Some(_) => {
            cors_layer().expose_headers([SESSION_ID, PROTOCOL_VERSION, header::WWW_AUTHENTICATE])
        }
        None => cors_layer(),
    };
    let mcp = mcp
        .layer(cors)
        .layer(middleware::from_fn(allow_param_headers));
    let mcp = match &auth {
        Some(auth) => mcp.merge(auth.routes()),
        None => mcp,
    };
    let mcp =
        match &config.models_dir {
            Some(dir) => mcp.nest(
                MODELS_PATH,
                Router::new().fallback_service(model_files(dir)).layer(
                    middleware::from_fn_with_state(Arc::new(dir.to_path_buf()), plain_files_only),
                ),
            ),
            None => mcp,
        };
    Ok(match &config.static_dir {
        Some(dir) => Router::new()
            .merge(mcp)
            .merge(sandbox::routes())
            .nest_service(BUILD_PATH, build_files(dir))
            .fallback_service(static_files(dir)),
        None => mcp,
    })
}

/// Where `--models DIR` is served.
pub const MODELS_PATH: &str = "/models";

/// How long a browser may keep a model file without asking again. The files are large and
/// change only with a new setup; after that the browser revalidates with `If-Modified-Since`.
pub const MODELS_CACHE_CONTROL: &str = "public, max-age=86400";

/// Model files: `ServeDir` answers with Content-Length and Last-Modified, honours Range
/// (206 with Content-Range) and If-Modified-Since (304); unknown files are 404, not the app.
fn model_files(dir: &Path) -> SetResponseHeader<ServeDir, HeaderValue> {
    SetResponseHeader::overriding(
        ServeDir::new(dir),
        header::CACHE_CONTROL,
        HeaderValue::from_static(MODELS_CACHE_CONTROL),
    )
}

/// In front of the model files: a path with a hidden segment (`.name`) or through a symbolic
/// link inside the folder is 404, so only the folder's own plain files are served.
async fn plain_files_only(
    State(root): State<Arc<std::path::PathBuf>>,
    request: Request,
    next: Next,
) -> Response {
    let decoded = percent_encoding::percent_decode_str(request.uri().path()).decode_utf8_lossy();
    let segments: Vec<&str> = decoded.split('/').filter(|s| !s.is_empty()).collect();
    let mut path = root.as_ref().clone();
    for segment in &segments {
        if segment.starts_with('.') || segment.contains('\\') {
            return StatusCode::NOT_FOUND.into_response();
        }
        path.push(segment);
        let link = tokio::fs::symlink_metadata(&path)
            .await
            .is_ok_and(|meta| meta.file_type().is_symlink());
        if link {
            return StatusCode::NOT_FOUND.into_response();
        }
    }
    next.run(request).await
}

/// One MCP endpoint at `path`, with its own sessions and guard; `new` makes the handler for
/// each session.
fn endpoint<S, F>(
    path: &str,
    new: F,
    config: &Config,
    local_addr: SocketAddr,
    cancel: &CancellationToken,
) -> Router
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let origins = config.allowed_origins(local_addr.port());

    let mut session_config = SessionConfig::default();
    session_config.keep_alive = Some(config.session_idle());
    let mut local = LocalSessionManager::default();
    local.session_config = session_config;
    let sessions = Arc::new(RoutingSessionManager::new(local));

    let mcp_config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(config.sessions_enabled())
        // Modern only: a request without MCP-Protocol-Version (or without `_meta`) is refused
        // (400, −32020 / −32602) instead of being served as 2025-03-26.
        .with_stateless_protocol_metadata_required(config.era == Era::Modern)
        .with_json_response(config.json_response)
        .with_allowed_origins(origins.clone())
        .with_allowed_hosts(config.allowed_hosts(local_addr))
        .with_max_request_body_bytes(config.max_body())
        .with_cancellation_token(cancel.child_token());
    // One service for every request: a route's service is cloned per request, and rmcp's clones
    // its config (the allow-lists with it) once more in `call`.
    let service = Arc::new(StreamableHttpService::new(
        move || Ok(new()),
        Arc::clone(&sessions),
        mcp_config,
    ));

    let guard = Guard {
        era: config.era,
        sessions: config.sessions_enabled().then_some(sessions),
        max_sessions: usize::try_from(config.max_sessions).unwrap_or(usize::MAX),
        max_body: config.max_body(),
        allowed_origins: Arc::new(origins),
        initialize_lock: Arc::new(tokio::sync::Mutex::new(())),
    };
    let cap = StreamCap::new(
        usize::try_from(config.max_streams).unwrap_or(usize::MAX),
        usize::try_from(config.max_session_streams).unwrap_or(usize::MAX),
    );
    Router::new()
        .route(
            path,
            any(move |request: Request| {
                let service = Arc::clone(&service);
                async move { service.handle(request).await }
            }),
        )
        .layer(middleware::from_fn_with_state(cap, stream_cap::cap_streams))
        .layer(middleware::from_fn_with_state(guard, guard_requests))
}

/// How long a browser may keep a preflight's answer (Chromium keeps at most two hours).
pub const PREFLIGHT_MAX_AGE: std::time::Duration = std::time::Duration::from_secs(7200);

/// CORS that lets a browser *read* the server's answer, including a 403 for an Origin that is
/// not allowed. Granting CORS does not admit anyone: rmcp checks every request's Origin (and
/// Host) against the allow-list and answers a foreign one with 403 before any MCP processing.
/// Without the grant, a page on a foreign origin would see only an opaque network error instead
/// of "403 Forbidden: origin not allowed", which is what a debugging tool should show.
///
/// The request headers of both eras are allowed; the `Mcp-Param-*` ones (named by each tool's
/// `x-mcp-header`) are added per preflight by [`allow_param_headers`]. A browser may keep the
/// preflight's answer for [`PREFLIGHT_MAX_AGE`], so a request after a pause (a step-by-step run,
/// an approval) is not preceded by one more round trip that its measured time would include.
pub fn cors_layer() -> CorsLayer {
    CorsLayer::new()
        .max_age(PREFLIGHT_MAX_AGE)
        .allow_origin(AllowOrigin::mirror_request())
        .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
        .allow_headers([
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::AUTHORIZATION,
            SESSION_ID,
            PROTOCOL_VERSION,
            LAST_EVENT_ID,
            MCP_METHOD,
            MCP_NAME,
        ])
        .expose_headers([SESSION_ID, PROTOCOL_VERSION])
}

/// Middleware outside [`cors_layer`]: a preflight asking for `Mcp-Param-*` headers gets them
/// added to `Access-Control-Allow-Headers` (their names depend on the tools, so no fixed list
/// can hold them). Other requested names are left to the fixed list.
pub async fn allow_param_headers(request: Request, next: Next) -> Response {
    let params: Vec<String> = if request.method() == Method::OPTIONS {
        request
            .headers()
            .get_all(header::ACCESS_CONTROL_REQUEST_HEADERS)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(|name| name.trim().to_ascii_lowercase())
            .filter(|name| is_param_header(name))
            .collect()
    } else {
        Vec::new()
    };
    let mut response = next.run(request).await;
    if params.is_empty() {
        return response;
    }
    let Some(listed) = response
        .headers()
        .get(header::ACCESS_CONTROL_ALLOW_HEADERS)
        .and_then(|value| value.to_str().ok())
    else {
        return response;
    };
    let mut names: Vec<String> = listed
        .split(',')
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .collect();
    for param in params {
        if !names.iter().any(|name| name.eq_ignore_ascii_case(&param)) {
            names.push(param);
        }
    }
    if let Ok(value) = HeaderValue::from_str(&names.join(", ")) {
        response
            .headers_mut()
            .insert(header::ACCESS_CONTROL_ALLOW_HEADERS, value);
    }
    response
}

/// `mcp-param-NAME` with NAME a non-empty RFC 9110 token (lower case).
fn is_param_header(name: &str) -> bool {
    name.strip_prefix(MCP_PARAM_PREFIX).is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
    })
}

/// The Content-Security-Policy of the served app: no inline script and no eval (wasm
/// compilation aside), no plugins, not framed, and framing only the apps' sandbox proxy on a
/// loopback origin ([`sandbox`]); fetch may reach any MCP server or LLM endpoint
/// the user picks; images and audio may come as `data:` URLs (a tool's content blocks), and
/// images from `https:` (a server's and its tools' icons, fetched without credentials or
/// referrer). `trunk serve` sends the same policy plus its live-reload script
/// (Trunk.toml `[serve] csp`; `tests/static_csp.rs` keeps the two in step).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
    script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data: https:; media-src 'self' data:; connect-src 'self' http: https:; \
    frame-src http://localhost:*/sandbox/ http://127.0.0.1:*/sandbox/; object-src 'none'; \
    base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The built app, each response with the page's Content-Security-Policy; unknown paths get
/// `index.html` (the app reads its state from the address).
fn static_files(dir: &Path) -> PageFiles<ServeDir<ServeFile>> {
    let index = ServeFile::new(dir.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    let files = ServeDir::new(dir)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(index);
    page_files(files, STATIC_CACHE_CONTROL)
}

/// One build's files (`dist/b/<hash>/…`, named by their contents by the release build): kept by a
/// browser for good. An unknown path here is a 404, not the page. No policy header: these are
/// never a document or a worker's own script (the workers start from their loaders at the top),
/// and a browser ignores a policy on anything else, so it would only add bytes to every fetch.
fn build_files(dir: &Path) -> CachedFiles<ServeDir> {
    let files = ServeDir::new(dir.join(&BUILD_PATH[1..]))
        .precompressed_br()
        .precompressed_gzip();
    cached_files(files, BUILD_CACHE_CONTROL)
}

/// Where the release build puts a build's files (xtask/src/build/site.rs, `BUILD_DIR`).
pub const BUILD_PATH: &str = "/b";

/// How a browser may keep the files of the top of `dist/` (the page, the workers' loaders):
/// stored, revalidated before each use.
pub const STATIC_CACHE_CONTROL: &str = "no-cache";

/// How a browser may keep a build's files: a new build has a new folder, so these never change.
pub const BUILD_CACHE_CONTROL: &str = "public, max-age=31536000, immutable";

/// `files` as the app's files are served: the precompressed variant the browser accepts (the
/// release build writes `.br` and `.gz` beside each compressible file), `Vary` on it, `cache`.
fn cached_files<S>(files: S, cache: &'static str) -> CachedFiles<S> {
    // Which body a URL gets depends on Accept-Encoding, so caches must key on it.
    let files = SetResponseHeader::appending(
        files,
        header::VARY,
        HeaderValue::from_static("accept-encoding"),
    );
    SetResponseHeader::overriding(
        files,
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache),
    )
}

/// The files at the top of `dist/` (the page, the workers' loaders): [`cached_files`] and the
/// policy header.
fn page_files<S>(files: S, cache: &'static str) -> PageFiles<S> {
    SetResponseHeader::overriding(
        cached_files(files, cache),
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    )
}

/// The app's files as served: precompressed variants, `Vary` and caching.
type CachedFiles<S> = SetResponseHeader<SetResponseHeader<S, HeaderValue>, HeaderValue>;
/// The same with the policy header.
type PageFiles<S> = SetResponseHeader<CachedFiles<S>, HeaderValue>;

/// State of the request guard in front of rmcp.
#[derive(Clone)]
struct Guard {
    era: Era,
    /// Present in session mode: used to count live sessions.
    sessions: Option<Arc<RoutingSessionManager>>,
    max_sessions: usize,
    max_body: usize,
    allowed_origins: Arc<Vec<String>>,
    /// Serialises session creation so the cap cannot be overshot.
    initialize_lock: Arc<tokio::sync::Mutex<()>>,
}

impl Guard {
    /// Whether the request names a session that does not exist (`None` without sessions or
    /// without a session id).
    async fn names_unknown_session(&self, headers: &HeaderMap) -> Option<bool> {
        let sessions = self.sessions.as_ref()?;
        let id = headers.get(SESSION_ID)?.to_str().ok()?;
        Some(
            !sessions
                .has_session(&id.to_owned().into())
                .await
                .unwrap_or(true),
        )
    }

    /// A present Origin that is not on the list: rmcp answers these with 403,
    /// so the guard leaves them alone.
    fn is_foreign_origin(&self, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return false;
        };
        let Ok(origin) = origin.to_str() else {
            return true;
        };
        let origin = origin.trim().trim_end_matches('/');
        !self
            .allowed_origins
            .iter()
            .any(|allowed| allowed.eq_ignore_ascii_case(origin))
    }
}

/// Middleware for POST /mcp:
/// - bodies over the limit get 413 (before rmcp sees them);
/// - a new `initialize` while `max_sessions` sessions are open gets 503;
/// - a body rmcp cannot parse gets a JSON-RPC error (-32700 for invalid JSON,
///   -32600 for JSON that is not an MCP message) instead of rmcp's plain 415;
/// - a compressed body (any `Content-Encoding` but identity) gets 415: nothing decodes it;
/// - the era rules of [`modern::screen`] (removed methods, unserved versions, `--era`);
/// - a known method with params that do not fit it gets -32602 (see [`TYPED_METHODS`]);
/// - a DELETE that closed its session gets 200 rather than rmcp's 202 (the official Python
///   SDK client reports anything but 200 and 204 as "Session termination failed"), and one
///   naming a session that does not exist (any more) gets 404.
async fn guard_requests(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    if request.method() == Method::DELETE {
        // rmcp checks Origin, Host and the version first, then answers 202 whether or not the
        // session existed.
        let unknown = guard.names_unknown_session(request.headers()).await == Some(true);
        let mut response = next.run(request).await;
        if response.status() == StatusCode::ACCEPTED {
            if unknown {
                return (
                    StatusCode::NOT_FOUND,
                    [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                    "Not Found: Session not found",
                )
                    .into_response();
            }
            *response.status_mut() = StatusCode::OK;
        }
        return response;
    }
    if request.method() != Method::POST || guard.is_foreign_origin(request.headers()) {
        return next.run(request).await;
    }

    let declared_length = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared_length.is_some_and(|length| length > guard.max_body as u64) {
        return too_large(guard.max_body);
    }
    // Nothing here decodes content codings: without this a gzip body that happens to be plain
    // JSON would be served as if uncompressed. RFC 9110 §15.5.16: 415 naming what is accepted.
    if let Some(coding) = unsupported_content_encoding(request.headers()) {
        let mut response = jsonrpc_error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Value::Null,
            INVALID_REQUEST,
            format!("Unsupported Content-Encoding {coding:?}: send the body uncompressed"),
        );
        response.headers_mut().insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("identity"),
        );
        return response;
    }
    let (parts, body) = request.into_parts();
    let bytes: Bytes = match axum::body::to_bytes(body, guard.max_body).await {
        Ok(bytes) => bytes,
        Err(error) => {
            return if is_length_limit(&error) {
                too_large(guard.max_body)
            } else {
                jsonrpc_error(
                    StatusCode::BAD_REQUEST,
                    Value::Null,
                    INVALID_REQUEST,
                    format!("Could not read request body: {error}"),
                )
            };
        }
    };

    let declares_json = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
    let parsed = serde_json::from_slice::<Value>(&bytes);
    // JSON-RPC 2.0 answers an id it cannot read with null; MCP ids are strings or integers.
    let request_id = parsed
        .as_ref()
        .ok()
        .and_then(|body| body.get("id"))
        .filter(|id| id.is_string() || id.is_i64())
        .cloned()
        .unwrap_or(Value::Null);
    let is_initialize = parsed
        .as_ref()
        .ok()
        .and_then(|body| body.get("method"))
        .and_then(Value::as_str)
        == Some("initialize");
    let opens_session = is_initialize && !parts.headers.contains_key(SESSION_ID);

    if let Ok(body) = &parsed
        && let Some(answer) = modern::screen(guard.era, &parts.headers, body)
    {
        return answer;
    }

    if let Ok(body) = &parsed
        && let Some((method, detail)) = misfit_params(&bytes, body)
    {
        return jsonrpc_error(
            StatusCode::BAD_REQUEST,
            request_id,
            INVALID_PARAMS,
            format!("Invalid params for {method}{detail}"),
        );
    }

    let request = Request::from_parts(parts, Body::from(bytes));

    let _creating_session = match (&guard.sessions, opens_session) {
        (Some(sessions), true) => {
            let permit = Arc::clone(&guard.initialize_lock).lock_owned().await;
            let open = sessions.session_count().await;
            if open >= guard.max_sessions {
                tracing::warn!(open, max = guard.max_sessions, "session limit reached");
                return jsonrpc_error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    request_id,
                    SERVER_BUSY,
                    format!(
                        "Server busy: the session limit ({}) is reached. Close an unused session \
                         (DELETE /mcp with its mcp-session-id) or retry later.",
                        guard.max_sessions
                    ),
                );
            }
            Some(permit)
        }
        _ => None,
    };

    let response = next.run(request).await;

    if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE && declares_json {
        // With a JSON content type, rmcp's 415 means the body did not parse.
        return match parsed {
            Err(error) => jsonrpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                PARSE_ERROR,
                format!("Parse error: {error}"),
            ),
            Ok(Value::Array(_)) => jsonrpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: JSON-RPC batches are not supported (MCP removed them in \
                 2025-06-18); send one message per POST"
                    .to_string(),
            ),
            Ok(_) => jsonrpc_error(
                StatusCode::BAD_REQUEST,
                request_id,
                INVALID_REQUEST,
                "Invalid Request: not a JSON-RPC 2.0 message this server understands".to_string(),
            ),
        };
    }
    response
}

/// The first content coding other than identity, if any.
fn unsupported_content_encoding(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::CONTENT_ENCODING)
        .iter()
        .flat_map(|value| {
            String::from_utf8_lossy(value.as_bytes())
                .split(',')
                .map(|coding| coding.trim().to_string())
                .collect::<Vec<_>>()
        })
        .find(|coding| !coding.is_empty() && !coding.eq_ignore_ascii_case("identity"))
}

/// For a request that names a typed method but parses only as a custom request: the method and,
/// for `tools/call`, why its params do not fit. A `tools/call` whose params fit (nearly every
/// request under load) is told from the parsed `body`: reading it as rmcp does cost 8% of the
/// server's time under load.
fn misfit_params(bytes: &[u8], body: &Value) -> Option<(String, String)> {
    let fitting_call = body.get("method").and_then(Value::as_str)
        == Some(CallToolRequestMethod::VALUE)
        && body
            .get("params")
            .is_some_and(|params| CallToolRequestParams::deserialize(params).is_ok());
    if fitting_call {
        return None;
    }
    misfit_params_as_read(bytes)
}

/// [`misfit_params`] by reading the request as rmcp reads it.
fn misfit_params_as_read(bytes: &[u8]) -> Option<(String, String)> {
    let Ok(JsonRpcMessage::Request(request)) =
        serde_json::from_slice::<ClientJsonRpcMessage>(bytes)
    else {
        return None;
    };
    let ClientRequest::CustomRequest(custom) = request.request else {
        return None;
    };
    if !TYPED_METHODS.contains(&custom.method.as_str()) {
        return None;
    }
    let detail = match custom.method.as_str() {
        CallToolRequestMethod::VALUE => {
            let params = custom.params.unwrap_or(Value::Null);
            match serde_json::from_value::<CallToolRequestParams>(params) {
                Err(error) => {
                    format!(": {error}. Expected {{\"name\": string, \"arguments\": object}}.")
                }
                Ok(_) => String::new(),
            }
        }
        InitializeResultMethod::VALUE => {
            let params = custom.params.unwrap_or(Value::Null);
            match serde_json::from_value::<InitializeRequestParams>(params) {
                Err(error) => format!(
                    ": {error}. Expected {{\"protocolVersion\": string, \"capabilities\": object, \
                     \"clientInfo\": {{\"name\": string, \"version\": string}}}}."
                ),
                Ok(_) => String::new(),
            }
        }
        _ => String::new(),
    };
    Some((custom.method, detail))
}

fn is_length_limit(error: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = source {
        if current.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = current.source();
    }
    false
}

/// A JSON-RPC error object as the HTTP response body.
fn jsonrpc_error(status: StatusCode, id: Value, code: i64, message: String) -> Response {
    jsonrpc_error_response(status, id, code, message, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut for fitting `tools/call` requests answers what reading them as rmcp does.
    #[test]
    fn misfit_shortcut_agrees_with_rmcp() {
        let bodies = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"Tokyo"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{},"_meta":{"progressToken":1}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"location":"Tokyo"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":null,"arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":"Tokyo"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":5}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"weather/custom","params":{}}"#,
        ];
        let mut misfits = 0;
        for body in bodies {
            let parsed: Value = serde_json::from_str(body).expect("test bodies are JSON");
            let answer = misfit_params(body.as_bytes(), &parsed);
            assert_eq!(answer, misfit_params_as_read(body.as_bytes()), "{body}");
            misfits += usize::from(answer.is_some());
        }
        // The four misfitting tools/call bodies and initialize's.
        assert_eq!(misfits, 5);
    }

    #[test]
    fn param_header_names() {
        assert!(is_param_header("mcp-param-units"));
        assert!(is_param_header("mcp-param-tenant-id"));
        assert!(!is_param_header("mcp-param-"));
        assert!(!is_param_header("mcp-method"));
        assert!(!is_param_header("mcp-param-a b"));
        assert!(!is_param_header("x-mcp-param-units"));
    }
}
