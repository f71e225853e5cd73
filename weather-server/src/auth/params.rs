//! Form and query parameters (`application/x-www-form-urlencoded`) as OAuth reads them: a
//! parameter sent without a value counts as absent, and none may be repeated (RFC 6749 §3.1,
//! §3.2).

use axum::{body::Body, http::StatusCode};

/// The parameters of one request, in order.
#[derive(Debug, Default)]
pub struct Params(Vec<(String, String)>);

/// A parameter that was sent more than once.
#[derive(Debug, PartialEq, Eq)]
pub struct Repeated(pub String);

impl Params {
    pub fn parse(text: &[u8]) -> Self {
        Self(
            form_urlencoded::parse(text)
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        )
    }

    /// The value of `name`, if sent with a value.
    pub fn get(&self, name: &str) -> Result<Option<&str>, Repeated> {
        let mut values = self
            .0
            .iter()
            .filter(|(key, value)| key == name && !value.is_empty())
            .map(|(_, value)| value.as_str());
        let first = values.next();
        if values.next().is_some() {
            return Err(Repeated(name.to_owned()));
        }
        Ok(first)
    }

    /// Like [`Params::get`] for several names at once, in their order.
    pub fn get_all<const N: usize>(&self, names: [&str; N]) -> Result<[Option<&str>; N], Repeated> {
        let mut out = [None; N];
        for (slot, name) in out.iter_mut().zip(names) {
            *slot = self.get(name)?;
        }
        Ok(out)
    }
}

/// Reads a request body of at most `limit` bytes: `Err` is 413 (too large) or 400.
pub async fn read_body(body: Body, limit: usize) -> Result<axum::body::Bytes, StatusCode> {
    axum::body::to_bytes(body, limit).await.map_err(|error| {
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&error);
        while let Some(current) = source {
            if current.is::<http_body_util::LengthLimitError>() {
                return StatusCode::PAYLOAD_TOO_LARGE;
            }
            source = current.source();
        }
        StatusCode::BAD_REQUEST
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_values_are_absent_and_repeats_are_refused() {
        let params = Params::parse(b"a=1&b=&c=x%20y&d=1&d=2");
        assert_eq!(params.get("a"), Ok(Some("1")));
        assert_eq!(params.get("b"), Ok(None));
        assert_eq!(params.get("c"), Ok(Some("x y")));
        assert_eq!(params.get("z"), Ok(None));
        assert_eq!(params.get("d"), Err(Repeated("d".into())));
        assert_eq!(params.get_all(["a", "c"]), Ok([Some("1"), Some("x y")]));
    }
}
