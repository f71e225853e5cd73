//! The fourth diagram, "Resources, prompts, completion and tasks": what a server offers besides tools,
//! read the way a host reads it (a list, then an item from it), in both eras. Drawn in the
//! tutorial's style with four participants: no model, since none of these steps asks one.
//!
//! Labels say what goes over the wire; the run's real values (URIs, names, counts) are filled in
//! by the live labels.

use super::original::{dashed, note, solid};
use super::rows::Row;
use super::spec::Actor::{Client, Host, Server, User};
use super::spec::NotePlacement::{Over, RightOf};
use super::spec::{Diagram, Item, Participant, Text};

const PARTICIPANTS: [Participant; 4] = [
    Participant {
        actor: User,
        name: "User",
        subtitle: None,
    },
    Participant {
        actor: Host,
        name: "ClientApp (Host)",
        subtitle: Some(Text::new("in the browser", "在浏览器中")),
    },
    Participant {
        actor: Client,
        name: "MCPClient (Internal Component)",
        subtitle: Some(Text::new("in ClientApp", "ClientApp内部")),
    },
    Participant {
        actor: Server,
        name: "MCPServer (e.g., Tool Server)",
        subtitle: Some(Text::new("on Local PC", "本地PC上")),
    },
];

static BROWSE_ITEMS: [Item; 37] = [
    note(
        Over(User, Server),
        "Tools are for the model; resources are for the application (the host decides what to read), prompts for the user (picked like a command)",
        "工具供模型使用；资源由应用程序控制（由主机决定读取什么），提示由用户控制（像命令一样挑选）",
    ),
    Item::Message(
        solid(
            Row::Browse,
            User,
            Host,
            "Show what the server offers besides tools",
            "显示服务器在工具之外提供的内容",
        )
        .numbered(1)
        .activating(),
    ),
    note(
        RightOf(Host),
        "Only what the server declared: resources, prompts and completions in its capabilities",
        "只请求服务器声明过的：其能力中的 resources、prompts 和 completions",
    ),
    Item::Message(
        solid(
            Row::ListResources,
            Client,
            Server,
            "resources/list (Request)",
            "resources/list (请求)",
        )
        .numbered(2)
        .activating(),
    ),
    Item::Message(
        dashed(
            Row::ListResourcesResult,
            Server,
            Client,
            "resources/list (Response)\n[{uri, name, mimeType}], ttlMs, cacheScope",
            "resources/list (响应)\n[{uri, name, mimeType}], ttlMs, cacheScope",
        )
        .numbered(3)
        .deactivating(),
    ),
    note(
        Over(Client, Server),
        "2026-07-28: ttlMs says how long the list stays fresh, cacheScope who may keep it (2025-11-25 has neither)",
        "2026-07-28：ttlMs 表示列表的有效期，cacheScope 表示谁可以缓存它（2025-11-25 没有这两项）",
    ),
    Item::Message(
        solid(
            Row::ReadResource,
            Client,
            Server,
            "resources/read (Request)\n[uri]",
            "resources/read (请求)\n[uri]",
        )
        .numbered(4)
        .activating(),
    ),
    Item::Message(
        dashed(
            Row::ReadResourceResult,
            Server,
            Client,
            "resources/read (Response)\n[contents: text or blob (base64)]",
            "resources/read (响应)\n[contents: text 或 blob (base64)]",
        )
        .numbered(5)
        .deactivating(),
    ),
    Item::Message(
        solid(
            Row::ListTemplates,
            Client,
            Server,
            "resources/templates/list (Request)",
            "resources/templates/list (请求)",
        )
        .numbered(6)
        .activating(),
    ),
    Item::Message(
        dashed(
            Row::ListTemplatesResult,
            Server,
            Client,
            "resources/templates/list (Response)\n[{uriTemplate, name}]",
            "resources/templates/list (响应)\n[{uriTemplate, name}]",
        )
        .numbered(7)
        .deactivating(),
    ),
    note(
        Over(Client, Server),
        "A URI template (RFC 6570) has variables a user fills in; completion suggests values as they type",
        "URI模板（RFC 6570）含有由用户填写的变量；用户输入时，补全会给出候选值",
    ),
    Item::Message(
        solid(
            Row::Complete,
            Client,
            Server,
            "completion/complete (Request)\n[ref: ref/resource {uri}, argument: {name, value}]",
            "completion/complete (请求)\n[ref: ref/resource {uri}, argument: {name, value}]",
        )
        .numbered(8)
        .activating(),
    ),
    Item::Message(
        dashed(
            Row::CompleteResult,
            Server,
            Client,
            "completion/complete (Response)\n[completion: {values, total, hasMore}]",
            "completion/complete (响应)\n[completion: {values, total, hasMore}]",
        )
        .numbered(9)
        .deactivating(),
    ),
    Item::Message(
        solid(
            Row::ReadTemplate,
            Client,
            Server,
            "resources/read (Request)\n[uri: the template filled in]",
            "resources/read (请求)\n[uri: 填好的模板]",
        )
        .numbered(10)
        .activating(),
    ),
    Item::Message(
        dashed(
            Row::ReadTemplateResult,
            Server,
            Client,
            "resources/read (Response)\n[contents]",
            "resources/read (响应)\n[contents]",
        )
        .numbered(11)
        .deactivating(),
    ),
    note(
        Over(Client, Server),
        "A URI nobody has: 2026-07-28 answers -32602 with data.uri, 2025-11-25 -32002",
        "不存在的URI：2026-07-28 以 -32602（带 data.uri）应答，2025-11-25 以 -32002 应答",
    ),
    Item::Message(
        solid(
            Row::ListPrompts,
            Client,
            Server,
            "prompts/list (Request)",
            "prompts/list (请求)",
        )
        .numbered(12)
        .activating(),
    ),
    Item::Message(
        dashed(
            Row::ListPromptsResult,
            Server,
            Client,
            "prompts/list (Response)\n[{name, description, arguments}]",
            "prompts/list (响应)\n[{name, description, arguments}]",
        )
        .numbered(13)
        .deactivating(),
    ),
    Item::Message(
        solid(
            Row::GetPrompt,
            Client,
            Server,
            "prompts/get (Request)\n[name, arguments]",
            "prompts/get (请求)\n[name, arguments]",
        )
        .numbered(14)
        .activating(),
    ),
    Item::Message(
        dashed(
            Row::GetPromptResult,
            Server,
            Client,
            "prompts/get (Response)\n[messages: [{role, content}]]",
            "prompts/get (响应)\n[messages: [{role, content}]]",
        )
        .numbered(15)
        .deactivating(),
    ),
    note(
        Over(Host, Client),
        "The prompt's messages are what a user's pick puts into the conversation; here the host shows them",
        "提示的消息就是用户挑选后放入对话的内容；这里由主机展示它们",
    ),
    Item::Message(solid(Row::Subscribe, Client, Server, "resources/subscribe [uri] on the session, its GET stream open (2025-11-25)\nor subscriptions/listen [resourceSubscriptions: [uri]] (2026-07-28)", "在会话上发送 resources/subscribe [uri]，并打开 GET 流（2025-11-25）\n或 subscriptions/listen [resourceSubscriptions: [uri]]（2026-07-28）").numbered(16).activating()),
    Item::Message(dashed(Row::Subscribed, Server, Client, "{} (2025-11-25)\nor notifications/subscriptions/acknowledged [the URIs accepted] (2026-07-28)", "{}（2025-11-25）\n或 notifications/subscriptions/acknowledged [接受的URI]（2026-07-28）").numbered(17)),
    note(Over(Client, Server), "2026-07-28 has no GET stream and no resources/subscribe: the listen request's own stream stays open and carries the updates", "2026-07-28 没有 GET 流，也没有 resources/subscribe：listen 请求自己的流保持打开，并承载更新"),
    Item::Message(dashed(Row::Updated, Server, Client, "notifications/resources/updated [uri]\n(when the server says the resource changed)", "notifications/resources/updated [uri]\n（服务器说明资源已变化时）").numbered(18).deactivating()),
    Item::Message(solid(Row::Unsubscribe, Client, Server, "resources/unsubscribe [uri] (2025-11-25)\nor the listen stream closed (2026-07-28)", "resources/unsubscribe [uri]（2025-11-25）\n或关闭 listen 流（2026-07-28）").numbered(19)),
    Item::Message(solid(Row::ReadUpdated, Client, Server, "resources/read (Request)\n[uri: the updated resource]", "resources/read (请求)\n[uri: 已更新的资源]").numbered(20).activating()),
    Item::Message(dashed(Row::ReadUpdatedResult, Server, Client, "resources/read (Response)\n[contents as they are now]", "resources/read (响应)\n[当前的内容]").numbered(21).deactivating()),
    note(
        Over(Client, Server),
        "A long-running tool as a task: the call answers at once with a task, and the client polls it to its end",
        "长时间运行的工具作为任务：调用立即以任务作答，客户端轮询它直到结束",
    ),
    Item::Message(solid(Row::TaskCall, Client, Server, "tools/call (Request) as a task\n[name, arguments; task: {ttl} (2025-11-25) or the tasks extension in _meta (2026-07-28)]", "tools/call (请求) 作为任务\n[name, arguments; task: {ttl}（2025-11-25）或 _meta 中的任务扩展（2026-07-28）]").numbered(22).activating()),
    Item::Message(dashed(Row::TaskCreated, Server, Client, "tools/call (Response): a task\n[taskId, status: working, pollInterval]", "tools/call (响应)：一个任务\n[taskId, status: working, pollInterval]").numbered(23)),
    Item::Message(solid(Row::TaskPoll, Client, Server, "tasks/get (Request) [taskId]\nevery pollInterval, until the task ends", "tasks/get (请求) [taskId]\n每隔 pollInterval 一次，直到任务结束").numbered(24)),
    Item::Message(dashed(Row::TaskStatus, Server, Client, "tasks/get (Response)\n[status, statusMessage; with the result once completed (2026-07-28)]", "tasks/get (响应)\n[status, statusMessage；完成后附带结果（2026-07-28）]").numbered(25)),
    Item::Message(solid(Row::TaskResult, Client, Server, "tasks/result (Request) [taskId]\n(2025-11-25)", "tasks/result (请求) [taskId]\n（2025-11-25）").numbered(26)),
    Item::Message(dashed(Row::TaskResultAnswer, Server, Client, "tasks/result (Response)\n[the tool's result] (2025-11-25)", "tasks/result (响应)\n[工具的结果]（2025-11-25）").numbered(27).deactivating()),
    Item::Message(
        dashed(
            Row::ShowBrowsed,
            Host,
            User,
            "Show what was read and got, and the task's result",
            "显示读取和获取到的内容，以及任务的结果",
        )
        .numbered(28)
        .deactivating(),
    ),
    note(
        Over(User, Server),
        "Each request in 2026-07-28 carries _meta and the Mcp-Method header, with Mcp-Name for resources/read (the URI) and prompts/get (the name); in 2025-11-25 it carries the session id",
        "在 2026-07-28 中，每个请求都携带 _meta 和 Mcp-Method 头，resources/read（URI）和 prompts/get（名称）还携带 Mcp-Name；在 2025-11-25 中则携带会话 ID",
    ),
];

static BROWSE: Diagram = Diagram {
    id: "dr",
    title: Text::new(
        "Resources, prompts, completion and tasks",
        "资源、提示、补全与任务",
    ),
    participants: &PARTICIPANTS,
    items: &BROWSE_ITEMS,
};

/// The diagram "Resources, prompts, completion and tasks" (id `"dr"`), the same in both eras.
pub fn browse() -> &'static Diagram {
    &BROWSE
}
