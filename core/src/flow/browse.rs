//! The diagram "Resources, prompts, completion and tasks" on a connection diagram 1 made: each request
//! goes only where the server declared the feature, and each step goes on from the last answer
//! (the first resource listed is read, the first template's variable is completed and the
//! template read with the first value, the first prompt is got with that value). The pure steps
//! are in `mcp_flow_client::browse`; the command line's `--browse` walks the same chain.

use std::future::Future;

use rmcp::model::{Reference, ResourceTemplateReference};
use serde_json::{Map, Value};

use super::hearing::Updates;
use super::host::{Host, Stopped};
use crate::diagram::Row;
use crate::llm::Llm;
use crate::record::payload::{Payload, SkipReason};
use mcp_flow_client::browse::{
    Freshness, contents_summary, expand, first_variable, items, messages_summary, prompt_arguments,
};
use mcp_flow_client::era::Era;
use mcp_flow_client::error::{McpError, TransportError};
use mcp_flow_client::http::Http;
use mcp_flow_client::listen::{ACKNOWLEDGED, accepted, is_update_of};

/// A request's row and the row of its answer.
pub(super) type Pair = (Row, Row);

const RESOURCES: Pair = (Row::ListResources, Row::ListResourcesResult);
const READ: Pair = (Row::ReadResource, Row::ReadResourceResult);
const TEMPLATES: Pair = (Row::ListTemplates, Row::ListTemplatesResult);
const COMPLETE: Pair = (Row::Complete, Row::CompleteResult);
const READ_TEMPLATE: Pair = (Row::ReadTemplate, Row::ReadTemplateResult);
const PROMPTS: Pair = (Row::ListPrompts, Row::ListPromptsResult);
const GET_PROMPT: Pair = (Row::GetPrompt, Row::GetPromptResult);
const READ_UPDATED: Pair = (Row::ReadUpdated, Row::ReadUpdatedResult);

/// The rows of the subscription, in order.
const WATCH: [Row; 6] = [
    Row::Subscribe,
    Row::Subscribed,
    Row::Updated,
    Row::Unsubscribe,
    Row::ReadUpdated,
    Row::ReadUpdatedResult,
];

/// How long the host waits for the server to update a subscribed resource (or to acknowledge a
/// listen): the server decides when its resources change.
pub const UPDATE_WAIT_MS: u32 = 15_000;

/// The rows that go on from a template's variable.
const FROM_TEMPLATE: [Row; 4] = [
    Row::Complete,
    Row::CompleteResult,
    Row::ReadTemplate,
    Row::ReadTemplateResult,
];

/// The value a required prompt argument gets when the server completed none.
pub const UNCOMPLETED_ARGUMENT: &str = "mcp-flow";

/// What a completion's answer offers: its values, its total and whether there are more.
pub(crate) fn completion(answer: &Value) -> Payload {
    let completion = answer.get("completion").unwrap_or(&Value::Null);
    Payload::Completion {
        values: items(completion, "values")
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        total: completion.get("total").and_then(Value::as_u64),
        has_more: completion.get("hasMore").and_then(Value::as_bool) == Some(true),
    }
}

/// A list's items by `name` (`uri`, `uriTemplate` or `name`), with its freshness.
pub(crate) fn listed(result: &Value, key: &str, name: &str) -> Payload {
    let fresh = Freshness::of(result);
    Payload::Listed {
        items: items(result, key)
            .iter()
            .map(|i| {
                i.get(name)
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .to_owned()
            })
            .collect(),
        ttl_ms: fresh.ttl_ms,
        cache_scope: fresh.cache_scope,
    }
}

/// What a read or a prompt gave: `count` items summed up, with the result's freshness.
pub(crate) fn contents(target: &str, count: usize, summary: String, result: &Value) -> Payload {
    let fresh = Freshness::of(result);
    Payload::Contents {
        target: target.to_owned(),
        count,
        summary,
        ttl_ms: fresh.ttl_ms,
        cache_scope: fresh.cache_scope,
    }
}

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// The diagram "Resources, prompts, completion and tasks": what the server offers besides tools,
    /// read for real. Returns what the host shows at its last row.
    pub async fn browse(&self) -> Result<String, Stopped> {
        let capabilities = self.capabilities.borrow().clone();
        let offers: Vec<String> = ["resources", "prompts", "completions"]
            .into_iter()
            .filter(|k| capabilities.get(k).is_some())
            .map(str::to_owned)
            .collect();
        let offered = |k: &str| offers.iter().any(|o| o == k);
        self.begin(Row::Browse).await;
        self.done(
            Row::Browse,
            Some(Payload::Offers {
                capabilities: offers.clone(),
            }),
        );
        let mut shown = Vec::new();
        let read = if offered("resources") {
            self.browse_resources(offered("completions"), &mut shown)
                .await?
        } else {
            self.skip(&RESOURCE_ROWS, SkipReason::NotOffered);
            None
        };
        let (completed, uri) = read.unzip();
        if offered("prompts") {
            self.browse_prompts(completed, &mut shown).await?;
        } else {
            self.skip(
                &[PROMPTS.0, PROMPTS.1, GET_PROMPT.0, GET_PROMPT.1],
                SkipReason::NotOffered,
            );
        }
        let subscribable = capabilities.pointer("/resources/subscribe") == Some(&Value::Bool(true));
        match uri {
            Some(uri) if subscribable => self.watch(&uri, &mut shown).await?,
            None if offered("resources") => self.skip(&WATCH, SkipReason::NothingListed),
            _ => self.skip(&WATCH, SkipReason::NotOffered),
        }
        self.follow_task(&mut shown).await?;
        self.begin(Row::ShowBrowsed).await;
        let text = if shown.is_empty() {
            "the server offers nothing besides tools".to_owned()
        } else {
            shown.join("; ")
        };
        self.done(Row::ShowBrowsed, Some(Payload::Text { text: text.clone() }));
        Ok(text)
    }

    /// One request and its answer: the answer's row is active when this returns it. A server
    /// without the method (-32601) skips the answer and `then`; any other failure stops the run.
    pub(super) async fn exchange(
        &self,
        (ask, answer): Pair,
        sent: Option<Payload>,
        then: &[Row],
        request: impl Future<Output = Result<Value, McpError>>,
    ) -> Result<Option<Value>, Stopped> {
        self.begin(ask).await;
        match request.await {
            Ok(value) => {
                self.done(ask, sent);
                self.begin(answer).await;
                Ok(Some(value))
            }
            Err(McpError::Protocol { code: -32601, .. }) => {
                self.done(ask, sent);
                self.skip(&[answer], SkipReason::NotOffered);
                self.skip(then, SkipReason::NotOffered);
                Ok(None)
            }
            Err(e) => Err(self.fail_pair((ask, sent), answer, e)),
        }
    }

    /// A list request (`method`) and its answer, or in 2026-07-28 the answer from earlier on
    /// this page while its `ttlMs` lasts: the request's row is skipped then, saying so.
    async fn list(
        &self,
        pair: Pair,
        method: &'static str,
        then: &[Row],
        request: impl Future<Output = Result<Value, McpError>>,
    ) -> Result<Option<Value>, Stopped> {
        let url = self.client.transport.url.clone();
        let now = self.steps.now_ms();
        let modern = self.client.era() == Era::Modern;
        let changed = {
            let mut lists = self.lists_changed.borrow_mut();
            let before = lists.len();
            lists.retain(|m| *m != method);
            lists.len() != before
        };
        if changed {
            self.client.transport.note_next(format!(
                "asked again: the server said this list changed ({})",
                if method == "prompts/list" {
                    mcp_flow_client::listen::PROMPTS_CHANGED
                } else {
                    mcp_flow_client::listen::RESOURCES_CHANGED
                }
            ));
        }
        if let Some((at, list)) = self
            .memory
            .lists
            .fresh(&url, method, now)
            .filter(|_| modern && !changed)
        {
            let ttl_ms = Freshness::of(&list).ttl_ms.unwrap_or(0);
            let age_ms = (now - at).max(0.0) as u64;
            self.skip(&[pair.0], SkipReason::FreshList { age_ms, ttl_ms });
            self.begin(pair.1).await;
            return Ok(Some(list));
        }
        let list = self.exchange(pair, None, then, request).await?;
        if let Some(list) = list.as_ref().filter(|_| modern) {
            self.memory.lists.put(&url, method, now, list);
        }
        Ok(list)
    }

    /// Rows 2 to 11. Returns the value the server completed (for the prompt) and the URI read
    /// with it (to subscribe to).
    async fn browse_resources(
        &self,
        completions: bool,
        shown: &mut Vec<String>,
    ) -> Result<Option<(String, String)>, Stopped> {
        let after_list = &RESOURCE_ROWS[2..];
        let request = self.client.list_resources();
        let listed_now = self.list(RESOURCES, "resources/list", after_list, request);
        let Some(list) = listed_now.await? else {
            return Ok(None);
        };
        self.done(RESOURCES.1, Some(listed(&list, "resources", "uri")));
        let first = items(&list, "resources")
            .first()
            .and_then(|r| r.get("uri"))
            .and_then(Value::as_str);
        match first {
            Some(uri) => {
                self.read(READ, uri, shown).await?;
            }
            None => self.skip(&[READ.0, READ.1], SkipReason::NothingListed),
        }

        let request = self.client.list_resource_templates();
        let Some(templates) = self
            .list(
                TEMPLATES,
                "resources/templates/list",
                &FROM_TEMPLATE,
                request,
            )
            .await?
        else {
            return Ok(None);
        };
        self.done(
            TEMPLATES.1,
            Some(listed(&templates, "resourceTemplates", "uriTemplate")),
        );
        let first = items(&templates, "resourceTemplates")
            .iter()
            .filter_map(|t| t.get("uriTemplate").and_then(Value::as_str))
            .find_map(|t| first_variable(t).map(|v| (t.to_owned(), v.to_owned())));
        let Some((template, variable)) = first else {
            self.skip(&FROM_TEMPLATE, SkipReason::NothingListed);
            return Ok(None);
        };
        if !completions {
            self.skip(&FROM_TEMPLATE[..2], SkipReason::NotOffered);
            self.skip(&FROM_TEMPLATE[2..], SkipReason::NothingListed);
            return Ok(None);
        }

        // Nothing typed yet: the server offers what it has from the start.
        let typed = "";
        let mut argument = Map::new();
        argument.insert(variable.clone(), Value::from(typed));
        let sent = Payload::Target {
            target: template.clone(),
            arguments: Some(Value::Object(argument)),
        };
        let reference = Reference::Resource(ResourceTemplateReference::new(&template));
        let request = self.client.complete(reference, &variable, typed);
        let Some(answer) = self
            .exchange(COMPLETE, Some(sent), &FROM_TEMPLATE[2..], request)
            .await?
        else {
            return Ok(None);
        };
        let offered = completion(&answer);
        let value = match &offered {
            Payload::Completion { values, .. } => values.first().cloned(),
            _ => None,
        };
        self.done(COMPLETE.1, Some(offered));
        let Some(value) = value else {
            self.skip(&FROM_TEMPLATE[2..], SkipReason::NothingListed);
            return Ok(None);
        };
        let uri = expand(&template, &variable, &value);
        let read = self.read(READ_TEMPLATE, &uri, shown).await?;
        Ok(read.then_some((value, uri)))
    }

    /// `resources/read` of `uri` on the rows `pair`; whether the server had it.
    async fn read(&self, pair: Pair, uri: &str, shown: &mut Vec<String>) -> Result<bool, Stopped> {
        let sent = Payload::Target {
            target: uri.to_owned(),
            arguments: None,
        };
        let request = self.client.read_resource(uri);
        let Some(read) = self.exchange(pair, Some(sent), &[], request).await? else {
            return Ok(false);
        };
        let summary = contents_summary(&read);
        shown.push(format!("read {uri}: {summary}"));
        let count = items(&read, "contents").len();
        self.done(pair.1, Some(contents(uri, count, summary, &read)));
        Ok(true)
    }

    /// Rows 12 to 15: the prompts, and the first one got with `completed` (or
    /// [`UNCOMPLETED_ARGUMENT`]) for its required arguments.
    async fn browse_prompts(
        &self,
        completed: Option<String>,
        shown: &mut Vec<String>,
    ) -> Result<(), Stopped> {
        let rest = [GET_PROMPT.0, GET_PROMPT.1];
        let request = self.client.list_prompts();
        let Some(list) = self.list(PROMPTS, "prompts/list", &rest, request).await? else {
            return Ok(());
        };
        self.done(PROMPTS.1, Some(listed(&list, "prompts", "name")));
        let Some(prompt) = items(&list, "prompts").first() else {
            self.skip(&rest, SkipReason::NothingListed);
            return Ok(());
        };
        let name = prompt.get("name").and_then(Value::as_str).unwrap_or("?");
        let value = completed.as_deref().unwrap_or(UNCOMPLETED_ARGUMENT);
        let arguments = prompt_arguments(prompt, value);
        let sent = Payload::Target {
            target: name.to_owned(),
            arguments: (!arguments.is_empty()).then(|| Value::Object(arguments.clone())),
        };
        let request = self.client.get_prompt(name, arguments);
        let Some(got) = self.exchange(GET_PROMPT, Some(sent), &[], request).await? else {
            return Ok(());
        };
        let count = items(&got, "messages").len();
        shown.push(format!("got the prompt {name}: {count} message(s)"));
        let summary = messages_summary(&got);
        self.done(GET_PROMPT.1, Some(contents(name, count, summary, &got)));
        Ok(())
    }
}

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// Rows 16 to 21: subscribe to `uri` (the era's way), wait for its update, end the
    /// subscription and read it again.
    async fn watch(&self, uri: &str, shown: &mut Vec<String>) -> Result<(), Stopped> {
        let target = Payload::Target {
            target: uri.to_owned(),
            arguments: None,
        };
        let modern = self.client.era() == Era::Modern;
        self.begin(Row::Subscribe).await;
        let opened = if modern {
            self.client
                .listen(&[uri.to_owned()])
                .await
                .map(Updates::Stream)
        } else {
            self.subscribe_legacy(uri).await
        };
        let mut stream = match opened {
            Ok(stream) => stream,
            Err(McpError::Protocol { code: -32601, .. }) => {
                self.done(Row::Subscribe, Some(target));
                self.skip(&WATCH[1..], SkipReason::NotOffered);
                return Ok(());
            }
            Err(e) => {
                return Err(self.fail_pair((Row::Subscribe, Some(target)), Row::Subscribed, e));
            }
        };
        self.done(Row::Subscribe, Some(target.clone()));
        self.begin(Row::Subscribed).await;
        let taken = if modern {
            let deadline = self.steps.now_ms() + f64::from(UPDATE_WAIT_MS);
            match self
                .next_message(&mut stream, deadline, |m| {
                    m.get("method").and_then(Value::as_str) == Some(ACKNOWLEDGED)
                })
                .await
            {
                Ok(Some(ack)) => accepted(&ack),
                Ok(None) => {
                    stream.close(&self.client);
                    return Err(self.fail(
                        Row::Subscribed,
                        format!(
                            "no acknowledgment of subscriptions/listen within {UPDATE_WAIT_MS} ms \
                             (the first event on its stream must be {ACKNOWLEDGED})"
                        ),
                    ));
                }
                Err(e) => return Err(self.fail(Row::Subscribed, e.to_string())),
            }
        } else {
            vec![uri.to_owned()]
        };
        let listed = taken.iter().any(|u| u == uri);
        self.done(
            Row::Subscribed,
            Some(Payload::Listed {
                items: taken,
                ttl_ms: None,
                cache_scope: None,
            }),
        );

        let updated = if listed {
            self.begin(Row::Updated).await;
            let deadline = self.steps.now_ms() + f64::from(UPDATE_WAIT_MS);
            match self
                .next_message(&mut stream, deadline, |m| is_update_of(m, uri))
                .await
            {
                Ok(found) => found.is_some(),
                Err(e) => return Err(self.fail(Row::Updated, e.to_string())),
            }
        } else {
            false
        };
        match (listed, updated) {
            (_, true) => self.done(Row::Updated, Some(target.clone())),
            (true, false) => self.skip(&[Row::Updated], SkipReason::NoUpdate),
            (false, _) => self.skip(&[Row::Updated], SkipReason::NotOffered),
        }

        self.begin(Row::Unsubscribe).await;
        let ended = if modern {
            Ok(Value::Null)
        } else {
            self.client.unsubscribe(uri).await
        };
        stream.close(&self.client);
        if let Err(e) = ended {
            return Err(self.fail(Row::Unsubscribe, e.to_string()));
        }
        self.done(Row::Unsubscribe, Some(target));
        if updated {
            self.read(READ_UPDATED, uri, shown).await?;
        } else {
            self.skip(&[READ_UPDATED.0, READ_UPDATED.1], SkipReason::NoUpdate);
        }
        Ok(())
    }

    /// 2025-11-25: the GET stream first (the session's, when it is already read; so no update
    /// is missed), then `resources/subscribe`.
    async fn subscribe_legacy(&self, uri: &str) -> Result<Updates<H::Body>, McpError> {
        let stream = if self.client.is_hearing() {
            Updates::Heard(self.client.tap())
        } else {
            Updates::Stream(self.client.open_stream().await?)
        };
        match self.client.subscribe(uri).await {
            Ok(_) => Ok(stream),
            Err(e) => {
                stream.close(&self.client);
                Err(e)
            }
        }
    }

    /// The first message on `stream` that `wanted` picks, before `deadline` (on the run's
    /// clock): `None` when none came in time or the server ended the stream. Others are passed
    /// by (they are in the record).
    async fn next_message(
        &self,
        stream: &mut Updates<H::Body>,
        deadline: f64,
        wanted: impl Fn(&Value) -> bool,
    ) -> Result<Option<Value>, McpError> {
        loop {
            let left = (deadline - self.steps.now_ms()).max(0.0) as u32;
            match stream.next_within(&self.client, left).await {
                Ok(Some(message)) if wanted(&message) => return Ok(Some(message)),
                Ok(Some(_)) => {}
                Ok(None) | Err(McpError::Transport(TransportError::Timeout { .. })) => {
                    return Ok(None);
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// Rows 2 to 11, in order.
const RESOURCE_ROWS: [Row; 10] = [
    RESOURCES.0,
    RESOURCES.1,
    READ.0,
    READ.1,
    TEMPLATES.0,
    TEMPLATES.1,
    COMPLETE.0,
    COMPLETE.1,
    READ_TEMPLATE.0,
    READ_TEMPLATE.1,
];
