//! The demo authorization server and its protected resource against a hostile client, as one
//! table: each row is an attack a reviewer of an OAuth server would try, with the refusal it
//! must meet, run over real HTTP on 127.0.0.1. Every row runs (a failing row does not hide the
//! next); the table is printed and written to `target/tmp/attack-table.txt`, which the test
//! command's report lists. References: RFC 6749, RFC 6819, RFC 7591, RFC 7636, RFC 8707,
//! RFC 9700 (OAuth security BCP), MCP 2026-07-28 authorization and security best practices.

use std::{future::Future, sync::atomic::Ordering};

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};

mod oauth;
mod support;
use oauth::*;
use support::initialize_request;

/// One row's outcome: `Ok` when the attack met the refusal it must meet.
type Outcome = Result<(), String>;

struct Table {
    rows: Vec<(&'static str, &'static str, Outcome)>,
}

impl Table {
    async fn row(
        &mut self,
        attack: &'static str,
        refusal: &'static str,
        run: impl Future<Output = Outcome>,
    ) {
        self.rows.push((attack, refusal, run.await));
    }

    /// Prints and writes the table; fails the test if any row failed.
    fn finish(self) {
        let mut text = String::new();
        for (attack, refusal, outcome) in &self.rows {
            let verdict = match outcome {
                Ok(()) => "ok".to_owned(),
                Err(why) => format!("FAILED: {why}"),
            };
            text.push_str(&format!("attack: {attack} -> {refusal}: {verdict}\n"));
        }
        print!("{text}");
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("attack-table.txt");
        std::fs::write(&path, &text).expect("the table is written");
        let failed: Vec<&str> = self
            .rows
            .iter()
            .filter(|(_, _, o)| o.is_err())
            .map(|(a, _, _)| *a)
            .collect();
        assert!(failed.is_empty(), "attacks not refused: {failed:#?}");
    }
}

fn expect(cond: bool, why: impl FnOnce() -> String) -> Outcome {
    if cond { Ok(()) } else { Err(why()) }
}

/// An OAuth error answer: this status and `error`.
fn oauth_error(status: StatusCode, body: &Value, expected: StatusCode, error: &str) -> Outcome {
    expect(status == expected && body["error"] == error, || {
        format!("got {status} {body}")
    })
}

/// An error page, not a redirect: the client's redirect URI is not trusted with it.
async fn error_page(response: Response, contains: &str) -> Outcome {
    let status = response.status();
    let location = response.headers().get("location").cloned();
    let text = response.text().await.unwrap_or_default();
    expect(
        status == StatusCode::BAD_REQUEST && location.is_none() && text.contains(contains),
        || format!("got {status}, Location {location:?}: {}", clip(&text)),
    )
}

/// A redirect back to the client with `error`.
fn redirected_error(response: &Response, error: &str) -> Outcome {
    if response.status() != StatusCode::FOUND {
        return Err(format!("got {} instead of a redirect", response.status()));
    }
    let (_, params) = redirected(response);
    expect(
        params.get("error").map(String::as_str) == Some(error),
        || format!("redirected with {params:?}"),
    )
}

/// 403 `insufficient_scope` naming `weather:read`.
fn insufficient(response: &Response) -> Outcome {
    let challenge = header(response.headers(), "www-authenticate").unwrap_or_default();
    expect(
        response.status() == StatusCode::FORBIDDEN
            && challenge.contains("insufficient_scope")
            && challenge.contains("weather:read"),
        || format!("got {} with {challenge:?}", response.status()),
    )
}

fn clip(text: &str) -> String {
    text.chars().take(200).collect()
}

fn status_is(response: &Response, expected: StatusCode) -> Outcome {
    expect(response.status() == expected, || {
        format!("got {}", response.status())
    })
}

/// A registered public client with `redirect_uris`; its id.
async fn registered(server: &Server, redirect_uris: &[&str]) -> String {
    let (status, body) = register(
        server,
        &json!({ "redirect_uris": redirect_uris, "token_endpoint_auth_method": "none" }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["client_id"].as_str().expect("client_id").to_owned()
}

/// The code grant as `client` sends it, back to `redirect_uri`, with `extra` parameters.
async fn redeem_as(
    server: &Server,
    client: &str,
    code: &str,
    verifier: &str,
    redirect_uri: &str,
    extra: &[(&str, &str)],
) -> (StatusCode, Value) {
    let mut form = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", redirect_uri),
        ("code_verifier", verifier),
        ("client_id", client),
    ];
    form.extend_from_slice(extra);
    let (status, _, body) = token_request(server, &form).await;
    (status, body)
}

/// An auto-approved code for `client` and the verifier that redeems it.
async fn code_for(server: &Server, client: &str) -> (String, String) {
    let pkce = pkce();
    let response = authorize(server, client, &pkce, &[]).await;
    let (_, params) = redirected(&response);
    (
        params.get("code").cloned().unwrap_or_default(),
        pkce.verifier,
    )
}

/// An access token of a newly registered client (not the demo client), auto-approved.
async fn another_clients_token(server: &Server) -> String {
    let (_, other) = register(
        server,
        &json!({ "redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none" }),
    )
    .await;
    let id = other["client_id"].as_str().unwrap_or_default();
    let (code, verifier) = code_for(server, id).await;
    let (_, granted) = redeem_as(server, id, &code, &verifier, REDIRECT, &[]).await;
    granted["access_token"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The access token of a token response no longer reaches `/mcp`.
async fn revoked(server: &Server, granted: &Value) -> Outcome {
    let access = granted["access_token"].as_str().unwrap_or_default();
    let list = modern_call("tools/list", json!({}));
    status_is(
        &modern(server, Some(access), &list).await,
        StatusCode::UNAUTHORIZED,
    )
}

fn modern_call(method: &str, params: Value) -> Value {
    modern_body(1, method, params)
}

#[tokio::test]
async fn the_authorization_server_refuses_every_attack_in_the_table() {
    let auto = Server::start(&["--auth-auto-approve", "--journal"]).await;
    let consent = Server::start(&[]).await;
    let mut table = Table { rows: Vec::new() };
    let basic = access_token(&auto, "mcp:basic").await;

    // --- scope: what a token may do ------------------------------------------------------------
    table
        .row(
            "resources/read of a city's report with mcp:basic",
            "403 insufficient_scope naming weather:read",
            async {
                let body = modern_call("resources/read", json!({ "uri": "weather://city/Tokyo" }));
                insufficient(&modern(&auto, Some(&basic), &body).await)
            },
        )
        .await;
    table
        .row(
            "prompts/get weather_report (it embeds a report) with mcp:basic",
            "403 insufficient_scope naming weather:read",
            async {
                let body = modern_call(
                    "prompts/get",
                    json!({ "name": "weather_report", "arguments": { "city": "Tokyo" } }),
                );
                insufficient(&modern(&auto, Some(&basic), &body).await)
            },
        )
        .await;
    table
        .row(
            "tools/call get_weather with mcp:basic",
            "403 insufficient_scope naming weather:read",
            async { insufficient(&modern(&auto, Some(&basic), &weather_body(1)).await) },
        )
        .await;
    table
        .row(
            "get_weather hidden in a batch behind tools/list",
            "403 insufficient_scope naming weather:read",
            async {
                let batch = json!([modern_call("tools/list", json!({})), weather_body(2)]);
                insufficient(&modern(&auto, Some(&basic), &batch).await)
            },
        )
        .await;
    table
        .row(
            "control: the list of cities with mcp:basic",
            "200 (no report in it)",
            async {
                let body = modern_call("resources/read", json!({ "uri": "weather://cities" }));
                status_is(&modern(&auto, Some(&basic), &body).await, StatusCode::OK)
            },
        )
        .await;
    table
        .row(
            "refresh asking for more scope than was granted",
            "400 invalid_scope",
            async {
                let granted = tokens(&auto, "mcp:basic").await;
                let refresh = granted["refresh_token"].as_str().unwrap_or_default();
                let (status, _, body) = token_request(
                    &auto,
                    &[
                        ("grant_type", "refresh_token"),
                        ("refresh_token", refresh),
                        ("client_id", DEMO),
                        ("scope", "mcp:basic weather:read"),
                    ],
                )
                .await;
                oauth_error(status, &body, StatusCode::BAD_REQUEST, "invalid_scope")
            },
        )
        .await;
    table
        .row(
            "an authorization request for a scope the server does not have",
            "redirect with invalid_scope",
            async {
                let response = authorize(&auto, DEMO, &pkce(), &[("scope", "admin")]).await;
                redirected_error(&response, "invalid_scope")
            },
        )
        .await;

    // --- dynamic registration ------------------------------------------------------------------
    table
        .row(
            "registration with nine redirect URIs",
            "400 invalid_redirect_uri",
            async {
                let uris: Vec<String> = (0..9)
                    .map(|i| format!("http://127.0.0.1:{}/cb", 3000 + i))
                    .collect();
                let (status, body) = register(&auto, &json!({ "redirect_uris": uris })).await;
                oauth_error(
                    status,
                    &body,
                    StatusCode::BAD_REQUEST,
                    "invalid_redirect_uri",
                )
            },
        )
        .await;
    table
        .row(
            "registration with a 1,100-character redirect URI",
            "400 invalid_redirect_uri",
            async {
                let uri = format!("http://127.0.0.1:3000/{}", "a".repeat(1100));
                let (status, body) = register(&auto, &json!({ "redirect_uris": [uri] })).await;
                oauth_error(
                    status,
                    &body,
                    StatusCode::BAD_REQUEST,
                    "invalid_redirect_uri",
                )
            },
        )
        .await;
    table
        .row("a 1 MiB registration", "413, nothing stored", async {
            let name = "n".repeat(1024 * 1024);
            let response = http()
                .post(auto.url("/oauth/register"))
                .json(&json!({ "redirect_uris": [REDIRECT], "client_name": name }))
                .send()
                .await
                .map_err(|e| e.to_string())?;
            status_is(&response, StatusCode::PAYLOAD_TOO_LARGE)
        })
        .await;
    table
        .row(
            "a javascript: or plain http redirect URI",
            "400 invalid_redirect_uri",
            async {
                for uri in ["javascript:alert(1)", "http://evil.example/cb"] {
                    let (status, body) = register(&auto, &json!({ "redirect_uris": [uri] })).await;
                    oauth_error(
                        status,
                        &body,
                        StatusCode::BAD_REQUEST,
                        "invalid_redirect_uri",
                    )
                    .map_err(|e| format!("{uri}: {e}"))?;
                }
                Ok(())
            },
        )
        .await;
    table
        .row(
            "1,100 registrations, then a real client registers and authorizes",
            "201, and its request is held (the oldest unused registrations give way)",
            async {
                for _ in 0..1100 {
                    registered(&consent, &[REDIRECT]).await;
                }
                let real = registered(&consent, &[REDIRECT]).await;
                let response = authorize(&consent, &real, &pkce(), &[]).await;
                let page = response.text().await.unwrap_or_default();
                expect(page.contains("name=\"request\""), || clip(&page))
            },
        )
        .await;

    table
        .row(
            "a registration flood that also opens the consent page for each registration",
            "a client the user authorized before keeps working (only unconsented ones give way)",
            async {
                let real = registered(&consent, &[REDIRECT]).await;
                let pkce = pkce();
                let page = authorize(&consent, &real, &pkce, &[])
                    .await
                    .text()
                    .await
                    .unwrap_or_default();
                let decided = http()
                    .post(consent.url("/oauth/authorize/decision"))
                    .form(&[
                        ("request", request_id(&page).as_str()),
                        ("decision", "approve"),
                    ])
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                let (_, params) = redirected(&decided);
                let code = params.get("code").cloned().unwrap_or_default();
                let (status, granted) =
                    redeem_as(&consent, &real, &code, &pkce.verifier, REDIRECT, &[]).await;
                expect(status == StatusCode::OK, || format!("{status}: {granted}"))?;
                for _ in 0..1_050 {
                    let flood = registered(&consent, &[REDIRECT]).await;
                    authorize(&consent, &flood, &pkce, &[]).await;
                }
                let refresh = granted["refresh_token"].as_str().unwrap_or_default();
                let (status, _, body) = token_request(
                    &consent,
                    &[
                        ("grant_type", "refresh_token"),
                        ("refresh_token", refresh),
                        ("client_id", real.as_str()),
                    ],
                )
                .await;
                expect(status == StatusCode::OK, || {
                    format!("the authorized client is gone: {status} {body}")
                })
            },
        )
        .await;

    // --- the authorization request -------------------------------------------------------------
    table
        .row("a 600-character state", "400 page, nothing held", async {
            let state = "s".repeat(600);
            let response = authorize(&auto, DEMO, &pkce(), &[("state", &state)]).await;
            error_page(response, "state may be at most").await
        })
        .await;
    let (doc_port, fetches) = counted_document_server(|port| {
        json!({ "client_id": format!("http://127.0.0.1:{port}/client.json"),
                "redirect_uris": [REDIRECT] })
    })
    .await;
    let document = format!("http://127.0.0.1:{doc_port}/client.json");
    table
        .row(
            "another site's page fires the authorization URL as an image (no Origin sent)",
            "400 page; no metadata document fetched, nothing held",
            async {
                let response = http()
                    .get(auto.url("/oauth/authorize"))
                    .query(&[("client_id", document.as_str()), ("redirect_uri", REDIRECT)])
                    .header("sec-fetch-mode", "no-cors")
                    .header("sec-fetch-dest", "image")
                    .header("sec-fetch-site", "cross-site")
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                error_page(response, "not a resource to fetch").await?;
                expect(fetches.load(Ordering::SeqCst) == 0, || {
                    "the document was fetched".into()
                })
            },
        )
        .await;
    table
        .row(
            "three authorization requests naming the same client metadata document",
            "the document is fetched once",
            async {
                for _ in 0..3 {
                    let response = authorize(&auto, &document, &pkce(), &[]).await;
                    let (_, params) = redirected(&response);
                    expect(params.contains_key("code"), || format!("{params:?}"))?;
                }
                let n = fetches.load(Ordering::SeqCst);
                expect(n == 1, || format!("fetched {n} times"))
            },
        )
        .await;
    table
        .row(
            "40 waiting requests for the shared demo client, then a real one",
            "the real request is held and approved (the oldest waiting give way)",
            async {
                for _ in 0..40 {
                    authorize(&consent, DEMO, &pkce(), &[]).await;
                }
                let response = authorize(&consent, DEMO, &pkce(), &[]).await;
                let page = response.text().await.unwrap_or_default();
                let id = request_id(&page);
                let decided = http()
                    .post(consent.url("/oauth/authorize/decision"))
                    .form(&[("request", id.as_str()), ("decision", "approve")])
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                let (_, params) = redirected(&decided);
                expect(params.contains_key("code"), || format!("{params:?}"))
            },
        )
        .await;
    let listed = registered(&auto, &[REDIRECT]).await;
    table
        .row(
            "redirect URI tricks: a path, a query, a fragment, another host, https, another \
             loopback name",
            "400 page, never a redirect to them",
            async {
                for uri in [
                    "http://127.0.0.1:3000/callback/../evil",
                    "http://127.0.0.1:3000/callback?next=evil",
                    "http://127.0.0.1:3000/callback#x",
                    "http://127.0.0.1.evil.example:3000/callback",
                    "https://127.0.0.1:3000/callback",
                    "http://localhost:3000/callback",
                    "//evil.example/callback",
                ] {
                    let response =
                        authorize(&auto, &listed, &pkce(), &[("redirect_uri", uri)]).await;
                    error_page(response, "redirect_uri")
                        .await
                        .map_err(|e| format!("{uri}: {e}"))?;
                }
                let response = authorize(
                    &auto,
                    DEMO,
                    &pkce(),
                    &[("redirect_uri", "http://evil.example/cb")],
                )
                .await;
                error_page(response, "redirect_uri").await
            },
        )
        .await;
    table
        .row(
            "PKCE downgrade to plain, or no challenge",
            "redirect with invalid_request",
            async {
                let downgraded =
                    authorize(&auto, DEMO, &pkce(), &[("code_challenge_method", "plain")]).await;
                redirected_error(&downgraded, "invalid_request")?;
                let none = authorize(&auto, DEMO, &pkce(), &[("code_challenge", "")]).await;
                redirected_error(&none, "invalid_request")
            },
        )
        .await;
    table
        .row(
            "a resource indicator for another server",
            "redirect with invalid_target",
            async {
                let response = authorize(
                    &auto,
                    DEMO,
                    &pkce(),
                    &[("resource", "http://127.0.0.1:1/mcp")],
                )
                .await;
                redirected_error(&response, "invalid_target")
            },
        )
        .await;

    // --- the token endpoint --------------------------------------------------------------------
    table
        .row(
            "a code with the wrong verifier, then with the right one",
            "400 invalid_grant both times (the first attempt spends the code)",
            async {
                let pkce = pkce();
                let code = code(&auto, &pkce, &[]).await;
                let wrong = oauth::pkce().verifier;
                let (status, _, body) = redeem(&auto, &code, &wrong, &[]).await;
                oauth_error(status, &body, StatusCode::BAD_REQUEST, "invalid_grant")?;
                let (status, _, body) = redeem(&auto, &code, &pkce.verifier, &[]).await;
                oauth_error(status, &body, StatusCode::BAD_REQUEST, "invalid_grant")
            },
        )
        .await;
    table
        .row(
            "a code redeemed with another redirect URI",
            "400 invalid_grant",
            async {
                let (code, verifier) = code_for(&auto, DEMO).await;
                let other = "http://127.0.0.1:3000/other";
                let (status, body) = redeem_as(&auto, DEMO, &code, &verifier, other, &[]).await;
                oauth_error(status, &body, StatusCode::BAD_REQUEST, "invalid_grant")
            },
        )
        .await;
    table
        .row(
            "a code redeemed by another client",
            "400 invalid_grant",
            async {
                let (code, verifier) = code_for(&auto, DEMO).await;
                let (status, body) =
                    redeem_as(&auto, &listed, &code, &verifier, REDIRECT, &[]).await;
                oauth_error(status, &body, StatusCode::BAD_REQUEST, "invalid_grant")
            },
        )
        .await;
    table
        .row(
            "a code redeemed twice",
            "400 invalid_grant, and the tokens of the first redemption are revoked",
            async {
                let pkce = pkce();
                let code = code(&auto, &pkce, &[]).await;
                let (status, _, first) = redeem(&auto, &code, &pkce.verifier, &[]).await;
                expect(status == StatusCode::OK, || {
                    format!("first: {status} {first}")
                })?;
                let (status, _, body) = redeem(&auto, &code, &pkce.verifier, &[]).await;
                oauth_error(status, &body, StatusCode::BAD_REQUEST, "invalid_grant")?;
                revoked(&auto, &first).await
            },
        )
        .await;
    table
        .row(
            "a rotated-out refresh token replayed",
            "400 invalid_grant, and its successors are revoked",
            async {
                let granted = tokens(&auto, "mcp:basic").await;
                let old = granted["refresh_token"].as_str().unwrap_or_default();
                let (status, _, next) = refresh(&auto, old).await;
                expect(status == StatusCode::OK, || {
                    format!("rotation: {status} {next}")
                })?;
                let (status, _, body) = refresh(&auto, old).await;
                oauth_error(status, &body, StatusCode::BAD_REQUEST, "invalid_grant")?;
                let successor = next["refresh_token"].as_str().unwrap_or_default();
                let (status, _, body) = refresh(&auto, successor).await;
                oauth_error(status, &body, StatusCode::BAD_REQUEST, "invalid_grant")?;
                revoked(&auto, &next).await
            },
        )
        .await;
    table
        .row(
            "a confidential client with a wrong secret",
            "401 invalid_client",
            async {
                let (_, client) = register(
                    &auto,
                    &json!({ "redirect_uris": [REDIRECT],
                             "token_endpoint_auth_method": "client_secret_post" }),
                )
                .await;
                let id = client["client_id"].as_str().unwrap_or_default();
                let (code, verifier) = code_for(&auto, id).await;
                let guessed = [("client_secret", "guessed")];
                let (status, body) =
                    redeem_as(&auto, id, &code, &verifier, REDIRECT, &guessed).await;
                oauth_error(status, &body, StatusCode::UNAUTHORIZED, "invalid_client")
            },
        )
        .await;
    table
        .row(
            "malformed token requests: JSON, repeated grant_type, bytes that are not UTF-8",
            "400 invalid_request",
            async {
                let json = http()
                    .post(auto.url("/oauth/token"))
                    .json(&json!({ "grant_type": "authorization_code" }))
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                let status = json.status();
                let body: Value = json.json().await.unwrap_or_default();
                oauth_error(status, &body, StatusCode::BAD_REQUEST, "invalid_request")?;
                let (status, _, body) = token_request(
                    &auto,
                    &[
                        ("grant_type", "refresh_token"),
                        ("grant_type", "authorization_code"),
                    ],
                )
                .await;
                oauth_error(status, &body, StatusCode::BAD_REQUEST, "invalid_request")?;
                let garbage = http()
                    .post(auto.url("/oauth/token"))
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body(vec![0xff, 0xfe, b'=', 0x80])
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                let status = garbage.status();
                expect(status == StatusCode::BAD_REQUEST, || {
                    format!("garbage: {status}")
                })
            },
        )
        .await;
    table
        .row(
            "2 MiB bodies at the token endpoint, the registration and the consent decision",
            "413",
            async {
                let big = "x".repeat(2 * 1024 * 1024);
                for (path, content_type) in [
                    ("/oauth/token", "application/x-www-form-urlencoded"),
                    ("/oauth/register", "application/json"),
                    (
                        "/oauth/authorize/decision",
                        "application/x-www-form-urlencoded",
                    ),
                ] {
                    let response = http()
                        .post(consent.url(path))
                        .header("content-type", content_type)
                        .body(big.clone())
                        .send()
                        .await
                        .map_err(|e| e.to_string())?;
                    status_is(&response, StatusCode::PAYLOAD_TOO_LARGE)
                        .map_err(|e| format!("{path}: {e}"))?;
                }
                Ok(())
            },
        )
        .await;
    table
        .row(
            "a consent decision naming no held request",
            "400 page",
            async {
                let response = http()
                    .post(consent.url("/oauth/authorize/decision"))
                    .form(&[("request", "made-up"), ("decision", "approve")])
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                error_page(response, "unknown").await
            },
        )
        .await;

    // --- the protected resource ----------------------------------------------------------------
    table
        .row(
            "a token issued for 127.0.0.1's resource sent to localhost's",
            "401 invalid_token (another audience)",
            async {
                let response = http()
                    .post(format!("http://localhost:{}/mcp", auto.port()))
                    .header("content-type", "application/json")
                    .header("accept", "application/json, text/event-stream")
                    .header("mcp-protocol-version", MODERN)
                    .header("mcp-method", "tools/list")
                    .bearer_auth(&basic)
                    .json(&modern_call("tools/list", json!({})))
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                let challenge = header(response.headers(), "www-authenticate")
                    .unwrap_or_default()
                    .to_owned();
                expect(
                    response.status() == StatusCode::UNAUTHORIZED
                        && challenge.contains("invalid_token"),
                    || format!("got {} {challenge}", response.status()),
                )
            },
        )
        .await;
    table
        .row(
            "the access token in the query string instead of the header",
            "401 (no token taken from a URL)",
            async {
                let response = http()
                    .post(format!("{}?access_token={basic}", auto.resource()))
                    .header("content-type", "application/json")
                    .header("accept", "application/json, text/event-stream")
                    .json(&modern_call("tools/list", json!({})))
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                status_is(&response, StatusCode::UNAUTHORIZED)
            },
        )
        .await;
    table
        .row(
            "another client's token on a 2025-11-25 session",
            "404 session not found; the owner's token still reaches it",
            async {
                let owner = access_token(&auto, "mcp:basic").await;
                let opened = legacy(&auto, &owner, None, &initialize_request(1)).await;
                let session = header(opened.headers(), "mcp-session-id")
                    .ok_or("no session opened")?
                    .to_owned();
                let stranger = &another_clients_token(&auto).await;
                let ping = json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" });
                let hijack = legacy(&auto, stranger, Some(&session), &ping).await;
                status_is(&hijack, StatusCode::NOT_FOUND)?;
                let own = legacy(&auto, &owner, Some(&session), &ping).await;
                status_is(&own, StatusCode::OK)
            },
        )
        .await;
    table
        .row(
            "/journal read with another client's token",
            "none of the other client's requests or session ids",
            async {
                let owner = access_token(&auto, "mcp:basic").await;
                let opened = legacy(&auto, &owner, None, &initialize_request(1)).await;
                let session = header(opened.headers(), "mcp-session-id")
                    .ok_or("no session opened")?
                    .to_owned();
                let ping = json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" });
                legacy(&auto, &owner, Some(&session), &ping).await;
                let stranger = &another_clients_token(&auto).await;
                let journal = auto.url("/journal");
                let read = |token: String| {
                    let journal = journal.clone();
                    async move {
                        http()
                            .get(journal)
                            .bearer_auth(token)
                            .send()
                            .await
                            .map_err(|e| e.to_string())?
                            .text()
                            .await
                            .map_err(|e| e.to_string())
                    }
                };
                let seen = read(stranger.clone()).await?;
                expect(!seen.contains(&session), || {
                    format!("the stranger sees {seen}")
                })?;
                let own = read(owner).await?;
                expect(own.contains(&session), || format!("the owner sees {own}"))
            },
        )
        .await;
    table
        .row(
            "/journal (it shows session ids) without a token",
            "401",
            async {
                let response = http()
                    .get(auto.url("/journal"))
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                status_is(&response, StatusCode::UNAUTHORIZED)
            },
        )
        .await;

    // --- Host and Origin -----------------------------------------------------------------------
    table
        .row(
            "a foreign Host (DNS rebinding) at the token endpoint, the metadata and /mcp",
            "403",
            async {
                for (method, path) in [
                    (reqwest::Method::POST, "/oauth/token"),
                    (
                        reqwest::Method::GET,
                        "/.well-known/oauth-authorization-server",
                    ),
                    (reqwest::Method::POST, "/mcp"),
                ] {
                    let response = http()
                        .request(method, auto.url(path))
                        .header("host", format!("evil.example:{}", auto.port()))
                        .bearer_auth(&basic)
                        .send()
                        .await
                        .map_err(|e| e.to_string())?;
                    let status = response.status();
                    expect(status == StatusCode::FORBIDDEN, || {
                        format!("{path}: {status}")
                    })?;
                }
                Ok(())
            },
        )
        .await;
    table
        .row(
            "a foreign Origin at the registration and token endpoints",
            "403",
            async {
                for path in ["/oauth/register", "/oauth/token"] {
                    let response = http()
                        .post(auto.url(path))
                        .header("origin", "http://evil.example")
                        .header("content-type", "application/json")
                        .body("{}")
                        .send()
                        .await
                        .map_err(|e| e.to_string())?;
                    status_is(&response, StatusCode::FORBIDDEN)
                        .map_err(|e| format!("{path}: {e}"))?;
                }
                Ok(())
            },
        )
        .await;

    table.finish();
    auto.stop().await;
    consent.stop().await;
}
