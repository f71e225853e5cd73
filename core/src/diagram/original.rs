//! The two sequence diagrams of the tutorial documents, as data.
//!
//! English labels are tutorial document `002_…` verbatim, Chinese ones tutorial document `003_…` verbatim (tutorial document `000_…` has the
//! same diagrams), with `<br>` turned into `'\n'` and the leading "N. " moved into
//! [`Message::number`]. Participant names stay English in both languages, as in the Chinese tutorial.

use super::spec::Actor::{Client, Host, Llm, Server, User};
use super::spec::{Diagram, Item, Participant, Text, participant, under};
use super::tool_discovery;
use super::tool_execution;

pub(super) const PARTICIPANTS: [Participant; 5] = [
    participant(User, None),
    under(Host, "on Local PC", "本地PC上"),
    under(Llm, "Remote Service", "远程服务"),
    under(
        Client,
        "in ClientApp on Local PC",
        "ClientApp内部，本地PC上",
    ),
    under(Server, "on Local PC", "本地PC上"),
];

/// Diagrams 1 and 2 with these titles and items, on the tutorial's participants.
pub(super) const fn the_two(
    first: (Text, &'static [Item]),
    second: (Text, &'static [Item]),
) -> [Diagram; 2] {
    [
        Diagram {
            id: "d1",
            title: first.0,
            participants: &PARTICIPANTS,
            items: first.1,
        },
        Diagram {
            id: "d2",
            title: second.0,
            participants: &PARTICIPANTS,
            items: second.1,
        },
    ]
}

static DIAGRAMS: [Diagram; 2] = the_two(
    (
        Text::new("Initialization and Tool Discovery", "初始化和工具发现"),
        &tool_discovery::LEGACY_ITEMS,
    ),
    (
        Text::new("Tool Execution Flow", "工具执行流程"),
        &tool_execution::LEGACY_ITEMS,
    ),
);

/// Both of the tutorial's diagrams, in the tutorial's order: [`discovery`], [`execution`].
pub fn diagrams() -> &'static [Diagram; 2] {
    &DIAGRAMS
}

/// Diagram 1, "Initialization and Tool Discovery" (id `"d1"`).
pub fn discovery() -> &'static Diagram {
    &DIAGRAMS[0]
}

/// Diagram 2, "Tool Execution Flow" (id `"d2"`).
pub fn execution() -> &'static Diagram {
    &DIAGRAMS[1]
}
