//! What the command-line client does with a server, in either era: connect (probe, discover or
//! initialize), list tools, call a tool answering the server's questions, read resources and
//! prompts. Everything it learns goes to stdout; the exchanges go to stderr (see `report`).

use mcp_flow_client::client::McpClient;
use mcp_flow_client::era::{Detection, Era, EraChoice};
use mcp_flow_client::error::McpError;
use mcp_flow_client::http::Http;
use mcp_flow_client::questions::SAMPLING;
use mcp_flow_client::roots::Root;
use mcp_flow_client::tools::result_text;
use mcp_flow_client::tools::{CallOutcome, Question, Retry};
use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use serde_json::{Map, Value, json};

/// Input rounds one tools/call may take before the client stops.
const MAX_INPUT_ROUNDS: u32 = 5;

/// Connects in `choice`'s era (`auto`: the modern probe first, legacy if it is not answered as
/// a modern one) and says which era it speaks and why.
pub async fn connect<H: Http>(client: &McpClient<H>, choice: EraChoice) -> Result<Era, String> {
    let mut probed = None;
    let modern = match choice {
        EraChoice::Legacy => false,
        EraChoice::Modern => {
            let found = client
                .discover()
                .await
                .map_err(|e| format!("server/discover: {e}"))?;
            print_discovery(&found);
            true
        }
        EraChoice::Auto => {
            let (detection, found) = client.probe().await;
            print_era(&detection);
            match (detection.era, found) {
                (Era::Modern, Ok(found)) => {
                    print_discovery(&found);
                    true
                }
                (Era::Modern, Err(e)) => return Err(format!("server/discover: {e}")),
                (Era::Legacy, _) => {
                    probed = Some(detection);
                    false
                }
            }
        }
    };
    if modern {
        client.set_era(Era::Modern);
        return Ok(Era::Modern);
    }
    let hs = client
        .connect()
        .await
        .map_err(|e| format!("connect: {e}"))?;
    // A probe that proved nothing named no era; initialize has now answered.
    if let Some(probed) = probed.filter(|d| !d.why.is_evidence()) {
        print_era(&probed.after_handshake(hs.protocol_version));
    }
    let session = client
        .transport
        .session_id()
        .map_or_else(|| "no session".to_owned(), |id| format!("session {id}"));
    println!(
        "connected to {} {} (protocol {}, {session})",
        hs.server_name, hs.server_version, hs.protocol_version
    );
    Ok(Era::Legacy)
}

/// The `era:` line: the era (or that it is not known yet) and why.
fn print_era(detection: &Detection) {
    println!(
        "era: {} ({})",
        detection.era_name(),
        detection.why.describe()
    );
}

fn print_discovery(found: &mcp_flow_client::discover::Discovery) {
    println!(
        "discovered {} (protocol {}; supports {}; fresh for {} ms)",
        found.server.as_deref().unwrap_or("an unnamed server"),
        mcp_flow_client::modern::VERSION,
        found.versions.join(", "),
        found.ttl_ms
    );
}

/// tools/list (every page); prints each tool (and any the modern rules left out) and returns
/// the tools' names and input schemas.
pub async fn list_tools<H: Http>(client: &McpClient<H>) -> Result<Vec<(String, Value)>, String> {
    let list = client
        .tool_list()
        .await
        .map_err(|e| format!("tools/list: {e}"))?;
    println!(
        "{} tool{}",
        list.tools.len(),
        if list.tools.len() == 1 { "" } else { "s" }
    );
    for tool in &list.tools {
        println!("  {}", tool.name);
        if let Some(description) = &tool.description {
            println!("      {}", description.trim());
        }
        println!(
            "      input: {}",
            Value::Object((*tool.input_schema).clone())
        );
    }
    for (name, why) in &list.dropped {
        println!("  left out {name}: {why}");
    }
    Ok(list
        .tools
        .iter()
        .map(|t| (t.name.to_string(), Value::Object((*t.input_schema).clone())))
        .collect())
}

/// A value for every property of an object schema: the default, else the first of an enum,
/// else a plain value of the property's type. For forms answered without a person and for
/// calling tools whose arguments nobody chose.
pub fn fill(schema: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return out;
    };
    for (name, property) in properties {
        let value = if let Some(default) = property.get("default") {
            default.clone()
        } else if let Some(first) = property
            .get("enum")
            .and_then(Value::as_array)
            .and_then(|e| e.first())
        {
            first.clone()
        } else {
            match property.get("type").and_then(Value::as_str) {
                Some("boolean") => json!(true),
                Some("integer") | Some("number") => json!(1),
                Some("array") => json!([]),
                Some("object") => Value::Object(fill(property)),
                _ => json!("mcp-flow"),
            }
        };
        out.insert(name.clone(), value);
    }
    out
}

/// Answers the server's `elicitation/create` on a 2025-11-25 stream as [`answer`] answers a
/// 2026-07-28 `input_required`: the same form, the same reply, printed the same way.
pub fn elicitor() -> mcp_flow_client::client::Elicitor {
    std::rc::Rc::new(|question: Result<ElicitRequestParams, String>| {
        Box::pin(async move {
            let given = match &question {
                Ok(params) => answer(params),
                Err(_) => ElicitResult::new(ElicitationAction::Decline),
            };
            match question {
                Ok(_) => println!(
                    "  the server asks (elicitation/create); answered {}",
                    serde_json::to_string(&given).unwrap_or_default()
                ),
                Err(why) => println!("  the server asks (elicitation/create); declined: {why}"),
            }
            given
        })
    })
}

/// The answer given to a server's form when nobody is at the keyboard: accept, with every field
/// filled as [`fill`] does.
fn answer(question: &ElicitRequestParams) -> ElicitResult {
    match question {
        ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } => {
            let schema = serde_json::to_value(requested_schema).unwrap_or(Value::Null);
            ElicitResult::new(ElicitationAction::Accept).with_content(Value::Object(fill(&schema)))
        }
        // A URL is never opened without a person: printed, and declined.
        ElicitRequestParams::UrlElicitationParams { message, url, .. } => {
            println!(
                "  the server asks to open {url} ({message}): declined, the command line opens no page"
            );
            ElicitResult::new(ElicitationAction::Decline)
        }
        _ => ElicitResult::new(ElicitationAction::Decline),
    }
}

/// Gives `roots` to every `roots/list`, saying so.
pub fn roots_giver(roots: Vec<Root>) -> mcp_flow_client::client::RootsGiver {
    std::rc::Rc::new(move || {
        let roots = roots.clone();
        Box::pin(async move {
            let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
            println!(
                "  the server asks for the roots; answered [{}]",
                uris.join(", ")
            );
            roots
        })
    })
}

/// tools/call, answering the server's questions (modern: input_required, then a retry with the
/// answers and the state; legacy: on the open stream), and prints the result.
pub async fn call_tool<H: Http>(
    client: &McpClient<H>,
    name: &str,
    arguments: Value,
) -> Result<(), String> {
    let mut outcome = client
        .call(name, arguments.clone(), None, None)
        .await
        .map_err(|e| format!("tools/call {name}: {e}"))?;
    let mut rounds = 0;
    let result = loop {
        match outcome {
            CallOutcome::Complete(result) => break result,
            CallOutcome::InputRequired(asked) => {
                rounds += 1;
                if rounds >= MAX_INPUT_ROUNDS {
                    return Err(format!(
                        "tools/call {name}: input_required {MAX_INPUT_ROUNDS} times; stopped"
                    ));
                }
                let mut responses = Map::new();
                for (key, question) in asked.questions {
                    match question {
                        Question::Form(params) => {
                            let given = answer(&params);
                            println!(
                                "  the server asks ({key}); answered {}",
                                serde_json::to_string(&given).unwrap_or_default()
                            );
                            responses
                                .insert(key, serde_json::to_value(&given).unwrap_or(Value::Null));
                        }
                        Question::Roots => {
                            let roots = client.give_roots().await;
                            responses.insert(key, mcp_flow_client::roots::list_result(&roots));
                        }
                        Question::Sampling(asked) => {
                            // Without --sampling-model the command line declares no sampling.
                            let Some(sampler) = client.sampler() else {
                                return Err(format!(
                                    "tools/call {name}: the server asks for {SAMPLING}, which \
                                     this client did not declare (it has no model); not retried"
                                ));
                            };
                            let answer = sampler(Ok(asked)).await.map_err(|why| {
                                format!("tools/call {name}: {SAMPLING}: {why}; not retried")
                            })?;
                            responses.insert(key, answer.result());
                        }
                        Question::Invalid { method, .. } | Question::Unsupported { method } => {
                            return Err(format!(
                                "tools/call {name}: the server asks for {method}, which this \
                                 client did not declare"
                            ));
                        }
                    }
                }
                let retry = Retry {
                    responses,
                    state: asked.state,
                };
                outcome = client
                    .call(name, arguments.clone(), None, Some(retry))
                    .await
                    .map_err(|e| format!("tools/call {name} (retry {rounds}): {e}"))?;
            }
        }
    };
    let text = result_text(&result);
    if !text.is_empty() {
        println!("{text}");
    }
    if let Some(structured) = &result.structured_content {
        println!(
            "{}",
            serde_json::to_string_pretty(structured).unwrap_or_default()
        );
    }
    if result.is_error == Some(true) {
        return Err(format!("the tool {name} reported an error (isError: true)"));
    }
    Ok(())
}

/// resources/list, then resources/read of each listed resource.
pub async fn read_resources<H: Http>(client: &McpClient<H>) -> Result<(), String> {
    let listed = client
        .list_resources()
        .await
        .map_err(|e| format!("resources/list: {e}"))?;
    let uris: Vec<String> = listed
        .get("resources")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|x| x.get("uri").and_then(Value::as_str))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    for uri in uris {
        let read = client
            .read_resource(&uri)
            .await
            .map_err(|e| format!("resources/read {uri}: {e}"))?;
        println!(
            "read {uri}: {}",
            mcp_flow_client::error::clip(&read.to_string(), 200)
        );
    }
    Ok(())
}

/// prompts/list, then prompts/get of each listed prompt (arguments filled in).
pub async fn get_prompts<H: Http>(client: &McpClient<H>) -> Result<(), String> {
    let listed = client
        .list_prompts()
        .await
        .map_err(|e| format!("prompts/list: {e}"))?;
    let prompts = listed
        .get("prompts")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for prompt in prompts {
        let Some(name) = prompt.get("name").and_then(Value::as_str) else {
            continue;
        };
        let arguments: Map<String, Value> = prompt
            .get("arguments")
            .and_then(Value::as_array)
            .map(|args| {
                args.iter()
                    .filter_map(|a| a.get("name").and_then(Value::as_str))
                    .map(|n| (n.to_owned(), json!("mcp-flow")))
                    .collect()
            })
            .unwrap_or_default();
        let got = client
            .get_prompt(name, arguments)
            .await
            .map_err(|e| format!("prompts/get {name}: {e}"))?;
        println!(
            "prompt {name}: {}",
            mcp_flow_client::error::clip(&got.to_string(), 200)
        );
    }
    Ok(())
}

/// What a server offers besides tools, each step from the last one's answer (`--browse`): the
/// resources (and the first one read), the templates (the first one's first variable completed
/// and the template read with the first value), the prompts (the first one got with its required
/// arguments completed). A method the server does not have (-32601) is said and skipped.
pub async fn browse<H: Http>(client: &McpClient<H>) -> Result<Vec<String>, String> {
    let mut said = Vec::new();
    use mcp_flow_client::browse::{Freshness, expand, first_variable, items};
    use rmcp::model::{Reference, ResourceTemplateReference};

    let Some(listed) = skippable("resources/list", client.list_resources().await, &mut said)?
    else {
        browse_prompts(client, None, &mut said).await?;
        return Ok(said);
    };
    let resources = items(&listed, "resources");
    said.push(format!(
        "resources/list: {} resource(s), {}",
        resources.len(),
        Freshness::of(&listed)
    ));
    if let Some(uri) = resources.first().and_then(|r| r["uri"].as_str()) {
        read_one(client, uri, &mut said).await?;
    }
    let mut completed = None;
    if let Some(templates) = skippable(
        "resources/templates/list",
        client.list_resource_templates().await,
        &mut said,
    )? {
        let list = items(&templates, "resourceTemplates");
        said.push(format!(
            "resources/templates/list: {} template(s), {}",
            list.len(),
            Freshness::of(&templates)
        ));
        let first = list
            .iter()
            .filter_map(|t| t["uriTemplate"].as_str())
            .find_map(|t| first_variable(t).map(|v| (t, v)));
        if let Some((template, variable)) = first {
            let reference = Reference::Resource(ResourceTemplateReference::new(template));
            if let Some(value) = complete_first(client, reference, variable, &mut said).await? {
                read_one(client, &expand(template, variable, &value), &mut said).await?;
                completed = Some(value);
            }
        }
    }
    browse_prompts(client, completed, &mut said).await?;
    Ok(said)
}

/// resources/read of `uri`, said in a line: what it holds and how long it stays fresh.
async fn read_one<H: Http>(
    client: &McpClient<H>,
    uri: &str,
    said: &mut Vec<String>,
) -> Result<(), String> {
    use mcp_flow_client::browse::{Freshness, contents_summary};
    let read = client
        .read_resource(uri)
        .await
        .map_err(|e| format!("resources/read {uri}: {e}"))?;
    said.push(format!(
        "resources/read {uri}: {}, {}",
        contents_summary(&read),
        Freshness::of(&read)
    ));
    Ok(())
}

/// prompts/list, then prompts/get of the first prompt, its required arguments set to a value the
/// server completed for the first of them (else `fallback`, else "mcp-flow").
async fn browse_prompts<H: Http>(
    client: &McpClient<H>,
    fallback: Option<String>,
    said: &mut Vec<String>,
) -> Result<(), String> {
    use mcp_flow_client::browse::{Freshness, items, prompt_arguments};
    use rmcp::model::{PromptReference, Reference};

    let Some(listed) = skippable("prompts/list", client.list_prompts().await, said)? else {
        return Ok(());
    };
    let prompts = items(&listed, "prompts");
    said.push(format!(
        "prompts/list: {} prompt(s), {}",
        prompts.len(),
        Freshness::of(&listed)
    ));
    let Some(prompt) = prompts.first() else {
        return Ok(());
    };
    let name = prompt["name"].as_str().unwrap_or_default();
    let first_argument = prompt_arguments(prompt, "").keys().next().cloned();
    let mut value = fallback.unwrap_or_else(|| "mcp-flow".into());
    if let Some(argument) = &first_argument {
        let reference = Reference::Prompt(PromptReference::new(name));
        if let Some(completed) = complete_first(client, reference, argument, said).await? {
            value = completed;
        }
    }
    let got = client
        .get_prompt(name, prompt_arguments(prompt, &value))
        .await
        .map_err(|e| format!("prompts/get {name}: {e}"))?;
    let messages = items(&got, "messages").len();
    said.push(format!(
        "prompts/get {name}: {messages} message(s): {}",
        mcp_flow_client::error::clip(&got.to_string(), 200)
    ));
    Ok(())
}

/// completion/complete of `argument` from nothing typed; the first value, if any.
async fn complete_first<H: Http>(
    client: &McpClient<H>,
    reference: rmcp::model::Reference,
    argument: &str,
    said: &mut Vec<String>,
) -> Result<Option<String>, String> {
    let Some(answer) = skippable(
        "completion/complete",
        client.complete(reference, argument, "").await,
        said,
    )?
    else {
        return Ok(None);
    };
    let completion = &answer["completion"];
    let values = mcp_flow_client::browse::items(completion, "values");
    said.push(format!(
        "completion/complete {argument}: {} value(s){}",
        values.len(),
        if completion["hasMore"] == true {
            ", more"
        } else {
            ""
        }
    ));
    Ok(values.first().and_then(Value::as_str).map(str::to_owned))
}

/// A method the server does not have is said and skipped (`None`); any other error fails.
fn skippable(
    method: &str,
    answer: Result<Value, McpError>,
    said: &mut Vec<String>,
) -> Result<Option<Value>, String> {
    match answer {
        Ok(value) => Ok(Some(value)),
        Err(McpError::Protocol { code: -32601, .. }) => {
            said.push(format!(
                "{method}: the server does not have it (-32601), skipped"
            ));
            Ok(None)
        }
        Err(e) => Err(format!("{method}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_arguments_are_filled_from_the_schema() {
        let schema = json!({"type": "object", "properties": {
            "city": {"type": "string", "enum": ["Springfield, Illinois", "Springfield, Ohio"]},
            "confirm": {"type": "boolean"},
            "units": {"type": "string", "default": "celsius"},
            "count": {"type": "integer"},
            "name": {"type": "string"}}});
        let filled = fill(&schema);
        assert_eq!(
            Value::Object(filled),
            json!({"city": "Springfield, Illinois", "confirm": true, "units": "celsius",
                   "count": 1, "name": "mcp-flow"})
        );
        assert!(fill(&json!({"type": "object"})).is_empty());
    }
}
