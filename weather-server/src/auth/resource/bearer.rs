//! The guard of the protected resource `/mcp`: every request (any method) needs a live access
//! token issued for this very resource (`http://<Host>/mcp`) with `mcp:basic`; whatever gives a
//! weather report needs `weather:read` as well (calling `get_weather`, reading a city's report
//! resource, getting the `weather_report` prompt that embeds it). No token: 401 naming the
//! resource metadata; a bad one: 401 `invalid_token`; too few scopes: 403 `insufficient_scope`
//! (RFC 6750 §3). A 2025-11-25 session belongs to the client whose token opened it: another
//! client's token does not reach it.

use axum::{
    body::Body,
    extract::{Request, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use serde_json::{Value, json};

use crate::auth::{
    Auth,
    params::read_body,
    resource::issuer::Refused,
    server::records::Access,
    site::Site,
    types::{MCP_BASIC, Scopes, WEATHER_READ},
};
use crate::handlers::weather::TOOL_NAME;
use crate::http::journal::Caller;

/// What the Authorization header holds.
#[derive(Debug, PartialEq, Eq)]
enum Credential<'a> {
    /// No header, or another scheme.
    Missing,
    Bearer(&'a str),
    /// A Bearer header that is not one token, or the header repeated.
    Malformed,
}

/// Middleware in front of `/mcp` (outside the request guard).
pub async fn require_token(State(auth): State<Auth>, mut request: Request, next: Next) -> Response {
    let site = match auth.gate.site(request.headers(), request.uri()) {
        Ok(site) => site,
        Err(refused) => return refused.into_response(),
    };
    if let Err(refused) = auth.gate.check_origin(request.headers(), &site) {
        return refused.into_response();
    }
    let access = match credential(request.headers()) {
        Credential::Missing => {
            return challenge(
                &site,
                None,
                "this MCP endpoint needs an OAuth access token (Authorization: Bearer)",
            );
        }
        Credential::Malformed => {
            return challenge(
                &site,
                Some("invalid_token"),
                "malformed Authorization header",
            );
        }
        Credential::Bearer(token) => match auth.access(token, &site).await {
            Ok(access) => access,
            Err(Refused::Token(why)) => return challenge(&site, Some("invalid_token"), &why),
            Err(Refused::Unavailable(why)) => {
                tracing::warn!("cannot check tokens: {why}");
                return (
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!("the authorization server's keys cannot be had: {why}"),
                )
                    .into_response();
            }
        },
    };
    tracing::debug!(client_id = %access.client, "bearer token present and valid");
    // Who asked: the journal keeps it, and shows a reader only its own client's requests.
    let caller = Caller(access.client.as_str().to_owned());
    request.extensions_mut().insert(caller.clone());

    let full = Scopes::of(&[MCP_BASIC, WEATHER_READ]);
    let mut required = Scopes::of(&[MCP_BASIC]);
    let request = if request.method() == Method::POST && !access.scope.contains_all(&full) {
        // Only the body says whether this is the one call that needs more.
        let (parts, body) = request.into_parts();
        let bytes = match read_body(body, auth.max_body).await {
            Ok(bytes) => bytes,
            Err(StatusCode::PAYLOAD_TOO_LARGE) => {
                return crate::http::jsonrpc::too_large(auth.max_body);
            }
            Err(status) => {
                return (status, "Bad Request: the body could not be read").into_response();
            }
        };
        if gives_report(&bytes) {
            required = full;
        }
        Request::from_parts(parts, Body::from(bytes))
    } else {
        request
    };
    if !access.scope.contains_all(&required) {
        return insufficient(&site, &required);
    }
    let session = session_of(request.headers());
    if let Some(session) = &session
        && !auth.owners.allows(session, &access.client)
    {
        tracing::info!(client_id = %access.client, "a session unknown to this token's client");
        return (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response();
    }
    let closing = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    response.extensions_mut().insert(caller);
    match (session, session_of(response.headers())) {
        (None, Some(opened)) => auth.owners.open(opened, access.client),
        (Some(session), _) if closing && response.status().is_success() => {
            auth.owners.close(&session)
        }
        _ => {}
    }
    response
}

fn session_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

impl Auth {
    /// What `token` grants at this site's resource: the built-in store's record, or the other
    /// issuer's JWT checked.
    async fn access(&self, token: &str, site: &Site) -> Result<Access, Refused> {
        let resource = site.resource();
        if let Some(issuer) = &self.issuer {
            let granted = issuer.verify(token, &resource).await?;
            return Ok(Access {
                client: granted.client,
                scope: granted.scope,
                resource,
            });
        }
        match self.store.access(token) {
            Some(access) if access.resource == resource => Ok(access),
            Some(_) => Err(Refused::Token(
                "the access token was issued for another resource".to_owned(),
            )),
            None => Err(Refused::Token(
                "the access token is unknown or expired".to_owned(),
            )),
        }
    }
}

fn credential(headers: &HeaderMap) -> Credential<'_> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Credential::Missing;
    };
    if values.next().is_some() {
        return Credential::Malformed;
    }
    let Ok(text) = value.to_str() else {
        return Credential::Malformed;
    };
    let Some((scheme, token)) = text.trim().split_once(' ') else {
        return if text.trim().eq_ignore_ascii_case("bearer") {
            Credential::Malformed
        } else {
            Credential::Missing
        };
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Credential::Missing;
    }
    let token = token.trim();
    // RFC 6750 §2.1 b64token.
    let body = token.trim_end_matches('=');
    if body.is_empty()
        || !body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
    {
        return Credential::Malformed;
    }
    Credential::Bearer(token)
}

/// Whether the JSON-RPC body (or any message of a batch) asks for a weather report: a call of
/// `get_weather`, a read of a city's report, the prompt that embeds one.
fn gives_report(body: &[u8]) -> bool {
    fn asks(message: &Value) -> bool {
        let param = |name: &str| {
            message
                .get("params")
                .and_then(|p| p.get(name))
                .and_then(Value::as_str)
        };
        match message.get("method").and_then(Value::as_str) {
            Some("tools/call") => param("name") == Some(TOOL_NAME),
            Some("resources/read") => {
                param("uri").is_some_and(crate::handlers::resources::is_report)
            }
            Some("prompts/get") => {
                param("name").is_some_and(crate::handlers::prompts::carries_report)
            }
            _ => false,
        }
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Array(messages)) => messages.iter().any(asks),
        Ok(message) => asks(&message),
        Err(_) => false,
    }
}

/// 401 with the resource metadata's address; `error` when a token was sent.
fn challenge(site: &Site, error: Option<&str>, description: &str) -> Response {
    let mut value = String::from("Bearer ");
    if let Some(error) = error {
        value.push_str(&format!("error=\"{error}\", "));
    }
    value.push_str(&format!(
        "resource_metadata=\"{}\", scope=\"{MCP_BASIC}\"",
        site.resource_metadata()
    ));
    let mut body = json!({ "error_description": description });
    if let Some(error) = error {
        body["error"] = json!(error);
    }
    answer(StatusCode::UNAUTHORIZED, value, &body)
}

/// 403 naming every scope the request needs.
fn insufficient(site: &Site, required: &Scopes) -> Response {
    let value = format!(
        "Bearer error=\"insufficient_scope\", scope=\"{required}\", resource_metadata=\"{}\"",
        site.resource_metadata()
    );
    let body = json!({
        "error": "insufficient_scope",
        "error_description": format!("this request needs the scopes {required}"),
    });
    answer(StatusCode::FORBIDDEN, value, &body)
}

fn answer(status: StatusCode, www_authenticate: String, body: &Value) -> Response {
    let mut response = (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response();
    // The value is built from a validated Host and fixed words, so it is always a valid header.
    if let Ok(value) = HeaderValue::from_str(&www_authenticate) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn auth_header(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn bearer_credentials() {
        assert_eq!(credential(&HeaderMap::new()), Credential::Missing);
        assert_eq!(credential(&auth_header("Basic abc")), Credential::Missing);
        assert_eq!(
            credential(&auth_header("bearer abc-_.~+/==")),
            Credential::Bearer("abc-_.~+/==")
        );
        assert_eq!(credential(&auth_header("Bearer")), Credential::Malformed);
        assert_eq!(
            credential(&auth_header("Bearer a b")),
            Credential::Malformed
        );
        assert_eq!(
            credential(&auth_header("Bearer ===")),
            Credential::Malformed
        );
    }

    #[test]
    fn whatever_gives_a_report_counts_and_nothing_else() {
        let reports: [&[u8]; 5] = [
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather"}}"#,
            br#"[{"method":"tools/list"},{"method":"tools/call","params":{"name":"get_weather"}}]"#,
            br#"{"method":"tools/call","params":{"name":"get\u005fweather"}}"#,
            br#"{"method":"resources/read","params":{"uri":"weather://city/Tokyo"}}"#,
            br#"{"method":"prompts/get","params":{"name":"weather_report","arguments":{"city":"Tokyo"}}}"#,
        ];
        for body in reports {
            assert!(gives_report(body), "{}", String::from_utf8_lossy(body));
        }
        let others: [&[u8]; 6] = [
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"get_weather"}}"#,
            br#"{"method":"resources/read","params":{"uri":"weather://cities"}}"#,
            br#"{"method":"resources/read","params":{"uri":"weather://icon.png"}}"#,
            br#"{"method":"prompts/list"}"#,
            br#"{"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"weather_report"}}}"#,
            b"not json",
        ];
        for body in others {
            assert!(!gives_report(body), "{}", String::from_utf8_lossy(body));
        }
    }
}
