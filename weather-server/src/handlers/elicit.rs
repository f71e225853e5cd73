//! "Which Springfield?": when a place name fits several rows of the city table, `get_weather`
//! asks the user through elicitation (form mode, the candidates as an enum), in both eras:
//!
//! - modern (2026-07-28, MRTR, SEP-2322): the call returns `resultType: "input_required"` with
//!   an `elicitation/create` input request under [`INPUT_KEY`] and a sealed `requestState`; the
//!   client retries the same call (new id) with `inputResponses` and the echoed state;
//! - legacy (2025-11-25 sessions): the question goes to the client as an `elicitation/create`
//!   request on the `tools/call` SSE stream and the POSTed answer completes the call.
//!
//! A client that cannot answer forms (no `elicitation` capability, or URL mode only) gets a tool
//! error listing the candidates instead.

use std::time::Duration;

use rmcp::{
    ErrorData as McpError, Peer, RoleServer,
    model::{
        CallToolResult, ClientCapabilities, ContentBlock, ElicitRequest, ElicitRequestParams,
        ElicitationSchema, InputRequest, InputRequests, InputRequiredResult, InputResponses,
    },
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::{
    handlers::cities::{self, City},
    handlers::units::Units,
    sealed::{REFUSED, Sealer},
};

/// The `inputRequests`/`inputResponses` key of the question.
pub const INPUT_KEY: &str = "place";
/// The form field holding the answer.
pub const FIELD: &str = "place";
/// How long a legacy session's question waits for its answer.
pub const LEGACY_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// What the user answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Chosen(&'static City),
    Declined,
    Cancelled,
}

/// Whether the client can answer a form-mode elicitation: `elicitation: {}` means form only;
/// an object naming modes must name `form`.
pub fn answers_forms(capabilities: Option<&ClientCapabilities>) -> bool {
    capabilities
        .and_then(|caps| caps.elicitation.as_ref())
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none())
}

/// The question: a message and a one-field form whose `place` is one of the candidates.
pub fn question(input: &str, candidates: &[&City]) -> Result<ElicitRequestParams, McpError> {
    let names: Vec<String> = candidates.iter().map(|c| c.full_name()).collect();
    let schema = json!({
        "type": "object",
        "properties": {
            FIELD: {
                "type": "string",
                "title": "Place",
                "description": "The place you mean",
                "enum": names,
            }
        },
        "required": [FIELD],
    });
    let Value::Object(schema) = schema else {
        return Err(McpError::internal_error(
            "question schema is not an object",
            None,
        ));
    };
    let requested_schema = ElicitationSchema::from_json_schema(schema)
        .map_err(|e| McpError::internal_error(format!("question schema: {e}"), None))?;
    Ok(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: format!(
            "There are {} places called \"{}\" in the weather table. Which one do you mean?",
            candidates.len(),
            cities::clip(
                input
                    .split([',', '，', '、'])
                    .next()
                    .unwrap_or(input)
                    .trim(),
                80
            )
        ),
        requested_schema,
    })
}

/// Reads an `ElicitResult` (`{action, content?}`). `Err` when it is not one, or when an
/// accepted answer is not one of `offered` (full names).
pub fn read_answer(value: &Value, offered: &[String]) -> Result<Answer, String> {
    let action = value
        .get("action")
        .and_then(Value::as_str)
        .ok_or("expected an ElicitResult object {\"action\": \"accept\"|\"decline\"|\"cancel\"}")?;
    match action {
        "decline" => Ok(Answer::Declined),
        "cancel" => Ok(Answer::Cancelled),
        "accept" => {
            let place = value
                .get("content")
                .and_then(|content| content.get(FIELD))
                .and_then(Value::as_str)
                .ok_or_else(|| format!("an accepted answer needs content.{FIELD} (a string)"))?;
            match offered.iter().find(|name| *name == place) {
                Some(name) => cities::by_full_name(name)
                    .map(Answer::Chosen)
                    .ok_or_else(|| format!("\"{place}\" is not in the weather table")),
                None => Err(format!(
                    "\"{}\" is not one of the places offered: {}",
                    cities::clip(place, 80),
                    offered.join("; ")
                )),
            }
        }
        other => Err(format!(
            "unknown action \"{}\" (expected accept, decline or cancel)",
            cities::clip(other, 40)
        )),
    }
}

/// The tool error for a client that cannot be asked.
pub fn cannot_ask(input: &str, candidates: &[&City], why: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "\"{}\" is ambiguous: this demo knows {}. {why} Call get_weather again with one of \
         them as the location.",
        cities::clip(input, 80),
        cities::names(candidates)
    ))])
}

/// The tool error for a question the user declined or cancelled.
pub fn not_answered(answer: &Answer, candidates: &[&City]) -> CallToolResult {
    let what = match answer {
        Answer::Cancelled => "The question which place you mean was cancelled",
        _ => "You declined to say which place you mean",
    };
    CallToolResult::error(vec![ContentBlock::text(format!(
        "{what}, so there is no weather report. The candidates were: {}.",
        cities::names(candidates)
    ))])
}

// --- modern: MRTR ---------------------------------------------------------------------------

/// What a modern question's `requestState` holds: the names offered.
#[derive(Debug, Serialize, Deserialize)]
struct State {
    offered: Vec<String>,
}

/// What the state is bound to: the same call (tool, location, units) and nothing else.
pub fn binding(location: &str, units: Units) -> String {
    format!(
        "tools/call\u{0}get_weather\u{0}{location}\u{0}{}",
        units.as_str()
    )
}

/// The `input_required` result asking which place.
pub fn ask(
    sealer: &Sealer,
    input: &str,
    candidates: &[&City],
    binding: &str,
) -> Result<InputRequiredResult, McpError> {
    let state = State {
        offered: candidates.iter().map(|c| c.full_name()).collect(),
    };
    let sealed = sealer
        .seal(&state, binding)
        .map_err(|e| McpError::internal_error(format!("sealing requestState: {e}"), None))?;
    let mut requests = InputRequests::new();
    requests.insert(
        INPUT_KEY.to_owned(),
        InputRequest::Elicitation(ElicitRequest::new(question(input, candidates)?)),
    );
    Ok(InputRequiredResult::new(Some(requests), Some(sealed)))
}

/// The answer carried by a retry: `Ok(None)` when there is none yet (first call, or a retry
/// without the answer: ask again). A state that does not verify, an answer without a state, or
/// an answer that is not a valid `ElicitResult` for the places offered is a JSON-RPC error.
pub fn resume(
    sealer: &Sealer,
    request_state: Option<&str>,
    input_responses: Option<&InputResponses>,
    binding: &str,
) -> Result<Option<Answer>, McpError> {
    let Some(sealed) = request_state else {
        return match input_responses {
            Some(responses) if responses.contains_key(INPUT_KEY) => Err(McpError::invalid_params(
                format!(
                    "Invalid params: inputResponses.{INPUT_KEY} without the requestState it \
                     answers; echo the requestState of the input_required result"
                ),
                None,
            )),
            _ => Ok(None),
        };
    };
    let state: State = sealer.open(sealed, binding).map_err(|why| {
        tracing::info!(%why, "refused a requestState");
        McpError::invalid_params(REFUSED, None)
    })?;
    let Some(response) = input_responses.and_then(|responses| responses.get(INPUT_KEY)) else {
        return Ok(None);
    };
    read_answer(response, &state.offered)
        .map(Some)
        .map_err(|why| {
            McpError::invalid_params(format!("Invalid inputResponses.{INPUT_KEY}: {why}"), None)
        })
}

// --- legacy: a server-to-client request in the session ----------------------------------------

/// Asks on the session and waits (at most [`LEGACY_TIMEOUT`]) for the answer. `Err` says why no
/// answer came.
pub async fn ask_in_session(
    peer: &Peer<RoleServer>,
    input: &str,
    candidates: &[&City],
) -> Result<Answer, String> {
    let params = question(input, candidates).map_err(|e| e.message.to_string())?;
    let result = peer
        .create_elicitation_with_timeout(params, Some(LEGACY_TIMEOUT))
        .await
        .map_err(|error| format!("the question got no answer ({error})"))?;
    let offered: Vec<String> = candidates.iter().map(|c| c.full_name()).collect();
    let value = serde_json::to_value(&result).map_err(|e| e.to_string())?;
    read_answer(&value, &offered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handlers::cities::{LookupError, lookup};

    fn springfields() -> Vec<&'static City> {
        match lookup("Springfield") {
            Err(LookupError::Ambiguous(_, candidates)) => candidates,
            other => panic!("expected ambiguity, got {other:?}"),
        }
    }

    fn offered() -> Vec<String> {
        springfields().iter().map(|c| c.full_name()).collect()
    }

    #[test]
    fn the_question_offers_the_candidates_as_an_enum() {
        let params = question("Springfield", &springfields()).expect("question");
        let value = serde_json::to_value(&params).expect("serialize");
        assert_eq!(value["mode"], "form");
        assert!(
            value["message"]
                .as_str()
                .is_some_and(|m| m.contains("Springfield") && m.contains("Which one")),
            "{value}"
        );
        let schema = &value["requestedSchema"];
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!([FIELD]));
        assert_eq!(schema["properties"][FIELD]["type"], "string");
        assert_eq!(schema["properties"][FIELD]["enum"], json!(offered()));
    }

    #[test]
    fn answers() {
        let offered = offered();
        let accept = |place: &str| json!({"action": "accept", "content": {FIELD: place}});
        assert_eq!(
            read_answer(&accept("Springfield, Missouri"), &offered).map(
                |a| matches!(a, Answer::Chosen(c) if c.full_name() == "Springfield, Missouri")
            ),
            Ok(true)
        );
        assert_eq!(
            read_answer(&json!({"action": "decline"}), &offered),
            Ok(Answer::Declined)
        );
        assert_eq!(
            read_answer(&json!({"action": "cancel"}), &offered),
            Ok(Answer::Cancelled)
        );
        for bad in [
            accept("Springfield, Oregon"),
            accept("Tokyo"),
            json!({"action": "accept"}),
            json!({"action": "accept", "content": {FIELD: 3}}),
            json!({"action": "maybe"}),
            json!(12345),
            Value::Null,
        ] {
            assert!(read_answer(&bad, &offered).is_err(), "{bad}");
        }
    }

    #[test]
    fn form_capability() {
        let caps = |v: Value| serde_json::from_value::<ClientCapabilities>(v).expect("caps");
        assert!(answers_forms(Some(&caps(json!({"elicitation": {}})))));
        assert!(answers_forms(Some(&caps(
            json!({"elicitation": {"form": {}, "url": {}}})
        ))));
        assert!(!answers_forms(Some(&caps(
            json!({"elicitation": {"url": {}}})
        ))));
        assert!(!answers_forms(Some(&caps(json!({"sampling": {}})))));
        assert!(!answers_forms(None));
    }

    #[test]
    fn a_round_trip_through_the_sealed_state() {
        let sealer = Sealer::random().expect("OS randomness");
        let bound = binding("Springfield", Units::Celsius);
        let asked = ask(&sealer, "Springfield", &springfields(), &bound).expect("ask");
        let state = asked.request_state.clone().expect("state");
        assert!(
            asked
                .input_requests
                .is_some_and(|r| r.contains_key(INPUT_KEY))
        );

        let mut responses = InputResponses::new();
        responses.insert(
            INPUT_KEY.to_owned(),
            json!({"action": "accept", "content": {FIELD: "Springfield, Illinois"}}),
        );
        let answer = resume(&sealer, Some(&state), Some(&responses), &bound).expect("resume");
        assert!(
            matches!(answer, Some(Answer::Chosen(c)) if c.full_name() == "Springfield, Illinois")
        );

        // No answer yet: ask again.
        assert_eq!(resume(&sealer, Some(&state), None, &bound).ok(), Some(None));
        assert_eq!(resume(&sealer, None, None, &bound).ok(), Some(None));
        // Tampered, missing, or for other arguments: refused.
        let tampered = format!("{state}-TAMPERED");
        assert!(resume(&sealer, Some(&tampered), Some(&responses), &bound).is_err());
        assert!(resume(&sealer, None, Some(&responses), &bound).is_err());
        let other = binding("Springfield", Units::Fahrenheit);
        assert!(resume(&sealer, Some(&state), Some(&responses), &other).is_err());
    }
}
