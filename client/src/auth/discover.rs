//! Where the authorization flow learns about the server: the protected resource's metadata, the
//! authorization server's (or, in 2025-03-26, the MCP origin's own or its defaults), and the
//! requests it makes for them, each an exchange of the run's record.

use serde_json::Value;
use url::Url;

use super::error::AuthError;
use super::metadata::{
    ResourceMetadata, ServerMetadata, origin_of, parse_url, resource_metadata_urls,
    server_metadata_urls,
};
use super::{AuthStep, Challenge};
use crate::http::HttpRequest;
use crate::transport::{Fetched, FlowTransport};

pub(super) async fn resource_metadata(
    t: &dyn FlowTransport,
    mcp: &Url,
    challenge: &Challenge,
) -> Result<Option<ResourceMetadata>, AuthError> {
    let urls = resource_metadata_urls(mcp, challenge.resource_metadata.as_deref());
    for url in &urls {
        let got = get_json(t, url, AuthStep::ResourceMetadata).await?;
        if let Some(body) = got {
            let prm = serde_json::from_str::<ResourceMetadata>(&body).map_err(|e| {
                AuthError::Request {
                    step: "protected-resource metadata".into(),
                    detail: format!("{url} is not protected-resource metadata: {e}"),
                }
            })?;
            return Ok(Some(prm));
        }
    }
    if challenge.resource_metadata.is_some() {
        return Err(AuthError::NoResourceMetadata { tried: urls });
    }
    Ok(None)
}

pub(super) async fn server_metadata(
    t: &dyn FlowTransport,
    issuer: &str,
) -> Result<ServerMetadata, AuthError> {
    let issuer_url = parse_url(issuer, "the authorization server")?;
    let urls = server_metadata_urls(&issuer_url);
    for url in &urls {
        if let Some(body) = get_json(t, url, AuthStep::ServerMetadata).await? {
            let server =
                serde_json::from_str::<ServerMetadata>(&body).map_err(|e| AuthError::Request {
                    step: "authorization server metadata".into(),
                    detail: format!("{url} is not authorization server metadata: {e}"),
                })?;
            if server.issuer != issuer {
                return Err(AuthError::IssuerMismatch {
                    expected: issuer.to_owned(),
                    found: server.issuer,
                });
            }
            return Ok(server);
        }
    }
    Err(AuthError::Request {
        step: "authorization server metadata".into(),
        detail: format!("none found for {issuer} (tried {})", urls.join(", ")),
    })
}

/// No protected-resource metadata: MCP 2025-03-26's way, the MCP origin's own metadata, or
/// its default endpoints.
pub(super) async fn fallback_metadata(
    t: &dyn FlowTransport,
    mcp: &Url,
) -> Result<ServerMetadata, AuthError> {
    let origin = origin_of(mcp);
    let url = format!("{origin}/.well-known/oauth-authorization-server");
    match get_json(t, &url, AuthStep::ServerMetadata).await? {
        Some(body) => {
            let server: ServerMetadata =
                serde_json::from_str(&body).map_err(|e| AuthError::Request {
                    step: "authorization server metadata".into(),
                    detail: format!("{url} is not authorization server metadata: {e}"),
                })?;
            // The document at the origin's well-known URI speaks for the origin only
            // (RFC 8414 §3.3): its issuer picks the credentials sent, so it must match.
            if server.issuer.trim_end_matches('/') != origin {
                return Err(AuthError::IssuerMismatch {
                    expected: origin,
                    found: server.issuer,
                });
            }
            Ok(server)
        }
        None => Ok(ServerMetadata::defaults_at(&origin)),
    }
}

/// A request of the flow, recorded with its secrets redacted, read whole.
pub(super) async fn fetch(
    t: &dyn FlowTransport,
    request: HttpRequest,
    step: AuthStep,
) -> Result<Fetched, AuthError> {
    t.fetch(request, step)
        .await
        .map_err(|e| AuthError::Request {
            step: step.describe().into(),
            detail: e.to_string(),
        })
}

/// A metadata document: `Some(body)` for a 200 JSON object, `None` for any other answer (the
/// next place is tried).
pub(super) async fn get_json(
    t: &dyn FlowTransport,
    url: &str,
    step: AuthStep,
) -> Result<Option<String>, AuthError> {
    let got = fetch(
        t,
        HttpRequest {
            method: "GET",
            url: url.to_owned(),
            headers: vec![("Accept".into(), "application/json".into())],
            body: None,
        },
        step,
    )
    .await?;
    let is_object = serde_json::from_str::<Value>(&got.body).is_ok_and(|v| v.is_object());
    Ok((got.status == 200 && is_object).then_some(got.body))
}

/// A non-2xx answer of the flow, with the server's OAuth error if it gave one.
pub(super) fn refused(step: &str, got: &Fetched) -> AuthError {
    let error = serde_json::from_str::<Value>(&got.body).ok().and_then(|v| {
        v.get("error").and_then(Value::as_str).map(|e| {
            match v.get("error_description").and_then(Value::as_str) {
                Some(d) => format!("{e}: {d}"),
                None => e.to_owned(),
            }
        })
    });
    AuthError::Request {
        step: step.into(),
        detail: format!(
            "HTTP {}{}",
            got.status,
            error.map(|e| format!(" ({e})")).unwrap_or_default()
        ),
    }
}
