//! The limits on what an app sends the host: well-formed JSON-RPC only, a bounded rate, a
//! bounded frame size.

use serde_json::Value;

/// The largest message the host reads from an app (its JSON).
pub const MAX_MESSAGE_BYTES: usize = 1024 * 1024;
/// The most messages an app may send at once, and how many a second after that.
pub const BURST: u32 = 20;
pub const PER_SECOND: u32 = 20;
/// The smallest and the largest height the host gives the frame.
pub const MIN_HEIGHT: u32 = 40;
pub const MAX_HEIGHT: u32 = 800;

/// A message from an app, read.
#[derive(Debug, Clone, PartialEq)]
pub enum Inbound {
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    Notification {
        method: String,
        params: Value,
    },
    /// An answer to a request of the host's (`ui/resource-teardown`, `ping`).
    Response {
        id: Value,
        result: Result<Value, Value>,
    },
}

/// Why a message is not JSON-RPC 2.0 the host can read; the id, when it had a usable one, so
/// the app gets an error back.
#[derive(Debug, Clone, PartialEq)]
pub struct Malformed {
    pub id: Option<Value>,
    pub why: &'static str,
}

fn usable_id(id: &Value) -> bool {
    id.is_string() || id.as_i64().is_some() || id.as_u64().is_some()
}

impl Inbound {
    pub fn read(message: &Value) -> Result<Inbound, Malformed> {
        let id = message.get("id").filter(|id| usable_id(id)).cloned();
        let kept = id.clone();
        let fail = move |why| Malformed {
            id: kept.clone(),
            why,
        };
        if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Err(fail("not JSON-RPC 2.0 (no \"jsonrpc\": \"2.0\")"));
        }
        if message.get("id").is_some() && id.is_none() {
            return Err(fail("its id is neither a string nor an integer"));
        }
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        if !(params.is_object() || params.is_null()) {
            return Err(fail("its params are not an object"));
        }
        match (message.get("method"), id) {
            (Some(Value::String(method)), Some(id)) => Ok(Inbound::Request {
                id,
                method: method.clone(),
                params,
            }),
            (Some(Value::String(method)), None) => Ok(Inbound::Notification {
                method: method.clone(),
                params,
            }),
            (Some(_), _) => Err(fail("its method is not a string")),
            (None, Some(id)) => match (message.get("result"), message.get("error")) {
                (Some(result), None) => Ok(Inbound::Response {
                    id,
                    result: Ok(result.clone()),
                }),
                (None, Some(error)) => Ok(Inbound::Response {
                    id,
                    result: Err(error.clone()),
                }),
                _ => Err(fail("an answer needs a result or an error, not both")),
            },
            (None, None) => Err(fail("no method and no id")),
        }
    }
}

/// How many messages an app may still send: [`BURST`] at once, refilled at [`PER_SECOND`].
#[derive(Debug, Clone)]
pub struct Flood {
    tokens: f64,
    last_ms: f64,
    /// Messages dropped since the last time someone asked ([`Flood::take_dropped`]).
    dropped: u32,
}

impl Default for Flood {
    fn default() -> Self {
        Self {
            tokens: f64::from(BURST),
            last_ms: 0.0,
            dropped: 0,
        }
    }
}

impl Flood {
    /// Whether a message that came at `now_ms` is read (otherwise it is dropped and counted).
    pub fn admit(&mut self, now_ms: f64) -> bool {
        let elapsed = (now_ms - self.last_ms).max(0.0);
        self.last_ms = now_ms.max(self.last_ms);
        self.tokens =
            (self.tokens + elapsed * f64::from(PER_SECOND) / 1000.0).min(f64::from(BURST));
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            self.dropped += 1;
            false
        }
    }

    /// How many were dropped since [`Flood::take_dropped`] was last called.
    pub fn dropped(&self) -> u32 {
        self.dropped
    }

    /// How many were dropped since the last call.
    pub fn take_dropped(&mut self) -> u32 {
        std::mem::take(&mut self.dropped)
    }
}

/// The height the frame gets for an app that asks for `height` px: within
/// [`MIN_HEIGHT`]..=[`MAX_HEIGHT`]; `None` for what is not a size.
pub fn frame_height(height: &Value) -> Option<u32> {
    let h = height.as_f64().filter(|h| h.is_finite() && *h >= 0.0)?;
    // In range after clamping, so the cast cannot lose anything that matters.
    Some(h.ceil().clamp(f64::from(MIN_HEIGHT), f64::from(MAX_HEIGHT)) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn requests_notifications_and_answers_are_read() {
        assert_eq!(
            Inbound::read(
                &json!({"jsonrpc": "2.0", "id": 1, "method": "ui/initialize", "params": {}})
            ),
            Ok(Inbound::Request {
                id: json!(1),
                method: "ui/initialize".into(),
                params: json!({})
            })
        );
        assert_eq!(
            Inbound::read(&json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"})),
            Ok(Inbound::Notification {
                method: "ui/notifications/initialized".into(),
                params: Value::Null
            })
        );
        assert_eq!(
            Inbound::read(&json!({"jsonrpc": "2.0", "id": "t", "result": {}})),
            Ok(Inbound::Response {
                id: json!("t"),
                result: Ok(json!({}))
            })
        );
    }

    #[test]
    fn malformed_messages_say_why_and_keep_a_usable_id() {
        let cases = [
            (json!({"id": 1, "method": "ping"}), Some(json!(1))),
            (
                json!({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}),
                None,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 2, "method": 5}),
                Some(json!(2)),
            ),
            (
                json!({"jsonrpc": "2.0", "id": 3, "method": "ping", "params": [1]}),
                Some(json!(3)),
            ),
            (
                json!({"jsonrpc": "2.0", "id": 4, "result": 1, "error": {}}),
                Some(json!(4)),
            ),
            (json!({"jsonrpc": "2.0"}), None),
            (json!("hello"), None),
        ];
        for (message, id) in cases {
            let error = Inbound::read(&message).expect_err("malformed");
            assert_eq!(error.id, id, "{message}");
            assert!(!error.why.is_empty());
        }
    }

    #[test]
    fn a_flood_is_cut_to_the_rate_and_counted() {
        let mut flood = Flood::default();
        // 10,000 messages in one second: the burst and a second's refill get through.
        let admitted = (0..10_000)
            .filter(|i| flood.admit(f64::from(*i) / 10.0))
            .count() as u32;
        assert!(
            (BURST..=BURST + PER_SECOND + 1).contains(&admitted),
            "{admitted} admitted"
        );
        assert_eq!(flood.take_dropped(), 10_000 - admitted);
        assert_eq!(flood.take_dropped(), 0);
        // A quiet second later the app may speak again.
        assert!(flood.admit(3_000.0));
    }

    #[test]
    fn the_frame_height_is_bounded() {
        assert_eq!(frame_height(&json!(180.2)), Some(181));
        assert_eq!(frame_height(&json!(1_000_000)), Some(MAX_HEIGHT));
        assert_eq!(frame_height(&json!(0)), Some(MIN_HEIGHT));
        assert_eq!(frame_height(&json!(-5)), None);
        assert_eq!(frame_height(&json!("tall")), None);
    }
}
