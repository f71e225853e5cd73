//! The client's errors, in the three kinds MCP has: transport, protocol and (as a normal result)
//! tool errors. Tool errors are not here: a `CallToolResult` with `isError: true` is a result.

use std::fmt;

/// Something went wrong below JSON-RPC: the network, HTTP, the body's framing, or time.
#[derive(Debug, Clone, PartialEq)]
pub enum TransportError {
    /// No HTTP response at all: the server is down, the name does not resolve, or the browser
    /// refused the response (CORS).
    Network { url: String, detail: String },
    /// An HTTP status the protocol does not expect here; the body text is kept.
    Status { status: u16, body: String },
    /// A 2xx response whose content type is neither JSON nor SSE.
    ContentType {
        status: u16,
        content_type: String,
        body: String,
    },
    /// A JSON body that does not parse, or is not a JSON-RPC message.
    BadBody { detail: String, body: String },
    /// The SSE stream ended, or broke, before the response arrived, and could not be resumed.
    Stream { detail: String },
    /// No response within the request timeout.
    Timeout { ms: u32 },
    /// The user stopped the request before its response came.
    Stopped,
    /// The body (or one SSE event) passed the most this client reads; it stopped reading there.
    TooLarge { limit: usize },
    /// The server asked for authorization and the flow failed at one of its steps.
    Auth(crate::auth::AuthError),
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Network { url, detail } => write!(
                f,
                "no HTTP response from {url} (server not running, wrong address, or, in a \
                 browser, a response that CORS does not let the page read): {detail}"
            ),
            Self::Status { status, body } => {
                write!(f, "HTTP {status}")?;
                if let Some(reason) = reason(*status) {
                    write!(f, " {reason}")?;
                }
                let body = body.trim();
                if !body.is_empty() {
                    write!(f, ": {}", clip(body, 300))?;
                }
                Ok(())
            }
            Self::ContentType {
                status,
                content_type,
                body,
            } => write!(
                f,
                "HTTP {status} with content type {:?}; expected application/json or \
                 text/event-stream. Body: {}",
                if content_type.is_empty() {
                    "(none)"
                } else {
                    content_type
                },
                clip(body.trim(), 200)
            ),
            Self::BadBody { detail, body } => {
                write!(
                    f,
                    "the response body is not JSON-RPC ({detail}): {}",
                    clip(body, 200)
                )
            }
            Self::Stream { detail } => write!(f, "the SSE stream broke: {detail}"),
            Self::Timeout { ms } => write!(f, "no response within {ms} ms"),
            Self::Stopped => write!(f, "you stopped the request before its response came"),
            Self::Auth(e) => write!(f, "authorization failed: {e}"),
            Self::TooLarge { limit } => write!(
                f,
                "the response passed {} MiB, the most this client reads, so it stopped reading",
                limit / (1024 * 1024)
            ),
        }
    }
}

/// Any failure of an MCP operation.
#[derive(Debug, Clone, PartialEq)]
pub enum McpError {
    Transport(TransportError),
    /// The server answered with a JSON-RPC error object (with the HTTP status when it was not
    /// 200: the modern era answers its own errors with 400 or 404).
    Protocol {
        code: i64,
        message: String,
        data: Option<serde_json::Value>,
        status: Option<u16>,
    },
    /// The reply was JSON-RPC but not what the method promises (a bad result shape, a version
    /// this client cannot speak).
    Invalid(String),
    /// The page could not fetch the part of the app that handles this reply (a module loaded
    /// on demand, `crate::on_demand`): nothing is known to be wrong with the server's answer.
    NotLoaded {
        what: &'static str,
    },
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Transport(e) => write!(f, "transport error: {e}"),
            Self::Protocol {
                code,
                message,
                data,
                status,
            } => {
                if let Some(status) = status.filter(|s| *s != 200) {
                    write!(f, "HTTP {status}, ")?;
                }
                write!(f, "JSON-RPC error {code}")?;
                if let Some(name) = rpc_code_name(*code) {
                    write!(f, " ({name})")?;
                }
                write!(f, ": {message}")?;
                if let Some(meaning) = meaning(*code, data.as_ref()) {
                    write!(f, ". {meaning}")?;
                }
                Ok(())
            }
            Self::Invalid(detail) => write!(f, "unexpected reply: {detail}"),
            Self::NotLoaded { what } => write!(
                f,
                "{} (the server's answer itself may be fine)",
                mcp_flow_on_demand::not_loaded(&format!("reads {what}"))
            ),
        }
    }
}

impl std::error::Error for McpError {}

impl From<TransportError> for McpError {
    fn from(e: TransportError) -> Self {
        Self::Transport(e)
    }
}

impl McpError {
    /// Whether no MCP server answered: no response, or one that is not MCP (an HTTP error other
    /// than authorization's 401 and 403, a content type or body that is not JSON-RPC). Not a
    /// request the user stopped or that timed out, nor an answer in JSON-RPC.
    pub fn unreached(&self) -> bool {
        match self {
            Self::Transport(TransportError::Status { status, .. }) => !matches!(status, 401 | 403),
            Self::Transport(
                TransportError::Network { .. }
                | TransportError::ContentType { .. }
                | TransportError::BadBody { .. },
            ) => true,
            _ => false,
        }
    }

    /// The short kind name shown on screen.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Transport(_) => "transport",
            Self::Protocol { .. } => "protocol",
            Self::Invalid(_) => "protocol",
            Self::NotLoaded { .. } => "page",
        }
    }
}

fn rpc_code_name(code: i64) -> Option<&'static str> {
    Some(match code {
        -32020 => "header mismatch",
        -32021 => "missing required client capability",
        -32022 => "unsupported protocol version",
        -32700 => "parse error",
        -32600 => "invalid request",
        -32601 => "method not found",
        -32602 => "invalid params",
        -32603 => "internal error",
        -32002 => "resource not found",
        _ => return None,
    })
}

/// What a modern-era error means for the client, with the details its `data` carries.
fn meaning(code: i64, data: Option<&serde_json::Value>) -> Option<String> {
    let list = |v: Option<&serde_json::Value>| {
        v.and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    };
    Some(match code {
        -32020 => "The request's HTTP headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name or an \
                   Mcp-Param-*) do not match its body"
            .to_owned(),
        -32021 => format!(
            "The server needs a client capability this request did not declare in \
             _meta: {}",
            data.and_then(|d| d.get("requiredCapabilities"))
                .map(|c| c.to_string())
                .unwrap_or_else(|| "(not named)".into())
        ),
        -32022 => format!(
            "The server does not speak {} here; it supports {}",
            data.and_then(|d| d.get("requested"))
                .and_then(|v| v.as_str())
                .unwrap_or("the requested version"),
            match list(data.and_then(|d| d.get("supported"))) {
                s if s.is_empty() => "(no list given)".to_owned(),
                s => s,
            }
        ),
        _ => return None,
    })
}

fn reason(status: u16) -> Option<&'static str> {
    Some(match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => return None,
    })
}

/// At most `max` characters of `s`, with an ellipsis when cut.
pub fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_no_server_answering_is_unreached() {
        let t = |e: TransportError| McpError::Transport(e).unreached();
        let status = |status| TransportError::Status {
            status,
            body: String::new(),
        };
        assert!(t(TransportError::Network {
            url: "http://127.0.0.1:1/mcp".into(),
            detail: "refused".into()
        }));
        assert!(t(status(404)) && t(status(405)) && t(status(502)));
        assert!(t(TransportError::ContentType {
            status: 200,
            content_type: "text/html".into(),
            body: String::new()
        }));
        assert!(!t(status(401)) && !t(status(403)), "authorization's");
        assert!(!t(TransportError::Stopped), "the user stopped it");
        assert!(!t(TransportError::Timeout { ms: 1 }));
        let answered = McpError::Protocol {
            code: -32602,
            message: "Unsupported protocol version".into(),
            data: None,
            status: Some(400),
        };
        assert!(!answered.unreached(), "a JSON-RPC answer came");
    }

    #[test]
    fn kinds_are_kept_apart_and_messages_are_readable() {
        let t: McpError = TransportError::Status {
            status: 403,
            body: "Forbidden: Origin not allowed".into(),
        }
        .into();
        assert_eq!(t.kind(), "transport");
        assert_eq!(
            t.to_string(),
            "transport error: HTTP 403 Forbidden: Forbidden: Origin not allowed"
        );
        let p = McpError::Protocol {
            code: -32601,
            message: "Method not found".into(),
            data: None,
            status: Some(404),
        };
        assert_eq!(p.kind(), "protocol");
        assert_eq!(
            p.to_string(),
            "HTTP 404, JSON-RPC error -32601 (method not found): Method not found"
        );
    }

    #[test]
    fn modern_errors_say_what_they_mean() {
        let e = |code, data| McpError::Protocol {
            code,
            message: "m".into(),
            data,
            status: Some(400),
        };
        let v = e(
            -32022,
            Some(serde_json::json!({"supported": ["2026-07-28", "2025-11-25"], "requested": "1900-01-01"})),
        )
        .to_string();
        assert!(v.contains("(unsupported protocol version)"), "{v}");
        assert!(
            v.contains("does not speak 1900-01-01 here; it supports 2026-07-28, 2025-11-25"),
            "{v}"
        );
        let c = e(
            -32021,
            Some(serde_json::json!({"requiredCapabilities": {"sampling": {}}})),
        )
        .to_string();
        assert!(c.contains(r#"_meta: {"sampling":{}}"#), "{c}");
        let h = e(-32020, None).to_string();
        assert!(
            h.starts_with("HTTP 400, JSON-RPC error -32020 (header mismatch)"),
            "{h}"
        );
        assert!(h.contains("do not match its body"), "{h}");
    }

    #[test]
    fn content_type_error_names_what_came() {
        let e = TransportError::ContentType {
            status: 200,
            content_type: "text/html".into(),
            body: "<html>oops</html>".into(),
        };
        let s = e.to_string();
        assert!(s.contains("text/html") && s.contains("<html>oops"), "{s}");
    }

    #[test]
    fn clip_respects_characters() {
        assert_eq!(clip("东京东京", 2), "东京…");
        assert_eq!(clip("abc", 5), "abc");
    }
}
