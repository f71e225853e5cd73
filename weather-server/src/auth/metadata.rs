//! The two discovery documents: the protected resource's (RFC 9728), naming this origin (or
//! `--auth-issuer`) as its authorization server, and the authorization server's (RFC 8414), both built from the
//! request's Host.

use axum::{
    Extension, Json,
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use serde_json::{Value, json};

use super::{AUTHORIZE_PATH, Auth, REGISTER_PATH, TOKEN_PATH, site::Site, types::SUPPORTED_SCOPES};

/// `GET /.well-known/oauth-protected-resource/mcp`.
pub async fn protected_resource(
    State(auth): State<Auth>,
    Extension(site): Extension<Site>,
) -> Json<Value> {
    Json(json!({
        "resource": site.resource(),
        "authorization_servers": [auth.issuer_of(&site)],
        "scopes_supported": SUPPORTED_SCOPES,
        "bearer_methods_supported": ["header"],
        "resource_name": "MCP Flow weather server",
    }))
}

/// `GET /.well-known/oauth-authorization-server` and `/.well-known/openid-configuration`.
pub async fn authorization_server(Extension(site): Extension<Site>) -> Json<Value> {
    let issuer = site.issuer();
    Json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}{AUTHORIZE_PATH}"),
        "token_endpoint": format!("{issuer}{TOKEN_PATH}"),
        "registration_endpoint": format!("{issuer}{REGISTER_PATH}"),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
        "scopes_supported": SUPPORTED_SCOPES,
        "client_id_metadata_document_supported": true,
        "authorization_response_iss_parameter_supported": true,
    }))
}

/// Any other `/.well-known/…` path: 404 JSON, so that a client probing for metadata is not
/// answered by the static app's `index.html`.
pub async fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "application/json")],
        json!({ "error": "not_found", "error_description": "no such metadata document" })
            .to_string(),
    )
        .into_response()
}
