//! The App diagram: its five columns, its rows in order, each explained in both languages with
//! a link to the extension's specification where the row is the extension's.

use super::*;
use crate::record::explain::explain;
use mcp_flow_client::era::Era;

#[test]
fn the_app_diagram_has_the_app_between_host_and_client_and_no_model() {
    let d = app();
    assert_eq!(d.id, "dp");
    assert_eq!((d.title.en, d.title.zh), ("App", "应用"));
    let actors: Vec<Actor> = d.actors().collect();
    assert_eq!(
        actors,
        [
            Actor::User,
            Actor::Host,
            Actor::App,
            Actor::Client,
            Actor::Server
        ]
    );
    assert_eq!(d.column_of(Actor::Llm), None);
    // Every actor a row names is a column: authorization_tests checks it for every diagram.
    assert_eq!(diagram("dp"), Some(app()));
    // No other diagram has the app.
    for other in diagrams()
        .iter()
        .chain(modern_diagrams())
        .chain([authorization(), browse()])
    {
        assert_eq!(other.column_of(Actor::App), None, "{}", other.id);
        assert!(other.rows().all(|r| !r.is_app()), "{}", other.id);
    }
}

#[test]
fn every_app_row_appears_once_numbered_in_order_and_drawn_last() {
    let rows: Vec<Row> = app().rows().collect();
    let listed: Vec<Row> = app_rows().collect();
    assert_eq!(rows, listed);
    assert_eq!(rows.len(), 21);
    for (i, m) in app().messages().enumerate() {
        let n = i + 1;
        assert_eq!(m.number, Some(n as u8), "{}", m.id);
        assert_eq!(m.id.id(), format!("app-{n}"));
        let (d, found) = find_row(m.id).expect("found");
        assert_eq!((d.id, found.id), ("dp", m.id));
    }
    let all = all_rows();
    assert_eq!(all[all.len() - rows.len()..], rows[..], "drawn last");
    // The app's messages go between host and app; the MCP requests under them between
    // client and server.
    let between = |row: Row| {
        let m = app().message(row).expect("row");
        (m.from, m.to)
    };
    assert_eq!(between(Row::AppInitialize), (Actor::App, Actor::Host));
    assert_eq!(between(Row::AppToolResult), (Actor::Host, Actor::App));
    assert_eq!(between(Row::AppForward), (Actor::Client, Actor::Server));
    assert_eq!(between(Row::AppLinkConsent), (Actor::Host, Actor::User));
}

#[test]
fn each_app_row_is_explained_in_both_languages_and_links_its_spec() {
    for row in app_rows() {
        for era in [Era::Legacy, Era::Modern] {
            let (en, link) = explain(row, Lang::En, era, None);
            let (zh, _) = explain(row, Lang::Zh, era, None);
            assert!(!en.is_empty() && !zh.is_empty() && en != zh, "{row}");
            let mcp = matches!(
                row,
                Row::AppRead
                    | Row::AppReadResult
                    | Row::AppForward
                    | Row::AppForwardResult
                    | Row::AppLog
            );
            if mcp {
                assert!(
                    link.starts_with("https://modelcontextprotocol.io/specification/"),
                    "{link}"
                );
            } else {
                assert_eq!(link, app::APPS_SPEC, "{row}");
            }
        }
    }
}
