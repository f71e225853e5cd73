//! The diagram "Resources, prompts, completion and tasks" against a scripted server, in both eras:
//! every step goes on from the answer before, a feature the server did not declare is not asked
//! for, a missing method skips what depends on it, and a failed read stops the run there.

use std::cell::RefCell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::{Value, json};

use super::gate::{Gate, Mode};
use super::host::{Approval, Emit, Host, HostEvent, ServerMemory, Stopped};
use super::task::TASK_ROWS;
use crate::diagram::Row;
use crate::diagram::explained::fits;
use crate::llm::offline::OfflineModel;
use crate::record::payload::{Payload, SkipReason};
use crate::record::run::{RowStatus, Run, RunEvent};
use mcp_flow_client::era::EraChoice;
use mcp_flow_client::http::HttpRequest;
use mcp_flow_client::scripted::*;

pub(super) type Fixture = (
    Rc<Host<Rc<Scripted>, OfflineModel>>,
    Rc<Scripted>,
    Rc<RefCell<Run>>,
);

pub(super) fn fixture(script: Vec<Script>, era: EraChoice) -> Fixture {
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = script.into();
    let run = Rc::new(RefCell::new(Run::new(crate::diagram::all_rows())));
    let sink = run.clone();
    let emit: Emit = Rc::new(move |event: HostEvent| {
        if let HostEvent::Run(event) = event {
            if let RunEvent::Done { row, payload, .. } = &event {
                assert!(fits(*row, payload.as_ref()), "{row}: {payload:?}");
            }
            sink.borrow_mut().apply(event);
        }
    });
    let client = super::tests::scripted_client(&http, &emit);
    let gate = Rc::new(Gate::new(Mode::Play, None));
    let model = OfflineModel::new(http.clone());
    let host =
        Host::new(client, model, gate, Approval::Auto, emit).with_era(era, ServerMemory::default());
    (Rc::new(host), http, run)
}

fn body(request: &HttpRequest) -> Value {
    serde_json::from_str(request.body.as_deref().unwrap_or("null")).unwrap_or(Value::Null)
}

/// A JSON answer to whatever request comes, with its id.
pub(super) fn reply(result: Value) -> Script {
    Script::From(Box::new(move |request| {
        json_reply(json!({"jsonrpc": "2.0", "id": body(request)["id"], "result": result}))
    }))
}

fn error(code: i64, message: &str) -> Script {
    let message = message.to_owned();
    Script::From(Box::new(move |request| {
        json_reply(json!({"jsonrpc": "2.0", "id": body(request)["id"],
            "error": {"code": code, "message": message}}))
    }))
}

/// Capabilities with `offers` declared; `subscribe` declares resource subscriptions.
fn capabilities(offers: &[&str]) -> Value {
    let mut caps = json!({"tools": {}});
    for offer in offers {
        match *offer {
            "subscribe" => caps["resources"]["subscribe"] = json!(true),
            _ => caps[*offer] = json!({}),
        }
    }
    caps
}

const EVERYTHING: [&str; 4] = ["resources", "prompts", "completions", "subscribe"];

/// The subscription to Tokyo's report: legacy, the GET stream (with the update on it), the
/// subscribe and unsubscribe results; modern, the listen stream (acknowledged, then the update).
/// Then the read again.
fn watch_answers(modern: bool) -> Vec<Script> {
    let update = json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
        "params": {"uri": "weather://city/Tokyo"}})
    .to_string();
    let log = json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": "observed"}})
    .to_string();
    let again = reply(json!({"contents": [{"uri": "weather://city/Tokyo",
        "mimeType": "application/json", "text": "{\"condition\":\"Sunny\",\"observedAt\":20}"}]}));
    if modern {
        let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"notifications": {"resourceSubscriptions": ["weather://city/Tokyo"]}}})
        .to_string();
        vec![sse(&[&ack, &log, &update]), again]
    } else {
        vec![
            sse(&[&log, &update]),
            reply(json!({})),
            reply(json!({})),
            again,
        ]
    }
}

/// A legacy server with these capabilities, connected and its tools listed.
fn legacy(offers: &[&str]) -> Vec<Script> {
    vec![
        reply(
            json!({"protocolVersion": "2025-11-25", "capabilities": capabilities(offers),
            "serverInfo": {"name": "weather-server", "version": "0.1.0"}}),
        ),
        status(202, "", ""),
        reply(json!({"tools": []})),
    ]
}

/// A modern server with these capabilities, discovered and its tools listed.
fn modern(offers: &[&str]) -> Vec<Script> {
    vec![
        reply(
            json!({"resultType": "complete", "supportedVersions": ["2026-07-28"],
            "capabilities": capabilities(offers), "ttlMs": 60000, "cacheScope": "public"}),
        ),
        reply(
            json!({"resultType": "complete", "tools": [], "ttlMs": 300000, "cacheScope": "public"}),
        ),
    ]
}

/// The weather server's answers to the browse, with caching hints when `hints` holds.
fn weather_answers(hints: bool) -> Vec<Script> {
    let fresh = |mut v: Value, ttl: u64| {
        if hints {
            v["ttlMs"] = json!(ttl);
            v["cacheScope"] = json!("public");
            v["resultType"] = json!("complete");
        }
        v
    };
    let report = r#"{"location":"Tokyo","condition":"Sunny"}"#;
    vec![
        reply(fresh(
            json!({"resources": [
            {"uri": "weather://cities", "name": "cities", "mimeType": "application/json"},
            {"uri": "weather://icon.png", "name": "icon", "mimeType": "image/png"}]}),
            300_000,
        )),
        reply(fresh(
            json!({"contents": [{"uri": "weather://cities",
            "mimeType": "application/json", "text": "[\"Tokyo\",\"Paris\"]"}]}),
            86_400_000,
        )),
        reply(fresh(
            json!({"resourceTemplates": [
            {"uriTemplate": "weather://city/{name}", "name": "city"}]}),
            300_000,
        )),
        reply(fresh(
            json!({"completion": {"values": ["Tokyo", "Paris"], "total": 2, "hasMore": false}}),
            0,
        )),
        reply(fresh(
            json!({"contents": [{"uri": "weather://city/Tokyo",
            "mimeType": "application/json", "text": report}]}),
            60_000,
        )),
        reply(fresh(
            json!({"prompts": [{"name": "weather_report",
            "arguments": [{"name": "city", "required": true}]}]}),
            300_000,
        )),
        reply(fresh(
            json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "What's the weather in Tokyo?"}},
            {"role": "user", "content": {"type": "resource",
                "resource": {"uri": "weather://city/Tokyo", "text": report}}}]}),
            60_000,
        )),
    ]
}

/// Diagram 1, then the browse.
pub(super) fn connected_then_browse(
    host: &Host<Rc<Scripted>, OfflineModel>,
) -> Result<String, Stopped> {
    block_on(async {
        host.discover().await.expect("connected");
        host.browse().await
    })
}

/// The browse's rows but the task's (a server without tasks skips those: see
/// [`task_rows_not_offered`]).
fn browse_rows() -> Vec<Row> {
    crate::diagram::browse()
        .rows()
        .filter(|r| !TASK_ROWS.contains(r))
        .collect()
}

fn task_rows_not_offered(run: &Run) {
    for row in TASK_ROWS {
        let (status, why) = run.row(row).map(|r| (r.status, r.skipped)).unwrap();
        assert_eq!(
            (status, why),
            (RowStatus::Skipped, Some(SkipReason::NotOffered)),
            "{row}"
        );
    }
}

/// The JSON-RPC methods and params sent after `skip` requests.
pub(super) fn sent_after(http: &Scripted, skip: usize) -> Vec<(String, Value)> {
    http.sent.borrow()[skip..]
        .iter()
        .map(body)
        .map(|b| {
            (
                b["method"].as_str().unwrap_or("").to_owned(),
                b["params"].clone(),
            )
        })
        .collect()
}

pub(super) fn payload(run: &Run, row: Row) -> Payload {
    run.payload(row)
        .cloned()
        .unwrap_or_else(|| panic!("{row} has no payload"))
}

#[test]
fn a_legacy_browse_goes_from_each_answer_to_the_next_request() {
    let mut script = legacy(&EVERYTHING);
    script.extend(weather_answers(false));
    script.extend(watch_answers(false));
    let (host, http, run) = fixture(script, EraChoice::Legacy);
    let shown = connected_then_browse(&host).expect("browsed");
    assert_eq!(
        shown,
        "read weather://cities: application/json [\"Tokyo\",\"Paris\"]; \
         read weather://city/Tokyo: application/json {\"location\":\"Tokyo\",\"condition\":\"Sunny\"}; \
         got the prompt weather_report: 2 message(s); \
         read weather://city/Tokyo: application/json {\"condition\":\"Sunny\",\"observedAt\":20}"
    );
    let sent = sent_after(&http, 3);
    let methods: Vec<&str> = sent.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        methods,
        [
            "resources/list",
            "resources/read",
            "resources/templates/list",
            "completion/complete",
            "resources/read",
            "prompts/list",
            "prompts/get",
            // The GET stream (no body), opened before the subscription.
            "",
            "resources/subscribe",
            "resources/unsubscribe",
            "resources/read"
        ]
    );
    assert_eq!(http.sent.borrow()[10].method, "GET");
    assert_eq!(sent[8].1, json!({"uri": "weather://city/Tokyo"}));
    assert_eq!(sent[9].1, json!({"uri": "weather://city/Tokyo"}));
    assert_eq!(
        sent[1].1["uri"], "weather://cities",
        "the first resource listed"
    );
    assert_eq!(
        sent[3].1,
        json!({"ref": {"type": "ref/resource", "uri": "weather://city/{name}"},
            "argument": {"name": "name", "value": ""}})
    );
    assert_eq!(
        sent[4].1["uri"], "weather://city/Tokyo",
        "the first value completed"
    );
    assert_eq!(
        sent[6].1,
        json!({"name": "weather_report", "arguments": {"city": "Tokyo"}})
    );
    let run = run.borrow();
    for row in browse_rows() {
        assert_eq!(run.status(row), RowStatus::Done, "{row}");
        assert!(
            !run.row(row).unwrap().mcp.is_empty() || !is_request(row),
            "{row}"
        );
    }
    assert_eq!(
        payload(&run, Row::Browse),
        Payload::Offers {
            capabilities: vec!["resources".into(), "prompts".into(), "completions".into()]
        }
    );
    assert_eq!(
        payload(&run, Row::ListResourcesResult),
        Payload::Listed {
            items: vec!["weather://cities".into(), "weather://icon.png".into()],
            ttl_ms: None,
            cache_scope: None
        },
        "2025-11-25 has no caching hints"
    );
    assert_eq!(
        payload(&run, Row::CompleteResult),
        Payload::Completion {
            values: vec!["Tokyo".into(), "Paris".into()],
            total: Some(2),
            has_more: false
        }
    );
    match payload(&run, Row::GetPromptResult) {
        Payload::Contents {
            target,
            count,
            summary,
            ..
        } => {
            assert_eq!((target.as_str(), count), ("weather_report", 2));
            assert_eq!(
                summary,
                "user: What's the weather in Tokyo?; user: the resource weather://city/Tokyo"
            );
        }
        other => panic!("{other:?}"),
    }
}

/// The request rows, each of which sends one request.
fn is_request(row: Row) -> bool {
    matches!(
        row,
        Row::ListResources
            | Row::ReadResource
            | Row::ListTemplates
            | Row::Complete
            | Row::ReadTemplate
            | Row::ListPrompts
            | Row::GetPrompt
    )
}

#[test]
fn a_modern_browse_shows_each_results_freshness() {
    let mut script = modern(&EVERYTHING);
    script.extend(weather_answers(true));
    script.extend(watch_answers(true));
    let (host, http, run) = fixture(script, EraChoice::Modern);
    connected_then_browse(&host).expect("browsed");
    let sent = http.sent.borrow();
    let read = &sent[3];
    let header = |name: &str| {
        read.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(header("mcp-method"), Some("resources/read"));
    assert_eq!(header("mcp-name"), Some("weather://cities"));
    assert!(body(read)["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].is_string());
    // The listen request: no GET, no resources/subscribe; its stream carried the update.
    let listen = body(&sent[9]);
    assert_eq!(listen["method"], "subscriptions/listen");
    assert_eq!(
        listen["params"]["notifications"],
        json!({"resourceSubscriptions": ["weather://city/Tokyo"]})
    );
    assert_eq!(body(&sent[10])["method"], "resources/read");
    assert_eq!(sent.len(), 11, "nothing else sent");
    drop(sent);
    let run = run.borrow();
    assert_eq!(
        payload(&run, Row::Subscribed),
        Payload::Listed {
            items: vec!["weather://city/Tokyo".into()],
            ttl_ms: None,
            cache_scope: None
        }
    );
    assert!(
        browse_rows()
            .iter()
            .all(|r| run.status(*r) == RowStatus::Done)
    );
    task_rows_not_offered(&run);
    assert_eq!(
        payload(&run, Row::ListResourcesResult),
        Payload::Listed {
            items: vec!["weather://cities".into(), "weather://icon.png".into()],
            ttl_ms: Some(300_000),
            cache_scope: Some("public".into())
        }
    );
    match payload(&run, Row::ReadTemplateResult) {
        Payload::Contents {
            target,
            ttl_ms,
            cache_scope,
            ..
        } => {
            assert_eq!(target, "weather://city/Tokyo");
            assert_eq!(
                (ttl_ms, cache_scope.as_deref()),
                (Some(60_000), Some("public"))
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn nothing_is_asked_of_a_server_that_offers_only_tools() {
    let (host, http, run) = fixture(legacy(&[]), EraChoice::Legacy);
    let shown = connected_then_browse(&host).expect("browsed");
    assert_eq!(shown, "the server offers nothing besides tools");
    assert_eq!(http.sent.borrow().len(), 3, "no request after diagram 1");
    let run = run.borrow();
    assert_eq!(
        payload(&run, Row::Browse),
        Payload::Offers {
            capabilities: vec![]
        }
    );
    for row in browse_rows() {
        let first_or_last = row == Row::Browse || row == Row::ShowBrowsed;
        let (status, why) = run.row(row).map(|r| (r.status, r.skipped)).unwrap();
        if first_or_last {
            assert_eq!(status, RowStatus::Done, "{row}");
        } else {
            assert_eq!(
                (status, why),
                (RowStatus::Skipped, Some(SkipReason::NotOffered)),
                "{row}"
            );
        }
    }
}

#[test]
fn a_missing_method_skips_what_needs_it_and_the_rest_goes_on() {
    let mut script = legacy(&["resources", "prompts", "completions"]);
    script.extend([
        reply(json!({"resources": []})),
        error(-32601, "Method not found"),
        reply(json!({"prompts": [{"name": "greet"}]})),
        reply(json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}]})),
    ]);
    let (host, http, run) = fixture(script, EraChoice::Legacy);
    connected_then_browse(&host).expect("browsed");
    let methods: Vec<String> = sent_after(&http, 3).into_iter().map(|(m, _)| m).collect();
    assert_eq!(
        methods,
        [
            "resources/list",
            "resources/templates/list",
            "prompts/list",
            "prompts/get"
        ]
    );
    assert_eq!(
        sent_after(&http, 6)[0].1,
        json!({"name": "greet"}),
        "no arguments"
    );
    let run = run.borrow();
    let state = |row| run.row(row).map(|r| (r.status, r.skipped)).unwrap();
    let skipped = |why| (RowStatus::Skipped, Some(why));
    assert_eq!(
        state(Row::ReadResource),
        skipped(SkipReason::NothingListed),
        "an empty list"
    );
    assert_eq!(
        state(Row::ListTemplates),
        (RowStatus::Done, None),
        "sent, and answered -32601"
    );
    for row in [
        Row::ListTemplatesResult,
        Row::Complete,
        Row::ReadTemplate,
        Row::ReadTemplateResult,
    ] {
        assert_eq!(state(row), skipped(SkipReason::NotOffered), "{row}");
    }
    assert_eq!(state(Row::GetPromptResult), (RowStatus::Done, None));
}

#[test]
fn a_failed_read_stops_the_browse_at_its_answer() {
    let mut script = legacy(&["resources"]);
    script.extend([
        reply(json!({"resources": [{"uri": "weather://gone", "name": "gone"}]})),
        error(-32002, "Resource not found"),
    ]);
    let (host, http, run) = fixture(script, EraChoice::Legacy);
    let stopped = connected_then_browse(&host).expect_err("stopped");
    assert_eq!(stopped.row, Row::ReadResourceResult);
    assert!(stopped.error.contains("-32002"), "{}", stopped.error);
    assert_eq!(
        http.sent.borrow().len(),
        5,
        "nothing sent after the failure"
    );
    let run = run.borrow();
    assert_eq!(run.status(Row::ReadResource), RowStatus::Done);
    assert_eq!(run.status(Row::ReadResourceResult), RowStatus::Failed);
    assert_eq!(run.status(Row::ListTemplates), RowStatus::Pending);
    assert_eq!(run.status(Row::ShowBrowsed), RowStatus::Pending);
}

#[test]
fn without_completions_the_template_is_listed_but_not_filled_in() {
    let mut script = legacy(&["resources"]);
    script.extend([
        reply(json!({"resources": []})),
        reply(json!({"resourceTemplates": [{"uriTemplate": "weather://city/{name}", "name": "city"}]})),
    ]);
    let (host, http, run) = fixture(script, EraChoice::Legacy);
    connected_then_browse(&host).expect("browsed");
    assert_eq!(http.sent.borrow().len(), 5);
    let run = run.borrow();
    let why = |row| run.row(row).and_then(|r| r.skipped);
    assert_eq!(why(Row::Complete), Some(SkipReason::NotOffered));
    assert_eq!(why(Row::ReadTemplate), Some(SkipReason::NothingListed));
    assert_eq!(why(Row::ListPrompts), Some(SkipReason::NotOffered));
    assert_eq!(run.status(Row::ShowBrowsed), RowStatus::Done);
}

/// A modern connection browsed twice: `script` for diagram 1 and the first walk, then `again`
/// without the answers at `unasked` (the requests the second walk must not send). The run (the
/// second walk's rows) and the methods the second walk sent.
fn browsed_twice(
    mut script: Vec<Script>,
    again: Vec<Script>,
    unasked: &[usize],
) -> (Rc<RefCell<Run>>, Vec<String>) {
    script.extend(
        again
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !unasked.contains(i))
            .map(|(_, s)| s),
    );
    let (host, http, run) = fixture(script, EraChoice::Modern);
    block_on(async {
        host.discover().await.expect("connected");
        host.browse().await.expect("browsed");
        run.borrow_mut().reset(crate::diagram::browse_rows());
        host.browse().await
    })
    .expect("browsed again");
    let methods = sent_after(&http, 9).into_iter().map(|(m, _)| m).collect();
    (run, methods)
}

#[test]
fn a_modern_browse_again_reuses_the_fresh_lists_and_says_so() {
    let mut script = modern(&["resources", "prompts", "completions"]);
    script.extend(weather_answers(true));
    // The second browse: only what is not a list (the lists' ttlMs has not passed).
    let again = weather_answers(true);
    let (run, methods) = browsed_twice(script, again, &[0, 2, 5]);
    assert_eq!(
        methods,
        [
            "resources/read",
            "completion/complete",
            "resources/read",
            "prompts/get"
        ],
        "no list asked for again"
    );
    let run = run.borrow();
    for row in [Row::ListResources, Row::ListTemplates, Row::ListPrompts] {
        let r = run.row(row).unwrap();
        assert_eq!(r.status, RowStatus::Skipped, "{row}");
        assert!(r.mcp.is_empty(), "{row}: nothing sent");
        match r.skipped {
            Some(SkipReason::FreshList {
                ttl_ms: 300_000,
                age_ms,
            }) => assert!(age_ms < 300_000),
            other => panic!("{row}: {other:?}"),
        }
    }
    // The answers come from the cache, the same as before.
    assert_eq!(
        payload(&run, Row::ListResourcesResult),
        Payload::Listed {
            items: vec!["weather://cities".into(), "weather://icon.png".into()],
            ttl_ms: Some(300_000),
            cache_scope: Some("public".into())
        }
    );
    assert!(browse_rows().iter().all(|r| run.status(*r).is_finished()));
}

#[test]
fn a_list_the_server_says_changed_is_asked_again_while_its_cached_answer_is_fresh() {
    let mut script = modern(&["resources", "prompts", "completions"]);
    let mut first = weather_answers(true);
    // The prompt's answer comes on a stream that first says the resources changed.
    first.pop();
    first.push(Script::From(Box::new(|request| {
        let id = body(request)["id"].clone();
        sse(&[
            &json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})
                .to_string(),
            &json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
                "messages": []}})
            .to_string(),
        ])
    })));
    script.extend(first);
    // The second browse asks the resources' lists again, not the prompts'.
    let again = weather_answers(true);
    let (run, methods) = browsed_twice(script, again, &[5]);
    assert_eq!(
        methods,
        [
            "resources/list",
            "resources/read",
            "resources/templates/list",
            "completion/complete",
            "resources/read",
            "prompts/get"
        ]
    );
    let run = run.borrow();
    assert_eq!(run.status(Row::ListResources), RowStatus::Done);
    assert_eq!(run.status(Row::ListPrompts), RowStatus::Skipped);
    let asked = &run.mcp.exchanges[run.row(Row::ListResources).unwrap().mcp[0]];
    assert_eq!(
        asked.note.as_deref(),
        Some(
            "asked again: the server said this list changed \
             (notifications/resources/list_changed)"
        )
    );
}

#[test]
fn a_legacy_browse_again_asks_for_every_list() {
    let mut script = legacy(&["resources", "prompts", "completions"]);
    script.extend(weather_answers(false));
    script.extend(weather_answers(false));
    let (host, http, _) = fixture(script, EraChoice::Legacy);
    block_on(async {
        host.discover().await.expect("connected");
        host.browse().await.expect("browsed");
        host.browse().await
    })
    .expect("browsed again");
    assert_eq!(
        sent_after(&http, 10)[0].0,
        "resources/list",
        "no hints, no reuse"
    );
}

#[test]
fn without_an_update_in_time_the_subscription_still_ends_and_nothing_is_read_again() {
    let mut script = modern(&EVERYTHING);
    script.extend(weather_answers(true));
    let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
        "params": {"notifications": {"resourceSubscriptions": ["weather://city/Tokyo"]}}});
    // The listen stream stays open after its acknowledgment and never carries an update.
    script.push(Script::Stall {
        status: 200,
        headers: vec![("content-type", "text/event-stream".into())],
        chunks: vec![format!("data: {ack}\n\n").into_bytes()],
    });
    let (host, http, run) = fixture(script, EraChoice::Modern);
    connected_then_browse(&host).expect("browsed");
    assert_eq!(http.sent.borrow().len(), 10, "no read after no update");
    assert_eq!(http.alive.get(), 0, "the listen stream is closed");
    // The whole wait, less the scripted clock's millisecond per reading.
    let waited: u32 = http.sleeps.borrow().iter().sum();
    let wait = super::browse::UPDATE_WAIT_MS;
    assert!((wait - 10..=wait).contains(&waited), "waited {waited} ms");
    let run = run.borrow();
    let why = |row| run.row(row).and_then(|r| r.skipped);
    assert_eq!(why(Row::Updated), Some(SkipReason::NoUpdate));
    assert_eq!(run.status(Row::Unsubscribe), RowStatus::Done);
    assert_eq!(why(Row::ReadUpdated), Some(SkipReason::NoUpdate));
    assert_eq!(run.status(Row::ShowBrowsed), RowStatus::Done);
}
