//! `requestState` sealed with HMAC-SHA256 (rmcp's `RequestStateCodec`): a multi round-trip
//! request (MRTR, SEP-2322) keeps its state in the client, which echoes it on the retry, so the
//! state is attacker-controlled input. Every state is bound to the request it belongs to (method,
//! tool or prompt and arguments) and expires; one that fails verification is refused.
//!
//! The key is random per process: a state survives neither a restart nor another instance.

use std::time::Duration;

use rmcp::model::{RequestStateCodec, SealOptions};
use serde::{Serialize, de::DeserializeOwned};

/// How long a question may wait for its answer.
pub const STATE_TTL: Duration = Duration::from_secs(10 * 60);

/// What a client is told about any state that does not open.
pub const REFUSED: &str = "Invalid params: requestState failed verification (tampered, expired, \
     or issued for another request); start the call again without inputResponses and requestState";

/// The server's sealing key.
pub struct Sealer {
    codec: RequestStateCodec,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer(..)")
    }
}

impl Sealer {
    /// A sealer with a fresh key from the OS's randomness; `Err` when the OS gives none (the
    /// server then refuses to start: a guessable key would let clients forge states).
    pub fn random() -> Result<Self, String> {
        Self::keyed_from(getrandom::fill)
    }

    /// A sealer keyed by `fill`, which fills the 32-byte key.
    fn keyed_from<E: std::fmt::Display>(
        fill: impl FnOnce(&mut [u8]) -> Result<(), E>,
    ) -> Result<Self, String> {
        let mut key = [0u8; 32];
        fill(&mut key).map_err(|error| {
            format!("no randomness from the OS for the requestState key: {error}")
        })?;
        let codec = RequestStateCodec::try_new(key.to_vec()).map_err(|error| error.to_string())?;
        Ok(Self { codec })
    }

    /// Seals `payload`, bound to `binding` (what the request was, e.g. `tools/call` plus tool
    /// name and arguments), for [`STATE_TTL`].
    pub fn seal<T: Serialize>(&self, payload: &T, binding: &str) -> Result<String, String> {
        self.codec
            .seal_json_with(
                payload,
                &SealOptions::new()
                    .associated_data(binding.as_bytes())
                    .ttl(STATE_TTL),
            )
            .map_err(|error| error.to_string())
    }

    /// Opens a state sealed for the same `binding`. `Err` says why it is refused (forged,
    /// tampered, for another request, expired or unreadable) for the server's log; clients get
    /// one message for all of these ([`REFUSED`]).
    pub fn open<T: DeserializeOwned>(&self, sealed: &str, binding: &str) -> Result<T, String> {
        self.codec
            .open_json_with(sealed, binding.as_bytes())
            .map_err(|error| error.to_string())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn without_os_randomness_there_is_no_sealer() {
        let refused = super::Sealer::keyed_from(|_: &mut [u8]| Err("entropy source unavailable"));
        let error = refused.expect_err("no key, no sealer");
        assert!(error.contains("entropy source unavailable"), "{error}");
    }

    use super::*;

    #[test]
    fn a_sealed_state_opens_only_unchanged_and_for_its_request() {
        let sealer = Sealer::random().expect("OS randomness");
        let sealed = sealer
            .seal(&vec!["a".to_owned()], "tools/call get_weather")
            .expect("seal");
        assert_eq!(
            sealer.open::<Vec<String>>(&sealed, "tools/call get_weather"),
            Ok(vec!["a".to_owned()])
        );
        assert!(
            sealer
                .open::<Vec<String>>(&format!("{sealed}-TAMPERED"), "tools/call get_weather")
                .is_err()
        );
        assert!(
            sealer
                .open::<Vec<String>>(&sealed, "tools/call other")
                .is_err()
        );
        assert!(
            Sealer::random()
                .expect("OS randomness")
                .open::<Vec<String>>(&sealed, "tools/call get_weather")
                .is_err(),
            "another key"
        );
    }
}
