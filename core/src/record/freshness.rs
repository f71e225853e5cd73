//! How old a result is against the `ttlMs` it came with (2026-07-28 caching hints): what the
//! inspector says beside a list or a read of a live run.

use crate::decimal::fixed;
use crate::diagram::Lang;

/// Seconds with one decimal, e.g. `12.3 s`.
fn secs(ms: f64) -> String {
    format!("{} s", fixed(ms / 1000.0, 1))
}

/// `received_ms` and `now_ms` on the run's clock: still fresh (and for how long), or stale.
pub fn freshness(received_ms: f64, ttl_ms: u64, now_ms: f64, lang: Lang) -> String {
    let age = (now_ms - received_ms).max(0.0);
    let ttl = ttl_ms as f64;
    let (age_s, ttl_s) = (secs(age), secs(ttl));
    match (age < ttl, lang) {
        (true, Lang::En) => format!(
            "Received {age_s} ago, fresh for {ttl_s} (ttlMs): a client may use it again without \
             asking for {} more.",
            secs(ttl - age)
        ),
        (true, Lang::Zh) => format!(
            "{age_s}前收到，有效期 {ttl_s}（ttlMs）：在接下来的 {} 内，客户端可以直接复用，无需再次请求。",
            secs(ttl - age)
        ),
        (false, Lang::En) => {
            format!("Received {age_s} ago, past its ttlMs of {ttl_s}: stale, a client asks again.")
        }
        (false, Lang::Zh) => {
            format!("{age_s}前收到，已超过 ttlMs（{ttl_s}）：已过期，客户端需要再次请求。")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_is_fresh_until_its_ttl_has_passed() {
        assert_eq!(
            freshness(1_000.0, 60_000, 13_300.0, Lang::En),
            "Received 12.3 s ago, fresh for 60.0 s (ttlMs): a client may use it again without \
             asking for 47.7 s more."
        );
        assert_eq!(
            freshness(0.0, 5_000, 5_000.0, Lang::En),
            "Received 5.0 s ago, past its ttlMs of 5.0 s: stale, a client asks again."
        );
        assert!(
            freshness(0.0, 0, 0.0, Lang::En).contains("stale"),
            "ttlMs 0: never reused"
        );
        assert!(freshness(0.0, 60_000, 1_000.0, Lang::Zh).contains("59.0 s"));
        assert!(freshness(0.0, 1, 9.0, Lang::Zh).contains("已过期"));
        // A clock that went back (a recording from another page) reads as just received.
        assert!(freshness(5_000.0, 1_000, 0.0, Lang::En).starts_with("Received 0.0 s ago"));
    }
}
