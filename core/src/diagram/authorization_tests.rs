//! The Authorization diagram: its data, and how it lays out with its own columns.

use super::*;

const AUTH_ROWS: [Row; 15] = [
    Row::AuthChallenge,
    Row::AuthResourceMetadata,
    Row::AuthResourceMetadataResult,
    Row::AuthServerMetadata,
    Row::AuthServerMetadataResult,
    Row::AuthRegister,
    Row::AuthRegistered,
    Row::AuthOpen,
    Row::AuthConsent,
    Row::AuthRedirect,
    Row::AuthToken,
    Row::AuthTokenResult,
    Row::AuthRetry,
    Row::AuthRefresh,
    Row::AuthRefreshResult,
];

fn message(row: Row) -> &'static Message {
    authorization()
        .message(row)
        .unwrap_or_else(|| panic!("{row} is not in the Authorization diagram"))
}

#[test]
fn authorization_has_its_own_participants_in_order() {
    let d = authorization();
    assert_eq!(d.id, "da");
    assert_eq!(d.title.en, "Authorization (OAuth 2.1)");
    assert_eq!(d.title.zh, "授权（OAuth 2.1）");
    let actors: Vec<Actor> = d.actors().collect();
    assert_eq!(
        actors,
        [
            Actor::User,
            Actor::Host,
            Actor::Client,
            Actor::Server,
            Actor::AuthServer
        ]
    );
    assert_eq!(d.column_of(Actor::Llm), None);
    assert_eq!(d.column(Actor::AuthServer), 4);
    assert_eq!(d.column(Actor::Client), 2);
    assert_eq!(d.participant(Actor::Host).name, "ClientApp (Host)");
    assert_eq!(
        d.participant(Actor::Server).subtitle,
        Some(Text::new("Protected Resource", "受保护资源"))
    );
    assert_eq!(
        d.participant(Actor::AuthServer).name,
        "Authorization Server"
    );
    assert_eq!(d.participant(Actor::User).subtitle, None);
    for p in &d.participants[1..] {
        let s = p.subtitle.expect("subtitle");
        assert!(
            !s.en.is_empty() && !s.zh.is_empty() && s.zh != s.en,
            "{}",
            p.name
        );
    }
    assert_eq!(Actor::AuthServer.mermaid_id(), "AuthServer");
    assert_eq!(Actor::AuthServer.slug(), "auth");
    assert_eq!(Actor::AuthServer.css_var(), "--mf-auth");
}

#[test]
fn every_actor_a_row_names_is_a_participant_of_its_diagram() {
    let every =
        diagrams()
            .iter()
            .chain(modern_diagrams())
            .chain([authorization(), browse(), app()]);
    for d in every {
        for m in d.messages() {
            assert!(d.column_of(m.from).is_some(), "{}: {:?}", m.id, m.from);
            assert!(d.column_of(m.to).is_some(), "{}: {:?}", m.id, m.to);
        }
        for n in d.notes() {
            for a in n.placement.actors() {
                assert!(d.column_of(a).is_some(), "{}: note over {a:?}", d.id);
            }
        }
        let mut actors: Vec<Actor> = d.actors().collect();
        actors.sort();
        actors.dedup();
        assert_eq!(
            actors.len(),
            d.participants.len(),
            "{}: an actor twice",
            d.id
        );
    }
}

#[test]
fn every_auth_row_appears_once_in_order() {
    let rows: Vec<Row> = authorization().rows().collect();
    assert_eq!(rows, AUTH_ROWS);
    assert!(rows.iter().all(|r| r.is_auth()));
    // The Authorization diagram holds every auth row and no other; no other diagram has one.
    let auth_in_all: Vec<Row> = Row::ALL.iter().copied().filter(|r| r.is_auth()).collect();
    assert_eq!(auth_in_all, AUTH_ROWS);
    for d in diagrams().iter().chain(modern_diagrams()) {
        assert!(d.rows().all(|r| !r.is_auth()), "{}", d.id);
    }
    for row in AUTH_ROWS {
        let (d, m) = find_row(row).expect("found");
        assert_eq!((d.id, m.id), ("da", row));
    }
    assert_eq!(diagram("da"), Some(authorization()));
    let all = all_rows();
    assert_eq!(
        all[..AUTH_ROWS.len()],
        AUTH_ROWS,
        "drawn first, as Row::ALL lists them"
    );
}

#[test]
fn the_flow_is_numbered_one_to_thirteen_and_refresh_is_not() {
    let numbered: Vec<(u8, &str)> = authorization()
        .messages()
        .filter_map(|m| m.number.map(|n| (n, m.id.id())))
        .collect();
    assert_eq!(numbered.len(), 13);
    for (n, id) in numbered {
        assert_eq!(id, format!("a-{n}"));
    }
    assert_eq!(message(Row::AuthRefresh).number, None);
    assert_eq!(message(Row::AuthRefreshResult).number, None);
}

#[test]
fn exactly_registration_and_refresh_are_optional() {
    let optional: Vec<Row> = authorization()
        .messages()
        .filter(|m| m.optional)
        .map(|m| m.id)
        .collect();
    assert_eq!(
        optional,
        [
            Row::AuthRegister,
            Row::AuthRegistered,
            Row::AuthRefresh,
            Row::AuthRefreshResult
        ]
    );
    for row in optional {
        let m = message(row);
        assert!(m.label.en.starts_with("(Optional) "), "{}", m.label.en);
        assert!(m.label.zh.starts_with("(可选) "), "{}", m.label.zh);
        assert!(
            !m.added,
            "{row}: not a tutorial row, but not an era's addition either"
        );
    }
    assert!(authorization().messages().all(|m| !m.added));
}

#[test]
fn arrows_run_between_the_right_actors() {
    use Actor::*;
    use ArrowKind::*;
    let expected = [
        (Row::AuthChallenge, Server, Client, Dashed),
        (Row::AuthResourceMetadata, Client, Server, Solid),
        (Row::AuthResourceMetadataResult, Server, Client, Dashed),
        (Row::AuthServerMetadata, Client, AuthServer, Solid),
        (Row::AuthServerMetadataResult, AuthServer, Client, Dashed),
        (Row::AuthRegister, Client, AuthServer, Solid),
        (Row::AuthRegistered, AuthServer, Client, Dashed),
        (Row::AuthOpen, Host, User, Solid),
        (Row::AuthConsent, User, AuthServer, Solid),
        (Row::AuthRedirect, AuthServer, Host, Dashed),
        (Row::AuthToken, Client, AuthServer, Solid),
        (Row::AuthTokenResult, AuthServer, Client, Dashed),
        (Row::AuthRetry, Client, Server, Solid),
        (Row::AuthRefresh, Client, AuthServer, Solid),
        (Row::AuthRefreshResult, AuthServer, Client, Dashed),
    ];
    for (row, from, to, kind) in expected {
        let m = message(row);
        assert_eq!((m.from, m.to, m.kind), (from, to, kind), "{row}");
        assert!(!m.is_self(), "{row}");
    }
    assert!(
        authorization()
            .messages()
            .all(|m| m.from != Llm && m.to != Llm)
    );
}

#[test]
fn activations_pair_up_like_the_tutorials() {
    let d = authorization();
    let mut stacks: Vec<Vec<Row>> = vec![Vec::new(); d.participants.len()];
    let mut pairs = Vec::new();
    for m in d.messages() {
        if m.deactivate {
            let opened = stacks[d.column(m.from)]
                .pop()
                .unwrap_or_else(|| panic!("{} deactivates an inactive actor", m.id));
            pairs.push((opened, m.id));
        }
        if m.activate {
            stacks[d.column(m.to)].push(m.id);
        }
    }
    assert!(stacks.iter().all(Vec::is_empty));
    assert_eq!(
        pairs,
        [
            (Row::AuthResourceMetadata, Row::AuthResourceMetadataResult),
            (Row::AuthServerMetadata, Row::AuthServerMetadataResult),
            (Row::AuthRegister, Row::AuthRegistered),
            (Row::AuthToken, Row::AuthTokenResult),
            // The client is busy authorizing from the challenge until it sends the request again.
            (Row::AuthChallenge, Row::AuthRetry),
            (Row::AuthRefresh, Row::AuthRefreshResult),
        ]
    );
}

#[test]
fn labels_say_what_goes_over_the_wire() {
    let label = |row: Row| message(row).label.en;
    assert!(label(Row::AuthChallenge).contains("401 Unauthorized"));
    assert!(label(Row::AuthChallenge).contains("403 insufficient_scope"));
    assert!(label(Row::AuthChallenge).contains("WWW-Authenticate: Bearer resource_metadata="));
    assert!(
        label(Row::AuthResourceMetadata).starts_with("GET /.well-known/oauth-protected-resource")
    );
    assert!(label(Row::AuthResourceMetadata).contains("RFC 9728"));
    for field in ["resource", "authorization_servers", "scopes_supported"] {
        assert!(
            label(Row::AuthResourceMetadataResult).contains(field),
            "{field}"
        );
    }
    assert!(
        label(Row::AuthServerMetadata).starts_with("GET /.well-known/oauth-authorization-server")
    );
    assert!(label(Row::AuthServerMetadata).contains("openid-configuration"));
    assert!(
        label(Row::AuthServerMetadataResult).contains("code_challenge_methods_supported: [S256]")
    );
    assert!(label(Row::AuthRegister).contains("POST /register"));
    assert!(label(Row::AuthRegister).contains("application_type"));
    assert!(label(Row::AuthRegistered).contains("{client_id}"));
    for param in [
        "response_type=code",
        "code_challenge (S256)",
        "state",
        "scope",
        "resource",
    ] {
        assert!(label(Row::AuthOpen).contains(param), "{param}");
    }
    assert!(label(Row::AuthRedirect).contains("[code, state, iss]"));
    for param in [
        "grant_type=authorization_code",
        "code_verifier",
        "redirect_uri",
        "resource",
    ] {
        assert!(label(Row::AuthToken).contains(param), "{param}");
    }
    assert!(label(Row::AuthTokenResult).contains("token_type: Bearer"));
    assert!(label(Row::AuthRetry).contains("Authorization: Bearer <access token>"));
    assert!(label(Row::AuthRefresh).contains("grant_type=refresh_token"));
    assert!(label(Row::AuthRefresh).contains("resource"));
    let notes: String = authorization()
        .notes()
        .map(|n| n.text.en)
        .collect::<Vec<_>>()
        .join("\n");
    for why in [
        "diagram 1 or 2",
        "issuer",
        "RFC 9207",
        "PKCE",
        "RFC 8707",
        "step-up",
    ] {
        assert!(notes.contains(why), "no note says {why}");
    }
}

/// Both languages, no empty lines, numbers as badges: `tests::every_text_non_empty_in_both_languages`,
/// which covers this diagram too. Here: the texts name parameters, never a secret's value.
#[test]
fn texts_hold_no_secret() {
    let d = authorization();
    let texts = d
        .messages()
        .map(|m| m.label)
        .chain(d.notes().map(|n| n.text));
    for t in texts {
        for lang in Lang::ALL {
            let s = t.get(lang).to_ascii_lowercase();
            for secret in [
                "code=",
                "code_verifier=",
                "refresh_token=",
                "access_token=",
                "client_secret",
                "state=",
                "bearer ey",
                "password",
            ] {
                assert!(!s.contains(secret), "{lang:?} text shows a {secret}: {s}");
            }
        }
    }
}

#[test]
fn authorization_lays_out_with_its_own_columns() {
    let opts = LayoutOptions::default();
    let d = authorization();
    for lang in Lang::ALL {
        let g = layout(d, lang, &opts);
        let actors: Vec<Actor> = g.lifelines.iter().map(|l| l.actor).collect();
        assert_eq!(actors, d.actors().collect::<Vec<_>>());
        assert!(g.lifeline(Actor::Llm).is_none());
        assert!(g.participants.iter().all(|p| p.actor != Actor::Llm));
        assert!(g.activations.iter().all(|a| a.actor != Actor::Llm));
        // The authorization server is the rightmost column, where the tutorial draws MCPServer.
        let rightmost = g.lifelines.last().unwrap();
        assert_eq!(rightmost.actor, Actor::AuthServer);
        let tutorial = layout(discovery(), lang, &opts);
        assert_eq!(rightmost.x, tutorial.lifeline_x(Actor::Server));
        assert_eq!(g.lifeline_x(Actor::Client), tutorial.lifeline_x(Actor::Llm));
        assert_eq!(g.width, tutorial.width);
        assert_eq!(
            g.participants.last().map(|p| p.actor),
            Some(Actor::AuthServer)
        );
        // Arrows end on the lifelines of their actors.
        let redirect = g.row(Row::AuthRedirect).unwrap();
        assert_eq!(
            (redirect.x1, redirect.x2, redirect.dir),
            (
                g.lifeline_x(Actor::AuthServer),
                g.lifeline_x(Actor::Host),
                ArrowDir::Left
            )
        );
        let consent = g.row(Row::AuthConsent).unwrap();
        assert_eq!(
            (consent.x1, consent.x2, consent.dir),
            (
                g.lifeline_x(Actor::User),
                g.lifeline_x(Actor::AuthServer),
                ArrowDir::Right
            )
        );
        let open = g.row(Row::AuthOpen).unwrap();
        assert_eq!(
            (open.x1, open.x2),
            (g.lifeline_x(Actor::Host), g.lifeline_x(Actor::User))
        );
        // The client's bar spans the whole flow, the servers' bars lie inside it.
        let client = g
            .activations
            .iter()
            .find(|a| a.actor == Actor::Client)
            .unwrap();
        assert_eq!(
            (client.opened_by, client.closed_by),
            (Row::AuthChallenge, Some(Row::AuthRetry))
        );
        for a in g
            .activations
            .iter()
            .filter(|a| a.closed_by != Some(Row::AuthRefreshResult) && a.actor != Actor::Client)
        {
            assert!(
                client.y_start < a.y_start && a.y_end < client.y_end,
                "{a:?}"
            );
        }
    }
}

#[test]
fn the_tutorials_layout_is_unchanged_by_the_diagrams_own_columns() {
    // Lifelines at the tutorial's fixed columns: the diagrams' own columns leave them there.
    let opts = LayoutOptions::default();
    for d in diagrams().iter().chain(modern_diagrams()) {
        let g = layout(d, Lang::En, &opts);
        for (i, l) in g.lifelines.iter().enumerate() {
            assert_eq!(l.actor, Actor::ALL[i]);
            let x = opts.margin + opts.box_width / 2.0 + i as f32 * opts.column_gap;
            assert_eq!(l.x, x, "{} {:?}", d.id, l.actor);
        }
        assert_eq!(
            g.width,
            2.0 * opts.margin + 4.0 * opts.column_gap + opts.box_width
        );
    }
}
