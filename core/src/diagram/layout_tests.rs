//! Native tests of the text measure and the layout: `cargo test -p mcp-flow-core --lib diagram`.

use super::*;

/// The tutorial's own message rows (without the rows added for the 2026-07-28 era).
fn tutorial_rows(d: &Diagram) -> impl Iterator<Item = &'static Message> + use<> {
    d.messages().filter(|m| !m.added)
}

/// The row with this text id (the tutorial names rows by text).
fn r(id: &str) -> Row {
    Row::from_id(id).unwrap_or_else(|| panic!("no row {id}"))
}

// ---------------------------------------------------------------------------------------------
// Text measuring and wrapping

#[test]
fn text_width_by_character_class() {
    let cjk = text_width("东京的天气", 10.0);
    assert!((cjk - 50.0).abs() < 1e-3, "{cjk}");
    let ascii = text_width("abcde", 10.0);
    assert!(ascii > 20.0 && ascii < 35.0, "{ascii}");
    assert_eq!(text_width("", 13.0), 0.0);
    assert!(text_width("WWW", 13.0) > text_width("iii", 13.0));
}

#[test]
fn wrap_respects_width_and_keeps_every_character() {
    let samples = [
        "Send tool execution result back to LLM\nNew User Message: \"Tool 'get_weather' returned: 'Sunny'. Answer the original question based on this.\"",
        "将工具执行结果发送回LLM\n新用户消息：“工具'get_weather'返回：'Sunny'。根据此回答原始问题。”",
        "averyveryveryveryverylongwordwithoutanyspacesthatmustbesplit",
        "出于安全性/透明性，主机可能会寻求用户许可（在示例代码中未实现）",
    ];
    for s in samples {
        for max in [60.0, 120.0, 200.0, 380.0] {
            let lines = wrap_text(s, max, 13.0);
            for l in &lines {
                assert!(text_width(l, 13.0) <= max + 1e-2, "{l:?} wider than {max}");
                assert!(!l.starts_with(' ') && !l.ends_with(' '), "{l:?}");
            }
            let squash = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
            assert_eq!(squash(&lines.concat()), squash(s), "lost text at {max}");
            assert!(lines.len() >= s.lines().count());
        }
    }
}

#[test]
fn wrap_breaks_at_newlines_spaces_and_between_cjk() {
    assert_eq!(wrap_text("a b\nc", 1000.0, 13.0), ["a b", "c"]);
    assert_eq!(wrap_text("", 100.0, 13.0), [""]);
    // 13 px per CJK character: 4 per line at 52 px.
    let lines = wrap_text("东京的天气是晴天", 52.0, 13.0);
    assert_eq!(lines, ["东京的天", "气是晴天"]);
    // Closing punctuation never starts a line; opening punctuation never ends one.
    let lines = wrap_text("东京的天，气（是）晴天。", 52.0, 13.0);
    for l in &lines {
        assert!(!l.starts_with(['，', '。', '）']), "{lines:?}");
        assert!(!l.ends_with('（'), "{lines:?}");
    }
    let lines = wrap_text(
        "alpha beta gamma delta",
        text_width("gamma delta", 13.0),
        13.0,
    );
    assert_eq!(lines, ["alpha beta", "gamma delta"]);
}

// ---------------------------------------------------------------------------------------------
// Layout

fn all_layouts() -> Vec<(&'static Diagram, Lang, Geometry)> {
    let opts = LayoutOptions::default();
    let mut out = Vec::new();
    let every =
        diagrams()
            .iter()
            .chain(modern_diagrams())
            .chain([authorization(), browse(), app()]);
    for d in every {
        for lang in Lang::ALL {
            out.push((d, lang, layout(d, lang, &opts)));
        }
    }
    out
}

/// An item's vertical band and the vertical extents of everything drawn in it.
struct Band {
    item: usize,
    top: f32,
    bottom: f32,
    inner: Vec<(f32, f32)>,
}

fn bands(g: &Geometry) -> Vec<Band> {
    let half = g.line_height / 2.0;
    let mut out = Vec::new();
    for r in &g.rows {
        let mut inner: Vec<(f32, f32)> = r.label.iter().map(|l| (l.y - half, l.y + half)).collect();
        inner.extend(r.path.iter().map(|p| (p.y, p.y)));
        if let Some(b) = r.badge {
            inner.push((b.cy - b.r, b.cy + b.r));
        }
        out.push(Band {
            item: r.item,
            top: r.top,
            bottom: r.bottom,
            inner,
        });
    }
    for n in &g.notes {
        let mut inner = vec![(n.rect.y, n.rect.bottom())];
        inner.extend(n.lines.iter().map(|l| (l.y - half, l.y + half)));
        out.push(Band {
            item: n.item,
            top: n.top,
            bottom: n.bottom,
            inner,
        });
    }
    out.sort_by_key(|b| b.item);
    out
}

#[test]
fn bands_follow_item_order_without_overlap() {
    for (d, lang, g) in all_layouts() {
        let bands = bands(&g);
        assert_eq!(bands.len(), d.items.len());
        let header = g.participants[0].rect.bottom();
        let mut prev_bottom = header;
        for (i, band) in bands.iter().enumerate() {
            let Band {
                item,
                top,
                bottom,
                inner,
            } = band;
            assert_eq!(*item, i);
            assert!(top < bottom, "{} {lang:?} item {i}", d.id);
            assert!(
                *top >= prev_bottom - 1e-3,
                "{} {lang:?} item {i} overlaps",
                d.id
            );
            for (a, b) in inner {
                assert!(
                    *a >= *top - 1e-3 && *b <= *bottom + 1e-3,
                    "{} {lang:?} item {i}: {a}..{b} outside band {top}..{bottom}",
                    d.id
                );
            }
            prev_bottom = *bottom;
        }
        let ys: Vec<f32> = g.rows.iter().map(|r| r.y).collect();
        assert!(ys.windows(2).all(|w| w[0] < w[1]), "{ys:?}");
        assert!(g.lifelines.iter().all(|l| l.y2 >= prev_bottom - 1e-3));
    }
}

#[test]
fn rows_match_messages() {
    for (d, _, g) in all_layouts() {
        let row_ids: Vec<&str> = g.rows.iter().map(|r| r.id.id()).collect();
        let message_ids: Vec<&str> = d.messages().map(|m| m.id.id()).collect();
        assert_eq!(row_ids, message_ids);
        for (r, m) in g.rows.iter().zip(d.messages()) {
            assert_eq!(d.items[r.item].as_message(), Some(m));
            assert_eq!(
                (r.number, r.kind, r.optional),
                (m.number, m.kind, m.optional)
            );
            assert_eq!(r.badge.map(|b| b.number), m.number);
            assert!(!r.label.is_empty());
        }
        assert_eq!(g.notes.len(), d.notes().count());
        assert!(g.row(r("d1-4")).is_some() == (d.id == "d1"));
    }
}

#[test]
fn arrows_run_between_lifelines() {
    for (d, lang, g) in all_layouts() {
        let xs: Vec<f32> = g.lifelines.iter().map(|l| l.x).collect();
        assert!(xs.windows(2).all(|w| w[0] < w[1]));
        for (l, p) in g.lifelines.iter().zip(&g.participants) {
            assert_eq!(l.x, p.rect.center_x());
            assert_eq!(l.y1, p.rect.bottom());
        }
        for r in &g.rows {
            assert_eq!(r.x1, g.lifeline_x(r.from), "{} {lang:?}", r.id);
            assert_eq!(r.x2, g.lifeline_x(r.to), "{} {lang:?}", r.id);
            let first = r.path.first().unwrap();
            let last = r.path.last().unwrap();
            assert_eq!((first.x, first.y), (r.x1, r.y));
            assert_eq!((last.x, last.y), (r.x2, r.y_end));
            if let Some(b) = r.badge {
                assert_eq!((b.cx, b.cy), (r.x1, r.y));
            }
            if r.self_loop {
                assert_eq!(r.path.len(), 4);
                assert!(r.path[1].x > r.x1 && r.y_end > r.y);
                assert_eq!(r.dir, ArrowDir::Left);
            } else {
                assert_eq!(r.path.len(), 2);
                assert_eq!(r.y_end, r.y);
                let dir = if r.x2 > r.x1 {
                    ArrowDir::Right
                } else {
                    ArrowDir::Left
                };
                assert_eq!(r.dir, dir, "{}", r.id);
            }
            // Label above its arrow.
            assert!(r.label.iter().all(|l| l.y < r.y));
        }
        let selfs: Vec<&str> = g
            .rows
            .iter()
            .filter(|r| r.self_loop)
            .map(|r| r.id.id())
            .collect();
        let expected: &[&str] = if d.id == "d2" { &["d2-exec"] } else { &[] };
        assert_eq!(selfs, expected);
    }
}

#[test]
fn activations_are_balanced_and_on_lifelines() {
    for (d, _, g) in all_layouts() {
        let opened = d.messages().filter(|m| m.activate).count();
        assert_eq!(g.activations.len(), opened, "{}", d.id);
        for a in &g.activations {
            let closer = a.closed_by.expect("closed within the diagram");
            assert!(a.y_end > a.y_start, "{a:?}");
            assert_eq!(a.rect.y, a.y_start);
            assert!((a.rect.bottom() - a.y_end).abs() < 1e-3);
            assert_eq!(a.y_start, g.row(a.opened_by).unwrap().y);
            assert_eq!(a.y_end, g.row(closer).unwrap().y);
            let x = g.lifeline_x(a.actor);
            assert!(a.rect.x <= x && a.rect.right() >= x, "{a:?}");
            let opener = d.message(a.opened_by).unwrap();
            assert_eq!(opener.to, a.actor);
            assert_eq!(d.message(closer).unwrap().from, a.actor);
        }
        // Client stays active across the server's bar: the server's bars nest inside it in time
        // (in the browse diagram the host's bar holds them: browse_tests checks it).
        // (The App diagram draws no bars: its rows come in any order and again.)
        if d.id == "dr" || d.id == "dp" {
            continue;
        }
        let client = g
            .activations
            .iter()
            .find(|a| a.actor == Actor::Client)
            .unwrap();
        let server = g
            .activations
            .iter()
            .find(|a| a.actor == Actor::Server)
            .unwrap();
        assert!(client.y_start < server.y_start && server.y_end < client.y_end);
        assert!(g.activations.iter().all(|a| a.depth == 0));
    }
}

#[test]
fn nested_activation_gets_depth_and_unclosed_bars_close_at_the_end() {
    static ITEMS: [Item; 3] = [
        Item::Message(Message {
            id: Row::Prepare,
            number: Some(1),
            from: Actor::User,
            to: Actor::Host,
            kind: ArrowKind::Solid,
            label: Text::new("a", "甲"),
            optional: false,
            activate: true,
            deactivate: false,
            added: false,
        }),
        Item::Message(Message {
            id: Row::Initialize,
            number: Some(2),
            from: Actor::User,
            to: Actor::Host,
            kind: ArrowKind::Solid,
            label: Text::new("b", "乙"),
            optional: false,
            activate: true,
            deactivate: false,
            added: false,
        }),
        Item::Message(Message {
            id: Row::InitializeResult,
            number: Some(3),
            from: Actor::Host,
            to: Actor::User,
            kind: ArrowKind::Dashed,
            label: Text::new("c", "丙"),
            optional: false,
            activate: false,
            deactivate: true,
            added: false,
        }),
    ];
    let d = Diagram {
        id: "t",
        title: Text::new("t", "t"),
        participants: discovery().participants,
        items: &ITEMS,
    };
    let g = layout(&d, Lang::En, &LayoutOptions::default());
    assert_eq!(g.activations.len(), 2);
    let inner = &g.activations[0];
    assert_eq!(
        (inner.depth, inner.opened_by, inner.closed_by),
        (1, Row::Initialize, Some(Row::InitializeResult))
    );
    let outer = &g.activations[1];
    assert_eq!(
        (outer.depth, outer.opened_by, outer.closed_by),
        (0, Row::Prepare, None)
    );
    assert!(inner.rect.x > outer.rect.x);
    assert!(outer.y_end > g.row(Row::InitializeResult).unwrap().y);
    assert!(outer.y_end <= g.lifelines[1].y2);
}

#[test]
fn notes_sit_where_the_tutorial_puts_them() {
    for (d, lang, g) in all_layouts() {
        for n in &g.notes {
            assert!(n.rect.x >= 0.0 && n.rect.right() <= g.width, "{n:?}");
            assert!(!n.lines.is_empty());
            for l in &n.lines {
                assert!(
                    l.x - l.width / 2.0 >= n.rect.x - 1e-3,
                    "{} {lang:?}: {l:?}",
                    d.id
                );
                assert!(
                    l.x + l.width / 2.0 <= n.rect.right() + 1e-3,
                    "{} {lang:?}: {l:?}",
                    d.id
                );
            }
            match n.placement {
                NotePlacement::Over(a, b) => {
                    let (xa, xb) = (g.lifeline_x(a), g.lifeline_x(b));
                    assert!(
                        n.rect.x < xa.min(xb) && n.rect.right() > xa.max(xb),
                        "{n:?}"
                    );
                }
                NotePlacement::Over1(a) => {
                    let x = g.lifeline_x(a);
                    assert!(n.rect.x < x && n.rect.right() > x, "{n:?}");
                }
                NotePlacement::RightOf(a) => assert!(n.rect.x > g.lifeline_x(a), "{n:?}"),
            }
        }
    }
}

#[test]
fn everything_inside_the_canvas() {
    for (d, lang, g) in all_layouts() {
        let inside = |x0: f32, y0: f32, x1: f32, y1: f32, what: &str| {
            assert!(
                x0 >= 0.0 && y0 >= 0.0 && x1 <= g.width && y1 <= g.height && x0 <= x1 && y0 <= y1,
                "{} {lang:?}: {what} at {x0},{y0}..{x1},{y1} outside {}x{}",
                d.id,
                g.width,
                g.height
            );
        };
        let half = g.line_height / 2.0;
        let line = |l: &TextLine| {
            inside(
                l.x - l.width / 2.0,
                l.y - half,
                l.x + l.width / 2.0,
                l.y + half,
                &l.text,
            )
        };
        for p in g.participants.iter().chain(&g.footer) {
            inside(
                p.rect.x,
                p.rect.y,
                p.rect.right(),
                p.rect.bottom(),
                p.actor.slug(),
            );
            for l in p.name.iter().chain(&p.subtitle) {
                line(l);
                assert!(l.x - l.width / 2.0 >= p.rect.x && l.x + l.width / 2.0 <= p.rect.right());
                assert!(l.y - half >= p.rect.y && l.y + half <= p.rect.bottom());
            }
        }
        for l in &g.lifelines {
            inside(l.x, l.y1, l.x, l.y2, "lifeline");
        }
        for r in &g.rows {
            r.label.iter().for_each(line);
            for p in &r.path {
                inside(p.x, p.y, p.x, p.y, r.id.id());
            }
            if let Some(b) = r.badge {
                inside(b.cx - b.r, b.cy - b.r, b.cx + b.r, b.cy + b.r, "badge");
            }
        }
        for n in &g.notes {
            inside(n.rect.x, n.rect.y, n.rect.right(), n.rect.bottom(), "note");
            n.lines.iter().for_each(line);
        }
        for a in &g.activations {
            inside(
                a.rect.x,
                a.rect.y,
                a.rect.right(),
                a.rect.bottom(),
                "activation",
            );
        }
        assert_eq!(g.footer.len(), d.participants.len());
        assert!(g.footer[0].rect.y >= g.lifelines[0].y2);
    }
}

#[test]
fn default_width_suits_a_1280_screen() {
    // The browse diagram has four columns, one gap narrower (browse_tests).
    for (d, lang, g) in all_layouts().into_iter().filter(|(d, ..)| d.id != "dr") {
        assert!(
            (900.0..=1400.0).contains(&g.width),
            "{} {lang:?}: {}",
            d.id,
            g.width
        );
        // At 1280 px the diagram column is about 860 px beside the inspector: a width of at most
        // 1100 keeps the 13 px text at 10 px or more on screen.
        assert!((950.0..=1100.0).contains(&g.width), "{}", g.width);
        assert_eq!(g.font_px, 13.0);
        assert_eq!(g.participants.len(), 5);
    }
}

#[test]
fn layout_is_deterministic_and_language_specific() {
    let opts = LayoutOptions::default();
    for d in diagrams() {
        assert_eq!(layout(d, Lang::En, &opts), layout(d, Lang::En, &opts));
        let en = layout(d, Lang::En, &opts);
        let zh = layout(d, Lang::Zh, &opts);
        assert_ne!(en.rows[0].label, zh.rows[0].label);
        assert_eq!(
            en.lifelines.iter().map(|l| l.x).collect::<Vec<_>>(),
            zh.lifelines.iter().map(|l| l.x).collect::<Vec<_>>()
        );
    }
    let narrow = LayoutOptions {
        mirror_participants: false,
        column_gap: 200.0,
        ..LayoutOptions::default()
    };
    let g = layout(execution(), Lang::Zh, &narrow);
    assert!(g.footer.is_empty());
    assert!(g.width < layout(execution(), Lang::Zh, &opts).width);
    assert!(g.lifelines.iter().all(|l| l.y2 < g.height));
}

/// Each message back in the tutorial's mermaid arrow syntax, e.g. `MCPServer-->>-MCPClient`.
fn mermaid_arrows(d: &Diagram) -> Vec<String> {
    tutorial_rows(d)
        .map(|m| {
            let arrow = match m.kind {
                ArrowKind::Solid => "->>",
                ArrowKind::Dashed => "-->>",
            };
            let sign = match (m.activate, m.deactivate) {
                (true, false) => "+",
                (false, true) => "-",
                (false, false) => "",
                (true, true) => "+-",
            };
            format!("{}{arrow}{sign}{}", m.from.mermaid_id(), m.to.mermaid_id())
        })
        .collect()
}

#[test]
fn arrows_read_back_as_the_tutorials_mermaid() {
    assert_eq!(
        mermaid_arrows(discovery()),
        [
            "ClientApp->>+MCPClient",
            "MCPClient->>+MCPServer",
            "MCPServer-->>-MCPClient",
            "MCPClient->>MCPServer",
            "MCPClient-->>-ClientApp",
            "ClientApp->>MCPClient",
            "MCPClient->>+MCPServer",
            "MCPServer-->>-MCPClient",
            "MCPClient-->>ClientApp",
            "ClientApp->>LLM",
        ]
    );
    assert_eq!(
        mermaid_arrows(execution()),
        [
            "User->>ClientApp",
            "ClientApp->>LLM",
            "LLM->>ClientApp",
            "ClientApp->>User",
            "User->>ClientApp",
            "ClientApp->>+MCPClient",
            "MCPClient->>+MCPServer",
            "MCPServer->>MCPServer",
            "MCPServer-->>-MCPClient",
            "MCPClient-->>-ClientApp",
            "ClientApp->>LLM",
            "LLM->>ClientApp",
            "ClientApp->>User",
        ]
    );
}
