//! The App diagram, done for real: the host reads the app of the tool the model called, renders
//! it through the page's frame and talks with it until the frame is gone. What the host sends
//! passes the gate (Step mode holds it); what the app sends is the app's turn. Every message
//! goes into the record ([`AppPost`]) at its row.

use std::rc::Rc;

use futures_util::future::{Either, select};
use serde_json::{Value, json};

use super::approval::AppCallConsent;
use super::forms::web_page;
use super::host::{Host, Stopped};
pub use crate::app::called::CalledTool;
use crate::app::context::{HostFacts, initialize_result};
use crate::app::frame::{Frame, FrameEvent};
use crate::app::guard::{Flood, Inbound, PER_SECOND, frame_height};
use crate::app::policy::{INNER_SANDBOX, allow, is_plain_source, policy, with_policy};
use crate::app::resource::AppResource;
use crate::diagram::Row;
use crate::llm::Llm;
use crate::record::payload::Payload;
use crate::record::run::{AppPost, RunEvent};
use mcp_flow_client::apps::Visibility;
use mcp_flow_client::error::clip;
use mcp_flow_client::http::Http;
use mcp_flow_client::tools::result_text;

/// How long the host waits for the proxy to be ready and for the app to initialize.
pub const APP_WAIT_MS: u32 = 10_000;
/// How long the host waits for the app to answer `ui/resource-teardown`.
pub const TEARDOWN_WAIT_MS: u32 = 2_000;
/// JSON-RPC's code for a request the host refuses (the extension's examples use it).
const REFUSED: i64 = -32000;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const TEARDOWN_ID: &str = "mcp-flow-teardown";
/// The proxy's notice that the app's frame was navigated (or tried to be) and is gone.
const NAVIGATED: &str = "ui/notifications/sandbox-app-navigated";

fn app(method: &str, detail: impl Into<String>, count: u32) -> Option<Payload> {
    Some(Payload::App {
        method: method.to_owned(),
        detail: detail.into(),
        count,
    })
}

/// An app's request to the server in a line: the tool (with its arguments, when `arguments`) or
/// the URI.
fn asked(method: &str, params: &Value, arguments: bool) -> String {
    let text = |key: &str| params.get(key).and_then(Value::as_str).unwrap_or("?");
    match method {
        "tools/call" if arguments => {
            let given = params.get("arguments").cloned().unwrap_or(Value::Null);
            format!(
                "tools/call {} {}",
                text("name"),
                clip(&given.to_string(), 80)
            )
        }
        "tools/call" => format!("tools/call {}", text("name")),
        _ => format!("resources/read {}", text("uri")),
    }
}

fn answer(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

/// How often each repeated row happened so far.
#[derive(Default)]
struct Counts {
    size: u32,
    calls: u32,
    logs: u32,
}

/// One app's conversation with the host.
struct Talk<'a, H: Http, L: Llm> {
    host: &'a Host<H, L>,
    frame: Rc<dyn Frame>,
    called: &'a CalledTool,
    app: &'a AppResource,
    flood: Flood,
    initialized: bool,
    /// The app sent `ui/initialize`.
    introduced: bool,
    /// The app answered `ui/resource-teardown`.
    torn_down: bool,
    facts: HostFacts,
    counts: Counts,
}

impl<H: Http + 'static, L: Llm + 'static> Host<H, L> {
    /// Remembers the tool call just made, for its app.
    pub(super) fn remember_call(&self, name: &str, arguments: &Value, result: &Value) {
        let tool = self
            .tool_defs
            .borrow()
            .iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
            .cloned();
        *self.last_call.borrow_mut() = tool.map(|tool| CalledTool {
            tool,
            arguments: arguments.clone(),
            result: result.clone(),
        });
    }

    /// The last tool call, when its tool has an app and this host renders apps.
    pub fn app_call(&self) -> Option<CalledTool> {
        let called = self.last_call.borrow().clone()?;
        (self.client.hosts_apps() && called.app_uri().is_some()).then_some(called)
    }

    /// What the app asked the model to know for its next turn (`ui/update-model-context`).
    pub fn app_context(&self) -> Option<String> {
        self.model_context.borrow().clone()
    }

    /// Rows app-1 and app-2: the app's resource, read from the server.
    async fn read_app(&self, called: &CalledTool) -> Result<AppResource, Stopped> {
        let uri = called.app_uri().unwrap_or_default().to_owned();
        self.begin(Row::AppRead).await;
        let result = match self.client.read_resource(&uri).await {
            Ok(result) => result,
            Err(e) => return Err(self.fail_pair((Row::AppRead, None), Row::AppReadResult, e)),
        };
        self.done(Row::AppRead, app("resources/read", uri.clone(), 1));
        self.begin(Row::AppReadResult).await;
        let app_resource = AppResource::read(&uri, &result, None)
            .map_err(|e| self.fail(Row::AppReadResult, format!("{uri}: {e}")))?;
        let domains = &app_resource.csp;
        let reach = if domains.declared {
            format!(
                "may reach {:?}, load from {:?}",
                domains.connect, domains.resource
            )
        } else {
            "declares no domains: no network at all".to_owned()
        };
        self.done(
            Row::AppReadResult,
            app(
                "resources/read",
                format!("{} bytes of HTML; {reach}", app_resource.html.len()),
                1,
            ),
        );
        Ok(app_resource)
    }

    /// The App diagram for `called`: reads its app, renders it in `frame` and talks with it
    /// until the frame is gone (or the app has answered its teardown).
    pub async fn host_app(&self, called: &CalledTool, frame: Rc<dyn Frame>) -> Result<(), Stopped> {
        let app_resource = self.read_app(called).await?;
        let mut talk = Talk {
            host: self,
            facts: frame.facts(),
            frame,
            called,
            app: &app_resource,
            flood: Flood::default(),
            initialized: false,
            introduced: false,
            torn_down: false,
            counts: Counts::default(),
        };
        talk.render().await?;
        talk.converse().await
    }

    /// Forwards the app's request to the server: rows app-11 and app-12.
    async fn forward(&self, method: &str, params: &Value) -> Result<Value, String> {
        let detail = asked(method, params, true);
        self.begin(Row::AppForward).await;
        let answered = match method {
            "tools/call" => {
                let name = params.get("name").and_then(Value::as_str).unwrap_or("");
                let arguments = params.get("arguments").cloned().unwrap_or(Value::Null);
                self.client
                    .call_tool(name, arguments, None)
                    .await
                    .map(|r| serde_json::to_value(r).unwrap_or(Value::Null))
            }
            _ => {
                let uri = params.get("uri").and_then(Value::as_str).unwrap_or("");
                self.client.read_resource(uri).await
            }
        };
        match answered {
            Ok(result) => {
                self.done(Row::AppForward, app(method, detail, 1));
                self.begin(Row::AppForwardResult).await;
                let said = match serde_json::from_value(result.clone()) {
                    Ok(call) if method == "tools/call" => clip(&result_text(&call), 120),
                    _ => clip(&result.to_string(), 120),
                };
                self.done(Row::AppForwardResult, app(method, said, 1));
                Ok(result)
            }
            Err(e) => {
                let why = e.to_string();
                let _ = self.fail_pair((Row::AppForward, None), Row::AppForwardResult, e);
                Err(why)
            }
        }
    }
}

impl<H: Http + 'static, L: Llm + 'static> Talk<'_, H, L> {
    fn now(&self) -> f64 {
        self.host.steps.now_ms()
    }

    fn record(&self, row: Option<Row>, to_app: bool, message: Value, refused: Option<String>) {
        self.host.record(RunEvent::App(Box::new(AppPost {
            at_ms: self.now(),
            row,
            to_app,
            message,
            refused,
        })));
    }

    fn send(&self, row: Option<Row>, message: Value) {
        self.record(row, true, message.clone(), None);
        self.frame.post(message);
    }

    /// The next event, or `None` when the frame is gone or `wait_ms` passed (`Some(None)`).
    async fn next(&self, wait_ms: Option<u32>) -> Option<Option<FrameEvent>> {
        let next = self.frame.next();
        match wait_ms {
            None => Some(next.await),
            Some(ms) => match select(next, self.host.steps.clock.sleep(ms)).await {
                Either::Left((event, _)) => Some(event),
                Either::Right(_) => None,
            },
        }
    }

    /// Row app-3: waits for the proxy, then hands it the app's HTML with its policy.
    async fn render(&mut self) -> Result<(), Stopped> {
        self.host.begin(Row::AppRender).await;
        let deadline = self.now() + f64::from(APP_WAIT_MS);
        loop {
            let left = (deadline - self.now()).max(0.0) as u32;
            match self.next(Some(left)).await {
                None => {
                    return Err(self.host.fail(
                        Row::AppRender,
                        format!(
                            "the sandbox proxy did not say it was ready within {} s",
                            APP_WAIT_MS / 1000
                        ),
                    ));
                }
                Some(None) => {
                    return Err(self
                        .host
                        .fail(Row::AppRender, "the app's frame was removed".into()));
                }
                Some(Some(FrameEvent::Message { message, .. }))
                    if message.get("method").and_then(Value::as_str)
                        == Some("ui/notifications/sandbox-proxy-ready") =>
                {
                    self.record(Some(Row::AppRender), false, message, None);
                    break;
                }
                // Gone before it was drawn: nothing to tear down.
                Some(Some(FrameEvent::Closing(why))) => {
                    return Err(self.host.fail(Row::AppRender, why));
                }
                // Nothing else can come before the proxy is ready.
                Some(Some(_)) => {}
            }
        }
        let policy = policy(&self.app.csp);
        let html = with_policy(&self.app.html, &policy.text);
        let mut params = json!({
            "html": html,
            "sandbox": INNER_SANDBOX,
            "allow": allow(&self.app.permissions),
        });
        if self.app.csp.declared {
            // Only plain sources: the proxy builds its own `frame-src` from the frame domains.
            let plain = |list: &[String]| -> Vec<String> {
                list.iter()
                    .filter(|d| is_plain_source(d))
                    .cloned()
                    .collect()
            };
            params["csp"] = json!({
                "connectDomains": plain(&self.app.csp.connect),
                "resourceDomains": plain(&self.app.csp.resource),
                "frameDomains": plain(&self.app.csp.frame),
                "baseUriDomains": plain(&self.app.csp.base_uri),
            });
        }
        let message = json!({
            "jsonrpc": "2.0",
            "method": "ui/notifications/sandbox-resource-ready",
            "params": params,
        });
        // The record keeps the policy, not the whole document again.
        let mut kept = message.clone();
        kept["params"]["html"] = json!(format!("[{} bytes of HTML, the policy first]", html.len()));
        self.record(Some(Row::AppRender), true, kept, None);
        self.frame.post(message);
        let mut detail = format!("policy: {}", policy.text);
        if !policy.refused.is_empty() {
            detail.push_str(&format!(
                "; left out (not a plain source): {:?}",
                policy.refused
            ));
        }
        self.host.done(
            Row::AppRender,
            app("ui/notifications/sandbox-resource-ready", detail, 1),
        );
        Ok(())
    }

    /// Everything after the render, until the frame is gone or the app answered its teardown.
    async fn converse(&mut self) -> Result<(), Stopped> {
        let mut init_deadline = Some(self.now() + f64::from(APP_WAIT_MS));
        let mut teardown_deadline: Option<f64> = None;
        loop {
            let deadline = teardown_deadline.or(init_deadline);
            let wait = deadline.map(|d| (d - self.now()).max(0.0) as u32);
            let event = match self.next(wait).await {
                Some(Some(event)) => event,
                Some(None) => return Ok(()),
                None if teardown_deadline.is_some() => {
                    let _ = self.host.fail(
                        Row::AppTornDown,
                        format!(
                            "the app did not answer within {} s; removed anyway",
                            TEARDOWN_WAIT_MS / 1000
                        ),
                    );
                    return Ok(());
                }
                None => {
                    init_deadline = None;
                    let (row, what) = if !self.introduced {
                        (Row::AppInitialize, "ui/initialize")
                    } else {
                        (Row::AppInitialized, "ui/notifications/initialized")
                    };
                    let _ = self.host.fail(
                        row,
                        format!(
                            "the app did not send {what} within {} s: the host sends it nothing",
                            APP_WAIT_MS / 1000
                        ),
                    );
                    continue;
                }
            };
            match event {
                // The proxy's own notice, which no flood may hold back: the app is gone.
                FrameEvent::Message { message, .. }
                    if message.get("method").and_then(Value::as_str) == Some(NAVIGATED) =>
                {
                    let why = message
                        .pointer("/params/reason")
                        .and_then(Value::as_str)
                        .unwrap_or("the app's frame was navigated");
                    self.record(Some(Row::AppTornDown), false, message.clone(), None);
                    let _ = self.host.fail(
                        Row::AppTornDown,
                        format!(
                            "{}: the sandbox removed the app; nothing more is sent to it or read from it",
                            clip(why, 200)
                        ),
                    );
                    return Ok(());
                }
                FrameEvent::Message { at_ms, message } => {
                    if !self.flood.admit(at_ms) {
                        if self.flood.dropped() == 1 {
                            self.record(
                                None,
                                false,
                                Value::Null,
                                Some(format!(
                                    "dropping messages: more than {PER_SECOND} a second"
                                )),
                            );
                        }
                        continue;
                    }
                    let dropped = self.flood.take_dropped();
                    if dropped > 0 {
                        self.record(
                            None,
                            false,
                            Value::Null,
                            Some(format!(
                                "{dropped} message(s) dropped: more than {PER_SECOND} a second"
                            )),
                        );
                    }
                    if self.take(message).await {
                        init_deadline = None;
                    }
                }
                FrameEvent::Unreadable { why, .. } => {
                    self.record(None, false, Value::Null, Some(why));
                }
                FrameEvent::ContextChanged => self.context_changed().await,
                FrameEvent::Closing(reason) => {
                    if !self.initialized {
                        return Ok(());
                    }
                    self.host.begin(Row::AppTeardown).await;
                    self.send(
                        Some(Row::AppTeardown),
                        json!({"jsonrpc": "2.0", "id": TEARDOWN_ID, "method": "ui/resource-teardown", "params": {"reason": reason}}),
                    );
                    self.host
                        .done(Row::AppTeardown, app("ui/resource-teardown", reason, 1));
                    self.host.steps.activate(Row::AppTornDown);
                    teardown_deadline = Some(self.now() + f64::from(TEARDOWN_WAIT_MS));
                }
            }
            if self.torn_down {
                return Ok(());
            }
        }
    }

    /// One message from the app. Returns whether the app is now initialized.
    async fn take(&mut self, message: Value) -> bool {
        let inbound = match Inbound::read(&message) {
            Ok(inbound) => inbound,
            Err(malformed) => {
                let why = format!("malformed: {}", malformed.why);
                self.record(None, false, message, Some(why.clone()));
                if let Some(id) = malformed.id {
                    self.send(None, error(&id, INVALID_REQUEST, &why));
                }
                return false;
            }
        };
        match inbound {
            Inbound::Request { id, method, params } => self.request(id, &method, params).await,
            Inbound::Notification { method, params } => {
                self.notification(&method, params, message).await
            }
            Inbound::Response { id, result } => {
                let torn_down = id == json!(TEARDOWN_ID);
                let row = torn_down.then_some(Row::AppTornDown);
                self.record(row, false, message, None);
                if torn_down {
                    self.torn_down = true;
                    let said = match result {
                        Ok(_) => "done".to_owned(),
                        Err(e) => format!("an error: {e}"),
                    };
                    self.host
                        .done(Row::AppTornDown, app("ui/resource-teardown", said, 1));
                }
                false
            }
        }
    }

    fn refuse(&self, row: Option<Row>, id: &Value, message: Value, code: i64, why: String) {
        self.record(row, false, message, Some(why.clone()));
        if let Some(row) = row {
            let _ = self.host.fail(row, why.clone());
        }
        self.send(row, error(id, code, &why));
    }

    async fn request(&mut self, id: Value, method: &str, params: Value) -> bool {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        match method {
            "ui/initialize" => {
                self.introduced = true;
                self.host.steps.activate(Row::AppInitialize);
                self.record(Some(Row::AppInitialize), false, message, None);
                let who = format!(
                    "{} {} asks for {}",
                    params
                        .pointer("/appInfo/name")
                        .and_then(Value::as_str)
                        .unwrap_or("?"),
                    params
                        .pointer("/appInfo/version")
                        .and_then(Value::as_str)
                        .unwrap_or("?"),
                    params
                        .get("protocolVersion")
                        .and_then(Value::as_str)
                        .unwrap_or("no version"),
                );
                self.host.done(Row::AppInitialize, app(method, who, 1));
                self.host.begin(Row::AppInitializeResult).await;
                let call_id = None;
                let context = self.facts.context(&self.called.tool, call_id);
                let result = initialize_result(self.app, context);
                self.send(Some(Row::AppInitializeResult), answer(&id, result));
                let theme = if self.facts.dark { "dark" } else { "light" };
                self.host.done(
                    Row::AppInitializeResult,
                    app(
                        method,
                        format!(
                            "mcp-flow, theme {theme}, locale {}, {} px wide",
                            self.facts.locale, self.facts.width
                        ),
                        1,
                    ),
                );
                false
            }
            "ping" => {
                self.record(None, false, message, None);
                self.send(None, answer(&id, json!({})));
                false
            }
            _ if !self.initialized => {
                let why = format!(
                    "{method} before ui/notifications/initialized: the host answers nothing else first"
                );
                self.refuse(None, &id, message, REFUSED, why);
                false
            }
            "tools/call" | "resources/read" => {
                self.app_request(id, method, params, message).await;
                false
            }
            "ui/message" => {
                self.host.steps.activate(Row::AppMessage);
                self.record(Some(Row::AppMessage), false, message.clone(), None);
                // One content block (the spec) or a list of them (the SDK's `sendMessage`).
                let text = params
                    .pointer("/content/text")
                    .or_else(|| params.pointer("/content/0/text"))
                    .and_then(Value::as_str);
                match text.filter(|t| !t.trim().is_empty()) {
                    // Sent only on the user's yes: an app never starts a turn by itself.
                    Some(text) if self.frame.ask(text.to_owned()).await => {
                        self.send(Some(Row::AppMessage), answer(&id, json!({})));
                        self.host
                            .done(Row::AppMessage, app(method, clip(text, 120), 1));
                    }
                    Some(text) => {
                        self.send(
                            Some(Row::AppMessage),
                            error(&id, REFUSED, "Message sending denied by user"),
                        );
                        self.host.done(
                            Row::AppMessage,
                            app(
                                method,
                                format!("not sent (the user said no): {}", clip(text, 100)),
                                1,
                            ),
                        );
                    }
                    None => self.refuse(
                        Some(Row::AppMessage),
                        &id,
                        message,
                        REFUSED,
                        "Invalid message format: content.text is missing".into(),
                    ),
                }
                false
            }
            "ui/update-model-context" => {
                self.host.steps.activate(Row::AppModelContext);
                self.record(Some(Row::AppModelContext), false, message, None);
                let text: Vec<String> = params
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|c| c.get("text").and_then(Value::as_str))
                    .map(str::to_owned)
                    .chain(params.get("structuredContent").map(Value::to_string))
                    .collect();
                let kept = text.join("\n");
                *self.host.model_context.borrow_mut() =
                    (!kept.is_empty()).then(|| clip(&kept, 4000));
                self.send(Some(Row::AppModelContext), answer(&id, json!({})));
                self.host
                    .done(Row::AppModelContext, app(method, clip(&kept, 120), 1));
                false
            }
            "ui/open-link" => {
                self.open_link(id, params, message).await;
                false
            }
            "ui/request-display-mode" => {
                self.record(None, false, message, None);
                self.send(None, answer(&id, json!({"mode": "inline"})));
                false
            }
            _ => {
                self.refuse(
                    None,
                    &id,
                    message,
                    METHOD_NOT_FOUND,
                    format!("Method not found: {method}"),
                );
                false
            }
        }
    }

    async fn app_request(&mut self, id: Value, method: &str, params: Value, message: Value) {
        self.counts.calls += 1;
        let count = self.counts.calls;
        self.host.steps.activate(Row::AppCall);
        if method == "tools/call" {
            let name = params.get("name").and_then(Value::as_str).unwrap_or("");
            let tool = self
                .host
                .tool_defs
                .borrow()
                .iter()
                .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
                .cloned();
            let refused = match tool {
                None => Some(format!("{name:?} is not a tool of this server")),
                Some(tool) if !Visibility::of(&tool).app => Some(format!(
                    "{name} is not marked for apps (its _meta.ui.visibility leaves out \"app\")"
                )),
                Some(_) => None,
            };
            if let Some(why) = refused {
                self.refuse(Some(Row::AppCall), &id, message, REFUSED, why);
                return;
            }
        }
        // The same consent as the model's call, the app named.
        let allowed = match method {
            "tools/call" => {
                let name = params.get("name").and_then(Value::as_str).unwrap_or("");
                let arguments = params.get("arguments").cloned().unwrap_or(Value::Null);
                let uri = self.called.app_uri().unwrap_or_default();
                match self.host.approve_app_call(uri, name, &arguments).await {
                    AppCallConsent::Allowed(how) => Some(how),
                    AppCallConsent::Declined => {
                        let why = format!("the user declined to run {name}: nothing sent");
                        self.refuse(Some(Row::AppCall), &id, message, REFUSED, why);
                        return;
                    }
                }
            }
            _ => None,
        };
        self.record(Some(Row::AppCall), false, message, None);
        let mut said = asked(method, &params, false);
        if let Some(how) = allowed {
            said.push_str(&format!(" ({how})"));
        }
        self.host.done(Row::AppCall, app(method, said, count));
        let forwarded = self.host.forward(method, &params).await;
        self.host.begin(Row::AppCallResult).await;
        match forwarded {
            Ok(result) => {
                let said = clip(&result.to_string(), 120);
                self.send(Some(Row::AppCallResult), answer(&id, result));
                self.host.done(Row::AppCallResult, app(method, said, count));
            }
            Err(why) => {
                self.send(Some(Row::AppCallResult), error(&id, REFUSED, &why));
                let _ = self.host.fail(Row::AppCallResult, why);
            }
        }
    }

    async fn open_link(&mut self, id: Value, params: Value, message: Value) {
        self.host.steps.activate(Row::AppLink);
        let url = params.get("url").and_then(Value::as_str).unwrap_or("");
        // The same rule as a server's URL elicitation: a web page with a host, no credentials.
        let link = match web_page(url) {
            Ok(page) => page.url,
            Err(why) => {
                let why = format!("{}: {why}", clip(url, 80));
                self.refuse(
                    Some(Row::AppLink),
                    &id,
                    message,
                    REFUSED,
                    format!("Invalid URL {why}"),
                );
                return;
            }
        };
        self.record(Some(Row::AppLink), false, message, None);
        self.host
            .done(Row::AppLink, app("ui/open-link", link.clone(), 1));
        self.host.steps.activate(Row::AppLinkConsent);
        let opened = self.frame.open_link(link.clone()).await;
        if opened {
            self.send(Some(Row::AppLinkConsent), answer(&id, json!({})));
            self.host.done(
                Row::AppLinkConsent,
                app("ui/open-link", format!("opened {link}"), 1),
            );
        } else {
            self.send(
                Some(Row::AppLinkConsent),
                error(&id, REFUSED, "Link opening denied by user"),
            );
            self.host
                .done(Row::AppLinkConsent, app("ui/open-link", "not opened", 1));
        }
    }

    /// A notification from the app. Returns whether the app is now initialized.
    async fn notification(&mut self, method: &str, params: Value, message: Value) -> bool {
        match method {
            "ui/notifications/initialized" => {
                self.host.steps.activate(Row::AppInitialized);
                self.record(Some(Row::AppInitialized), false, message, None);
                self.host.done(Row::AppInitialized, app(method, "ready", 1));
                if self.initialized {
                    return true;
                }
                self.initialized = true;
                self.host.begin(Row::AppToolInput).await;
                let arguments = self.called.arguments.clone();
                self.send(
                    Some(Row::AppToolInput),
                    json!({"jsonrpc": "2.0", "method": "ui/notifications/tool-input", "params": {"arguments": arguments}}),
                );
                self.host.done(
                    Row::AppToolInput,
                    app(
                        "ui/notifications/tool-input",
                        clip(&arguments.to_string(), 120),
                        1,
                    ),
                );
                self.host.begin(Row::AppToolResult).await;
                let result = self.called.result.clone();
                let said = serde_json::from_value(result.clone())
                    .map(|r| clip(&result_text(&r), 120))
                    .unwrap_or_default();
                self.send(
                    Some(Row::AppToolResult),
                    json!({"jsonrpc": "2.0", "method": "ui/notifications/tool-result", "params": result}),
                );
                self.host.done(
                    Row::AppToolResult,
                    app("ui/notifications/tool-result", said, 1),
                );
                true
            }
            "ui/notifications/size-changed" => {
                self.counts.size += 1;
                self.host.steps.activate(Row::AppSize);
                let asked = params.get("height").cloned().unwrap_or(Value::Null);
                match frame_height(&asked) {
                    Some(height) => {
                        self.record(Some(Row::AppSize), false, message, None);
                        self.frame.resize(height);
                        let detail = if asked.as_f64().is_some_and(|h| h.ceil() as u32 != height) {
                            format!("{height} px (it asked for {asked})")
                        } else {
                            format!("{height} px")
                        };
                        self.host
                            .done(Row::AppSize, app(method, detail, self.counts.size));
                    }
                    None => {
                        let why = format!("height {asked} is not a size");
                        self.record(Some(Row::AppSize), false, message, Some(why.clone()));
                        let _ = self.host.fail(Row::AppSize, why);
                    }
                }
                false
            }
            "notifications/message" => {
                self.counts.logs += 1;
                self.host.steps.activate(Row::AppLog);
                self.record(Some(Row::AppLog), false, message.clone(), None);
                let line = params.get("data").map(|d| match d {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                });
                self.host.record(RunEvent::Notification(message));
                self.host.done(
                    Row::AppLog,
                    app(
                        method,
                        clip(&line.unwrap_or_default(), 120),
                        self.counts.logs,
                    ),
                );
                false
            }
            _ => {
                self.record(
                    None,
                    false,
                    message,
                    Some(format!("{method}: not a notification this host reads")),
                );
                false
            }
        }
    }

    async fn context_changed(&mut self) {
        let now = self.frame.facts();
        let changes = self.facts.changes(&now);
        self.facts = now;
        let (Some(changes), true) = (changes, self.initialized) else {
            return;
        };
        self.host.begin(Row::AppContextChanged).await;
        let said: Vec<&str> = changes
            .as_object()
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let said = said.join(", ");
        self.send(
            Some(Row::AppContextChanged),
            json!({"jsonrpc": "2.0", "method": "ui/notifications/host-context-changed", "params": changes}),
        );
        self.host.done(
            Row::AppContextChanged,
            app("ui/notifications/host-context-changed", said, 1),
        );
    }
}
