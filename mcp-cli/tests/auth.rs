//! The client's authorization against the weather server's own (`--auth --auth-auto-approve`),
//! natively, in both eras: the 401 starts the flow, `get_weather` steps up to `weather:read`,
//! an expired token is refreshed, and no token is anywhere in the record or a curl copy.

mod support;

use std::cell::RefCell;
use std::rc::Rc;

use mcp_cli::http::{Native, TokioClock};
use mcp_cli::session;
use mcp_flow_client::auth::{AuthConfig, AuthStep, Authorizer};
use mcp_flow_client::client::McpClient;
use mcp_flow_client::era::EraChoice;
use mcp_flow_client::record::{Log, curl, shared_log};
use mcp_flow_client::tools::{CallOutcome, result_text};
use serde_json::json;

/// The protected weather server (`--auth --auth-auto-approve` and `extra`); returns its MCP URL.
fn protected_server(extra: &[&str]) -> String {
    let mut flags = vec!["--auth", "--auth-auto-approve"];
    flags.extend_from_slice(extra);
    support::weather_server(&flags)
}

struct Run {
    client: McpClient<Native>,
    log: Rc<RefCell<Log>>,
    auth: Rc<Authorizer>,
}

fn client(url: &str) -> Run {
    let (log, recorder) = shared_log();
    let client = McpClient::new(
        Native::new().expect("reqwest"),
        Rc::new(TokioClock::new()),
        url,
        recorder,
    );
    let auth = Rc::new(Authorizer::new(AuthConfig::native(), None));
    client.transport.set_authorizer(Some(auth.clone()));
    Run { client, log, auth }
}

async fn weather(run: &Run) -> String {
    match run
        .client
        .call("get_weather", json!({"location": "Tokyo"}), None, None)
        .await
        .expect("tools/call")
    {
        CallOutcome::Complete(result) => result_text(&result),
        other => panic!("no result: {other:?}"),
    }
}

/// Each exchange as (status, what it was), in order.
fn steps(log: &RefCell<Log>) -> Vec<(Option<u16>, String)> {
    log.borrow()
        .exchanges
        .iter()
        .map(|x| {
            let what = match (x.auth, &x.rpc_method) {
                (Some(step), _) => format!("{step:?}"),
                (None, Some(method)) => method.clone(),
                (None, None) => x.method.clone(),
            };
            (x.status, what)
        })
        .collect()
}

fn assert_no_secret(run: &Run, secrets: &[String]) {
    let log = run.log.borrow();
    let record = serde_json::to_string(&log.exchanges).expect("serializes");
    let curls: String = log.exchanges.iter().map(curl).collect();
    for secret in secrets {
        assert!(!record.contains(secret.as_str()), "a secret in the record");
        assert!(!curls.contains(secret.as_str()), "a secret in a curl copy");
    }
}

fn local() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn step(status: u16, what: &str) -> (Option<u16>, String) {
    (Some(status), what.to_owned())
}

#[test]
fn both_eras_authorize_step_up_for_get_weather_and_record_no_secret() {
    let url = protected_server(&[]);
    for (choice, first) in [
        (EraChoice::Modern, "server/discover"),
        (EraChoice::Legacy, "initialize"),
    ] {
        let run = client(&url);
        local().block_on(async {
            session::connect(&run.client, choice)
                .await
                .expect("connects");
            session::list_tools(&run.client).await.expect("lists");
            assert_eq!(weather(&run).await, "Sunny");
        });
        let steps = steps(&run.log);
        assert_eq!(
            steps[..7],
            [
                step(401, first),
                step(200, "ResourceMetadata"),
                step(200, "ServerMetadata"),
                step(201, "Registration"),
                step(302, "Consent"),
                step(200, "Token"),
                step(200, first),
            ],
            "{choice:?}: {steps:?}"
        );
        // The call needs weather:read: 403, a second authorization (the client is known now),
        // and the call again.
        let call_at = steps
            .iter()
            .position(|s| s == &step(403, "tools/call"))
            .unwrap_or_else(|| panic!("{choice:?}: no step-up in {steps:?}"));
        assert_eq!(
            steps[call_at + 1..],
            [
                step(200, "ResourceMetadata"),
                step(200, "ServerMetadata"),
                step(302, "Consent"),
                step(200, "Token"),
                step(200, "tools/call"),
            ],
            "{choice:?}"
        );
        let log = run.log.borrow();
        let authorize = log
            .exchanges
            .iter()
            .rfind(|x| x.auth == Some(AuthStep::Consent))
            .expect("an authorization request");
        assert!(
            authorize.url.contains("scope=mcp%3Abasic+weather%3Aread"),
            "{}",
            authorize.url
        );
        drop(log);
        let token = run.auth.access_token().expect("a token");
        assert_no_secret(&run, &[token]);
    }
}

#[test]
fn a_token_past_its_lifetime_is_refreshed_and_the_next_request_goes_through() {
    let url = protected_server(&["--auth-token-secs", "1"]);
    let run = client(&url);
    local().block_on(async {
        session::connect(&run.client, EraChoice::Modern)
            .await
            .expect("connects");
        let first = run.auth.access_token().expect("a token");
        tokio::time::sleep(std::time::Duration::from_millis(1_200)).await;
        session::list_tools(&run.client).await.expect("lists");
        let second = run.auth.access_token().expect("a token");
        assert_ne!(first, second, "a new access token");
        assert_no_secret(&run, &[first, second]);
    });
    let steps = steps(&run.log);
    let refresh = steps
        .iter()
        .position(|s| s.1 == "Refresh")
        .unwrap_or_else(|| panic!("no refresh in {steps:?}"));
    assert_eq!(steps[refresh].0, Some(200));
    assert_eq!(steps[refresh + 1], step(200, "tools/list"));
}
