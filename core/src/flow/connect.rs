//! Diagram 1 in either era: prepare a client, find out which era the server speaks (the modern
//! probe in `auto`, or the era the settings fix), then connect the way that era does (legacy:
//! initialize, notifications/initialized, logging/setLevel; modern: nothing to keep, the
//! discover answer is enough), list the tools and hand them to the model.

use serde_json::Value;

use super::host::{Host, Stopped, check_server_url};
use crate::diagram::Row;
use crate::llm::{Llm, ToolSpec};
use crate::record::payload::{Payload, SkipReason};
use crate::record::run::RunEvent;
use mcp_flow_client::discover::Discovery;
use mcp_flow_client::era::{Detection, Era, EraChoice, Why, classify};
use mcp_flow_client::error::McpError;
use mcp_flow_client::http::Http;
use mcp_flow_client::modern;
use mcp_flow_client::tools::ToolList;

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// Diagram 1: connect and discover tools.
    pub async fn discover(&self) -> Result<(), Stopped> {
        self.begin(Row::Prepare).await;
        let url = self.client.transport.url.clone();
        if let Err(e) = check_server_url(&url) {
            return Err(self.fail(Row::Prepare, e));
        }
        if let Some(why) = self.headers_problem.borrow().clone() {
            return Err(self.fail(Row::Prepare, format!("request headers: {why}")));
        }
        self.done(Row::Prepare, Some(Payload::Server { url: url.clone() }));

        let (detection, discovery) = self.choose_era(&url).await?;
        self.record(RunEvent::Era(detection.clone(), detection.why.describe()));
        match (detection.era, discovery) {
            (Era::Modern, Some(found)) => self.ready_modern(&found).await,
            (Era::Modern, None) => return Err(self.fail(Row::Ready, "no discover answer".into())),
            (Era::Legacy, _) => self.connect_legacy(&url, &detection).await?,
        }
        self.list_tools(&url).await
    }

    /// Rows Discover and DiscoverResult: the era, and what `server/discover` said (modern).
    async fn choose_era(&self, url: &str) -> Result<(Detection, Option<Discovery>), Stopped> {
        let choice = self.era_choice.get();
        let known = match choice {
            EraChoice::Auto => self.memory.eras.get(url),
            _ => None,
        };
        let legacy_without_probe = match (choice, &known) {
            (EraChoice::Legacy, _) => Some(SkipReason::LegacyChosen),
            (EraChoice::Auto, Some(d)) if d.era == Era::Legacy => Some(SkipReason::KnownLegacy),
            _ => None,
        };
        if let Some(why) = legacy_without_probe {
            self.skip(&[Row::Discover, Row::DiscoverResult], why);
            let detection = known.unwrap_or(Detection {
                era: Era::Legacy,
                why: Why::Chosen,
            });
            return Ok((detection, None));
        }

        self.begin(Row::Discover).await;
        let probing = choice == EraChoice::Auto && known.is_none();
        let found = self.client.discover().await;
        let detection = if probing {
            classify(&found.as_ref().map(|_| ()).map_err(Clone::clone))
        } else {
            Detection {
                era: Era::Modern,
                why: known.map_or(Why::Chosen, |k| k.why),
            }
        };
        self.done(
            Row::Discover,
            Some(Payload::Requested {
                version: modern::VERSION.into(),
            }),
        );
        self.begin(Row::DiscoverResult).await;
        match (detection.era, found) {
            (Era::Modern, Ok(found)) => {
                *self.capabilities.borrow_mut() = found.capabilities.clone();
                self.done(Row::DiscoverResult, Some(discovered(&found)));
                self.client.set_era(Era::Modern);
                self.memory.eras.put(url, &detection);
                Ok((detection, Some(found)))
            }
            (Era::Modern, Err(e)) => Err(Stopped {
                unreached: e.unreached(),
                ..self.fail(Row::DiscoverResult, not_modern(&e, probing))
            }),
            (Era::Legacy, _) => {
                self.done(
                    Row::DiscoverResult,
                    Some(Payload::Fallback {
                        why: detection.why.describe(),
                    }),
                );
                Ok((detection, None))
            }
        }
    }

    /// Row Ready, modern era: nothing to await; ask for log lines on each request if the server
    /// offers logging.
    async fn ready_modern(&self, found: &Discovery) {
        self.begin(Row::Ready).await;
        let level = self.log_level.get().filter(|_| found.logging());
        self.client.set_log_level(level);
        self.done(
            Row::Ready,
            Some(Payload::Logging {
                level: level.map(|l| l.as_str().to_owned()),
            }),
        );
    }

    /// Rows 1 to 3 and Ready, legacy era: the handshake, then log lines for the session.
    async fn connect_legacy(&self, url: &str, detection: &Detection) -> Result<(), Stopped> {
        self.begin(Row::Initialize).await;
        let requested = Some(Payload::Requested {
            version: mcp_flow_client::version::REQUESTED.into(),
        });
        let hs = match self.client.initialize().await {
            Ok(hs) => hs,
            Err(e) => {
                return Err(self.fail_pair((Row::Initialize, requested), Row::InitializeResult, e));
            }
        };
        self.done(Row::Initialize, requested);
        // A probe that proved nothing names the era only now that initialize answered.
        let known = detection.after_handshake(hs.protocol_version);
        if known != *detection {
            self.record(RunEvent::Era(known.clone(), known.why.describe()));
        }
        self.memory.eras.put(url, &known);
        self.begin(Row::InitializeResult).await;
        let capabilities = hs.capabilities.clone();
        *self.capabilities.borrow_mut() = capabilities.clone();
        self.done(
            Row::InitializeResult,
            Some(Payload::Handshake {
                version: hs.protocol_version.to_owned(),
                server: format!("{} {}", hs.server_name, hs.server_version),
                capabilities,
                session: self.client.transport.session_id().or_else(|| {
                    self.client
                        .transport
                        .old_sse()
                        .map(|old| format!("HTTP+SSE (2024-11-05), messages to {}", old.endpoint))
                }),
            }),
        );

        self.begin(Row::Initialized).await;
        if let Err(e) = self.client.initialized().await {
            return Err(self.fail(Row::Initialized, e.to_string()));
        }
        self.done(Row::Initialized, None);

        self.begin(Row::Ready).await;
        // The page hears the server: its GET stream opens now (drawn on this row).
        let hearer = self.hearer.borrow_mut().take();
        if let Some((ready, opened)) = hearer
            && ready.send(()).is_ok()
        {
            let _ = opened.await;
        }
        // Ask for the server's log lines, so the tool call can show the server at work.
        let level = self
            .log_level
            .get()
            .filter(|_| hs.result.capabilities.logging.is_some());
        if let Some(level) = level
            && let Err(e) = self.client.set_level(level).await
        {
            return Err(self.fail(Row::Ready, e.to_string()));
        }
        self.done(
            Row::Ready,
            Some(Payload::Logging {
                level: level.map(|l| l.as_str().to_owned()),
            }),
        );
        Ok(())
    }

    /// Rows 4 to 8: tools/list (or a list still fresh from earlier on this page, in the modern
    /// era), to the host, to the model.
    async fn list_tools(&self, url: &str) -> Result<(), Stopped> {
        self.begin(Row::ListToolsAsk).await;
        self.done(Row::ListToolsAsk, None);
        let now = self.steps.now_ms();
        let cached = match self.client.era() {
            Era::Modern => self.memory.tools.fresh(url, now),
            Era::Legacy => None,
        };
        let list = match cached {
            Some((at, list)) => {
                self.skip(
                    &[Row::ListTools],
                    SkipReason::FreshList {
                        age_ms: (now - at).max(0.0) as u64,
                        ttl_ms: list.ttl_ms.unwrap_or(0),
                    },
                );
                self.client.remember_annotations(&list);
                list
            }
            None => {
                self.begin(Row::ListTools).await;
                let list = match self.client.tool_list().await {
                    Ok(list) => list,
                    Err(e) => {
                        return Err(self.fail_pair(
                            (Row::ListTools, None),
                            Row::ListToolsResult,
                            e,
                        ));
                    }
                };
                self.done(Row::ListTools, None);
                self.memory.tools.put(url, now, &list);
                list
            }
        };
        self.begin(Row::ListToolsResult).await;
        let names: Vec<String> = list.tools.iter().map(|t| t.name.to_string()).collect();
        self.done(
            Row::ListToolsResult,
            Some(Payload::Tools {
                names: names.clone(),
                dropped: list.dropped.clone(),
                ttl_ms: list.ttl_ms,
            }),
        );

        self.begin(Row::ToolsToHost).await;
        self.take_tools(&list);
        self.done(
            Row::ToolsToHost,
            Some(Payload::Tools {
                names,
                dropped: Vec::new(),
                ttl_ms: None,
            }),
        );

        self.begin(Row::ToolsToLlm).await;
        let specs = self.tools.borrow().clone();
        let formatted = self.llm.format_tools(&specs);
        let sent = match &formatted {
            Value::String(text) => text.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        };
        self.done(
            Row::ToolsToLlm,
            Some(Payload::ToolsForLlm {
                llm: self.llm.label(),
                style: self.llm.style(),
                sent,
                tools: specs,
            }),
        );
        Ok(())
    }
}

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// Takes `list` as the tools the model is offered from now on (with their output schemas
    /// and which are tasks); returns their names.
    pub(super) fn take_tools(&self, list: &ToolList) -> Vec<String> {
        *self.output_schemas.borrow_mut() = list
            .tools
            .iter()
            .filter_map(|t| {
                let schema = t.output_schema.as_ref()?;
                Some((t.name.to_string(), Value::Object((**schema).clone())))
            })
            .collect();
        let defs: Vec<Value> = list
            .tools
            .iter()
            .map(|t| serde_json::to_value(t).unwrap_or(Value::Null))
            .collect();
        // A tool only an app may call is not the model's (MCP Apps' `visibility`).
        *self.tools.borrow_mut() = list
            .tools
            .iter()
            .zip(&defs)
            .filter(|(_, def)| mcp_flow_client::apps::Visibility::of(def).model)
            .map(|(tool, _)| ToolSpec::from_mcp(tool))
            .collect();
        *self.tool_defs.borrow_mut() = defs;
        *self.task_tools.borrow_mut() = list.task_tools.clone();
        list.tools.iter().map(|t| t.name.to_string()).collect()
    }
}

pub(crate) fn discovered(found: &Discovery) -> Payload {
    Payload::Discovered {
        versions: found.versions.clone(),
        server: found.server.clone(),
        capabilities: found.capabilities.clone(),
        ttl_ms: found.ttl_ms,
        cache_scope: found.cache_scope.clone(),
    }
}

/// Why a server did not answer server/discover as a 2026-07-28 server.
fn not_modern(e: &McpError, probing: bool) -> String {
    if probing {
        // A modern error that this client cannot get past (e.g. no version in common).
        return format!("a 2026-07-28 server, but it refused server/discover: {e}");
    }
    format!(
        "the server did not answer as a 2026-07-28 server ({e}); the era is fixed to modern in \
         the settings: choose auto or legacy to talk to it"
    )
}
