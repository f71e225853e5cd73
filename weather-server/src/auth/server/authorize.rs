//! The authorization endpoint, `GET /oauth/authorize`, and the consent page's answer,
//! `POST /oauth/authorize/decision`. Until the client and its redirect URI are known to be
//! good, errors are a page; after, they go back to the client with `state` and `iss`
//! (RFC 6749 §4.1.2.1, RFC 9207). Success is a single-use code bound to the client, the
//! redirect URI, the PKCE challenge, the resource and the scope.

use axum::{
    Extension,
    extract::{Request, State},
    http::{HeaderMap, StatusCode},
    response::Response,
};

use crate::auth::{
    Auth,
    params::{Params, Repeated, read_body},
    server::clients,
    server::consent,
    server::reply::{error_page, redirect},
    server::store::{Code, Grant, Pending},
    site::Site,
    types::{MCP_BASIC, Scopes, is_pkce_value},
};

/// An error sent back to the client: `error` and `error_description`.
type Refusal = (&'static str, String);

/// The longest `state` held for a client (it is echoed back in the redirect).
pub const MAX_STATE_CHARS: usize = 512;

/// The authorization endpoint is a page a user opens. A browser says what a request is for
/// (`Sec-Fetch-Mode`, `Sec-Fetch-Dest`): anything but a top-level navigation (an image, a
/// script, a `fetch` from another site's page) is refused before any client is looked up, so
/// no page can make this server fetch a metadata document or hold a request behind the user's
/// back. Programs that send neither header (a command-line client) are served.
fn navigated(headers: &HeaderMap) -> Result<(), String> {
    let value = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let mode = value("sec-fetch-mode");
    let dest = value("sec-fetch-dest");
    if mode.is_some_and(|m| m != "navigate") || dest.is_some_and(|d| d != "document") {
        return Err(format!(
            "the authorization endpoint is a page to open, not a resource to fetch \
             (Sec-Fetch-Mode {}, Sec-Fetch-Dest {})",
            mode.unwrap_or("absent"),
            dest.unwrap_or("absent")
        ));
    }
    Ok(())
}

/// `GET /oauth/authorize`.
pub async fn authorize(
    State(auth): State<Auth>,
    Extension(site): Extension<Site>,
    request: Request,
) -> Response {
    if let Err(why) = navigated(request.headers()) {
        return bad_page("invalid_request", &why);
    }
    let params = Params::parse(request.uri().query().unwrap_or_default().as_bytes());
    let (client_id, redirect_uri) = match params.get_all(["client_id", "redirect_uri"]) {
        Ok([Some(client_id), Some(redirect_uri)]) => (client_id, redirect_uri),
        Ok([None, _]) => return bad_page("invalid_request", "client_id is required"),
        Ok([_, None]) => return bad_page("invalid_request", "redirect_uri is required"),
        Err(Repeated(name)) => return bad_page("invalid_request", &format!("{name} is repeated")),
    };
    let client = match clients::resolve(&auth.store, &auth.documents, client_id).await {
        Ok(client) => client,
        Err(why) => return bad_page("invalid_client", &why),
    };
    if !client.allows_redirect(redirect_uri) {
        return bad_page(
            "invalid_request",
            &format!("redirect_uri {redirect_uri:?} is not registered for client {client_id:?}"),
        );
    }
    let issuer = site.issuer();
    let state = params.get("state").ok().flatten();
    if state.is_some_and(|s| s.len() > MAX_STATE_CHARS) {
        return bad_page(
            "invalid_request",
            &format!("state may be at most {MAX_STATE_CHARS} characters"),
        );
    }
    let pending = match checked(&auth, &site, &params) {
        Ok((scope, resource, challenge)) => Pending {
            grant: Grant {
                client,
                scope,
                resource,
            },
            redirect_uri: redirect_uri.to_owned(),
            challenge,
            state: state.map(str::to_owned),
            issuer,
        },
        Err((error, description)) => {
            return refuse(redirect_uri, state, &issuer, error, &description);
        }
    };
    tracing::info!(
        client_id,
        scope = %pending.grant.scope,
        resource = pending.grant.resource,
        "authorization request"
    );
    if auth.auto_approve {
        return approve(&auth, pending);
    }
    match auth.store.hold(pending.clone()) {
        Ok(request_id) => consent::page(&pending, &request_id),
        Err(_) => refuse(
            redirect_uri,
            state,
            &pending.issuer,
            "temporarily_unavailable",
            "too many authorization requests are waiting",
        ),
    }
}

/// The request's scope, resource and PKCE challenge, or why it is refused.
fn checked(auth: &Auth, site: &Site, params: &Params) -> Result<(Scopes, String, String), Refusal> {
    let [response_type, challenge, method, resource, scope, _state] = params
        .get_all([
            "response_type",
            "code_challenge",
            "code_challenge_method",
            "resource",
            "scope",
            "state",
        ])
        .map_err(|Repeated(name)| ("invalid_request", format!("{name} is repeated")))?;
    match response_type {
        Some("code") => {}
        Some(other) => {
            return Err((
                "unsupported_response_type",
                format!("response_type {other:?}: only \"code\" is supported"),
            ));
        }
        None => return Err(("invalid_request", "response_type is required".to_owned())),
    }
    let challenge = challenge.filter(|c| is_pkce_value(c)).ok_or((
        "invalid_request",
        "a code_challenge (PKCE, RFC 7636) is required".to_owned(),
    ))?;
    if method != Some("S256") {
        return Err((
            "invalid_request",
            "code_challenge_method must be S256".to_owned(),
        ));
    }
    let resource = match resource {
        Some(resource) if auth.gate.is_own_resource(resource, site) => resource.to_owned(),
        Some(resource) => {
            return Err((
                "invalid_target",
                format!(
                    "resource {resource:?} is not served here; this server's resource is {}",
                    site.resource()
                ),
            ));
        }
        None => site.resource(),
    };
    let scope = match scope.map(Scopes::parse) {
        None => Scopes::of(&[MCP_BASIC]),
        Some(Ok(scope)) if scope.is_empty() => Scopes::of(&[MCP_BASIC]),
        Some(Ok(scope)) => scope,
        Some(Err(unknown)) => {
            return Err(("invalid_scope", format!("unknown scope {unknown:?}")));
        }
    };
    Ok((scope, resource, challenge.to_owned()))
}

/// `POST /oauth/authorize/decision`: `request` (the held id) and `decision`
/// (`approve` or `deny`).
pub async fn decide(State(auth): State<Auth>, request: Request) -> Response {
    let body = match read_body(request.into_body(), auth.max_body).await {
        Ok(body) => body,
        Err(status) => return error_page(status, "invalid_request", "the form could not be read"),
    };
    let params = Params::parse(&body);
    let Ok([Some(id), decision]) = params.get_all(["request", "decision"]) else {
        return bad_page("invalid_request", "the form names no authorization request");
    };
    let Some(pending) = auth.store.decide(id) else {
        return bad_page(
            "invalid_request",
            "this authorization request is unknown, already answered or expired; start again \
             from the client",
        );
    };
    if decision == Some("approve") {
        return approve(&auth, pending);
    }
    tracing::info!(client_id = %pending.grant.client.id, "authorization denied");
    refuse(
        &pending.redirect_uri,
        pending.state.as_deref(),
        &pending.issuer,
        "access_denied",
        "the user denied the request",
    )
}

/// Issues the code and sends the client back with it.
fn approve(auth: &Auth, pending: Pending) -> Response {
    let Pending {
        grant,
        redirect_uri,
        challenge,
        state,
        issuer,
    } = pending;
    let client_id = grant.client.id.clone();
    let code = Code {
        grant,
        redirect_uri: redirect_uri.clone(),
        challenge,
    };
    match auth.store.issue_code(code) {
        Ok(code) => {
            tracing::info!(%client_id, "authorization approved: code issued");
            let mut params = vec![("code", code.as_str())];
            if let Some(state) = &state {
                params.push(("state", state));
            }
            params.push(("iss", &issuer));
            redirect(&redirect_uri, &params)
        }
        Err(_) => refuse(
            &redirect_uri,
            state.as_deref(),
            &issuer,
            "temporarily_unavailable",
            "too many codes are outstanding",
        ),
    }
}

/// Sends the client back with an error.
fn refuse(
    redirect_uri: &str,
    state: Option<&str>,
    issuer: &str,
    error: &str,
    description: &str,
) -> Response {
    let mut params = vec![("error", error), ("error_description", description)];
    if let Some(state) = state {
        params.push(("state", state));
    }
    params.push(("iss", issuer));
    redirect(redirect_uri, &params)
}

fn bad_page(error: &str, message: &str) -> Response {
    error_page(StatusCode::BAD_REQUEST, error, message)
}
