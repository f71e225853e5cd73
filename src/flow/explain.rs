//! Each row's explanation: why the step exists, what to look at, and the spec section. Written
//! apart from the run record and filled with the row's live values by `{placeholder}`.

use super::payload::{Field, Shown};
use super::run::RowRecord;
use crate::diagram::Row;
use crate::diagram::spec::Lang;

const SPEC: &str = "https://modelcontextprotocol.io/specification/2025-11-25";

/// (row, English, Chinese, spec path)
const EXPLANATIONS: [(Row, &str, &str, &str); 23] = [
    (
        Row::Prepare,
        "The host creates one MCP client per server. This one will talk to {server}.",
        "主机为每个服务器创建一个 MCP 客户端。这个客户端将连接 {server}。",
        "/architecture",
    ),
    (
        Row::Initialize,
        "The client POSTs `initialize` asking for protocol version {requested}, with its capabilities and name. Look at the Accept header: a Streamable HTTP client must accept both JSON and SSE.",
        "客户端以 POST 发送 `initialize`，请求协议版本 {requested}，并附上自身能力和名称。注意 Accept 头：Streamable HTTP 客户端必须同时接受 JSON 和 SSE。",
        "/basic/lifecycle#initialization",
    ),
    (
        Row::InitializeResult,
        "The server answers with the version it chose ({version}), its capabilities and its name ({server}). Session id: {session}. The client checks that it can speak {version}.",
        "服务器返回它选择的版本（{version}）、能力和名称（{server}）。会话 ID：{session}。客户端确认自己支持 {version}。",
        "/basic/lifecycle#version-negotiation",
    ),
    (
        Row::Initialized,
        "`notifications/initialized` ends the handshake. It is a notification (no id), so the server answers HTTP 202 with no body.",
        "`notifications/initialized` 结束握手。它是通知（没有 id），所以服务器以 HTTP 202 应答，没有正文。",
        "/basic/lifecycle#initialization",
    ),
    (
        Row::Ready,
        "The awaited initialize has returned: the host now knows the server is ready. Logging: {logging} (the client asks for log lines so the tool call below can show the server at work).",
        "initialize 已返回：主机现在知道服务器就绪。日志：{logging}（客户端请求日志，以便下面的工具调用能显示服务器的工作）。",
        "/server/utilities/logging",
    ),
    (
        Row::ListToolsAsk,
        "The host asks its client for the server's tools (session.list_tools()). Nothing goes over the wire yet.",
        "主机让客户端获取服务器的工具（session.list_tools()）。此时还没有网络通信。",
        "/server/tools#listing-tools",
    ),
    (
        Row::ListTools,
        "`tools/list` goes out with the session id and the negotiated `MCP-Protocol-Version` header.",
        "`tools/list` 发出，带有会话 ID 和协商好的 `MCP-Protocol-Version` 头。",
        "/server/tools#listing-tools",
    ),
    (
        Row::ListToolsResult,
        "The server lists {count} tool(s): {tools}. Each has a name, a description and a JSON Schema for its input; a `nextCursor` would mean more pages.",
        "服务器列出 {count} 个工具：{tools}。每个工具有名称、描述和输入的 JSON Schema；若有 `nextCursor` 则还有更多页。",
        "/server/tools#listing-tools",
    ),
    (
        Row::ToolsToHost,
        "The client hands the tool list to the host: {tools}.",
        "客户端把工具列表交给主机：{tools}。",
        "/server/tools",
    ),
    (
        Row::ToolsToLlm,
        "The host formats the tools for the model ({llm}). The payload below is exactly what the model receives.",
        "主机为模型（{llm}）格式化工具。下面的内容就是模型收到的原样数据。",
        "/server/tools#tool",
    ),
    (
        Row::Question,
        "The user asks: {question}",
        "用户提问：{question}",
        "/architecture",
    ),
    (
        Row::AskLlm,
        "The host sends the question and the tools to the model ({llm}). The model, not the host, decides whether a tool is needed.",
        "主机把问题和工具发送给模型（{llm}）。是否需要工具由模型决定，而不是主机。",
        "/server/tools#user-interaction-model",
    ),
    (
        Row::LlmChoice,
        "The model asks for {tool} with arguments {arguments}.",
        "模型请求调用 {tool}，参数为 {arguments}。",
        "/server/tools#calling-tools",
    ),
    (
        Row::Confirm,
        "Optional: the host asks the user before running {tool}. The spec says hosts SHOULD keep a human in the loop for tool calls.",
        "可选：主机在运行 {tool} 之前询问用户。规范建议工具调用应由人确认。",
        "/server/tools#security-considerations",
    ),
    (
        Row::Confirmed,
        "The user answered: {answer}.",
        "用户回答：{answer}。",
        "/server/tools#security-considerations",
    ),
    (
        Row::CallToolAsk,
        "The host tells its client to call {tool} with {arguments} (session.call_tool()).",
        "主机让客户端以 {arguments} 调用 {tool}（session.call_tool()）。",
        "/server/tools#calling-tools",
    ),
    (
        Row::CallTool,
        "`tools/call` goes out. Its `_meta.progressToken` lets the server report progress on the same stream.",
        "`tools/call` 发出。其中的 `_meta.progressToken` 让服务器在同一流上报告进度。",
        "/server/tools#calling-tools",
    ),
    (
        Row::Execute,
        "The server runs the tool. Its log line and progress arrive as SSE events on the tools/call stream, before the result.",
        "服务器执行工具。它的日志和进度作为 SSE 事件在 tools/call 流上、在结果之前到达。",
        "/basic/utilities/progress",
    ),
    (
        Row::CallToolResult,
        "The result: {text} (isError: {isError}). Structured content: {structured}. A failing tool is a result with isError, not a JSON-RPC error.",
        "结果：{text}（isError：{isError}）。结构化内容：{structured}。工具失败是带 isError 的结果，而不是 JSON-RPC 错误。",
        "/server/tools#tool-result",
    ),
    (
        Row::ResultToHost,
        "The client hands the result to the host: {text}.",
        "客户端把结果交给主机：{text}。",
        "/server/tools#tool-result",
    ),
    (
        Row::ResultToLlm,
        "The host sends the tool result back to the model so it can write the answer.",
        "主机把工具结果发回模型，以便它写出答案。",
        "/server/tools#calling-tools",
    ),
    (
        Row::LlmAnswer,
        "The model writes the final answer: {text}",
        "模型写出最终答案：{text}",
        "/server/tools",
    ),
    (
        Row::ShowAnswer,
        "The host shows the answer: {answer}",
        "主机显示答案：{answer}",
        "/architecture",
    ),
];

/// The row's explanation in `lang`, with `{field}` filled from what the row carried, and the
/// spec link. A value the row has not carried yet reads "…"; one the run did not carry at all
/// says so.
pub fn explain(row: Row, lang: Lang, record: Option<&RowRecord>) -> (String, String) {
    let (template, path) = template(row, lang);
    let text = fill(template, lang, |field| record.and_then(|r| r.field(field)));
    (text, format!("{SPEC}{path}"))
}

/// The template and spec path of `row`.
fn template(row: Row, lang: Lang) -> (&'static str, &'static str) {
    EXPLANATIONS
        .iter()
        .find(|(id, ..)| *id == row)
        .map(|(_, en, zh, path)| (if lang == Lang::Zh { *zh } else { *en }, *path))
        .unwrap_or(("", ""))
}

fn fill(template: &str, lang: Lang, value: impl Fn(Field) -> Option<Shown>) -> String {
    let absent = match lang {
        Lang::En => "(none)",
        Lang::Zh => "（无）",
    };
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) if after[..end].chars().all(|c| c.is_ascii_alphanumeric()) => {
                let shown = Field::from_name(&after[..end]).and_then(&value);
                match shown {
                    Some(Shown::Value(v)) => out.push_str(&v),
                    Some(Shown::Absent) => out.push_str(absent),
                    None => out.push('…'),
                }
                rest = &after[end + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::seeds;
    use crate::flow::payload::{Payload, fits};
    use crate::flow::run::RowStatus;
    use serde_json::json;

    /// The `{name}` placeholders of a template, in order.
    fn placeholders(template: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = template;
        while let Some(start) = rest.find('{') {
            let after = &rest[start + 1..];
            match after.find('}') {
                Some(end) if after[..end].chars().all(|c| c.is_ascii_alphanumeric()) => {
                    out.push(&after[..end]);
                    rest = &after[end + 1..];
                }
                _ => rest = after,
            }
        }
        out
    }

    /// A payload of the kind each row finishes with.
    fn sample(row: Row) -> Option<Payload> {
        let call = Payload::ToolCall {
            tool: "get_weather".into(),
            arguments: json!({"location": "Tokyo"}),
            round: 1,
        };
        let result = Payload::ToolResult {
            text: "Sunny".into(),
            is_error: false,
            structured: None,
        };
        let llm = Payload::LlmCall {
            llm: "offline".into(),
            style: crate::llm::Style::FunctionCalling,
        };
        let tools = Payload::Tools {
            names: vec!["get_weather".into()],
        };
        Some(match row {
            Row::Prepare => Payload::Server { url: "u".into() },
            Row::Initialize => Payload::Requested {
                version: "2025-11-25".into(),
            },
            Row::InitializeResult => Payload::Handshake {
                version: "2025-11-25".into(),
                server: "s 1".into(),
                capabilities: json!({}),
                session: None,
            },
            Row::Ready => Payload::Logging { level: None },
            Row::ListToolsResult | Row::ToolsToHost => tools,
            Row::ToolsToLlm => Payload::ToolsForLlm {
                llm: "offline".into(),
                style: crate::llm::Style::FunctionCalling,
                sent: "[]".into(),
                tools: vec![],
            },
            Row::Question => Payload::Question { text: "q".into() },
            Row::AskLlm | Row::ResultToLlm => llm,
            Row::LlmChoice | Row::Confirm | Row::CallToolAsk => call,
            Row::Confirmed => Payload::Decision { approved: true },
            Row::CallToolResult | Row::ResultToHost => result,
            Row::LlmAnswer => Payload::Text { text: "t".into() },
            Row::ShowAnswer => Payload::Answer { text: "a".into() },
            Row::Initialized
            | Row::ListToolsAsk
            | Row::ListTools
            | Row::CallTool
            | Row::Execute => {
                return None;
            }
        })
    }

    fn record(row: Row) -> RowRecord {
        let mut run = crate::flow::run::Run::new([row]);
        run.apply(crate::flow::run::RunEvent::Done {
            row,
            at_ms: 0.0,
            payload: sample(row),
        });
        run.row(row).cloned().expect("row")
    }

    #[test]
    fn every_diagram_row_has_an_explanation_in_both_languages() {
        for diagram in seeds::diagrams() {
            for row in diagram.rows() {
                for lang in Lang::ALL {
                    let (text, link) = explain(row, lang, None);
                    assert!(!text.trim().is_empty(), "no explanation for {row}");
                    assert!(link.starts_with("https://modelcontextprotocol.io/"));
                }
                assert_ne!(
                    explain(row, Lang::En, None).0,
                    explain(row, Lang::Zh, None).0,
                    "{row}"
                );
            }
        }
    }

    #[test]
    fn every_placeholder_is_a_value_its_row_carries() {
        for &row in Row::ALL {
            let sample = sample(row);
            assert!(fits(row, sample.as_ref()), "sample for {row}");
            let record = record(row);
            assert_eq!(record.status, RowStatus::Done);
            for lang in Lang::ALL {
                let (template, _) = template(row, lang);
                for name in placeholders(template) {
                    let field = Field::from_name(name)
                        .unwrap_or_else(|| panic!("{row} {lang:?}: unknown {{{name}}}"));
                    assert!(
                        record.field(field).is_some(),
                        "{row} {lang:?}: {{{name}}} is not a value of its payload"
                    );
                }
                let (text, _) = explain(row, lang, Some(&record));
                assert!(!text.contains('…'), "{row} {lang:?}: {text}");
            }
        }
    }

    #[test]
    fn placeholders_are_filled_from_live_values() {
        let mut record = record(Row::InitializeResult);
        let (text, _) = explain(Row::InitializeResult, Lang::En, Some(&record));
        assert!(text.contains("chose (2025-11-25)"), "{text}");
        assert!(text.contains("Session id: (none)."), "{text}");
        record.payload = None;
        let (text, _) = explain(Row::InitializeResult, Lang::En, Some(&record));
        assert!(text.contains("chose (…)"), "{text}");
        assert_eq!(fill("{tool} {nope}", Lang::En, |_| None), "… …");
        assert_eq!(
            fill("JSON {\"x\": 1}", Lang::En, |_| None),
            "JSON {\"x\": 1}"
        );
    }
}
