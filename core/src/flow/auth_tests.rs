//! The host with authorization against a scripted protected server: the Authorization diagram's
//! rows are done in order from real exchanges, each exchange under its row, and the request the
//! 401 interrupted goes again under its own row.

use std::cell::RefCell;
use std::rc::Rc;

use futures_executor::block_on;
use serde_json::json;

use super::gate::{Gate, Mode};
use super::host::{Approval, Emit, Host, HostEvent, ServerMemory};
use crate::diagram::explained::fits;
use crate::diagram::{Row, all_rows};
use crate::llm::offline::OfflineModel;
use crate::record::payload::Payload;
use crate::record::run::{RowStatus, Run, RunEvent};
use mcp_flow_client::auth::AuthConfig;
use mcp_flow_client::era::EraChoice;
use mcp_flow_client::http::HttpRequest;
use mcp_flow_client::scripted::*;

const PRM: &str = "http://127.0.0.1:8000/.well-known/oauth-protected-resource/mcp";

fn protected_then_weather() -> Vec<Script> {
    let www = format!(r#"Bearer scope="mcp:basic", resource_metadata="{PRM}""#);
    let mut script = vec![
        Script::Respond {
            status: 401,
            headers: vec![("www-authenticate", www)],
            chunks: vec![Vec::new()],
        },
        json_reply(json!({"resource": "http://127.0.0.1:8000/mcp",
            "authorization_servers": ["http://127.0.0.1:8000"]})),
        json_reply(json!({
            "issuer": "http://127.0.0.1:8000",
            "authorization_endpoint": "http://127.0.0.1:8000/oauth/authorize",
            "token_endpoint": "http://127.0.0.1:8000/oauth/token",
            "registration_endpoint": "http://127.0.0.1:8000/oauth/register",
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "authorization_response_iss_parameter_supported": true,
        })),
        Script::Respond {
            status: 201,
            headers: vec![("content-type", "application/json".into())],
            chunks: vec![br#"{"client_id":"dcr-1"}"#.to_vec()],
        },
        Script::From(Box::new(|request: &HttpRequest| {
            let state = url::Url::parse(&request.url)
                .ok()
                .and_then(|u| {
                    u.query_pairs()
                        .find(|(k, _)| k == "state")
                        .map(|(_, v)| v.into_owned())
                })
                .unwrap_or_default();
            Script::Respond {
                status: 302,
                headers: vec![(
                    "location",
                    format!(
                        "http://localhost:3000/callback?code=c0de&state={state}&iss=http%3A%2F%2F127.0.0.1%3A8000"
                    ),
                )],
                chunks: vec![Vec::new()],
            }
        })),
        json_reply(
            json!({"access_token": "t0k3n", "token_type": "Bearer", "expires_in": 3600,
            "scope": "mcp:basic"}),
        ),
    ];
    script.extend(super::tests::weather_server_script());
    script
}

#[test]
fn the_authorization_rows_are_done_in_order_and_the_interrupted_request_goes_again() {
    let http = Rc::new(Scripted::default());
    *http.script.borrow_mut() = protected_then_weather().into();
    let run = Rc::new(RefCell::new(Run::new(all_rows())));
    let order = Rc::new(RefCell::new(Vec::new()));
    let (sink, seen) = (run.clone(), order.clone());
    let emit: Emit = Rc::new(move |event: HostEvent| {
        if let HostEvent::Run(event) = event {
            match &event {
                RunEvent::Done { row, payload, .. } => {
                    assert!(
                        fits(*row, payload.as_ref()),
                        "{row} finished with {payload:?}"
                    );
                    seen.borrow_mut().push(*row);
                }
                RunEvent::Skipped { row, .. } => seen.borrow_mut().push(*row),
                _ => {}
            }
            sink.borrow_mut().apply(event);
        }
    });
    let client = super::tests::scripted_client(&http, &emit);
    let host = Host::new(
        client,
        OfflineModel::new(http.clone()),
        Rc::new(Gate::new(Mode::Play, None)),
        Approval::Auto,
        emit,
    )
    .with_era(EraChoice::Legacy, ServerMemory::default())
    .with_authorization(AuthConfig::native(), None);
    block_on(host.discover()).expect("connects after authorizing");
    let order = order.borrow();
    let auth: Vec<Row> = order.iter().copied().filter(|r| r.is_auth()).collect();
    // Every row of the Authorization diagram but the refresh's, in the diagram's order.
    let drawn: Vec<Row> = crate::diagram::authorization()
        .rows()
        .filter(|r| !matches!(r, Row::AuthRefresh | Row::AuthRefreshResult))
        .collect();
    assert_eq!(auth, drawn);
    assert_eq!(auth.len(), 13);
    let run = run.borrow();
    let exchanges = |row: Row| -> Vec<(String, Option<u16>)> {
        run.row(row)
            .map(|r| {
                r.mcp
                    .iter()
                    .map(|&seq| {
                        let x = &run.mcp.exchanges[seq];
                        (
                            format!(
                                "{} {}",
                                x.method,
                                x.url.split('?').next().unwrap_or_default()
                            ),
                            x.status,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    // The 401 and the retry are the initialize row's; each step's request is its own row's.
    assert_eq!(
        exchanges(Row::Initialize),
        [
            ("POST http://127.0.0.1:8000/mcp".to_owned(), Some(401)),
            ("POST http://127.0.0.1:8000/mcp".to_owned(), Some(200)),
        ]
    );
    assert_eq!(
        exchanges(Row::AuthResourceMetadata),
        [(format!("GET {PRM}"), Some(200))]
    );
    assert_eq!(
        exchanges(Row::AuthRegister),
        [(
            "POST http://127.0.0.1:8000/oauth/register".to_owned(),
            Some(201)
        )]
    );
    assert_eq!(
        exchanges(Row::AuthConsent),
        [(
            "GET http://127.0.0.1:8000/oauth/authorize".to_owned(),
            Some(302)
        )]
    );
    assert_eq!(
        exchanges(Row::AuthToken),
        [(
            "POST http://127.0.0.1:8000/oauth/token".to_owned(),
            Some(200)
        )]
    );
    assert_eq!(run.status(Row::InitializeResult), RowStatus::Done);
    let detail = |row: Row| match run.payload(row) {
        Some(Payload::Auth { detail }) => detail.clone(),
        other => panic!("{row}: {other:?}"),
    };
    assert!(detail(Row::AuthChallenge).contains("HTTP 401"));
    assert!(detail(Row::AuthRegistered).contains("client_id dcr-1"));
    assert!(detail(Row::AuthTokenResult).contains("mcp:basic"));
    let recorded = serde_json::to_string(&*run).expect("serializes");
    assert!(!recorded.contains("t0k3n") && !recorded.contains("c0de"));
}
