//! Protocol version negotiation (MCP "Lifecycle", version negotiation).

/// The version this client asks for: the newest one that still has `initialize`.
pub const REQUESTED: &str = "2025-11-25";

/// Versions this client can speak, newest first.
pub const SUPPORTED: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];

/// The server answered `initialize` with a version this client cannot speak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedVersion {
    pub requested: String,
    pub offered: String,
}

impl std::fmt::Display for UnsupportedVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server chose protocol version {} but this client requested {} and supports only {}",
            self.offered,
            self.requested,
            SUPPORTED.join(", ")
        )
    }
}

/// Checks the version the server picked in its `initialize` result.
pub fn accept(offered: &str) -> Result<&'static str, UnsupportedVersion> {
    SUPPORTED
        .iter()
        .copied()
        .find(|v| *v == offered)
        .ok_or_else(|| UnsupportedVersion {
            requested: REQUESTED.to_owned(),
            offered: offered.to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_supported_version_is_accepted() {
        for v in SUPPORTED {
            assert_eq!(accept(v), Ok(v));
        }
        assert_eq!(REQUESTED, SUPPORTED[0]);
    }

    #[test]
    fn older_or_unknown_versions_are_refused_with_both_named() {
        let err = accept("2024-11-05").unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("2024-11-05") && text.contains(REQUESTED),
            "{text}"
        );
        assert!(accept("2026-07-28").is_err());
        assert!(accept("").is_err());
    }
}
