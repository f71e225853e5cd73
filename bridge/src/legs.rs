//! The side endpoint that shows the page the second leg: `GET /s/SECRET/legs` lists the
//! sessions, `GET /s/SECRET/legs?session=ID[&since=N]` gives one session's record from entry N.

use std::sync::Arc;

use axum::{
    Json,
    extract::{Query, State},
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{app::App, forward::Forward, session::Session};

#[derive(Deserialize)]
pub struct LegsQuery {
    session: Option<String>,
    #[serde(default)]
    since: u64,
}

pub async fn legs(State(app): State<Arc<App>>, Query(query): Query<LegsQuery>) -> Response {
    let Some(id) = query.session else {
        let sessions: Vec<Value> = app
            .all_sessions()
            .iter()
            .map(|s| summary(&app, s))
            .collect();
        return Json(json!({
            "mode": "stdio",
            "command": app.launch.command,
            "sessions": sessions,
        }))
        .into_response();
    };
    let Some(session) = app.any_session(&id) else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({ "error": format!("no session {id} (sessions ended long ago are forgotten)") })),
        )
            .into_response();
    };
    let mut body = summary(&app, &session);
    body["stderr_dropped_lines"] = json!(session.record.stderr_dropped());
    let entries = session.record.entries_since(query.since);
    body["next"] = json!(entries.last().map_or(query.since, |entry| entry.seq + 1));
    body["entries"] = json!(entries);
    Json(body).into_response()
}

fn summary(app: &App, session: &Session) -> Value {
    json!({
        "session": session.id,
        "open": app.session(&session.id).is_some(),
        "sessionless": session.sessionless,
        "pid": session.child.pid,
        "command": app.launch.command,
        "started_at_ms": session.started_at_ms,
        "exit": session.child.exit(),
        "next": session.record.len(),
    })
}

#[derive(Deserialize)]
pub struct ExchangesQuery {
    #[serde(default)]
    since: u64,
}

/// The http mode's record: `GET /s/SECRET/legs[?since=N]`, the upstream exchanges from N on.
pub async fn exchanges(
    State(forward): State<Arc<Forward>>,
    Query(query): Query<ExchangesQuery>,
) -> Response {
    let exchanges = forward.exchanges.since(query.since);
    Json(json!({
        "mode": "http",
        "upstream": forward.upstream.as_str(),
        "next": forward.exchanges.next_seq(),
        "exchanges": exchanges,
    }))
    .into_response()
}
