//! The host (the tutorial's "ClientApp"): performs each diagram row for real, passing the gate first,
//! and reports every step to the run record. Diagram 1 (connecting, in either era) is in
//! `connect.rs`; this file has the host itself and diagram 2 (asking).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use futures_channel::mpsc::UnboundedReceiver;
use futures_util::future::LocalBoxFuture;
use rmcp::model::{CallToolResult, ElicitResult};
use serde_json::{Map, Value};

use super::forms::{Answers, FORM_ROWS, answer_payload, ask_user, legacy_elicitor};
use super::gate::Gate;
use super::roots::{self, ROOTS_ROWS, RootsAnswers};
use super::sampling::{SAMPLING_ROWS, SamplingDesk, legacy_sampler};
use super::steps::Steps;
pub use super::steps::{
    ApprovalRequest, Consent, Emit, FormRequest, HostEvent, RootsQuestion, SamplingDialog, Stopped,
    UrlToOpen,
};
use crate::diagram::Row;
use crate::llm::{ChatMessage, Llm, LlmReply, ToolCall, ToolSpec};
use crate::output_check::{Checker, check_result};
use crate::record::payload::{Payload, SkipReason};
use crate::record::run::RunEvent;
use mcp_flow_client::client::McpClient;
use mcp_flow_client::era::{EraCache, EraChoice};
use mcp_flow_client::error::{McpError, TransportError};
use mcp_flow_client::http::Http;
use mcp_flow_client::log_level::LogLevel;
use mcp_flow_client::tools::result_text;
use mcp_flow_client::tools::{CallOutcome, InputRequired, Question, Retry, ToolsCache};
use mcp_flow_on_demand::OnDemandError;

/// Tool rounds per question before the host stops the loop (tutorial document `004_…`: `MAX_TOOL_CALLS`).
pub const MAX_TOOL_ROUNDS: u32 = 3;
/// Times a server may answer one tools/call with `input_required` before the host gives up.
pub const MAX_INPUT_ROUNDS: u32 = 5;

/// Whether the host asks the user before running a tool (diagram 2, rows 4 and 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Approval {
    Ask,
    Auto,
}

/// The server a transport reaches, as the user's dialogs name it: its origin, or through a
/// bridge on this machine, the origin of the server the bridge relays to.
pub(super) fn server_name<H: Http>(transport: &mcp_flow_client::transport::Transport<H>) -> String {
    let url = transport
        .upstream()
        .unwrap_or_else(|| transport.url.clone());
    mcp_flow_client::origin::origin(&url).map_or(url.clone(), |o| o.serialize())
}

/// A Streamable HTTP endpoint is an absolute `http://` or `https://` URL with a host.
pub fn check_server_url(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    match rest {
        Some(rest)
            if !rest.is_empty() && !rest.starts_with('/') && !url.contains(char::is_whitespace) =>
        {
            Ok(())
        }
        _ => Err(format!(
            "the server URL must be an absolute http:// or https:// address such as \
             http://127.0.0.1:8000/mcp (got {url:?})"
        )),
    }
}

/// The fourth diagram's walk on a connection, as a plain function: the page's release build
/// fetches it as a module of its own when a browse first starts (see `mcp_flow_on_demand`).
pub type BrowseWalk<H, L> = fn(Rc<Host<H, L>>) -> LocalBoxFuture<'static, Result<String, Stopped>>;

/// Fetches the walk.
pub type LoadBrowse<H, L> =
    fn() -> LocalBoxFuture<'static, Result<BrowseWalk<H, L>, OnDemandError>>;

/// What a 2025-11-25 session needs beyond the run's code (`hearing.rs`): opening and reading
/// the session's GET stream, waiting for error -32042's pages. The page fetches it when such a
/// session opens.
pub struct LegacyCode<H: Http, L: Llm> {
    pub hear: HearStream<H, L>,
    pub pages: AwaitPages<H, L>,
}

/// Opens the session's GET stream, says so on the sender (whether or not there was one to
/// open), and reads it until it ends.
pub type HearStream<H, L> =
    fn(Rc<Host<H, L>>, futures_channel::oneshot::Sender<()>) -> LocalBoxFuture<'static, ()>;

/// Waits for error -32042's pages (`pages.rs`).
pub type AwaitPages<H, L> = for<'a> fn(
    &'a Host<H, L>,
    &'a Retry,
    Vec<String>,
    UnboundedReceiver<Value>,
) -> LocalBoxFuture<'a, Result<(), Stopped>>;

/// The session is ready; the hearer answers once its GET stream is open or not to be had.
pub type Hearer = (
    futures_channel::oneshot::Sender<()>,
    futures_channel::oneshot::Receiver<()>,
);

/// Fetches [`LegacyCode`].
pub type LoadLegacy<H, L> =
    fn() -> LocalBoxFuture<'static, Result<LegacyCode<H, L>, OnDemandError>>;

/// What the page remembers across runs: each server's era and fresh tool, resource, template
/// and prompt lists.
#[derive(Debug, Clone, Default)]
pub struct ServerMemory {
    pub eras: EraCache,
    pub tools: ToolsCache,
    pub lists: mcp_flow_client::browse::ListCache,
    /// Which servers the user shared the settings' roots with.
    pub roots: roots::RootsShared,
}

/// The rows of the server's questions during a tool call: a form, the roots, the model.
pub const QUESTION_ROWS: [Row; 12] = [
    FORM_ROWS[0],
    FORM_ROWS[1],
    FORM_ROWS[2],
    FORM_ROWS[3],
    ROOTS_ROWS[0],
    ROOTS_ROWS[1],
    SAMPLING_ROWS[0],
    SAMPLING_ROWS[1],
    SAMPLING_ROWS[2],
    SAMPLING_ROWS[3],
    SAMPLING_ROWS[4],
    SAMPLING_ROWS[5],
];

pub struct Host<H: Http, L: Llm> {
    pub client: Rc<McpClient<H>>,
    pub llm: L,
    pub gate: Rc<Gate>,
    pub(super) steps: Rc<Steps>,
    pub(super) answers: Rc<Answers>,
    /// The roots the server is answered with, from the settings.
    pub(super) roots: Rc<RootsAnswers>,
    /// The user's answers to the server's sampling requests.
    pub(super) sampling: Rc<SamplingDesk>,
    pub(super) approval: Cell<Approval>,
    pub(super) era_choice: Cell<EraChoice>,
    pub(super) memory: ServerMemory,
    pub(super) tools: RefCell<Vec<ToolSpec>>,
    /// The listed tools marked for tasks (2025-11-25 `execution.taskSupport`).
    pub(super) task_tools: RefCell<Vec<String>>,
    /// Why the user's request headers cannot be sent, if they cannot: the run fails at its first
    /// row with it, before any request.
    pub(super) headers_problem: RefCell<Option<String>>,
    /// Where the user opens the authorization page, when the page asks first.
    consent: RefCell<Option<Rc<dyn mcp_flow_client::auth::Consent>>>,
    /// Checks results against their tool's `outputSchema`; `None`: results are not checked.
    checker: RefCell<Option<Checker>>,
    /// Each listed tool's `outputSchema`, by tool name.
    pub(super) output_schemas: RefCell<HashMap<String, Value>>,
    /// The log level asked of a server that offers logging (`None`: no log lines).
    pub(super) log_level: Cell<Option<LogLevel>>,
    /// The server's capabilities, as diagram 1 learned them (initialize or server/discover).
    pub(super) capabilities: RefCell<Value>,
    /// Where the fourth diagram's walk is fetched from (`None`: it is called in place).
    pub(super) load_browse: Cell<Option<LoadBrowse<H, L>>>,
    /// Set when the server says its tools changed (`notifications/tools/list_changed`): the
    /// list is asked again before the model's next turn.
    pub(super) tools_changed: Rc<Cell<bool>>,
    /// The list methods (resources', prompts') the server said changed since they were last
    /// asked: asked again, even while a cached answer is fresh.
    pub(super) lists_changed: Rc<RefCell<Vec<&'static str>>>,
    /// When the page hears the server: diagram 1 says the session is ready (`hearing.rs`), then
    /// waits until the GET stream is open (or is not to be had).
    pub(super) hearer: RefCell<Option<Hearer>>,
    /// Where the code of a 2025-11-25 session is fetched from (`None`: it is called in place).
    pub(super) load_legacy: Cell<Option<LoadLegacy<H, L>>>,
    /// The tools as `tools/list` gave them (with their `_meta`), for apps.
    pub(super) tool_defs: RefCell<Vec<Value>>,
    /// The last tool call, for its app (`apps.rs`).
    pub(super) last_call: RefCell<Option<crate::app::called::CalledTool>>,
    /// What an app asked the model to know (`ui/update-model-context`), for its next turn.
    pub(super) model_context: RefCell<Option<String>>,
}

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    pub fn new(
        client: Rc<McpClient<H>>,
        llm: L,
        gate: Rc<Gate>,
        approval: Approval,
        emit: Emit,
    ) -> Self {
        let listener_emit = emit.clone();
        let tools_changed = Rc::new(Cell::new(false));
        let heard = tools_changed.clone();
        let lists_changed = Rc::new(RefCell::new(Vec::new()));
        let heard_lists = lists_changed.clone();
        client.set_listener(Some(Box::new(move |m: &Value| {
            if mcp_flow_client::listen::says_tools_changed(m) {
                heard.set(true);
            }
            for method in mcp_flow_client::listen::lists_changed(m) {
                let mut lists = heard_lists.borrow_mut();
                if !lists.contains(method) {
                    lists.push(method);
                }
            }
            if let Some(progress) = crate::record::progress::Progress::reported(m) {
                listener_emit(RunEvent::Progress(progress).into());
            }
            listener_emit(RunEvent::Notification(m.clone()).into())
        })));
        let steps = Rc::new(Steps::new(
            emit,
            gate.clone(),
            client.transport.clock.clone(),
        ));
        let answers = Rc::new(Answers::default());
        client.set_elicitor(Some(legacy_elicitor(steps.clone(), answers.clone())));
        let asking = Rc::downgrade(&client);
        let roots = Rc::new(RootsAnswers::new(Rc::new(move || {
            asking
                .upgrade()
                .map_or_else(String::new, |c| server_name(&c.transport))
        })));
        client.set_roots_giver(Some(roots::legacy_giver(steps.clone(), roots.clone())));
        // The page always has a model to answer with, so it always declares sampling.
        let sampling = Rc::new(SamplingDesk::default());
        client.set_sampler(Some(legacy_sampler(sampling.clone())));
        Self {
            client,
            llm,
            gate,
            steps,
            answers,
            roots,
            sampling,
            approval: Cell::new(approval),
            era_choice: Cell::new(EraChoice::Auto),
            memory: ServerMemory::default(),
            tools: RefCell::new(Vec::new()),
            task_tools: RefCell::new(Vec::new()),
            headers_problem: RefCell::new(None),
            consent: RefCell::new(None),
            checker: RefCell::new(None),
            output_schemas: RefCell::default(),
            log_level: Cell::new(Some(LogLevel::ASKED_BY_DEFAULT)),
            capabilities: RefCell::new(Value::Null),
            load_browse: Cell::new(None),
            tools_changed,
            lists_changed,
            hearer: RefCell::new(None),
            load_legacy: Cell::new(None),
            tool_defs: RefCell::new(Vec::new()),
            last_call: RefCell::new(None),
            model_context: RefCell::new(None),
        }
    }

    /// The roots the server's `roots/list` is answered with from now on (the settings').
    pub fn set_roots(&self, roots: Vec<mcp_flow_client::roots::Root>) {
        self.roots.set(roots);
    }

    /// With these roots (see [`Host::set_roots`]).
    pub fn with_roots(self, roots: Vec<mcp_flow_client::roots::Root>) -> Self {
        self.set_roots(roots);
        self
    }

    /// Fetches the fourth diagram's walk with `load` when a browse first starts.
    pub fn with_browse_loader(self, load: LoadBrowse<H, L>) -> Self {
        self.load_browse.set(Some(load));
        self
    }

    /// Fetches the code of a 2025-11-25 session with `load` when one opens.
    pub fn with_legacy_loader(self, load: LoadLegacy<H, L>) -> Self {
        self.load_legacy.set(Some(load));
        self
    }

    /// Authorizes when the server asks for it, with the flow drawn as the Authorization
    /// diagram's rows; `consent` opens the page where the user consents (`None`: the
    /// authorization server's redirect is read over HTTP, as on the command line).
    pub fn with_authorization(
        self,
        config: mcp_flow_client::auth::AuthConfig,
        consent: Option<Rc<dyn mcp_flow_client::auth::Consent>>,
    ) -> Self {
        *self.consent.borrow_mut() = consent.clone();
        let authorizer = mcp_flow_client::auth::Authorizer::new(config, consent);
        authorizer.set_watcher(Some(Rc::new(super::auth_rows::AuthRows {
            steps: self.steps.clone(),
        })));
        self.client
            .transport
            .set_authorizer(Some(Rc::new(authorizer)));
        self
    }

    /// The user's answer to "open the authorization page?".
    pub fn authorize(&self, open: bool) {
        let consent = self.consent.borrow().clone();
        if let Some(consent) = consent {
            consent.answer(open);
        }
    }

    /// The log level to ask a server that offers logging for (`None`: ask for no log lines).
    pub fn with_log_level(self, level: Option<LogLevel>) -> Self {
        self.log_level.set(level);
        self
    }

    /// Results are checked against their tool's `outputSchema` with `checker`.
    pub fn with_checker(self, checker: Checker) -> Self {
        self.set_checker(checker);
        self
    }

    /// Results are checked against their tool's `outputSchema` with `checker` from now on.
    pub fn set_checker(&self, checker: Checker) {
        *self.checker.borrow_mut() = Some(checker);
    }

    /// The era setting and what the page remembers, for diagram 1.
    pub fn with_era(mut self, choice: EraChoice, memory: ServerMemory) -> Self {
        self.era_choice.set(choice);
        self.roots.remember_in(memory.roots.clone());
        self.memory = memory;
        self
    }

    /// The user's answer to "share your roots with this server?".
    pub fn share_roots(&self, share: bool) {
        self.roots.decide(share);
    }

    /// The user's own request headers ("Name: value" lines), sent with every MCP request and
    /// never recorded; headers that cannot be sent fail the run at its first row.
    pub fn with_headers(self, text: &str) -> Self {
        match mcp_flow_client::custom_headers::CustomHeaders::parse(text) {
            Ok(headers) => self.client.transport.set_custom_headers(headers),
            Err(why) => *self.headers_problem.borrow_mut() = Some(why),
        }
        self
    }

    /// Whether the next tool call asks the user first.
    pub fn set_approval(&self, approval: Approval) {
        self.approval.set(approval);
    }

    /// The user's answer to "Execute tool?".
    pub fn decide(&self, consent: Consent) {
        self.answers.decide(consent);
    }

    /// The user's answer to the server's form.
    pub fn answer_form(&self, answer: ElicitResult) {
        self.answers.answer_form(answer);
    }

    /// The user's verdict on a sampling request: the request to put to the model, or `None`.
    pub fn review_sampling(&self, request: Option<mcp_flow_client::sampling::SamplingRequest>) {
        self.sampling.review(request);
    }

    /// The user's verdict on the model's answer: the text to send back, or `None`.
    pub fn approve_sampling(&self, answer: Option<String>) {
        self.sampling.approve(answer);
    }

    pub(super) async fn begin(&self, row: Row) {
        self.steps.begin(row).await;
    }

    pub(super) fn record(&self, event: RunEvent) {
        self.steps.record(event);
    }

    pub(super) fn done(&self, row: Row, payload: Option<Payload>) {
        self.steps.done(row, payload);
    }

    pub(super) fn fail(&self, row: Row, error: String) -> Stopped {
        self.steps.fail(row, error)
    }

    pub(super) fn skip(&self, rows: &[Row], why: SkipReason) {
        self.steps.skip(rows, why);
    }

    /// A failed request/response pair: no response at all fails the request row; a response
    /// that was wrong fails the response row.
    pub(super) fn fail_pair(
        &self,
        (request_row, sent): (Row, Option<Payload>),
        response_row: Row,
        e: McpError,
    ) -> Stopped {
        let unreached = e.unreached();
        let stopped = match e {
            McpError::Transport(
                TransportError::Network { .. }
                | TransportError::Timeout { .. }
                | TransportError::Stopped,
            ) => self.fail(request_row, e.to_string()),
            _ => {
                self.done(request_row, sent);
                self.fail(response_row, e.to_string())
            }
        };
        Stopped {
            unreached,
            ..stopped
        }
    }

    async fn complete(&self, row: Row, messages: &[ChatMessage]) -> Result<LlmReply, Stopped> {
        let tools = self.tools.borrow().clone();
        let (reply, exchange) = self.llm.complete(messages, &tools).await;
        self.record(RunEvent::Llm(Box::new(exchange)));
        reply.map_err(|e| self.fail(row, format!("LLM error: {e}")))
    }

    fn llm_call(&self) -> Option<Payload> {
        Some(Payload::LlmCall {
            llm: self.llm.label(),
            style: self.llm.style(),
        })
    }

    /// Diagram 2: ask a question, run the tool the model picks, and show the answer.
    pub async fn ask(&self, question: &str) -> Result<String, Stopped> {
        *self.last_call.borrow_mut() = None;
        self.begin(Row::Question).await;
        self.done(
            Row::Question,
            Some(Payload::Question {
                text: question.to_owned(),
            }),
        );
        let mut messages = vec![ChatMessage::User(question.to_owned())];
        // What an app asked the model to know (`ui/update-model-context`) comes first.
        if let Some(context) = self.app_context() {
            messages.insert(
                0,
                ChatMessage::System(format!("The app on the user's page says: {context}")),
            );
        }

        self.begin(Row::AskLlm).await;
        let reply = self.complete(Row::AskLlm, &messages).await?;
        self.done(Row::AskLlm, self.llm_call());

        self.begin(Row::LlmChoice).await;
        let call = match reply {
            LlmReply::Text(text) => {
                self.done(Row::LlmChoice, Some(Payload::Text { text: text.clone() }));
                self.skip(
                    &[
                        Row::Confirm,
                        Row::Confirmed,
                        Row::CallToolAsk,
                        Row::CallTool,
                        Row::Execute,
                        Row::CallToolResult,
                        Row::ResultToHost,
                        Row::Relist,
                        Row::RelistResult,
                        Row::ResultToLlm,
                        Row::LlmAnswer,
                    ],
                    SkipReason::NoToolCall,
                );
                self.skip(&QUESTION_ROWS, SkipReason::NoToolCall);
                return self.show(text).await;
            }
            LlmReply::ToolCalls(calls) => match calls.into_iter().next() {
                Some(c) => c,
                None => {
                    return Err(self.fail(
                        Row::LlmChoice,
                        "the model asked for an empty list of tool calls".into(),
                    ));
                }
            },
        };
        self.done(Row::LlmChoice, Some(tool_call(&call, 1)));
        // The tool loop (tutorial document 004): rows 4 to 11 run once per round, at most MAX_TOOL_ROUNDS.
        let mut round = 1;
        let mut call = call;
        loop {
            messages.push(ChatMessage::Assistant {
                text: String::new(),
                tool_calls: vec![call.clone()],
            });
            let approved = self.approve(&call, round).await;
            let (content, is_error, structured) = if approved {
                self.call_tool(&call, round).await?
            } else {
                self.skip_declined();
                (
                    format!("The user declined to run the tool '{}'.", call.name),
                    true,
                    None,
                )
            };
            messages.push(ChatMessage::ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content,
                is_error,
                structured,
            });
            self.relist_if_changed().await?;

            self.begin(Row::ResultToLlm).await;
            let reply = self.complete(Row::ResultToLlm, &messages).await?;
            self.done(Row::ResultToLlm, self.llm_call());
            self.begin(Row::LlmAnswer).await;
            match reply {
                LlmReply::Text(text) => {
                    self.done(Row::LlmAnswer, Some(Payload::Text { text: text.clone() }));
                    return self.show(text).await;
                }
                LlmReply::ToolCalls(calls) if round < MAX_TOOL_ROUNDS && !calls.is_empty() => {
                    round += 1;
                    call = calls.into_iter().next().unwrap_or(call);
                    self.done(Row::LlmAnswer, Some(tool_call(&call, round)));
                }
                LlmReply::ToolCalls(calls) => {
                    let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
                    let text = format!(
                        "Stopped after {MAX_TOOL_ROUNDS} tool rounds: the model still asked for {}.",
                        names.join(", ")
                    );
                    self.done(Row::LlmAnswer, Some(Payload::Text { text: text.clone() }));
                    return self.show(text).await;
                }
            }
        }
    }

    /// The rows of a tool call the user declined.
    pub(super) fn skip_declined(&self) {
        self.skip(
            &[
                Row::CallToolAsk,
                Row::CallTool,
                Row::Execute,
                Row::CallToolResult,
                Row::ResultToHost,
            ],
            SkipReason::Declined,
        );
        self.skip(&QUESTION_ROWS, SkipReason::Declined);
    }

    pub(super) async fn show(&self, text: String) -> Result<String, Stopped> {
        self.begin(Row::ShowAnswer).await;
        self.done(
            Row::ShowAnswer,
            Some(Payload::Answer { text: text.clone() }),
        );
        Ok(text)
    }

    /// Rows 6 to 9: the tool call through the MCP client, with the server's questions on the
    /// way (legacy: answered on the open stream; modern: input_required, then a retry).
    pub(super) async fn call_tool(
        &self,
        call: &ToolCall,
        round: u32,
    ) -> Result<(String, bool, Option<Value>), Stopped> {
        self.begin(Row::CallToolAsk).await;
        self.done(Row::CallToolAsk, Some(tool_call(call, round)));
        self.begin(Row::CallTool).await;
        let _calling = self.steps.calling();
        self.answers.new_call();
        self.sampling.new_call();
        let progress = Some(crate::record::progress::PROGRESS_TOKEN);
        let first = self
            .serving_sampling(
                self.client
                    .call(&call.name, call.arguments.clone(), progress, None),
            )
            .await;
        let mut outcome = match first {
            Ok(outcome) => outcome,
            Err(e) => return Err(self.no_result((Row::CallTool, None), e)),
        };
        // Legacy: the answers went out on the client's POSTs while the stream was open.
        let answered_on_stream = self.answers.take_reply_pending();
        if answered_on_stream {
            self.done(Row::ElicitReply, self.answers.last_answer());
        }
        let mut roots_given = self.roots.take_reply_pending();
        if let Some(roots) = &roots_given {
            self.done(Row::RootsReply, Some(roots.clone()));
        }
        if let Some(sampled) = self.sampling.take_reply_pending() {
            self.done(Row::SampleReply, Some(sampled));
        }
        let mut input_rounds = 0;
        let result = loop {
            match outcome {
                CallOutcome::Complete(result) => break result,
                CallOutcome::InputRequired(asked) => {
                    input_rounds += 1;
                    if input_rounds >= MAX_INPUT_ROUNDS {
                        return Err(self.fail(
                            Row::Elicit,
                            format!(
                                "the server answered input_required {MAX_INPUT_ROUNDS} times in \
                                 a row for one tools/call; stopped asking"
                            ),
                        ));
                    }
                    if input_rounds == 1 {
                        self.done(Row::CallTool, None);
                    }
                    // Error -32042: the pages first, then the same call again, with nothing
                    // added. What the server says while the user is away is heard from now on.
                    let pages = asked.url_required.then(|| {
                        let ids: Vec<String> =
                            asked.questions.iter().map(|q| q.0.clone()).collect();
                        (ids, self.client.tap())
                    });
                    let (retry, answered, roots, sampled) =
                        self.answer_questions(asked, input_rounds).await?;
                    // Not drawn in 2026-07-28: the roots and the model's answer go with the
                    // retry (ElicitReply).
                    if roots.is_some() {
                        self.steps.activate(Row::RootsReply);
                    }
                    if sampled.is_some() {
                        self.steps.activate(Row::SampleReply);
                    }
                    self.begin(Row::ElicitReply).await;
                    let retry = match pages {
                        Some((ids, heard)) => {
                            let code = self.legacy().await.map_err(|e| {
                                self.fail(
                                    Row::ElicitReply,
                                    e.into_message("waits for the server's page"),
                                )
                            })?;
                            (code.pages)(self, &retry, ids, heard).await?;
                            None
                        }
                        None => Some(retry),
                    };
                    let retried = self
                        .client
                        .call(&call.name, call.arguments.clone(), progress, retry)
                        .await;
                    outcome = match retried {
                        Ok(outcome) => outcome,
                        Err(e) => return Err(self.no_result((Row::ElicitReply, answered), e)),
                    };
                    self.done(
                        Row::ElicitReply,
                        answered
                            .or_else(|| roots.clone())
                            .or_else(|| sampled.clone()),
                    );
                    if let Some(sampled) = sampled {
                        self.done(Row::SampleReply, Some(sampled));
                    }
                    if let Some(roots) = roots {
                        self.done(Row::RootsReply, Some(roots.clone()));
                        roots_given = Some(roots);
                    }
                }
            }
        };
        if !answered_on_stream && input_rounds == 0 {
            self.skip(&FORM_ROWS, SkipReason::NoInputNeeded);
        }
        if roots_given.is_none() {
            self.skip(&ROOTS_ROWS, SkipReason::NoInputNeeded);
        }
        if !self.sampling.asked() {
            self.skip(&SAMPLING_ROWS, SkipReason::NoInputNeeded);
        }
        if input_rounds == 0 {
            self.done(Row::CallTool, None);
        }
        self.begin(Row::Execute).await;
        self.done(Row::Execute, None);
        self.begin(Row::CallToolResult).await;
        let payload = self.result_payload(&call.name, &result).await;
        self.done(Row::CallToolResult, Some(payload.clone()));
        self.begin(Row::ResultToHost).await;
        self.done(Row::ResultToHost, Some(payload));
        self.remember_call(
            &call.name,
            &call.arguments,
            &serde_json::to_value(&result).unwrap_or(Value::Null),
        );
        let is_error = result.is_error == Some(true);
        Ok((result_text(&result), is_error, result.structured_content))
    }

    /// A tool's result as its row shows it, checked against the tool's `outputSchema` when the
    /// page checks results.
    pub(super) async fn result_payload(&self, tool: &str, result: &CallToolResult) -> Payload {
        let is_error = result.is_error == Some(true);
        let structured = result.structured_content.clone();
        let checker = self.checker.borrow().clone();
        let output_check = match &checker {
            Some(checker) => {
                let schema = self.output_schemas.borrow().get(tool).cloned();
                check_result(checker, schema.as_ref(), structured.as_ref(), is_error).await
            }
            None => None,
        };
        Payload::ToolResult {
            text: result_text(result),
            is_error,
            structured,
            output_check,
        }
    }

    /// The request went out (or did not) and no valid result came back.
    fn no_result(&self, request: (Row, Option<Payload>), e: McpError) -> Stopped {
        let stopped = self.fail_pair(request, Row::CallToolResult, e);
        if stopped.row == Row::CallToolResult {
            if !self.answers.asked() {
                self.skip(&FORM_ROWS, SkipReason::NoValidResult);
            }
            self.skip(&ROOTS_ROWS, SkipReason::NoValidResult);
            if !self.sampling.asked() {
                self.skip(&SAMPLING_ROWS, SkipReason::NoValidResult);
            }
            self.skip(&[Row::Execute], SkipReason::NoValidResult);
        }
        stopped
    }

    /// Puts each of the server's questions to the user; the retry carries the answers and the
    /// state, exactly as the server sent it.
    async fn answer_questions(
        &self,
        asked: InputRequired,
        round: u32,
    ) -> Result<(Retry, Option<Payload>, Option<Payload>, Option<Payload>), Stopped> {
        let mut responses = Map::new();
        let mut answered = None;
        let mut roots = None;
        let mut sampled = None;
        for (key, question) in asked.questions {
            match question {
                Question::Form(params) => {
                    let answer = ask_user(
                        &self.steps,
                        &self.answers,
                        &params,
                        asked.state.clone(),
                        round,
                    )
                    .await;
                    answered = Some(answer_payload(&answer));
                    responses.insert(key, serde_json::to_value(&answer).unwrap_or(Value::Null));
                }
                Question::Roots => {
                    let (listed, withheld) = self.roots.given(&self.steps).await;
                    let given = self.roots.asked(&listed, withheld, asked.state.clone());
                    self.begin(Row::Roots).await;
                    self.done(Row::Roots, Some(given.clone()));
                    let list = mcp_flow_client::roots::list_result(&listed);
                    responses.insert(key, list);
                    roots = Some(given);
                }
                Question::Sampling(request) => {
                    match self.sample_rows(Ok(request), asked.state.clone()).await {
                        Ok(answer) => {
                            responses.insert(key, answer.result());
                            sampled = Some(Payload::Sampled {
                                text: answer.text,
                                model: answer.model,
                                verdict: "sent".into(),
                            });
                        }
                        Err(why) => return Err(self.not_retried(&key, &why)),
                    }
                }
                Question::Invalid { method, why } => {
                    let why = format!("{method}: {why}");
                    let _ = self
                        .sample_rows(Err(why.clone()), asked.state.clone())
                        .await;
                    return Err(self.not_retried(&key, &why));
                }
                Question::Unsupported { method } => {
                    return Err(self.fail(
                        Row::Elicit,
                        format!(
                            "the server asked for {method} (input {key:?}), which this client \
                             did not declare it can do; a server must not ask for it"
                        ),
                    ));
                }
            }
        }
        if answered.is_none() {
            // No form for the user: only the roots or the model, or only a state to echo (the
            // server shed load).
            let message = if sampled.is_some() {
                "(no form for the user: the server asked for the client's model)"
            } else if roots.is_some() {
                "(no question for the user: the server asked for the client's roots)"
            } else {
                "(no question: the server only asked to be called again)"
            };
            self.begin(Row::Elicit).await;
            self.done(
                Row::Elicit,
                Some(Payload::Form {
                    message: message.into(),
                    schema: Value::Null,
                    state: asked.state.clone(),
                    round,
                }),
            );
            self.skip(
                &[Row::ElicitAsk, Row::ElicitAnswer],
                SkipReason::NoInputNeeded,
            );
        }
        Ok((
            Retry {
                responses,
                state: asked.state,
            },
            answered,
            roots,
            sampled,
        ))
    }

    /// 2026-07-28 has no error answer for an input request: a client that will not answer does
    /// not retry (basic/patterns/mrtr), and the call ends at the retry's row, saying why.
    fn not_retried(&self, key: &str, why: &str) -> Stopped {
        self.skip(&[Row::SampleReply], SkipReason::CannotSample);
        self.fail(
            Row::ElicitReply,
            format!(
                "not retried: the server's input {key:?} got no answer ({why}); in 2026-07-28 a \
                 client that will not answer an input request does not call again"
            ),
        )
    }
}

fn tool_call(call: &ToolCall, round: u32) -> Payload {
    Payload::ToolCall {
        tool: call.name.clone(),
        arguments: call.arguments.clone(),
        round,
    }
}
