//! The server's questions to the user (elicitation), as rows: the server asks, the host puts it
//! to the user as a form, the user answers. The same rows serve both eras: in the legacy era the
//! question is an `elicitation/create` request on the open tools/call stream; in the modern era
//! it is an `input_required` result, and the answer goes back in a retried tools/call.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures_channel::oneshot;
use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use serde_json::Value;

use super::steps::{Consent, FormRequest, HostEvent, Steps, UrlToOpen};
use crate::diagram::Row;
use crate::record::payload::Payload;

/// The rows of a form the server asks: the question, the form shown, the answer, the reply.
pub const FORM_ROWS: [Row; 4] = [
    Row::Elicit,
    Row::ElicitAsk,
    Row::ElicitAnswer,
    Row::ElicitReply,
];

/// The user's pending answers: to "Execute tool?" and to the server's form.
#[derive(Default)]
pub struct Answers {
    approval: RefCell<Option<oneshot::Sender<Consent>>>,
    /// The (app, tool) pairs the user allowed for the rest of the run.
    allowed: RefCell<Vec<(String, String)>>,
    form: RefCell<Option<oneshot::Sender<ElicitResult>>>,
    /// A legacy answer was handed to the client to POST; its row is done when the call ends.
    reply_pending: Cell<bool>,
    /// The user's last answer to a form, as the reply row carries it.
    last: RefCell<Option<Payload>>,
    /// A form was put to the user since [`Answers::new_call`].
    asked: Cell<bool>,
}

impl Answers {
    /// Waits for the user's answer to a tool call.
    pub fn await_approval(&self) -> oneshot::Receiver<Consent> {
        let (tx, rx) = oneshot::channel();
        *self.approval.borrow_mut() = Some(tx);
        rx
    }

    /// The user's answer to "Execute tool?".
    pub fn decide(&self, consent: Consent) {
        if let Some(tx) = self.approval.borrow_mut().take() {
            let _ = tx.send(consent);
        }
    }

    /// The user allowed `app`'s calls of `tool` for the rest of the run.
    pub fn allow_for_run(&self, app: &str, tool: &str) {
        let mut allowed = self.allowed.borrow_mut();
        if !allowed.iter().any(|(a, t)| a == app && t == tool) {
            allowed.push((app.to_owned(), tool.to_owned()));
        }
    }

    /// Whether the user allowed `app`'s calls of `tool` for the rest of the run.
    pub fn allowed_for_run(&self, app: &str, tool: &str) -> bool {
        self.allowed
            .borrow()
            .iter()
            .any(|(a, t)| a == app && t == tool)
    }

    /// The user's answer to the server's form.
    pub fn answer_form(&self, answer: ElicitResult) {
        if let Some(tx) = self.form.borrow_mut().take() {
            let _ = tx.send(answer);
        }
    }

    /// Waits for the user's answer to a form (or to the wait for a page).
    pub fn await_form(&self) -> oneshot::Receiver<ElicitResult> {
        let (tx, rx) = oneshot::channel();
        *self.form.borrow_mut() = Some(tx);
        rx
    }

    /// Whether a legacy answer went out whose row still waits to be marked done.
    pub fn take_reply_pending(&self) -> bool {
        self.reply_pending.replace(false)
    }

    /// A tool call begins: no form asked in it yet.
    pub fn new_call(&self) {
        self.asked.set(false);
    }

    /// Whether a form was put to the user in this call.
    pub fn asked(&self) -> bool {
        self.asked.get()
    }

    /// The user's last answer to a form.
    pub fn last_answer(&self) -> Option<Payload> {
        self.last.borrow().clone()
    }
}

/// The action as its wire word.
pub fn action_word(action: &ElicitationAction) -> String {
    serde_json::to_value(action)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

/// The answer as the reply rows carry it.
pub fn answer_payload(answer: &ElicitResult) -> Payload {
    Payload::FormAnswer {
        action: action_word(&answer.action),
        content: answer.content.clone(),
    }
}

/// A web page the user may be asked to open: the URL as a browser reads it (a backslash before
/// the query is a slash to a browser, so it is one here too; scheme and host lowercased), and its
/// origin, which is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebPage {
    pub url: String,
    pub origin: String,
}

/// A URL-mode elicitation's page (or an app's link), or why it is not opened: only an absolute
/// `http:` or `https:` URL with a plain host (no `javascript:`, `data:`, `file:`, no
/// credentials, no host that a browser would read as another: percent-escapes, letters beyond
/// ASCII, an IPv4 address not written the usual way).
pub fn web_page(url: &str) -> Result<WebPage, String> {
    let (scheme, rest) = url
        .split_once("://")
        .filter(|(scheme, _)| {
            scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")
        })
        .ok_or_else(|| {
            let scheme = url.split(':').next().unwrap_or_default();
            format!("only http: and https: pages are opened, not {scheme}:")
        })?;
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("the URL has spaces or control characters in it".into());
    }
    // Before the query, a browser reads `\` as `/`.
    let cut = rest.find(['?', '#']).unwrap_or(rest.len());
    let rest = format!("{}{}", rest[..cut].replace('\\', "/"), &rest[cut..]);
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    if authority.is_empty() {
        return Err("the URL has no host".into());
    }
    if authority.contains('@') {
        return Err("the URL carries a user name or password".into());
    }
    if authority.contains('%') || !authority.is_ascii() {
        return Err(
            "the URL's host is escaped or has letters beyond ASCII: a browser would show another"
                .into(),
        );
    }
    let host = authority.rsplit_once(':').map_or(authority, |(h, _)| h);
    let last = host.trim_end_matches('.').rsplit('.').next().unwrap_or("");
    let numeric = !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit())
        || last.to_ascii_lowercase().starts_with("0x");
    if numeric && !host.starts_with('[') && host.parse::<std::net::Ipv4Addr>().is_err() {
        return Err("the URL's host is an address not written the usual way".into());
    }
    let origin = format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        authority.to_ascii_lowercase()
    );
    Ok(WebPage {
        url: format!("{origin}{tail}"),
        origin,
    })
}

/// Rows Elicit, ElicitAsk and ElicitAnswer: records the server's question, puts the form (or, in
/// URL mode, the page to open) to the user and waits for the answer. A URL that is not an http(s)
/// page, or a kind of question this client does not know, is declined, and the row says so.
pub async fn ask_user(
    steps: &Steps,
    answers: &Answers,
    question: &ElicitRequestParams,
    state: Option<String>,
    round: u32,
) -> ElicitResult {
    let (message, schema) = match question {
        ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => (
            message.clone(),
            serde_json::to_value(requested_schema).unwrap_or(Value::Null),
        ),
        ElicitRequestParams::UrlElicitationParams { message, url, .. } => {
            return match web_page(url) {
                Ok(WebPage { url, origin }) => {
                    let page = UrlToOpen { url, origin };
                    ask(
                        steps,
                        answers,
                        message.clone(),
                        Value::Null,
                        Some(page),
                        state,
                        round,
                    )
                    .await
                }
                Err(why) => {
                    let message = format!("{message} (a URL, declined unopened: {why}: {url})");
                    ask(steps, answers, message, Value::Null, None, state, round).await
                }
            };
        }
        // rmcp's list is open (non_exhaustive): a kind added later.
        _ => (
            "(a kind of question this client does not know)".into(),
            Value::Null,
        ),
    };
    ask(steps, answers, message, schema, None, state, round).await
}

/// Rows Elicit, ElicitAsk and ElicitAnswer for `message`: the form of `schema` (or the page `url`)
/// put to the user, or declined when there is neither.
async fn ask(
    steps: &Steps,
    answers: &Answers,
    message: String,
    schema: Value,
    url: Option<UrlToOpen>,
    state: Option<String>,
    round: u32,
) -> ElicitResult {
    let shown = match &url {
        Some(page) => format!("{message} (opens {} on consent: {})", page.origin, page.url),
        None => message.clone(),
    };
    let form = Payload::Form {
        message: shown,
        schema: schema.clone(),
        state,
        round,
    };
    answers.asked.set(true);
    steps.begin(Row::Elicit).await;
    steps.done(Row::Elicit, Some(form.clone()));
    steps.begin(Row::ElicitAsk).await;
    if schema.is_null() && url.is_none() {
        // Nothing the user could answer: declined.
        let declined = ElicitResult::new(ElicitationAction::Decline);
        steps.done(Row::ElicitAsk, Some(form));
        steps.activate(Row::ElicitAnswer);
        let payload = answer_payload(&declined);
        *answers.last.borrow_mut() = Some(payload.clone());
        steps.done(Row::ElicitAnswer, Some(payload));
        return declined;
    }
    let rx = answers.await_form();
    (steps.emit)(HostEvent::Form(Some(FormRequest {
        message,
        schema,
        url,
        awaiting: false,
    })));
    steps.done(Row::ElicitAsk, Some(form));
    steps.activate(Row::ElicitAnswer);
    let answer = rx
        .await
        .unwrap_or_else(|_| ElicitResult::new(ElicitationAction::Cancel));
    (steps.emit)(HostEvent::Form(None));
    let payload = answer_payload(&answer);
    *answers.last.borrow_mut() = Some(payload.clone());
    steps.done(Row::ElicitAnswer, Some(payload));
    answer
}

/// The legacy era's answerer: the client calls it for each `elicitation/create` on an open
/// stream; it asks the user and leaves row ElicitReply active while the client POSTs the answer.
pub fn legacy_elicitor(
    steps: Rc<Steps>,
    answers: Rc<Answers>,
) -> mcp_flow_client::client::Elicitor {
    let round = Rc::new(Cell::new(0u32));
    Rc::new(move |question: Result<ElicitRequestParams, String>| {
        let (steps, answers, round) = (steps.clone(), answers.clone(), round.clone());
        Box::pin(async move {
            // Outside a tool call (the GET stream): the user is asked all the same, on no row.
            let outside = steps.for_question();
            let (steps, drawn) = match &outside {
                Some(quiet) => (quiet, false),
                None => (&*steps, true),
            };
            round.set(round.get() + 1);
            let answer = match &question {
                Ok(question) => ask_user(steps, &answers, question, None, round.get()).await,
                // Said on the question's row, and declined.
                Err(why) => {
                    let message =
                        format!("(the question could not be read, so it is declined: {why})");
                    ask(
                        steps,
                        &answers,
                        message,
                        Value::Null,
                        None,
                        None,
                        round.get(),
                    )
                    .await
                }
            };
            if drawn {
                steps.begin(Row::ElicitReply).await;
                answers.reply_pending.set(true);
            }
            answer
        })
    })
}

#[cfg(test)]
mod tests {
    use super::web_page;

    fn url_origin(url: &str) -> Result<String, String> {
        web_page(url).map(|p| p.origin)
    }

    #[test]
    fn only_http_pages_with_a_host_are_opened_and_their_origin_is_shown() {
        assert_eq!(
            url_origin("https://Pay.Example.com:8443/confirm?x=1").as_deref(),
            Ok("https://pay.example.com:8443")
        );
        assert_eq!(
            url_origin("http://127.0.0.1:3000/form").as_deref(),
            Ok("http://127.0.0.1:3000")
        );
        // Shown as a browser reads it: a backslash is a slash, so the host is the one before it.
        let page = web_page("https://evil.example\\.good.example/pay?x=a\\b").expect("a page");
        assert_eq!(page.origin, "https://evil.example");
        assert_eq!(page.url, "https://evil.example/.good.example/pay?x=a\\b");
        let page = web_page("https://good.example\\@evil.example/").expect("a page");
        assert_eq!(page.origin, "https://good.example");
        for (bad, why) in [
            ("javascript:alert(1)", "not javascript:"),
            ("data:text/html,<b>x</b>", "not data:"),
            ("file:///etc/passwd", "not file:"),
            ("ftp://example.com/x", "not ftp:"),
            ("https:///nohost", "no host"),
            ("https://user:pw@example.com/", "user name or password"),
            ("https://example.com/a b", "spaces"),
            ("https://ex%61mple.com/", "escaped"),
            ("https://pаypal.com/", "beyond ASCII"),
            ("http://0x7f000001/", "not written the usual way"),
            ("http://2130706433/", "not written the usual way"),
        ] {
            let said = url_origin(bad).unwrap_err();
            assert!(said.contains(why), "{bad}: {said}");
        }
    }
}
