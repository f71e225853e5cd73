//! The run's engine as the page drives it: the host with its MCP client, transport and model,
//! behind one object-safe interface. The page holds a `dyn Engine`, so the code that does the
//! protocol (diagram 1 and 2, both eras, every model) can live in a module of its own that the
//! page fetches when it first needs it (a run starts), not in the first load (see `mcp_flow_on_demand`).

use std::rc::Rc;

use futures_util::future::LocalBoxFuture;
use rmcp::model::ElicitResult;

use super::apps::CalledTool;
use super::host::{Approval, BrowseWalk, Consent, Host, Stopped};
use crate::diagram::Row;
use crate::llm::Llm;
use mcp_flow_client::error::McpError;
use mcp_flow_client::http::{Http, HttpRequest};
use mcp_flow_client::record::ReplayOf;
use mcp_flow_client::replay::{Original, Prepared};
use mcp_flow_client::sampling::SamplingRequest;
use mcp_flow_on_demand::OnDemandError;

/// The walk, for the page's split point.
pub fn browse_walk<H: Http + 'static, L: Llm + 'static>(
    host: Rc<Host<H, L>>,
) -> LocalBoxFuture<'static, Result<String, Stopped>> {
    Box::pin(async move { Host::browse(&host).await })
}

/// The walk where the host has no loader: in place, or, in the release build (whose page always
/// gives one), not at all, so that the run's module does not hold it.
#[cfg(not(feature = "split"))]
fn in_place<H: Http + 'static, L: Llm + 'static>() -> Result<BrowseWalk<H, L>, OnDemandError> {
    Ok(browse_walk)
}

#[cfg(feature = "split")]
fn in_place<H: Http + 'static, L: Llm + 'static>() -> Result<BrowseWalk<H, L>, OnDemandError> {
    Err(OnDemandError::NotLoaded)
}

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// The walk through the host's loader when it has one (a failed fetch fails the walk's
    /// first row), in place otherwise.
    async fn browse_fetched(self: Rc<Self>) -> Result<String, Stopped> {
        let walk = match self.load_browse.get() {
            Some(load) => load().await,
            None => in_place(),
        };
        match walk {
            Ok(walk) => walk(self).await,
            Err(e) => {
                self.begin(Row::Browse).await;
                Err(self.fail(
                    Row::Browse,
                    e.into_message("walks the resources, prompts and tasks"),
                ))
            }
        }
    }
}

/// What a run does once diagram 1 has connected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum After {
    /// Nothing more (Connect).
    Nothing,
    /// Diagram 2 with this question.
    Ask(String),
    /// The diagram "Resources, prompts, completion and tasks".
    Browse,
    /// Diagram 2 without a model: this tool with these arguments (JSON text), as a link's
    /// `?call=TOOL&args=JSON` asks.
    Call { tool: String, arguments: String },
}

/// What the page asks of a run in progress.
pub trait Engine {
    /// Diagram 1, then what `after` says.
    fn connect_then(self: Rc<Self>, after: After) -> LocalBoxFuture<'static, Result<(), Stopped>>;
    /// Diagram 2 again on this connection.
    fn ask(self: Rc<Self>, question: String) -> LocalBoxFuture<'static, Result<String, Stopped>>;
    /// Diagram 2 again on this connection, without a model: `tool` with `arguments` (JSON).
    fn call(
        self: Rc<Self>,
        tool: String,
        arguments: String,
    ) -> LocalBoxFuture<'static, Result<String, Stopped>>;
    /// The diagram "Resources, prompts, completion and tasks" on this connection.
    fn browse(self: Rc<Self>) -> LocalBoxFuture<'static, Result<String, Stopped>>;
    /// The last tool call, when its tool has an app the page renders (MCP Apps).
    fn app_call(&self) -> Option<CalledTool>;
    /// The host itself, for the code fetched with the apps, which knows its type.
    fn host(self: Rc<Self>) -> Rc<dyn std::any::Any>;
    /// The MCP client's per-request timeout from now on.
    fn set_timeout_ms(&self, ms: u32);
    /// Whether the next tool call asks the user first.
    fn set_approval(&self, approval: Approval);
    /// The roots from now on, as the settings hold them (none while the text does not read); a
    /// 2025-11-25 server is told they changed.
    fn set_roots(self: Rc<Self>, roots: String) -> LocalBoxFuture<'static, Result<(), McpError>>;
    /// The user's answer to "Execute tool?".
    fn decide(&self, consent: Consent);
    /// The user's answer to "share your roots with this server?".
    fn share_roots(&self, share: bool);
    /// The user's answer to the server's form.
    fn answer_form(&self, answer: ElicitResult);
    /// The user's verdict on a sampling request: the request to put to the model, or `None`.
    fn review_sampling(&self, request: Option<SamplingRequest>);
    /// The user's verdict on the model's answer: the text to send back, or `None`.
    fn approve_sampling(&self, answer: Option<String>);
    /// The user's answer to "open the authorization page?" (in the user's click).
    fn authorize(&self, open: bool);
    /// Stops the MCP requests in flight the era's way; each fails its row. Whether there was one.
    fn stop(&self) -> bool;
    /// Closes the session (DELETE), if there is one.
    fn close(self: Rc<Self>) -> LocalBoxFuture<'static, Result<(), McpError>>;
    /// The DELETE that would close the session, for a page that is going away.
    fn delete_request(&self) -> Option<HttpRequest>;
    /// `text` checked as a replay of `original` on this connection; nothing is sent.
    fn prepare_replay(&self, text: &str, original: &Original<'_>) -> Result<Prepared, String>;
    /// Sends a checked replay; its exchange is recorded as the user's replay.
    fn replay(
        self: Rc<Self>,
        prepared: Prepared,
        of: ReplayOf,
    ) -> LocalBoxFuture<'static, Result<(), McpError>>;
}

impl<H: Http + 'static, L: Llm + 'static> Engine for Host<H, L> {
    fn connect_then(self: Rc<Self>, after: After) -> LocalBoxFuture<'static, Result<(), Stopped>> {
        Box::pin(async move {
            self.discover().await?;
            match after {
                After::Nothing => {}
                After::Ask(question) => {
                    Host::ask(&self, &question).await?;
                }
                After::Browse => {
                    self.browse_fetched().await?;
                }
                After::Call { tool, arguments } => {
                    self.call_from_link(&tool, &arguments).await?;
                }
            }
            Ok(())
        })
    }

    fn ask(self: Rc<Self>, question: String) -> LocalBoxFuture<'static, Result<String, Stopped>> {
        Box::pin(async move { Host::ask(&self, &question).await })
    }

    fn browse(self: Rc<Self>) -> LocalBoxFuture<'static, Result<String, Stopped>> {
        Box::pin(self.browse_fetched())
    }

    fn call(
        self: Rc<Self>,
        tool: String,
        arguments: String,
    ) -> LocalBoxFuture<'static, Result<String, Stopped>> {
        Box::pin(async move { self.call_from_link(&tool, &arguments).await })
    }

    fn app_call(&self) -> Option<CalledTool> {
        Host::app_call(self)
    }

    fn host(self: Rc<Self>) -> Rc<dyn std::any::Any> {
        self
    }

    fn set_timeout_ms(&self, ms: u32) {
        self.client.set_timeout_ms(ms);
    }

    fn set_approval(&self, approval: Approval) {
        Host::set_approval(self, approval);
    }

    fn set_roots(self: Rc<Self>, roots: String) -> LocalBoxFuture<'static, Result<(), McpError>> {
        Box::pin(async move {
            Host::set_roots(
                &self,
                mcp_flow_client::roots::parse(&roots).unwrap_or_default(),
            );
            self.client.roots_changed().await
        })
    }

    fn decide(&self, consent: Consent) {
        Host::decide(self, consent);
    }

    fn share_roots(&self, share: bool) {
        Host::share_roots(self, share);
    }

    fn answer_form(&self, answer: ElicitResult) {
        Host::answer_form(self, answer);
    }

    fn review_sampling(&self, request: Option<SamplingRequest>) {
        Host::review_sampling(self, request);
    }

    fn approve_sampling(&self, answer: Option<String>) {
        Host::approve_sampling(self, answer);
    }

    fn authorize(&self, open: bool) {
        Host::authorize(self, open);
    }

    fn stop(&self) -> bool {
        self.client.stop()
    }

    fn close(self: Rc<Self>) -> LocalBoxFuture<'static, Result<(), McpError>> {
        Box::pin(async move { self.client.close().await })
    }

    fn delete_request(&self) -> Option<HttpRequest> {
        self.client.transport.delete_request()
    }

    fn prepare_replay(&self, text: &str, original: &Original<'_>) -> Result<Prepared, String> {
        self.client.prepare_replay(text, original)
    }

    fn replay(
        self: Rc<Self>,
        prepared: Prepared,
        of: ReplayOf,
    ) -> LocalBoxFuture<'static, Result<(), McpError>> {
        Box::pin(async move { self.client.replay(prepared, of).await })
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::rc::Rc;

    use futures_executor::LocalPool;
    use futures_util::task::LocalSpawnExt;

    use super::Engine;
    use crate::flow::gate::Mode;
    use crate::flow::host::Approval;
    use crate::flow::tests::{host, weather_server_script};
    use mcp_flow_client::scripted::status;

    fn session_of(request: &mcp_flow_client::http::HttpRequest) -> Option<&str> {
        request
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id"))
            .map(|(_, v)| v.as_str())
    }

    /// The page holds a run only as a `dyn Engine`: what it sets through it reaches the host,
    /// and the session it opened is closed through it.
    #[test]
    fn a_run_driven_as_the_page_drives_it_answers_and_closes_its_session() {
        let mut script = weather_server_script();
        script.push(status(200, "", ""));
        // The host would ask before the tool call; the page's setting, given through the
        // engine, says not to (if it did not arrive, the run would wait for a yes and stall).
        let (host, http, run) = host(script, Mode::Play, Approval::Ask);
        let engine: Rc<dyn Engine> = host;
        engine.set_approval(Approval::Auto);
        let finished = Rc::new(Cell::new(false));
        let mut pool = LocalPool::new();
        let (task, done) = (engine.clone(), finished.clone());
        pool.spawner()
            .spawn_local(async move {
                let asked = task
                    .connect_then(super::After::Ask("What's the weather in Tokyo?".into()))
                    .await;
                done.set(asked.is_ok());
            })
            .expect("spawn");
        pool.run_until_stalled();
        assert!(finished.get(), "the run did not finish");
        assert_eq!(
            run.borrow().answer(),
            Some("The weather in Tokyo is sunny.")
        );

        let delete = engine.delete_request().expect("an open session");
        assert_eq!(delete.method, "DELETE");
        assert_eq!(session_of(&delete), Some("sess-1"));
        pool.run_until(engine.clone().close()).expect("closed");
        let sent = http.sent.borrow();
        let last = sent.last().expect("requests");
        assert_eq!((last.method, session_of(last)), ("DELETE", Some("sess-1")));
        assert!(engine.delete_request().is_none(), "the session is gone");
    }
}
