//! `--auth`: `/mcp` as an OAuth-protected resource with the built-in demo authorization server,
//! driven over real HTTP on 127.0.0.1: the 401 challenge, both metadata documents, CORS,
//! dynamic registration, the code flow (auto-approved and through the consent page) with PKCE,
//! `state` and `iss`, `tools/list` in both eras, step-up to `weather:read`, refresh and
//! rotation, audience checks, client ID metadata documents from a loopback server, and the
//! limits that stay in force.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

mod oauth;
mod support;
use oauth::*;

// --- the protected resource ---------------------------------------------------------------------

#[tokio::test]
async fn mcp_without_a_token_is_401_naming_the_resource_metadata() {
    let server = Server::auto().await;
    let expected = format!(
        "Bearer resource_metadata=\"{}\", scope=\"mcp:basic\"",
        server.prm_url()
    );
    for method in [
        reqwest::Method::POST,
        reqwest::Method::GET,
        reqwest::Method::DELETE,
    ] {
        let response = http()
            .request(method.clone(), server.resource())
            .header("content-type", "application/json")
            .body(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{method}");
        assert_eq!(
            header(response.headers(), "www-authenticate"),
            Some(expected.as_str())
        );
    }
    // A token this server never issued, and another scheme.
    let bad = modern(
        &server,
        Some("not-a-token"),
        &modern_body(1, "tools/list", json!({})),
    )
    .await;
    assert_eq!(bad.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        header(bad.headers(), "www-authenticate"),
        Some(
            format!(
                "Bearer error=\"invalid_token\", resource_metadata=\"{}\", scope=\"mcp:basic\"",
                server.prm_url()
            )
            .as_str()
        )
    );
    assert_eq!(
        bad.json::<Value>().await.expect("JSON")["error"],
        "invalid_token"
    );

    // Reached as localhost, the challenge names localhost.
    let port = server.port();
    let response = http()
        .post(server.resource())
        .header("host", format!("localhost:{port}"))
        .send()
        .await
        .expect("request");
    assert_eq!(
        header(response.headers(), "www-authenticate"),
        Some(
            format!(
                "Bearer resource_metadata=\"http://localhost:{port}/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:basic\""
            )
            .as_str()
        )
    );
    server.stop().await;
}

#[tokio::test]
async fn calc_stays_open() {
    let server = Server::auto().await;
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": LEGACY, "capabilities": {},
                    "clientInfo": { "name": "t", "version": "0" } }
    });
    let response = http()
        .post(server.url("/calc"))
        .header("accept", "application/json, text/event-stream")
        .json(&body)
        .send()
        .await
        .expect("calc");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        reply(response).await["result"]["serverInfo"]["name"],
        "calculator-server"
    );
    server.stop().await;
}

#[tokio::test]
async fn metadata_documents_name_this_origin() {
    let server = Server::auto().await;
    let issuer = server.issuer();
    let prm: Value = http()
        .get(server.prm_url())
        .send()
        .await
        .expect("PRM")
        .json()
        .await
        .expect("JSON");
    assert_eq!(
        prm,
        json!({
            "resource": server.resource(),
            "authorization_servers": [issuer],
            "scopes_supported": ["mcp:basic", "weather:read"],
            "bearer_methods_supported": ["header"],
            "resource_name": "MCP Flow weather server",
        })
    );
    let expected = json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/oauth/authorize"),
        "token_endpoint": format!("{issuer}/oauth/token"),
        "registration_endpoint": format!("{issuer}/oauth/register"),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
        "scopes_supported": ["mcp:basic", "weather:read"],
        "client_id_metadata_document_supported": true,
        "authorization_response_iss_parameter_supported": true,
    });
    for path in [
        "/.well-known/oauth-authorization-server",
        "/.well-known/openid-configuration",
    ] {
        let response = http()
            .get(server.url(path))
            .send()
            .await
            .expect("AS metadata");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            header(response.headers(), "content-type"),
            Some("application/json")
        );
        assert_eq!(
            response.json::<Value>().await.expect("JSON"),
            expected,
            "{path}"
        );
    }
    // The same documents through localhost name localhost.
    let port = server.port();
    let prm: Value = http()
        .get(server.prm_url())
        .header("host", format!("localhost:{port}"))
        .send()
        .await
        .expect("PRM")
        .json()
        .await
        .expect("JSON");
    assert_eq!(prm["resource"], format!("http://localhost:{port}/mcp"));
    assert_eq!(
        prm["authorization_servers"],
        json!([format!("http://localhost:{port}")])
    );
    // Other well-known paths are 404, and a foreign Host is refused.
    let missing = http()
        .get(server.url("/.well-known/oauth-protected-resource"))
        .send()
        .await
        .expect("root PRM");
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let foreign = http()
        .get(server.prm_url())
        .header("host", "evil.example")
        .send()
        .await
        .expect("PRM");
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
    server.stop().await;
}

#[tokio::test]
async fn cors_for_allowed_origins_on_the_new_endpoints_and_the_challenge() {
    let server = Server::start(&["--auth-auto-approve", "--dev-origins"]).await;
    let origin = "http://localhost:8080";
    for (path, method) in [
        ("/oauth/token", "POST"),
        ("/oauth/register", "POST"),
        ("/.well-known/oauth-protected-resource/mcp", "GET"),
        ("/.well-known/oauth-authorization-server", "GET"),
    ] {
        let preflight = http()
            .request(reqwest::Method::OPTIONS, server.url(path))
            .header("origin", origin)
            .header("access-control-request-method", method)
            .header(
                "access-control-request-headers",
                "content-type, authorization, mcp-protocol-version",
            )
            .send()
            .await
            .expect("preflight");
        assert!(preflight.status().is_success(), "{path}");
        assert_eq!(
            header(preflight.headers(), "access-control-allow-origin"),
            Some(origin),
            "{path}"
        );
        let allowed = header(preflight.headers(), "access-control-allow-headers")
            .unwrap_or_default()
            .to_ascii_lowercase();
        for name in ["content-type", "authorization", "mcp-protocol-version"] {
            assert!(allowed.contains(name), "{name} in {allowed}");
        }
        // A foreign origin gets no grant.
        let foreign = http()
            .request(reqwest::Method::OPTIONS, server.url(path))
            .header("origin", "http://evil.example")
            .header("access-control-request-method", method)
            .send()
            .await
            .expect("preflight");
        assert_eq!(
            header(foreign.headers(), "access-control-allow-origin"),
            None
        );
    }
    let response = http()
        .get(server.url("/.well-known/oauth-authorization-server"))
        .header("origin", origin)
        .send()
        .await
        .expect("metadata");
    assert_eq!(
        header(response.headers(), "access-control-allow-origin"),
        Some(origin)
    );
    let refused = http()
        .post(server.url("/oauth/token"))
        .header("origin", "http://evil.example")
        .form(&[("grant_type", "refresh_token")])
        .send()
        .await
        .expect("token");
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);

    // /mcp: Authorization may be sent, and the challenge is readable.
    let preflight = http()
        .request(reqwest::Method::OPTIONS, server.resource())
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization, content-type",
        )
        .send()
        .await
        .expect("preflight");
    assert!(preflight.status().is_success());
    let challenge = http()
        .post(server.resource())
        .header("origin", origin)
        .send()
        .await
        .expect("POST");
    assert_eq!(challenge.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        header(challenge.headers(), "access-control-allow-origin"),
        Some(origin)
    );
    let exposed = header(challenge.headers(), "access-control-expose-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    assert!(exposed.contains("www-authenticate"), "{exposed}");
    server.stop().await;
}

// --- registration and the code flow -------------------------------------------------------------

#[tokio::test]
async fn dynamic_registration() {
    let server = Server::auto().await;
    let (status, body) = register(
        &server,
        &json!({ "redirect_uris": [REDIRECT], "client_name": "Test", "application_type": "native",
                 "token_endpoint_auth_method": "none",
                 "grant_types": ["authorization_code", "refresh_token"] }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert!(
        body["client_id"]
            .as_str()
            .is_some_and(|id| id.starts_with("dcr-"))
    );
    assert_eq!(body.get("client_secret"), None);
    assert_eq!(body["token_endpoint_auth_method"], "none");
    assert_eq!(body["redirect_uris"], json!([REDIRECT]));
    assert_eq!(body["application_type"], "native");
    assert_eq!(body["client_name"], "Test");

    let (status, body) = register(&server, &json!({ "redirect_uris": [REDIRECT] })).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(body["token_endpoint_auth_method"], "client_secret_basic");
    assert_eq!(body["client_secret"].as_str().map(str::len), Some(43));
    assert_eq!(body["client_secret_expires_at"], 0);
    assert_eq!(
        body["grant_types"],
        json!(["authorization_code", "refresh_token"])
    );

    for (request, error) in [
        (json!({ "client_name": "x" }), "invalid_redirect_uri"),
        (
            json!({ "redirect_uris": ["http://app.example/cb"] }),
            "invalid_redirect_uri",
        ),
        (
            json!({ "redirect_uris": [REDIRECT], "application_type": "browser" }),
            "invalid_client_metadata",
        ),
        (
            json!({ "redirect_uris": [REDIRECT], "token_endpoint_auth_method": "private_key_jwt" }),
            "invalid_client_metadata",
        ),
    ] {
        let (status, body) = register(&server, &request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{request}");
        assert_eq!(body["error"], error, "{request}");
    }
    server.stop().await;
}

#[tokio::test]
async fn code_flow_with_pkce_state_and_iss() {
    let server = Server::auto().await;
    let pkce = pkce();
    let code = code(&server, &pkce, &[]).await;
    let exchange = |code: String, verifier: String| {
        let server = &server;
        async move { redeem(server, &code, &verifier, &[]).await }
    };
    let (status, headers, body) = exchange(code.clone(), pkce.verifier.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(header(&headers, "cache-control"), Some("no-store"));
    assert_eq!(header(&headers, "content-type"), Some("application/json"));
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 3600);
    assert_eq!(body["scope"], "mcp:basic");
    assert_eq!(body["access_token"].as_str().map(str::len), Some(43));
    assert_eq!(body["refresh_token"].as_str().map(str::len), Some(43));

    // A code is single-use.
    let (status, _, body) = exchange(code, pkce.verifier.clone()).await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST, "invalid_grant");

    // The wrong verifier.
    let other = self::code(&server, &pkce, &[]).await;
    let (status, headers, body) = exchange(other, self::pkce().verifier).await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST, "invalid_grant");
    assert_eq!(header(&headers, "cache-control"), Some("no-store"));

    // Another redirect_uri than the authorization request's.
    let other = self::code(&server, &pkce, &[]).await;
    let (status, _, body) = token_request(
        &server,
        &[
            ("grant_type", "authorization_code"),
            ("code", &other),
            ("redirect_uri", "http://127.0.0.1:3001/callback"),
            ("code_verifier", &pkce.verifier),
            ("client_id", DEMO),
        ],
    )
    .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST, "invalid_grant");

    // Unknown grant types and missing parameters.
    let (status, _, body) = token_request(&server, &[("grant_type", "password")]).await;
    assert_refused(
        status,
        &body,
        StatusCode::BAD_REQUEST,
        "unsupported_grant_type",
    );
    let (status, _, body) = token_request(
        &server,
        &[("grant_type", "authorization_code"), ("client_id", DEMO)],
    )
    .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST, "invalid_request");
    server.stop().await;
}

#[tokio::test]
async fn authorization_errors_before_and_after_the_redirect_uri_is_known() {
    let server = Server::auto().await;
    let pkce = pkce();
    // Unknown client, or a redirect it may not use: a page, never a redirect.
    for extra in [
        vec![("client_id", "nobody")],
        vec![("redirect_uri", "https://evil.example/cb")],
        vec![("redirect_uri", "")],
    ] {
        let response = authorize(&server, DEMO, &pkce, &extra).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{extra:?}");
        assert_eq!(header(response.headers(), "location"), None);
        assert!(
            header(response.headers(), "content-type").is_some_and(|t| t.starts_with("text/html"))
        );
    }
    // Known client and redirect: back to the client with error, state and iss.
    for (extra, error) in [
        (vec![("code_challenge", "")], "invalid_request"),
        (vec![("code_challenge_method", "plain")], "invalid_request"),
        (
            vec![("response_type", "token")],
            "unsupported_response_type",
        ),
        (vec![("scope", "mcp:basic admin")], "invalid_scope"),
        (
            vec![("resource", "http://127.0.0.1:1/mcp")],
            "invalid_target",
        ),
        (
            vec![("resource", "https://evil.example/mcp")],
            "invalid_target",
        ),
    ] {
        let response = authorize(&server, DEMO, &pkce, &extra).await;
        let (base, params) = redirected(&response);
        assert_eq!(base, REDIRECT);
        assert_eq!(
            params.get("error").map(String::as_str),
            Some(error),
            "{extra:?}"
        );
        assert!(params.contains_key("error_description"));
        assert_eq!(params.get("state").map(String::as_str), Some("st-1"));
        assert_eq!(params.get("iss"), Some(&server.issuer()));
        assert_eq!(params.get("code"), None);
    }
    server.stop().await;
}

#[tokio::test]
async fn the_consent_page_approves_and_denies_by_form_post() {
    let server = Server::start(&[]).await;
    // A registered client whose name needs escaping.
    let (_, client) = register(
        &server,
        &json!({ "redirect_uris": [REDIRECT], "client_name": "<b>Tom & \"Jerry\"</b>",
                 "token_endpoint_auth_method": "none" }),
    )
    .await;
    let client_id = client["client_id"].as_str().expect("client_id");
    let pkce = pkce();
    let page = authorize(
        &server,
        client_id,
        &pkce,
        &[("scope", "mcp:basic weather:read")],
    )
    .await;
    assert_eq!(page.status(), StatusCode::OK);
    let csp = header(page.headers(), "content-security-policy")
        .unwrap_or_default()
        .to_owned();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    // A browser posts the consent form with its Origin only if the page lets it (under
    // no-referrer it sends `Origin: null`, which the decision refuses).
    assert_eq!(
        header(page.headers(), "referrer-policy"),
        Some("same-origin")
    );
    assert!(
        csp.contains("form-action 'self' http://127.0.0.1:3000"),
        "{csp}"
    );
    assert_eq!(header(page.headers(), "cache-control"), Some("no-store"));
    let html = page.text().await.expect("page");
    assert!(
        html.contains("&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;"),
        "{html}"
    );
    assert!(!html.contains("<b>Tom"));
    assert!(html.contains("<code>mcp:basic</code>") && html.contains("<code>weather:read</code>"));
    assert!(html.contains(&format!("<code>{}</code>", server.resource())));
    let id = request_id(&html);

    let decide = |id: String, decision: &'static str| {
        let url = server.url("/oauth/authorize/decision");
        let origin = server.issuer();
        async move {
            http()
                .post(url)
                .header("origin", origin)
                .form(&[("request", id.as_str()), ("decision", decision)])
                .send()
                .await
                .expect("decision")
        }
    };
    let approved = decide(id.clone(), "approve").await;
    let (base, params) = redirected(&approved);
    assert_eq!(base, REDIRECT);
    assert_eq!(params.get("state").map(String::as_str), Some("st-1"));
    assert_eq!(params.get("iss"), Some(&server.issuer()));
    let code = params.get("code").expect("code");
    let (status, _, body) = token_request(
        &server,
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", REDIRECT),
            ("code_verifier", &pkce.verifier),
            ("client_id", client_id),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["scope"], "mcp:basic weather:read");

    // A decision is taken once.
    let again = decide(id, "approve").await;
    assert_eq!(again.status(), StatusCode::BAD_REQUEST);
    assert_eq!(header(again.headers(), "location"), None);

    // Deny.
    let page = authorize(&server, client_id, &pkce, &[]).await;
    let id = request_id(&page.text().await.expect("page"));
    let denied = decide(id, "deny").await;
    let (_, params) = redirected(&denied);
    assert_eq!(
        params.get("error").map(String::as_str),
        Some("access_denied")
    );
    assert_eq!(params.get("state").map(String::as_str), Some("st-1"));
    assert_eq!(params.get("iss"), Some(&server.issuer()));
    assert_eq!(params.get("code"), None);

    // A foreign page cannot post the decision.
    let page = authorize(&server, client_id, &pkce, &[]).await;
    let id = request_id(&page.text().await.expect("page"));
    let forged = http()
        .post(server.url("/oauth/authorize/decision"))
        .header("origin", "http://evil.example")
        .form(&[("request", id.as_str()), ("decision", "approve")])
        .send()
        .await
        .expect("decision");
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    server.stop().await;
}

#[tokio::test]
async fn confidential_clients_authenticate_by_their_method() {
    let server = Server::auto().await;
    for method in ["client_secret_basic", "client_secret_post"] {
        let (_, client) = register(
            &server,
            &json!({ "redirect_uris": [REDIRECT], "token_endpoint_auth_method": method }),
        )
        .await;
        let id = client["client_id"].as_str().expect("id").to_owned();
        let secret = client["client_secret"].as_str().expect("secret").to_owned();
        let attempt = |secret: String, basic: bool| {
            let (server, id) = (&server, id.clone());
            async move {
                let pkce = pkce();
                let response = authorize(server, &id, &pkce, &[]).await;
                let code = redirected(&response).1.remove("code").expect("code");
                let mut form = vec![
                    ("grant_type", "authorization_code".to_owned()),
                    ("code", code),
                    ("redirect_uri", REDIRECT.to_owned()),
                    ("code_verifier", pkce.verifier),
                ];
                let mut request = http().post(server.url("/oauth/token"));
                if basic {
                    request = request.basic_auth(&id, Some(&secret));
                } else {
                    form.push(("client_id", id.clone()));
                    form.push(("client_secret", secret));
                }
                let response = request.form(&form).send().await.expect("token");
                let status = response.status();
                let challenge = header(response.headers(), "www-authenticate").map(str::to_owned);
                let body: Value = response.json().await.expect("JSON");
                (status, challenge, body)
            }
        };
        let right_way = method == "client_secret_basic";
        let (status, _, body) = attempt(secret.clone(), right_way).await;
        assert_eq!(status, StatusCode::OK, "{method}: {body}");
        let (status, challenge, body) = attempt("wrong".into(), right_way).await;
        assert_refused(status, &body, StatusCode::UNAUTHORIZED, "invalid_client");
        assert_eq!(
            challenge.is_some(),
            right_way,
            "Basic challenge only after Basic"
        );
        // The other method is refused.
        let (status, _, body) = attempt(secret, !right_way).await;
        assert_refused(status, &body, StatusCode::UNAUTHORIZED, "invalid_client");
    }
    server.stop().await;
}

// --- using the tokens ---------------------------------------------------------------------------

#[tokio::test]
async fn tools_list_with_a_token_in_both_eras() {
    let server = Server::auto().await;
    let token = access_token(&server, "mcp:basic").await;

    // 2026-07-28: one request, its own _meta.
    let response = modern(
        &server,
        Some(&token),
        &modern_body(1, "tools/list", json!({})),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(tool_names(&reply(response).await), ["get_weather"]);

    // 2025-11-25: initialize, a session, then tools/list; every request carries the token.
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": LEGACY, "capabilities": {},
                    "clientInfo": { "name": "auth-test", "version": "0" } }
    });
    let response = legacy(&server, &token, None, &initialize).await;
    assert_eq!(response.status(), StatusCode::OK);
    let session = header(response.headers(), "mcp-session-id")
        .expect("session")
        .to_owned();
    assert_eq!(reply(response).await["result"]["protocolVersion"], LEGACY);
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let response = legacy(&server, &token, Some(&session), &initialized).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let list = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" });
    let response = legacy(&server, &token, Some(&session), &list).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(tool_names(&reply(response).await), ["get_weather"]);
    // Without the token the session is no way in.
    let response = http()
        .post(server.resource())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-session-id", &session)
        .json(&list)
        .send()
        .await
        .expect("POST");
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let closed = http()
        .delete(server.resource())
        .bearer_auth(&token)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", LEGACY)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(closed.status(), StatusCode::OK);
    server.stop().await;
}

#[tokio::test]
async fn get_weather_needs_weather_read_and_steps_up() {
    let server = Server::auto().await;
    let basic = access_token(&server, "mcp:basic").await;
    let body = weather_body(3);
    let refused = modern(&server, Some(&basic), &body).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        header(refused.headers(), "www-authenticate"),
        Some(
            format!(
                "Bearer error=\"insufficient_scope\", scope=\"mcp:basic weather:read\", resource_metadata=\"{}\"",
                server.prm_url()
            )
            .as_str()
        )
    );
    assert_eq!(
        refused.json::<Value>().await.expect("JSON")["error"],
        "insufficient_scope"
    );

    let full = access_token(&server, "mcp:basic weather:read").await;
    let response = modern(&server, Some(&full), &body).await;
    assert_eq!(response.status(), StatusCode::OK);
    let reply = reply(response).await;
    assert_eq!(
        reply["result"]["content"],
        json!([{ "type": "text", "text": "Sunny" }])
    );

    // weather:read alone is not enough for anything else.
    let read_only = access_token(&server, "weather:read").await;
    let response = modern(
        &server,
        Some(&read_only),
        &modern_body(4, "tools/list", json!({})),
    )
    .await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(
        header(response.headers(), "www-authenticate")
            .is_some_and(|h| h.contains("scope=\"mcp:basic\""))
    );
    server.stop().await;
}

#[tokio::test]
async fn refresh_after_a_short_lived_token_expires() {
    let server = Server::start(&["--auth-auto-approve", "--auth-token-secs", "1"]).await;
    let first = tokens(&server, "mcp:basic weather:read").await;
    assert_eq!(first["expires_in"], 1);
    let access = first["access_token"].as_str().expect("access");
    let refresh = first["refresh_token"].as_str().expect("refresh");
    let list = modern_body(1, "tools/list", json!({}));
    assert_eq!(
        modern(&server, Some(access), &list).await.status(),
        StatusCode::OK
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let expired = modern(&server, Some(access), &list).await;
    assert_eq!(expired.status(), StatusCode::UNAUTHORIZED);
    assert!(
        header(expired.headers(), "www-authenticate")
            .is_some_and(|h| h.starts_with("Bearer error=\"invalid_token\""))
    );

    // Refresh, narrowing the scope.
    let (status, headers, second) = token_request(
        &server,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh),
            ("client_id", DEMO),
            ("scope", "mcp:basic"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_eq!(header(&headers, "cache-control"), Some("no-store"));
    assert_eq!(second["scope"], "mcp:basic");
    assert_eq!(second["expires_in"], 1);
    let new_access = second["access_token"].as_str().expect("access");
    let new_refresh = second["refresh_token"].as_str().expect("rotated refresh");
    assert_ne!(new_refresh, refresh);
    assert_eq!(
        modern(&server, Some(new_access), &list).await.status(),
        StatusCode::OK
    );

    // The new refresh token still carries the whole grant, for this resource only.
    let (status, _, body) = token_request(
        &server,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", new_refresh),
            ("client_id", DEMO),
            ("resource", "http://127.0.0.1:1/mcp"),
        ],
    )
    .await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST, "invalid_target");
    let (status, _, third) = token_request(
        &server,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", new_refresh),
            ("client_id", DEMO),
            ("resource", &server.resource()),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{third}");
    assert_eq!(third["scope"], "mcp:basic weather:read");

    // The first, rotated-out refresh token again: refused, and its whole family revoked
    // (RFC 9700 §4.14.2), so the newest tokens stop working too.
    let (status, _, body) = oauth::refresh(&server, refresh).await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST, "invalid_grant");
    let newest = third["refresh_token"].as_str().expect("rotated refresh");
    let (status, _, body) = oauth::refresh(&server, newest).await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST, "invalid_grant");
    let newest_access = third["access_token"].as_str().expect("access");
    assert_eq!(
        modern(&server, Some(newest_access), &list).await.status(),
        StatusCode::UNAUTHORIZED
    );
    server.stop().await;
}

#[tokio::test]
async fn a_token_for_another_resource_is_refused() {
    let server = Server::auto().await;
    let port = server.port();
    // Issued for http://localhost:PORT/mcp, presented at http://127.0.0.1:PORT/mcp.
    let pkce = pkce();
    let other = format!("http://localhost:{port}/mcp");
    let code = code(&server, &pkce, &[("resource", &other)]).await;
    let (status, _, body) = redeem(&server, &code, &pkce.verifier, &[("resource", &other)]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let token = body["access_token"].as_str().expect("access");
    let list = modern_body(1, "tools/list", json!({}));
    let refused = modern(&server, Some(token), &list).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    assert!(
        header(refused.headers(), "www-authenticate")
            .is_some_and(|h| h.starts_with("Bearer error=\"invalid_token\""))
    );
    // Where it belongs it works.
    let accepted = http()
        .post(server.resource())
        .header("host", format!("localhost:{port}"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tools/list")
        .bearer_auth(token)
        .json(&list)
        .send()
        .await
        .expect("POST");
    assert_eq!(accepted.status(), StatusCode::OK);

    // A token request naming another resource than the code's.
    let code = self::code(&server, &pkce, &[]).await;
    let (status, _, body) = redeem(&server, &code, &pkce.verifier, &[("resource", &other)]).await;
    assert_refused(status, &body, StatusCode::BAD_REQUEST, "invalid_target");
    server.stop().await;
}

#[tokio::test]
async fn the_body_limit_stays_in_force() {
    let server = Server::start(&["--auth-auto-approve", "--max-body-bytes", "2048"]).await;
    let token = access_token(&server, "mcp:basic").await;
    let big = modern_body(1, "tools/list", json!({ "pad": "x".repeat(4096) }));
    assert_eq!(
        modern(&server, Some(&token), &big).await.status(),
        StatusCode::PAYLOAD_TOO_LARGE
    );
    let response = http()
        .post(server.url("/oauth/token"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("grant_type=refresh_token&pad={}", "x".repeat(4096)))
        .send()
        .await
        .expect("token");
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    server.stop().await;
}

// --- client ID metadata documents ---------------------------------------------------------------

#[tokio::test]
async fn a_client_id_metadata_document_from_loopback() {
    let server = Server::auto().await;
    let port = document_server(|port| {
        json!({
            "client_id": format!("http://127.0.0.1:{port}/client.json"),
            "client_name": "CIMD test client",
            "redirect_uris": [REDIRECT],
            "grant_types": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_method": "none",
        })
    })
    .await;
    let client_id = format!("http://127.0.0.1:{port}/client.json");
    let pkce = pkce();
    let response = authorize(&server, &client_id, &pkce, &[]).await;
    let (base, params) = redirected(&response);
    assert_eq!(base, REDIRECT);
    assert_eq!(params.get("iss"), Some(&server.issuer()));
    let code = params.get("code").expect("code");
    let (status, _, body) = token_request(
        &server,
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", REDIRECT),
            ("code_verifier", &pkce.verifier),
            ("client_id", &client_id),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["refresh_token"].is_string());

    // A redirect URI the document does not list: a page, no redirect.
    let response = authorize(
        &server,
        &client_id,
        &pkce,
        &[("redirect_uri", "http://127.0.0.1:3000/other")],
    )
    .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);

    // A document that names another client_id.
    let liar = document_server(
        |_| json!({ "client_id": "http://127.0.0.1:1/client.json", "redirect_uris": [REDIRECT] }),
    )
    .await;
    let response = authorize(
        &server,
        &format!("http://127.0.0.1:{liar}/client.json"),
        &pkce,
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(
        response
            .text()
            .await
            .expect("page")
            .contains("not its own URL")
    );
    server.stop().await;
}

#[tokio::test]
async fn client_id_metadata_documents_elsewhere_are_not_fetched() {
    let server = Server::auto().await;
    let pkce = pkce();
    let response = authorize(
        &server,
        "https://conformance-test.local/client-metadata.json",
        &pkce,
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(header(response.headers(), "location"), None);
    let page = response.text().await.expect("page");
    assert!(page.contains("invalid_client"), "{page}");
    assert!(
        page.contains(
            "this demo server fetches client metadata documents only from loopback hosts"
        ),
        "{page}"
    );
    server.stop().await;
}
