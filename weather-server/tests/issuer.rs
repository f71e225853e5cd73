//! `--auth --auth-issuer URL`: `/mcp` takes JWT access tokens (RFC 9068) from another
//! authorization server. A test issuer on 127.0.0.1 serves its metadata and keys and signs
//! tokens with a P-256 key made for these tests; each case sends one token and checks the answer.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::{Json, Router, routing::get};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::net::TcpListener;

mod support;
use support::{TestServer, call_weather, initialize_request};

/// A key made for these tests only (openssl ecparam -name prime256v1), and its public half.
const TEST_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgdpnF+NqJ41Mmz2Tl
rY3S+XFgYd+BiA0J/B78pf3J5gChRANCAATW6rYfAY47xu+TV/gBXb8Uvi5j5DKf
/wxA9AdVAUOrA5g1YbOx15yKU9d0419mgpTWpLusFwilWrtZgOLYknge
-----END PRIVATE KEY-----
";
const TEST_X: &str = "1uq2HwGOO8bvk1f4AV2_FL4uY-Qyn_8MQPQHVQFDqwM";
const TEST_Y: &str = "mDVhs7HXnIpT13TjX2aClNaku6wXCKVau1mA4tiSeB4";
const KID: &str = "test-p256";

/// The other authorization server: RFC 8414 metadata and a JWKS, nothing else.
async fn start_issuer() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let issuer = format!("http://{}", listener.local_addr().expect("addr"));
    let metadata = json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/auth"),
        "token_endpoint": format!("{issuer}/token"),
        "jwks_uri": format!("{issuer}/jwks"),
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
    });
    let jwks = json!({ "keys": [{
        "kty": "EC", "crv": "P-256", "x": TEST_X, "y": TEST_Y,
        "kid": KID, "use": "sig", "alg": "ES256",
    }]});
    let app = Router::new()
        .route(
            "/.well-known/oauth-authorization-server",
            get(move || async move { Json(metadata) }),
        )
        .route("/jwks", get(move || async move { Json(jwks) }));
    tokio::spawn(async move { axum::serve(listener, app).await });
    issuer
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_secs()
}

/// A token as the issuer would sign it; `change` edits the header or claims first.
fn token(
    issuer: &str,
    resource: &str,
    scope: &str,
    change: impl FnOnce(&mut Header, &mut Value),
) -> String {
    let mut header = Header::new(Algorithm::ES256);
    header.typ = Some("at+jwt".into());
    header.kid = Some(KID.into());
    let mut claims = json!({
        "iss": issuer, "aud": resource, "sub": "user", "client_id": "page",
        "scope": scope, "iat": now(), "exp": now() + 600,
    });
    change(&mut header, &mut claims);
    let key = EncodingKey::from_ec_pem(TEST_KEY.as_bytes()).expect("test key");
    encode(&header, &claims, &key).expect("signed")
}

async fn start() -> (TestServer, String) {
    let issuer = start_issuer().await;
    let server = TestServer::start(&["--auth", "--auth-issuer", &issuer]).await;
    (server, issuer)
}

async fn send(server: &TestServer, token: &str, body: &Value) -> reqwest::Response {
    server
        .post(None)
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .expect("sent")
}

#[tokio::test]
async fn the_metadata_names_the_other_issuer_and_the_builtin_server_is_gone() {
    let (server, issuer) = start().await;
    let prm: Value = server
        .get("/.well-known/oauth-protected-resource/mcp")
        .send()
        .await
        .expect("sent")
        .json()
        .await
        .expect("json");
    assert_eq!(prm["authorization_servers"], json!([issuer]));
    assert_eq!(prm["resource"], json!(server.url));
    for path in [
        "/.well-known/oauth-authorization-server",
        "/oauth/token",
        "/oauth/register",
    ] {
        let status = server.get(path).send().await.expect("sent").status();
        assert!(
            status == StatusCode::NOT_FOUND || status == StatusCode::METHOD_NOT_ALLOWED,
            "{path}: {status}"
        );
    }
}

#[tokio::test]
async fn a_token_is_taken_only_when_signed_typed_and_addressed_to_this_resource() {
    let (server, issuer) = start().await;
    let resource = server.url.clone();
    let basic = "mcp:basic";
    let ok = token(&issuer, &resource, basic, |_, _| {});
    let initialize = initialize_request(1);
    assert_eq!(
        send(&server, &ok, &initialize).await.status(),
        StatusCode::OK
    );

    type Change = fn(&mut Header, &mut Value);
    let refused: [(&str, Change); 7] = [
        // Leeway is 5 s: a token valid only from a minute on is not valid yet.
        ("not valid yet (nbf)", |_, c| c["nbf"] = json!(now() + 60)),
        ("another audience", |_, c| {
            c["aud"] = json!("http://127.0.0.1:1/mcp")
        }),
        ("another issuer", |_, c| {
            c["iss"] = json!("http://127.0.0.1:1")
        }),
        ("expired", |_, c| c["exp"] = json!(now() - 120)),
        ("an ID token's typ", |h, _| h.typ = Some("JWT".into())),
        ("an unknown key", |h, _| h.kid = Some("other".into())),
        ("no expiry", |_, c| {
            c.as_object_mut().expect("object").remove("exp");
        }),
    ];
    for (case, change) in refused {
        let bad = token(&issuer, &resource, basic, change);
        let response = send(&server, &bad, &initialize).await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{case}");
        let challenge = support::header(&response, "www-authenticate")
            .unwrap_or_default()
            .to_owned();
        assert!(
            challenge.contains("error=\"invalid_token\""),
            "{case}: {challenge}"
        );
    }
    // A signature that is not the issuer's: the payload of one token under another's signature.
    let other = token(&issuer, &resource, "mcp:basic weather:read", |_, _| {});
    let mut parts: Vec<&str> = ok.split('.').collect();
    parts[2] = other.rsplit('.').next().expect("signature");
    let forged = parts.join(".");
    assert_eq!(
        send(&server, &forged, &initialize).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        send(&server, "not-a-jwt", &initialize).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn get_weather_needs_the_scope_the_token_grants() {
    let (server, issuer) = start().await;
    let resource = server.url.clone();
    let call = call_weather(2, "Tokyo");
    let basic = token(&issuer, &resource, "openid mcp:basic", |_, _| {});
    let response = send(&server, &basic, &call).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let challenge = support::header(&response, "www-authenticate")
        .unwrap_or_default()
        .to_owned();
    assert!(
        challenge.contains("insufficient_scope") && challenge.contains("weather:read"),
        "{challenge}"
    );
    let full = token(&issuer, &resource, "mcp:basic weather:read", |_, _| {});
    assert_ne!(
        send(&server, &full, &call).await.status(),
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn an_issuer_that_cannot_be_reached_is_a_503_not_a_bad_token() {
    // A port that was bound and let go: nobody answers there.
    let gone = {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        format!("http://{}", listener.local_addr().expect("addr"))
    };
    let server = TestServer::start(&["--auth", "--auth-issuer", &gone]).await;
    let resource = server.url.clone();
    let token = token(&gone, &resource, "mcp:basic", |_, _| {});
    let response = send(&server, &token, &initialize_request(1)).await;
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let text = response.text().await.expect("body");
    assert!(text.contains("keys cannot be had"), "{text}");
}
