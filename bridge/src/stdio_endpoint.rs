//! The Streamable HTTP endpoint of the stdio mode (MCP 2025-11-25 sessions): POST relays one
//! message to the session's child, GET opens the stream for the child's own messages, DELETE
//! ends the session and its child.
//!
//! A POSTed request is answered with the child's response as `application/json` when the
//! response is the first thing the child sends for it; when the child first sends requests or
//! notifications, the answer is an SSE stream carrying them, then the response.

use std::{
    convert::Infallible,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    body::Body,
    extract::State,
    http::{HeaderMap, HeaderName, HeaderValue, StatusCode},
    response::{
        IntoResponse, Response,
        sse::{Event, KeepAlive, Sse},
    },
};
use futures::{Stream, StreamExt};
use tokio_stream::wrappers::UnboundedReceiverStream;

use crate::{
    app::App,
    config::Answers,
    jsonrpc::{
        Failure, INVALID_REQUEST, Kind, NotAMessage, PARSE_ERROR, as_line, classify,
        error_response, json_response,
    },
    modern,
    param_headers::ParamHeaders,
    session::{Delivery, OpenRequest, Session},
};

pub const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
/// On every answer: the bridge session whose record (`legs?session=ID`) holds its stdio lines.
/// In the 2025-11-25 era it equals `Mcp-Session-Id`; in 2026-07-28 it names the shared child.
pub const RECORD_SESSION: HeaderName = HeaderName::from_static("mcp-flow-bridge-session");
/// How long a request whose line could not be written waits to learn why (the child exiting).
const WRITE_FAILURE_WAIT: Duration = Duration::from_secs(2);

/// POST: one JSON-RPC message from the client.
pub async fn post(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    let bytes = match crate::body::read_body(body, &headers, app.options.max_body()).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return error_response(
            StatusCode::BAD_REQUEST,
            PARSE_ERROR,
            "Parse error: the body is not UTF-8",
        );
    };
    let kind = match classify(text) {
        Ok(kind) => kind,
        Err(NotAMessage::NotJson(error)) => {
            return error_response(
                StatusCode::BAD_REQUEST,
                PARSE_ERROR,
                format!("Parse error: {error}"),
            );
        }
        Err(NotAMessage::NotJsonRpc) => {
            return error_response(
                StatusCode::BAD_REQUEST,
                INVALID_REQUEST,
                "Invalid Request: not one JSON-RPC message (MCP has no batches since 2025-06-18)",
            );
        }
    };
    let line = as_line(text);

    let (session, new) = match session_id(&headers) {
        Some(id) => match live_session(&app, id) {
            Ok(session) => (session, false),
            Err(failure) => return failure.response_for(request_id(&kind)),
        },
        None => match &kind {
            Kind::Request { id, method }
                if method == "initialize" && !modern::is_modern(&headers, &parsed(text)) =>
            {
                match app.start_session(false).await {
                    Ok(session) => (session, true),
                    Err(failure) => return failure.response_for(id),
                }
            }
            // 2026-07-28: no initialize, no session; every request stands alone, so they share
            // one child.
            _ => {
                let body = parsed(text);
                if !modern::is_modern(&headers, &body) {
                    return Failure::new(
                        StatusCode::BAD_REQUEST,
                        "bridge",
                        "no-session",
                        "Bad Request: no Mcp-Session-Id header; a 2025-11-25 session starts with \
                         initialize (a 2026-07-28 request names its revision in \
                         MCP-Protocol-Version and params._meta)",
                    )
                    .with_code(INVALID_REQUEST)
                    .response_for(request_id(&kind));
                }
                if let Err(refusal) = modern::check_request(&headers, &body) {
                    return refusal.into_failure().response_for(request_id(&kind));
                }
                let params = app
                    .param_headers
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .check(&headers, &body);
                if let Err(why) = params {
                    return modern::Refusal::header_mismatch(why)
                        .into_failure()
                        .response_for(request_id(&kind));
                }
                match app.sessionless_session().await {
                    Ok(session) => (session, false),
                    Err(failure) => return failure.response_for(request_id(&kind)),
                }
            }
        },
    };
    session.touch();

    let Kind::Request { id, method } = kind else {
        // A notification, or the client's answer to the child's request: written, accepted.
        let mut response = match session.child.write_line(&line).await {
            Ok(()) => StatusCode::ACCEPTED.into_response(),
            Err(error) => stdin_failure(&session, &error).response_for("null"),
        };
        name_record(&mut response, &session);
        return response;
    };
    // A 2026-07-28 answer keeps JSON: its errors carry HTTP statuses.
    let stream_first = !session.sessionless
        && app.options.answers == Answers::Sse
        && accepts_event_stream(&headers);
    let mut response = relay_request(&app, &session, &line, &id, &method, stream_first).await;
    name_record(&mut response, &session);
    if new {
        if response.status() == StatusCode::OK {
            if let Ok(value) = HeaderValue::from_str(&session.id) {
                response.headers_mut().insert(SESSION_ID, value);
            }
        } else {
            app.end_session(&session.id, "initialize failed").await;
        }
    }
    response
}

/// GET: the stream of the child's requests and notifications that no POST carries.
pub async fn get(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let Some(id) = session_id(&headers) else {
        if modern::modern_version(&headers).is_some() {
            return not_in_modern_era("GET");
        }
        return error_response(
            StatusCode::BAD_REQUEST,
            INVALID_REQUEST,
            "Bad Request: no Mcp-Session-Id header",
        );
    };
    let session = match live_session(&app, id) {
        Ok(session) => session,
        Err(failure) => return failure.response_for("null"),
    };
    session.touch();
    let Some(rx) = session.open_get_stream() else {
        return error_response(
            StatusCode::CONFLICT,
            INVALID_REQUEST,
            "Conflict: this session's GET stream is already open",
        );
    };
    let events = UnboundedReceiverStream::new(rx).map(|text| Ok::<_, Infallible>(event(&text)));
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// DELETE: ends the session; its child is gone when the answer comes.
pub async fn delete(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let Some(id) = session_id(&headers) else {
        if modern::modern_version(&headers).is_some() {
            return not_in_modern_era("DELETE");
        }
        return error_response(
            StatusCode::BAD_REQUEST,
            INVALID_REQUEST,
            "Bad Request: no Mcp-Session-Id header",
        );
    };
    if app.end_session(id, "DELETE").await {
        StatusCode::OK.into_response()
    } else {
        not_found().response_for("null")
    }
}

/// Names the record of the child that handled the request (`GET legs?session=ID`).
fn name_record(response: &mut Response, session: &Session) {
    if let Ok(value) = HeaderValue::from_str(&session.id) {
        response.headers_mut().insert(RECORD_SESSION, value);
    }
}

/// Whether the client's `Accept` lists `text/event-stream`.
fn accepts_event_stream(headers: &HeaderMap) -> bool {
    headers
        .get_all(axum::http::header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|kind| {
            kind.split(';')
                .next()
                .is_some_and(|kind| kind.trim().eq_ignore_ascii_case("text/event-stream"))
        })
}

/// The body as JSON (it was checked to be JSON already), for the era rules.
fn parsed(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_default()
}

/// The id of a request (as JSON text), `null` for other messages.
fn request_id(kind: &Kind) -> &str {
    match kind {
        Kind::Request { id, .. } => id,
        _ => "null",
    }
}

/// 2026-07-28 has no GET stream and no DELETE: 405, POST allowed.
fn not_in_modern_era(method: &str) -> Response {
    let mut response = error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        INVALID_REQUEST,
        format!("Method Not Allowed: 2026-07-28 has no sessions, so no {method}; use POST"),
    );
    response
        .headers_mut()
        .insert(axum::http::header::ALLOW, HeaderValue::from_static("POST"));
    response
}

fn session_id(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(SESSION_ID)
        .and_then(|value| value.to_str().ok())
}

/// The open session `id`; 404 when there is none, or when its child is gone (saying why: a
/// client then starts a new session).
fn live_session(app: &App, id: &str) -> Result<Arc<Session>, Failure> {
    let Some(session) = app.session(id) else {
        return Err(not_found());
    };
    if let Some(ended) = session.ended() {
        let mut failure = ended;
        failure.status = StatusCode::NOT_FOUND;
        failure.message = format!("Session ended: {}", failure.message);
        return Err(failure);
    }
    Ok(session)
}

fn not_found() -> Failure {
    Failure::new(
        StatusCode::NOT_FOUND,
        "bridge",
        "session-not-found",
        "Session not found: it ended or never existed; start a new one with initialize",
    )
}

/// Writes a request to the child and answers with what the child sends for it.
async fn relay_request(
    app: &App,
    session: &Session,
    line: &str,
    id: &str,
    method: &str,
    stream_first: bool,
) -> Response {
    let mut open = match session.open_request(id, method) {
        Ok(open) => open,
        Err(failure) => return failure.response_for(id),
    };
    if let Err(error) = session.child.write_line(line).await {
        // Most likely the child is gone: its exit, when it comes, says more than the pipe.
        return match tokio::time::timeout(WRITE_FAILURE_WAIT, open.rx.recv()).await {
            Ok(Some(Delivery::Failed(failure))) => failure.response_for(id),
            _ => stdin_failure(session, &error).response_for(id),
        };
    }
    let timeout = app.options.timeout();
    // 2026-07-28: the tools' `Mcp-Param-*` headers are learnt from their list.
    let tool_list =
        (session.sessionless && method == "tools/list").then(|| Arc::clone(&app.param_headers));
    match tokio::time::timeout(timeout, open.rx.recv()).await {
        Err(_) => timed_out(session, method, id, timeout).response_for(id),
        Ok(None) => gone(session).response_for(id),
        Ok(Some(Delivery::Response(text))) => {
            learn(tool_list.as_deref(), &text);
            if stream_first {
                let only = futures::stream::once(async move { Ok::<_, Infallible>(event(&text)) });
                return Sse::new(only).into_response();
            }
            let status = if session.sessionless {
                modern::status_of(&text)
            } else {
                StatusCode::OK
            };
            json_response(status, text)
        }
        Ok(Some(Delivery::Failed(failure))) => failure.response_for(id),
        Ok(Some(Delivery::Interim(text))) => {
            let answer = Answer {
                open,
                first: Some(text),
                id: id.to_owned(),
                method: method.to_owned(),
                timeout,
                record: Arc::clone(&session.record),
                tool_list,
            };
            Sse::new(answer.events()).into_response()
        }
    }
}

/// The SSE answer to a POST: the child's interim messages, then the response (or an error
/// response naming the leg that failed).
struct Answer {
    open: OpenRequest,
    first: Option<String>,
    id: String,
    method: String,
    timeout: Duration,
    record: Arc<crate::record::Record>,
    /// Where a `tools/list` answer's `Mcp-Param-*` headers are learnt (2026-07-28).
    tool_list: Option<Arc<Mutex<ParamHeaders>>>,
}

impl Answer {
    fn events(self) -> impl Stream<Item = Result<Event, Infallible>> {
        futures::stream::unfold(Some(self), |state| async move {
            let mut answer = state?;
            if let Some(text) = answer.first.take() {
                return Some((Ok(event(&text)), Some(answer)));
            }
            let (text, more) =
                match tokio::time::timeout(answer.timeout, answer.open.rx.recv()).await {
                    Ok(Some(Delivery::Interim(text))) => (text, true),
                    Ok(Some(Delivery::Response(text))) => {
                        learn(answer.tool_list.as_deref(), &text);
                        (text, false)
                    }
                    Ok(Some(Delivery::Failed(failure))) => (failure.message_for(&answer.id), false),
                    Ok(None) => return None,
                    Err(_) => {
                        let failure = timed_out_with(
                            &answer.record.stderr_tail(),
                            &answer.method,
                            &answer.id,
                            answer.timeout,
                        );
                        (failure.message_for(&answer.id), false)
                    }
                };
            Some((Ok(event(&text)), more.then_some(answer)))
        })
    }
}

/// A `tools/list` answer's tools, for the `Mcp-Param-*` checks of later calls.
fn learn(tool_list: Option<&Mutex<ParamHeaders>>, answer: &str) {
    if let Some(known) = tool_list {
        known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .learn(answer);
    }
}

/// One message as an SSE event. Lines carry no line feed; a carriage return (JSON white
/// space) would end an SSE line, so it becomes a space.
fn event(text: &str) -> Event {
    if text.contains('\r') {
        Event::default().data(text.replace('\r', " "))
    } else {
        Event::default().data(text)
    }
}

fn timed_out(session: &Session, method: &str, id: &str, timeout: Duration) -> Failure {
    timed_out_with(&session.record.stderr_tail(), method, id, timeout)
}

fn timed_out_with(stderr_tail: &[String], method: &str, id: &str, timeout: Duration) -> Failure {
    let stderr = if stderr_tail.is_empty() {
        "it wrote nothing to stderr".to_owned()
    } else {
        format!("its last stderr lines: {}", stderr_tail.join(" | "))
    };
    Failure::new(
        StatusCode::GATEWAY_TIMEOUT,
        "stdio",
        "timeout",
        format!(
            "The server did not answer {method} (id {id}) within {} s (--timeout); {stderr}",
            timeout.as_secs()
        ),
    )
    .with("stderr_tail", stderr_tail)
}

fn stdin_failure(session: &Session, error: &std::io::Error) -> Failure {
    if let Some(ended) = session.ended() {
        return ended;
    }
    Failure::new(
        StatusCode::BAD_GATEWAY,
        "stdio",
        "stdin-closed",
        format!("Cannot write to the server's stdin: {error}"),
    )
}

fn gone(session: &Session) -> Failure {
    session.ended().unwrap_or_else(|| {
        Failure::new(
            StatusCode::BAD_GATEWAY,
            "bridge",
            "session-ended",
            "The session ended before the server answered",
        )
    })
}
