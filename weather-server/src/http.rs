//! The HTTP side: the `/mcp` endpoint with CORS, request guards (body limit,
//! session cap, JSON-RPC parse errors) and the optional static web app.

use std::{net::SocketAddr, path::Path, sync::Arc};

use axum::{
    Router,
    body::{Body, Bytes},
    extract::{Request, State},
    http::{HeaderMap, HeaderName, Method, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService,
    session::local::{LocalSessionManager, SessionConfig},
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tower_http::{
    cors::{AllowOrigin, CorsLayer},
    services::{ServeDir, ServeFile},
};

use rmcp::ServerHandler;

use crate::{
    calc::CalculatorServer, config::Config, streams::RoutingSessionManager, tool::WeatherServer,
};

/// Path of the MCP endpoint.
pub const MCP_PATH: &str = "/mcp";
/// Path of the calculator's MCP endpoint.
pub const CALC_PATH: &str = "/calc";

const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

/// JSON-RPC error codes used by the guard.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const SERVER_BUSY: i64 = -32000;

/// Builds the application: `/mcp` (the weather server) and `/calc` (the seeds' calculator),
/// each rmcp Streamable HTTP behind CORS and the guard, plus, with `--static`, the web app at
/// `/`.
///
/// `local_addr` is the address actually bound (its port joins the Origin and
/// Host allow-lists); cancelling `cancel` ends every session and SSE stream.
pub fn router(config: &Config, local_addr: SocketAddr, cancel: CancellationToken) -> Router {
    let mcp = endpoint(MCP_PATH, WeatherServer::new, config, local_addr, &cancel)
        .merge(endpoint(
            CALC_PATH,
            CalculatorServer::default,
            config,
            local_addr,
            &cancel,
        ))
        .layer(cors_layer());
    match &config.static_dir {
        Some(dir) => Router::new().merge(mcp).fallback_service(static_files(dir)),
        None => mcp,
    }
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
        .with_json_response(config.json_response)
        .with_allowed_origins(origins.clone())
        .with_allowed_hosts(config.allowed_hosts(local_addr))
        .with_max_request_body_bytes(config.max_body())
        .with_cancellation_token(cancel.child_token());
    let service = StreamableHttpService::new(move || Ok(new()), Arc::clone(&sessions), mcp_config);

    let guard = Guard {
        sessions: config.sessions_enabled().then_some(sessions),
        max_sessions: usize::try_from(config.max_sessions).unwrap_or(usize::MAX),
        max_body: config.max_body(),
        allowed_origins: Arc::new(origins),
        initialize_lock: Arc::new(tokio::sync::Mutex::new(())),
    };
    Router::new()
        .route_service(path, service)
        .layer(middleware::from_fn_with_state(guard, guard_requests))
}

/// CORS that lets a browser *read* the server's answer, including a 403 for an Origin that is
/// not allowed. Granting CORS does not admit anyone: rmcp checks every request's Origin (and
/// Host) against the allow-list and answers a foreign one with 403 before any MCP processing.
/// Without the grant, a page on a foreign origin would see only an opaque network error instead
/// of "403 Forbidden: origin not allowed", which is what a debugging tool should show.
pub fn cors_layer() -> CorsLayer {
    CorsLayer::new()
        .allow_origin(AllowOrigin::mirror_request())
        .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
        .allow_headers([
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::AUTHORIZATION,
            SESSION_ID,
            PROTOCOL_VERSION,
            LAST_EVENT_ID,
        ])
        .expose_headers([SESSION_ID, PROTOCOL_VERSION])
}

fn static_files(dir: &Path) -> ServeDir<ServeFile> {
    ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html")))
}

/// State of the request guard in front of rmcp.
#[derive(Clone)]
struct Guard {
    /// Present in session mode: used to count live sessions.
    sessions: Option<Arc<RoutingSessionManager>>,
    max_sessions: usize,
    max_body: usize,
    allowed_origins: Arc<Vec<String>>,
    /// Serialises session creation so the cap cannot be overshot.
    initialize_lock: Arc<tokio::sync::Mutex<()>>,
}

impl Guard {
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
///   -32600 for JSON that is not an MCP message) instead of rmcp's plain 415.
async fn guard_requests(State(guard): State<Guard>, request: Request, next: Next) -> Response {
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
    let request_id = parsed
        .as_ref()
        .ok()
        .and_then(|body| body.get("id").cloned())
        .unwrap_or(Value::Null);
    let is_initialize = parsed
        .as_ref()
        .ok()
        .and_then(|body| body.get("method"))
        .and_then(Value::as_str)
        == Some("initialize");
    let opens_session = is_initialize && !parts.headers.contains_key(SESSION_ID);

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

fn too_large(limit: usize) -> Response {
    jsonrpc_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        Value::Null,
        INVALID_REQUEST,
        format!("Request body too large: the limit is {limit} bytes"),
    )
}

/// A JSON-RPC error object as the HTTP response body.
fn jsonrpc_error(status: StatusCode, id: Value, code: i64, message: String) -> Response {
    let body = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    });
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}
