//! The origin of an absolute http(s) URL, whether it is this machine, and a URI a server sent
//! resolved against its own URL when it stays on that origin. The run's code path uses these
//! instead of the `url` crate, whose IDNA tables would add about 60 KB to the page's run module;
//! only the same-origin question is answered, strictly (a default port written out counts as
//! another origin).

/// An absolute URL's parts: scheme, authority (`host[:port]`, no user info) and host name
/// (without brackets or port).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin<'a> {
    pub scheme: &'a str,
    pub authority: &'a str,
    pub host: &'a str,
}

impl Origin<'_> {
    /// `scheme://authority`, lowercased.
    pub fn serialize(&self) -> String {
        format!("{}://{}", self.scheme, self.authority).to_ascii_lowercase()
    }

    /// Whether the host is this machine: `localhost` (or a name under it), 127.x.x.x or `::1`.
    pub fn is_loopback(&self) -> bool {
        let host = self.host.to_ascii_lowercase();
        host == "localhost"
            || host.ends_with(".localhost")
            || host == "::1"
            || host
                .parse::<std::net::Ipv4Addr>()
                .is_ok_and(|ip| ip.is_loopback())
    }
}

impl Origin<'_> {
    /// Whether the host names a private network that is not this machine: an IPv4 private,
    /// shared (CGNAT), link-local or unspecified address, an IPv6 unique-local or link-local
    /// one, or a name that only a local network resolves (one label, `.local`, `.lan`,
    /// `.internal`, `.home.arpa`). A public name that resolves to such an address is not seen.
    pub fn is_private_network(&self) -> bool {
        if self.is_loopback() {
            return false;
        }
        let host = self.host.to_ascii_lowercase();
        if let Ok(ip) = host.parse::<std::net::Ipv4Addr>() {
            let [a, b, ..] = ip.octets();
            return ip.is_private()
                || ip.is_link_local()
                || ip.is_unspecified()
                || (a == 100 && (64..128).contains(&b));
        }
        if let Ok(ip) = host.parse::<std::net::Ipv6Addr>() {
            let first = ip.segments()[0];
            return (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80 || ip.is_unspecified();
        }
        let host = host.trim_end_matches('.');
        // A browser reads a host whose last label is a number (`10.1`, `0x0a000001`) as an IPv4
        // address: one not written the usual way is taken as private.
        let last = host.rsplit('.').next().unwrap_or("");
        let numeric = !last.is_empty()
            && (last.bytes().all(|b| b.is_ascii_digit())
                || last
                    .strip_prefix("0x")
                    .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit())));
        numeric
            || !host.contains('.')
            || [
                ".local",
                ".lan",
                ".internal",
                ".home.arpa",
                ".intranet",
                ".corp",
            ]
            .iter()
            .any(|suffix| host.ends_with(suffix))
    }
}

/// The origin of `url`, an absolute URL with a scheme, `://` and a host; `None` otherwise.
pub fn origin(url: &str) -> Option<Origin<'_>> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme_ok = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return None;
    }
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or("");
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    (!host.is_empty()).then_some(Origin {
        scheme,
        authority,
        host,
    })
}

/// Whether `url` is an absolute http(s) URL of this machine.
pub fn is_loopback_url(url: &str) -> bool {
    origin(url).is_some_and(|o| {
        matches!(o.scheme.to_ascii_lowercase().as_str(), "http" | "https") && o.is_loopback()
    })
}

/// `uri` (absolute, protocol-relative, an absolute path, a relative path or a query) resolved
/// against `base`, when the result stays on `base`'s origin; why not otherwise. URIs with
/// whitespace, control characters or backslashes are refused outright (browsers read a
/// backslash as a slash, which could move a relative URI to another host).
pub fn same_origin_uri(base: &str, uri: &str) -> Result<String, String> {
    let uri = uri.trim();
    let base_origin = origin(base).ok_or_else(|| format!("{base:?} is not an absolute URL"))?;
    if uri.is_empty() {
        return Err("the URI is empty".into());
    }
    if uri
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return Err("the URI holds whitespace, a control character or a backslash".into());
    }
    let has_scheme = uri
        .split_once(':')
        .is_some_and(|(s, _)| !s.is_empty() && !s.contains(['/', '?', '#']));
    let resolved = if let Some(rest) = uri.strip_prefix("//") {
        format!("{}://{rest}", base_origin.scheme)
    } else if has_scheme {
        uri.to_owned()
    } else if uri.starts_with('/') {
        format!("{}://{}{uri}", base_origin.scheme, base_origin.authority)
    } else {
        // Relative: beside the base's last path segment (a query replaces the base's query).
        let without_fragment = base.split('#').next().unwrap_or(base);
        let without_query = without_fragment
            .split('?')
            .next()
            .unwrap_or(without_fragment);
        if uri.starts_with('?') {
            format!("{without_query}{uri}")
        } else {
            let dir_end = without_query
                .rfind('/')
                .map_or(without_query.len(), |i| i + 1);
            let dir = &without_query[..dir_end];
            // `http://host` has no path: its directory is `/`.
            if dir.ends_with("://") || !dir.contains(&format!("{}/", base_origin.authority)) {
                format!("{}://{}/{uri}", base_origin.scheme, base_origin.authority)
            } else {
                format!("{dir}{uri}")
            }
        }
    };
    match origin(&resolved) {
        Some(o) if o.serialize() == base_origin.serialize() => Ok(resolved),
        _ => Err(format!(
            "it leads to another origin than {}",
            base_origin.serialize()
        )),
    }
}

/// The upstream an answer from `url` names in `mcp-flow-bridge-upstream`, when it can be believed: `url`
/// is a bridge's address on this machine (`http` on a loopback host, under the bridge's
/// `/s/<secret>/` path) and the upstream is a plain `http` URL, the only kind a bridge relays to.
pub fn bridge_upstream(url: &str, named: &str) -> Option<String> {
    let at_bridge = origin(url).is_some_and(|o| {
        o.scheme.eq_ignore_ascii_case("http") && o.is_loopback() && {
            let rest = url.split_once("://").map_or("", |(_, rest)| rest);
            let path = rest
                .find(['/', '?', '#', '\\'])
                .map_or("", |at| &rest[at..]);
            path.strip_prefix("/s/")
                .and_then(|rest| rest.split_once('/'))
                .is_some_and(|(secret, _)| {
                    !secret.is_empty() && secret.bytes().all(|b| b.is_ascii_alphanumeric())
                })
        }
    });
    let plain_http = origin(named).is_some_and(|o| o.scheme == "http")
        && !named
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '\\');
    (at_bridge && plain_http).then(|| named.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "http://127.0.0.1:3000/mcp/sse?x=1";

    #[test]
    fn private_networks_are_told_from_this_machine_and_the_internet() {
        let private = |url: &str| origin(url).is_some_and(|o| o.is_private_network());
        for url in [
            "http://10.0.0.5:8080/admin?delete=1",
            "http://172.16.3.4/",
            "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://100.64.0.1/",
            "http://0.0.0.0:8000/",
            "http://[fd00::1]:80/",
            "http://[fe80::1]/",
            "http://router/",
            "http://printer.local/",
            "http://nas.home.arpa/",
            "http://10.1/",
            "http://0x0a000001/",
            "http://167772161/",
        ] {
            assert!(private(url), "{url}");
        }
        for url in [
            "http://127.0.0.1:8000/mcp",
            "http://localhost:3000/",
            "http://[::1]:9/",
            "https://example.com/mcp",
            "https://8.8.8.8/",
            "https://mcp.example.org./",
        ] {
            assert!(!private(url), "{url}");
        }
    }

    #[test]
    fn origins_and_this_machine() {
        let o = origin("http://user@[::1]:8001/s/k/mcp").expect("an origin");
        assert_eq!(
            (o.scheme, o.authority, o.host),
            ("http", "[::1]:8001", "::1")
        );
        assert!(o.is_loopback());
        assert_eq!(o.serialize(), "http://[::1]:8001");
        for url in [
            "http://localhost:1/",
            "http://api.localhost/",
            "https://127.0.0.2",
        ] {
            assert!(is_loopback_url(url), "{url}");
        }
        for url in [
            "http://example.com/",
            "http://127.0.0.1.example.com/",
            "ftp://127.0.0.1/",
            "/mcp",
            "javascript:alert(1)",
        ] {
            assert!(!is_loopback_url(url), "{url}");
        }
        assert_eq!(origin("http:///mcp"), None);
        assert_eq!(origin("1http://a/"), None);
    }

    #[test]
    fn uris_of_the_same_origin_resolve_as_a_browser_would() {
        for (uri, resolved) in [
            (
                "/messages?sessionId=a",
                "http://127.0.0.1:3000/messages?sessionId=a",
            ),
            ("messages?s=1", "http://127.0.0.1:3000/mcp/messages?s=1"),
            ("?s=2", "http://127.0.0.1:3000/mcp/sse?s=2"),
            ("http://127.0.0.1:3000/m", "http://127.0.0.1:3000/m"),
            ("HTTP://127.0.0.1:3000/m", "HTTP://127.0.0.1:3000/m"),
            ("//127.0.0.1:3000/m", "http://127.0.0.1:3000/m"),
            (" /padded ", "http://127.0.0.1:3000/padded"),
        ] {
            assert_eq!(same_origin_uri(BASE, uri).as_deref(), Ok(resolved), "{uri}");
        }
        assert_eq!(
            same_origin_uri("http://h:1", "m").as_deref(),
            Ok("http://h:1/m")
        );
    }

    #[test]
    fn uris_that_leave_the_origin_or_could_are_refused() {
        for uri in [
            "http://elsewhere.example/messages",
            "//elsewhere.example/m",
            "https://127.0.0.1:3000/m",
            "http://127.0.0.1:3001/m",
            "http://127.0.0.1:3000@evil.example/m",
            "javascript:alert(1)",
            "data:text/plain,x",
            "\\\\evil.example/m",
            "/m\\x",
            "/a b",
            "",
        ] {
            assert!(same_origin_uri(BASE, uri).is_err(), "{uri:?}");
        }
        assert!(same_origin_uri("not a url", "/m").is_err());
    }
}
