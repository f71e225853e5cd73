//! Each row's explanation: why the step exists, what to look at, and the spec section. Written
//! apart from the run record and filled with the row's live values by `{placeholder}`.

use crate::diagram::spec::Lang;

const SPEC: &str = "https://modelcontextprotocol.io/specification/2025-11-25";

/// (row, English, Chinese, spec path)
const EXPLANATIONS: [(&str, &str, &str, &str); 23] = [
    (
        "d1-prep",
        "The host creates one MCP client per server. This one will talk to {server}.",
        "主机为每个服务器创建一个 MCP 客户端。这个客户端将连接 {server}。",
        "/architecture",
    ),
    (
        "d1-1",
        "The client POSTs `initialize` asking for protocol version {requested}, with its capabilities and name. Look at the Accept header: a Streamable HTTP client must accept both JSON and SSE.",
        "客户端以 POST 发送 `initialize`，请求协议版本 {requested}，并附上自身能力和名称。注意 Accept 头：Streamable HTTP 客户端必须同时接受 JSON 和 SSE。",
        "/basic/lifecycle#initialization",
    ),
    (
        "d1-2",
        "The server answers with the version it chose ({version}), its capabilities and its name ({server}). Session id: {session}. The client checks that it can speak {version}.",
        "服务器返回它选择的版本（{version}）、能力和名称（{server}）。会话 ID：{session}。客户端确认自己支持 {version}。",
        "/basic/lifecycle#version-negotiation",
    ),
    (
        "d1-3",
        "`notifications/initialized` ends the handshake. It is a notification (no id), so the server answers HTTP 202 with no body.",
        "`notifications/initialized` 结束握手。它是通知（没有 id），所以服务器以 HTTP 202 应答，没有正文。",
        "/basic/lifecycle#initialization",
    ),
    (
        "d1-ready",
        "The awaited initialize has returned: the host now knows the server is ready. Logging: {logging} (the client asks for log lines so the tool call below can show the server at work).",
        "initialize 已返回：主机现在知道服务器就绪。日志：{logging}（客户端请求日志，以便下面的工具调用能显示服务器的工作）。",
        "/server/utilities/logging",
    ),
    (
        "d1-4",
        "The host asks its client for the server's tools (session.list_tools()). Nothing goes over the wire yet.",
        "主机让客户端获取服务器的工具（session.list_tools()）。此时还没有网络通信。",
        "/server/tools#listing-tools",
    ),
    (
        "d1-5",
        "`tools/list` goes out with the session id and the negotiated `MCP-Protocol-Version` header.",
        "`tools/list` 发出，带有会话 ID 和协商好的 `MCP-Protocol-Version` 头。",
        "/server/tools#listing-tools",
    ),
    (
        "d1-6",
        "The server lists {count} tool(s): {tools}. Each has a name, a description and a JSON Schema for its input; a `nextCursor` would mean more pages.",
        "服务器列出 {count} 个工具：{tools}。每个工具有名称、描述和输入的 JSON Schema；若有 `nextCursor` 则还有更多页。",
        "/server/tools#listing-tools",
    ),
    (
        "d1-7",
        "The client hands the tool list to the host: {tools}.",
        "客户端把工具列表交给主机：{tools}。",
        "/server/tools",
    ),
    (
        "d1-8",
        "The host formats the tools for the model ({llm}). The payload below is exactly what the model receives.",
        "主机为模型（{llm}）格式化工具。下面的内容就是模型收到的原样数据。",
        "/server/tools#tool",
    ),
    (
        "d2-1",
        "The user asks: {question}",
        "用户提问：{question}",
        "/architecture",
    ),
    (
        "d2-2",
        "The host sends the question and the tools to the model ({llm}). The model, not the host, decides whether a tool is needed.",
        "主机把问题和工具发送给模型（{llm}）。是否需要工具由模型决定，而不是主机。",
        "/server/tools#user-interaction-model",
    ),
    (
        "d2-3",
        "The model asks for {tool} with arguments {arguments}.",
        "模型请求调用 {tool}，参数为 {arguments}。",
        "/server/tools#calling-tools",
    ),
    (
        "d2-4",
        "Optional: the host asks the user before running {tool}. The spec says hosts SHOULD keep a human in the loop for tool calls.",
        "可选：主机在运行 {tool} 之前询问用户。规范建议工具调用应由人确认。",
        "/server/tools#security-considerations",
    ),
    (
        "d2-5",
        "The user answered: {answer}.",
        "用户回答：{answer}。",
        "/server/tools#security-considerations",
    ),
    (
        "d2-6",
        "The host tells its client to call {tool} with {arguments} (session.call_tool()).",
        "主机让客户端以 {arguments} 调用 {tool}（session.call_tool()）。",
        "/server/tools#calling-tools",
    ),
    (
        "d2-7",
        "`tools/call` goes out. Its `_meta.progressToken` lets the server report progress on the same stream.",
        "`tools/call` 发出。其中的 `_meta.progressToken` 让服务器在同一流上报告进度。",
        "/server/tools#calling-tools",
    ),
    (
        "d2-exec",
        "The server runs the tool. Its log line and progress arrive as SSE events on the tools/call stream, before the result.",
        "服务器执行工具。它的日志和进度作为 SSE 事件在 tools/call 流上、在结果之前到达。",
        "/basic/utilities/progress",
    ),
    (
        "d2-8",
        "The result: {text} (isError: {isError}). Structured content: {structured}. A failing tool is a result with isError, not a JSON-RPC error.",
        "结果：{text}（isError：{isError}）。结构化内容：{structured}。工具失败是带 isError 的结果，而不是 JSON-RPC 错误。",
        "/server/tools#tool-result",
    ),
    (
        "d2-9",
        "The client hands the result to the host: {text}.",
        "客户端把结果交给主机：{text}。",
        "/server/tools#tool-result",
    ),
    (
        "d2-10",
        "The host sends the tool result back to the model so it can write the answer.",
        "主机把工具结果发回模型，以便它写出答案。",
        "/server/tools#calling-tools",
    ),
    (
        "d2-11",
        "The model writes the final answer: {text}",
        "模型写出最终答案：{text}",
        "/server/tools",
    ),
    (
        "d2-12",
        "The host shows the answer: {answer}",
        "主机显示答案：{answer}",
        "/architecture",
    ),
];

/// The row's explanation in `lang`, with `{key}` filled from `values` (unknown keys are left as
/// "…" so a pending row still reads well), and the spec link.
pub fn explain(row: &str, lang: Lang, values: &[(String, String)]) -> Option<(String, String)> {
    let (_, en, zh, path) = EXPLANATIONS.iter().find(|(id, ..)| *id == row)?;
    let template = match lang {
        Lang::En => en,
        Lang::Zh => zh,
    };
    Some((fill(template, values), format!("{SPEC}{path}")))
}

fn fill(template: &str, values: &[(String, String)]) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('}') {
            Some(end) if after[..end].chars().all(|c| c.is_ascii_alphanumeric()) => {
                let key = &after[..end];
                let value = values
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v.as_str());
                out.push_str(value.unwrap_or("…"));
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

    #[test]
    fn every_diagram_row_has_an_explanation_in_both_languages() {
        for diagram in seeds::diagrams() {
            for message in diagram.messages() {
                for lang in Lang::ALL {
                    let (text, link) = explain(message.id, lang, &[])
                        .unwrap_or_else(|| panic!("no explanation for {}", message.id));
                    assert!(!text.trim().is_empty());
                    assert!(link.starts_with("https://modelcontextprotocol.io/"));
                }
                let (en, _) = explain(message.id, Lang::En, &[]).unwrap();
                let (zh, _) = explain(message.id, Lang::Zh, &[]).unwrap();
                assert_ne!(en, zh, "{}", message.id);
            }
        }
    }

    #[test]
    fn placeholders_are_filled_from_live_values() {
        let values = vec![("version".to_owned(), "2025-06-18".to_owned())];
        let (text, _) = explain("d1-2", Lang::En, &values).unwrap();
        assert!(text.contains("chose (2025-06-18)"), "{text}");
        assert!(text.contains("name (…)"), "{text}");
        assert_eq!(fill("{a} {b}", &[]), "… …");
        assert_eq!(fill("JSON {\"x\": 1}", &[]), "JSON {\"x\": 1}");
    }
}
