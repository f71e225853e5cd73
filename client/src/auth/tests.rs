//! The authorization flow against a scripted resource and authorization server: the requests it
//! makes in order, what each carries, the checks that stop it, and the secrets the record never
//! shows.

use std::cell::RefCell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::{Value, json};
use url::Url;

use super::pkce::Pkce;
use super::{AuthConfig, AuthError, AuthStep, Authorizer, PreRegistered};
use crate::error::TransportError;
use crate::http::HttpRequest;
use crate::record::{Log, shared_log};
use crate::scripted::*;
use crate::transport::{Posted, Transport};

const MCP: &str = "http://127.0.0.1:8000/mcp";
const PRM: &str = "http://127.0.0.1:8000/.well-known/oauth-protected-resource/mcp";
const ISSUER: &str = "http://127.0.0.1:9000";
const TOKEN: &str = "tok-secret-1";

fn transport(script: Vec<Script>) -> (Transport<Rc<Scripted>>, Rc<Scripted>, Rc<RefCell<Log>>) {
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = script.into();
    let (log, recorder) = shared_log();
    let t = Transport::new(http.clone(), http.clone(), MCP, recorder);
    t.set_authorizer(Some(Rc::new(Authorizer::new(AuthConfig::native(), None))));
    (t, http, log)
}

fn post(t: &Transport<Rc<Scripted>>) -> Result<Posted, TransportError> {
    block_on(t.post(
        &json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}),
        &mut |_| {},
    ))
}

fn unauthorized(www: &str) -> Script {
    Script::Respond {
        status: 401,
        headers: vec![
            ("www-authenticate", www.to_owned()),
            ("content-type", "application/json".into()),
        ],
        chunks: vec![br#"{"error":"unauthorized"}"#.to_vec()],
    }
}

fn insufficient(scope: &str) -> Script {
    Script::Respond {
        status: 403,
        headers: vec![(
            "www-authenticate",
            format!(
                r#"Bearer error="insufficient_scope", scope="{scope}", resource_metadata="{PRM}""#
            ),
        )],
        chunks: vec![Vec::new()],
    }
}

fn prm(resource: &str, scopes: Option<&[&str]>) -> Script {
    let mut doc = json!({"resource": resource, "authorization_servers": [ISSUER]});
    if let Some(s) = scopes {
        doc["scopes_supported"] = json!(s);
    }
    json_reply(doc)
}

fn server_metadata(extra: Value) -> Script {
    let mut doc = json!({
        "issuer": ISSUER,
        "authorization_endpoint": format!("{ISSUER}/authorize"),
        "token_endpoint": format!("{ISSUER}/token"),
        "registration_endpoint": format!("{ISSUER}/register"),
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "authorization_response_iss_parameter_supported": true,
    });
    if let (Some(doc), Some(extra)) = (doc.as_object_mut(), extra.as_object()) {
        doc.extend(extra.clone());
    }
    json_reply(doc)
}

fn registered() -> Script {
    Script::Respond {
        status: 201,
        headers: vec![("content-type", "application/json".into())],
        chunks: vec![br#"{"client_id":"cid-1","token_endpoint_auth_method":"none"}"#.to_vec()],
    }
}

/// The authorization endpoint approving at once: a redirect with the request's own `state`,
/// and `iss` as given (`None`: left out).
fn approve(iss: Option<&'static str>) -> Script {
    Script::From(Box::new(move |request: &HttpRequest| {
        let state = query(&request.url, "state").unwrap_or_default();
        let redirect = query(&request.url, "redirect_uri").unwrap_or_default();
        let mut location = format!("{redirect}?code=code-secret&state={state}");
        if let Some(iss) = iss {
            location.push_str(&format!("&iss={iss}"));
        }
        Script::Respond {
            status: 302,
            headers: vec![("location", location)],
            chunks: vec![Vec::new()],
        }
    }))
}

fn tokens(access: &str, expires_in: u64, refresh: Option<&str>) -> Script {
    let mut doc = json!({"access_token": access, "token_type": "Bearer", "expires_in": expires_in});
    if let Some(r) = refresh {
        doc["refresh_token"] = json!(r);
    }
    json_reply(doc)
}

fn ok() -> Script {
    json_reply(json!({"jsonrpc":"2.0","id":1,"result":{"tools":[]}}))
}

fn query(url: &str, name: &str) -> Option<String> {
    Url::parse(url)
        .ok()?
        .query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

fn form(body: &str, name: &str) -> Option<String> {
    url::form_urlencoded::parse(body.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn urls(http: &Scripted) -> Vec<String> {
    http.sent
        .borrow()
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r.method,
                r.url.split('?').next().unwrap_or_default()
            )
        })
        .collect()
}

fn everything_recorded(log: &RefCell<Log>) -> String {
    serde_json::to_string(&log.borrow().exchanges).expect("the record serializes")
}

#[test]
fn a_401_without_a_readable_challenge_finds_the_metadata_at_the_well_known_address() {
    // What a page gets from a server whose CORS answer does not expose WWW-Authenticate.
    let hidden = Script::Respond {
        status: 401,
        headers: vec![("content-type", "application/json".into())],
        chunks: vec![br#"{"error":"invalid_token"}"#.to_vec()],
    };
    let (t, http, _log) = transport(vec![
        hidden,
        prm(MCP, Some(&["mcp:basic"])),
        server_metadata(json!({})),
        registered(),
        approve(Some(ISSUER)),
        tokens(TOKEN, 3600, None),
        ok(),
    ]);
    assert!(post(&t).is_ok());
    let sent = urls(&http);
    assert_eq!(
        sent[1],
        format!("GET {PRM}"),
        "the path-aware well-known URI"
    );
    assert_eq!(sent.last(), Some(&format!("POST {MCP}")));
    let again = http
        .sent
        .borrow()
        .last()
        .cloned()
        .expect("the request again");
    assert!(
        again.headers.iter().any(
            |(k, v)| k.eq_ignore_ascii_case("authorization") && v == &format!("Bearer {TOKEN}")
        ),
        "{:?}",
        again.headers
    );
}

#[test]
fn a_401_runs_the_whole_flow_and_the_request_goes_again_with_the_token() {
    let www =
        format!(r#"Bearer error="invalid_token", scope="mcp:basic", resource_metadata="{PRM}""#);
    let (t, http, log) = transport(vec![
        unauthorized(&www),
        prm(MCP, Some(&["mcp:basic", "mcp:write"])),
        server_metadata(json!({})),
        registered(),
        approve(Some(ISSUER)),
        tokens(TOKEN, 3600, None),
        ok(),
    ]);
    assert!(post(&t).is_ok());
    assert_eq!(
        urls(&http),
        [
            format!("POST {MCP}"),
            format!("GET {PRM}"),
            format!("GET {ISSUER}/.well-known/oauth-authorization-server"),
            format!("POST {ISSUER}/register"),
            format!("GET {ISSUER}/authorize"),
            format!("POST {ISSUER}/token"),
            format!("POST {MCP}"),
        ]
    );
    let sent = http.sent.borrow();
    let registration: Value =
        serde_json::from_str(sent[3].body.as_deref().unwrap_or_default()).expect("JSON");
    assert_eq!(registration["application_type"], "native");
    assert_eq!(
        registration["redirect_uris"][0],
        "http://localhost:3000/callback"
    );
    let authorize = &sent[4].url;
    assert_eq!(query(authorize, "client_id").as_deref(), Some("cid-1"));
    assert_eq!(
        query(authorize, "scope").as_deref(),
        Some("mcp:basic"),
        "the 401's scope"
    );
    assert_eq!(query(authorize, "resource").as_deref(), Some(MCP));
    assert_eq!(
        query(authorize, "code_challenge_method").as_deref(),
        Some("S256")
    );
    let token_body = sent[5].body.clone().unwrap_or_default();
    assert_eq!(form(&token_body, "code").as_deref(), Some("code-secret"));
    assert_eq!(form(&token_body, "resource").as_deref(), Some(MCP));
    assert_eq!(form(&token_body, "client_id").as_deref(), Some("cid-1"));
    let verifier = form(&token_body, "code_verifier").expect("a verifier");
    assert_eq!(
        query(authorize, "code_challenge"),
        Some(Pkce::from_verifier(verifier.clone()).challenge),
        "the verifier matches the challenge"
    );
    assert_eq!(header(&sent[0], "authorization"), None);
    assert_eq!(
        header(&sent[6], "authorization"),
        Some(&*format!("Bearer {TOKEN}"))
    );
    // The record has each step, named, and none of the secrets.
    let steps: Vec<Option<AuthStep>> = log.borrow().exchanges.iter().map(|e| e.auth).collect();
    assert_eq!(
        steps,
        [
            None,
            Some(AuthStep::ResourceMetadata),
            Some(AuthStep::ServerMetadata),
            Some(AuthStep::Registration),
            Some(AuthStep::Consent),
            Some(AuthStep::Token),
            None,
        ]
    );
    let recorded = everything_recorded(&log);
    for secret in [TOKEN, "code-secret", &verifier] {
        assert!(!recorded.contains(secret), "{secret} is in the record");
    }
    assert!(recorded.contains("[redacted]"));
}

/// Runs the flow up to a callback with `iss` as given and returns what happened.
fn with_iss(
    iss: Option<&'static str>,
    advertised: bool,
) -> (Result<Posted, TransportError>, Vec<String>) {
    let www = format!(r#"Bearer resource_metadata="{PRM}""#);
    let (t, http, _) = transport(vec![
        unauthorized(&www),
        prm(MCP, None),
        server_metadata(json!({"authorization_response_iss_parameter_supported": advertised})),
        registered(),
        approve(iss),
        tokens(TOKEN, 3600, None),
        ok(),
    ]);
    let outcome = post(&t);
    (outcome, urls(&http))
}

#[test]
fn the_issuer_of_the_redirect_is_checked_before_the_code_is_redeemed() {
    let (outcome, sent) = with_iss(Some(ISSUER), true);
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(sent.len(), 7);
    let (outcome, _) = with_iss(None, false);
    assert!(outcome.is_ok(), "no iss and none promised: {outcome:?}");
    let cases: [(Option<&'static str>, bool, AuthError); 3] = [
        (
            None,
            true,
            AuthError::IssMissing {
                issuer: ISSUER.into(),
            },
        ),
        (
            Some("https://evil.example.com"),
            false,
            AuthError::IssMismatch {
                expected: ISSUER.into(),
                found: "https://evil.example.com".into(),
            },
        ),
        (
            Some("http://127.0.0.1:9000/"),
            true,
            AuthError::IssMismatch {
                expected: ISSUER.into(),
                found: "http://127.0.0.1:9000/".into(),
            },
        ),
    ];
    for (iss, advertised, expected) in cases {
        let (outcome, sent) = with_iss(iss, advertised);
        assert_eq!(
            outcome,
            Err(TransportError::Auth(expected.clone())),
            "{iss:?}"
        );
        assert!(
            !sent.iter().any(|u| u.ends_with("/token")),
            "{expected}: the code must not be redeemed: {sent:?}"
        );
    }
}

#[test]
fn metadata_for_another_issuer_or_resource_stops_the_flow_at_once() {
    let www = format!(r#"Bearer resource_metadata="{PRM}""#);
    let (t, http, _) = transport(vec![
        unauthorized(&www),
        prm(MCP, None),
        server_metadata(json!({"issuer": "https://attacker.example.com"})),
    ]);
    assert_eq!(
        post(&t),
        Err(TransportError::Auth(AuthError::IssuerMismatch {
            expected: ISSUER.into(),
            found: "https://attacker.example.com".into()
        }))
    );
    assert_eq!(
        http.sent.borrow().len(),
        3,
        "no endpoint of that metadata was used"
    );
    let (t, http, _) = transport(vec![
        unauthorized(&www),
        prm("https://evil.example.com/mcp", None),
    ]);
    let err = post(&t).expect_err("another resource");
    assert!(err.to_string().contains("not for this server"), "{err}");
    assert_eq!(http.sent.borrow().len(), 2);
}

#[test]
fn without_a_header_hint_the_paths_are_tried_in_order_and_issuer_paths_never_use_the_root() {
    let (t, http, _) = transport(vec![
        unauthorized("Bearer"),
        status(404, "text/plain", "no"),
        // The root document names a tenant issuer.
        json_reply(json!({
            "resource": "http://127.0.0.1:8000",
            "authorization_servers": ["http://127.0.0.1:9000/tenant1"],
            "scopes_supported": ["a", "b"],
        })),
        Script::From(Box::new(|_| status(404, "text/plain", ""))),
        Script::From(Box::new(|_| status(404, "text/plain", ""))),
        json_reply(json!({
            "issuer": "http://127.0.0.1:9000/tenant1",
            "authorization_endpoint": "http://127.0.0.1:9000/tenant1/authorize",
            "token_endpoint": "http://127.0.0.1:9000/tenant1/token",
            "registration_endpoint": "http://127.0.0.1:9000/tenant1/register",
            "code_challenge_methods_supported": ["S256"],
        })),
        registered(),
        approve(None),
        tokens(TOKEN, 3600, None),
        ok(),
    ]);
    assert!(post(&t).is_ok());
    let sent = urls(&http);
    assert_eq!(
        sent[1..6],
        [
            format!("GET {PRM}"),
            "GET http://127.0.0.1:8000/.well-known/oauth-protected-resource".to_owned(),
            "GET http://127.0.0.1:9000/.well-known/oauth-authorization-server/tenant1".to_owned(),
            "GET http://127.0.0.1:9000/.well-known/openid-configuration/tenant1".to_owned(),
            "GET http://127.0.0.1:9000/tenant1/.well-known/openid-configuration".to_owned(),
        ]
    );
    let authorize = http.sent.borrow()[7].url.clone();
    assert_eq!(
        query(&authorize, "scope").as_deref(),
        Some("a b"),
        "the resource's scopes"
    );
    assert_eq!(
        query(&authorize, "resource").as_deref(),
        Some("http://127.0.0.1:8000"),
        "as sent"
    );
}

#[test]
fn a_step_up_asks_for_every_scope_so_far_and_gives_up_after_three_authorizations() {
    let www = format!(r#"Bearer scope="mcp:basic", resource_metadata="{PRM}""#);
    let round = |access: &str| {
        vec![
            prm(MCP, None),
            server_metadata(json!({})),
            approve(Some(ISSUER)),
            tokens(access, 3600, None),
        ]
    };
    let mut script = vec![unauthorized(&www)];
    script.extend([
        prm(MCP, None),
        server_metadata(json!({})),
        registered(),
        approve(Some(ISSUER)),
        tokens("t1", 3600, None),
    ]);
    script.push(insufficient("mcp:write"));
    script.extend(round("t2"));
    script.push(insufficient("mcp:admin"));
    script.extend(round("t3"));
    script.push(insufficient("mcp:admin"));
    let (t, http, _) = transport(script);
    let err = post(&t).expect_err("the limit");
    assert!(
        matches!(err, TransportError::Auth(AuthError::ScopeRetryLimit { .. })),
        "{err}"
    );
    let sent = http.sent.borrow();
    let scopes: Vec<Option<String>> = sent
        .iter()
        .filter(|r| r.url.starts_with(&format!("{ISSUER}/authorize")))
        .map(|r| query(&r.url, "scope"))
        .collect();
    assert_eq!(
        scopes,
        [
            Some("mcp:basic".to_owned()),
            Some("mcp:basic mcp:write".to_owned()),
            Some("mcp:basic mcp:write mcp:admin".to_owned()),
        ]
    );
    assert_eq!(
        sent.iter().filter(|r| r.url.ends_with("/register")).count(),
        1,
        "the client registered at this issuer is used again"
    );
}

#[test]
fn an_expired_token_is_refreshed_before_the_next_request() {
    let www = format!(r#"Bearer resource_metadata="{PRM}""#);
    let (t, http, log) = transport(vec![
        unauthorized(&www),
        prm(MCP, None),
        server_metadata(json!({"scopes_supported": ["offline_access"]})),
        registered(),
        approve(Some(ISSUER)),
        // Good for a second: used at once, refreshed once it has passed.
        tokens("t-old", 1, Some("refresh-secret")),
        ok(),
        tokens("t-new", 3600, None),
        ok(),
    ]);
    assert!(post(&t).is_ok());
    http.advance(2_000.0);
    assert!(post(&t).is_ok());
    let sent = http.sent.borrow();
    assert_eq!(
        form(sent[7].body.as_deref().unwrap_or_default(), "grant_type").as_deref(),
        Some("refresh_token")
    );
    assert_eq!(
        form(sent[7].body.as_deref().unwrap_or_default(), "resource").as_deref(),
        Some(MCP)
    );
    assert_eq!(header(&sent[6], "authorization"), Some("Bearer t-old"));
    assert_eq!(header(&sent[8], "authorization"), Some("Bearer t-new"));
    assert!(!everything_recorded(&log).contains("refresh-secret"));
}

#[test]
fn without_metadata_the_2025_03_26_defaults_at_the_mcp_origin_are_used() {
    let (t, http, _) = transport(vec![
        unauthorized("Bearer"),
        status(404, "text/plain", ""),
        status(404, "text/plain", ""),
        status(404, "text/plain", ""),
        registered(),
        approve(None),
        tokens(TOKEN, 3600, None),
        ok(),
    ]);
    assert!(post(&t).is_ok());
    let sent = urls(&http);
    assert_eq!(
        sent[3..7],
        [
            "GET http://127.0.0.1:8000/.well-known/oauth-authorization-server".to_owned(),
            "POST http://127.0.0.1:8000/register".to_owned(),
            "GET http://127.0.0.1:8000/authorize".to_owned(),
            "POST http://127.0.0.1:8000/token".to_owned(),
        ]
    );
    assert_eq!(
        query(&http.sent.borrow()[5].url, "resource"),
        None,
        "no resource without metadata"
    );
}

#[test]
fn bad_answers_are_errors_at_their_step() {
    let www = format!(r#"Bearer resource_metadata="{PRM}""#);
    let flow_to_token = |answer: Script| {
        vec![
            unauthorized(&www),
            prm(MCP, None),
            server_metadata(json!({})),
            registered(),
            approve(Some(ISSUER)),
            answer,
        ]
    };
    let cases: Vec<(&str, Vec<Script>, &str)> = vec![
        (
            "html",
            flow_to_token(status(200, "text/html", "<html>login</html>")),
            "not JSON",
        ),
        (
            "refused",
            flow_to_token(status(
                400,
                "application/json",
                r#"{"error":"invalid_grant"}"#,
            )),
            "invalid_grant",
        ),
        (
            "huge",
            flow_to_token(Script::Respond {
                status: 200,
                headers: vec![("content-type", "application/json".into())],
                chunks: vec![vec![b' '; 5 * 1024 * 1024]],
            }),
            "token request",
        ),
        (
            "silent",
            flow_to_token(Script::Hang),
            "no response within 30000 ms",
        ),
        (
            "no S256",
            vec![
                unauthorized(&www),
                prm(MCP, None),
                server_metadata(json!({"code_challenge_methods_supported": ["plain"]})),
            ],
            "S256",
        ),
        (
            "consent page",
            vec![
                unauthorized(&www),
                prm(MCP, None),
                server_metadata(json!({})),
                registered(),
                status(200, "text/html", "<form>"),
            ],
            "cannot do",
        ),
        (
            "no metadata at the named URL",
            vec![unauthorized(&www), status(404, "text/plain", "")],
            "publishes no",
        ),
        (
            "a javascript: authorization endpoint",
            vec![
                unauthorized(&www),
                prm(MCP, None),
                server_metadata(json!({"authorization_endpoint": "javascript:alert(1)"})),
            ],
            "authorization endpoint",
        ),
        (
            "a token endpoint in clear off loopback",
            vec![
                unauthorized(&www),
                prm(MCP, None),
                server_metadata(json!({"token_endpoint": "http://as.example/token"})),
            ],
            "neither https nor http on a loopback host",
        ),
        (
            // 2025-03-26's fallback: the origin's own metadata naming another issuer, whose
            // pre-registered credentials would then be sent to endpoints it picks.
            "fallback metadata naming another issuer",
            vec![
                unauthorized("Bearer"),
                status(404, "text/plain", ""),
                status(404, "text/plain", ""),
                server_metadata(json!({})),
            ],
            "RFC 8414",
        ),
        (
            "wrong state",
            vec![
                unauthorized(&www),
                prm(MCP, None),
                server_metadata(json!({})),
                registered(),
                Script::Respond {
                    status: 302,
                    headers: vec![(
                        "location",
                        format!("http://localhost:3000/callback?code=c&state=forged&iss={ISSUER}"),
                    )],
                    chunks: vec![Vec::new()],
                },
            ],
            "state",
        ),
    ];
    for (name, script, expected) in cases {
        let (t, http, _) = transport(script);
        let err = post(&t).expect_err(name);
        assert!(err.to_string().contains(expected), "{name}: {err}");
        assert!(
            http.script.borrow().is_empty(),
            "{name}: stopped at its step, nothing more sent"
        );
    }
}

#[test]
fn a_pre_registered_client_authenticates_with_basic_and_never_registers() {
    let www = format!(r#"Bearer resource_metadata="{PRM}""#);
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = vec![
        unauthorized(&www),
        prm(MCP, None),
        server_metadata(json!({"token_endpoint_auth_methods_supported": ["client_secret_basic"]})),
        approve(Some(ISSUER)),
        tokens(TOKEN, 3600, None),
        ok(),
    ]
    .into();
    let (_, recorder) = shared_log();
    let t = Transport::new(http.clone(), http.clone(), MCP, recorder);
    let mut config = AuthConfig::native();
    config.pre_registered = Some(PreRegistered {
        client_id: "pre-registered-client".into(),
        secret: Some("pre-registered-secret".into()),
        issuer: Some(ISSUER.into()),
    });
    t.set_authorizer(Some(Rc::new(Authorizer::new(config, None))));
    assert!(post(&t).is_ok());
    let sent = http.sent.borrow();
    assert!(!sent.iter().any(|r| r.url.ends_with("/register")));
    let basic = header(&sent[4], "authorization").expect("Basic");
    assert!(basic.starts_with("Basic "), "{basic}");
    assert_eq!(
        form(sent[4].body.as_deref().unwrap_or_default(), "client_secret"),
        None
    );
}

/// A 401 passed on by `mcp-flow-bridge http` at `bridge`, naming its upstream.
fn bridged_unauthorized(upstream: &str) -> Script {
    let prm = "http://localhost:3000/.well-known/oauth-protected-resource/mcp";
    Script::Respond {
        status: 401,
        headers: vec![
            (
                "www-authenticate",
                format!(r#"Bearer error="invalid_token", resource_metadata="{prm}""#),
            ),
            ("mcp-flow-bridge-upstream", upstream.to_owned()),
        ],
        chunks: vec![Vec::new()],
    }
}

#[test]
fn through_a_bridge_on_this_machine_the_flow_authorizes_for_its_upstream() {
    const BRIDGE: &str = "http://127.0.0.1:8001/s/k/mcp";
    const UPSTREAM: &str = "http://localhost:3000/mcp";
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = vec![
        bridged_unauthorized(UPSTREAM),
        prm(UPSTREAM, None),
        server_metadata(json!({})),
        registered(),
        approve(Some(ISSUER)),
        tokens(TOKEN, 3600, None),
        ok(),
    ]
    .into();
    let (_, recorder) = shared_log();
    let t = Transport::new(http.clone(), http.clone(), BRIDGE, recorder);
    t.set_authorizer(Some(Rc::new(Authorizer::new(AuthConfig::native(), None))));
    assert!(post(&t).is_ok());
    assert_eq!(t.upstream().as_deref(), Some(UPSTREAM));
    let sent = http.sent.borrow();
    assert_eq!(query(&sent[4].url, "resource").as_deref(), Some(UPSTREAM));
    let token_body = sent[5].body.clone().unwrap_or_default();
    assert_eq!(form(&token_body, "resource").as_deref(), Some(UPSTREAM));
    // The token goes to the bridge, which relays it; nowhere else.
    assert_eq!(sent[6].url, BRIDGE);
    assert_eq!(
        header(&sent[6], "authorization"),
        Some(&*format!("Bearer {TOKEN}"))
    );
    for request in &sent[1..6] {
        assert_eq!(header(request, "authorization"), None, "{}", request.url);
    }

    // The same header from a server elsewhere is not believed: that metadata is not its own.
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = vec![bridged_unauthorized(UPSTREAM), prm(UPSTREAM, None)].into();
    let (_, recorder) = shared_log();
    let t = Transport::new(
        http.clone(),
        http.clone(),
        "http://bridge.example.com/s/k/mcp",
        recorder,
    );
    t.set_authorizer(Some(Rc::new(Authorizer::new(AuthConfig::native(), None))));
    let err = post(&t).expect_err("another resource");
    assert!(err.to_string().contains("not for this server"), "{err}");
    assert_eq!(t.upstream(), None);

    // Through a bridge here, metadata naming neither the bridge nor its upstream is refused too.
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = vec![
        bridged_unauthorized(UPSTREAM),
        prm("http://localhost:3999/mcp", None),
    ]
    .into();
    let (_, recorder) = shared_log();
    let t = Transport::new(http.clone(), http.clone(), BRIDGE, recorder);
    t.set_authorizer(Some(Rc::new(Authorizer::new(AuthConfig::native(), None))));
    let err = post(&t).expect_err("a third resource");
    assert!(err.to_string().contains("not for this server"), "{err}");
    assert_eq!(http.sent.borrow().len(), 2, "nothing after the metadata");
}

#[test]
fn a_local_server_that_is_no_bridge_cannot_collect_a_token_meant_for_another() {
    // Each names an upstream the page could authorize for; none is a bridge of this machine
    // relaying to a plain http server, so the header is not believed and the flow refuses
    // metadata for the named server (the token would go to the loopback server, not to it).
    for (at, upstream) in [
        ("http://127.0.0.1:8001/mcp", "http://localhost:3000/mcp"),
        (
            "http://localhost:9/api/s/k/mcp",
            "http://localhost:3000/mcp",
        ),
        ("http://127.0.0.1:8001/s//mcp", "http://localhost:3000/mcp"),
        (
            "https://127.0.0.1:8001/s/k/mcp",
            "http://localhost:3000/mcp",
        ),
        (
            "http://127.0.0.1:8001/s/k/mcp",
            "https://mail.example.com/mcp",
        ),
        (
            "http://127.0.0.1:8001/s/k/mcp",
            "http://a.example\\@b.example/mcp",
        ),
    ] {
        let http = Rc::new(Scripted::default());
        *http.script.borrow_mut() =
            vec![bridged_unauthorized(upstream), prm(upstream, None)].into();
        let (_, recorder) = shared_log();
        let t = Transport::new(http.clone(), http.clone(), at, recorder);
        t.set_authorizer(Some(Rc::new(Authorizer::new(AuthConfig::native(), None))));
        let err = post(&t).expect_err("metadata for another resource");
        assert!(
            err.to_string().contains("not for this server"),
            "{at}: {err}"
        );
        assert_eq!(t.upstream(), None, "{at} naming {upstream}");
        assert_eq!(
            http.sent.borrow().len(),
            2,
            "{at}: nothing after the metadata"
        );
    }
    assert_eq!(
        crate::origin::bridge_upstream(
            "http://127.0.0.1:8001/s/ab12/mcp?endpoint=1",
            "http://localhost:3000/mcp"
        )
        .as_deref(),
        Some("http://localhost:3000/mcp")
    );
}
