//! `--models DIR`: model files at `/models/…` with their length, caching headers and Range
//! support, so the page can show the download size, keep the file, and resume.

mod support;

use support::*;
use weather_server::http::MODELS_CACHE_CONTROL;

#[tokio::test]
async fn model_files_have_length_caching_and_ranges() {
    let dir = std::env::temp_dir().join(format!("weather-server-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let body: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(dir.join("model.gguf"), &body).expect("write");
    let server = TestServer::start(&["--models", dir.to_str().expect("utf-8 path")]).await;
    let url = format!("{}/models/model.gguf", server.origin());
    let client = client();

    let whole = client.get(&url).send().await.expect("request");
    assert_eq!(whole.status(), 200);
    let header = |r: &reqwest::Response, name: &str| {
        r.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    assert_eq!(header(&whole, "content-length").as_deref(), Some("10000"));
    assert_eq!(
        header(&whole, "cache-control").as_deref(),
        Some(MODELS_CACHE_CONTROL)
    );
    assert_eq!(header(&whole, "accept-ranges").as_deref(), Some("bytes"));
    let modified = header(&whole, "last-modified").expect("last-modified");
    assert_eq!(whole.bytes().await.expect("body").as_ref(), body.as_slice());

    let head = client.head(&url).send().await.expect("HEAD");
    assert_eq!(head.status(), 200);
    assert_eq!(header(&head, "content-length").as_deref(), Some("10000"));

    let part = client
        .get(&url)
        .header("range", "bytes=100-199")
        .send()
        .await
        .expect("range request");
    assert_eq!(part.status(), 206);
    assert_eq!(
        header(&part, "content-range").as_deref(),
        Some("bytes 100-199/10000")
    );
    assert_eq!(part.bytes().await.expect("body").as_ref(), &body[100..200]);

    let again = client
        .get(&url)
        .header("if-modified-since", modified)
        .send()
        .await
        .expect("conditional request");
    assert_eq!(again.status(), 304);

    let missing = client
        .get(format!("{}/models/other.gguf", server.origin()))
        .send()
        .await
        .expect("request");
    assert_eq!(missing.status(), 404);
    server.stop().await.expect("clean shutdown");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn without_the_flag_there_are_no_models() {
    let server = TestServer::start(&[]).await;
    let response = client()
        .get(format!("{}/models/model.gguf", server.origin()))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 404);
    server.stop().await.expect("clean shutdown");
}
