//! What the inspector shows of the selected row, read from the run in one pass: its record, its
//! label with the run's values, whether its tool failed or its output broke the schema, the
//! exchanges and model calls behind it, the in-page model's decision, the result's content blocks
//! and the notifications. The page keeps it in a memo, so a render reads no more of the run.

use serde_json::Value;

use super::live::LiveValues;
use super::run::{AppPost, RowRecord, Run};
use crate::diagram::Row;
use crate::host::content::{self, Block};
use crate::host::icons::{self, Icon};
use crate::llm::LlmExchange;
use crate::llm::smollm::decision::{self, Summary};
use mcp_flow_client::record::Exchange;

/// One row's details, as the inspector draws them.
#[derive(Debug, Clone, PartialEq)]
pub struct RowDetails {
    pub record: Option<RowRecord>,
    /// The row's label as its arrow shows it, with the run's values.
    pub label: String,
    pub tool_failed: bool,
    /// Why the tool's output does not fit its output schema, when it does not.
    pub mismatch: Option<String>,
    pub exchanges: Vec<Exchange>,
    pub llm: Vec<LlmExchange>,
    /// The in-page model's choice, on the row of the choice.
    pub decision: Option<Summary>,
    /// The result's content blocks by kind (a tool's result, a read's contents, a prompt's
    /// messages), when the row shows one.
    pub content: Vec<Block>,
    /// The server's notifications during the tool's execution.
    pub notifications: Vec<Value>,
    /// The icons of the server or of its tools, on the rows that list them.
    pub icons: Vec<Icon>,
    /// The messages between host and app at this row (MCP Apps).
    pub app: Vec<AppPost>,
    /// Why the run's first request found no server, at the row where it failed.
    pub diagnosis: Option<crate::diagnose::Diagnosis>,
}

type Reader = fn(&Value) -> Vec<Block>;

/// The messages between host and app at `id`; at the render's row (where the timeline's App
/// span leads) also what the host refused outside any row: a flood, a malformed message.
fn app_posts(run: &Run, id: Row) -> Vec<AppPost> {
    let mut posts: Vec<AppPost> = run
        .row(id)
        .map(|r| {
            r.app
                .iter()
                .filter_map(|i| run.app.get(*i).cloned())
                .collect()
        })
        .unwrap_or_default();
    if id == Row::AppRender {
        posts.extend(
            run.app
                .iter()
                .filter(|p| p.row.is_none() && p.refused.is_some())
                .cloned(),
        );
    }
    posts
}

/// Where a row's content blocks are: the row whose exchanges hold the response (its own when
/// `None`), the method answered, and the reader of its result.
fn content_of(id: Row) -> Option<(Option<Row>, &'static str, Reader)> {
    let read: Reader = content::read_blocks;
    Some(match id {
        Row::CallToolResult => (None, "tools/call", content::blocks as Reader),
        Row::ReadResourceResult => (Some(Row::ReadResource), "resources/read", read),
        Row::ReadTemplateResult => (Some(Row::ReadTemplate), "resources/read", read),
        Row::ReadUpdatedResult => (Some(Row::ReadUpdated), "resources/read", read),
        Row::GetPromptResult => (Some(Row::GetPrompt), "prompts/get", content::prompt_blocks),
        _ => return None,
    })
}

type IconReader = fn(&Value) -> Vec<Icon>;

/// Where a row's icons are: the request row that got the answer, its method, and the reader.
fn icons_of(id: Row) -> Option<(Row, &'static str, IconReader)> {
    Some(match id {
        Row::InitializeResult => (
            Row::Initialize,
            "initialize",
            icons::of_server as IconReader,
        ),
        Row::DiscoverResult => (Row::Discover, "server/discover", icons::of_server),
        Row::ListToolsResult => (Row::ListTools, "tools/list", icons::of_tools),
        Row::RelistResult => (Row::Relist, "tools/list", icons::of_tools),
        _ => return None,
    })
}

/// The result of the last `method` answered among `row`'s exchanges (any row's when `None`).
fn answered(run: &Run, row: Option<Row>, method: &str) -> Option<Value> {
    let on_row = row.and_then(|row| run.row(row)).map(|r| &r.mcp);
    run.mcp
        .exchanges
        .iter()
        .rev()
        .filter(|x| on_row.is_none_or(|seqs| seqs.contains(&x.seq)))
        .filter(|x| x.rpc_method.as_deref() == Some(method))
        .find_map(|x| x.rpc_response())
        .and_then(|r| r.get("result").cloned())
}

impl RowDetails {
    /// Row `id` of `run`; `original` is the row's label as the shown diagram draws it.
    pub fn of(run: &Run, id: Row, original: &str) -> Self {
        let record = run.row(id).cloned();
        let exchanges = record
            .iter()
            .flat_map(|r| {
                r.mcp
                    .iter()
                    .filter_map(|s| run.mcp.exchanges.get(*s).cloned())
            })
            .collect();
        let llm = record
            .iter()
            .flat_map(|r| r.llm.iter().filter_map(|i| run.llm.get(*i).cloned()))
            .collect();
        // The decision of the first turn: its exchange is recorded on the request row, d2-2.
        let decision = (id == Row::LlmChoice)
            .then(|| run.row(Row::AskLlm))
            .flatten()
            .and_then(|r| r.llm.first().and_then(|i| run.llm.get(*i)))
            .and_then(|x| x.response.as_ref())
            .and_then(decision::summary);
        let content = content_of(id)
            .and_then(|(asked, method, read)| answered(run, asked, method).map(|r| read(&r)))
            .unwrap_or_default();
        let icons = icons_of(id)
            .and_then(|(asked, method, read)| answered(run, Some(asked), method).map(|r| read(&r)))
            .unwrap_or_default();
        Self {
            label: LiveValues::from_run(run).label(id, original),
            tool_failed: run.tool_failed(id),
            mismatch: run.output_mismatch(id).map(|c| c.summary()),
            record,
            exchanges,
            llm,
            decision,
            content,
            notifications: if id == Row::Execute {
                run.notifications.clone()
            } else {
                Vec::new()
            },
            icons,
            app: app_posts(run, id),
            diagnosis: run.diagnosis.clone().filter(|d| d.row == id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::run::RunEvent;
    use mcp_flow_client::record::Update;
    use mcp_flow_client::scripted::posted;
    use serde_json::json;

    /// A run where `row` sent `method` and got `result` (as a JSON body).
    fn answered(run: &mut Run, row: Row, seq: usize, method: &str, result: Value) {
        run.apply(RunEvent::Active { row, at_ms: 1.0 });
        let x = posted(seq, method, 1.0);
        run.apply(RunEvent::Mcp(Update::Sent(Box::new(x))));
        let answer = json!({"jsonrpc": "2.0", "id": seq, "result": result}).to_string();
        run.apply(RunEvent::Mcp(Update::Body { seq, text: answer }));
    }

    #[test]
    fn what_the_host_refused_outside_any_row_is_shown_with_the_apps_render() {
        let mut run = Run::new(crate::diagram::all_rows());
        let post = |row: Option<Row>, refused: Option<&str>| {
            RunEvent::App(Box::new(AppPost {
                at_ms: 1.0,
                row,
                to_app: false,
                message: json!({"jsonrpc": "2.0"}),
                refused: refused.map(str::to_owned),
            }))
        };
        run.apply(post(Some(Row::AppRender), None));
        run.apply(post(None, Some("dropping messages: more than 20 a second")));
        run.apply(post(None, None));
        run.apply(post(Some(Row::AppCall), Some("not a tool of this server")));
        let said = |row| -> Vec<Option<String>> {
            RowDetails::of(&run, row, "")
                .app
                .into_iter()
                .map(|p| p.refused)
                .collect()
        };
        assert_eq!(
            said(Row::AppRender),
            [
                None,
                Some("dropping messages: more than 20 a second".into())
            ],
            "its own message, then the refusal no row holds (a ping, answered, stays out)"
        );
        assert_eq!(
            said(Row::AppCall),
            [Some("not a tool of this server".into())]
        );
    }

    #[test]
    fn a_rows_details_hold_its_own_exchanges_and_the_results_blocks() {
        let mut run = Run::new(crate::diagram::all_rows());
        answered(
            &mut run,
            Row::ListTools,
            0,
            "tools/list",
            json!({"tools": []}),
        );
        let result = json!({"content": [{"type": "text", "text": "sunny"}]});
        answered(&mut run, Row::CallToolResult, 1, "tools/call", result);
        run.apply(RunEvent::Notification(
            json!({"method": "notifications/progress"}),
        ));

        let call = RowDetails::of(&run, Row::CallToolResult, "result");
        let seqs: Vec<usize> = call.exchanges.iter().map(|x| x.seq).collect();
        assert_eq!(seqs, [1], "only the row's own exchange");
        assert_eq!(call.content.len(), 1);
        assert!(
            call.notifications.is_empty(),
            "notifications are shown on Execute"
        );
        assert!(!call.tool_failed);

        let list = RowDetails::of(&run, Row::ListTools, "tools/list");
        assert!(list.content.is_empty(), "a list has no content blocks");
        assert_eq!(list.exchanges.len(), 1);
        assert!(list.icons.is_empty());
        let execute = RowDetails::of(&run, Row::Execute, "execute");
        assert_eq!(execute.notifications.len(), 1);
        assert!(execute.exchanges.is_empty());
    }

    #[test]
    fn the_icons_of_the_listed_tools_are_on_the_rows_that_list_them() {
        let mut run = Run::new(crate::diagram::all_rows());
        let dot = "data:image/png;base64,iVBORw0KGgo=";
        answered(
            &mut run,
            Row::ListTools,
            0,
            "tools/list",
            json!({"tools": [{"name": "get_weather", "icons": [{"src": dot}]}]}),
        );
        let shown = RowDetails::of(&run, Row::ListToolsResult, "result").icons;
        assert_eq!(shown.len(), 1);
        assert_eq!(
            (shown[0].of.as_str(), shown[0].src.as_deref()),
            ("get_weather", Ok(dot))
        );
        assert!(
            RowDetails::of(&run, Row::ListTools, "request")
                .icons
                .is_empty()
        );
    }
}
