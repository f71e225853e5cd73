//! `--models DIR`: model files at `/models/…` with their length, caching headers and Range
//! support, so the page can show the download size, keep the file, and resume.

mod support;

use support::*;
use weather_server::http::MODELS_CACHE_CONTROL;

#[tokio::test]
async fn model_files_have_length_caching_and_ranges() {
    let body: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
    let dir = TempDir::with_files("models", &[("model.gguf", &body)]);
    let server = TestServer::start(&["--models", dir.arg()]).await;
    let url = format!("{}/models/model.gguf", server.origin());

    let whole = server.get("/models/model.gguf").send().await.expect("GET");
    assert_eq!(whole.status(), 200);
    assert_eq!(header(&whole, "content-length"), Some("10000"));
    assert_eq!(header(&whole, "cache-control"), Some(MODELS_CACHE_CONTROL));
    assert_eq!(header(&whole, "accept-ranges"), Some("bytes"));
    let modified = header(&whole, "last-modified")
        .expect("last-modified")
        .to_owned();
    assert_eq!(whole.bytes().await.expect("body").as_ref(), body.as_slice());

    let head = server.client.head(&url).send().await.expect("HEAD");
    assert_eq!(head.status(), 200);
    assert_eq!(header(&head, "content-length"), Some("10000"));

    let part = server
        .get("/models/model.gguf")
        .header("range", "bytes=100-199")
        .send()
        .await
        .expect("range request");
    assert_eq!(part.status(), 206);
    assert_eq!(header(&part, "content-range"), Some("bytes 100-199/10000"));
    assert_eq!(part.bytes().await.expect("body").as_ref(), &body[100..200]);

    let again = server
        .get("/models/model.gguf")
        .header("if-modified-since", modified)
        .send()
        .await
        .expect("conditional request");
    assert_eq!(again.status(), 304);

    let missing = server.get("/models/other.gguf").send().await.expect("GET");
    assert_eq!(missing.status(), 404);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn without_the_flag_there_are_no_models() {
    let server = TestServer::start(&[]).await;
    let response = server.get("/models/model.gguf").send().await.expect("GET");
    assert_eq!(response.status(), 404);
    server.stop().await.expect("clean shutdown");
}

#[tokio::test]
async fn hidden_files_and_symbolic_links_are_not_served() {
    let secret = TempDir::with_files("models-outside", &[("secret.txt", b"not a model")]);
    let dir = TempDir::with_files(
        "models-plain",
        &[("model.gguf", b"weights"), (".env", b"API_KEY=x")],
    );
    let root = std::path::Path::new(dir.arg());
    std::fs::create_dir_all(root.join(".git")).expect("hidden folder");
    std::fs::write(root.join(".git/config"), b"[core]").expect("hidden file");
    std::os::unix::fs::symlink(
        std::path::Path::new(secret.arg()).join("secret.txt"),
        root.join("linked.gguf"),
    )
    .expect("file link");
    std::os::unix::fs::symlink(secret.arg(), root.join("outside")).expect("folder link");
    let server = TestServer::start(&["--models", dir.arg()]).await;

    let plain = server.get("/models/model.gguf").send().await.expect("GET");
    assert_eq!(plain.status(), 200);
    for path in [
        "/models/.env",
        "/models/%2eenv",
        "/models/.git/config",
        "/models/linked.gguf",
        "/models/outside/secret.txt",
    ] {
        let response = server.get(path).send().await.expect("GET");
        assert_eq!(response.status(), 404, "{path}");
    }
}
