//! Property-based fuzzing of the demo authorization server's endpoints (registration, the
//! authorization request, the consent decision, the token endpoint) in process, through the
//! axum `Router` (no sockets): proptest generates each request's method, endpoint, headers
//! (`Host`, `Origin`, `Sec-Fetch-*`, content types, `Authorization`) and a body or query built
//! from near-valid parameters, random text and oversized values.
//!
//! The property, for every request: no panic; no 5xx; the whole answer within
//! [`REQUEST_TIMEOUT`]. A second test floods the endpoints with the largest values they take and
//! checks that the server's memory stays bounded (its caps give way instead of growing).

use std::{net::SocketAddr, time::Duration};

use axum::{
    Router,
    body::Body,
    http::{Method, Request, StatusCode, header},
};
use proptest::{
    prelude::*,
    sample::select,
    test_runner::{Config as ProptestConfig, RngAlgorithm, TestRng, TestRunner},
};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;
use weather_server::{Config, router};

mod support;

const LOCAL_ADDR: &str = "127.0.0.1:8000";
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
const PKCE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

fn auth_router(auto_approve: bool) -> Router {
    let mut flags = vec!["--auth"];
    if auto_approve {
        flags.push("--auth-auto-approve");
    }
    let config = Config::try_from_args(flags).expect("valid flags");
    let addr: SocketAddr = LOCAL_ADDR.parse().expect("address");
    router(&config, addr, CancellationToken::new()).expect("router")
}

/// One generated request.
#[derive(Debug, Clone)]
struct Case {
    method: Method,
    path: &'static str,
    query: String,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

fn text() -> BoxedStrategy<String> {
    prop_oneof![
        "[a-zA-Z0-9:/._~%-]{0,40}",
        ".{0,20}",
        Just(String::new()),
        (0usize..2).prop_map(|k| "x".repeat([600, 5_000][k])),
    ]
    .boxed()
}

fn uri() -> BoxedStrategy<String> {
    prop_oneof![
        Just("http://127.0.0.1:3000/callback".to_owned()),
        Just("http://localhost/cb".to_owned()),
        Just("https://app.example/cb".to_owned()),
        Just("javascript:alert(1)".to_owned()),
        Just("http://127.0.0.1:9/client.json".to_owned()),
        text(),
    ]
    .boxed()
}

/// `name=value&…` from near-valid OAuth parameters, some repeated, some random.
fn form() -> BoxedStrategy<String> {
    let names = [
        "grant_type",
        "code",
        "redirect_uri",
        "code_verifier",
        "client_id",
        "client_secret",
        "refresh_token",
        "scope",
        "resource",
        "response_type",
        "code_challenge",
        "code_challenge_method",
        "state",
        "request",
        "decision",
    ];
    let value = prop_oneof![
        select(vec![
            "authorization_code",
            "refresh_token",
            "code",
            "S256",
            "plain",
            "mcp:basic",
            "mcp:basic weather:read",
            "mcp-flow-demo",
            "approve",
            "deny",
            PKCE,
            "http://127.0.0.1:8000/mcp",
        ])
        .prop_map(str::to_owned),
        uri(),
        text(),
    ];
    prop::collection::vec((select(names.to_vec()), value), 0..10)
        .prop_map(|pairs| {
            pairs
                .into_iter()
                .map(|(n, v)| format!("{n}={}", urlencoding(&v)))
                .collect::<Vec<_>>()
                .join("&")
        })
        .boxed()
}

fn urlencoding(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn registration() -> BoxedStrategy<Vec<u8>> {
    let uris = prop::collection::vec(uri(), 0..12);
    let method = select(vec![
        "none",
        "client_secret_basic",
        "client_secret_post",
        "private_key_jwt",
    ]);
    prop_oneof![
        (uris, method, text()).prop_map(|(uris, method, name)| {
            json!({ "redirect_uris": uris, "token_endpoint_auth_method": method,
                    "client_name": name, "grant_types": ["authorization_code", "refresh_token"] })
            .to_string()
            .into_bytes()
        }),
        Just(b"{".to_vec()),
        Just(b"[]".to_vec()),
        Just(
            json!({ "redirect_uris": "not a list" })
                .to_string()
                .into_bytes()
        ),
        prop::collection::vec(any::<u8>(), 0..64),
    ]
    .boxed()
}

fn case() -> BoxedStrategy<Case> {
    let endpoint = select(vec![
        ("/oauth/register", Method::POST),
        ("/oauth/authorize", Method::GET),
        ("/oauth/authorize/decision", Method::POST),
        ("/oauth/token", Method::POST),
        ("/oauth/token", Method::GET),
        ("/.well-known/oauth-authorization-server", Method::GET),
    ]);
    let host = select(vec![
        "127.0.0.1:8000",
        "localhost:8000",
        "evil.example:8000",
        "127.0.0.1:1",
        "",
    ]);
    let origin = prop::option::of(select(vec![
        "http://127.0.0.1:8000",
        "http://evil.example",
        "null",
    ]));
    let fetch = prop::option::of(select(vec![
        ("navigate", "document"),
        ("no-cors", "image"),
        ("cors", "empty"),
    ]));
    let content_type = prop::option::of(select(vec![
        "application/x-www-form-urlencoded",
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded; charset=utf-8",
    ]));
    let authorization = prop::option::of(select(vec![
        "Basic bWNwLWZsb3ctZGVtbzp4",
        "Basic !!!",
        "Bearer x",
    ]));
    (
        endpoint,
        host,
        origin,
        fetch,
        content_type,
        authorization,
        form(),
        registration(),
    )
        .prop_map(
            |((path, method), host, origin, fetch, content_type, auth, form, registration)| {
                let mut headers = Vec::new();
                if !host.is_empty() {
                    headers.push(("host", host.to_owned()));
                }
                if let Some(o) = origin {
                    headers.push(("origin", o.to_owned()));
                }
                if let Some((mode, dest)) = fetch {
                    headers.push(("sec-fetch-mode", mode.to_owned()));
                    headers.push(("sec-fetch-dest", dest.to_owned()));
                }
                if let Some(t) = content_type {
                    headers.push(("content-type", t.to_owned()));
                }
                if let Some(a) = auth {
                    headers.push(("authorization", a.to_owned()));
                }
                let (query, body) = match (path, &method) {
                    ("/oauth/register", _) => (String::new(), registration),
                    (_, &Method::GET) => (form, Vec::new()),
                    _ => (String::new(), form.into_bytes()),
                };
                Case {
                    method,
                    path,
                    query,
                    headers,
                    body,
                }
            },
        )
        .boxed()
}

fn request(case: &Case) -> Request<Body> {
    let uri = if case.query.is_empty() {
        case.path.to_owned()
    } else {
        format!("{}?{}", case.path, case.query)
    };
    let mut builder = Request::builder().method(case.method.clone()).uri(uri);
    for (name, value) in &case.headers {
        builder = builder.header(*name, value.as_str());
    }
    builder
        .body(Body::from(case.body.clone()))
        .expect("a request")
}

/// The status, or why the exchange failed (a hang, a body that did not arrive).
async fn send(router: &Router, request: Request<Body>) -> Result<StatusCode, String> {
    let exchange = async {
        let response = match router.clone().oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        };
        let status = response.status();
        axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .map_err(|e| format!("HTTP {status}: the body broke: {e}"))?;
        Ok(status)
    };
    tokio::time::timeout(REQUEST_TIMEOUT, exchange)
        .await
        .map_err(|_| format!("no complete answer within {REQUEST_TIMEOUT:?}"))?
}

#[test]
fn fuzz_the_authorization_endpoints() {
    let panics_before = support::panics();
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let sent = std::cell::Cell::new(0u64);
    for (auto_approve, seed) in [(true, 0xA0_7401u64), (false, 0xA0_7402)] {
        let router = auth_router(auto_approve);
        let mut seed_bytes = [0u8; 32];
        seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
        let config = ProptestConfig {
            cases: 400,
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        let mut runner = TestRunner::new_with_rng(
            config,
            TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
        );
        let outcome = runner.run(&case(), |case| {
            sent.set(sent.get() + 1);
            let status = runtime
                .block_on(send(&router, request(&case)))
                .map_err(TestCaseError::fail)?;
            prop_assert!(
                !status.is_server_error(),
                "HTTP {status} for {} {}",
                case.method,
                case.path
            );
            Ok(())
        });
        if let Err(error) = outcome {
            panic!("auto-approve {auto_approve}: {error}");
        }
    }
    println!(
        "fuzz (authorization): {} requests, no panic, no 5xx",
        sent.get()
    );
    assert_eq!(support::panics(), panics_before, "panics");
}

/// Resident memory of this process, in KiB (Linux).
fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// What an anonymous caller can make the server keep is bounded: 10,000 registrations with
/// the most and longest redirect URIs and 2,000 held requests with the longest `state` would
/// take some 80 MiB if kept; the caps keep the server under 40 MiB of growth.
#[test]
fn a_flood_of_the_largest_requests_keeps_memory_bounded() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let router = auth_router(false);
    let before = resident_kib();
    runtime.block_on(async {
        for i in 0..10_000 {
            let uris: Vec<String> = (0..8)
                .map(|k| format!("http://127.0.0.1:{}/{}", 3000 + k, "p".repeat(990 + i % 7)))
                .collect();
            let body = json!({ "redirect_uris": uris, "token_endpoint_auth_method": "none" });
            let request = Request::builder()
                .method(Method::POST)
                .uri("/oauth/register")
                .header(header::HOST, LOCAL_ADDR)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .expect("request");
            let status = send(&router, request).await.expect("answered");
            assert_eq!(status, StatusCode::CREATED, "registration {i}");
        }
        let state = "s".repeat(512);
        for i in 0..2_000 {
            let query = format!(
                "response_type=code&client_id=mcp-flow-demo&redirect_uri=http%3A%2F%2F127.0.0.1%3A{}%2Fcb&code_challenge={PKCE}&code_challenge_method=S256&state={state}",
                3000 + i % 50
            );
            let request = Request::builder()
                .uri(format!("/oauth/authorize?{query}"))
                .header(header::HOST, LOCAL_ADDR)
                .body(Body::empty())
                .expect("request");
            let status = send(&router, request).await.expect("answered");
            assert_eq!(status, StatusCode::OK, "authorization request {i}: a consent page");
        }
    });
    let grown = resident_kib().saturating_sub(before);
    println!(
        "fuzz (authorization): memory grew {} KiB under the flood",
        grown
    );
    assert!(grown < 40 * 1024, "memory grew by {grown} KiB");
}
