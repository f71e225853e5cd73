//! The weather server's prompt, `weather_report` (a question about one city, with the city's
//! report embedded as a resource), and completion of city names for the prompt's `city` and the
//! city template's `name`.

use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock, ErrorData as McpError,
    GetPromptRequestParams, GetPromptResult, Prompt, PromptArgument, PromptMessage, Reference,
    Role,
};

use crate::handlers::cities::{self, CITIES, normalize};
use crate::handlers::resources::{self, CITY_TEMPLATE};

pub const PROMPT: &str = "weather_report";
const CITY: &str = "city";

/// The prompts, as `prompts/list` gives them.
pub fn list() -> Vec<Prompt> {
    vec![
        Prompt::new(
            PROMPT,
            Some("Ask for one city's weather in a sentence, with its current report attached"),
            Some(vec![
                PromptArgument::new(CITY)
                    .with_title("City")
                    .with_description("A city this server knows, e.g. Tokyo (completable)")
                    .with_required(true),
            ]),
        )
        .with_title("Weather report"),
    ]
}

/// Whether getting the prompt `name` gives a weather report (its embedded resource), which
/// `weather:read` guards under `--auth`.
pub fn carries_report(name: &str) -> bool {
    name == PROMPT
}

/// `prompts/get`: `None` when the name is not this server's prompt. The embedded report says
/// when it was `observed`.
pub fn get(
    request: &GetPromptRequestParams,
    observed: u64,
) -> Option<Result<GetPromptResult, McpError>> {
    carries_report(&request.name).then(|| {
        let asked = request
            .arguments
            .as_ref()
            .and_then(|a| a.get(CITY))
            .and_then(|v| v.as_str())
            .ok_or_else(|| McpError::invalid_params("Missing required argument: city", None))?;
        let city =
            cities::lookup(asked).map_err(|e| McpError::invalid_params(e.to_string(), None))?;
        let name = city.full_name();
        let uri = format!("weather://city/{}", encode(&name));
        let (contents, _) = resources::read(&uri, observed)
            .ok_or_else(|| McpError::internal_error("the city's report is missing", None))?;
        let report = PromptMessage::new(Role::User, ContentBlock::resource(contents));
        Ok(GetPromptResult::new(vec![
            PromptMessage::new_text(
                Role::User,
                format!(
                    "What's the weather in {name}? Answer in one sentence with the condition and \
                     the temperature, using the report below."
                ),
            ),
            report,
        ])
        .with_description(format!("The weather in {name}")))
    })
}

/// A URI path segment for a city name ("New York" → "New%20York").
fn encode(name: &str) -> String {
    percent_encoding::utf8_percent_encode(name, percent_encoding::NON_ALPHANUMERIC).to_string()
}

/// `completion/complete`: city names beginning with what was typed (any of a city's names,
/// ignoring case), for the prompt's `city` and the template's `name`; nothing for any other
/// The error for a prompt this server does not have (its name clipped).
pub fn unknown_prompt(name: &str) -> McpError {
    McpError::invalid_params(format!("Unknown prompt: {}", cities::clip(name, 100)), None)
}

/// argument. An unknown prompt or template is an error.
pub fn complete(request: &CompleteRequestParams) -> Result<CompleteResult, McpError> {
    let fits = match &request.r#ref {
        Reference::Prompt(p) if p.name == PROMPT => request.argument.name == CITY,
        Reference::Resource(r) if r.uri == CITY_TEMPLATE => request.argument.name == "name",
        Reference::Prompt(p) => return Err(unknown_prompt(&p.name)),
        Reference::Resource(r) => {
            return Err(McpError::invalid_params(
                format!("Unknown resource template: {}", cities::clip(&r.uri, 100)),
                None,
            ));
        }
        _ => return Err(McpError::invalid_params("Unknown reference type", None)),
    };
    let values = if fits {
        city_names(&request.argument.value)
    } else {
        Vec::new()
    };
    let total = values.len();
    let shown: Vec<String> = values
        .into_iter()
        .take(CompletionInfo::MAX_VALUES)
        .collect();
    let has_more = total > shown.len();
    let info = CompletionInfo::with_pagination(shown, Some(total as u32), has_more)
        .map_err(|e| McpError::internal_error(e, None))?;
    Ok(CompleteResult::new(info))
}

/// The full names of the cities one of whose names begins with `typed`, in table order.
fn city_names(typed: &str) -> Vec<String> {
    let typed = normalize(typed);
    CITIES
        .iter()
        .filter(|c| {
            std::iter::once(&c.name)
                .chain(c.aliases)
                .any(|n| normalize(n).starts_with(&typed))
        })
        .map(|c| c.full_name())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ArgumentInfo, PromptReference, ResourceTemplateReference};
    use serde_json::json;

    fn get_prompt(args: serde_json::Value) -> Result<GetPromptResult, McpError> {
        let request: GetPromptRequestParams =
            serde_json::from_value(json!({"name": PROMPT, "arguments": args})).expect("params");
        get(&request, 0).expect("our prompt")
    }

    #[test]
    fn the_prompt_asks_about_the_city_with_its_report_embedded() {
        let result = get_prompt(json!({"city": "東京"})).expect("Tokyo");
        let value = serde_json::to_value(&result).expect("serialize");
        let text = value["messages"][0]["content"]["text"]
            .as_str()
            .expect("text");
        assert!(text.starts_with("What's the weather in Tokyo?"), "{text}");
        let embedded = &value["messages"][1]["content"];
        assert_eq!(embedded["type"], "resource");
        assert_eq!(embedded["resource"]["uri"], "weather://city/Tokyo");
        assert!(
            embedded["resource"]["text"]
                .as_str()
                .is_some_and(|t| t.contains("\"Sunny\""))
        );
    }

    #[test]
    fn a_city_with_a_space_is_embedded_under_an_encoded_uri_that_reads() {
        let result = get_prompt(json!({"city": "new york"})).expect("New York");
        let value = serde_json::to_value(&result).expect("serialize");
        let uri = value["messages"][1]["content"]["resource"]["uri"]
            .as_str()
            .expect("uri");
        assert!(resources::read(uri, 0).is_some(), "{uri}");
    }

    #[test]
    fn a_missing_or_unknown_city_is_invalid_params() {
        for args in [json!({}), json!({"city": "Atlantis"}), json!({"city": 7})] {
            let error = get_prompt(args.clone()).expect_err("refused");
            assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS, "{args}");
        }
    }

    fn complete_city(r#ref: Reference, argument: &str, value: &str) -> Vec<String> {
        complete(&CompleteRequestParams::new(
            r#ref,
            ArgumentInfo::new(argument, value),
        ))
        .expect("completes")
        .completion
        .values
    }

    #[test]
    fn city_names_complete_for_the_prompt_and_the_template() {
        let prompt = || Reference::Prompt(PromptReference::new(PROMPT));
        let template = || Reference::Resource(ResourceTemplateReference::new(CITY_TEMPLATE));
        assert_eq!(complete_city(prompt(), CITY, "tok"), ["Tokyo"]);
        assert_eq!(complete_city(template(), "name", "TOK"), ["Tokyo"]);
        assert_eq!(complete_city(prompt(), CITY, "東"), ["Tokyo"]);
        let springfields = complete_city(prompt(), CITY, "Springf");
        assert!(springfields.len() >= 2, "{springfields:?}");
        assert!(springfields.iter().all(|n| n.starts_with("Springfield, ")));
        assert!(complete_city(prompt(), CITY, "zzz").is_empty());
        assert_eq!(complete_city(prompt(), CITY, "").len(), CITIES.len());
        assert!(complete_city(prompt(), "other", "tok").is_empty());
    }

    #[test]
    fn an_unknown_prompt_or_template_is_refused() {
        for r#ref in [
            Reference::Prompt(PromptReference::new("nope")),
            Reference::Resource(ResourceTemplateReference::new("weather://x/{y}")),
        ] {
            let request = CompleteRequestParams::new(r#ref, ArgumentInfo::new("city", "t"));
            assert!(complete(&request).is_err());
        }
    }
}
