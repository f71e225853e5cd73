//! Row ids as a type. Every message row of every diagram is one [`Row`]; its text id (`d1-1`,
//! `d2-exec`, …) is what the DOM, links (`#d2-8`) and exports carry. A misspelt row is a compile
//! error; a text id from outside (a link, a recording) goes through [`Row::from_id`].

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! rows {
    ($($(#[$doc:meta])* $variant:ident = $id:literal,)*) => {
        /// One message row of the diagrams.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Row {
            $($(#[$doc])* $variant,)*
        }

        impl Row {
            /// Every row, in the order the diagrams draw them.
            pub const ALL: &'static [Row] = &[$(Row::$variant,)*];

            /// The row's text id, as in the DOM and in links.
            pub const fn id(self) -> &'static str {
                match self {
                    $(Row::$variant => $id,)*
                }
            }

            /// The row with this text id (a search of [`Row::ALL`]: smaller in the first
            /// load than a string match over every id).
            pub fn from_id(id: &str) -> Option<Row> {
                Row::ALL.iter().copied().find(|r| r.id() == id)
            }
        }
    };
}

rows! {
    /// a-1: the server answers 401 (or 403 `insufficient_scope`) with a Bearer challenge.
    AuthChallenge = "a-1",
    /// a-2: the client asks for the protected resource's metadata (RFC 9728).
    AuthResourceMetadata = "a-2",
    /// a-3: the protected resource's metadata.
    AuthResourceMetadataResult = "a-3",
    /// a-4: the client asks for the authorization server's metadata (RFC 8414).
    AuthServerMetadata = "a-4",
    /// a-5: the authorization server's metadata.
    AuthServerMetadataResult = "a-5",
    /// a-6: dynamic client registration (RFC 7591; optional).
    AuthRegister = "a-6",
    /// a-7: the registered client's id.
    AuthRegistered = "a-7",
    /// a-8: the host opens the authorization page for the user (PKCE, state, scope, resource).
    AuthOpen = "a-8",
    /// a-9: the user logs in and consents at the authorization server.
    AuthConsent = "a-9",
    /// a-10: the authorization server redirects back with the code, state and iss.
    AuthRedirect = "a-10",
    /// a-11: the code (and the PKCE verifier) for tokens.
    AuthToken = "a-11",
    /// a-12: the access token.
    AuthTokenResult = "a-12",
    /// a-13: the MCP request again, with the access token.
    AuthRetry = "a-13",
    /// a: a refresh token for a new access token (optional, when one ran out).
    AuthRefresh = "a-refresh",
    /// a: the new access token.
    AuthRefreshResult = "a-refresh-result",
    /// d1: the host prepares a client for the server.
    Prepare = "d1-prep",
    /// d1: `server/discover` request (modern era; in `auto` the probe).
    Discover = "d1-discover",
    /// d1: `server/discover` answer (modern era), or the legacy fallback it led to.
    DiscoverResult = "d1-discover-result",
    /// d1-1: `initialize` request.
    Initialize = "d1-1",
    /// d1-2: `initialize` response.
    InitializeResult = "d1-2",
    /// d1-3: `notifications/initialized`.
    Initialized = "d1-3",
    /// d1: the client tells the host the server is ready.
    Ready = "d1-ready",
    /// d1-4: the host asks its client for the tools.
    ListToolsAsk = "d1-4",
    /// d1-5: `tools/list` request.
    ListTools = "d1-5",
    /// d1-6: `tools/list` response.
    ListToolsResult = "d1-6",
    /// d1-7: the client hands the tools to the host.
    ToolsToHost = "d1-7",
    /// d1-8: the host hands the tools to the LLM.
    ToolsToLlm = "d1-8",
    /// d2-1: the user's question.
    Question = "d2-1",
    /// d2-2: the host sends the question and tools to the LLM.
    AskLlm = "d2-2",
    /// d2-3: the LLM answers, asking for a tool (or in text).
    LlmChoice = "d2-3",
    /// d2-4: the host asks the user to confirm the tool call (optional).
    Confirm = "d2-4",
    /// d2-5: the user's answer (optional).
    Confirmed = "d2-5",
    /// d2-6: the host tells its client to call the tool.
    CallToolAsk = "d2-6",
    /// d2-7: `tools/call` request.
    CallTool = "d2-7",
    /// d2: the server asks for input (legacy: `elicitation/create` on the stream; modern: an
    /// `input_required` result).
    Elicit = "d2-elicit",
    /// d2: the host puts the server's question to the user.
    ElicitAsk = "d2-elicit-ask",
    /// d2: the user's answer.
    ElicitAnswer = "d2-elicit-answer",
    /// d2: the answer goes back (legacy: a POSTed response; modern: the retried tools/call).
    ElicitReply = "d2-elicit-reply",
    /// d2: the server asks for the client's roots (legacy: `roots/list` on the stream; modern: an
    /// `inputRequests` entry), answered with the roots in the settings.
    Roots = "d2-roots",
    /// d2 (legacy): the roots go back as the POSTed response to `roots/list` (in 2026-07-28 they
    /// go with the retried tools/call, d2-elicit-reply).
    RootsReply = "d2-roots-reply",
    /// d2: the server asks for the client's model (`sampling/createMessage`; legacy: on the
    /// stream; modern: an `inputRequests` entry).
    Sample = "d2-sample",
    /// d2: the host shows the request to the user, who may edit or refuse it.
    SampleReview = "d2-sample-review",
    /// d2: the host puts the request the user approved to its model.
    SampleLlm = "d2-sample-llm",
    /// d2: the model's completion.
    SampleLlmAnswer = "d2-sample-llm-answer",
    /// d2: the user approves, edits or refuses the completion.
    SampleApprove = "d2-sample-approve",
    /// d2 (legacy): the completion goes back as the POSTed response to `sampling/createMessage`
    /// (in 2026-07-28 it goes with the retried tools/call, d2-elicit-reply).
    SampleReply = "d2-sample-reply",
    /// d2: the server runs the tool.
    Execute = "d2-exec",
    /// d2-8: `tools/call` response.
    CallToolResult = "d2-8",
    /// d2-9: the client hands the result to the host.
    ResultToHost = "d2-9",
    /// d2 (legacy): the server said its tools changed during the call
    /// (`notifications/tools/list_changed`): `tools/list` again before the model's next turn.
    Relist = "d2-relist",
    /// d2 (legacy): the changed list, for the model's next turn.
    RelistResult = "d2-relist-result",
    /// d2-10: the host sends the result to the LLM.
    ResultToLlm = "d2-10",
    /// d2-11: the LLM writes the answer.
    LlmAnswer = "d2-11",
    /// d2-12: the host shows the answer.
    ShowAnswer = "d2-12",
    /// r-1: the user asks the host to show what the server offers besides tools.
    Browse = "r-1",
    /// r-2: `resources/list`.
    ListResources = "r-2",
    /// r-3: the resources, with how long the list stays fresh (2026-07-28).
    ListResourcesResult = "r-3",
    /// r-4: `resources/read` of a listed resource.
    ReadResource = "r-4",
    /// r-5: its contents.
    ReadResourceResult = "r-5",
    /// r-6: `resources/templates/list`.
    ListTemplates = "r-6",
    /// r-7: the resource templates.
    ListTemplatesResult = "r-7",
    /// r-8: `completion/complete` of a template's variable.
    Complete = "r-8",
    /// r-9: the values the server offers.
    CompleteResult = "r-9",
    /// r-10: `resources/read` of the template filled with a completed value.
    ReadTemplate = "r-10",
    /// r-11: its contents.
    ReadTemplateResult = "r-11",
    /// r-12: `prompts/list`.
    ListPrompts = "r-12",
    /// r-13: the prompts.
    ListPromptsResult = "r-13",
    /// r-14: `prompts/get` with the prompt's arguments.
    GetPrompt = "r-14",
    /// r-15: the prompt's messages.
    GetPromptResult = "r-15",
    /// r-16: `resources/subscribe` (2025-11-25, with the GET stream open) or
    /// `subscriptions/listen` (2026-07-28) for the resource read through the template.
    Subscribe = "r-16",
    /// r-17: the subscription taken (an empty result, or the listen stream's acknowledgment).
    Subscribed = "r-17",
    /// r-18: `notifications/resources/updated`, when the server says the resource changed.
    Updated = "r-18",
    /// r-19: `resources/unsubscribe`, or the listen stream closed.
    Unsubscribe = "r-19",
    /// r-20: `resources/read` of the updated resource.
    ReadUpdated = "r-20",
    /// r-21: its contents as they are now.
    ReadUpdatedResult = "r-21",
    /// r-22: `tools/call` asking for a task (2025-11-25 `params.task`, 2026-07-28 the tasks
    /// extension in the request's capabilities).
    TaskCall = "r-22",
    /// r-23: the task the server created (its id, status and poll interval).
    TaskCreated = "r-23",
    /// r-24: `tasks/get`, every poll interval, until the task ends.
    TaskPoll = "r-24",
    /// r-25: the task's last status (in 2026-07-28 with the tool's result).
    TaskStatus = "r-25",
    /// r-26: 2025-11-25's `tasks/result`.
    TaskResult = "r-26",
    /// r-27: the tool's result it answers with.
    TaskResultAnswer = "r-27",
    /// r-28: the host shows what it read, got and the task's result.
    ShowBrowsed = "r-28",
    /// app-1: the host reads the tool's app (`resources/read` of its `ui://` resource).
    AppRead = "app-1",
    /// app-2: the app's HTML and its `_meta.ui`.
    AppReadResult = "app-2",
    /// app-3: the host renders the app through the sandbox proxy (`sandbox-resource-ready`).
    AppRender = "app-3",
    /// app-4: the app's `ui/initialize`.
    AppInitialize = "app-4",
    /// app-5: the host's answer: `hostInfo`, `hostCapabilities`, `hostContext`.
    AppInitializeResult = "app-5",
    /// app-6: `ui/notifications/initialized`.
    AppInitialized = "app-6",
    /// app-7: `ui/notifications/tool-input`.
    AppToolInput = "app-7",
    /// app-8: `ui/notifications/tool-result`.
    AppToolResult = "app-8",
    /// app-9: `ui/notifications/size-changed`: the host resizes the frame.
    AppSize = "app-9",
    /// app-10: the app's own `tools/call` or `resources/read`.
    AppCall = "app-10",
    /// app-11: the host's client sends it to the server.
    AppForward = "app-11",
    /// app-12: the server's answer.
    AppForwardResult = "app-12",
    /// app-13: the answer, back to the app.
    AppCallResult = "app-13",
    /// app-14: `notifications/message` from the app (into the server log).
    AppLog = "app-14",
    /// app-15: `ui/message`: the next question to the model.
    AppMessage = "app-15",
    /// app-16: `ui/update-model-context`: kept for the model's next turn.
    AppModelContext = "app-16",
    /// app-17: `ui/open-link`.
    AppLink = "app-17",
    /// app-18: the user opens the link, or not.
    AppLinkConsent = "app-18",
    /// app-19: `ui/notifications/host-context-changed`.
    AppContextChanged = "app-19",
    /// app-20: `ui/resource-teardown`, before the app is removed.
    AppTeardown = "app-20",
    /// app-21: the app's answer to it.
    AppTornDown = "app-21",
}

impl Row {
    /// A row of the Authorization diagram.
    pub fn is_auth(self) -> bool {
        self.id().starts_with("a-")
    }

    /// A row of the diagram "Resources, prompts, completion and tasks".
    pub fn is_browse(self) -> bool {
        self.id().starts_with("r-")
    }

    /// A row of the diagram "App".
    pub fn is_app(self) -> bool {
        self.id().starts_with("app-")
    }
}

impl std::fmt::Display for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Row {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        Row::from_id(&id).ok_or_else(|| serde::de::Error::custom(format!("unknown row {id:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_read_back() {
        let mut seen = std::collections::HashSet::new();
        for row in Row::ALL {
            assert!(seen.insert(row.id()), "{} twice", row.id());
            assert_eq!(Row::from_id(row.id()), Some(*row));
        }
        assert_eq!(Row::from_id("d2-99"), None);
        assert_eq!(Row::from_id("D2-8"), None);
    }

    #[test]
    fn rows_serialise_as_their_text_id() {
        let json = serde_json::to_string(&Row::CallToolResult).unwrap();
        assert_eq!(json, "\"d2-8\"");
        assert_eq!(
            serde_json::from_str::<Row>("\"d1-prep\"").unwrap(),
            Row::Prepare
        );
        let err = serde_json::from_str::<Row>("\"d9-1\"").unwrap_err();
        assert!(err.to_string().contains("unknown row \"d9-1\""), "{err}");
    }
}
