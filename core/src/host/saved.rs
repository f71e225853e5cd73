//! Servers the user saved: a name, the endpoint, the era setting and the request timeout, kept
//! in localStorage as JSON. Request headers are never saved (they may hold credentials).

use serde::{Deserialize, Serialize};

use mcp_flow_client::era::EraChoice;

/// The fewest and most milliseconds a saved timeout may be.
pub const TIMEOUT_RANGE_MS: (u32, u32) = (500, 600_000);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedServer {
    pub name: String,
    pub url: String,
    /// `auto`, `modern` or `legacy`.
    pub era: String,
    pub timeout_ms: u32,
}

impl SavedServer {
    /// A server to save, checked: a name, an absolute http(s) URL, an era and a timeout in range.
    pub fn new(name: &str, url: &str, era: EraChoice, timeout_ms: u32) -> Result<Self, String> {
        let name = name.trim();
        if name.is_empty() {
            return Err("give the server a name".into());
        }
        if name.chars().count() > 80 {
            return Err("the name is longer than 80 characters".into());
        }
        let url = url.trim();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err("the URL must start with http:// or https://".into());
        }
        let (low, high) = TIMEOUT_RANGE_MS;
        if !(low..=high).contains(&timeout_ms) {
            return Err(format!("the timeout must be {low} to {high} ms"));
        }
        Ok(Self {
            name: name.to_owned(),
            url: url.to_owned(),
            era: era.id().to_owned(),
            timeout_ms,
        })
    }

    pub fn era_choice(&self) -> EraChoice {
        EraChoice::from_id(&self.era).unwrap_or(EraChoice::Auto)
    }
}

/// The saved list, by name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SavedServers(pub Vec<SavedServer>);

impl SavedServers {
    /// The list from its JSON; what cannot be read is dropped, never an error.
    pub fn read(json: Option<&str>) -> Self {
        let list: Vec<serde_json::Value> = json
            .and_then(|j| serde_json::from_str(j).ok())
            .unwrap_or_default();
        Self(
            list.into_iter()
                .filter_map(|v| serde_json::from_value(v).ok())
                .collect(),
        )
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_else(|_| "[]".into())
    }

    /// Adds `server`, replacing one of the same name.
    pub fn put(&mut self, server: SavedServer) {
        match self.0.iter_mut().find(|s| s.name == server.name) {
            Some(old) => *old = server,
            None => self.0.push(server),
        }
    }

    pub fn remove(&mut self, name: &str) {
        self.0.retain(|s| s.name != name);
    }

    pub fn get(&self, name: &str) -> Option<&SavedServer> {
        self.0.iter().find(|s| s.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_are_checked_saved_replaced_and_read_back() {
        let local = SavedServer::new(
            " mine ",
            "http://127.0.0.1:3000/mcp",
            EraChoice::Modern,
            5000,
        )
        .expect("valid");
        assert_eq!(local.name, "mine");
        assert_eq!(local.era_choice(), EraChoice::Modern);
        let mut list = SavedServers::default();
        list.put(local.clone());
        list.put(
            SavedServer::new("other", "https://x.example/mcp", EraChoice::Auto, 30_000).unwrap(),
        );
        let changed =
            SavedServer::new("mine", "http://127.0.0.1:4000/mcp", EraChoice::Legacy, 800).unwrap();
        list.put(changed.clone());
        assert_eq!(list.0.len(), 2);
        assert_eq!(list.get("mine"), Some(&changed));
        let back = SavedServers::read(Some(&list.to_json()));
        assert_eq!(back, list);
        list.remove("other");
        assert_eq!(list.0.len(), 1);
        assert!(
            !list.to_json().to_lowercase().contains("header"),
            "headers are never saved"
        );
    }

    #[test]
    fn bad_entries_are_refused_or_dropped() {
        let bad = [
            ("", "http://a/mcp", 1000, "name"),
            ("n", "ftp://a/mcp", 1000, "http://"),
            ("n", "http://a/mcp", 10, "timeout"),
            ("n", "http://a/mcp", 10_000_000, "timeout"),
        ];
        for (name, url, ms, why) in bad {
            let err = SavedServer::new(name, url, EraChoice::Auto, ms).unwrap_err();
            assert!(err.contains(why), "{err}");
        }
        assert_eq!(
            SavedServers::read(Some("not json")),
            SavedServers::default()
        );
        assert_eq!(SavedServers::read(None), SavedServers::default());
        let mixed =
            r#"[{"name":"a","url":"http://a/mcp","era":"auto","timeout_ms":1000},{"oops":1}]"#;
        assert_eq!(SavedServers::read(Some(mixed)).0.len(), 1);
    }
}
