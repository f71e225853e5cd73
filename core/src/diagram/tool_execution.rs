//! Diagram 2, "Tool Execution Flow", in both eras: each row's payload and explanation, written once
//! ([`row_specs!`]), then the tutorial's drawing for 2025-11-25 (labels from tutorial documents
//! `002_…` and `003_…` verbatim) and the same redrawn for 2026-07-28. Adding a row: its id in
//! [`super::rows`], then here its spec and its arrow in each era's drawing.

use super::row_spec::row_specs;
use super::rows::Row;
use super::spec::Actor::{Client, Host, Llm, Server, User};
use super::spec::NotePlacement::{Over, Over1, RightOf};
use super::spec::{Drawn, Item, dashed, drawn_in, note, solid};

row_specs! {
    Question {
        carries: [Question],
        both: (
            "/architecture",
            "The user asks: {question}",
            "用户提问：{question}",
        ),
    },
    AskLlm {
        carries: [LlmCall],
        both: (
            "/server/tools#user-interaction-model",
            "The host sends the question and the tools to the model ({llm}). The model, not the host, decides whether a tool is needed.",
            "主机把问题和工具发送给模型（{llm}）。是否需要工具由模型决定，而不是主机。",
        ),
    },
    LlmChoice {
        carries: [ToolCall, Text],
        both: (
            "/server/tools#calling-tools",
            "The model asks for {tool} with arguments {arguments}.",
            "模型请求调用 {tool}，参数为 {arguments}。",
        ),
    },
    Confirm {
        carries: [ToolCall],
        both: (
            "/server/tools#security-considerations",
            "Optional: the host asks the user before running {tool}. The spec says hosts SHOULD keep a human in the loop for tool calls.",
            "可选：主机在运行 {tool} 之前询问用户。规范建议工具调用应由人确认。",
        ),
    },
    Confirmed {
        carries: [Decision],
        both: (
            "/server/tools#security-considerations",
            "The user answered: {answer}.",
            "用户回答：{answer}。",
        ),
    },
    CallToolAsk {
        carries: [ToolCall],
        both: (
            "/server/tools#calling-tools",
            "The host tells its client to call {tool} with {arguments} (session.call_tool()).",
            "主机让客户端以 {arguments} 调用 {tool}（session.call_tool()）。",
        ),
    },
    CallTool {
        carries: [],
        both: (
            "/server/tools#calling-tools",
            "`tools/call` goes out. Its `_meta.progressToken` lets the server report progress on the same stream.",
            "`tools/call` 发出。其中的 `_meta.progressToken` 让服务器在同一流上报告进度。",
        ),
        modern: (
            "/basic/transports/streamable-http",
            "`tools/call` goes out with Mcp-Method: tools/call, Mcp-Name (the tool's name), and an Mcp-Param-* header for each argument the tool marks with x-mcp-header (Base64 when not plain ASCII); `_meta` carries the version, client info, capabilities and a progress token. Closing the stream would cancel it.",
            "`tools/call` 发出，带有 Mcp-Method: tools/call、Mcp-Name（工具名），以及工具用 x-mcp-header 标记的每个参数对应的 Mcp-Param-* 请求头（非纯 ASCII 时用 Base64）；`_meta` 携带版本、客户端信息、能力和进度令牌。关闭流即取消请求。",
        ),
    },
    Elicit {
        carries: [Form],
        legacy: (
            "/client/elicitation",
            "The server needs an answer from the user. In 2025-11-25 it asks by sending a request, `elicitation/create`, on the open tools/call SSE stream: {message}",
            "服务器需要用户的回答。在 2025-11-25 中，它在尚未关闭的 tools/call SSE 流上发送一个请求 `elicitation/create` 来提问：{message}",
        ),
        modern: (
            "/basic/patterns/mrtr",
            "The server needs an answer from the user. In 2026-07-28 it never sends a request on a stream: it answers tools/call with resultType input_required, listing its questions (inputRequests) and an opaque requestState ({requestState}) to echo back: {message}",
            "服务器需要用户的回答。在 2026-07-28 中它从不在流上发请求：它以 resultType 为 input_required 的结果回答 tools/call，列出问题（inputRequests）和要原样回传的 requestState（{requestState}）：{message}",
        ),
    },
    ElicitAsk {
        carries: [Form],
        both: (
            "/client/elicitation",
            "The host shows the server's question as a form built from its schema: {message}",
            "主机把服务器的问题显示为按其 schema 生成的表单：{message}",
        ),
    },
    ElicitAnswer {
        carries: [FormAnswer],
        both: (
            "/client/elicitation",
            "The user answered: {action} {content}.",
            "用户回答：{action} {content}。",
        ),
    },
    ElicitReply {
        carries: [FormAnswer, Roots, Sampled],
        legacy: (
            "/client/elicitation",
            "The client POSTs the answer ({action}) as the JSON-RPC response to elicitation/create; the server then finishes the tool and the result arrives on the still-open tools/call stream.",
            "客户端把回答（{action}）作为对 elicitation/create 的 JSON-RPC 响应 POST 回去；服务器随后完成工具，结果在仍然打开的 tools/call 流上到达。",
        ),
        modern: (
            "/basic/patterns/mrtr",
            "The client calls tools/call again with a new request id, the same name and arguments, every answer in inputResponses (the form's, the roots, the model's) and the requestState exactly as the server sent it.",
            "客户端以新的请求 ID 再次调用 tools/call，名称和参数不变，所有回答（表单、根目录、模型的）放在 inputResponses 中，并原样附上服务器发来的 requestState。",
        ),
    },
    Roots {
        carries: [Roots],
        legacy: (
            "/client/roots",
            "The server asks for the client's roots by sending `roots/list` on the open tools/call SSE stream. The client answers with the roots listed in the settings (none is an answer too): {roots}",
            "服务器在尚未关闭的 tools/call SSE 流上发送 `roots/list`，询问客户端的根目录。客户端用设置中列出的根目录回答（没有也是一种回答）：{roots}",
        ),
        modern: (
            "/client/roots",
            "The server's input_required result asks for the client's roots (an inputRequests entry `roots/list`). The host gives the roots listed in the settings (none is an answer too); they go back in inputResponses with the retry: {roots}",
            "服务器的 input_required 结果询问客户端的根目录（inputRequests 中的一项 `roots/list`）。主机给出设置中列出的根目录（没有也是一种回答）；它们随重试放在 inputResponses 中发回：{roots}",
        ),
    },
    RootsReply {
        carries: [Roots],
        both: (
            "/client/roots",
            "The client POSTs the roots as the JSON-RPC response to roots/list ({roots}); the server goes on with the tool, whose result arrives on the still-open tools/call stream.",
            "客户端把根目录作为对 roots/list 的 JSON-RPC 响应 POST 回去（{roots}）；服务器继续执行工具，结果在仍然打开的 tools/call 流上到达。",
        ),
    },
    Sample {
        carries: [Sampling],
        legacy: (
            "/client/sampling",
            "The server asks the client's model (`sampling/createMessage` on the open tools/call stream): {messages}, at most {maxTokens} tokens.",
            "服务器请求客户端的模型（在打开的 tools/call 流上发送 `sampling/createMessage`）：{messages}，最多 {maxTokens} 个 token。",
        ),
        modern: (
            "/client/sampling",
            "input_required asks for the client's model (`sampling/createMessage` in inputRequests): {messages}, at most {maxTokens} tokens.",
            "input_required 请求客户端的模型（inputRequests 中的 `sampling/createMessage`）：{messages}，最多 {maxTokens} 个 token。",
        ),
    },
    SampleReview {
        carries: [Sampling],
        both: (
            "/client/sampling#user-interaction-model",
            "Human in the loop: the user sees the request (system prompt: {systemPrompt}) and may edit or refuse it before any model does.",
            "人在回路中：用户先看到请求（系统提示：{systemPrompt}），可在任何模型之前编辑或拒绝它。",
        ),
    },
    SampleLlm {
        carries: [Sampling],
        both: (
            "/client/sampling",
            "The approved request goes to the host's own model, without tools.",
            "批准的请求交给主机自己的模型，不带工具。",
        ),
    },
    SampleLlmAnswer {
        carries: [Sampled],
        both: (
            "/client/sampling",
            "The model ({model}) answered: {text}",
            "模型（{model}）回答：{text}",
        ),
    },
    SampleApprove {
        carries: [Sampled],
        both: (
            "/client/sampling#user-interaction-model",
            "The user saw the answer before it went back: {verdict}. {text}",
            "回答发回之前用户已看过：{verdict}。{text}",
        ),
    },
    SampleReply {
        carries: [Sampled],
        both: (
            "/client/sampling",
            "The client POSTs the answer as the response to sampling/createMessage (a refusal as error -1); the tool's result follows on the open stream.",
            "客户端把回答作为对 sampling/createMessage 的响应 POST 回去（拒绝则为错误 -1）；工具结果随后在打开的流上到达。",
        ),
    },
    Execute {
        carries: [],
        both: (
            "/basic/utilities/progress",
            "The server runs the tool. Its log line and progress arrive as SSE events on the tools/call stream, before the result.",
            "服务器执行工具。它的日志和进度作为 SSE 事件在 tools/call 流上、在结果之前到达。",
        ),
        modern: (
            "/basic/utilities/progress",
            "The server runs the tool. Log lines come only because this request's `_meta` asked for a logLevel; they and any progress arrive on this request's own stream, before the result.",
            "服务器执行工具。只有请求的 `_meta` 要求了 logLevel，服务器才会发送日志；日志和进度在这个请求自己的流上、在结果之前到达。",
        ),
    },
    CallToolResult {
        carries: [ToolResult],
        both: (
            "/server/tools#tool-result",
            "The result: {text} (isError: {isError}). Structured content: {structured}. A failing tool is a result with isError, not a JSON-RPC error.",
            "结果：{text}（isError：{isError}）。结构化内容：{structured}。工具失败是带 isError 的结果，而不是 JSON-RPC 错误。",
        ),
    },
    ResultToHost {
        carries: [ToolResult],
        both: (
            "/server/tools#tool-result",
            "The client hands the result to the host: {text}.",
            "客户端把结果交给主机：{text}。",
        ),
    },
    Relist {
        carries: [],
        both: (
            "/server/tools#list-changed-notification",
            "The server sent `notifications/tools/list_changed` while the call ran, so the client lists the tools again before the model's next turn: a client that hears it SHOULD ask for the list again.",
            "调用进行期间服务器发送了 `notifications/tools/list_changed`，所以客户端在模型下一轮之前再次列出工具：收到该通知的客户端应当重新获取列表。",
        ),
    },
    RelistResult {
        carries: [Tools],
        both: (
            "/server/tools#list-changed-notification",
            "The server now lists {count} tool(s): {tools}. The model's next turn gets this list.",
            "服务器现在列出 {count} 个工具：{tools}。模型的下一轮使用这个列表。",
        ),
    },
    ResultToLlm {
        carries: [LlmCall],
        both: (
            "/server/tools#calling-tools",
            "The host sends the tool result back to the model so it can write the answer.",
            "主机把工具结果发回模型，以便它写出答案。",
        ),
    },
    LlmAnswer {
        carries: [ToolCall, Text],
        both: (
            "/server/tools",
            "The model writes the final answer: {text}",
            "模型写出最终答案：{text}",
        ),
    },
    ShowAnswer {
        carries: [Answer],
        both: (
            "/architecture",
            "The host shows the answer: {answer}",
            "主机显示答案：{answer}",
        ),
    },
}

/// Both eras' drawings side by side, in order: what both draw alike, what each draws its own
/// way (2025-11-25 first), and what only one draws.
static DRAWN: [Drawn; 44] = [
    Drawn::Both(Item::Message(solid(Row::Question, User, Host, "\"What's the weather in Tokyo?\"", "“东京的天气怎么样？”").numbered(1))),
    Drawn::Both(note(RightOf(User), "User asks a question that might require a tool", "用户提出一个可能需要工具的问题")),
    Drawn::Both(Item::Message(solid(Row::AskLlm, Host, Llm, "Forward user's question with context\n[System Prompt (with tool info) + User Question]", "转发用户的问题和上下文\n[系统提示（带工具信息） + 用户问题]").numbered(2))),
    Drawn::Both(note(Over(Host, Llm), "Host sends the question and formatted tool info ('get_weather') to the LLM", "主机将问题和格式化的工具信息（'get_weather'）发送给LLM")),
    Drawn::Both(Item::Message(solid(Row::LlmChoice, Llm, Host, "LLM responds, requesting tool usage\nResponse: `{\"tool_name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}`", "LLM响应，请求使用工具\n响应: `{\"tool_name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}`").numbered(3))),
    Drawn::Both(note(Over(Host, Llm), "Based on provided tool info, LLM decides to use the weather tool\nand generates the required JSON structure with arguments", "基于提供的工具信息，LLM决定使用天气工具\n并生成所需的JSON结构及参数")),
    Drawn::Both(Item::Message(solid(Row::Confirm, Host, User, "(Optional) Confirm tool execution\n\"Execute 'get_weather' on Tool Server?\"", "(可选) 确认工具执行\n“在工具服务器上执行'get_weather'吗？”").numbered(4).optional())),
    Drawn::Both(Item::Message(solid(Row::Confirmed, User, Host, "(Optional) \"Yes\"", "(可选) “是的”").numbered(5).optional())),
    Drawn::Eras(
        note(Over(Host, User), "For security/transparency, host might seek user permission (Not implemented in the sample code)", "出于安全性/透明性，主机可能会寻求用户许可（在示例代码中未实现）"),
        note(Over(Host, User), "For security/transparency, host might seek user permission", "出于安全性/透明性，主机可能会寻求用户许可"),
    ),
    Drawn::Eras(
        Item::Message(solid(Row::CallToolAsk, Host, Client, "Instruct execution of 'get_weather' tool (session.call_tool())\nArguments: {\"location\": \"Tokyo\"}", "指示执行'get_weather'工具 (session.call_tool())\n参数: {\"location\": \"Tokyo\"}").numbered(6).activating()),
        Item::Message(solid(Row::CallToolAsk, Host, Client, "Instruct execution of 'get_weather' tool\nArguments: {\"location\": \"Tokyo\"}", "指示执行'get_weather'工具\n参数: {\"location\": \"Tokyo\"}").numbered(6).activating()),
    ),
    Drawn::Both(note(RightOf(Host), "Host instructs the MCP server via MCPClient", "主机通过MCPClient指示MCP服务器")),
    Drawn::Eras(
        Item::Message(solid(Row::CallTool, Client, Server, "tools/call (Request)\n[name: \"get_weather\", arguments: {\"location\": \"Tokyo\"}]", "tools/call (请求)\n[name: \"get_weather\", arguments: {\"location\": \"Tokyo\"}]").numbered(7).activating()),
        Item::Message(solid(Row::CallTool, Client, Server, "tools/call (Request)\n[Mcp-Method: tools/call, Mcp-Name: get_weather, _meta]\n[name: \"get_weather\", arguments: {\"location\": \"Tokyo\"}]", "tools/call (请求)\n[Mcp-Method: tools/call, Mcp-Name: get_weather, _meta]\n[name: \"get_weather\", arguments: {\"location\": \"Tokyo\"}]").numbered(7).activating()),
    ),
    Drawn::Eras(
        note(Over(Client, Server), "Invoke server function with specified tool name and arguments (JSON-RPC)", "使用指定的工具名称和参数调用服务器函数（JSON-RPC）"),
        note(Over(Client, Server), "Headers mirror the body so a gateway can route without parsing it; Mcp-Param-* carries x-mcp-header arguments", "请求头镜像请求体，网关无需解析即可路由；Mcp-Param-* 携带 x-mcp-header 参数"),
    ),
    Drawn::Eras(
        Item::Message(dashed(Row::Elicit, Server, Client, "elicitation/create (Request on the tools/call SSE stream)", "elicitation/create（在 tools/call 的 SSE 流上的请求）").added()),
        Item::Message(dashed(Row::Elicit, Server, Client, "tools/call (Response): input_required\n[inputRequests: elicitation/create, requestState]", "tools/call (响应)：input_required\n[inputRequests: elicitation/create, requestState]").added()),
    ),
    Drawn::Both(Item::Message(solid(Row::ElicitAsk, Host, User, "Ask the server's question (a form from its schema)", "向用户提出服务器的问题（按其 schema 生成的表单）").added())),
    Drawn::Both(Item::Message(solid(Row::ElicitAnswer, User, Host, "Answer (accept / decline / cancel)", "回答（接受 / 拒绝 / 取消）").added())),
    Drawn::Legacy(Item::Message(solid(Row::ElicitReply, Client, Server, "POST: the response to elicitation/create", "POST：对 elicitation/create 的响应").added())),
    Drawn::Legacy(Item::Message(dashed(Row::Roots, Server, Client, "roots/list (Request on the tools/call SSE stream)", "roots/list（在 tools/call 的 SSE 流上的请求）").added())),
    Drawn::Modern(Item::Message(solid(Row::Roots, Host, Client, "The settings' roots for inputRequests: roots/list", "设置中的根目录，用于 inputRequests：roots/list").added())),
    Drawn::Legacy(Item::Message(solid(Row::RootsReply, Client, Server, "POST: the response to roots/list\n[the settings' roots]", "POST：对 roots/list 的响应\n[设置中的根目录]").added())),
    Drawn::Legacy(Item::Message(dashed(Row::Sample, Server, Client, "sampling/createMessage (Request on the tools/call SSE stream)\n[messages, maxTokens]", "sampling/createMessage（在 tools/call 的 SSE 流上的请求）\n[messages, maxTokens]").added())),
    Drawn::Modern(Item::Message(solid(Row::Sample, Client, Host, "inputRequests: sampling/createMessage\n(for the host's model)", "inputRequests：sampling/createMessage\n（交给主机的模型）").added())),
    Drawn::Both(Item::Message(solid(Row::SampleReview, Host, User, "Show the server's request (approve, edit or refuse)", "向用户展示服务器的请求（批准、编辑或拒绝）").added())),
    Drawn::Both(Item::Message(solid(Row::SampleLlm, Host, Llm, "The approved request to the model\n[systemPrompt + messages, maxTokens, no tools]", "把批准的请求交给模型\n[systemPrompt + messages, maxTokens, 不带工具]").added())),
    Drawn::Both(Item::Message(solid(Row::SampleLlmAnswer, Llm, Host, "The model's completion", "模型的补全").added())),
    Drawn::Both(Item::Message(solid(Row::SampleApprove, User, Host, "Approve the completion (or edit, or refuse it)", "批准补全（或编辑、拒绝）").added())),
    Drawn::Legacy(Item::Message(solid(Row::SampleReply, Client, Server, "POST: the response to sampling/createMessage\n[role: assistant, content, model]", "POST：对 sampling/createMessage 的响应\n[role: assistant, content, model]").added())),
    Drawn::Modern(Item::Message(solid(Row::ElicitReply, Client, Server, "tools/call (Retry, new id)\n[inputResponses, requestState]", "tools/call (重试，新 ID)\n[inputResponses, requestState]").added())),
    Drawn::Modern(note(Over(Client, Server), "MRTR: the server asks by returning a result, the client retries; no request ever arrives on a stream", "MRTR：服务器通过返回结果来提问，客户端重试；流上不会出现服务器发来的请求")),
    Drawn::Both(Item::Message(solid(Row::Execute, Server, Server, "Internal processing (executes get_weather function)", "内部处理（执行get_weather函数）"))),
    Drawn::Legacy(note(Over1(Server), "Logs execution, returns result (e.g., \"Sunny\")", "记录执行，返回结果（例如，“晴天”）")),
    Drawn::Legacy(Item::Message(dashed(Row::CallToolResult, Server, Client, "tools/call (Response)\n[result: {content: [{type: \"text\", text: \"Sunny\"}]}]", "tools/call (响应)\n[result: {content: [{type: \"text\", text: \"Sunny\"}]}]").numbered(8).deactivating())),
    Drawn::Legacy(note(Over(Client, Server), "Server returns the processing result (weather info) in structured format", "服务器以结构化格式返回处理结果（天气信息）")),
    Drawn::Legacy(Item::Message(dashed(Row::ResultToHost, Client, Host, "Notify Tool Execution Result\nResult object contains: \"Sunny\" (extracted from tool_result_obj.content[0].text)", "通知工具执行结果\n结果对象包含：“Sunny”（提取自tool_result_obj.content[0].text）").numbered(9).deactivating())),
    Drawn::Legacy(Item::Message(solid(Row::Relist, Client, Server, "tools/list (Request, again)\n[after notifications/tools/list_changed]", "tools/list（请求，再次）\n[收到 notifications/tools/list_changed 之后]").added())),
    Drawn::Legacy(Item::Message(dashed(Row::RelistResult, Server, Client, "tools/list (Response)\n[the changed tools, for the model's next turn]", "tools/list（响应）\n[变化后的工具，供模型下一轮使用]").added())),
    Drawn::Modern(note(Over1(Server), "Logs execution (only when _meta asked for a logLevel), returns result (e.g., \"Sunny\")", "记录执行（仅当 _meta 请求了 logLevel），返回结果（例如，“晴天”）")),
    Drawn::Modern(Item::Message(dashed(Row::CallToolResult, Server, Client, "tools/call (Response)\n[resultType: complete, content: [{type: \"text\", text: \"Sunny\"}]]", "tools/call (响应)\n[resultType: complete, content: [{type: \"text\", text: \"Sunny\"}]]").numbered(8).deactivating())),
    Drawn::Modern(Item::Message(dashed(Row::ResultToHost, Client, Host, "Notify Tool Execution Result\nResult object contains: \"Sunny\"", "通知工具执行结果\n结果对象包含：“Sunny”").numbered(9).deactivating())),
    Drawn::Both(Item::Message(solid(Row::ResultToLlm, Host, Llm, "Send tool execution result back to LLM\nNew User Message: \"Tool 'get_weather' returned: 'Sunny'. Answer the original question based on this.\"", "将工具执行结果发送回LLM\n新用户消息：“工具'get_weather'返回：'Sunny'。根据此回答原始问题。”").numbered(10))),
    Drawn::Both(note(Over(Host, Llm), "Host feeds back the information obtained from the server to the LLM", "主机将从服务器获得的信息反馈给LLM")),
    Drawn::Both(Item::Message(solid(Row::LlmAnswer, Llm, Host, "Generate final response (as text)\n\"The weather in Tokyo is Sunny.\"", "生成最终响应（作为文本）\n“东京的天气是晴天。”").numbered(11))),
    Drawn::Both(Item::Message(solid(Row::ShowAnswer, Host, User, "Display the final response generated by LLM", "显示LLM生成的最终响应").numbered(12))),
    Drawn::Both(note(RightOf(Host), "Present the final answer to the user", "向用户呈现最终答案")),
];

/// As the tutorial drew it (2025-11-25).
pub(super) static LEGACY_ITEMS: [Item; 37] = drawn_in(&DRAWN, false);

/// Redrawn for 2026-07-28.
pub(super) static MODERN_ITEMS: [Item; 33] = drawn_in(&DRAWN, true);
