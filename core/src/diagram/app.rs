//! The fifth diagram, "App": a tool's app (MCP Apps, `io.modelcontextprotocol/ui`) as the host
//! renders it and talks with it. Three parties and two channels: the host reads the app from the
//! server over MCP, renders it in a sandbox on another origin, and speaks JSON-RPC with it over
//! `postMessage`; the app's own tool calls go through the host to the server. The same in both
//! eras (only the MCP requests under it differ).

use super::row_spec::row_specs;
use super::rows::Row;
use super::spec::Actor::{App, Client, Host, Server, User};
use super::spec::NotePlacement::Over;
use super::spec::{Diagram, Item, Participant, Text, dashed, note, participant, solid, under};

/// The extension's specification (its sections are linked by name in the explanations).
pub const APPS_SPEC: &str =
    "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx";

row_specs! {
    AppRead {
        carries: [App],
        both: (
            "/server/resources#reading-resources",
            "The tool the model called names an app in its `_meta.ui.resourceUri`: {detail}. The host reads it with `resources/read`, like any resource (a host that does not declare the extension never does).",
            "模型调用的工具在 `_meta.ui.resourceUri` 中指明了一个应用：{detail}。主机像读取其他资源一样用 `resources/read` 读取它（未声明该扩展的主机不会这样做）。",
        ),
    },
    AppReadResult {
        carries: [App],
        both: (
            "/server/resources#reading-resources",
            "The app: {detail}. Its MIME type must be `text/html;profile=mcp-app`; its `_meta.ui.csp` names the only domains it may reach (none: no network at all).",
            "应用：{detail}。其MIME类型必须是 `text/html;profile=mcp-app`；其 `_meta.ui.csp` 列出它唯一可以访问的域名（没有则完全不能联网）。",
        ),
    },
    AppRender {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "The host renders the app through a sandbox proxy on another origin ({detail}): the proxy says `sandbox-proxy-ready`, the host sends the HTML with its policy in `sandbox-resource-ready`, and the proxy puts it in an inner frame with an origin of its own.",
            "主机通过另一个源上的沙箱代理渲染应用（{detail}）：代理发出 `sandbox-proxy-ready`，主机在 `sandbox-resource-ready` 中发送带有策略的HTML，代理把它放进拥有独立源的内层框架。",
        ),
    },
    AppInitialize {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "The app introduces itself: `ui/initialize` with its `appInfo`, `appCapabilities` and the extension's `protocolVersion` ({detail}). The app is the client of this conversation, the host its server.",
            "应用自我介绍：`ui/initialize`，附上 `appInfo`、`appCapabilities` 和扩展的 `protocolVersion`（{detail}）。在这段对话中应用是客户端，主机是服务器。",
        ),
    },
    AppInitializeResult {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "The host answers with `hostInfo`, what it honours (`hostCapabilities`) and the `hostContext`: {detail}. The app's styles follow the page's theme through the extension's CSS variables.",
            "主机回复 `hostInfo`、它支持的功能（`hostCapabilities`）以及 `hostContext`：{detail}。应用的样式通过扩展的CSS变量跟随页面主题。",
        ),
    },
    AppInitialized {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "`ui/notifications/initialized`: the app is ready. Until now the host sent it nothing but the answer to `ui/initialize`.",
            "`ui/notifications/initialized`：应用已就绪。在此之前，主机只发送了对 `ui/initialize` 的回复。",
        ),
    },
    AppToolInput {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "`ui/notifications/tool-input`: the arguments the model called the tool with ({detail}), sent once.",
            "`ui/notifications/tool-input`：模型调用工具时使用的参数（{detail}），只发送一次。",
        ),
    },
    AppToolResult {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "`ui/notifications/tool-result`: the tool's result as the server gave it ({detail}). `structuredContent` is for the app; the model saw only `content`.",
            "`ui/notifications/tool-result`：服务器给出的工具结果（{detail}）。`structuredContent` 供应用使用；模型只看到 `content`。",
        ),
    },
    AppSize {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "`ui/notifications/size-changed`: the app measured itself; the host gives the frame {detail} ({count} time(s)), never more than its maximum.",
            "`ui/notifications/size-changed`：应用测量了自身大小；主机把框架设为 {detail}（共 {count} 次），不超过上限。",
        ),
    },
    AppCall {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "The app asks the host for the server: {detail} ({count} time(s)). The host forwards a `tools/call` only for a tool whose `_meta.ui.visibility` includes `app`, and `resources/read` of the same server.",
            "应用请主机向服务器发出请求：{detail}（共 {count} 次）。只有 `_meta.ui.visibility` 包含 `app` 的工具，主机才会转发 `tools/call`；`resources/read` 只发往同一服务器。",
        ),
    },
    AppForward {
        carries: [App],
        both: (
            "/server/tools#calling-tools",
            "The host's MCP client sends the app's request to the server: {detail}. It is a request like the model's, with the era's headers and `_meta`.",
            "主机的MCP客户端把应用的请求发给服务器：{detail}。它和模型的请求一样，带有该时代的头部和 `_meta`。",
        ),
    },
    AppForwardResult {
        carries: [App],
        both: (
            "/server/tools#tool-result",
            "The server answers: {detail}.",
            "服务器回复：{detail}。",
        ),
    },
    AppCallResult {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "The host hands the answer back to the app as the response to its request: {detail}. The model does not see it.",
            "主机把回复作为应用请求的响应交还给应用：{detail}。模型看不到它。",
        ),
    },
    AppLog {
        carries: [App],
        both: (
            "/server/utilities/logging",
            "`notifications/message` from the app: {detail} ({count} line(s)), kept in the server log beside the server's own.",
            "来自应用的 `notifications/message`：{detail}（共 {count} 行），与服务器自己的日志一起保存在服务器日志中。",
        ),
    },
    AppMessage {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "`ui/message`: the app adds a message to the conversation ({detail}); the host asks the model with it as the next question.",
            "`ui/message`：应用向对话添加一条消息（{detail}）；主机把它作为下一个问题去询问模型。",
        ),
    },
    AppModelContext {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "`ui/update-model-context`: what the app wants the model to know ({detail}); kept for the model's next turn, each update replacing the last.",
            "`ui/update-model-context`：应用希望模型知道的内容（{detail}）；保留到模型的下一轮，每次更新替换上一次。",
        ),
    },
    AppLink {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "`ui/open-link`: the app asks the host to open {detail}. Only http and https links are offered, and only the user opens them.",
            "`ui/open-link`：应用请主机打开 {detail}。只提供 http 和 https 链接，并且只能由用户打开。",
        ),
    },
    AppLinkConsent {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "The user decides: {detail}.",
            "用户决定：{detail}。",
        ),
    },
    AppContextChanged {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "`ui/notifications/host-context-changed`: the page changed ({detail}); the app merges it into its context.",
            "`ui/notifications/host-context-changed`：页面发生了变化（{detail}）；应用把它合并进自己的上下文。",
        ),
    },
    AppTeardown {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "`ui/resource-teardown`: the host is about to remove the app ({detail}) and asks first, so the app can save what it holds.",
            "`ui/resource-teardown`：主机即将移除应用（{detail}），先询问一声，让应用保存它持有的内容。",
        ),
    },
    AppTornDown {
        carries: [App],
        both: (
            "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
            "The app answers ({detail}); the host removes the frame and stops listening to it.",
            "应用回复（{detail}）；主机移除框架并停止监听它。",
        ),
    },
}

const PARTICIPANTS: [Participant; 5] = [
    participant(User, None),
    under(Host, "in the browser", "在浏览器中"),
    under(App, "in a sandboxed frame", "在沙箱框架中"),
    under(Client, "in ClientApp", "ClientApp内部"),
    under(Server, "on Local PC", "本地PC上"),
];

static APP_ITEMS: [Item; 28] = [
    note(
        Over(User, Server),
        "The tool the model called has an app (MCP Apps): the host reads it, renders it in a sandbox and talks with it",
        "模型调用的工具带有一个应用（MCP Apps）：主机读取它，在沙箱中渲染它，并与它对话",
    ),
    Item::Message(
        solid(
            Row::AppRead,
            Client,
            Server,
            "resources/read (Request)\n[uri: the tool's _meta.ui.resourceUri]",
            "resources/read (请求)\n[uri: 工具的 _meta.ui.resourceUri]",
        )
        .numbered(1),
    ),
    Item::Message(
        dashed(
            Row::AppReadResult,
            Server,
            Client,
            "resources/read (Response)\n[text/html;profile=mcp-app, _meta.ui.csp]",
            "resources/read (响应)\n[text/html;profile=mcp-app, _meta.ui.csp]",
        )
        .numbered(2),
    ),
    Item::Message(
        solid(
            Row::AppRender,
            Host,
            App,
            "sandbox proxy on another origin\nsandbox-resource-ready [html with its policy]",
            "另一个源上的沙箱代理\nsandbox-resource-ready [带策略的html]",
        )
        .numbered(3),
    ),
    note(
        Over(Host, App),
        "From here host and app speak JSON-RPC over postMessage: the app is the client, the host its server",
        "从这里开始，主机和应用通过 postMessage 使用 JSON-RPC 对话：应用是客户端，主机是服务器",
    ),
    Item::Message(
        solid(
            Row::AppInitialize,
            App,
            Host,
            "ui/initialize (Request)\n[appInfo, appCapabilities, protocolVersion]",
            "ui/initialize (请求)\n[appInfo, appCapabilities, protocolVersion]",
        )
        .numbered(4),
    ),
    Item::Message(
        dashed(
            Row::AppInitializeResult,
            Host,
            App,
            "ui/initialize (Response)\n[hostInfo, hostCapabilities, hostContext]",
            "ui/initialize (响应)\n[hostInfo, hostCapabilities, hostContext]",
        )
        .numbered(5),
    ),
    Item::Message(
        solid(
            Row::AppInitialized,
            App,
            Host,
            "ui/notifications/initialized",
            "ui/notifications/initialized",
        )
        .numbered(6),
    ),
    Item::Message(
        solid(
            Row::AppToolInput,
            Host,
            App,
            "ui/notifications/tool-input\n[arguments]",
            "ui/notifications/tool-input\n[arguments]",
        )
        .numbered(7),
    ),
    Item::Message(
        solid(
            Row::AppToolResult,
            Host,
            App,
            "ui/notifications/tool-result\n[content, structuredContent]",
            "ui/notifications/tool-result\n[content, structuredContent]",
        )
        .numbered(8),
    ),
    Item::Message(
        solid(
            Row::AppSize,
            App,
            Host,
            "ui/notifications/size-changed\n[width, height]",
            "ui/notifications/size-changed\n[width, height]",
        )
        .numbered(9),
    ),
    note(
        Over(User, App),
        "The user uses the app in its frame; what it asks of the server goes through the host",
        "用户在框架中使用应用；它对服务器的请求都经过主机",
    ),
    Item::Message(
        solid(
            Row::AppCall,
            App,
            Host,
            "tools/call or resources/read (Request)\n[the app's own request]",
            "tools/call 或 resources/read (请求)\n[应用自己的请求]",
        )
        .numbered(10),
    ),
    Item::Message(
        solid(
            Row::AppForward,
            Client,
            Server,
            "tools/call or resources/read (Request)\n[forwarded: a tool visible to the app]",
            "tools/call 或 resources/read (请求)\n[转发：对应用可见的工具]",
        )
        .numbered(11),
    ),
    Item::Message(
        dashed(
            Row::AppForwardResult,
            Server,
            Client,
            "tools/call or resources/read (Response)",
            "tools/call 或 resources/read (响应)",
        )
        .numbered(12),
    ),
    Item::Message(
        dashed(
            Row::AppCallResult,
            Host,
            App,
            "the response to the app's request",
            "对应用请求的响应",
        )
        .numbered(13),
    ),
    Item::Message(
        solid(
            Row::AppLog,
            App,
            Host,
            "notifications/message\n[level, data] (into the server log)",
            "notifications/message\n[level, data]（写入服务器日志）",
        )
        .numbered(14)
        .added(),
    ),
    Item::Message(
        solid(
            Row::AppMessage,
            App,
            Host,
            "ui/message\n[role: user, content] (the next question)",
            "ui/message\n[role: user, content]（下一个问题）",
        )
        .numbered(15)
        .added(),
    ),
    Item::Message(
        solid(
            Row::AppModelContext,
            App,
            Host,
            "ui/update-model-context\n[content] (for the next turn)",
            "ui/update-model-context\n[content]（供下一轮使用）",
        )
        .numbered(16)
        .added(),
    ),
    Item::Message(
        solid(
            Row::AppLink,
            App,
            Host,
            "ui/open-link [url]",
            "ui/open-link [url]",
        )
        .numbered(17)
        .added(),
    ),
    Item::Message(
        dashed(
            Row::AppLinkConsent,
            Host,
            User,
            "Open this link? (the user decides)",
            "打开此链接？（由用户决定）",
        )
        .numbered(18)
        .added(),
    ),
    note(
        Over(Host, App),
        "When the page's theme or language changes, the host tells the app",
        "页面的主题或语言改变时，主机告诉应用",
    ),
    Item::Message(
        solid(
            Row::AppContextChanged,
            Host,
            App,
            "ui/notifications/host-context-changed\n[theme, styles, locale]",
            "ui/notifications/host-context-changed\n[theme, styles, locale]",
        )
        .numbered(19)
        .added(),
    ),
    note(
        Over(Host, App),
        "Before the app is removed (the run ends or the user closes it) the host asks it to finish",
        "在移除应用之前（运行结束或用户关闭它），主机先请它收尾",
    ),
    Item::Message(
        solid(
            Row::AppTeardown,
            Host,
            App,
            "ui/resource-teardown (Request)\n[reason]",
            "ui/resource-teardown (请求)\n[reason]",
        )
        .numbered(20)
        .added(),
    ),
    Item::Message(
        dashed(
            Row::AppTornDown,
            App,
            Host,
            "ui/resource-teardown (Response)",
            "ui/resource-teardown (响应)",
        )
        .numbered(21)
        .added(),
    ),
    note(
        Over(User, Server),
        "The app's requests to the server are MCP requests of this run's era: in 2026-07-28 each carries _meta and the Mcp-* headers, in 2025-11-25 the session id",
        "应用对服务器的请求是本次运行所用时代的MCP请求：在 2026-07-28 中每个都携带 _meta 和 Mcp-* 头，在 2025-11-25 中携带会话 ID",
    ),
    note(
        Over(Host, App),
        "Nothing the app sends runs unchecked: malformed messages, floods, tools not marked for apps and non-web links are refused",
        "应用发送的任何内容都要经过检查：格式错误的消息、消息洪泛、未标记给应用的工具以及非网页链接都会被拒绝",
    ),
];

static APP: Diagram = Diagram {
    id: "dp",
    title: Text::new("App", "应用"),
    participants: &PARTICIPANTS,
    items: &APP_ITEMS,
};

/// The diagram "App" (id `"dp"`), the same in both eras.
pub fn app() -> &'static Diagram {
    &APP
}
