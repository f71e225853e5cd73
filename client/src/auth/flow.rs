//! The authorization flow itself, step by step, each request an exchange of the run's record.

use futures_util::future::LocalBoxFuture;

use super::discover::{self, fetch, refused};
use super::error::AuthError;
use super::identity::{self, Credentials};
use super::metadata::{
    ResourceMetadata, ServerMetadata, origin_of, parse_url, resource_covers, resource_metadata_urls,
};
use super::pkce::{Pkce, random_text};
use super::token::{self, Grant, Tokens};
use super::{AuthStep, Authorizer, Bound, Challenge, MAX_TRIES};
use crate::http::HttpRequest;
use crate::transport::{FlowTransport, essence};
use mcp_flow_on_demand::{OnDemandError, on_demand};

/// Refresh this long before the access token's stated end (at most half its lifetime).
const REFRESH_EARLY_MS: f64 = 5_000.0;

impl Authorizer {
    /// [`Authorizer::on_challenge`], once the flow's module is here.
    pub(super) async fn challenge_now(
        &self,
        t: &dyn FlowTransport,
        status: u16,
        challenge: &Challenge,
    ) -> Result<(), AuthError> {
        let _busy = self.mark_busy();
        self.tell(AuthStep::Challenge, Ok(challenge_line(status, challenge)));
        let tries = {
            let mut state = self.state.borrow_mut();
            state.tries += 1;
            state.tries
        };
        if tries > MAX_TRIES {
            let err = AuthError::ScopeRetryLimit {
                scope: challenge.scope.clone().unwrap_or_default(),
                tries: MAX_TRIES,
            };
            self.tell(AuthStep::Challenge, Err(err.to_string()));
            return Err(err);
        }
        // Through a bridge, the protected resource is the upstream it relays to.
        let resource_url = t.resource_url();
        let mcp = parse_url(&resource_url, "the MCP server's URL")?;
        let asked =
            resource_metadata_urls(&mcp, challenge.resource_metadata.as_deref()).join(", then ");
        let prm = self
            .watched(
                AuthStep::ResourceMetadata,
                format!("GET {asked}"),
                async {
                    let prm = discover::resource_metadata(t, &mcp, challenge).await?;
                    if let Some(prm) = &prm
                        && !resource_covers(&prm.resource, &mcp)
                    {
                        return Err(AuthError::ResourceMismatch {
                            resource: prm.resource.clone(),
                            server: resource_url.clone(),
                        });
                    }
                    Ok(prm)
                },
                resource_line,
            )
            .await?;
        let issuer = match &prm {
            Some(prm) => Some(
                prm.authorization_servers
                    .first()
                    .cloned()
                    .ok_or(AuthError::NoAuthorizationServer)?,
            ),
            None => None,
        };
        let asked = match &issuer {
            Some(issuer) => format!("the metadata of {issuer}"),
            None => format!("the metadata at {}", origin_of(&mcp)),
        };
        let server = self
            .watched(
                AuthStep::ServerMetadata,
                asked,
                async {
                    let server = match &issuer {
                        Some(issuer) => discover::server_metadata(t, issuer).await?,
                        None => discover::fallback_metadata(t, &mcp).await?,
                    };
                    server.check_endpoints()?;
                    if !server.supports_s256() {
                        return Err(AuthError::NoS256 {
                            issuer: server.issuer,
                        });
                    }
                    Ok(server)
                },
                server_line,
            )
            .await?;
        let resource = prm.as_ref().map(|p| p.resource.clone());
        let scope = self.scope_to_ask(status, challenge, prm.as_ref(), &server);
        let client = self.client_at(t, &server, scope.as_deref()).await?;
        let pkce = Pkce::new()?;
        let state = random_text(16)?;
        let url = self.authorization_url(
            &server,
            &client,
            &pkce,
            &state,
            scope.as_deref(),
            resource.as_deref(),
        )?;
        let code = self
            .watched(
                AuthStep::Consent,
                format!("GET {url}"),
                async {
                    let callback = match &self.consent {
                        Some(consent) => {
                            consent
                                .open(url.clone(), self.config.redirect_uri.clone())
                                .await?
                        }
                        None => self.follow(t, &url).await?,
                    };
                    check_callback(&callback, &state, &server)
                },
                |_| {
                    format!(
                        "a code came back to {} with the state sent{}",
                        self.config.redirect_uri,
                        if server.authorization_response_iss_parameter_supported {
                            " and the issuer's iss"
                        } else {
                            ""
                        }
                    )
                },
            )
            .await?;
        let tokens = self
            .watched(
                AuthStep::Token,
                format!("POST {}", server.token_endpoint),
                self.redeem(
                    t,
                    &server,
                    &client,
                    &Grant::Code {
                        code: &code,
                        redirect_uri: &self.config.redirect_uri,
                        verifier: &pkce.verifier,
                    },
                    resource.as_deref(),
                    scope.as_deref(),
                ),
                token_line,
            )
            .await?;
        let granted = tokens.scope.clone();
        {
            let mut s = self.state.borrow_mut();
            s.tokens = Some(tokens);
            s.scope = scope;
            s.bound = Some(Bound {
                server,
                client,
                resource,
            });
        }
        self.tell(
            AuthStep::Retry,
            Ok(format!(
                "Authorization: Bearer [redacted]{}",
                granted.map(|s| format!(" (scope {s})")).unwrap_or_default()
            )),
        );
        Ok(())
    }

    /// Tells the watcher how a step ended.
    fn tell(&self, step: AuthStep, outcome: Result<String, String>) {
        if let Some(w) = self.watcher() {
            w.after(step, outcome);
        }
    }

    /// Runs one step of the flow between the watcher's `before` and `after`.
    async fn watched<T>(
        &self,
        step: AuthStep,
        asked: String,
        work: impl std::future::Future<Output = Result<T, AuthError>>,
        learned: impl FnOnce(&T) -> String,
    ) -> Result<T, AuthError> {
        if let Some(w) = self.watcher() {
            w.before(step, asked).await;
        }
        let outcome = work.await;
        self.tell(
            step,
            match &outcome {
                Ok(value) => Ok(learned(value)),
                Err(e) => Err(e.to_string()),
            },
        );
        outcome
    }

    /// [`Authorizer::refresh_if_expired`], once the flow's module is here.
    pub(super) async fn refresh_now(&self, t: &dyn FlowTransport) {
        let now = t.now_ms();
        let due = {
            let state = self.state.borrow();
            match (&state.tokens, &state.bound) {
                (Some(tokens), Some(bound))
                    if tokens.expires_at_ms.is_some_and(|end| {
                        let early = REFRESH_EARLY_MS.min(tokens.lifetime_ms.unwrap_or(0.0) / 2.0);
                        end - early <= now
                    }) =>
                {
                    tokens
                        .refresh
                        .clone()
                        .map(|r| (r, bound.clone(), tokens.scope.clone()))
                }
                _ => None,
            }
        };
        let Some((refresh, bound, scope)) = due else {
            return;
        };
        let _busy = self.mark_busy();
        let refreshed = self
            .watched(
                AuthStep::Refresh,
                format!("POST {}", bound.server.token_endpoint),
                self.redeem(
                    t,
                    &bound.server,
                    &bound.client,
                    &Grant::Refresh { token: &refresh },
                    bound.resource.as_deref(),
                    scope.as_deref(),
                ),
                token_line,
            )
            .await;
        let mut state = self.state.borrow_mut();
        state.tokens = refreshed.ok().map(|mut tokens| {
            // A server may keep the refresh token and not send it again.
            tokens.refresh = tokens.refresh.or(Some(refresh));
            tokens
        });
    }

    /// The 401's scope, else the resource's, else none; on a step-up, also every scope asked
    /// before. `offline_access` is added where the server offers it.
    fn scope_to_ask(
        &self,
        status: u16,
        challenge: &Challenge,
        prm: Option<&ResourceMetadata>,
        server: &ServerMetadata,
    ) -> Option<String> {
        let base = challenge.scope.clone().or_else(|| {
            prm.and_then(|p| p.scopes_supported.as_ref())
                .filter(|s| !s.is_empty())
                .map(|s| s.join(" "))
        });
        let mut scopes: Vec<String> = Vec::new();
        if status == 403
            && challenge.insufficient_scope()
            && let Some(before) = &self.state.borrow().scope
        {
            scopes.extend(before.split_whitespace().map(str::to_owned));
        }
        for s in base.iter().flat_map(|b| b.split_whitespace()) {
            if !scopes.iter().any(|x| x == s) {
                scopes.push(s.to_owned());
            }
        }
        if scopes.is_empty() {
            return None;
        }
        if server.offers_scope("offline_access") && !scopes.iter().any(|s| s == "offline_access") {
            scopes.push("offline_access".to_owned());
        }
        Some(scopes.join(" "))
    }

    /// This client at `server`: known already, pre-registered, its metadata document, or
    /// registered now.
    async fn client_at(
        &self,
        t: &dyn FlowTransport,
        server: &ServerMetadata,
        scope: Option<&str>,
    ) -> Result<Credentials, AuthError> {
        let known = self
            .state
            .borrow()
            .registrations
            .iter()
            .find(|(issuer, _)| issuer == &server.issuer)
            .map(|(_, c)| c.clone());
        let found = known
            .or_else(|| {
                self.config
                    .pre_registered
                    .as_ref()
                    .and_then(|p| p.at(server))
            })
            .or_else(|| {
                identity::metadata_document(self.config.metadata_document.as_deref(), server)
            });
        let client = match found {
            Some(client) => {
                if let Some(w) = self.watcher() {
                    w.not_needed(AuthStep::Registration);
                }
                client
            }
            None => {
                let asked = format!(
                    "POST {}",
                    server.registration_endpoint.as_deref().unwrap_or("(none)")
                );
                self.watched(
                    AuthStep::Registration,
                    asked,
                    self.register(t, server, scope),
                    |c: &Credentials| {
                        format!(
                            "client_id {} (token endpoint authentication: {})",
                            c.client_id,
                            c.method.id()
                        )
                    },
                )
                .await?
            }
        };
        let mut state = self.state.borrow_mut();
        if !state.registrations.iter().any(|(i, _)| i == &server.issuer) {
            state
                .registrations
                .push((server.issuer.clone(), client.clone()));
        }
        Ok(client)
    }

    async fn register(
        &self,
        t: &dyn FlowTransport,
        server: &ServerMetadata,
        scope: Option<&str>,
    ) -> Result<Credentials, AuthError> {
        let Some(endpoint) = &server.registration_endpoint else {
            return Err(AuthError::NoRegistration {
                issuer: server.issuer.clone(),
            });
        };
        let method = identity::method_to_register(server);
        let body = identity::registration_request(
            &self.config.client_name,
            &self.config.redirect_uri,
            self.config.application_type,
            method,
            scope,
        );
        let got = fetch(
            t,
            HttpRequest {
                method: "POST",
                url: endpoint.clone(),
                headers: vec![
                    ("Content-Type".into(), "application/json".into()),
                    ("Accept".into(), "application/json".into()),
                ],
                body: Some(body.to_string()),
            },
            AuthStep::Registration,
        )
        .await?;
        if !(200..300).contains(&got.status) {
            return Err(refused("registration", &got));
        }
        identity::registered(&got.body, method).map_err(|detail| AuthError::Request {
            step: "registration".into(),
            detail,
        })
    }

    fn authorization_url(
        &self,
        server: &ServerMetadata,
        client: &Credentials,
        pkce: &Pkce,
        state: &str,
        scope: Option<&str>,
        resource: Option<&str>,
    ) -> Result<String, AuthError> {
        let mut url = parse_url(&server.authorization_endpoint, "the authorization endpoint")?;
        {
            let mut q = url.query_pairs_mut();
            q.append_pair("response_type", "code");
            q.append_pair("client_id", &client.client_id);
            q.append_pair("redirect_uri", &self.config.redirect_uri);
            q.append_pair("code_challenge", &pkce.challenge);
            q.append_pair("code_challenge_method", "S256");
            q.append_pair("state", state);
            if let Some(scope) = scope {
                q.append_pair("scope", scope);
            }
            if let Some(resource) = resource {
                q.append_pair("resource", resource);
            }
        }
        Ok(url.into())
    }

    /// The command line's consent: the authorization request over HTTP, its redirect read and
    /// not followed.
    async fn follow(&self, t: &dyn FlowTransport, url: &str) -> Result<String, AuthError> {
        let got = fetch(
            t,
            HttpRequest {
                method: "GET",
                url: url.to_owned(),
                headers: Vec::new(),
                body: None,
            },
            AuthStep::Consent,
        )
        .await?;
        let location = got
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("location"))
            .map(|(_, v)| v.clone());
        match location {
            Some(location) if (300..400).contains(&got.status) => {
                let base = parse_url(url, "the authorization request")?;
                base.join(&location)
                    .map(|u| u.to_string())
                    .map_err(|e| AuthError::BadUrl {
                        what: "the redirect".into(),
                        url: super::redact::url(&location),
                        detail: e.to_string(),
                    })
            }
            _ => Err(AuthError::UserAgent(format!(
                "the authorization endpoint answered HTTP {} without a redirect: it wants a user \
                 to log in or consent, which a command line cannot do (a server that approves at \
                 once, such as weather-server --auth --auth-auto-approve, can be used here)",
                got.status
            ))),
        }
    }

    async fn redeem(
        &self,
        t: &dyn FlowTransport,
        server: &ServerMetadata,
        client: &Credentials,
        grant: &Grant<'_>,
        resource: Option<&str>,
        scope: Option<&str>,
    ) -> Result<Tokens, AuthError> {
        let (body, headers) = token::request(grant, client, resource);
        let step = match grant {
            Grant::Code { .. } => AuthStep::Token,
            Grant::Refresh { .. } => AuthStep::Refresh,
        };
        let got = fetch(
            t,
            HttpRequest {
                method: "POST",
                url: server.token_endpoint.clone(),
                headers,
                body: Some(body),
            },
            step,
        )
        .await?;
        let content_type = got
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
            .map(|(_, v)| essence(v))
            .unwrap_or_default();
        token::response(got.status, &content_type, &got.body, scope, t.now_ms())
    }
}

/// Reads the redirect back: the `state` sent, the issuer that sent it (RFC 9207), then the
/// code or the server's refusal.
pub(super) fn check_callback(
    callback: &str,
    state: &str,
    server: &ServerMetadata,
) -> Result<String, AuthError> {
    let url = parse_url(callback, "the redirect back").map_err(|_| AuthError::BadUrl {
        what: "the redirect back".into(),
        url: super::redact::url(callback),
        detail: "not a URL".into(),
    })?;
    let param = |name: &str| {
        url.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    if param("state").as_deref() != Some(state) {
        return Err(AuthError::StateMismatch);
    }
    match param("iss") {
        Some(iss) if iss != server.issuer => {
            return Err(AuthError::IssMismatch {
                expected: server.issuer.clone(),
                found: iss,
            });
        }
        None if server.authorization_response_iss_parameter_supported => {
            return Err(AuthError::IssMissing {
                issuer: server.issuer.clone(),
            });
        }
        _ => {}
    }
    if let Some(error) = param("error") {
        return Err(AuthError::Denied {
            error,
            description: param("error_description"),
        });
    }
    param("code").ok_or_else(|| AuthError::Denied {
        error: "no code in the redirect back".into(),
        description: None,
    })
}

fn challenge_line(status: u16, c: &Challenge) -> String {
    let mut parts = vec![format!("HTTP {status}")];
    if let Some(e) = &c.error {
        parts.push(format!("error {e}"));
    }
    if let Some(s) = &c.scope {
        parts.push(format!("scope {s}"));
    }
    if let Some(m) = &c.resource_metadata {
        parts.push(format!("resource_metadata {m}"));
    }
    parts.join("; ")
}

fn resource_line(prm: &Option<ResourceMetadata>) -> String {
    match prm {
        Some(p) => format!(
            "resource {}; authorization servers {}; scopes {}",
            p.resource,
            p.authorization_servers.join(", "),
            p.scopes_supported
                .as_ref()
                .map(|s| s.join(" "))
                .unwrap_or_else(|| "(not listed)".to_owned())
        ),
        None => "none published: as in MCP 2025-03-26, the MCP server's origin is taken as the \
                 authorization server"
            .to_owned(),
    }
}

fn server_line(s: &ServerMetadata) -> String {
    format!(
        "issuer {}; PKCE S256; iss in redirects: {}; registration: {}; client ID metadata \
         documents: {}",
        s.issuer,
        if s.authorization_response_iss_parameter_supported {
            "yes"
        } else {
            "no"
        },
        if s.registration_endpoint.is_some() {
            "yes"
        } else {
            "no"
        },
        if s.client_id_metadata_document_supported {
            "yes"
        } else {
            "no"
        },
    )
}

fn token_line(t: &Tokens) -> String {
    format!(
        "a Bearer token{}{}{}",
        t.scope
            .as_ref()
            .map(|s| format!(" for {s}"))
            .unwrap_or_default(),
        t.lifetime_ms
            .map(|ms| format!(", good for {:.0} s", ms / 1000.0))
            .unwrap_or_default(),
        if t.refresh.is_some() {
            ", with a refresh token"
        } else {
            ""
        }
    )
}

/// The flow's entry points, as plain function pointers: in the release build the flow (with
/// the URL parser it needs) is a module of its own, fetched when a server first asks.
pub(super) struct Entry {
    pub challenge: ChallengeFn,
    pub refresh: for<'a> fn(&'a Authorizer, &'a dyn FlowTransport) -> LocalBoxFuture<'a, ()>,
}

/// [`Authorizer::on_challenge`]'s work.
type ChallengeFn = for<'a> fn(
    &'a Authorizer,
    &'a dyn FlowTransport,
    u16,
    &'a Challenge,
) -> LocalBoxFuture<'a, Result<(), AuthError>>;

fn challenge_entry<'a>(
    auth: &'a Authorizer,
    t: &'a dyn FlowTransport,
    status: u16,
    challenge: &'a Challenge,
) -> LocalBoxFuture<'a, Result<(), AuthError>> {
    Box::pin(auth.challenge_now(t, status, challenge))
}

fn refresh_entry<'a>(auth: &'a Authorizer, t: &'a dyn FlowTransport) -> LocalBoxFuture<'a, ()> {
    Box::pin(auth.refresh_now(t))
}

on_demand!(
    authorize,
    pub(super) fn entry() -> Result<Entry, OnDemandError> {
        Ok(Entry {
            challenge: challenge_entry,
            refresh: refresh_entry,
        })
    }
);
