//! Dynamic client registration (RFC 7591), `POST /oauth/register`: JSON in, `201` with a new
//! `client_id` (and a `client_secret` unless the client is public) out.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::{
    extract::{Request, State},
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::auth::{
    Auth,
    params::read_body,
    server::redirects::check_redirect_uri,
    server::reply::{OAuthError, json_no_store},
    server::store::{Client, ClientAuth, Redirects},
    types::{ClientId, Fingerprint, Scopes, random_secret},
};

const MAX_NAME_CHARS: usize = 200;
/// The largest registration read: a client's metadata is a few hundred bytes.
pub const MAX_REGISTRATION_BYTES: usize = 16 * 1024;
/// The most redirect URIs one client registers, and the longest each may be.
pub const MAX_REDIRECT_URIS: usize = 8;
pub const MAX_REDIRECT_URI_CHARS: usize = 1024;

#[derive(Deserialize)]
struct Registration {
    redirect_uris: Option<Vec<String>>,
    client_name: Option<String>,
    token_endpoint_auth_method: Option<String>,
    grant_types: Option<Vec<String>>,
    response_types: Option<Vec<String>>,
    application_type: Option<String>,
    scope: Option<String>,
}

/// `POST /oauth/register`.
pub async fn register(State(auth): State<Auth>, request: Request) -> Response {
    match registered(&auth, request).await {
        Ok(body) => json_no_store(StatusCode::CREATED, &body),
        Err(error) => error.into_response(),
    }
}

async fn registered(auth: &Auth, request: Request) -> Result<Value, OAuthError> {
    let body = read_body(
        request.into_body(),
        MAX_REGISTRATION_BYTES.min(auth.max_body),
    )
    .await
    .map_err(|status| {
        let mut error = OAuthError::new("invalid_client_metadata", "the body could not be read");
        error.status = status;
        error
    })?;
    let form: Registration = serde_json::from_slice(&body)
        .map_err(|e| metadata_error(format!("the body is not registration JSON: {e}")))?;

    let redirect_uris = form.redirect_uris.unwrap_or_default();
    if redirect_uris.is_empty() {
        return Err(OAuthError::new(
            "invalid_redirect_uri",
            "redirect_uris is required and may not be empty",
        ));
    }
    if redirect_uris.len() > MAX_REDIRECT_URIS {
        return Err(OAuthError::new(
            "invalid_redirect_uri",
            format!("at most {MAX_REDIRECT_URIS} redirect_uris may be registered"),
        ));
    }
    for uri in &redirect_uris {
        if uri.len() > MAX_REDIRECT_URI_CHARS {
            return Err(OAuthError::new(
                "invalid_redirect_uri",
                format!("a redirect URI may be at most {MAX_REDIRECT_URI_CHARS} characters"),
            ));
        }
        check_redirect_uri(uri).map_err(|why| OAuthError::new("invalid_redirect_uri", why))?;
    }
    let method = form
        .token_endpoint_auth_method
        .unwrap_or_else(|| "client_secret_basic".to_owned());
    let grant_types = form
        .grant_types
        .unwrap_or_else(|| vec!["authorization_code".into(), "refresh_token".into()]);
    if !grant_types.iter().any(|g| g == "authorization_code")
        || grant_types
            .iter()
            .any(|g| g != "authorization_code" && g != "refresh_token")
    {
        return Err(metadata_error(
            "grant_types must include authorization_code and may add only refresh_token",
        ));
    }
    let response_types = form.response_types.unwrap_or_else(|| vec!["code".into()]);
    if response_types != ["code"] {
        return Err(metadata_error("response_types must be [\"code\"]"));
    }
    let application_type = form.application_type.unwrap_or_else(|| "web".to_owned());
    if application_type != "native" && application_type != "web" {
        return Err(metadata_error(
            "application_type must be \"native\" or \"web\"",
        ));
    }
    if let Some(scope) = &form.scope {
        Scopes::parse(scope)
            .map_err(|unknown| metadata_error(format!("unknown scope {unknown:?}")))?;
    }
    let name = form
        .client_name
        .map(|name| name.chars().take(MAX_NAME_CHARS).collect::<String>());

    let id = random_secret().ok_or_else(OAuthError::unavailable)?;
    let id = ClientId(format!("dcr-{}", &id[..22]));
    let secret = match method.as_str() {
        "none" => None,
        "client_secret_basic" | "client_secret_post" => {
            Some(random_secret().ok_or_else(OAuthError::unavailable)?)
        }
        other => {
            return Err(metadata_error(format!(
                "token_endpoint_auth_method {other:?} is not supported (none, \
                 client_secret_basic, client_secret_post)"
            )));
        }
    };
    let client_auth = match (&secret, method.as_str()) {
        (Some(s), "client_secret_post") => ClientAuth::SecretPost(Fingerprint::of(s)),
        (Some(s), _) => ClientAuth::SecretBasic(Fingerprint::of(s)),
        (None, _) => ClientAuth::None,
    };
    let refresh = grant_types.iter().any(|g| g == "refresh_token");
    auth.store.register(Client {
        id: id.clone(),
        name: name.clone(),
        auth: client_auth,
        redirects: Redirects::Listed(redirect_uris.clone()),
        refresh,
    });
    tracing::info!(client_id = %id, method, secret = secret.is_some(), "registered a client");

    let issued_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let mut body = json!({
        "client_id": id.as_str(),
        "client_id_issued_at": issued_at,
        "redirect_uris": redirect_uris,
        "grant_types": grant_types,
        "response_types": response_types,
        "token_endpoint_auth_method": method,
        "application_type": application_type,
    });
    if let Some(name) = name {
        body["client_name"] = json!(name);
    }
    if let Some(scope) = form.scope {
        body["scope"] = json!(scope);
    }
    if let Some(secret) = secret {
        body["client_secret"] = json!(secret);
        body["client_secret_expires_at"] = json!(0);
    }
    Ok(body)
}

fn metadata_error(description: impl Into<String>) -> OAuthError {
    OAuthError::new("invalid_client_metadata", description)
}
