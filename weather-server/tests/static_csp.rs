//! The app's Content-Security-Policy: a response header on the page's files (not a build's,
//! which are never a document or a worker's own script), strict for what
//! users run (`--static`), and the dev server's policy (Trunk.toml) the same plus only what
//! Trunk's live-reload script needs.

mod support;

use std::collections::BTreeMap;
use std::path::PathBuf;

use support::*;
use weather_server::http::CONTENT_SECURITY_POLICY;

/// A policy as directive → sources.
fn directives(policy: &str) -> BTreeMap<String, Vec<String>> {
    policy
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            let mut words = d.split_whitespace().map(str::to_owned);
            let name = words.next().expect("a directive name");
            (name, words.collect())
        })
        .collect()
}

fn repo_file(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[tokio::test]
async fn static_files_carry_the_policy_header() {
    let dir = TempDir::with_files(
        "csp",
        &[
            ("index.html", b"<!DOCTYPE html><title>app</title>"),
            ("boot.js", b"export {};"),
        ],
    );
    let server = TestServer::start(&["--static", dir.arg()]).await;
    for path in ["/", "/index.html", "/boot.js", "/a/deep/link"] {
        let response = server.get(path).send().await.expect("request");
        assert_eq!(response.status(), 200, "{path}");
        let policy = header(&response, "content-security-policy");
        assert_eq!(policy, Some(CONTENT_SECURITY_POLICY), "{path}");
        let _ = response.text().await;
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn the_sandbox_proxy_has_its_own_policy_and_only_loopback_pages_frame_it() {
    let dir = TempDir::with_files("csp-sandbox", &[("index.html", b"<!DOCTYPE html>")]);
    let server = TestServer::start(&["--static", dir.arg()]).await;
    for (path, kind) in [
        ("/sandbox/", "text/html; charset=utf-8"),
        ("/sandbox/proxy.js", "text/javascript; charset=utf-8"),
    ] {
        let response = server.get(path).send().await.expect("request");
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(header(&response, "content-type"), Some(kind), "{path}");
        let policy = directives(header(&response, "content-security-policy").expect("policy"));
        assert_eq!(
            policy["frame-ancestors"],
            ["http://127.0.0.1:*", "http://localhost:*"]
        );
        assert_eq!(policy["default-src"], ["'none'"]);
        assert_eq!(policy["form-action"], ["'none'"]);
        let body = response.text().await.expect("body");
        assert!(!body.is_empty(), "{path}");
    }
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_builds_files_go_without_the_policy_and_are_kept_for_good() {
    let dir = TempDir::with_files(
        "csp-build",
        &[
            ("index.html", b"<!DOCTYPE html><title>app</title>"),
            ("b/0123456789abcdef/app.js", b"export {};"),
        ],
    );
    let server = TestServer::start(&["--static", dir.arg()]).await;
    let response = server
        .get("/b/0123456789abcdef/app.js")
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    assert_eq!(header(&response, "content-security-policy"), None);
    assert_eq!(
        header(&response, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(header(&response, "vary"), Some("accept-encoding"));
    let _ = response.text().await;
    server.stop().await.expect("clean shutdown");
}

#[test]
fn the_shipped_policy_forbids_inline_script_and_eval() {
    let policy = directives(CONTENT_SECURITY_POLICY);
    assert_eq!(policy["script-src"], ["'self'", "'wasm-unsafe-eval'"]);
    assert_eq!(policy["object-src"], ["'none'"]);
    // The in-page model's worker comes from the app's own origin, nowhere else.
    assert_eq!(policy["worker-src"], ["'self'"]);
    assert_eq!(policy["frame-ancestors"], ["'none'"]);
    // The page frames nothing but the apps' sandbox proxy on a loopback origin.
    assert_eq!(
        policy["frame-src"],
        ["http://localhost:*/sandbox/", "http://127.0.0.1:*/sandbox/"]
    );
    assert!(
        !CONTENT_SECURITY_POLICY.contains("  "),
        "one space between words"
    );
}

#[test]
fn the_dev_server_policy_is_the_shipped_one_plus_live_reload() {
    let trunk: toml::Table = repo_file("Trunk.toml").parse().expect("Trunk.toml parses");
    // The live-reload script gets a nonce attribute, replaced on every page load.
    assert_eq!(trunk["build"]["create_nonce"].as_bool(), Some(true));
    // And the app itself is loaded by boot.js, not by an inline script.
    assert_eq!(trunk["build"]["inject_scripts"].as_bool(), Some(false));
    let dev = trunk["serve"]["csp"]
        .as_array()
        .expect("[serve] csp is a list")
        .iter()
        .map(|d| d.as_str().expect("a directive").to_owned())
        .collect::<Vec<_>>()
        .join(";");
    let mut dev = directives(&dev);
    let shipped = directives(CONTENT_SECURITY_POLICY);
    // Exactly two additions: the reload script's nonce and its WebSocket.
    let script = dev.get_mut("script-src").expect("script-src");
    assert!(!script.iter().any(|s| s == "'unsafe-inline'"));
    script.retain(|s| s != "'nonce-{{NONCE}}'");
    let connect = dev.get_mut("connect-src").expect("connect-src");
    connect.retain(|s| s != "ws:");
    assert_eq!(dev, shipped);
}

#[test]
fn the_page_has_no_policy_meta_tag_and_no_inline_script() {
    let html = repo_file("index.html").to_ascii_lowercase();
    assert!(
        !html.contains("http-equiv=\"content-security-policy\""),
        "a meta policy would also bind `trunk serve` and block its live reload"
    );
    for script in html.split("<script").skip(1) {
        let tag = script.split('>').next().unwrap_or_default();
        assert!(tag.contains(" src="), "inline script: <script{tag}>");
    }
}

/// The release build's precompressed files are sent by what the browser accepts (brotli before
/// gzip), with `Vary: accept-encoding`; a browser that accepts neither gets the file itself.
#[tokio::test]
async fn precompressed_files_are_sent_by_accept_encoding() {
    let dir = TempDir::with_files(
        "encodings",
        &[
            ("index.html", b"<!DOCTYPE html><title>app</title>"),
            ("index.html.br", b"BR-INDEX"),
            ("app.wasm", b"\0asm-plain"),
            ("app.wasm.br", b"BR-WASM"),
            ("app.wasm.gz", b"GZ-WASM"),
            ("only-gz.js", b"export {};"),
            ("only-gz.js.gz", b"GZ-JS"),
            ("b/0123/app.js", b"export {};"),
            ("b/0123/app.js.br", b"BR-BUILD-JS"),
        ],
    );
    let server = TestServer::start(&["--static", dir.arg()]).await;
    let fetch = |path: &'static str, accept: Option<&'static str>| {
        let server = &server;
        async move {
            let mut request = server.get(path);
            if let Some(accept) = accept {
                request = request.header("accept-encoding", accept);
            }
            let response = request.send().await.expect("request");
            let encoding = header(&response, "content-encoding").map(str::to_owned);
            let vary = header(&response, "vary").map(str::to_owned);
            let cache = header(&response, "cache-control").map(str::to_owned);
            let body = response.bytes().await.expect("body").to_vec();
            (
                encoding,
                String::from_utf8_lossy(&body).into_owned(),
                vary,
                cache,
            )
        }
    };
    let (encoding, body, vary, cache) = fetch("/app.wasm", Some("gzip, deflate, br, zstd")).await;
    assert_eq!(
        (encoding.as_deref(), body.as_str()),
        (Some("br"), "BR-WASM")
    );
    assert!(vary.is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")));
    assert_eq!(cache.as_deref(), Some("no-cache"));
    let (encoding, body, ..) = fetch("/app.wasm", Some("gzip")).await;
    assert_eq!(
        (encoding.as_deref(), body.as_str()),
        (Some("gzip"), "GZ-WASM")
    );
    let (encoding, body, ..) = fetch("/app.wasm", None).await;
    assert_eq!((encoding, body.as_str()), (None, "\0asm-plain"));
    let (encoding, body, ..) = fetch("/only-gz.js", Some("br, gzip")).await;
    assert_eq!(
        (encoding.as_deref(), body.as_str()),
        (Some("gzip"), "GZ-JS")
    );
    // A deep link is the app's page, compressed too, and revalidated.
    let (encoding, body, _, cache) = fetch("/a/deep/link", Some("br")).await;
    assert_eq!(
        (encoding.as_deref(), body.as_str()),
        (Some("br"), "BR-INDEX")
    );
    assert_eq!(cache.as_deref(), Some("no-cache"));
    // A build's folder (named by its contents) is kept for good, compressed the same way; a file
    // it does not hold is not found, not the page.
    let (encoding, body, vary, cache) = fetch("/b/0123/app.js", Some("br")).await;
    assert_eq!(
        (encoding.as_deref(), body.as_str()),
        (Some("br"), "BR-BUILD-JS")
    );
    assert!(vary.is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")));
    assert_eq!(
        cache.as_deref(),
        Some("public, max-age=31536000, immutable")
    );
    let missing = server.get("/b/0123/gone.js").send().await.expect("request");
    assert_eq!(missing.status(), 404);
    server.stop().await.expect("clean shutdown");
}
