use std::cell::RefCell;
use std::collections::HashMap;

use futures_executor::block_on;

use super::*;

/// Answers by URL; `reaching` are the addresses where something answers unreadably.
#[derive(Default)]
struct Scripted {
    answers: HashMap<String, Answer>,
    /// What a GET for an HTTP+SSE stream gets, by URL (nothing readable otherwise).
    streams: HashMap<String, Answer>,
    reaching: Vec<String>,
    asked: RefCell<Vec<String>>,
}

impl Probe for Scripted {
    async fn post(&self, url: &str) -> Answer {
        self.asked.borrow_mut().push(format!("POST {url}"));
        self.answers
            .get(url)
            .cloned()
            .unwrap_or_else(|| Answer::Nothing("TypeError: Failed to fetch".into()))
    }
    async fn reaches(&self, url: &str) -> bool {
        self.asked.borrow_mut().push(format!("no-cors {url}"));
        self.reaching.iter().any(|u| u == url)
    }
    async fn stream(&self, url: &str) -> Answer {
        self.asked.borrow_mut().push(format!("GET {url}"));
        self.streams
            .get(url)
            .cloned()
            .unwrap_or_else(|| read(404, "text/html", "Cannot GET"))
    }
}

fn read(status: u16, content_type: &str, body: &str) -> Answer {
    Answer::Read {
        status,
        content_type: content_type.into(),
        body: body.into(),
    }
}

fn verdicts(d: &Diagnosis) -> Vec<(CheckId, Verdict)> {
    d.checks.iter().map(|c| (c.id, c.verdict)).collect()
}

const PAGE: &str = "http://127.0.0.1:8000";

#[test]
fn a_server_that_answers_but_not_to_this_page_gets_the_bridge_command() {
    let url = "http://127.0.0.1:3000/mcp";
    let probe = Scripted {
        reaching: vec!["http://127.0.0.1:3000/".into()],
        ..Default::default()
    };
    let d = block_on(diagnose(&probe, PAGE, url, Row::Initialize, false));
    assert_eq!(
        d.finding,
        Finding::RefusesOrigin {
            page: PAGE.into(),
            bridge: "cargo run -p mcp-flow-bridge -- http --allow-origin http://127.0.0.1:8000 http://127.0.0.1:3000/mcp".into(),
        }
    );
    assert_eq!(
        verdicts(&d),
        [
            (CheckId::Schemes, Verdict::Passed),
            (CheckId::Answers, Verdict::Failed),
            (CheckId::Listens, Verdict::Passed),
            (CheckId::Endpoint, Verdict::NotRun),
        ]
    );
    assert!(
        d.checks[1].detail.contains("Failed to fetch"),
        "{}",
        d.checks[1].detail
    );
    assert!(
        d.finding
            .command()
            .is_some_and(|c| c.contains("--allow-origin http://127.0.0.1:8000")),
        "the command is offered"
    );
    assert_eq!(d.row, Row::Initialize);
}

#[test]
fn nothing_answering_at_all_is_said_so_and_nothing_else_is_tried() {
    let probe = Scripted::default();
    let url = "http://127.0.0.1:3999/mcp";
    let d = block_on(diagnose(&probe, PAGE, url, Row::Discover, false));
    assert_eq!(
        d.finding,
        Finding::NothingListens {
            origin: "http://127.0.0.1:3999".into()
        }
    );
    assert_eq!(d.checks[2].verdict, Verdict::Failed);
    assert_eq!(
        *probe.asked.borrow(),
        [
            format!("POST {url}"),
            "no-cors http://127.0.0.1:3999/".to_owned()
        ]
    );
    assert!(d.finding.say(Lang::En).contains("not running"));
    assert!(d.finding.say(Lang::Zh).contains("未运行"));
    assert!(!d.finding.say(Lang::En).contains("certificate"));

    // Over https a refused certificate fails the same way in a page: it is named among the causes.
    let url = "https://127.0.0.1:3999/mcp";
    let d = block_on(diagnose(&probe, PAGE, url, Row::Discover, false));
    let said = d.finding.say(Lang::En);
    assert!(
        said.contains("not running") && said.contains("certificate"),
        "{said}"
    );
    assert!(d.finding.say(Lang::Zh).contains("证书"));
}

#[test]
fn a_web_page_at_the_address_leads_to_the_path_that_answers_mcp() {
    let probe = Scripted {
        answers: HashMap::from([
            (
                "http://127.0.0.1:8000/".into(),
                read(405, "text/html; charset=utf-8", "<!doctype html>"),
            ),
            (
                "http://127.0.0.1:8000/mcp".into(),
                read(200, "text/event-stream", ""),
            ),
        ]),
        ..Default::default()
    };
    let d = block_on(diagnose(
        &probe,
        PAGE,
        "http://127.0.0.1:8000/",
        Row::Discover,
        false,
    ));
    assert_eq!(
        d.finding,
        Finding::Elsewhere {
            url: "http://127.0.0.1:8000/mcp".into()
        }
    );
    assert_eq!(d.checks[3].verdict, Verdict::Passed);
    assert!(
        d.checks[1].detail.contains("HTTP 405, text/html"),
        "{}",
        d.checks[1].detail
    );
    // The address itself is not tried twice.
    assert_eq!(
        *probe.asked.borrow(),
        [
            "POST http://127.0.0.1:8000/",
            "POST http://127.0.0.1:8000/mcp"
        ]
    );
}

#[test]
fn no_usual_path_answering_mcp_asks_whether_it_is_one() {
    let page_404 = read(404, "text/plain", "Not Found");
    let probe = Scripted {
        answers: HashMap::from([
            ("http://127.0.0.1:5000/api".into(), page_404.clone()),
            ("http://127.0.0.1:5000/mcp".into(), page_404.clone()),
            ("http://127.0.0.1:5000/sse".into(), page_404.clone()),
            (
                "http://127.0.0.1:5000/".into(),
                read(200, "text/html", "<p>hi"),
            ),
        ]),
        ..Default::default()
    };
    let d = block_on(diagnose(
        &probe,
        PAGE,
        "http://127.0.0.1:5000/api",
        Row::Initialize,
        false,
    ));
    assert_eq!(d.finding, Finding::NotMcp);
    assert_eq!(d.checks[3].verdict, Verdict::Failed);
    assert_eq!(
        probe.asked.borrow().len(),
        7,
        "the address, then /mcp, /sse and / with POST and GET"
    );
}

#[test]
fn an_http_sse_server_at_a_usual_path_is_named_with_its_transport() {
    let not_found = read(404, "text/html", "Cannot POST");
    let probe = Scripted {
        answers: HashMap::from([
            ("http://127.0.0.1:3000/".into(), not_found.clone()),
            ("http://127.0.0.1:3000/mcp".into(), not_found.clone()),
            ("http://127.0.0.1:3000/sse".into(), not_found),
        ]),
        streams: HashMap::from([(
            "http://127.0.0.1:3000/sse".into(),
            read(
                200,
                "text/event-stream",
                "event: endpoint\ndata: /messages?sessionId=1",
            ),
        )]),
        ..Default::default()
    };
    let d = block_on(diagnose(
        &probe,
        PAGE,
        "http://127.0.0.1:3000/",
        Row::Initialize,
        false,
    ));
    assert_eq!(
        d.finding,
        Finding::OldTransport {
            url: "http://127.0.0.1:3000/sse".into()
        }
    );
    assert_eq!(d.checks[3].verdict, Verdict::Passed);
    assert!(
        d.checks[3].detail.contains(
            "GET http://127.0.0.1:3000/sse: HTTP 200, text/event-stream, an `endpoint` event"
        ),
        "{}",
        d.checks[3].detail
    );
    assert!(
        d.finding
            .say(Lang::En)
            .contains("HTTP+SSE transport (2024-11-05)")
    );
    assert_eq!(
        *probe.asked.borrow(),
        [
            "POST http://127.0.0.1:3000/",
            "POST http://127.0.0.1:3000/mcp",
            "GET http://127.0.0.1:3000/mcp",
            "POST http://127.0.0.1:3000/sse",
            "GET http://127.0.0.1:3000/sse",
        ]
    );
}

#[test]
fn an_mcp_answer_means_the_failure_was_the_requests_own() {
    let body = r#"{"jsonrpc":"2.0","id":"mcp-flow-diagnosis","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}"#;
    let url = "http://127.0.0.1:3000/mcp";
    let probe = Scripted {
        answers: HashMap::from([(url.into(), read(400, "application/json", body))]),
        ..Default::default()
    };
    let d = block_on(diagnose(&probe, PAGE, url, Row::InitializeResult, false));
    assert_eq!(d.finding, Finding::AnswersMcp);
    assert_eq!(d.checks[1].verdict, Verdict::Passed);
    assert!(
        d.checks[1].detail.ends_with("application/json, MCP"),
        "{}",
        d.checks[1].detail
    );
}

#[test]
fn an_https_page_calling_http_elsewhere_is_mixed_content_and_nothing_is_sent() {
    let probe = Scripted::default();
    let d = block_on(diagnose(
        &probe,
        "https://flow.example",
        "http://mcp.example/mcp",
        Row::Discover,
        false,
    ));
    assert_eq!(d.finding, Finding::MixedContent);
    assert!(probe.asked.borrow().is_empty());
    // This machine over http is allowed from an https page.
    let d = block_on(diagnose(
        &probe,
        "https://flow.example",
        "http://localhost:3000/mcp",
        Row::Discover,
        false,
    ));
    assert_ne!(d.finding, Finding::MixedContent);
    assert_eq!(
        verdicts(&d).iter().map(|(id, _)| *id).collect::<Vec<_>>(),
        [
            CheckId::Schemes,
            CheckId::Answers,
            CheckId::Listens,
            CheckId::Endpoint
        ],
        "every check listed, in order"
    );
}

#[test]
fn a_first_requests_failure_is_diagnosed_at_its_request_row() {
    assert_eq!(request_row(Row::Discover), Some(Row::Discover));
    assert_eq!(request_row(Row::DiscoverResult), Some(Row::Discover));
    assert_eq!(request_row(Row::Initialize), Some(Row::Initialize));
    assert_eq!(request_row(Row::InitializeResult), Some(Row::Initialize));
    assert_eq!(request_row(Row::ListTools), None);
    assert_eq!(request_row(Row::CallTool), None);
}

#[test]
fn an_address_that_never_answers_the_probe_is_called_slow_and_nothing_more_is_tried() {
    let url = "http://127.0.0.1:5000/mcp";
    let probe = Scripted {
        answers: HashMap::from([(url.into(), Answer::Late(5))]),
        ..Default::default()
    };
    let d = block_on(diagnose(&probe, PAGE, url, Row::Initialize, false));
    assert_eq!(d.finding, Finding::Slow { secs: 5 });
    assert_eq!(
        verdicts(&d),
        [
            (CheckId::Schemes, Verdict::Passed),
            (CheckId::Answers, Verdict::Failed),
            // A connection that hangs proves nothing listens there.
            (CheckId::Listens, Verdict::NotRun),
            (CheckId::Endpoint, Verdict::NotRun),
        ]
    );
    assert_eq!(
        d.checks[1].detail,
        format!("POST {url}: no answer within 5 s")
    );
    // Another probe of each usual path could wait as long again.
    assert_eq!(*probe.asked.borrow(), [format!("POST {url}")]);
    assert!(d.finding.say(Lang::En).contains("within 5 s"));
    assert!(d.finding.say(Lang::Zh).contains("5秒内"));
}

#[test]
fn a_redirect_is_not_followed_and_is_named_when_no_usual_path_answers_mcp() {
    let url = "http://127.0.0.1:5000/loop";
    let probe = Scripted {
        answers: HashMap::from([
            (url.into(), Answer::Redirect),
            ("http://127.0.0.1:5000/mcp".into(), Answer::Redirect),
            ("http://127.0.0.1:5000/sse".into(), Answer::Redirect),
            ("http://127.0.0.1:5000/".into(), Answer::Redirect),
        ]),
        streams: HashMap::from([
            ("http://127.0.0.1:5000/mcp".into(), Answer::Redirect),
            ("http://127.0.0.1:5000/sse".into(), Answer::Redirect),
            ("http://127.0.0.1:5000/".into(), Answer::Redirect),
        ]),
        ..Default::default()
    };
    let d = block_on(diagnose(&probe, PAGE, url, Row::Initialize, false));
    assert_eq!(d.finding, Finding::Redirects);
    assert_eq!(
        d.checks[1].detail,
        format!("POST {url}: a redirect (not followed)")
    );
    assert_eq!(d.checks[3].verdict, Verdict::Failed);
    // The address, then each usual path once by POST and once by GET: a bounded number of asks.
    assert_eq!(probe.asked.borrow().len(), 7);

    // Where a usual path answers MCP, that is the finding, redirect or not.
    let mut probe = probe;
    probe.answers.insert(
        "http://127.0.0.1:5000/mcp".into(),
        read(
            200,
            "application/json",
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        ),
    );
    let d = block_on(diagnose(&probe, PAGE, url, Row::Initialize, false));
    assert_eq!(
        d.finding,
        Finding::Elsewhere {
            url: "http://127.0.0.1:5000/mcp".into()
        }
    );
}

#[test]
fn only_the_origin_is_probed_without_cors_never_a_links_path_or_query() {
    let url = "http://127.0.0.1:3000/api/delete?all=1";
    let probe = Scripted::default();
    let d = block_on(diagnose(&probe, PAGE, url, Row::Initialize, true));
    assert_eq!(
        d.finding,
        Finding::NothingListens {
            origin: "http://127.0.0.1:3000".into()
        }
    );
    let asked = probe.asked.borrow();
    let unasked: Vec<&String> = asked.iter().filter(|a| a.starts_with("no-cors")).collect();
    assert_eq!(unasked, ["no-cors http://127.0.0.1:3000/"], "{asked:?}");
}

#[test]
fn a_private_address_a_link_chose_is_not_probed_at_all() {
    for url in [
        "http://192.168.1.1/cgi-bin/reboot",
        "http://10.0.0.2:8080/mcp",
        "http://printer.local/mcp",
    ] {
        let probe = Scripted::default();
        let d = block_on(diagnose(&probe, PAGE, url, Row::Initialize, true));
        assert!(
            matches!(d.finding, Finding::NotProbed { .. }),
            "{url}: {:?}",
            d.finding
        );
        assert!(
            probe.asked.borrow().is_empty(),
            "{url}: {:?}",
            probe.asked.borrow()
        );
        // Typed by the user, the same address is diagnosed.
        let probe = Scripted::default();
        let d = block_on(diagnose(&probe, PAGE, url, Row::Initialize, false));
        assert!(!matches!(d.finding, Finding::NotProbed { .. }), "{url}");
        assert!(!probe.asked.borrow().is_empty(), "{url}");
    }
    // A link to this machine is diagnosed as ever.
    let probe = Scripted::default();
    let d = block_on(diagnose(
        &probe,
        PAGE,
        "http://127.0.0.1:3000/mcp",
        Row::Initialize,
        true,
    ));
    assert!(!matches!(d.finding, Finding::NotProbed { .. }));
}
