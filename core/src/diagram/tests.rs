//! Native tests: `cargo test -p mcp-flow-core --lib diagram`.

use super::*;

/// The tutorial's own message rows (without the rows added for the 2026-07-28 era).
fn tutorial_rows(d: &Diagram) -> impl Iterator<Item = &'static Message> + use<> {
    d.messages().filter(|m| !m.added)
}

fn ids(d: &Diagram) -> Vec<&'static str> {
    tutorial_rows(d).map(|m| m.id.id()).collect()
}

/// The row with this text id (the tutorial names rows by text).
fn r(id: &str) -> Row {
    Row::from_id(id).unwrap_or_else(|| panic!("no row {id}"))
}

fn all_texts(d: &Diagram) -> Vec<Text> {
    d.items
        .iter()
        .map(|i| match i {
            Item::Message(m) => m.label,
            Item::Note(n) => n.text,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Data

#[test]
fn discovery_rows_in_tutorial_order() {
    assert_eq!(
        ids(discovery()),
        [
            "d1-prep", "d1-1", "d1-2", "d1-3", "d1-ready", "d1-4", "d1-5", "d1-6", "d1-7", "d1-8"
        ]
    );
    assert_eq!(discovery().id, "d1");
    assert_eq!(discovery().title.en, "Initialization and Tool Discovery");
    assert_eq!(discovery().title.zh, "初始化和工具发现");
}

#[test]
fn execution_rows_in_tutorial_order() {
    assert_eq!(
        ids(execution()),
        [
            "d2-1", "d2-2", "d2-3", "d2-4", "d2-5", "d2-6", "d2-7", "d2-exec", "d2-8", "d2-9",
            "d2-10", "d2-11", "d2-12"
        ]
    );
    assert_eq!(execution().id, "d2");
    assert_eq!(execution().title.en, "Tool Execution Flow");
    assert_eq!(execution().title.zh, "工具执行流程");
}

#[test]
fn numbers_match_ids_and_run_from_one() {
    let unnumbered = ["d1-prep", "d1-ready", "d2-exec"];
    for d in diagrams() {
        let mut expected = 1u8;
        for m in tutorial_rows(d) {
            match m.number {
                Some(n) => {
                    assert_eq!(n, expected, "{}", m.id);
                    assert_eq!(m.id.id(), format!("{}-{n}", d.id));
                    expected += 1;
                }
                None => assert!(unnumbered.contains(&m.id.id()), "{} has no number", m.id),
            }
        }
    }
    assert_eq!(
        discovery().messages().filter_map(|m| m.number).max(),
        Some(8)
    );
    assert_eq!(
        execution().messages().filter_map(|m| m.number).max(),
        Some(12)
    );
}

#[test]
fn row_ids_are_unique_across_diagrams() {
    let mut all: Vec<_> = diagrams().iter().flat_map(ids).collect();
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n);
    assert_eq!(n, 23);
}

#[test]
fn participants_in_tutorial_order() {
    for d in diagrams().iter().chain(modern_diagrams()) {
        let actors: Vec<Actor> = d.participants.iter().map(|p| p.actor).collect();
        assert_eq!(actors, Actor::ALL[..5]);
        let names: Vec<&str> = d.participants.iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "User",
                "ClientApp (Host)",
                "LLM (e.g., Claude)",
                "MCPClient (Internal Component)",
                "MCPServer (e.g., Tool Server)"
            ]
        );
        assert_eq!(d.participant(Actor::User).subtitle, None);
        let subs: Vec<&str> = d.participants[1..]
            .iter()
            .map(|p| p.subtitle.expect("subtitle").en)
            .collect();
        assert_eq!(
            subs,
            [
                "on Local PC",
                "Remote Service",
                "in ClientApp on Local PC",
                "on Local PC"
            ]
        );
        for p in &d.participants[1..] {
            let s = p.subtitle.unwrap();
            assert!(!s.zh.is_empty() && s.zh != s.en, "{}", p.name);
        }
    }
    let mermaid_ids: Vec<&str> = Actor::ALL.iter().map(|a| a.mermaid_id()).collect();
    assert_eq!(
        mermaid_ids,
        [
            "User",
            "ClientApp",
            "LLM",
            "MCPClient",
            "MCPServer",
            "AuthServer",
            "App"
        ]
    );
    // The tutorial's diagrams keep the tutorial's columns.
    for d in diagrams().iter().chain(modern_diagrams()) {
        for (i, a) in Actor::ALL[..5].iter().enumerate() {
            assert_eq!(d.column(*a), i);
        }
        assert_eq!(d.column_of(Actor::AuthServer), None);
    }
}

#[test]
fn note_counts_and_placements_match_the_tutorial() {
    use NotePlacement::*;
    let d1: Vec<NotePlacement> = discovery().notes().map(|n| n.placement).collect();
    assert_eq!(d1.len(), 10);
    assert_eq!(d1[0], Over(Actor::User, Actor::Server));
    assert_eq!(d1[1], RightOf(Actor::Host));
    assert_eq!(d1[9], Over(Actor::Host, Actor::Llm));
    let d2: Vec<NotePlacement> = execution().notes().map(|n| n.placement).collect();
    assert_eq!(d2.len(), 10);
    assert_eq!(d2[0], RightOf(Actor::User));
    assert_eq!(d2[3], Over(Actor::Host, Actor::User));
    assert_eq!(d2[6], Over1(Actor::Server));
    assert_eq!(d2[9], RightOf(Actor::Host));
    let tutorial_items = |d: &Diagram| {
        d.items
            .iter()
            .filter(|i| !i.as_message().is_some_and(|m| m.added))
            .count()
    };
    assert_eq!(tutorial_items(discovery()), 20);
    assert_eq!(tutorial_items(execution()), 23);
}

#[test]
fn only_rows_four_and_five_of_execution_are_optional() {
    let optional: Vec<&str> = diagrams()
        .iter()
        .flat_map(tutorial_rows)
        .filter(|m| m.optional)
        .map(|m| m.id.id())
        .collect();
    assert_eq!(optional, ["d2-4", "d2-5"]);
    for id in optional {
        let (_, m) = find_row(r(id)).unwrap();
        assert!(m.label.en.starts_with("(Optional)"), "{}", m.label.en);
        assert!(m.label.zh.starts_with("(可选)"), "{}", m.label.zh);
    }
}

#[test]
fn arrows_kinds_and_ends_match_the_tutorial() {
    let dashed: Vec<&str> = diagrams()
        .iter()
        .flat_map(tutorial_rows)
        .filter(|m| m.kind == ArrowKind::Dashed)
        .map(|m| m.id.id())
        .collect();
    assert_eq!(dashed, ["d1-2", "d1-ready", "d1-6", "d1-7", "d2-8", "d2-9"]);
    let (_, exec) = find_row(r("d2-exec")).unwrap();
    assert!(exec.is_self());
    assert_eq!(exec.from, Actor::Server);
    let selfs = diagrams()
        .iter()
        .flat_map(|d| d.messages())
        .filter(|m| m.is_self())
        .count();
    assert_eq!(selfs, 1);
    let (_, m) = find_row(r("d2-1")).unwrap();
    assert_eq!((m.from, m.to), (Actor::User, Actor::Host));
    let (_, m) = find_row(r("d1-prep")).unwrap();
    assert_eq!((m.from, m.to), (Actor::Host, Actor::Client));
    let (_, m) = find_row(r("d2-11")).unwrap();
    assert_eq!((m.from, m.to), (Actor::Llm, Actor::Host));
}

#[test]
fn activation_flags_balance_per_actor() {
    let expected_pairs = [
        vec![("d1-1", "d1-2"), ("d1-prep", "d1-ready"), ("d1-5", "d1-6")],
        vec![("d2-7", "d2-8"), ("d2-6", "d2-9")],
    ];
    for (d, expected) in diagrams().iter().zip(expected_pairs) {
        let mut stacks: [Vec<&str>; 5] = Default::default();
        let mut pairs = Vec::new();
        for m in d.messages() {
            if m.deactivate {
                let opened = stacks[d.column(m.from)]
                    .pop()
                    .unwrap_or_else(|| panic!("{} deactivates an inactive actor", m.id));
                pairs.push((opened, m.id.id()));
            }
            if m.activate {
                stacks[d.column(m.to)].push(m.id.id());
            }
        }
        assert!(stacks.iter().all(Vec::is_empty), "{} unbalanced", d.id);
        assert_eq!(pairs, expected);
    }
}

#[test]
fn key_english_fragments_present() {
    let label = |id: &str| find_row(r(id)).unwrap().1.label.en;
    assert!(label("d1-1").starts_with("initialize (Request)\n"));
    assert!(label("d1-1").contains("[protocol_version, client_capabilities]"));
    assert!(label("d1-2").starts_with("initialize (Response)"));
    assert!(label("d1-3").starts_with("notifications/initialized"));
    assert!(label("d1-4").contains("(session.list_tools())"));
    assert_eq!(label("d1-5"), "tools/list (Request)");
    assert!(label("d1-6").starts_with("tools/list (Response)\n"));
    assert!(label("d1-6").contains(r#"{"name": "get_weather", "description": "...""#));
    assert!(
        label("d2-3")
            .contains(r#"{"tool_name": "get_weather", "arguments": {"location": "Tokyo"}}"#)
    );
    assert!(label("d2-4").contains("Execute 'get_weather' on Tool Server?"));
    assert!(label("d2-1").contains("What's the weather in Tokyo?"));
    assert!(label("d2-7").starts_with("tools/call (Request)"));
    assert!(label("d2-8").contains(r#"text: "Sunny""#));
    assert!(label("d2-11").contains("The weather in Tokyo is Sunny."));
    assert_eq!(
        label("d1-prep"),
        "Instruct preparation to connect to a specific MCPServer"
    );
    assert!(label("d1-ready").starts_with("Initialization Success & Server Capabilities notified"));
    assert_eq!(
        label("d2-exec"),
        "Internal processing (executes get_weather function)"
    );
    let notes: Vec<&str> = execution().notes().map(|n| n.text.en).collect();
    assert_eq!(
        notes[6],
        r#"Logs execution, returns result (e.g., "Sunny")"#
    );
    assert_eq!(
        discovery().notes().nth(9).unwrap().text.en,
        "Host informs LLM that 'get_weather' is available\nLLM can now decide to use the tool based on this info"
    );
}

#[test]
fn key_chinese_fragments_present() {
    let label = |id: &str| find_row(r(id)).unwrap().1.label.zh;
    assert!(label("d1-1").starts_with("initialize (请求)"));
    assert!(label("d1-ready").starts_with("初始化成功"));
    assert!(label("d2-1").contains("东京的天气怎么样"));
    assert!(label("d2-11").ends_with("“东京的天气是晴天。”"));
    assert!(label("d2-4").contains("“在工具服务器上执行'get_weather'吗？”"));
    assert_eq!(label("d2-exec"), "内部处理（执行get_weather函数）");
    let zh: String = diagrams()
        .iter()
        .flat_map(all_texts)
        .map(|t| t.zh)
        .collect::<Vec<_>>()
        .join("|");
    assert!(zh.contains("初始化"));
    assert!(zh.contains("东京的天气是晴天"));
    assert_eq!(execution().title.get(Lang::Zh), "工具执行流程");
}

#[test]
fn every_text_non_empty_in_both_languages() {
    for d in diagrams().iter().chain([authorization(), browse()]) {
        for t in all_texts(d) {
            for lang in Lang::ALL {
                let s = t.get(lang);
                assert!(!s.trim().is_empty(), "{}: empty {lang:?} text", d.id);
                assert!(!s.contains("<br>"), "{s}");
                assert!(s.lines().all(|l| !l.trim().is_empty()), "{s:?}");
            }
        }
        for n in d.notes() {
            assert_ne!(n.text.en, n.text.zh);
        }
        for m in d.messages() {
            assert_ne!(m.label.en, m.label.zh, "{}", m.id);
            // The number is a badge, not part of the label.
            for lang in Lang::ALL {
                let body = m.label.get(lang);
                let body = body
                    .strip_prefix("(Optional) ")
                    .or_else(|| body.strip_prefix("(可选) "))
                    .unwrap_or(body);
                let digits = body.chars().take_while(char::is_ascii_digit).count();
                assert!(
                    digits == 0 || !body[digits..].starts_with(". "),
                    "{}: {body}",
                    m.id
                );
            }
        }
    }
}

#[test]
fn lookups() {
    let (d, m) = find_row(r("d2-7")).unwrap();
    assert_eq!(d.id, "d2");
    assert_eq!(
        (m.from, m.to, m.number),
        (Actor::Client, Actor::Server, Some(7))
    );
    assert!(m.activate && !m.deactivate);
    assert_eq!(find_row(r("d1-ready")).unwrap().0.id, "d1");
    assert!(Row::from_id("d3-1").is_none());
    for &row in Row::ALL {
        assert!(find_row(row).is_some(), "{row} is in no diagram");
    }
    assert!(Row::from_id("").is_none());
    assert_eq!(diagram("d2").map(|d| d.id), Some("d2"));
    assert!(diagram("d9").is_none());
    assert_eq!(discovery().message(Row::ToolsToLlm).unwrap().to, Actor::Llm);
    assert_eq!(diagrams()[1], *execution());
}

#[test]
fn actor_and_lang_names() {
    let vars: Vec<&str> = Actor::ALL.iter().map(|a| a.css_var()).collect();
    assert_eq!(
        vars,
        [
            "--mf-user",
            "--mf-host",
            "--mf-llm",
            "--mf-client",
            "--mf-server",
            "--mf-auth",
            "--mf-app"
        ]
    );
    for a in Actor::ALL {
        assert_eq!(a.css_var(), format!("--mf-{}", a.slug()));
    }
    assert_eq!(Lang::from_code("zh-CN"), Some(Lang::Zh));
    assert_eq!(Lang::from_code("EN"), Some(Lang::En));
    assert_eq!(Lang::from_code("fr"), None);
    assert_eq!(Lang::default(), Lang::En);
    for l in Lang::ALL {
        assert_eq!(Lang::from_code(l.code()), Some(l));
    }
}

// ---------------------------------------------------------------------------------------------
// The 2026-07-28 diagrams and the rows added for the eras

#[test]
fn added_rows_are_optional_and_come_in_pairs_with_the_tutorials() {
    let added: Vec<&str> = diagrams()
        .iter()
        .flat_map(|d| d.messages())
        .filter(|m| m.added)
        .map(|m| m.id.id())
        .collect();
    assert_eq!(
        added,
        [
            "d1-discover",
            "d1-discover-result",
            "d2-elicit",
            "d2-elicit-ask",
            "d2-elicit-answer",
            "d2-elicit-reply",
            "d2-roots",
            "d2-roots-reply",
            "d2-sample",
            "d2-sample-review",
            "d2-sample-llm",
            "d2-sample-llm-answer",
            "d2-sample-approve",
            "d2-sample-reply",
            "d2-relist",
            "d2-relist-result"
        ]
    );
    for d in diagrams().iter().chain(modern_diagrams()) {
        for m in d.messages().filter(|m| m.added) {
            assert!(m.optional && m.number.is_none(), "{}", m.id);
        }
    }
}

#[test]
fn the_modern_diagrams_have_no_handshake_and_share_the_mermaid_ids() {
    let [d1, d2] = modern_diagrams();
    let rows: Vec<&str> = d1.rows().map(|r| r.id()).collect();
    assert_eq!(
        rows,
        [
            "d1-prep",
            "d1-discover",
            "d1-discover-result",
            "d1-ready",
            "d1-4",
            "d1-5",
            "d1-6",
            "d1-7",
            "d1-8"
        ]
    );
    let labels: Vec<&str> = d1.messages().map(|m| m.label.en).collect();
    assert!(
        labels
            .iter()
            .all(|l| !l.starts_with("initialize") && !l.starts_with("notifications/initialized")),
        "{labels:?}"
    );
    assert!(
        labels
            .iter()
            .any(|l| l.starts_with("server/discover (Request"))
    );
    assert!(labels.iter().any(|l| l.contains("_meta")));
    // Diagram 2 is the tutorial's with the metadata headers and the MRTR rows.
    // The roots and the model's answer go back with the retried tools/call in 2026-07-28: no
    // reply rows of their own, and the retry is drawn after every question it answers.
    let answered_by_retry = [Row::RootsReply, Row::SampleReply, Row::ElicitReply];
    // A list changed during a call is heard only on a 2025-11-25 stream: no re-list rows in 2026-07-28.
    let heard_on_a_stream = [Row::Relist, Row::RelistResult];
    let tutorial_rows: Vec<Row> = execution()
        .rows()
        .filter(|r| !answered_by_retry.contains(r) && !heard_on_a_stream.contains(r))
        .collect();
    assert!(heard_on_a_stream.iter().all(|r| d2.rows().all(|m| m != *r)));
    let modern_rows: Vec<Row> = d2
        .rows()
        .filter(|r| !answered_by_retry.contains(r))
        .collect();
    assert_eq!(tutorial_rows, modern_rows, "same rows, same order");
    let at = |row: Row| d2.rows().position(|r| r == row);
    assert!(at(Row::ElicitReply) > at(Row::SampleApprove));
    assert!(at(Row::ElicitReply) > at(Row::Roots));
    assert!(at(Row::ElicitReply) < at(Row::Execute));
    let (_, call) = (d2, d2.message(Row::CallTool).unwrap());
    assert!(call.label.en.contains("Mcp-Name: get_weather"));
    assert!(
        d2.message(Row::Elicit)
            .unwrap()
            .label
            .en
            .contains("input_required")
    );
    let legacy_elicit = execution().message(Row::Elicit).unwrap();
    assert!(legacy_elicit.label.en.contains("elicitation/create"));
    // Numbers run from one in drawing order.
    for d in modern_diagrams() {
        let numbers: Vec<u8> = d.messages().filter_map(|m| m.number).collect();
        let expected: Vec<u8> = (1..=numbers.len() as u8).collect();
        assert_eq!(numbers, expected, "{}", d.id);
    }
    assert!(
        all_texts(d2)
            .iter()
            .all(|t| !t.zh.is_empty() && t.zh != t.en || t.en.is_empty())
    );
}

#[test]
fn each_era_draws_its_own_pair() {
    use mcp_flow_client::era::Era;
    assert_eq!(diagrams_for(Era::Legacy), diagrams());
    assert_eq!(diagrams_for(Era::Modern), modern_diagrams());
    let all = all_rows();
    for &row in Row::ALL {
        assert!(all.contains(&row), "{row} is in no diagram");
    }
    assert_eq!(all.len(), Row::ALL.len(), "each row once");
}
