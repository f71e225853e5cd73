//! What an app is rendered in: the policy the host adds to its document (built from the domains
//! it declared, the spec's restrictive default when it declared none), the inner frame's
//! `sandbox` and `allow` attributes, and the document with its policy first.

use super::resource::{CspDomains, Permissions};

/// The inner frame's sandbox: scripts and forms, no `allow-same-origin` (the app gets an origin
/// of its own and cannot touch the proxy's), no popups (links go through the host).
pub const INNER_SANDBOX: &str = "allow-scripts allow-forms";

/// The spec's policy for an app that declares no `csp`: no network at all.
pub const DEFAULT_POLICY: &str = "default-src 'none'; script-src 'self' 'unsafe-inline'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; \
    connect-src 'none'; object-src 'none'; base-uri 'self'";

/// An app's policy and what of its declaration was left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    pub text: String,
    /// Declared entries that are not a plain source (`https://host[:port]`, `*.` allowed): never
    /// put into the policy, where they could add a directive.
    pub refused: Vec<String>,
}

/// Whether `entry` is a source the host puts into a policy: `scheme://host[:port][/path]` with
/// a web scheme, a host of letters, digits, dots and hyphens (a leading `*.` allowed), a port
/// of digits or `*`, and nothing that could end the directive or quote.
pub fn is_plain_source(entry: &str) -> bool {
    let Some((scheme, rest)) = entry.split_once("://") else {
        return false;
    };
    if !matches!(scheme, "http" | "https" | "ws" | "wss") {
        return false;
    }
    let (authority, path) = match rest.find('/') {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (authority, None),
    };
    let bare = host.strip_prefix("*.").unwrap_or(host);
    let host_ok = !bare.is_empty()
        && bare
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    let port_ok =
        port.is_none_or(|p| p == "*" || (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())));
    let path_ok = path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/-._~%".contains(&b));
    host_ok && port_ok && path_ok
}

/// The policy for `csp`: the spec's construction (`connectDomains` to `connect-src`,
/// `resourceDomains` to scripts, styles, images, fonts and media, `frameDomains` to
/// `frame-src`, `baseUriDomains` to `base-uri`), only plain sources in it.
pub fn policy(csp: &CspDomains) -> Policy {
    let mut refused = Vec::new();
    let mut keep = |list: &[String]| -> String {
        let mut kept = String::new();
        for entry in list {
            if is_plain_source(entry) {
                kept.push(' ');
                kept.push_str(entry);
            } else {
                refused.push(entry.clone());
            }
        }
        kept
    };
    if !csp.declared {
        return Policy {
            text: DEFAULT_POLICY.to_owned(),
            refused,
        };
    }
    let connect = keep(&csp.connect);
    let resource = keep(&csp.resource);
    let frame = keep(&csp.frame);
    let base = keep(&csp.base_uri);
    let or = |list: &str, none: &str| {
        if list.is_empty() {
            format!(" {none}")
        } else {
            list.to_owned()
        }
    };
    let text = format!(
        "default-src 'none'; script-src 'self' 'unsafe-inline'{resource}; \
         style-src 'self' 'unsafe-inline'{resource}; connect-src 'self'{connect}; \
         img-src 'self' data:{resource}; font-src 'self'{resource}; \
         media-src 'self' data:{resource}; frame-src{}; object-src 'none'; base-uri{}",
        or(&frame, "'none'"),
        or(&base, "'self'"),
    );
    Policy { text, refused }
}

/// The inner frame's `allow` attribute for the permissions the app asked for.
pub fn allow(permissions: &Permissions) -> String {
    [
        (permissions.camera, "camera"),
        (permissions.microphone, "microphone"),
        (permissions.geolocation, "geolocation"),
        (permissions.clipboard_write, "clipboard-write"),
    ]
    .into_iter()
    .filter(|(asked, _)| *asked)
    .map(|(_, name)| name)
    .collect::<Vec<_>>()
    .join("; ")
}

/// `html` with `policy` as the first thing its parser meets (after the doctype, which must
/// stay first): a policy set there binds every script and request of the document.
pub fn with_policy(html: &str, policy: &str) -> String {
    let meta = format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">");
    let body = html.trim_start_matches('\u{feff}');
    let lead = body.len() - body.trim_start().len();
    let rest = &body[lead..];
    let is_doctype = rest
        .get(..9)
        .is_some_and(|head| head.eq_ignore_ascii_case("<!doctype"));
    match rest.find('>').filter(|_| is_doctype) {
        Some(end) => format!("{}{meta}{}", &rest[..=end], &rest[end + 1..]),
        None => format!("{meta}{rest}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(connect: &[&str], resource: &[&str]) -> CspDomains {
        CspDomains {
            connect: connect.iter().map(|s| s.to_string()).collect(),
            resource: resource.iter().map(|s| s.to_string()).collect(),
            declared: true,
            ..Default::default()
        }
    }

    fn directive<'a>(policy: &'a str, name: &str) -> &'a str {
        policy
            .split(';')
            .map(str::trim)
            .find(|d| d.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} in {policy}"))
    }

    #[test]
    fn no_declaration_is_the_specs_default_with_no_network() {
        let p = policy(&CspDomains::default());
        assert_eq!(directive(&p.text, "connect-src"), "connect-src 'none'");
        assert_eq!(directive(&p.text, "default-src"), "default-src 'none'");
        assert!(p.refused.is_empty());
    }

    #[test]
    fn declared_domains_go_to_their_directives_and_nowhere_else() {
        let p = policy(&declared(
            &["https://api.example.com"],
            &["https://*.cdn.example"],
        ));
        let t = &p.text;
        assert_eq!(
            directive(t, "connect-src"),
            "connect-src 'self' https://api.example.com"
        );
        assert_eq!(
            directive(t, "script-src"),
            "script-src 'self' 'unsafe-inline' https://*.cdn.example"
        );
        assert_eq!(
            directive(t, "img-src"),
            "img-src 'self' data: https://*.cdn.example"
        );
        assert_eq!(directive(t, "frame-src"), "frame-src 'none'");
        assert_eq!(directive(t, "base-uri"), "base-uri 'self'");
        assert_eq!(directive(t, "object-src"), "object-src 'none'");
        assert!(!directive(t, "connect-src").contains("cdn"), "{t}");
    }

    #[test]
    fn an_entry_that_could_add_a_directive_is_refused() {
        let tricks = [
            "https://a.example; script-src *",
            "*",
            "https://a.example 'unsafe-eval'",
            "javascript://x",
            "https://a.example,https://b.example",
            "https://\"quoted\"",
            "data:",
        ];
        let p = policy(&declared(&tricks, &[]));
        assert_eq!(p.refused.len(), tricks.len(), "{:?}", p.refused);
        assert_eq!(directive(&p.text, "connect-src"), "connect-src 'self'");
        assert!(
            !p.text.contains("unsafe-eval") && !p.text.contains('*'),
            "{}",
            p.text
        );
        for fine in [
            "https://a.example:8443",
            "wss://live.example/socket",
            "http://localhost:*",
        ] {
            assert!(is_plain_source(fine), "{fine}");
        }
    }

    #[test]
    fn permissions_become_the_allow_attribute() {
        let all = Permissions {
            camera: true,
            microphone: true,
            geolocation: true,
            clipboard_write: true,
        };
        assert_eq!(
            allow(&all),
            "camera; microphone; geolocation; clipboard-write"
        );
        assert_eq!(allow(&Permissions::default()), "");
    }

    #[test]
    fn the_policy_comes_first_after_the_doctype() {
        let meta = "<meta http-equiv=\"Content-Security-Policy\" content=\"P\">";
        assert_eq!(
            with_policy("<!DOCTYPE html><html><script>x</script>", "P"),
            format!("<!DOCTYPE html>{meta}<html><script>x</script>")
        );
        assert_eq!(
            with_policy("\u{feff}  <!doctype html>\n<p>", "P"),
            format!("<!doctype html>{meta}\n<p>")
        );
        assert_eq!(
            with_policy("<script>x</script>", "P"),
            format!("{meta}<script>x</script>")
        );
        assert_eq!(with_policy("", "P"), meta);
    }
}
