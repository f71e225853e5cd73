//! The diagram "Resources, prompts, completion and tasks": its data, and how it lays out with its own
//! four columns.

use super::*;

const BROWSE_ROWS: [Row; 28] = [
    Row::Browse,
    Row::ListResources,
    Row::ListResourcesResult,
    Row::ReadResource,
    Row::ReadResourceResult,
    Row::ListTemplates,
    Row::ListTemplatesResult,
    Row::Complete,
    Row::CompleteResult,
    Row::ReadTemplate,
    Row::ReadTemplateResult,
    Row::ListPrompts,
    Row::ListPromptsResult,
    Row::GetPrompt,
    Row::GetPromptResult,
    Row::Subscribe,
    Row::Subscribed,
    Row::Updated,
    Row::Unsubscribe,
    Row::ReadUpdated,
    Row::ReadUpdatedResult,
    Row::TaskCall,
    Row::TaskCreated,
    Row::TaskPoll,
    Row::TaskStatus,
    Row::TaskResult,
    Row::TaskResultAnswer,
    Row::ShowBrowsed,
];

#[test]
fn the_browse_diagram_has_four_participants_and_no_model() {
    let d = browse();
    assert_eq!(d.id, "dr");
    assert_eq!(d.title.en, "Resources, prompts, completion and tasks");
    assert_eq!(d.title.zh, "资源、提示、补全与任务");
    let actors: Vec<Actor> = d.actors().collect();
    assert_eq!(
        actors,
        [Actor::User, Actor::Host, Actor::Client, Actor::Server]
    );
    assert_eq!(d.column_of(Actor::Llm), None);
    assert!(
        d.messages()
            .all(|m| m.from != Actor::Llm && m.to != Actor::Llm)
    );
    // Every actor a row names is a column: authorization_tests checks it for every diagram.
}

#[test]
fn every_browse_row_appears_once_numbered_in_order() {
    let rows: Vec<Row> = browse().rows().collect();
    assert_eq!(rows, BROWSE_ROWS);
    let browse_in_all: Vec<Row> = Row::ALL.iter().copied().filter(|r| r.is_browse()).collect();
    assert_eq!(browse_in_all, BROWSE_ROWS);
    for d in diagrams()
        .iter()
        .chain(modern_diagrams())
        .chain([authorization()])
    {
        assert!(d.rows().all(|r| !r.is_browse()), "{}", d.id);
    }
    for (i, m) in browse().messages().enumerate() {
        let n = i + 1;
        assert_eq!(m.number, Some(n as u8), "{}", m.id);
        assert_eq!(m.id.id(), format!("r-{n}"));
        assert!(!m.optional && !m.added, "{}", m.id);
    }
    for row in BROWSE_ROWS {
        let (d, m) = find_row(row).expect("found");
        assert_eq!((d.id, m.id), ("dr", row));
    }
    assert_eq!(diagram("dr"), Some(browse()));
    let all = all_rows();
    let before_the_app = all.len() - app_rows().count();
    assert_eq!(
        all[before_the_app - BROWSE_ROWS.len()..before_the_app],
        BROWSE_ROWS,
        "drawn last but the App diagram's"
    );
}

#[test]
fn each_request_names_its_method_and_its_answer_follows_it() {
    let d = browse();
    let label = |row: Row| d.message(row).map(|m| m.label.en).unwrap_or_default();
    let pairs = [
        (
            Row::ListResources,
            Row::ListResourcesResult,
            "resources/list",
        ),
        (Row::ReadResource, Row::ReadResourceResult, "resources/read"),
        (
            Row::ListTemplates,
            Row::ListTemplatesResult,
            "resources/templates/list",
        ),
        (Row::Complete, Row::CompleteResult, "completion/complete"),
        (Row::ReadTemplate, Row::ReadTemplateResult, "resources/read"),
        (Row::ListPrompts, Row::ListPromptsResult, "prompts/list"),
        (Row::GetPrompt, Row::GetPromptResult, "prompts/get"),
        (Row::ReadUpdated, Row::ReadUpdatedResult, "resources/read"),
    ];
    for (request, response, method) in pairs {
        let (q, a) = (d.message(request).unwrap(), d.message(response).unwrap());
        assert!(
            label(request).starts_with(&format!("{method} (Request)")),
            "{request}"
        );
        assert!(
            label(response).starts_with(&format!("{method} (Response)")),
            "{response}"
        );
        assert_eq!(
            (q.from, q.to, q.kind),
            (Actor::Client, Actor::Server, ArrowKind::Solid)
        );
        assert_eq!(
            (a.from, a.to, a.kind),
            (Actor::Server, Actor::Client, ArrowKind::Dashed)
        );
        // The server is busy from the request to its answer, like the tutorial's arrows.
        assert!(q.activate && a.deactivate, "{request}");
        assert!(d.message(request).unwrap().label.zh.contains("(请求)"));
    }
    assert!(label(Row::ListResourcesResult).contains("ttlMs, cacheScope"));
    assert!(label(Row::Complete).contains("ref/resource"));
    // Both eras' subscriptions, each named on its arrow.
    assert!(label(Row::Subscribe).contains("resources/subscribe"));
    assert!(label(Row::Subscribe).contains("subscriptions/listen"));
    assert!(label(Row::Subscribed).contains("notifications/subscriptions/acknowledged"));
    assert!(label(Row::Updated).starts_with("notifications/resources/updated"));
    assert!(label(Row::Unsubscribe).contains("resources/unsubscribe"));
    let notes: String = d.notes().map(|n| n.text.en).collect::<Vec<_>>().join("\n");
    for what in ["-32602", "-32002", "Mcp-Name", "RFC 6570", "cacheScope"] {
        assert!(notes.contains(what), "no note says {what}");
    }
}

#[test]
fn the_browse_diagram_lays_out_in_four_columns() {
    let opts = LayoutOptions::default();
    for lang in Lang::ALL {
        let g = layout(browse(), lang, &opts);
        assert_eq!(g.lifelines.len(), 4);
        assert!(g.lifeline(Actor::Llm).is_none());
        assert_eq!(
            g.width,
            2.0 * opts.margin + 3.0 * opts.column_gap + opts.box_width
        );
        let shown = g.row(Row::ShowBrowsed).expect("drawn");
        assert_eq!(
            (shown.x1, shown.x2, shown.dir),
            (
                g.lifeline_x(Actor::Host),
                g.lifeline_x(Actor::User),
                ArrowDir::Left
            )
        );
        // The host's bar spans the whole browse, the server's bars lie inside it.
        let host = g
            .activations
            .iter()
            .find(|a| a.actor == Actor::Host)
            .unwrap();
        assert_eq!(
            (host.opened_by, host.closed_by),
            (Row::Browse, Some(Row::ShowBrowsed))
        );
        let server: Vec<_> = g
            .activations
            .iter()
            .filter(|a| a.actor == Actor::Server)
            .collect();
        // Each request and its answer, the subscription until the update, the task until its
        // result.
        assert_eq!(server.len(), 10);
        assert!(
            server
                .iter()
                .all(|a| host.y_start < a.y_start && a.y_end < host.y_end)
        );
    }
}
