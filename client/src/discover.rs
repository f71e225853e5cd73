//! `server/discover` (2026-07-28): the server's versions, capabilities and identity, without a
//! handshake; and the probe that tells a modern server from a legacy one.

use rmcp::model::{ConstString, DiscoverRequestMethod};
use serde_json::{Value, json};

use crate::client::McpClient;
use crate::era::{Detection, classify};
use crate::error::McpError;
use crate::http::Http;
use crate::modern;

/// What `server/discover` said.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovery {
    /// `supportedVersions`.
    pub versions: Vec<String>,
    /// `capabilities`, as sent.
    pub capabilities: Value,
    /// "name version" from `_meta["io.modelcontextprotocol/serverInfo"]` (or, from older drafts,
    /// a `serverInfo` in the body).
    pub server: Option<String>,
    pub instructions: Option<String>,
    /// `ttlMs`: how long the answer stays fresh (absent is read as 0).
    pub ttl_ms: u64,
    /// `cacheScope`: `"public"` or `"private"`.
    pub cache_scope: Option<String>,
}

impl Discovery {
    /// Reads a discover result. Only `supportedVersions` and `capabilities` are required;
    /// `resultType` may be absent (meaning complete) but must not be anything else.
    pub fn read(result: &Value) -> Result<Self, String> {
        match result.get("resultType").and_then(Value::as_str) {
            None | Some("complete") => {}
            Some(other) => return Err(format!("unrecognised resultType {other:?}")),
        }
        let versions = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .ok_or("a server/discover result needs supportedVersions")?
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        let capabilities = result
            .get("capabilities")
            .filter(|c| c.is_object())
            .cloned()
            .ok_or("a server/discover result needs capabilities")?;
        let info = result
            .get("_meta")
            .and_then(|m| m.get("io.modelcontextprotocol/serverInfo"))
            .or_else(|| result.get("serverInfo"));
        let server = info.map(|i| {
            let text = |k: &str| i.get(k).and_then(Value::as_str).unwrap_or("?");
            format!("{} {}", text("name"), text("version"))
        });
        Ok(Self {
            versions,
            capabilities,
            server,
            instructions: result
                .get("instructions")
                .and_then(Value::as_str)
                .map(str::to_owned),
            ttl_ms: result.get("ttlMs").and_then(Value::as_u64).unwrap_or(0),
            cache_scope: result
                .get("cacheScope")
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
    }

    /// Whether the server offers logging (deprecated in 2026-07-28, still sent per request).
    pub fn logging(&self) -> bool {
        self.capabilities.get("logging").is_some()
    }
}

impl<H: Http> McpClient<H> {
    /// `server/discover`, sent as a modern request whatever the connection's era. A −32022
    /// answer that lists the version this client speaks (some servers answer a first request
    /// that way) is retried once.
    pub async fn discover(&self) -> Result<Discovery, McpError> {
        let method = DiscoverRequestMethod::VALUE;
        let result = match self.modern_request(method, json!({})).await {
            Err(McpError::Protocol {
                code: -32022, data, ..
            }) if supported(data.as_ref())
                .iter()
                .any(|v| v == modern::VERSION) =>
            {
                *self.modern_version.borrow_mut() = modern::VERSION.to_owned();
                self.transport.note_next(format!(
                    "retry: the server answered −32022 but lists {} among its versions",
                    modern::VERSION
                ));
                self.modern_request(method, json!({})).await?
            }
            other => other?,
        };
        Discovery::read(&result).map_err(|e| McpError::Invalid(format!("server/discover: {e}")))
    }

    /// The `auto` probe: `server/discover`, and what its answer says about the server.
    pub async fn probe(&self) -> (Detection, Result<Discovery, McpError>) {
        let found = self.discover().await;
        let detection = classify(&found.as_ref().map(|_| ()).map_err(Clone::clone));
        (detection, found)
    }
}

/// `data.supported` of a −32022 error.
fn supported(data: Option<&Value>) -> Vec<String> {
    data.and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_discover_result_is_read_leniently_but_not_blindly() {
        let full = json!({"resultType": "complete", "supportedVersions": ["2026-07-28", "2025-11-25"],
            "capabilities": {"tools": {}, "logging": {}}, "ttlMs": 60000, "cacheScope": "public",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "weather-server", "version": "0.1.0"}}});
        let d = Discovery::read(&full).unwrap();
        assert_eq!(d.versions, ["2026-07-28", "2025-11-25"]);
        assert_eq!(d.server.as_deref(), Some("weather-server 0.1.0"));
        assert_eq!(
            (d.ttl_ms, d.cache_scope.as_deref()),
            (60000, Some("public"))
        );
        assert!(d.logging());
        let bare = json!({"supportedVersions": ["2026-07-28"], "capabilities": {},
            "serverInfo": {"name": "old-draft", "version": "1"}});
        let d = Discovery::read(&bare).unwrap();
        assert_eq!((d.ttl_ms, d.server.as_deref()), (0, Some("old-draft 1")));
        assert!(!d.logging());
        assert!(Discovery::read(&json!({"capabilities": {}})).is_err());
        assert!(Discovery::read(&json!({"supportedVersions": []})).is_err());
        let odd = json!({"resultType": "task", "supportedVersions": [], "capabilities": {}});
        assert!(Discovery::read(&odd).unwrap_err().contains("\"task\""));
    }
}
