//! Protocol eras: the current MCP revision 2026-07-28 ("modern": no sessions, per-request `_meta`)
//! and the handshake revisions up to 2025-11-25 ("legacy": `initialize`, sessions). `--era`
//! picks which ones the server speaks; by default both, on the same endpoint.

use clap::ValueEnum;
use rmcp::model::ProtocolVersion;

/// The first modern revision.
pub const MODERN: ProtocolVersion = ProtocolVersion::V_2026_07_28;
/// The newest legacy revision.
pub const LATEST_LEGACY: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// Which protocol eras the server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Era {
    /// Only 2026-07-28: no sessions, no `initialize`.
    Modern,
    /// Only 2025-11-25 and older: `initialize`, sessions; modern requests are answered as a
    /// legacy server answers them (no modern error body), so a client's detection falls back.
    Legacy,
    /// Both, on one endpoint: a request carrying modern `_meta` is served statelessly by
    /// 2026-07-28; `initialize` opens a legacy session.
    #[default]
    Both,
}

impl Era {
    /// The protocol versions served, newest first.
    pub fn supported_versions(self) -> Vec<ProtocolVersion> {
        let mut versions: Vec<ProtocolVersion> = match self {
            Era::Modern => vec![MODERN],
            Era::Legacy => ProtocolVersion::known_up_to(&LATEST_LEGACY).to_vec(),
            Era::Both => ProtocolVersion::KNOWN_VERSIONS.to_vec(),
        };
        versions.sort_by(|a, b| b.as_str().cmp(a.as_str()));
        versions
    }

    pub fn speaks_modern(self) -> bool {
        self != Era::Legacy
    }

    pub fn speaks_legacy(self) -> bool {
        self != Era::Modern
    }

    /// Whether `version` (as sent in a header or `_meta`) is one this server serves.
    pub fn supports(self, version: &str) -> bool {
        self.supported_versions()
            .iter()
            .any(|v| v.as_str() == version)
    }

    pub fn name(self) -> &'static str {
        match self {
            Era::Modern => "modern (2026-07-28)",
            Era::Legacy => "legacy (2025-11-25 and older)",
            Era::Both => "both (2026-07-28 and 2025-11-25 and older)",
        }
    }
}

/// Whether a version string names a modern revision (2026-07-28 or later). Versions are ISO
/// dates, so they compare as strings; anything that is not a date is not modern.
pub fn is_modern_version(version: &str) -> bool {
    is_date(version) && version >= MODERN.as_str()
}

fn is_date(version: &str) -> bool {
    let bytes = version.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(era: Era) -> Vec<String> {
        era.supported_versions()
            .iter()
            .map(|v| v.as_str().to_owned())
            .collect()
    }

    #[test]
    fn versions_per_era_newest_first() {
        assert_eq!(names(Era::Modern), ["2026-07-28"]);
        assert_eq!(
            names(Era::Legacy),
            ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
        );
        assert_eq!(
            names(Era::Both),
            [
                "2026-07-28",
                "2025-11-25",
                "2025-06-18",
                "2025-03-26",
                "2024-11-05"
            ]
        );
        assert!(Era::Both.supports("2025-11-25"));
        assert!(!Era::Modern.supports("2025-11-25"));
        assert!(!Era::Legacy.supports("2026-07-28"));
    }

    #[test]
    fn modern_versions_are_dates_from_2026_07_28() {
        assert!(is_modern_version("2026-07-28"));
        assert!(is_modern_version("2027-01-01"));
        assert!(!is_modern_version("2025-11-25"));
        assert!(!is_modern_version("v999.0.0"));
        assert!(!is_modern_version("DRAFT-2026-v1"));
        assert!(!is_modern_version("9999"));
    }
}
