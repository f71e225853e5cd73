//! Client ID metadata documents: a `client_id` that is a URL names a JSON document describing
//! the client, fetched when the client first asks for authorization. This demo server fetches
//! them only from loopback hosts: it must send no traffic elsewhere, and a server that fetches
//! URLs a stranger names is an SSRF tool. No proxy, no redirects, 5 s, at most 64 KB. A document
//! is fetched once and kept for a while ([`Cache`]), so repeated requests send nothing more.

use std::{
    collections::HashMap,
    sync::{Mutex, PoisonError},
    time::{Duration, Instant},
};

use reqwest::Url;
use serde::Deserialize;

use crate::auth::{
    fetch::{check_loopback, get},
    server::redirects::check_redirect_uri,
    server::store::{Client, ClientAuth, Redirects},
    types::ClientId,
};

/// The longest client name kept for the consent page.
const MAX_NAME_CHARS: usize = 200;

#[derive(Deserialize)]
struct Document {
    client_id: String,
    client_name: Option<String>,
    redirect_uris: Vec<String>,
    token_endpoint_auth_method: Option<String>,
    grant_types: Option<Vec<String>>,
}

/// How long a fetched document is used before it is fetched again.
pub const CACHE_TTL: Duration = Duration::from_secs(300);
/// How long a failed fetch is remembered (so a stranger cannot make the server knock again and
/// again).
pub const FAILURE_TTL: Duration = Duration::from_secs(30);
/// The most documents kept; beyond, the oldest gives way.
pub const MAX_CACHED: usize = 100;

/// What one fetch of a document gave, and when.
type Fetched = (Instant, Result<Client, String>);

/// The documents fetched, by `client_id`.
#[derive(Default)]
pub struct Cache {
    entries: Mutex<HashMap<String, Fetched>>,
    fetches: std::sync::atomic::AtomicUsize,
}

impl Cache {
    /// The client `client_id`'s document describes: from the cache while fresh, else fetched.
    pub async fn client(&self, client_id: &str) -> Result<Client, String> {
        if let Some(kept) = self.fresh(client_id) {
            return kept;
        }
        self.fetches
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let found = fetch(client_id).await;
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        entries.retain(|_, (at, kept)| now.duration_since(*at) < ttl(kept));
        if entries.len() >= MAX_CACHED
            && let Some(oldest) = entries
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(k, _)| k.clone())
        {
            entries.remove(&oldest);
        }
        entries.insert(client_id.to_owned(), (now, found.clone()));
        found
    }

    /// How many times a document was fetched (not answered from the cache).
    #[cfg(test)]
    pub fn fetches(&self) -> usize {
        self.fetches.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn fresh(&self, client_id: &str) -> Option<Result<Client, String>> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries
            .get(client_id)
            .filter(|(at, kept)| at.elapsed() < ttl(kept))
            .map(|(_, kept)| kept.clone())
    }
}

fn ttl(kept: &Result<Client, String>) -> Duration {
    if kept.is_ok() { CACHE_TTL } else { FAILURE_TTL }
}

/// The client a metadata document at `client_id` describes; `Err` is an `invalid_client`
/// description.
async fn fetch(client_id: &str) -> Result<Client, String> {
    let url = Url::parse(client_id)
        .map_err(|error| format!("client_id {client_id:?} is not a valid URL: {error}"))?;
    check_loopback(&url, "client metadata documents")?;
    if url.fragment().is_some() || !url.username().is_empty() || url.password().is_some() {
        return Err("a client_id URL may have neither a fragment nor credentials".to_owned());
    }
    if url.path() == "/" {
        return Err("a client_id URL names a document: it needs a path".to_owned());
    }
    tracing::info!(client_id, "fetching a client ID metadata document");
    let body = get(&url).await.map_err(|why| {
        format!("could not fetch the client metadata document {client_id}: {why}")
    })?;
    // Only where it failed: the text of whatever answered is not repeated to the caller.
    let document: Document = serde_json::from_slice(&body).map_err(|error| {
        format!(
            "{client_id} is not a client metadata document (JSON with client_id and \
             redirect_uris; error at line {}, column {})",
            error.line(),
            error.column()
        )
    })?;
    client_from(client_id, document)
}

fn client_from(client_id: &str, document: Document) -> Result<Client, String> {
    if document.client_id != client_id {
        return Err(format!(
            "the client metadata document's client_id is not its own URL {client_id:?}"
        ));
    }
    if document.redirect_uris.is_empty() {
        return Err("the client metadata document lists no redirect_uris".to_owned());
    }
    for uri in &document.redirect_uris {
        check_redirect_uri(uri).map_err(|why| format!("redirect_uris: {why}"))?;
    }
    match document.token_endpoint_auth_method.as_deref() {
        None | Some("none") => {}
        Some(other) => {
            return Err(format!(
                "token_endpoint_auth_method {other:?}: this demo server takes only public \
                 clients (\"none\") by metadata document"
            ));
        }
    }
    let refresh = document
        .grant_types
        .as_ref()
        .is_none_or(|grants| grants.iter().any(|g| g == "refresh_token"));
    Ok(Client {
        id: ClientId(client_id.to_owned()),
        name: document
            .client_name
            .map(|name| name.chars().take(MAX_NAME_CHARS).collect()),
        auth: ClientAuth::None,
        redirects: Redirects::Listed(document.redirect_uris),
        refresh,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document(json: &str) -> Document {
        serde_json::from_str(json).expect("document")
    }

    #[tokio::test]
    async fn only_loopback_hosts_are_fetched() {
        for url in [
            "https://conformance-test.local/client-metadata.json",
            "http://10.0.0.1/client.json",
            "http://127.0.0.2/client.json",
        ] {
            let error = fetch(url).await.expect_err("refused");
            assert!(error.contains("only from loopback hosts"), "{error}");
        }
    }

    #[tokio::test]
    async fn a_document_is_fetched_once_while_fresh_and_a_failure_is_remembered() {
        let cache = Cache::default();
        // Nothing listens on port 9: the fetch fails, and the failure is kept.
        let id = "http://127.0.0.1:9/client.json";
        for _ in 0..3 {
            assert!(cache.client(id).await.is_err());
        }
        assert_eq!(cache.fetches(), 1);
        for i in 0..MAX_CACHED + 5 {
            let _ = cache.client(&format!("http://10.0.0.1/{i}.json")).await;
        }
        assert!(cache.entries.lock().expect("lock").len() <= MAX_CACHED);
    }

    #[test]
    fn the_document_must_name_itself_and_list_redirects() {
        let id = "http://127.0.0.1:9/client.json";
        let ok = document(
            r#"{"client_id":"http://127.0.0.1:9/client.json","client_name":"T",
                "redirect_uris":["http://127.0.0.1:7/cb"],"grant_types":["authorization_code"]}"#,
        );
        let client = client_from(id, ok).expect("valid");
        assert_eq!(client.name.as_deref(), Some("T"));
        assert!(!client.refresh);
        assert!(client.allows_redirect("http://127.0.0.1:7/cb"));
        let other = document(
            r#"{"client_id":"http://127.0.0.1:9/x","redirect_uris":["http://127.0.0.1/cb"]}"#,
        );
        assert!(client_from(id, other).is_err());
        let secret = document(
            r#"{"client_id":"http://127.0.0.1:9/client.json","redirect_uris":["http://127.0.0.1/cb"],
                "token_endpoint_auth_method":"client_secret_basic"}"#,
        );
        assert!(client_from(id, secret).is_err());
    }
}
