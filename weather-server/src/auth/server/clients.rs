//! Who a `client_id` is: the pre-registered demo client, a dynamically registered client, or a
//! client ID metadata document fetched from its URL; and which redirect URIs each may use (by
//! the rules of [`crate::auth::server::redirects`]).

use crate::auth::{
    server::cimd,
    server::redirects::{loopback_http, same_but_port},
    server::store::{Client, ClientAuth, Redirects, Store},
    types::ClientId,
};

/// The pre-registered public client: any loopback redirect URI.
pub const DEMO_CLIENT: &str = "mcp-flow-demo";

pub fn demo_client() -> Client {
    Client {
        id: ClientId(DEMO_CLIENT.to_owned()),
        name: Some("MCP Flow (demo client)".to_owned()),
        auth: ClientAuth::None,
        redirects: Redirects::AnyLoopback,
        refresh: true,
    }
}

/// The client named by `client_id`; `Err` says why there is none (an `invalid_client`).
pub async fn resolve(
    store: &Store,
    documents: &cimd::Cache,
    client_id: &str,
) -> Result<Client, String> {
    if client_id == DEMO_CLIENT {
        return Ok(demo_client());
    }
    if client_id.starts_with("http://") || client_id.starts_with("https://") {
        return documents.client(client_id).await;
    }
    store
        .registered(&ClientId(client_id.to_owned()))
        .ok_or_else(|| format!("unknown client_id {client_id:?}"))
}

impl Client {
    /// Whether the client may be sent to `uri`.
    pub fn allows_redirect(&self, uri: &str) -> bool {
        match &self.redirects {
            Redirects::AnyLoopback => loopback_http(uri).is_some(),
            Redirects::Listed(listed) => listed
                .iter()
                .any(|registered| registered == uri || same_but_port(registered, uri)),
        }
    }

    /// How the consent page names the client.
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(self.id.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_client_takes_any_loopback_redirect() {
        let demo = demo_client();
        for ok in [
            "http://127.0.0.1:3000/callback",
            "http://localhost:49152/cb?x=1",
            "http://[::1]:8/",
            "http://localhost/",
        ] {
            assert!(demo.allows_redirect(ok), "{ok}");
        }
        for refused in [
            "https://127.0.0.1:3000/callback",
            "http://127.0.0.2/cb",
            "http://evil.example/cb",
            "http://127.0.0.1:3000/cb#frag",
            "http://user@127.0.0.1/cb",
            "http://127.0.0.1/a b",
            "/callback",
        ] {
            assert!(!demo.allows_redirect(refused), "{refused}");
        }
    }

    #[test]
    fn listed_redirects_match_exactly_or_on_another_loopback_port() {
        let client = Client {
            redirects: Redirects::Listed(vec![
                "http://127.0.0.1/cb".into(),
                "https://app.example/cb".into(),
            ]),
            ..demo_client()
        };
        assert!(client.allows_redirect("http://127.0.0.1/cb"));
        assert!(client.allows_redirect("http://127.0.0.1:5555/cb"));
        assert!(client.allows_redirect("https://app.example/cb"));
        assert!(!client.allows_redirect("http://127.0.0.1:5555/other"));
        assert!(!client.allows_redirect("http://localhost:5555/cb"));
        assert!(!client.allows_redirect("https://app.example/cb2"));
    }
}
