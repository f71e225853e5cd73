//! The two sequence diagrams of the tutorial documents, as data.
//!
//! English labels are tutorial document `002_…` verbatim, Chinese ones tutorial document `003_…` verbatim (tutorial document `000_…` has the
//! same diagrams), with `<br>` turned into `'\n'` and the leading "N. " moved into
//! [`Message::number`]. Participant names stay English in both languages, as in the Chinese tutorial.

use super::rows::Row;
use super::spec::Actor::{Client, Host, Llm, Server, User};
use super::spec::NotePlacement::{Over, Over1, RightOf};
use super::spec::{
    Actor, ArrowKind, Diagram, Item, Message, Note, NotePlacement, Participant, Text,
};

pub(super) const fn solid(
    id: Row,
    from: Actor,
    to: Actor,
    en: &'static str,
    zh: &'static str,
) -> Message {
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

pub(super) const fn dashed(
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

pub(super) const fn note(placement: NotePlacement, en: &'static str, zh: &'static str) -> Item {
    Item::Note(Note {
        placement,
        text: Text::new(en, zh),
    })
}

impl Message {
    pub(super) const fn numbered(mut self, number: u8) -> Message {
        self.number = Some(number);
        self
    }

    /// Mermaid `A->>+B`.
    pub(super) const fn activating(mut self) -> Message {
        self.activate = true;
        self
    }

    /// Mermaid `B-->>-A`.
    pub(super) const fn deactivating(mut self) -> Message {
        self.deactivate = true;
        self
    }

    pub(super) const fn optional(mut self) -> Message {
        self.optional = true;
        self
    }

    /// A row the tutorial does not have, shown only when it happens (drawn as optional).
    pub(super) const fn added(mut self) -> Message {
        self.optional = true;
        self.added = true;
        self
    }
}

pub(super) const PARTICIPANTS: [Participant; 5] = [
    Participant {
        actor: User,
        name: "User",
        subtitle: None,
    },
    Participant {
        actor: Host,
        name: "ClientApp (Host)",
        subtitle: Some(Text::new("on Local PC", "本地PC上")),
    },
    Participant {
        actor: Llm,
        name: "LLM (e.g., Claude)",
        subtitle: Some(Text::new("Remote Service", "远程服务")),
    },
    Participant {
        actor: Client,
        name: "MCPClient (Internal Component)",
        subtitle: Some(Text::new(
            "in ClientApp on Local PC",
            "ClientApp内部，本地PC上",
        )),
    },
    Participant {
        actor: Server,
        name: "MCPServer (e.g., Tool Server)",
        subtitle: Some(Text::new("on Local PC", "本地PC上")),
    },
];

/// Diagram 1 of the tutorial.
static DISCOVERY_ITEMS: [Item; 22] = [
    note(Over(User, Server), "User starts ClientApp, initiating connection to MCPServer", "用户启动ClientApp，开始连接到MCPServer"),
    Item::Message(solid(Row::Prepare, Host, Client, "Instruct preparation to connect to a specific MCPServer", "指示准备连接到特定的MCPServer").activating()),
    note(RightOf(Host), "Host manages MCPClient instances per server", "主机管理每个服务器的MCPClient实例"),
    Item::Message(solid(Row::Discover, Client, Server, "(auto) server/discover: is this a 2026-07-28 server?", "(自动) server/discover：这是 2026-07-28 服务器吗？").added()),
    Item::Message(dashed(Row::DiscoverResult, Server, Client, "(auto) Not a modern answer: fall back to initialize", "(自动) 不是新版的应答：回退到 initialize").added()),
    Item::Message(solid(Row::Initialize, Client, Server, "initialize (Request)\n[protocol_version, client_capabilities]", "initialize (请求)\n[protocol_version, client_capabilities]").numbered(1).activating()),
    note(Over(Client, Server), "Start connection establishment and capability exchange (JSON-RPC)", "开始建立连接并交换能力（JSON-RPC）"),
    Item::Message(dashed(Row::InitializeResult, Server, Client, "initialize (Response)\n[selected_protocol_version, server_capabilities (tools, resources, etc.)]", "initialize (响应)\n[selected_protocol_version, server_capabilities (tools, resources, etc.)]").numbered(2).deactivating()),
    note(Over(Client, Server), "Server notifies its available capabilities", "服务器通知其可用的能力"),
    Item::Message(solid(Row::Initialized, Client, Server, "notifications/initialized (Initialization Complete Notification)", "notifications/initialized (初始化完成通知)").numbered(3)),
    note(Over(Client, Server), "Handshake complete, normal communication possible", "握手完成，正常通信可行"),
    Item::Message(dashed(Row::Ready, Client, Host, "Initialization Success & Server Capabilities notified (implicitly via successful initialize await)", "初始化成功 & 服务器能力通知（通过成功的初始化等待隐式通知）").deactivating()),
    note(RightOf(Host), "Host (ClientApp) now knows the server is ready", "主机（ClientApp）现在知道服务器已准备好"),
    Item::Message(solid(Row::ListToolsAsk, Host, Client, "Instruct to get the list of tools provided by the server (session.list_tools())", "指示获取服务器提供的工具列表 (session.list_tools())").numbered(4)),
    Item::Message(solid(Row::ListTools, Client, Server, "tools/list (Request)", "tools/list (请求)").numbered(5).activating()),
    note(Over(Client, Server), "Request the list of tools defined on the server", "请求服务器上定义的工具列表"),
    Item::Message(dashed(Row::ListToolsResult, Server, Client, "tools/list (Response)\n[{\"name\": \"get_weather\", \"description\": \"...\", \"inputSchema\": {...}}]", "tools/list (响应)\n[{\"name\": \"get_weather\", \"description\": \"...\", \"inputSchema\": {...}}]").numbered(6).deactivating()),
    note(Over(Client, Server), "Example: Returns the definition of the 'get_weather' tool", "示例：返回'get_weather'工具的定义"),
    Item::Message(dashed(Row::ToolsToHost, Client, Host, "Notify Tool List (containing 'get_weather', etc.) via tools_response object", "通知工具列表（包含'get_weather'等）通过tools_response对象").numbered(7)),
    note(RightOf(Host), "Host stores/processes the retrieved tool information (format_tools_for_llm)", "主机存储/处理检索到的工具信息 (format_tools_for_llm)"),
    Item::Message(solid(Row::ToolsToLlm, Host, Llm, "Send available tool information to LLM\n(e.g., via system prompt using formatted tools_prompt)", "将可用工具信息发送给LLM\n(例如，通过使用格式化的tools_prompt的系统提示)").numbered(8)),
    note(Over(Host, Llm), "Host informs LLM that 'get_weather' is available\nLLM can now decide to use the tool based on this info", "主机通知LLM 'get_weather' 可用\nLLM现在可以根据此信息决定是否使用该工具"),
];

/// Diagram 2 of the tutorial.
static EXECUTION_ITEMS: [Item; 27] = [
    Item::Message(solid(Row::Question, User, Host, "\"What's the weather in Tokyo?\"", "“东京的天气怎么样？”").numbered(1)),
    note(RightOf(User), "User asks a question that might require a tool", "用户提出一个可能需要工具的问题"),
    Item::Message(solid(Row::AskLlm, Host, Llm, "Forward user's question with context\n[System Prompt (with tool info) + User Question]", "转发用户的问题和上下文\n[系统提示（带工具信息） + 用户问题]").numbered(2)),
    note(Over(Host, Llm), "Host sends the question and formatted tool info ('get_weather') to the LLM", "主机将问题和格式化的工具信息（'get_weather'）发送给LLM"),
    Item::Message(solid(Row::LlmChoice, Llm, Host, "LLM responds, requesting tool usage\nResponse: `{\"tool_name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}`", "LLM响应，请求使用工具\n响应: `{\"tool_name\": \"get_weather\", \"arguments\": {\"location\": \"Tokyo\"}}`").numbered(3)),
    note(Over(Host, Llm), "Based on provided tool info, LLM decides to use the weather tool\nand generates the required JSON structure with arguments", "基于提供的工具信息，LLM决定使用天气工具\n并生成所需的JSON结构及参数"),
    Item::Message(solid(Row::Confirm, Host, User, "(Optional) Confirm tool execution\n\"Execute 'get_weather' on Tool Server?\"", "(可选) 确认工具执行\n“在工具服务器上执行'get_weather'吗？”").numbered(4).optional()),
    Item::Message(solid(Row::Confirmed, User, Host, "(Optional) \"Yes\"", "(可选) “是的”").numbered(5).optional()),
    note(Over(Host, User), "For security/transparency, host might seek user permission (Not implemented in the sample code)", "出于安全性/透明性，主机可能会寻求用户许可（在示例代码中未实现）"),
    Item::Message(solid(Row::CallToolAsk, Host, Client, "Instruct execution of 'get_weather' tool (session.call_tool())\nArguments: {\"location\": \"Tokyo\"}", "指示执行'get_weather'工具 (session.call_tool())\n参数: {\"location\": \"Tokyo\"}").numbered(6).activating()),
    note(RightOf(Host), "Host instructs the MCP server via MCPClient", "主机通过MCPClient指示MCP服务器"),
    Item::Message(solid(Row::CallTool, Client, Server, "tools/call (Request)\n[name: \"get_weather\", arguments: {\"location\": \"Tokyo\"}]", "tools/call (请求)\n[name: \"get_weather\", arguments: {\"location\": \"Tokyo\"}]").numbered(7).activating()),
    note(Over(Client, Server), "Invoke server function with specified tool name and arguments (JSON-RPC)", "使用指定的工具名称和参数调用服务器函数（JSON-RPC）"),
    Item::Message(dashed(Row::Elicit, Server, Client, "elicitation/create (Request on the tools/call SSE stream)", "elicitation/create（在 tools/call 的 SSE 流上的请求）").added()),
    Item::Message(solid(Row::ElicitAsk, Host, User, "Ask the server's question (a form from its schema)", "向用户提出服务器的问题（按其 schema 生成的表单）").added()),
    Item::Message(solid(Row::ElicitAnswer, User, Host, "Answer (accept / decline / cancel)", "回答（接受 / 拒绝 / 取消）").added()),
    Item::Message(solid(Row::ElicitReply, Client, Server, "POST: the response to elicitation/create", "POST：对 elicitation/create 的响应").added()),
    Item::Message(solid(Row::Execute, Server, Server, "Internal processing (executes get_weather function)", "内部处理（执行get_weather函数）")),
    note(Over1(Server), "Logs execution, returns result (e.g., \"Sunny\")", "记录执行，返回结果（例如，“晴天”）"),
    Item::Message(dashed(Row::CallToolResult, Server, Client, "tools/call (Response)\n[result: {content: [{type: \"text\", text: \"Sunny\"}]}]", "tools/call (响应)\n[result: {content: [{type: \"text\", text: \"Sunny\"}]}]").numbered(8).deactivating()),
    note(Over(Client, Server), "Server returns the processing result (weather info) in structured format", "服务器以结构化格式返回处理结果（天气信息）"),
    Item::Message(dashed(Row::ResultToHost, Client, Host, "Notify Tool Execution Result\nResult object contains: \"Sunny\" (extracted from tool_result_obj.content[0].text)", "通知工具执行结果\n结果对象包含：“Sunny”（提取自tool_result_obj.content[0].text）").numbered(9).deactivating()),
    Item::Message(solid(Row::ResultToLlm, Host, Llm, "Send tool execution result back to LLM\nNew User Message: \"Tool 'get_weather' returned: 'Sunny'. Answer the original question based on this.\"", "将工具执行结果发送回LLM\n新用户消息：“工具'get_weather'返回：'Sunny'。根据此回答原始问题。”").numbered(10)),
    note(Over(Host, Llm), "Host feeds back the information obtained from the server to the LLM", "主机将从服务器获得的信息反馈给LLM"),
    Item::Message(solid(Row::LlmAnswer, Llm, Host, "Generate final response (as text)\n\"The weather in Tokyo is Sunny.\"", "生成最终响应（作为文本）\n“东京的天气是晴天。”").numbered(11)),
    Item::Message(solid(Row::ShowAnswer, Host, User, "Display the final response generated by LLM", "显示LLM生成的最终响应").numbered(12)),
    note(RightOf(Host), "Present the final answer to the user", "向用户呈现最终答案"),
];

static DIAGRAMS: [Diagram; 2] = [
    Diagram {
        id: "d1",
        title: Text::new("Initialization and Tool Discovery", "初始化和工具发现"),
        participants: &PARTICIPANTS,
        items: &DISCOVERY_ITEMS,
    },
    Diagram {
        id: "d2",
        title: Text::new("Tool Execution Flow", "工具执行流程"),
        participants: &PARTICIPANTS,
        items: &EXECUTION_ITEMS,
    },
];

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
