//! The page's side of an app's frame as the host sees it: messages in, messages out, the frame's
//! height, and the few things only the page can do (ask the user to open a link, ask the model
//! the app's message). The browser's frame is in the app crate; tests script one.

use futures_util::future::LocalBoxFuture;
use serde_json::Value;

use super::context::HostFacts;

/// What happened at the frame.
#[derive(Debug, Clone, PartialEq)]
pub enum FrameEvent {
    /// A message from the app (or its sandbox proxy), stamped when it arrived.
    Message { at_ms: f64, message: Value },
    /// A message the page could not take (too large, not JSON), and why.
    Unreadable { at_ms: f64, why: String },
    /// The page changed (theme, language, room): the host tells the app.
    ContextChanged,
    /// The app is about to be removed, for this reason: the host asks it to finish first.
    Closing(String),
}

/// An app's frame.
pub trait Frame {
    /// Posts `message` to the app, through its proxy.
    fn post(&self, message: Value);
    /// What happens next at the frame; `None` once it is gone.
    fn next(&self) -> LocalBoxFuture<'static, Option<FrameEvent>>;
    /// Gives the frame `height` px.
    fn resize(&self, height: u32);
    /// The page as it is now.
    fn facts(&self) -> HostFacts;
    /// Asks the user to open `url` (a web page); whether it was opened.
    fn open_link(&self, url: String) -> LocalBoxFuture<'static, bool>;
    /// The app's message to the conversation: the page asks the user, and on their yes asks the
    /// model with it; whether it was sent.
    fn ask(&self, text: String) -> LocalBoxFuture<'static, bool>;
}

/// Where the sandbox proxy is served, under the page's other loopback name.
pub const SANDBOX_PATH: &str = "/sandbox/";

/// The proxy's origin for a page at `page_origin`: the same server under its other loopback
/// name (`localhost` for `127.0.0.1`, `127.0.0.1` for `localhost`), so the app never shares the
/// page's origin. A page anywhere else (`[::1]` too: a policy's `frame-ancestors` cannot name
/// it) has no such second name: why.
pub fn sandbox_origin(page_origin: &str) -> Result<String, &'static str> {
    let rest = page_origin
        .strip_prefix("http://")
        .ok_or("apps are rendered only for a page served over http from a loopback address")?;
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
            (host, Some(port))
        }
        _ => (rest, None),
    };
    let other = match host {
        "localhost" => "127.0.0.1",
        "127.0.0.1" => "localhost",
        _ => {
            return Err(
                "apps are rendered only for a page on 127.0.0.1 or localhost (the proxy runs under the other name)",
            );
        }
    };
    Ok(match port {
        Some(port) => format!("http://{other}:{port}"),
        None => format!("http://{other}"),
    })
}

/// Whether a CSS colour (`#rrggbb`, `#rgb` or `rgb(r, g, b)`) is dark: how the host tells the
/// app its theme from the page's background.
pub fn is_dark(colour: &str) -> bool {
    let colour = colour.trim();
    let channels: Option<[f64; 3]> = if let Some(hex) = colour.strip_prefix('#') {
        let wide = match hex.len() {
            3 => hex.chars().flat_map(|c| [c, c]).collect::<String>(),
            6 => hex.to_owned(),
            _ => return false,
        };
        let at = |i: usize| {
            u8::from_str_radix(wide.get(i..i + 2)?, 16)
                .ok()
                .map(f64::from)
        };
        Some([at(0), at(2), at(4)]).and_then(|[r, g, b]| Some([r?, g?, b?]))
    } else {
        let inner = colour
            .strip_prefix("rgb(")
            .or_else(|| colour.strip_prefix("rgba("))
            .and_then(|c| c.strip_suffix(')'));
        inner.and_then(|inner| {
            let mut parts = inner.split(',').map(|p| p.trim().parse::<f64>().ok());
            Some([parts.next()??, parts.next()??, parts.next()??])
        })
    };
    channels.is_some_and(|[r, g, b]| 0.2126 * r + 0.7152 * g + 0.0722 * b < 128.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proxy_runs_under_the_pages_other_loopback_name() {
        assert_eq!(
            sandbox_origin("http://127.0.0.1:8000"),
            Ok("http://localhost:8000".into())
        );
        assert_eq!(
            sandbox_origin("http://localhost:8080"),
            Ok("http://127.0.0.1:8080".into())
        );
        assert_eq!(
            sandbox_origin("http://localhost"),
            Ok("http://127.0.0.1".into())
        );
        for elsewhere in [
            // A policy's frame-ancestors cannot name an IPv6 address.
            "http://[::1]:9",
            "https://127.0.0.1:8000",
            "http://example.com:8000",
            "http://10.0.0.2:8000",
            "null",
        ] {
            assert!(sandbox_origin(elsewhere).is_err(), "{elsewhere}");
        }
    }

    #[test]
    fn a_dark_background_is_told_from_a_light_one() {
        assert!(is_dark("#0f172a"));
        assert!(is_dark("rgb(15, 23, 42)"));
        assert!(!is_dark("#ffffff"));
        assert!(!is_dark("#fff"));
        assert!(!is_dark("rgb(255, 255, 255)"));
        assert!(!is_dark("transparent"), "unknown: light");
    }
}
