//! The token endpoint, `POST /oauth/token` (form-encoded): the `authorization_code` grant
//! (client, redirect URI, PKCE S256 verifier and resource checked against the code) and the
//! `refresh_token` grant (the refresh token is replaced on every use; the scope may narrow;
//! the resource stays). Answers are JSON with `Cache-Control: no-store`.

use axum::{
    extract::{Request, State},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde_json::json;

use crate::auth::{
    Auth,
    params::{Params, Repeated, read_body},
    server::client_auth::Presented,
    server::reply::{OAuthError, json_no_store},
    server::store::{Issued, Redeem, RefreshError},
    types::{Scopes, is_pkce_value, pkce_s256_matches},
};

/// `POST /oauth/token`.
pub async fn token(State(auth): State<Auth>, request: Request) -> Response {
    match issue(&auth, request).await {
        Ok(issued) => {
            let mut body = json!({
                "access_token": issued.access_token,
                "token_type": "Bearer",
                "expires_in": issued.expires_in,
                "scope": issued.scope.to_string(),
            });
            if let Some(refresh) = issued.refresh_token {
                body["refresh_token"] = json!(refresh);
            }
            json_no_store(StatusCode::OK, &body)
        }
        Err(error) => {
            tracing::info!(
                error = error.error,
                description = error.description,
                "token request refused"
            );
            error.into_response()
        }
    }
}

async fn issue(auth: &Auth, request: Request) -> Result<Issued, OAuthError> {
    let (parts, body) = request.into_parts();
    if !is_form(&parts.headers) {
        return Err(invalid_request(
            "the body must be application/x-www-form-urlencoded",
        ));
    }
    let body = read_body(body, auth.max_body).await.map_err(|status| {
        let mut error = invalid_request("the body could not be read");
        error.status = status;
        error
    })?;
    let params = Params::parse(&body);
    let presented = Presented::read(&parts.headers, &params)?;
    match params.get("grant_type").map_err(repeated)? {
        Some("authorization_code") => code_grant(auth, &params, &presented),
        Some("refresh_token") => refresh_grant(auth, &params, &presented),
        Some(other) => Err(OAuthError::new(
            "unsupported_grant_type",
            format!("grant_type {other:?}: authorization_code and refresh_token are supported"),
        )),
        None => Err(invalid_request("grant_type is required")),
    }
}

fn code_grant(auth: &Auth, params: &Params, presented: &Presented) -> Result<Issued, OAuthError> {
    let [code, redirect_uri, verifier, resource] = params
        .get_all(["code", "redirect_uri", "code_verifier", "resource"])
        .map_err(repeated)?;
    let code = code.ok_or_else(|| invalid_request("code is required"))?;
    // Spent by this attempt whatever follows: a code cannot be retried (e.g. verifier guessing).
    // One that already issued tokens revokes them.
    let record = auth
        .store
        .redeem_code(code)
        .map_err(|redeem| match redeem {
            Redeem::Unknown => invalid_grant("the code is unknown, used or expired"),
            Redeem::Replayed => invalid_grant(
                "the code was already redeemed: the tokens it issued are revoked (RFC 6749 §4.1.2)",
            ),
        })?;
    presented.authenticate(&record.grant.client)?;
    match redirect_uri {
        None => return Err(invalid_request("redirect_uri is required")),
        Some(uri) if uri != record.redirect_uri => {
            return Err(invalid_grant(
                "redirect_uri differs from the authorization request's",
            ));
        }
        Some(_) => {}
    }
    let verifier = verifier.ok_or_else(|| invalid_request("code_verifier is required (PKCE)"))?;
    if !is_pkce_value(verifier) || !pkce_s256_matches(verifier, &record.challenge) {
        return Err(invalid_grant(
            "code_verifier does not match the code_challenge",
        ));
    }
    if let Some(resource) = resource
        && resource != record.grant.resource
    {
        return Err(invalid_target(&record.grant.resource));
    }
    let client_id = record.grant.client.id.clone();
    let issued = auth
        .store
        .issue_tokens(code, record.grant)
        .map_err(|_| OAuthError::unavailable())?;
    tracing::info!(%client_id, scope = %issued.scope, refresh = issued.refresh_token.is_some(),
        "tokens issued for a code");
    Ok(issued)
}

fn refresh_grant(
    auth: &Auth,
    params: &Params,
    presented: &Presented,
) -> Result<Issued, OAuthError> {
    let [token, scope, resource] = params
        .get_all(["refresh_token", "scope", "resource"])
        .map_err(repeated)?;
    let token = token.ok_or_else(|| invalid_request("refresh_token is required"))?;
    let requested = scope.map(Scopes::parse).transpose().map_err(|unknown| {
        OAuthError::new("invalid_scope", format!("unknown scope {unknown:?}"))
    })?;
    let issued = auth
        .store
        .refresh(token, |grant| {
            presented.authenticate(&grant.client)?;
            if let Some(resource) = resource
                && resource != grant.resource
            {
                return Err(invalid_target(&grant.resource));
            }
            match requested {
                Some(scope) if !scope.is_empty() => {
                    if grant.scope.contains_all(&scope) {
                        Ok(scope)
                    } else {
                        Err(OAuthError::new(
                            "invalid_scope",
                            format!("the refresh token was granted {}; ask no more", grant.scope),
                        ))
                    }
                }
                _ => Ok(grant.scope.clone()),
            }
        })
        .map_err(|error| match error {
            RefreshError::Unknown => invalid_grant("the refresh token is unknown or expired"),
            RefreshError::Replayed => invalid_grant(
                "the refresh token was already used: every token of its grant is revoked \
                 (RFC 9700 §4.14.2)",
            ),
            RefreshError::Refused(error) => error,
            RefreshError::Unavailable => OAuthError::unavailable(),
        })?;
    tracing::info!(scope = %issued.scope, "tokens refreshed");
    Ok(issued)
}

fn is_form(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| {
            essence
                .trim()
                .eq_ignore_ascii_case("application/x-www-form-urlencoded")
        })
}

fn invalid_request(description: &str) -> OAuthError {
    OAuthError::new("invalid_request", description)
}

fn invalid_grant(description: &str) -> OAuthError {
    OAuthError::new("invalid_grant", description)
}

fn invalid_target(resource: &str) -> OAuthError {
    OAuthError::new(
        "invalid_target",
        format!("resource differs from the grant's ({resource})"),
    )
}

fn repeated(Repeated(name): Repeated) -> OAuthError {
    invalid_request(&format!("{name} is repeated"))
}
