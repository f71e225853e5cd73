//! The vocabulary of a sequence diagram: actors, bilingual text, messages, notes.
//!
//! Everything here is plain `'static` data so the tutorial's diagrams can live in statics and be
//! handed out by reference without allocating.

use super::rows::Row;

/// A participant of a diagram: the tutorial's five, and the Authorization diagram's
/// authorization server. Which actors a diagram has, and in which column, is the diagram's own
/// ([`Diagram::column`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Actor {
    /// The tutorial's `User`.
    User,
    /// The tutorial's `ClientApp` (the host).
    Host,
    /// The tutorial's `LLM`.
    Llm,
    /// The tutorial's `MCPClient`.
    Client,
    /// The tutorial's `MCPServer` (in the Authorization diagram: the protected resource).
    Server,
    /// The OAuth 2.1 authorization server (the Authorization diagram only).
    AuthServer,
    /// A tool's app in its sandboxed frame (the App diagram only).
    App,
}

impl Actor {
    /// Every actor: the tutorial's five in its participant order, then the authorization server
    /// and the app.
    pub const ALL: [Actor; 7] = [
        Actor::User,
        Actor::Host,
        Actor::Llm,
        Actor::Client,
        Actor::Server,
        Actor::AuthServer,
        Actor::App,
    ];

    /// The participant identifier the tutorial's mermaid source uses (`AuthServer` for the one
    /// the tutorial does not have).
    pub const fn mermaid_id(self) -> &'static str {
        match self {
            Actor::User => "User",
            Actor::Host => "ClientApp",
            Actor::Llm => "LLM",
            Actor::Client => "MCPClient",
            Actor::Server => "MCPServer",
            Actor::AuthServer => "AuthServer",
            Actor::App => "App",
        }
    }

    /// Short lower-case name, for class names and data attributes.
    pub const fn slug(self) -> &'static str {
        match self {
            Actor::User => "user",
            Actor::Host => "host",
            Actor::Llm => "llm",
            Actor::Client => "client",
            Actor::Server => "server",
            Actor::AuthServer => "auth",
            Actor::App => "app",
        }
    }

    /// Name of the CSS custom property that holds this actor's colour.
    pub const fn css_var(self) -> &'static str {
        match self {
            Actor::User => "--mf-user",
            Actor::Host => "--mf-host",
            Actor::Llm => "--mf-llm",
            Actor::Client => "--mf-client",
            Actor::Server => "--mf-server",
            Actor::AuthServer => "--mf-auth",
            Actor::App => "--mf-app",
        }
    }
}

/// Display language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English (tutorial document `002_…`).
    #[default]
    En,
    /// Simplified Chinese (tutorial document `003_…`).
    Zh,
}

impl Lang {
    /// Both languages.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// BCP 47-ish code: `"en"` or `"zh"`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// Parses `"en"`/`"zh"` (and regional variants such as `"zh-CN"`), case-insensitively.
    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code.split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }
}

/// A piece of text in both languages. Line breaks (the tutorial's `<br>`) are `'\n'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Text {
    pub en: &'static str,
    pub zh: &'static str,
}

impl Text {
    pub const fn new(en: &'static str, zh: &'static str) -> Text {
        Text { en, zh }
    }

    /// The text in `lang`.
    pub const fn get(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }
}

/// A participant box: the tutorial's display name and the line under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Participant {
    pub actor: Actor,
    /// The tutorial's display name, e.g. `"ClientApp (Host)"` (kept in English in both languages, as
    /// the Chinese tutorial does).
    pub name: &'static str,
    /// The part after the tutorial's `<br>`, e.g. "on Local PC"; `None` for `User`.
    pub subtitle: Option<Text>,
}

/// Mermaid's `->>` (solid) or `-->>` (dashed, a reply).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrowKind {
    Solid,
    Dashed,
}

/// One message row of a diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    /// The row: its text id is `d1-1` … by the tutorial's number, or a named id for unnumbered rows.
    pub id: Row,
    /// The number written in the tutorial's label (drawn as a badge, not part of `label`).
    pub number: Option<u8>,
    pub from: Actor,
    pub to: Actor,
    pub kind: ArrowKind,
    /// The tutorial's label without its number; may contain `'\n'`.
    pub label: Text,
    /// The tutorial marks the row "(Optional)".
    pub optional: bool,
    /// Mermaid `+` on the target: the target activates at this message.
    pub activate: bool,
    /// Mermaid `-` on the target side of the arrow: the *source* deactivates at this message.
    pub deactivate: bool,
    /// A row the tutorial does not have (the 2026-07-28 probe, elicitation); drawn as optional.
    pub added: bool,
}

impl Message {
    /// A message to oneself (drawn as a loop right of the lifeline).
    pub const fn is_self(&self) -> bool {
        // `==` on the enum is not const; the discriminants compare the same.
        self.from as u8 == self.to as u8
    }
}

/// Where a note sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotePlacement {
    /// `Note over A, B`: spans both lifelines (in whichever order the tutorial names them).
    Over(Actor, Actor),
    /// `Note over A`: centred on one lifeline.
    Over1(Actor),
    /// `Note right of A`.
    RightOf(Actor),
}

impl NotePlacement {
    /// The actors the note refers to (one or two).
    pub fn actors(&self) -> Vec<Actor> {
        match *self {
            NotePlacement::Over(a, b) => vec![a, b],
            NotePlacement::Over1(a) | NotePlacement::RightOf(a) => vec![a],
        }
    }
}

/// A note row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note {
    pub placement: NotePlacement,
    pub text: Text,
}

/// One row of a diagram, in the tutorial's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Message(Message),
    Note(Note),
}

impl Item {
    pub fn as_message(&self) -> Option<&Message> {
        match self {
            Item::Message(m) => Some(m),
            Item::Note(_) => None,
        }
    }

    pub fn as_note(&self) -> Option<&Note> {
        match self {
            Item::Note(n) => Some(n),
            Item::Message(_) => None,
        }
    }
}

/// A whole sequence diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// `"d1"`, `"d2"`, `"da"` (Authorization), `"dr"` (resources, prompts and completion) or
    /// `"dp"` (App).
    pub id: &'static str,
    pub title: Text,
    /// This diagram's columns, left to right; each actor at most once. Every actor a message or
    /// note names is one of them.
    pub participants: &'static [Participant],
    pub items: &'static [Item],
}

impl Diagram {
    /// The message rows, in order.
    pub fn messages(&self) -> impl Iterator<Item = &'static Message> + use<> {
        self.items.iter().filter_map(Item::as_message)
    }

    /// The notes, in order.
    pub fn notes(&self) -> impl Iterator<Item = &'static Note> + use<> {
        self.items.iter().filter_map(Item::as_note)
    }

    /// The message row `row`, if this diagram has it.
    pub fn message(&self, row: Row) -> Option<&'static Message> {
        self.messages().find(|m| m.id == row)
    }

    /// This diagram's rows, in order.
    pub fn rows(&self) -> impl Iterator<Item = Row> + use<> {
        self.messages().map(|m| m.id)
    }

    /// The column of `actor` (0 = leftmost), if it is a participant of this diagram.
    pub fn column_of(&self, actor: Actor) -> Option<usize> {
        self.participants.iter().position(|p| p.actor == actor)
    }

    /// The column of `actor`, left to right.
    ///
    /// # Panics
    /// If `actor` is not a participant of this diagram (the diagrams' tests check that every
    /// actor their rows name is).
    pub fn column(&self, actor: Actor) -> usize {
        self.column_of(actor)
            .unwrap_or_else(|| panic!("{actor:?} is not a participant of diagram {}", self.id))
    }

    /// The actors of this diagram, left to right.
    pub fn actors(&self) -> impl Iterator<Item = Actor> + '_ {
        self.participants.iter().map(|p| p.actor)
    }

    /// The participant for `actor`.
    ///
    /// # Panics
    /// If `actor` is not a participant of this diagram.
    pub fn participant(&self, actor: Actor) -> &Participant {
        &self.participants[self.column(actor)]
    }
}

// --- building the diagrams' statics ---------------------------------------------------------

pub const fn solid(id: Row, from: Actor, to: Actor, en: &'static str, zh: &'static str) -> Message {
    Message {
        id,
        number: None,
        from,
        to,
        kind: ArrowKind::Solid,
        label: Text::new(en, zh),
        optional: false,
        activate: false,
        deactivate: false,
        added: false,
    }
}

pub const fn dashed(
    id: Row,
    from: Actor,
    to: Actor,
    en: &'static str,
    zh: &'static str,
) -> Message {
    let mut m = solid(id, from, to, en, zh);
    m.kind = ArrowKind::Dashed;
    m
}

pub const fn note(placement: NotePlacement, en: &'static str, zh: &'static str) -> Item {
    Item::Note(Note {
        placement,
        text: Text::new(en, zh),
    })
}

impl Message {
    pub const fn numbered(mut self, number: u8) -> Message {
        self.number = Some(number);
        self
    }

    /// Mermaid `A->>+B`.
    pub const fn activating(mut self) -> Message {
        self.activate = true;
        self
    }

    /// Mermaid `B-->>-A`.
    pub const fn deactivating(mut self) -> Message {
        self.deactivate = true;
        self
    }

    pub const fn optional(mut self) -> Message {
        self.optional = true;
        self
    }

    /// A row the tutorial does not have, shown only when it happens (drawn as optional).
    pub const fn added(mut self) -> Message {
        self.optional = true;
        self.added = true;
        self
    }
}

/// The tutorial's participants by their display names; the line under each name is the diagram's.
pub const fn participant(actor: Actor, subtitle: Option<Text>) -> Participant {
    let name = match actor {
        Actor::User => "User",
        Actor::Host => "ClientApp (Host)",
        Actor::Llm => "LLM (e.g., Claude)",
        Actor::Client => "MCPClient (Internal Component)",
        Actor::Server => "MCPServer (e.g., Tool Server)",
        Actor::AuthServer => "Authorization Server",
        Actor::App => "App (MCP Apps View)",
    };
    Participant {
        actor,
        name,
        subtitle,
    }
}

/// A participant with the line `en` / `zh` under its name.
pub const fn under(actor: Actor, en: &'static str, zh: &'static str) -> Participant {
    participant(actor, Some(Text::new(en, zh)))
}

/// One item of a diagram drawn in both eras: the same in both, each era's own, or one era's
/// only.
#[derive(Clone, Copy, Debug)]
pub enum Drawn {
    Both(Item),
    /// 2025-11-25's, then 2026-07-28's.
    Eras(Item, Item),
    Legacy(Item),
    Modern(Item),
}

/// The items of `drawn` in one era (`modern`: 2026-07-28), in order. `N` is how many there are:
/// another number does not compile.
pub const fn drawn_in<const N: usize>(drawn: &[Drawn], modern: bool) -> [Item; N] {
    let blank = Item::Note(Note {
        placement: NotePlacement::Over1(Actor::User),
        text: Text::new("", ""),
    });
    let mut out = [blank; N];
    let mut at = 0;
    let mut i = 0;
    while i < drawn.len() {
        let item = match drawn[i] {
            Drawn::Both(item) => Some(item),
            Drawn::Eras(legacy, latest) => Some(if modern { latest } else { legacy }),
            Drawn::Legacy(item) if !modern => Some(item),
            Drawn::Modern(item) if modern => Some(item),
            Drawn::Legacy(_) | Drawn::Modern(_) => None,
        };
        if let Some(item) = item {
            assert!(at < N, "more items than the era's count");
            out[at] = item;
            at += 1;
        }
        i += 1;
    }
    assert!(at == N, "fewer items than the era's count");
    out
}
