//! Settings read from the page's query string.

/// The MCP endpoint used when the page names none.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:8000/mcp";

/// The value of `name` in a query string such as `?server=...&q=...`, percent-decoded.
pub fn query_param(query: &str, name: &str) -> Option<String> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| percent_decode(value))
}

/// The port `trunk serve` uses; a page there talks to the server on its default address.
const DEV_SERVER_PORT: &str = "8080";

/// The server URL from `?server=`; otherwise the page's own origin + `/mcp` when the weather
/// server serves the page (`--static`), or the default address under `trunk serve`.
pub fn server_url(query: &str, origin: &str) -> String {
    if let Some(server) = query_param(query, "server").filter(|s| !s.trim().is_empty()) {
        return server;
    }
    let port = origin.rsplit_once(':').map(|(_, p)| p).unwrap_or("");
    if origin.starts_with("http") && port != DEV_SERVER_PORT && port.parse::<u16>().is_ok() {
        format!("{origin}/mcp")
    } else {
        DEFAULT_SERVER.to_owned()
    }
}

/// `?speed=`: `instant` (or `0`) for no delay, else a multiplier clamped to 0.25…4; default 1×.
pub fn speed(query: &str) -> Option<f64> {
    match query_param(query, "speed").as_deref() {
        Some("instant" | "0") => None,
        Some(s) => Some(
            s.trim_end_matches(['x', '×'])
                .parse::<f64>()
                .unwrap_or(1.0)
                .clamp(0.25, 4.0),
        ),
        None => Some(1.0),
    }
}

/// Whether a flag such as `?autoplay` or `?autoplay=1` is on.
pub fn flag(query: &str, name: &str) -> bool {
    matches!(
        query_param(query, name).as_deref(),
        Some("" | "1" | "true" | "yes" | "on")
    )
}

fn percent_decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_from_query_then_origin_then_default() {
        let dev = "http://127.0.0.1:8080";
        assert_eq!(server_url("", dev), DEFAULT_SERVER);
        assert_eq!(server_url("?server=", dev), DEFAULT_SERVER);
        assert_eq!(
            server_url("?q=x&server=http%3A%2F%2Flocalhost%3A9000%2Fmcp", dev),
            "http://localhost:9000/mcp"
        );
        assert_eq!(
            server_url("", "http://127.0.0.1:18700"),
            "http://127.0.0.1:18700/mcp"
        );
        assert_eq!(server_url("", "null"), DEFAULT_SERVER);
    }

    #[test]
    fn speeds() {
        assert_eq!(speed(""), Some(1.0));
        assert_eq!(speed("?speed=instant"), None);
        assert_eq!(speed("?speed=2"), Some(2.0));
        assert_eq!(speed("?speed=10"), Some(4.0));
        assert_eq!(speed("?speed=abc"), Some(1.0));
    }

    #[test]
    fn flags() {
        assert!(flag("?autoplay", "autoplay"));
        assert!(flag("?autoplay=1", "autoplay"));
        assert!(!flag("?autoplay=0", "autoplay"));
        assert!(!flag("", "autoplay"));
    }

    #[test]
    fn decoding_handles_plus_utf8_and_broken_escapes() {
        assert_eq!(query_param("?q=a+b", "q").as_deref(), Some("a b"));
        assert_eq!(
            query_param("?q=%E4%B8%9C%E4%BA%AC", "q").as_deref(),
            Some("东京")
        );
        assert_eq!(query_param("?q=100%", "q").as_deref(), Some("100%"));
        assert_eq!(query_param("?q=%zz", "q").as_deref(), Some("%zz"));
        assert_eq!(query_param("?flag", "flag").as_deref(), Some(""));
        assert_eq!(query_param("?a=1", "b"), None);
    }
}
