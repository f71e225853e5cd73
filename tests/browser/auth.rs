//! A run against a protected weather server (`--auth --auth-auto-approve`) in both eras, up to
//! the user's consent: the first request's 401 starts the authorization, the Authorization
//! diagram is drawn and its rows are done from real exchanges (metadata, registration), the
//! page's dialog offers the authorization request (PKCE S256, state, scope, resource), and
//! cancelling it fails the run at its row, with nothing left waiting. The consent itself (a popup)
//! cannot run here: the test runner's page is cross-origin isolated, which cuts a popup off once
//! it leaves the origin; the e2e suite runs it against the shipped build.

use leptos::prelude::*;
use mcp_flow::diagram::Row;
use mcp_flow::flow::gate::Mode;
use mcp_flow::mcp::era::EraChoice;
use mcp_flow::record::run::RowStatus;
use wasm_bindgen_test::*;

use crate::common;
use common::*;

fn query(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == name).then(|| {
            js_sys::decode_uri_component(&v.replace('+', " "))
                .ok()?
                .as_string()
        })?
    })
}

async fn cancelled(era: EraChoice, first: Row) {
    let ctl = playing(
        Live::Auth.url().to_owned(),
        "What's the weather in Tokyo?",
        era,
    );
    let (root, _handle) = mount(ctl);
    ctl.start(Mode::Play);
    let asked = until(20_000, || {
        root.query_selector("#mf-auth-open")
            .ok()
            .flatten()
            .is_some()
    })
    .await;
    assert!(
        asked,
        "{era:?}: no authorization asked: {}",
        text(&root, "#mf-error")
    );
    // The Authorization diagram is drawn, its rows so far done from real exchanges.
    assert_eq!(state(&root, "a-1"), "done");
    assert_eq!(state(&root, "a-3"), "done");
    assert_eq!(state(&root, "a-7"), "done");
    assert_eq!(state(&root, "a-8"), "done");
    assert_eq!(state(&root, "a-9"), "active", "the user's turn");
    ctl.run.with_untracked(|r| {
        let statuses = |row: Row| -> Vec<Option<u16>> {
            r.row(row)
                .map(|x| {
                    x.mcp
                        .iter()
                        .map(|&seq| r.mcp.exchanges[seq].status)
                        .collect()
                })
                .unwrap_or_default()
        };
        assert_eq!(
            statuses(first),
            [Some(401)],
            "{era:?}: the first request was refused"
        );
        assert_eq!(statuses(Row::AuthResourceMetadata), [Some(200)], "{era:?}");
        assert_eq!(statuses(Row::AuthServerMetadata), [Some(200)], "{era:?}");
        assert_eq!(statuses(Row::AuthRegister), [Some(201)], "{era:?}");
    });
    // The request the dialog offers: PKCE with S256, state, the 401's scope, this resource.
    let url = ctl.dialogs.authorize.get_untracked().expect("a prompt");
    assert_eq!(text(&root, ".mf-auth-url"), url);
    assert_eq!(
        query(&url, "code_challenge_method").as_deref(),
        Some("S256")
    );
    assert_eq!(query(&url, "scope").as_deref(), Some("mcp:basic"));
    assert_eq!(query(&url, "resource").as_deref(), Some(Live::Auth.url()));
    assert!(query(&url, "state").is_some_and(|s| s.len() >= 16));
    assert!(query(&url, "code_challenge").is_some_and(|c| c.len() == 43));
    click(&root, "#mf-auth-cancel");
    let ended = until(10_000, || !ctl.running.get_untracked()).await;
    assert!(ended, "{era:?}: the run still waits after the cancel");
    assert!(ctl.dialogs.authorize.with_untracked(Option::is_none));
    ctl.run.with_untracked(|r| {
        assert_eq!(r.status(Row::AuthConsent), RowStatus::Failed, "{era:?}");
        let (row, error) = r.first_error().expect("an error");
        assert!(error.contains("cancelled"), "{era:?}: {row}: {error}");
        assert_eq!(
            r.status(Row::AuthToken),
            RowStatus::Pending,
            "{era:?}: no code redeemed"
        );
    });
    assert!(text(&root, "#mf-error").contains("cancelled"));
    ctl.end_run(None);
}

#[wasm_bindgen_test]
async fn a_protected_server_draws_the_authorization_and_a_cancel_ends_it_at_its_row_2026_07_28() {
    cancelled(EraChoice::Modern, Row::Discover).await;
}

#[wasm_bindgen_test]
async fn a_protected_server_draws_the_authorization_and_a_cancel_ends_it_at_its_row_2025_11_25() {
    cancelled(EraChoice::Legacy, Row::Initialize).await;
}

#[wasm_bindgen_test]
async fn a_pre_registered_client_from_the_settings_is_used_instead_of_registering() {
    let ctl = playing(
        Live::Auth.url().to_owned(),
        "What's the weather in Tokyo?",
        EraChoice::Modern,
    );
    ctl.settings.client_id.set("mcp-flow-demo".into());
    ctl.settings
        .client_secret
        .set("s3cret-kept-in-memory".into());
    let (root, _handle) = mount(ctl);
    ctl.start(Mode::Play);
    let asked = until_some(20_000, ctl.dialogs.authorize).await;
    assert!(
        asked,
        "no authorization asked: {}",
        text(&root, "#mf-error")
    );
    let url = ctl.dialogs.authorize.get_untracked().expect("a prompt");
    assert_eq!(query(&url, "client_id").as_deref(), Some("mcp-flow-demo"));
    assert_eq!(state(&root, "a-6"), "skipped", "no registration");
    ctl.run.with_untracked(|r| {
        assert!(r.row(Row::AuthRegister).is_some_and(|x| x.mcp.is_empty()));
        let recorded = serde_json::to_string(r).expect("serializes");
        assert!(!recorded.contains("s3cret-kept-in-memory"));
    });
    click(&root, "#mf-auth-cancel");
    assert!(until(10_000, || !ctl.running.get_untracked()).await);
    ctl.end_run(None);
}
