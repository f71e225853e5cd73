//! Which origin a request reached, from its Host header checked against the same allow-list
//! rmcp applies at `/mcp` (DNS-rebinding protection); the Origin check; the URLs derived from
//! the Host: the issuer `http://<Host>`, the resource `http://<Host>/mcp` and its metadata.

use axum::{
    extract::{Request, State},
    http::{HeaderMap, StatusCode, Uri, header, uri::Authority},
    middleware::Next,
    response::{IntoResponse, Response},
};

use super::{Auth, PRM_PATH};
use crate::MCP_PATH;

/// The origin a request reached: its validated Host, lower case, e.g. `127.0.0.1:8000`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    authority: String,
}

impl Site {
    /// The authorization server's issuer: `http://<Host>`, no trailing slash.
    pub fn issuer(&self) -> String {
        format!("http://{}", self.authority)
    }

    /// The protected resource: `http://<Host>/mcp`.
    pub fn resource(&self) -> String {
        format!("http://{}{MCP_PATH}", self.authority)
    }

    /// Where the resource's metadata (RFC 9728) is served.
    pub fn resource_metadata(&self) -> String {
        format!("http://{}{PRM_PATH}", self.authority)
    }
}

/// The Host and Origin allow-lists (those of `/mcp`).
#[derive(Debug, Clone)]
pub struct Gate {
    pub hosts: Vec<String>,
    pub origins: Vec<String>,
}

impl Gate {
    /// The request's Site, or the 400/403 that rmcp gives a missing, malformed or foreign Host.
    pub fn site(&self, headers: &HeaderMap, uri: &Uri) -> Result<Site, Refused> {
        let authority = match headers.get(header::HOST) {
            Some(value) => value
                .to_str()
                .ok()
                .and_then(|text| Authority::try_from(text.trim()).ok())
                .ok_or_else(|| {
                    plain(StatusCode::BAD_REQUEST, "Bad Request: Invalid Host header")
                })?,
            None => uri.authority().cloned().ok_or_else(|| {
                plain(StatusCode::BAD_REQUEST, "Bad Request: missing Host header")
            })?,
        };
        if authority.as_str().contains('@') || !self.host_is_allowed(&authority) {
            return Err(plain(
                StatusCode::FORBIDDEN,
                "Forbidden: Host header is not allowed",
            ));
        }
        Ok(Site {
            authority: authority.as_str().to_ascii_lowercase(),
        })
    }

    /// A present Origin must be on the list or be the site itself; otherwise 403 as at `/mcp`.
    pub fn check_origin(&self, headers: &HeaderMap, site: &Site) -> Result<(), Refused> {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return Ok(());
        };
        let origin = origin.to_str().unwrap_or_default().trim();
        let origin = origin.trim_end_matches('/');
        let own = site.issuer();
        let allowed = !origin.is_empty()
            && (origin.eq_ignore_ascii_case(&own)
                || self.origins.iter().any(|o| o.eq_ignore_ascii_case(origin)));
        if allowed {
            Ok(())
        } else {
            Err(plain(
                StatusCode::FORBIDDEN,
                "Forbidden: Origin header is not allowed",
            ))
        }
    }

    /// Whether `resource` names this server's `/mcp`: as reached by this request, or at one
    /// of the allowed hosts that name the bound port (loopback names allowed on any port in a
    /// Host header do not make every port this server).
    pub fn is_own_resource(&self, resource: &str, site: &Site) -> bool {
        if resource == site.resource() {
            return true;
        }
        self.hosts.iter().any(|host| {
            Authority::try_from(host.as_str()).is_ok_and(|a| a.port_u16().is_some())
                && resource == format!("http://{}{MCP_PATH}", host.to_ascii_lowercase())
        })
    }

    /// rmcp's rule: the host must match an entry; an entry with a port needs that port.
    fn host_is_allowed(&self, authority: &Authority) -> bool {
        let host = normalize(authority.host());
        self.hosts.iter().any(|allowed| {
            let (allowed_host, allowed_port) = match Authority::try_from(allowed.as_str()) {
                Ok(a) => (normalize(a.host()), a.port_u16()),
                Err(_) => (normalize(allowed), None),
            };
            allowed_host == host && allowed_port.is_none_or(|p| authority.port_u16() == Some(p))
        })
    }
}

fn normalize(host: &str) -> String {
    host.trim_matches(['[', ']']).to_ascii_lowercase()
}

/// A request refused for its Host or Origin, answered in plain text as rmcp does.
#[derive(Debug)]
pub struct Refused {
    status: StatusCode,
    text: &'static str,
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        (
            self.status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            self.text,
        )
            .into_response()
    }
}

fn plain(status: StatusCode, text: &'static str) -> Refused {
    Refused { status, text }
}

/// Middleware for the authorization server's routes: Host and Origin first, then the handler
/// finds the [`Site`] among the request's extensions.
pub async fn screen(State(auth): State<Auth>, mut request: Request, next: Next) -> Response {
    let site = match auth.gate.site(request.headers(), request.uri()) {
        Ok(site) => site,
        Err(refused) => return refused.into_response(),
    };
    if let Err(refused) = auth.gate.check_origin(request.headers(), &site) {
        return refused.into_response();
    }
    request.extensions_mut().insert(site);
    next.run(request).await
}

impl Gate {
    /// The lists of `/mcp` for a server bound at `local_addr`.
    pub fn of(config: &crate::config::Config, local_addr: std::net::SocketAddr) -> Self {
        Self {
            hosts: config.allowed_hosts(local_addr),
            origins: config.allowed_origins(local_addr.port()),
        }
    }
}

/// Middleware for a route beside the MCP endpoints that must refuse what `/mcp` refuses, a
/// foreign Host (DNS rebinding) or Origin: the journal, with or without `--auth`.
pub async fn guard(
    State(gate): State<std::sync::Arc<Gate>>,
    request: Request,
    next: Next,
) -> Response {
    let checked = gate
        .site(request.headers(), request.uri())
        .and_then(|site| gate.check_origin(request.headers(), &site));
    match checked {
        Ok(()) => next.run(request).await,
        Err(refused) => refused.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> Gate {
        Gate {
            hosts: crate::Config::default().allowed_hosts("127.0.0.1:8000".parse().expect("addr")),
            origins: vec!["http://localhost:8080".into()],
        }
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().expect("value"));
        }
        map
    }

    #[test]
    fn the_site_is_the_host_as_sent() {
        let uri = Uri::from_static("/mcp");
        let site = gate()
            .site(&headers(&[("host", "LOCALHOST:8000")]), &uri)
            .expect("allowed");
        assert_eq!(site.issuer(), "http://localhost:8000");
        assert_eq!(site.resource(), "http://localhost:8000/mcp");
        let site = gate()
            .site(&headers(&[("host", "[::1]:8000")]), &uri)
            .expect("allowed");
        assert_eq!(site.resource(), "http://[::1]:8000/mcp");
        for host in ["evil.example:8000", "127.0.0.2:8000", "a@127.0.0.1:8000"] {
            let mut map = HeaderMap::new();
            map.insert("host", host.parse().expect("value"));
            assert!(gate().site(&map, &uri).is_err(), "{host}");
        }
    }

    #[test]
    fn origins_on_the_list_or_the_site_itself() {
        let uri = Uri::from_static("/");
        let gate = gate();
        let site = gate
            .site(&headers(&[("host", "127.0.0.1:8000")]), &uri)
            .expect("allowed");
        for (origin, ok) in [
            ("http://127.0.0.1:8000", true),
            ("http://localhost:8080/", true),
            ("http://evil.example", false),
            ("null", false),
        ] {
            let mut map = HeaderMap::new();
            map.insert("origin", origin.parse().expect("value"));
            assert_eq!(gate.check_origin(&map, &site).is_ok(), ok, "{origin}");
        }
    }

    #[test]
    fn own_resources_name_this_server_and_the_mcp_path() {
        let gate = gate();
        let site = gate
            .site(
                &headers(&[("host", "localhost:9999")]),
                &Uri::from_static("/"),
            )
            .expect("allowed");
        assert!(gate.is_own_resource("http://localhost:9999/mcp", &site));
        assert!(gate.is_own_resource("http://127.0.0.1:8000/mcp", &site));
        assert!(gate.is_own_resource("http://localhost:8000/mcp", &site));
        assert!(gate.is_own_resource("http://[::1]:8000/mcp", &site));
        assert!(!gate.is_own_resource("http://127.0.0.1:1/mcp", &site));
        assert!(!gate.is_own_resource("http://127.0.0.1:8000/mcp/", &site));
        assert!(!gate.is_own_resource("https://127.0.0.1:8000/mcp", &site));
        assert!(!gate.is_own_resource("http://evil.example/mcp", &site));
        assert!(!gate.is_own_resource("http://LOCALHOST:8000/mcp", &site));
        assert!(!gate.is_own_resource("http://127.0.0.1:8000/calc", &site));
    }
}
