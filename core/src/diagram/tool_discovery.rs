//! Diagram 1, "Initialization and Tool Discovery", in both eras: each row's payload and explanation, written once
//! ([`row_specs!`]), then the tutorial's drawing for 2025-11-25 (labels from tutorial documents
//! `002_…` and `003_…` verbatim) and the same redrawn for 2026-07-28. Adding a row: its id in
//! [`super::rows`], then here its spec and its arrow in each era's drawing.

use super::row_spec::row_specs;
use super::rows::Row;
use super::spec::Actor::{Client, Host, Llm, Server, User};
use super::spec::NotePlacement::{Over, RightOf};
use super::spec::{Drawn, Item, dashed, drawn_in, note, solid};

row_specs! {
    Prepare {
        carries: [Server],
        both: (
            "/architecture",
            "The host creates one MCP client per server. This one will talk to {server}.",
            "主机为每个服务器创建一个 MCP 客户端。这个客户端将连接 {server}。",
        ),
    },
    Discover {
        carries: [Requested],
        legacy: (
            "/basic/transports#backward-compatibility",
            "In auto, the client first sends a 2026-07-28 request ({requested}), as the revision's backward-compatibility rule says: a modern server answers it; a legacy one does not.",
            "在自动模式下，客户端先按新版（{requested}）的向后兼容规则发送一个 2026-07-28 请求：新版服务器会回答它，旧版服务器则不会。",
        ),
        modern: (
            "/basic/versioning",
            "The client asks `server/discover` what the server supports. There is no handshake in 2026-07-28: this request, like every other, carries protocolVersion {requested}, clientInfo and clientCapabilities in `params._meta`, and mirrors its method in the headers MCP-Protocol-Version and Mcp-Method.",
            "客户端用 `server/discover` 询问服务器支持什么。2026-07-28 没有握手：这个请求和其他请求一样，在 `params._meta` 中携带 protocolVersion {requested}、clientInfo 和 clientCapabilities，并在请求头 MCP-Protocol-Version 和 Mcp-Method 中镜像方法名。",
        ),
    },
    DiscoverResult {
        carries: [Discovered, Fallback],
        legacy: (
            "/basic/transports#backward-compatibility",
            "Not a modern answer: {why}.",
            "不是新版的应答：{why}。",
        ),
        modern: (
            "/basic/versioning",
            "The server speaks {versions} and names itself {server}. Capabilities: {capabilities}. The answer stays fresh for {ttlMs} ms ({cacheScope}). No session id comes back: each request stands alone.",
            "服务器支持 {versions}，自称 {server}。能力：{capabilities}。这个应答在 {ttlMs} 毫秒内有效（{cacheScope}）。没有返回会话 ID：每个请求都是独立的。",
        ),
    },
    Initialize {
        carries: [Requested],
        both: (
            "/basic/lifecycle#initialization",
            "The client POSTs `initialize` asking for protocol version {requested}, with its capabilities and name. Look at the Accept header: a Streamable HTTP client must accept both JSON and SSE.",
            "客户端以 POST 发送 `initialize`，请求协议版本 {requested}，并附上自身能力和名称。注意 Accept 头：Streamable HTTP 客户端必须同时接受 JSON 和 SSE。",
        ),
    },
    InitializeResult {
        carries: [Handshake],
        both: (
            "/basic/lifecycle#version-negotiation",
            "The server answers with the version it chose ({version}), its capabilities and its name ({server}). Session id: {session}. The client checks that it can speak {version}.",
            "服务器返回它选择的版本（{version}）、能力和名称（{server}）。会话 ID：{session}。客户端确认自己支持 {version}。",
        ),
    },
    Initialized {
        carries: [],
        both: (
            "/basic/lifecycle#initialization",
            "`notifications/initialized` ends the handshake. It is a notification (no id), so the server answers HTTP 202 with no body.",
            "`notifications/initialized` 结束握手。它是通知（没有 id），所以服务器以 HTTP 202 应答，没有正文。",
        ),
    },
    Ready {
        carries: [Logging],
        both: (
            "/server/utilities/logging",
            "The awaited initialize has returned: the host now knows the server is ready. Its GET stream opens for what the server sends outside requests. Logging: {logging} (the client asks for log lines so the tool call below can show the server at work).",
            "initialize 已返回：主机现在知道服务器就绪。其 GET 流打开，接收请求之外的消息。日志：{logging}（客户端请求日志，以便下面的工具调用能显示服务器的工作）。",
        ),
        modern: (
            "/basic/index",
            "Nothing to await: no initialize, no notifications/initialized, no session. Logging: {logging} (in 2026-07-28 the log level rides on each request's `_meta`; without it the server must not send log lines).",
            "无需等待：没有 initialize、没有 notifications/initialized、没有会话。日志：{logging}（在 2026-07-28 中，日志级别随每个请求的 `_meta` 发送；没有它服务器就不能发送日志）。",
        ),
    },
    ListToolsAsk {
        carries: [],
        both: (
            "/server/tools#listing-tools",
            "The host asks its client for the server's tools (session.list_tools()). Nothing goes over the wire yet.",
            "主机让客户端获取服务器的工具（session.list_tools()）。此时还没有网络通信。",
        ),
    },
    ListTools {
        carries: [],
        both: (
            "/server/tools#listing-tools",
            "`tools/list` goes out with the session id and the negotiated `MCP-Protocol-Version` header.",
            "`tools/list` 发出，带有会话 ID 和协商好的 `MCP-Protocol-Version` 头。",
        ),
        modern: (
            "/basic/transports/streamable-http",
            "`tools/list` goes out with `_meta` and the headers MCP-Protocol-Version and Mcp-Method: tools/list; there is no session id to send.",
            "`tools/list` 发出，带有 `_meta` 以及请求头 MCP-Protocol-Version 和 Mcp-Method: tools/list；没有会话 ID 可发。",
        ),
    },
    ListToolsResult {
        carries: [Tools],
        both: (
            "/server/tools#listing-tools",
            "The server lists {count} tool(s): {tools}. Each has a name, a description and a JSON Schema for its input; a `nextCursor` would mean more pages.",
            "服务器列出 {count} 个工具：{tools}。每个工具有名称、描述和输入的 JSON Schema；若有 `nextCursor` 则还有更多页。",
        ),
        modern: (
            "/server/tools",
            "The server lists {count} tool(s): {tools}. The list stays fresh for {ttlMs} ms, so a later run on this page may reuse it. Tools whose x-mcp-header annotations break the spec's rules are left out: {dropped}.",
            "服务器列出 {count} 个工具：{tools}。列表在 {ttlMs} 毫秒内有效，本页面之后的运行可以复用它。x-mcp-header 注解违反规范的工具被排除：{dropped}。",
        ),
    },
    ToolsToHost {
        carries: [Tools],
        both: (
            "/server/tools",
            "The client hands the tool list to the host: {tools}.",
            "客户端把工具列表交给主机：{tools}。",
        ),
    },
    ToolsToLlm {
        carries: [ToolsForLlm],
        both: (
            "/server/tools#tool",
            "The host formats the tools for the model ({llm}). The payload below is exactly what the model receives.",
            "主机为模型（{llm}）格式化工具。下面的内容就是模型收到的原样数据。",
        ),
    },
}

/// Both eras' drawings side by side, in order: what both draw alike, what each draws its own
/// way (2025-11-25 first), and what only one draws.
static DRAWN: [Drawn; 35] = [
    Drawn::Eras(
        note(Over(User, Server), "User starts ClientApp, initiating connection to MCPServer", "用户启动ClientApp，开始连接到MCPServer"),
        note(Over(User, Server), "User starts ClientApp: in 2026-07-28 there is no handshake; every request carries its own version and capabilities", "用户启动ClientApp：2026-07-28 没有握手；每个请求都自带版本和能力"),
    ),
    Drawn::Both(Item::Message(solid(Row::Prepare, Host, Client, "Instruct preparation to connect to a specific MCPServer", "指示准备连接到特定的MCPServer").activating())),
    Drawn::Both(note(RightOf(Host), "Host manages MCPClient instances per server", "主机管理每个服务器的MCPClient实例")),
    Drawn::Legacy(Item::Message(solid(Row::Discover, Client, Server, "(auto) server/discover: is this a 2026-07-28 server?", "(自动) server/discover：这是 2026-07-28 服务器吗？").added())),
    Drawn::Legacy(Item::Message(dashed(Row::DiscoverResult, Server, Client, "(auto) Not a modern answer: fall back to initialize", "(自动) 不是新版的应答：回退到 initialize").added())),
    Drawn::Legacy(Item::Message(solid(Row::Initialize, Client, Server, "initialize (Request)\n[protocol_version, client_capabilities]", "initialize (请求)\n[protocol_version, client_capabilities]").numbered(1).activating())),
    Drawn::Legacy(note(Over(Client, Server), "Start connection establishment and capability exchange (JSON-RPC)", "开始建立连接并交换能力（JSON-RPC）")),
    Drawn::Legacy(Item::Message(dashed(Row::InitializeResult, Server, Client, "initialize (Response)\n[selected_protocol_version, server_capabilities (tools, resources, etc.)]", "initialize (响应)\n[selected_protocol_version, server_capabilities (tools, resources, etc.)]").numbered(2).deactivating())),
    Drawn::Legacy(note(Over(Client, Server), "Server notifies its available capabilities", "服务器通知其可用的能力")),
    Drawn::Legacy(Item::Message(solid(Row::Initialized, Client, Server, "notifications/initialized (Initialization Complete Notification)", "notifications/initialized (初始化完成通知)").numbered(3))),
    Drawn::Legacy(note(Over(Client, Server), "Handshake complete, normal communication possible", "握手完成，正常通信可行")),
    Drawn::Legacy(Item::Message(dashed(Row::Ready, Client, Host, "Initialization Success & Server Capabilities notified (implicitly via successful initialize await)", "初始化成功 & 服务器能力通知（通过成功的初始化等待隐式通知）").deactivating())),
    Drawn::Legacy(note(RightOf(Host), "Host (ClientApp) now knows the server is ready", "主机（ClientApp）现在知道服务器已准备好")),
    Drawn::Legacy(Item::Message(solid(Row::ListToolsAsk, Host, Client, "Instruct to get the list of tools provided by the server (session.list_tools())", "指示获取服务器提供的工具列表 (session.list_tools())").numbered(4))),
    Drawn::Legacy(Item::Message(solid(Row::ListTools, Client, Server, "tools/list (Request)", "tools/list (请求)").numbered(5).activating())),
    Drawn::Legacy(note(Over(Client, Server), "Request the list of tools defined on the server", "请求服务器上定义的工具列表")),
    Drawn::Legacy(Item::Message(dashed(Row::ListToolsResult, Server, Client, "tools/list (Response)\n[{\"name\": \"get_weather\", \"description\": \"...\", \"inputSchema\": {...}}]", "tools/list (响应)\n[{\"name\": \"get_weather\", \"description\": \"...\", \"inputSchema\": {...}}]").numbered(6).deactivating())),
    Drawn::Legacy(note(Over(Client, Server), "Example: Returns the definition of the 'get_weather' tool", "示例：返回'get_weather'工具的定义")),
    Drawn::Legacy(Item::Message(dashed(Row::ToolsToHost, Client, Host, "Notify Tool List (containing 'get_weather', etc.) via tools_response object", "通知工具列表（包含'get_weather'等）通过tools_response对象").numbered(7))),
    Drawn::Modern(Item::Message(solid(Row::Discover, Client, Server, "server/discover (Request, optional)\n[_meta: protocolVersion, clientInfo, clientCapabilities]", "server/discover (请求，可选)\n[_meta: protocolVersion, clientInfo, clientCapabilities]").numbered(1).activating())),
    Drawn::Modern(note(Over(Client, Server), "No initialize: the client may ask what the server supports (headers MCP-Protocol-Version, Mcp-Method)", "没有 initialize：客户端可以询问服务器支持什么（请求头 MCP-Protocol-Version、Mcp-Method）")),
    Drawn::Modern(Item::Message(dashed(Row::DiscoverResult, Server, Client, "server/discover (Response)\n[supportedVersions, capabilities, ttlMs, cacheScope]", "server/discover (响应)\n[supportedVersions, capabilities, ttlMs, cacheScope]").numbered(2).deactivating())),
    Drawn::Modern(note(Over(Client, Server), "No session id, no notifications/initialized: nothing is kept between requests", "没有会话 ID，也没有 notifications/initialized：请求之间不保留任何状态")),
    Drawn::Modern(Item::Message(dashed(Row::Ready, Client, Host, "Server capabilities known (from server/discover; no handshake to await)", "已知服务器能力（来自 server/discover；无需等待握手）").deactivating())),
    Drawn::Modern(note(RightOf(Host), "Host (ClientApp) now knows what the server offers", "主机（ClientApp）现在知道服务器提供什么")),
    Drawn::Modern(Item::Message(solid(Row::ListToolsAsk, Host, Client, "Instruct to get the list of tools provided by the server", "指示获取服务器提供的工具列表").numbered(3))),
    Drawn::Modern(Item::Message(solid(Row::ListTools, Client, Server, "tools/list (Request)\n[Mcp-Method: tools/list, _meta]", "tools/list (请求)\n[Mcp-Method: tools/list, _meta]").numbered(4).activating())),
    Drawn::Modern(note(Over(Client, Server), "Every request repeats protocolVersion and clientCapabilities in _meta", "每个请求都在 _meta 中重复 protocolVersion 和 clientCapabilities")),
    Drawn::Modern(Item::Message(dashed(Row::ListToolsResult, Server, Client, "tools/list (Response)\n[{\"name\": \"get_weather\", \"description\": \"...\", \"inputSchema\": {...}}], ttlMs, cacheScope", "tools/list (响应)\n[{\"name\": \"get_weather\", \"description\": \"...\", \"inputSchema\": {...}}], ttlMs, cacheScope").numbered(5).deactivating())),
    Drawn::Modern(note(Over(Client, Server), "The list may be reused for ttlMs; a tool with an invalid x-mcp-header is left out", "列表可在 ttlMs 内重复使用；x-mcp-header 无效的工具会被排除")),
    Drawn::Modern(Item::Message(dashed(Row::ToolsToHost, Client, Host, "Notify Tool List (containing 'get_weather', etc.)", "通知工具列表（包含'get_weather'等）").numbered(6))),
    Drawn::Both(note(RightOf(Host), "Host stores/processes the retrieved tool information (format_tools_for_llm)", "主机存储/处理检索到的工具信息 (format_tools_for_llm)")),
    Drawn::Eras(
        Item::Message(solid(Row::ToolsToLlm, Host, Llm, "Send available tool information to LLM\n(e.g., via system prompt using formatted tools_prompt)", "将可用工具信息发送给LLM\n(例如，通过使用格式化的tools_prompt的系统提示)").numbered(8)),
        Item::Message(solid(Row::ToolsToLlm, Host, Llm, "Send available tool information to LLM\n(e.g., via system prompt using formatted tools_prompt)", "将可用工具信息发送给LLM\n(例如，通过使用格式化的tools_prompt的系统提示)").numbered(7)),
    ),
    Drawn::Both(note(Over(Host, Llm), "Host informs LLM that 'get_weather' is available\nLLM can now decide to use the tool based on this info", "主机通知LLM 'get_weather' 可用\nLLM现在可以根据此信息决定是否使用该工具")),
    Drawn::Modern(note(Over(User, Server), "Same tools, same LLM: only the wire changed", "同样的工具、同样的LLM：只有线上的协议变了")),
];

/// As the tutorial drew it (2025-11-25).
pub(super) static LEGACY_ITEMS: [Item; 22] = drawn_in(&DRAWN, false);

/// Redrawn for 2026-07-28.
pub(super) static MODERN_ITEMS: [Item; 19] = drawn_in(&DRAWN, true);
