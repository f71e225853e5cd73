//! The syslog levels of MCP log lines (`notifications/message`), least severe first: what the
//! client asks the server for (legacy: `logging/setLevel`; 2026-07-28: `_meta` logLevel on each
//! request) and what the logs view filters by.

/// One MCP logging level. Ordered by severity: `Debug < Info < … < Emergency`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        Self::Debug,
        Self::Info,
        Self::Notice,
        Self::Warning,
        Self::Error,
        Self::Critical,
        Self::Alert,
        Self::Emergency,
    ];

    /// What the client asks for unless the user chose otherwise.
    pub const ASKED_BY_DEFAULT: LogLevel = Self::Info;

    /// The level as the protocol spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }

    /// The same level as rmcp's type, for its request params.
    // rmcp 3.11 marks logging deprecated (SEP-2577, a later revision); 2025-11-25 has it.
    #[allow(deprecated)]
    pub fn to_rmcp(self) -> rmcp::model::LoggingLevel {
        use rmcp::model::LoggingLevel as L;
        match self {
            Self::Debug => L::Debug,
            Self::Info => L::Info,
            Self::Notice => L::Notice,
            Self::Warning => L::Warning,
            Self::Error => L::Error,
            Self::Critical => L::Critical,
            Self::Alert => L::Alert,
            Self::Emergency => L::Emergency,
        }
    }

    /// The level named `name` as the protocol spells it, if it is one.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.as_str() == name)
    }
}

/// What the user asks the server for, from a setting's value (the select, `?log=`): `"off"` is
/// no log lines, a level's name is that level, anything else keeps the default.
pub fn asked_from_str(value: &str) -> Option<LogLevel> {
    if value == "off" {
        return None;
    }
    Some(LogLevel::parse(value).unwrap_or(LogLevel::ASKED_BY_DEFAULT))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered_by_severity_and_spelt_as_the_protocol_does() {
        assert!(LogLevel::Debug < LogLevel::Info);
        assert!(LogLevel::Warning < LogLevel::Error);
        assert!(LogLevel::Alert < LogLevel::Emergency);
        for level in LogLevel::ALL {
            assert_eq!(LogLevel::parse(level.as_str()), Some(level));
        }
        assert_eq!(LogLevel::parse("verbose"), None);
        assert_eq!(
            LogLevel::parse("INFO"),
            None,
            "the protocol's names are lower case"
        );
    }

    #[test]
    fn the_setting_reads_off_a_level_or_the_default() {
        assert_eq!(asked_from_str("off"), None);
        assert_eq!(asked_from_str("debug"), Some(LogLevel::Debug));
        assert_eq!(asked_from_str("nonsense"), Some(LogLevel::Info));
    }
}
