//! Redirect URIs: which a client may register (`https`, or `http` on a loopback host; no
//! fragment, no credentials, visible ASCII so it fits a Location header as sent), and the
//! loopback rule of RFC 8252 §7.3 (any port).

use reqwest::Url;

/// A redirect URI a client registers (dynamically or in its metadata document): absolute,
/// visible ASCII, no fragment (RFC 6749 §3.1.2), and `https`, or `http` on a loopback host.
pub fn check_redirect_uri(uri: &str) -> Result<(), String> {
    let url = parse(uri).ok_or_else(|| format!("{uri:?} is not an absolute URI"))?;
    if url.fragment().is_some() {
        return Err(format!("{uri:?} has a fragment"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!("{uri:?} carries credentials"));
    }
    match url.scheme() {
        "https" => Ok(()),
        "http" if loopback_http(uri).is_some() => Ok(()),
        _ => Err(format!(
            "{uri:?} is neither https nor http on a loopback host (127.0.0.1, localhost, [::1])"
        )),
    }
}

/// `uri` parsed, if it is an `http` URI on a loopback host, without fragment or credentials.
pub fn loopback_http(uri: &str) -> Option<Url> {
    parse(uri).filter(|url| {
        url.scheme() == "http"
            && is_loopback_host(url)
            && url.fragment().is_none()
            && url.username().is_empty()
            && url.password().is_none()
    })
}

/// Whether the URL's host is 127.0.0.1, localhost or [::1].
pub fn is_loopback_host(url: &Url) -> bool {
    matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"))
}

/// RFC 8252 §7.3: a loopback redirect URI matches on any port.
pub fn same_but_port(registered: &str, requested: &str) -> bool {
    match (loopback_http(registered), loopback_http(requested)) {
        (Some(a), Some(b)) => {
            a.host_str() == b.host_str() && a.path() == b.path() && a.query() == b.query()
        }
        _ => false,
    }
}

/// An absolute URI of visible ASCII (so it fits a Location header as sent).
fn parse(uri: &str) -> Option<Url> {
    if !uri.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
        return None;
    }
    Url::parse(uri).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_redirects_are_https_or_loopback_http() {
        assert!(check_redirect_uri("https://app.example/cb").is_ok());
        assert!(check_redirect_uri("http://localhost:1/cb").is_ok());
        assert!(check_redirect_uri("http://app.example/cb").is_err());
        assert!(check_redirect_uri("https://app.example/cb#x").is_err());
        assert!(check_redirect_uri("javascript:alert(1)").is_err());
        assert!(check_redirect_uri("cb").is_err());
    }
}
