//! Parts of the app fetched on first use. The release build (`cargo xtask`, xtask/src/build/site.rs,
//! the `split` feature) moves each function marked with [`on_demand`] into a wasm module of
//! its own, outside the first load; the page fetches it the first time the function is called.
//! Unsplit builds (`trunk serve`, the wasm-bindgen tests) call the function in place.
//!
//! A module that cannot be fetched (the page's server stopped, the network dropped) must not take
//! the page down: every split function returns `Result<_, OnDemandError>` and the splitter's
//! `fallible` mode turns a failed load into [`OnDemandError::NotLoaded`] instead of a panic, which
//! in wasm would abort the whole app. A later call tries the fetch again.

/// Why a function fetched on demand gave no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnDemandError {
    /// The module holding the function could not be fetched or instantiated.
    #[cfg_attr(not(feature = "split"), allow(dead_code))]
    NotLoaded,
    /// The function ran and failed with this message.
    Failed(String),
}

/// What a user reads when the part of the page that does `what` (e.g. "reads the model's
/// worker") could not be fetched.
pub fn not_loaded(what: &str) -> String {
    format!(
        "the part of this page that {what} could not be fetched from the page's server (is it \
         still running?); try again"
    )
}

impl OnDemandError {
    /// The error as text; `what` names the part for [`not_loaded`].
    pub fn into_message(self, what: &str) -> String {
        match self {
            Self::NotLoaded => not_loaded(what),
            Self::Failed(message) => message,
        }
    }
}

impl From<String> for OnDemandError {
    fn from(message: String) -> Self {
        Self::Failed(message)
    }
}

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for OnDemandError {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        Self::NotLoaded
    }
}

/// The splitter's runtime, for [`on_demand!`]'s expansion in any crate.
#[cfg(feature = "split")]
#[doc(hidden)]
pub use wasm_split_helpers as __wasm_split;

/// A module of the release build fetched on demand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    /// The name `on_demand!` takes; the file is `split_<name>.wasm`.
    pub name: &'static str,
    /// When the page fetches it.
    pub when: &'static str,
    /// What it holds.
    pub holds: &'static str,
}

/// Every module fetched on demand. `on_demand!` accepts only these names (a compile error
/// otherwise), so a new group is added here, with when it is fetched and why it is apart.
/// Functions that are needed at the same moment share a group: each group is one fetch, and the
/// code two groups share becomes a chunk fetched with the first of them.
pub const GROUPS: &[Group] = &[
    Group {
        name: "run",
        when: "a run starts, or a row is selected",
        holds: "the engine (MCP client and transport, host, the offline model, the output check's page side), the row details, the approval dialog",
    },
    Group {
        name: "bridge",
        when: "the server is a bridge's endpoint (what it runs is read for the server's box)",
        holds: "the reader of the bridge's record",
    },
    Group {
        name: "authorize",
        when: "a server first answers 401 or 403 insufficient_scope",
        holds: "the OAuth flow (metadata, registration, consent, PKCE, tokens) with the URL parser it needs, its consent dialog and its diagram",
    },
    Group {
        name: "browse",
        when: "the fourth diagram's walk first starts",
        holds: "the walk through resources, prompts, completion, the subscription and the task",
    },
    Group {
        name: "apps",
        when: "a tool the model called has an app (MCP Apps) and the page renders it",
        holds: "the host's side of the app's conversation, its frame, its panel and the App diagram",
    },
    Group {
        name: "models",
        when: "a run starts with a model other than the offline one",
        holds: "the remote providers' clients (OpenAI-compatible, Anthropic, Gemini), the in-page model's and the user's seats as models",
    },
    Group {
        name: "server_questions",
        when: "a server asks (an input_required result, a 2025-11-25 elicitation/create)",
        holds: "the reader of the server's questions and the form that answers them",
    },
    Group {
        name: "legacy_session",
        when: "a 2025-11-25 session opens, a server answers error -32042, or initialize's POST is refused as by a server of the HTTP+SSE transport (2024-11-05)",
        holds: "the reader of the session's GET stream, the wait for error -32042's pages, the HTTP+SSE transport",
    },
    Group {
        name: "diagnose",
        when: "a run's first request finds no MCP server",
        holds: "the diagnosis: the page's probes, the checks and what they found",
    },
    Group {
        name: "export",
        when: "an export button is pressed",
        holds: "the JSON, HAR and Mermaid writers",
    },
    Group {
        name: "import_recording",
        when: "a recording is imported",
        holds: "the recording's reader (the Deserialize of every row payload)",
    },
    Group {
        name: "ui_panels",
        when: "the message log, the connection panel or the advanced settings are first opened",
        holds: "their bodies, with replay and edit-and-replay",
    },
    Group {
        name: "ui_compare",
        when: "the comparison of the eras is asked for, or shown",
        holds: "the comparison's runs and its view",
    },
    Group {
        name: "ui_you",
        when: "the user is the model and a turn asks them",
        holds: "the dialog of the user in the model's place",
    },
    Group {
        name: "watch",
        when: "the page is opened on a bridge's watch feed (`?watch=`)",
        holds: "the feed's reader, the fold of a watched host's messages into runs, the list of its sessions",
    },
    Group {
        name: "smollm_page",
        when: "the in-page model is picked",
        holds: "the model's panels and the reader of its worker's messages",
    },
];

/// Whether `name` is one of [`GROUPS`] (for `on_demand!`'s compile-time check).
pub const fn is_group(name: &str) -> bool {
    let mut i = 0;
    while i < GROUPS.len() {
        let (a, b) = (GROUPS[i].name.as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// Marks a plain (not `async`) function returning `Result<_, OnDemandError>` as a split point
/// in the group `$module` (one of [`GROUPS`]): `on_demand!(group, fn name(..) -> Result<..> {
/// .. })`. Call it through [`call_on_demand!`]. The crate that uses it has a `split` feature that
/// turns this crate's on.
#[macro_export]
macro_rules! on_demand {
    ($module:ident, $(#[$meta:meta])* $vis:vis fn $($rest:tt)*) => {
        const _: () = assert!(
            $crate::is_group(stringify!($module)),
            "not a group of mcp_flow_on_demand::GROUPS"
        );
        #[cfg_attr(
            feature = "split",
            $crate::__wasm_split::wasm_split(
                $module,
                wasm_split_path = $crate::__wasm_split,
                fallible
            )
        )]
        $(#[$meta])* $vis fn $($rest)*
    };
}

/// Calls a function marked with [`on_demand!`]: awaited where it is split, in place elsewhere.
/// Use it inside an `async` block.
#[cfg(feature = "split")]
#[macro_export]
macro_rules! call_on_demand {
    ($call:expr) => {
        $call.await
    };
}

/// Calls a function marked with [`on_demand!`]: awaited where it is split, in place elsewhere.
#[cfg(not(feature = "split"))]
#[macro_export]
macro_rules! call_on_demand {
    ($call:expr) => {
        $call
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_known_by_their_whole_name() {
        assert!(is_group("run"));
        assert!(is_group("smollm_page"));
        assert!(!is_group("ru"));
        assert!(!is_group("runs"));
        assert!(!is_group(""));
        let mut names: Vec<_> = GROUPS.iter().map(|g| g.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), GROUPS.len(), "a group named twice");
    }
}
