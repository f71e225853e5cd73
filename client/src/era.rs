//! Which protocol era a server speaks, and how the client found out.
//!
//! **Modern** is MCP 2026-07-28 (no `initialize`, no sessions, per-request `_meta`, metadata
//! headers, `server/discover`). **Legacy** is 2025-11-25 and the versions it negotiates down to
//! (`initialize`, `Mcp-Session-Id`, resumable SSE). In `auto`, the client follows the 2026-07-28
//! backward-compatibility rule: send a modern request first (`server/discover`); a result or a
//! recognised modern error means a modern server; anything else falls back to `initialize`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::error::{McpError, TransportError, clip};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Era {
    Modern,
    Legacy,
}

impl Era {
    /// `"modern"` or `"legacy"` (the root element's `data-era`).
    pub const fn id(self) -> &'static str {
        match self {
            Era::Modern => "modern",
            Era::Legacy => "legacy",
        }
    }
}

/// The era setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EraChoice {
    /// Modern first, legacy if the server does not answer as a modern one.
    #[default]
    Auto,
    Modern,
    Legacy,
}

impl EraChoice {
    pub const ALL: [EraChoice; 3] = [EraChoice::Auto, EraChoice::Modern, EraChoice::Legacy];

    /// The address's `era=` value.
    pub const fn id(self) -> &'static str {
        match self {
            EraChoice::Auto => "auto",
            EraChoice::Modern => "modern",
            EraChoice::Legacy => "legacy",
        }
    }

    pub fn from_id(id: &str) -> Option<EraChoice> {
        EraChoice::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The era this setting fixes, if it fixes one.
    pub const fn forced(self) -> Option<Era> {
        match self {
            EraChoice::Auto => None,
            EraChoice::Modern => Some(Era::Modern),
            EraChoice::Legacy => Some(Era::Legacy),
        }
    }
}

/// Why the client speaks an era to a server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// The settings fix the era.
    Chosen,
    /// `server/discover` answered with a result.
    Discovered,
    /// The modern probe got a modern error (−32020, −32021 or −32022): a modern server.
    ModernError { code: i64, message: String },
    /// The probe got an HTTP answer that is not a modern one (a legacy server's 400, 404 or 405,
    /// a JSON-RPC error such as "method not found", a result that is not a discover result).
    NotModern { answer: String },
    /// The probe got no HTTP answer at all. In a browser this is what a legacy server whose CORS
    /// does not allow the new request headers looks like (the preflight fails); it is also what a
    /// server that is down looks like. Not evidence of an era.
    NoAnswer { detail: String },
    /// The probe failed in a way any server can fail (authorization, 405, 404, 5xx, a body that
    /// is not JSON-RPC): not evidence of an era; the client tries `initialize` next.
    Inconclusive { failure: String },
    /// `initialize` answered after a probe that proved nothing: a legacy server.
    Handshake { version: String, probe: Box<Why> },
    /// This server answered the same way earlier on this page.
    Remembered { first: Box<Why> },
    /// A watched host's messages said it, in a sentence.
    Watched { said: String },
}

impl Why {
    /// One sentence for the page.
    pub fn describe(&self) -> String {
        match self {
            Why::Chosen => "the era is fixed in the settings".into(),
            Why::Discovered => "server/discover answered: a 2026-07-28 server".into(),
            Why::ModernError { code, message } => format!(
                "the modern probe got a modern error ({code}: {}), so the server speaks \
                 2026-07-28",
                clip(message, 120)
            ),
            Why::NotModern { answer } => format!(
                "the modern probe got a non-modern answer ({}), so this is a legacy server: \
                 falling back to initialize",
                clip(answer, 160)
            ),
            Why::NoAnswer { detail } => format!(
                "the modern probe got no HTTP answer ({}), which says nothing of the era: in a \
                 browser a legacy server whose CORS does not allow the Mcp-Method/Mcp-Name \
                 headers looks like this (the preflight fails), and so does a server that is \
                 down; trying initialize",
                clip(detail, 120)
            ),
            Why::Inconclusive { failure } => format!(
                "the modern probe failed ({}), which says nothing of the era; trying initialize",
                clip(failure, 160)
            ),
            Why::Handshake { version, probe } => format!(
                "initialize answered (protocol {version}) after the modern probe proved \
                 nothing: {}",
                probe.probe_failure()
            ),
            Why::Remembered { first } => {
                format!("remembered from earlier on this page: {}", first.describe())
            }
            Why::Watched { said } => said.clone(),
        }
    }

    /// Whether this says which era the server speaks. A probe that failed the way any server can
    /// fail does not, until `initialize` answers.
    pub fn is_evidence(&self) -> bool {
        match self {
            Why::NoAnswer { .. } | Why::Inconclusive { .. } => false,
            Why::Remembered { first } => first.is_evidence(),
            _ => true,
        }
    }

    /// How the probe failed, for a later line that knows the era.
    fn probe_failure(&self) -> String {
        match self {
            Why::NoAnswer { detail } => format!("no HTTP answer ({})", clip(detail, 120)),
            Why::Inconclusive { failure } => clip(failure, 160),
            other => other.describe(),
        }
    }
}

/// The era a client uses with a server, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Detection {
    pub era: Era,
    pub why: Why,
}

impl Detection {
    /// The era's name as a line shows it: `modern`, `legacy`, or `not known yet` while the
    /// client tries `initialize` after a probe that proved nothing.
    pub fn era_name(&self) -> &'static str {
        if self.why.is_evidence() {
            self.era.id()
        } else {
            "not known yet"
        }
    }

    /// After a probe that proved nothing, `initialize` answered with `version`: what the client
    /// now knows. Evidence already held is kept.
    pub fn after_handshake(&self, version: &str) -> Detection {
        if self.why.is_evidence() {
            return self.clone();
        }
        Detection {
            era: Era::Legacy,
            why: Why::Handshake {
                version: version.to_owned(),
                probe: Box::new(self.why.clone()),
            },
        }
    }
}

/// The modern error codes: a server that answers with one of them speaks 2026-07-28.
pub const MODERN_ERRORS: [i64; 3] = mcp_flow_wire::codes::MODERN;

/// What the answer (or failure) of the modern probe says about the server.
pub fn classify(probe: &Result<(), McpError>) -> Detection {
    let legacy = |why| Detection {
        era: Era::Legacy,
        why,
    };
    match probe {
        Ok(()) => Detection {
            era: Era::Modern,
            why: Why::Discovered,
        },
        Err(McpError::Protocol { code, message, .. }) if MODERN_ERRORS.contains(code) => {
            Detection {
                era: Era::Modern,
                why: Why::ModernError {
                    code: *code,
                    message: message.clone(),
                },
            }
        }
        Err(McpError::Transport(TransportError::Network { detail, .. })) => legacy(Why::NoAnswer {
            detail: detail.clone(),
        }),
        Err(McpError::Transport(e @ TransportError::Timeout { .. })) => legacy(Why::NoAnswer {
            detail: e.to_string(),
        }),
        Err(e) if says_legacy(e) => legacy(Why::NotModern {
            answer: e.to_string(),
        }),
        Err(other) => legacy(Why::Inconclusive {
            failure: other.to_string(),
        }),
    }
}

/// Whether a failed probe is what a legacy server answers a request it does not know: a
/// JSON-RPC error (such as "method not found"), a 400 (no session), or a JSON-RPC result that is
/// not a discover result. Authorization failures, 404, 405, 5xx, other content and broken
/// streams are what any server, or no MCP server at all, can answer.
fn says_legacy(e: &McpError) -> bool {
    match e {
        McpError::Protocol { .. } | McpError::Invalid(_) => true,
        McpError::Transport(TransportError::Status { status, .. }) => *status == 400,
        _ => false,
    }
}

/// What each server URL answered, for the page's lifetime: a later run against the same URL
/// does not probe again.
#[derive(Debug, Clone, Default)]
pub struct EraCache(Rc<RefCell<HashMap<String, Detection>>>);

impl EraCache {
    pub fn get(&self, url: &str) -> Option<Detection> {
        self.0.borrow().get(url).cloned().map(|d| Detection {
            era: d.era,
            why: match d.why {
                Why::Remembered { .. } => d.why,
                first => Why::Remembered {
                    first: Box::new(first),
                },
            },
        })
    }

    /// Remembers what the probe found (a fixed era is not remembered: it says nothing about
    /// the server).
    pub fn put(&self, url: &str, detection: &Detection) {
        if detection.why != Why::Chosen {
            self.0
                .borrow_mut()
                .insert(url.to_owned(), detection.clone());
        }
    }

    pub fn forget(&self, url: &str) {
        self.0.borrow_mut().remove(url);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn protocol(code: i64) -> McpError {
        McpError::Protocol {
            code,
            message: "m".into(),
            data: None,
            status: Some(400),
        }
    }

    #[test]
    fn modern_answers_mean_a_modern_server() {
        assert_eq!(classify(&Ok(())).era, Era::Modern);
        for code in MODERN_ERRORS {
            let d = classify(&Err(protocol(code)));
            assert_eq!(d.era, Era::Modern, "{code}");
            assert!(matches!(d.why, Why::ModernError { code: c, .. } if c == code));
        }
    }

    #[test]
    fn anything_else_falls_back_to_legacy_and_says_why() {
        let cases = [
            (protocol(-32601), "method not found"),
            (protocol(-32000), "-32000"),
            (
                McpError::Transport(TransportError::Status {
                    status: 400,
                    body: "Bad Request: No valid session ID provided".into(),
                }),
                "No valid session ID",
            ),
            (
                McpError::Invalid("server/discover result does not parse".into()),
                "does not parse",
            ),
        ];
        for (err, seen) in cases {
            let d = classify(&Err(err));
            assert_eq!(d.era, Era::Legacy);
            assert!(matches!(d.why, Why::NotModern { .. }));
            assert!(d.why.describe().contains(seen), "{}", d.why.describe());
        }
        let cors = classify(&Err(McpError::Transport(TransportError::Network {
            url: "u".into(),
            detail: "TypeError: Failed to fetch".into(),
        })));
        assert_eq!(cors.era, Era::Legacy);
        let text = cors.why.describe();
        assert!(
            text.contains("Failed to fetch") && text.contains("CORS"),
            "{text}"
        );
        let slow = classify(&Err(McpError::Transport(TransportError::Timeout {
            ms: 3000,
        })));
        assert!(matches!(slow.why, Why::NoAnswer { .. }));
    }

    #[test]
    fn a_probe_that_failed_as_any_server_can_fail_names_no_era_until_initialize_answers() {
        let auth = McpError::Transport(TransportError::Auth(crate::auth::AuthError::Request {
            step: "token".into(),
            detail: "invalid_grant".into(),
        }));
        let failures = [
            auth,
            McpError::Transport(TransportError::Status {
                status: 405,
                body: "Method Not Allowed".into(),
            }),
            McpError::Transport(TransportError::Status {
                status: 401,
                body: String::new(),
            }),
            McpError::Transport(TransportError::Status {
                status: 502,
                body: String::new(),
            }),
            McpError::Transport(TransportError::Network {
                url: "http://127.0.0.1:9/mcp".into(),
                detail: "Connection refused".into(),
            }),
        ];
        for failure in failures {
            let d = classify(&Err(failure.clone()));
            assert!(!d.why.is_evidence(), "{failure}");
            assert_eq!(d.era_name(), "not known yet", "{failure}");
            assert!(
                !d.why.describe().contains("legacy server:"),
                "{}",
                d.why.describe()
            );
            let known = d.after_handshake("2025-06-18");
            assert_eq!((known.era, known.era_name()), (Era::Legacy, "legacy"));
            let line = known.why.describe();
            assert!(
                line.contains("initialize answered (protocol 2025-06-18)"),
                "{line}"
            );
        }
        // A legacy server's own answer is evidence, and a handshake does not replace it.
        let d = classify(&Err(protocol(-32601)));
        assert_eq!(d.era_name(), "legacy");
        assert_eq!(d.after_handshake("2025-11-25"), d);
    }

    #[test]
    fn the_cache_remembers_what_a_server_answered_but_not_a_fixed_choice() {
        let cache = EraCache::default();
        let found = classify(&Err(protocol(-32601)));
        cache.put("http://a/mcp", &found);
        let again = cache.get("http://a/mcp").unwrap();
        assert_eq!(again.era, Era::Legacy);
        assert!(
            again
                .why
                .describe()
                .starts_with("remembered from earlier on this page")
        );
        cache.put("http://a/mcp", &again);
        assert!(matches!(
            cache.get("http://a/mcp").unwrap().why,
            Why::Remembered { ref first } if matches!(**first, Why::NotModern { .. })
        ));
        cache.put(
            "http://b/mcp",
            &Detection {
                era: Era::Modern,
                why: Why::Chosen,
            },
        );
        assert!(cache.get("http://b/mcp").is_none());
        cache.forget("http://a/mcp");
        assert!(cache.get("http://a/mcp").is_none());
        assert_eq!(EraChoice::from_id("modern"), Some(EraChoice::Modern));
        assert_eq!(EraChoice::from_id("new"), None);
        assert_eq!(EraChoice::Legacy.forced(), Some(Era::Legacy));
    }
}
