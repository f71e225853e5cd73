//! The tutorial's two diagrams redrawn for MCP 2026-07-28, in the tutorial's style (same participants,
//! same notes vocabulary): no `initialize`, no `notifications/initialized`, no session; an
//! optional `server/discover`; every request with `_meta` and the metadata headers; a tool may
//! ask for input by returning `input_required`, and the client retries (MRTR).
//! Rows that mean the same as a tutorial row keep its id (`d2-8` is the tools/call response in both
//! eras), so links and the record read the same across eras.

use super::original::{PARTICIPANTS, dashed, note, solid};
use super::rows::Row;
use super::spec::Actor::{Client, Host, Llm, Server, User};
use super::spec::NotePlacement::{Over, Over1, RightOf};
use super::spec::{Diagram, Item, Text};

/// Diagram 1, 2026-07-28.
static MODERN_DISCOVERY_ITEMS: [Item; 19] = [
    note(Over(User, Server), "User starts ClientApp: in 2026-07-28 there is no handshake; every request carries its own version and capabilities", "用户启动ClientApp：2026-07-28 没有握手；每个请求都自带版本和能力"),
    Item::Message(solid(Row::Prepare, Host, Client, "Instruct preparation to connect to a specific MCPServer", "指示准备连接到特定的MCPServer").activating()),
    note(RightOf(Host), "Host manages MCPClient instances per server", "主机管理每个服务器的MCPClient实例"),
    Item::Message(solid(Row::Discover, Client, Server, "server/discover (Request, optional)\n[_meta: protocolVersion, clientInfo, clientCapabilities]", "server/discover (请求，可选)\n[_meta: protocolVersion, clientInfo, clientCapabilities]").numbered(1).activating()),
    note(Over(Client, Server), "No initialize: the client may ask what the server supports (headers MCP-Protocol-Version, Mcp-Method)", "没有 initialize：客户端可以询问服务器支持什么（请求头 MCP-Protocol-Version、Mcp-Method）"),
    Item::Message(dashed(Row::DiscoverResult, Server, Client, "server/discover (Response)\n[supportedVersions, capabilities, ttlMs, cacheScope]", "server/discover (响应)\n[supportedVersions, capabilities, ttlMs, cacheScope]").numbered(2).deactivating()),
    note(Over(Client, Server), "No session id, no notifications/initialized: nothing is kept between requests", "没有会话 ID，也没有 notifications/initialized：请求之间不保留任何状态"),
    Item::Message(dashed(Row::Ready, Client, Host, "Server capabilities known (from server/discover; no handshake to await)", "已知服务器能力（来自 server/discover；无需等待握手）").deactivating()),
    note(RightOf(Host), "Host (ClientApp) now knows what the server offers", "主机（ClientApp）现在知道服务器提供什么"),
    Item::Message(solid(Row::ListToolsAsk, Host, Client, "Instruct to get the list of tools provided by the server", "指示获取服务器提供的工具列表").numbered(3)),
    Item::Message(solid(Row::ListTools, Client, Server, "tools/list (Request)\n[Mcp-Method: tools/list, _meta]", "tools/list (请求)\n[Mcp-Method: tools/list, _meta]").numbered(4).activating()),
    note(Over(Client, Server), "Every request repeats protocolVersion and clientCapabilities in _meta", "每个请求都在 _meta 中重复 protocolVersion 和 clientCapabilities"),
    Item::Message(dashed(Row::ListToolsResult, Server, Client, "tools/list (Response)\n[{\"name\": \"get_weather\", \"description\": \"...\", \"inputSchema\": {...}}], ttlMs, cacheScope", "tools/list (响应)\n[{\"name\": \"get_weather\", \"description\": \"...\", \"inputSchema\": {...}}], ttlMs, cacheScope").numbered(5).deactivating()),
    note(Over(Client, Server), "The list may be reused for ttlMs; a tool with an invalid x-mcp-header is left out", "列表可在 ttlMs 内重复使用；x-mcp-header 无效的工具会被排除"),
    Item::Message(dashed(Row::ToolsToHost, Client, Host, "Notify Tool List (containing 'get_weather', etc.)", "通知工具列表（包含'get_weather'等）").numbered(6)),
    note(RightOf(Host), "Host stores/processes the retrieved tool information (format_tools_for_llm)", "主机存储/处理检索到的工具信息 (format_tools_for_llm)"),
    Item::Message(solid(Row::ToolsToLlm, Host, Llm, "Send available tool information to LLM\n(e.g., via system prompt using formatted tools_prompt)", "将可用工具信息发送给LLM\n(例如，通过使用格式化的tools_prompt的系统提示)").numbered(7)),
    note(Over(Host, Llm), "Host informs LLM that 'get_weather' is available\nLLM can now decide to use the tool based on this info", "主机通知LLM 'get_weather' 可用\nLLM现在可以根据此信息决定是否使用该工具"),
    note(Over(User, Server), "Same tools, same LLM: only the wire changed", "同样的工具、同样的LLM：只有线上的协议变了"),
];

/// Diagram 2, 2026-07-28.
static MODERN_EXECUTION_ITEMS: [Item; 27] = [
    Item::Message(solid(Row::Question, User, Host, "\"What's the weather in Tokyo?\"", "“东京的天气怎么样？”").numbered(1)),
    note(RightOf(User), "User asks a question that might require a tool", "用户提出一个可能需要工具的问题"),
    Item::Message(solid(Row::AskLlm, Host, Llm, "Forward user's question with context\n[System Prompt (with tool info) + User Question]", "转发用户的问题和上下文\n[系统提示（带工具信息） + 用户问题]").numbered(2)),
    note(Over(Host, Llm), "Host sends the question and formatted tool info ('get_weather') to the LLM", "主机将问题和格式化的工具信息（'get_weather'）发送给LLM"),
    Item::Message(solid(Row::LlmChoice, Llm, Host, "LLM responds, requesting tool usage\nResponse: `{\"tool_name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}`", "LLM响应，请求使用工具\n响应: `{\"tool_name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}`").numbered(3)),
    note(Over(Host, Llm), "Based on provided tool info, LLM decides to use the weather tool\nand generates the required JSON structure with arguments", "基于提供的工具信息，LLM决定使用天气工具\n并生成所需的JSON结构及参数"),
    Item::Message(solid(Row::Confirm, Host, User, "(Optional) Confirm tool execution\n\"Execute 'get_weather' on Tool Server?\"", "(可选) 确认工具执行\n“在工具服务器上执行'get_weather'吗？”").numbered(4).optional()),
    Item::Message(solid(Row::Confirmed, User, Host, "(Optional) \"Yes\"", "(可选) “是的”").numbered(5).optional()),
    note(Over(Host, User), "For security/transparency, host might seek user permission", "出于安全性/透明性，主机可能会寻求用户许可"),
    Item::Message(solid(Row::CallToolAsk, Host, Client, "Instruct execution of 'get_weather' tool\nArguments: {\"location\": \"Tokyo\"}", "指示执行'get_weather'工具\n参数: {\"location\": \"Tokyo\"}").numbered(6).activating()),
    note(RightOf(Host), "Host instructs the MCP server via MCPClient", "主机通过MCPClient指示MCP服务器"),
    Item::Message(solid(Row::CallTool, Client, Server, "tools/call (Request)\n[Mcp-Method: tools/call, Mcp-Name: get_weather, _meta]\n[name: \"get_weather\", arguments: {\"location\": \"Tokyo\"}]", "tools/call (请求)\n[Mcp-Method: tools/call, Mcp-Name: get_weather, _meta]\n[name: \"get_weather\", arguments: {\"location\": \"Tokyo\"}]").numbered(7).activating()),
    note(Over(Client, Server), "Headers mirror the body so a gateway can route without parsing it; Mcp-Param-* carries x-mcp-header arguments", "请求头镜像请求体，网关无需解析即可路由；Mcp-Param-* 携带 x-mcp-header 参数"),
    Item::Message(dashed(Row::Elicit, Server, Client, "tools/call (Response): input_required\n[inputRequests: elicitation/create, requestState]", "tools/call (响应)：input_required\n[inputRequests: elicitation/create, requestState]").added()),
    Item::Message(solid(Row::ElicitAsk, Host, User, "Ask the server's question (a form from its schema)", "向用户提出服务器的问题（按其 schema 生成的表单）").added()),
    Item::Message(solid(Row::ElicitAnswer, User, Host, "Answer (accept / decline / cancel)", "回答（接受 / 拒绝 / 取消）").added()),
    Item::Message(solid(Row::ElicitReply, Client, Server, "tools/call (Retry, new id)\n[inputResponses, requestState]", "tools/call (重试，新 ID)\n[inputResponses, requestState]").added()),
    note(Over(Client, Server), "MRTR: the server asks by returning a result, the client retries; no request ever arrives on a stream", "MRTR：服务器通过返回结果来提问，客户端重试；流上不会出现服务器发来的请求"),
    Item::Message(solid(Row::Execute, Server, Server, "Internal processing (executes get_weather function)", "内部处理（执行get_weather函数）")),
    note(Over1(Server), "Logs execution (only when _meta asked for a logLevel), returns result (e.g., \"Sunny\")", "记录执行（仅当 _meta 请求了 logLevel），返回结果（例如，“晴天”）"),
    Item::Message(dashed(Row::CallToolResult, Server, Client, "tools/call (Response)\n[resultType: complete, content: [{type: \"text\", text: \"Sunny\"}]]", "tools/call (响应)\n[resultType: complete, content: [{type: \"text\", text: \"Sunny\"}]]").numbered(8).deactivating()),
    Item::Message(dashed(Row::ResultToHost, Client, Host, "Notify Tool Execution Result\nResult object contains: \"Sunny\"", "通知工具执行结果\n结果对象包含：“Sunny”").numbered(9).deactivating()),
    Item::Message(solid(Row::ResultToLlm, Host, Llm, "Send tool execution result back to LLM\nNew User Message: \"Tool 'get_weather' returned: 'Sunny'. Answer the original question based on this.\"", "将工具执行结果发送回LLM\n新用户消息：“工具'get_weather'返回：'Sunny'。根据此回答原始问题。”").numbered(10)),
    note(Over(Host, Llm), "Host feeds back the information obtained from the server to the LLM", "主机将从服务器获得的信息反馈给LLM"),
    Item::Message(solid(Row::LlmAnswer, Llm, Host, "Generate final response (as text)\n\"The weather in Tokyo is Sunny.\"", "生成最终响应（作为文本）\n“东京的天气是晴天。”").numbered(11)),
    Item::Message(solid(Row::ShowAnswer, Host, User, "Display the final response generated by LLM", "显示LLM生成的最终响应").numbered(12)),
    note(RightOf(Host), "Present the final answer to the user", "向用户呈现最终答案"),
];

static MODERN_DIAGRAMS: [Diagram; 2] = [
    Diagram {
        id: "d1",
        title: Text::new(
            "Discovery and Tool Listing (MCP 2026-07-28)",
            "发现与工具列表（MCP 2026-07-28）",
        ),
        participants: &PARTICIPANTS,
        items: &MODERN_DISCOVERY_ITEMS,
    },
    Diagram {
        id: "d2",
        title: Text::new(
            "Tool Execution Flow (MCP 2026-07-28)",
            "工具执行流程（MCP 2026-07-28）",
        ),
        participants: &PARTICIPANTS,
        items: &MODERN_EXECUTION_ITEMS,
    },
];

/// Both diagrams of the 2026-07-28 era.
pub fn modern_diagrams() -> &'static [Diagram; 2] {
    &MODERN_DIAGRAMS
}
