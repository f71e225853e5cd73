//! The session's GET stream (2025-11-25) against a scripted server: opened at row Ready once the
//! page hears, its requests answered outside any tool call without drawing a row, and error
//! -32042 (a page first, then the same call again once the server says the page is done).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use rmcp::model::{ElicitResult, ElicitationAction};
use serde_json::{Value, json};

use super::era_tests::{Fixture, fixture};
use super::host::{ServerMemory, Stopped};
use crate::diagram::Row;
use crate::record::run::RowStatus;
use mcp_flow_client::era::EraChoice;
use mcp_flow_client::http::HttpRequest;
use mcp_flow_client::scripted::*;

const QUESTION: &str = "What's the weather in Springfield?";

/// A 2025-11-25 server that answers by what it is asked (so the order in which the run and the
/// GET stream's answers reach it does not matter): the GET stream is `feed` (405 without one),
/// each tools/call gets the next of `calls`.
/// How the server answers a tools/call with this id.
type CallAnswer = fn(u64) -> Script;

fn server(feed: Option<Feed>, calls: Vec<CallAnswer>) -> Vec<Script> {
    let calls = Rc::new(RefCell::new(VecDeque::from(calls)));
    (0..40)
        .map(|_| {
            let (feed, calls) = (feed.clone(), calls.clone());
            Script::From(Box::new(move |req: &HttpRequest| {
                answer(req, &feed, &calls)
            }))
        })
        .collect()
}

fn answer(req: &HttpRequest, feed: &Option<Feed>, calls: &RefCell<VecDeque<CallAnswer>>) -> Script {
    if req.method == "GET" {
        return match feed {
            Some(feed) => Script::Fed(feed.clone()),
            None => status(405, "text/plain", "Method Not Allowed"),
        };
    }
    let body: Value =
        serde_json::from_str(req.body.as_deref().unwrap_or("null")).unwrap_or_default();
    let id = body["id"].as_u64().unwrap_or(0);
    match body["method"].as_str() {
        Some("initialize") => sse(&[&init_result(id, "2025-11-25")]),
        Some("tools/list") => sse(&[&tools_page(id, "get_weather", None)]),
        Some("tools/call") => (calls
            .borrow_mut()
            .pop_front()
            .expect("an answer to tools/call"))(id),
        Some(_) if body.get("id").is_some() => {
            sse(&[&json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string()])
        }
        // Notifications, and the client's answers to the server's requests.
        _ => status(202, "", ""),
    }
}

fn cloudy(id: u64) -> Script {
    sse(&[&json!({"jsonrpc": "2.0", "id": id, "result": {
        "content": [{"type": "text", "text": "Cloudy"}]}})
    .to_string()])
}

/// A tools/call answered with error -32042 for the page `e-1`.
fn page_first(id: u64) -> Script {
    sse(&[
        &json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32042,
        "message": "This request requires more information.",
        "data": {"elicitations": [{"mode": "url", "elicitationId": "e-1",
            "message": "Confirm the payment.", "url": "http://127.0.0.1:3000/confirm?e=1"}]}}})
        .to_string(),
    ])
}

/// What the user does with each dialog as it shows.
type User = dyn Fn(&Fixture, &super::host::FormRequest);

/// Hears and runs diagram 1 then 2 on one pool, `user` answering the dialogs; `fed` is called
/// once the GET stream is open.
fn run_hearing(
    f: &Fixture,
    feed: &Feed,
    fed: impl Fn(&Feed),
    user: &User,
) -> Result<String, Stopped> {
    let mut pool = LocalPool::new();
    let out = Rc::new(RefCell::new(None));
    let (host, sink) = (f.host.clone(), out.clone());
    pool.spawner()
        .spawn_local(super::host::Host::hear(&f.host))
        .unwrap();
    pool.spawner()
        .spawn_local(async move {
            let result = async {
                host.discover().await?;
                host.ask(QUESTION).await
            }
            .await;
            *sink.borrow_mut() = Some(result);
        })
        .unwrap();
    let mut opened = false;
    for _ in 0..30 {
        pool.run_until_stalled();
        if !opened && f.host.client.is_hearing() {
            opened = true;
            fed(feed);
            continue;
        }
        let shown = f.forms.borrow().last().cloned().flatten();
        match shown {
            Some(form) => {
                f.forms.borrow_mut().push(None);
                user(f, &form);
            }
            None if out.borrow().is_some() => break,
            None => {}
        }
    }
    out.borrow_mut().take().expect("the run ended")
}

fn posted(f: &Fixture) -> Vec<Value> {
    f.http
        .sent
        .borrow()
        .iter()
        .filter(|r| r.method == "POST")
        .map(|r| serde_json::from_str(r.body.as_deref().unwrap_or("null")).unwrap_or(Value::Null))
        .collect()
}

fn body_method(req: &HttpRequest) -> String {
    let body: Value =
        serde_json::from_str(req.body.as_deref().unwrap_or("null")).unwrap_or_default();
    body["method"].as_str().unwrap_or_default().to_owned()
}

fn calls(f: &Fixture) -> usize {
    posted(f)
        .iter()
        .filter(|b| b["method"] == "tools/call")
        .count()
}

#[test]
fn the_get_stream_opens_at_ready_and_its_requests_are_answered_on_no_row() {
    let feed = Feed::default();
    let f = fixture(
        server(Some(feed.clone()), vec![cloudy]),
        EraChoice::Legacy,
        ServerMemory::default(),
    );
    let ask = |feed: &Feed| {
        feed.event(&json!({"jsonrpc": "2.0", "id": "p1", "method": "ping"}).to_string());
        feed.event(
            &json!({"jsonrpc": "2.0", "id": "k1", "method": "elicitation/create", "params": {
                "mode": "url", "elicitationId": "key-1", "message": "Your API key, please.",
                "url": "http://127.0.0.1:3000/api-key"}})
            .to_string(),
        );
    };
    let decline = |f: &Fixture, form: &super::host::FormRequest| {
        assert_eq!(
            form.url.as_ref().map(|u| u.origin.as_str()),
            Some("http://127.0.0.1:3000")
        );
        f.host
            .answer_form(ElicitResult::new(ElicitationAction::Decline));
    };
    let answer = run_hearing(&f, &feed, ask, &decline).expect("run");
    assert!(answer.contains("cloudy"), "{answer}");

    let sent = f.http.sent.borrow();
    let get = sent.iter().position(|r| r.method == "GET").expect("a GET");
    assert_eq!(
        body_method(&sent[get - 1]),
        "notifications/initialized",
        "the GET stream opens right after notifications/initialized"
    );
    drop(sent);
    let run = f.run.borrow();
    let ready = run.row(Row::Ready).expect("row Ready");
    assert!(
        ready
            .mcp
            .iter()
            .any(|&seq| run.mcp.exchanges[seq].method == "GET"),
        "the GET is drawn at Ready"
    );
    let bodies = posted(&f);
    let pong = bodies
        .iter()
        .find(|b| b["id"] == "p1")
        .expect("the ping answered");
    assert_eq!(pong["result"], json!({}));
    let declined = bodies
        .iter()
        .find(|b| b["id"] == "k1")
        .expect("the page answered");
    assert_eq!(declined["result"]["action"], "decline");
    // Asked outside any tool call: nothing drawn on the call's question rows.
    assert_eq!(run.status(Row::Elicit), RowStatus::Skipped);
    assert_eq!(run.status(Row::ElicitReply), RowStatus::Skipped);
}

#[test]
fn a_page_first_error_is_put_to_the_user_and_the_call_sent_again_once_the_page_is_done() {
    let feed = Feed::default();
    let f = fixture(
        server(Some(feed.clone()), vec![page_first, cloudy]),
        EraChoice::Legacy,
        ServerMemory::default(),
    );
    let server_side = feed.clone();
    let user = move |f: &Fixture, form: &super::host::FormRequest| {
        if form.awaiting {
            // The user waits: the server says the page is done.
            assert!(form.message.contains("e-1"), "{}", form.message);
            server_side.event(
                &json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
                    "params": {"elicitationId": "e-1"}})
                .to_string(),
            );
        } else {
            assert_eq!(
                form.url.as_ref().map(|u| u.url.as_str()),
                Some("http://127.0.0.1:3000/confirm?e=1")
            );
            f.host
                .answer_form(ElicitResult::new(ElicitationAction::Accept));
        }
    };
    let answer = run_hearing(&f, &feed, |_| {}, &user).expect("run");
    assert!(answer.contains("cloudy"), "{answer}");
    let bodies = posted(&f);
    let sent: Vec<&Value> = bodies
        .iter()
        .filter(|b| b["method"] == "tools/call")
        .collect();
    assert_eq!(sent.len(), 2, "the same call again once");
    assert_eq!(sent[0]["params"], sent[1]["params"], "with nothing added");
    assert_ne!(sent[0]["id"], sent[1]["id"]);
    let run = f.run.borrow();
    for row in [
        Row::Elicit,
        Row::ElicitAsk,
        Row::ElicitAnswer,
        Row::ElicitReply,
    ] {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
    }
    assert_eq!(run.status(Row::CallToolResult), RowStatus::Done);
}

#[test]
fn a_page_first_error_declined_or_cancelled_is_not_sent_again() {
    for (action, retry_dialog, said) in [
        (ElicitationAction::Decline, None, "you answered decline"),
        (
            ElicitationAction::Accept,
            Some(ElicitationAction::Cancel),
            "you cancelled while waiting",
        ),
    ] {
        let feed = Feed::default();
        let f = fixture(
            server(Some(feed.clone()), vec![page_first]),
            EraChoice::Legacy,
            ServerMemory::default(),
        );
        let user = move |f: &Fixture, form: &super::host::FormRequest| {
            let answer = match (&form.awaiting, &retry_dialog) {
                (true, Some(then)) => then.clone(),
                _ => action.clone(),
            };
            f.host.answer_form(ElicitResult::new(answer));
        };
        let err = run_hearing(&f, &feed, |_| {}, &user).unwrap_err();
        assert_eq!(err.row, Row::ElicitReply);
        assert!(err.error.contains(said), "{}", err.error);
        assert!(err.error.contains("-32042"), "{}", err.error);
        assert_eq!(calls(&f), 1, "not sent again");
    }
}

#[test]
fn a_server_without_a_get_stream_is_recorded_and_the_run_goes_on() {
    let f = fixture(
        server(None, vec![page_first, cloudy]),
        EraChoice::Legacy,
        ServerMemory::default(),
    );
    // With nothing to hear, only the user can say the page is done.
    let user = |f: &Fixture, form: &super::host::FormRequest| {
        if form.awaiting {
            assert!(form.message.contains("no GET stream"), "{}", form.message);
        }
        f.host
            .answer_form(ElicitResult::new(ElicitationAction::Accept));
    };
    let answer = run_hearing(&f, &Feed::default(), |_| {}, &user).expect("run");
    assert!(answer.contains("cloudy"), "{answer}");
    let run = f.run.borrow();
    let get = run
        .mcp
        .exchanges
        .iter()
        .find(|x| x.method == "GET")
        .expect("the GET");
    assert_eq!(get.status, Some(405));
    assert!(
        get.error.is_none(),
        "a 405 is the server's answer, not a failure"
    );
    assert!(!f.host.client.is_hearing());
    assert_eq!(calls(&f), 2);
}
