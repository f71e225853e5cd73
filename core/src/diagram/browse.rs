//! The fourth diagram, "Resources, prompts, completion and tasks": what a server offers besides tools,
//! read the way a host reads it (a list, then an item from it), in both eras. Drawn in the
//! tutorial's style with four participants: no model, since none of these steps asks one.
//!
//! Labels say what goes over the wire; the run's real values (URIs, names, counts) are filled in
//! by the live labels.

use super::row_spec::row_specs;
use super::rows::Row;
use super::spec::Actor::{Client, Host, Server, User};
use super::spec::NotePlacement::{Over, RightOf};
use super::spec::{Diagram, Item, Participant, Text, dashed, note, participant, solid, under};

row_specs! {
    Browse {
        carries: [Offers],
        both: (
            "/server",
            "The user asks to see what the server offers besides tools. The host asks only for what the server declared in its capabilities: {offers}.",
            "用户要求查看服务器在工具之外提供的内容。主机只请求服务器在能力中声明过的：{offers}。",
        ),
    },
    ListResources {
        carries: [],
        both: (
            "/server/resources#listing-resources",
            "`resources/list` asks for the resources the server exposes: data the application may put into the model's context (files, records, reports). A `cursor` would ask for the next page.",
            "`resources/list` 请求服务器公开的资源：应用程序可以放进模型上下文的数据（文件、记录、报告）。带 `cursor` 则请求下一页。",
        ),
    },
    ListResourcesResult {
        carries: [Listed],
        legacy: (
            "/server/resources#listing-resources",
            "The server lists {count} resource(s): {items}. 2025-11-25 has no caching hints: a client learns of changes from notifications/resources/list_changed, if the server sends them.",
            "服务器列出 {count} 个资源：{items}。2025-11-25 没有缓存提示：客户端只能通过服务器发送的 notifications/resources/list_changed 得知变化。",
        ),
        modern: (
            "/server/resources#listing-resources",
            "The server lists {count} resource(s): {items}. The list stays fresh for {ttlMs} ms (cacheScope {cacheScope}): until then a client may use it again without asking.",
            "服务器列出 {count} 个资源：{items}。列表在 {ttlMs} 毫秒内有效（cacheScope 为 {cacheScope}）：在此之前客户端可以直接复用，无需再次请求。",
        ),
    },
    ReadResource {
        carries: [Target],
        both: (
            "/server/resources#reading-resources",
            "`resources/read` of {target}, the first resource listed. Resources are application-controlled: the host, not the model, decides what to read.",
            "`resources/read` 读取 {target}，即列出的第一个资源。资源由应用程序控制：读取什么由主机决定，而不是模型。",
        ),
    },
    ReadResourceResult {
        carries: [Contents],
        both: (
            "/server/resources#reading-resources",
            "{count} content item(s) of {target}: {text}. Text comes as `text`, binary data as a base64 `blob`, each with its `mimeType`. Freshness: {ttlMs} ms.",
            "{target} 的 {count} 个内容项：{text}。文本以 `text` 返回，二进制数据以 base64 的 `blob` 返回，各带 `mimeType`。有效期：{ttlMs} 毫秒。",
        ),
    },
    ListTemplates {
        carries: [],
        both: (
            "/server/resources#resource-templates",
            "`resources/templates/list` asks for parameterized resources: URI templates (RFC 6570) with variables to fill in.",
            "`resources/templates/list` 请求参数化的资源：带有待填写变量的URI模板（RFC 6570）。",
        ),
    },
    ListTemplatesResult {
        carries: [Listed],
        both: (
            "/server/resources#resource-templates",
            "The server lists {count} template(s): {items}. Freshness: {ttlMs} ms.",
            "服务器列出 {count} 个模板：{items}。有效期：{ttlMs} 毫秒。",
        ),
    },
    Complete {
        carries: [Target],
        both: (
            "/server/utilities/completion",
            "`completion/complete` for the first variable of {target}, with what was typed so far: {arguments}. A host asks as the user types, to offer values like an IDE does.",
            "`completion/complete` 为 {target} 的第一个变量请求补全，附上目前已输入的内容：{arguments}。主机在用户输入时请求，像IDE一样给出候选值。",
        ),
    },
    CompleteResult {
        carries: [Completion],
        both: (
            "/server/utilities/completion",
            "The server offers: {values} (total {count}, hasMore {hasMore}). At most 100 values come back; the host fills the template with the first.",
            "服务器给出：{values}（总数 {count}，hasMore 为 {hasMore}）。最多返回100个值；主机用第一个值填写模板。",
        ),
    },
    ReadTemplate {
        carries: [Target],
        both: (
            "/server/resources#resource-templates",
            "`resources/read` of {target}: the template filled in with the completed value, percent-encoded as RFC 6570 says.",
            "`resources/read` 读取 {target}：用补全得到的值填好的模板，按 RFC 6570 进行百分号编码。",
        ),
    },
    ReadTemplateResult {
        carries: [Contents],
        both: (
            "/server/resources#error-handling",
            "{count} content item(s) of {target}: {text}. Freshness: {ttlMs} ms. A URI the server does not have is an error, not an empty result.",
            "{target} 的 {count} 个内容项：{text}。有效期：{ttlMs} 毫秒。服务器没有的URI会得到错误，而不是空结果。",
        ),
    },
    ListPrompts {
        carries: [],
        both: (
            "/server/prompts#listing-prompts",
            "`prompts/list` asks for the server's prompts: message templates a user picks (often as a slash command), with named arguments.",
            "`prompts/list` 请求服务器的提示：由用户挑选的消息模板（常以斜杠命令的形式），带有具名参数。",
        ),
    },
    ListPromptsResult {
        carries: [Listed],
        both: (
            "/server/prompts#listing-prompts",
            "The server lists {count} prompt(s): {items}. Freshness: {ttlMs} ms.",
            "服务器列出 {count} 个提示：{items}。有效期：{ttlMs} 毫秒。",
        ),
    },
    GetPrompt {
        carries: [Target],
        both: (
            "/server/prompts#getting-a-prompt",
            "`prompts/get` of {target} with its required arguments {arguments} (the completed value, where one was).",
            "`prompts/get` 获取 {target}，附上其必填参数 {arguments}（有补全值时使用补全值）。",
        ),
    },
    GetPromptResult {
        carries: [Contents],
        both: (
            "/server/prompts#getting-a-prompt",
            "{target} gives {count} message(s): {text}. Messages carry a role (user or assistant) and content, which may embed a resource.",
            "{target} 给出 {count} 条消息：{text}。每条消息带有角色（user 或 assistant）和内容，内容中可以嵌入资源。",
        ),
    },
    Subscribe {
        carries: [Target],
        legacy: (
            "/server/resources#subscriptions",
            "The client opens the session's GET stream (where the server sends what belongs to no request), then asks with `resources/subscribe` to hear when {target} changes.",
            "客户端先打开会话的 GET 流（服务器在这里发送不属于任何请求的消息），再用 `resources/subscribe` 请求在 {target} 变化时得到通知。",
        ),
        modern: (
            "/server/resources#subscriptions",
            "2026-07-28 has no GET stream and no `resources/subscribe`: `subscriptions/listen` asks for updates of {target}, and its answer is a stream that stays open.",
            "2026-07-28 没有 GET 流，也没有 `resources/subscribe`：`subscriptions/listen` 请求 {target} 的更新，它的应答是一个保持打开的流。",
        ),
    },
    Subscribed {
        carries: [Listed],
        legacy: (
            "/server/resources#subscriptions",
            "The server took the subscription with an empty result: updates of {items} will come on the GET stream.",
            "服务器以空结果接受了订阅：{items} 的更新将通过 GET 流发送。",
        ),
        modern: (
            "/server/resources#subscriptions",
            "The first event on the listen stream acknowledges it, with the URIs the server accepted: {items}. A URI it left out will never be updated on this stream.",
            "listen 流上的第一个事件是确认，带有服务器接受的URI：{items}。被排除的URI不会在这个流上收到更新。",
        ),
    },
    Updated {
        carries: [Target],
        both: (
            "/server/resources#subscriptions",
            "`notifications/resources/updated` for {target}: the server says it changed. The notification carries no content: a client that wants it reads again.",
            "{target} 的 `notifications/resources/updated`：服务器说明它已变化。通知不携带内容：客户端需要时再次读取。",
        ),
    },
    Unsubscribe {
        carries: [Target],
        legacy: (
            "/server/resources#subscriptions",
            "`resources/unsubscribe` from {target}; the client then closes its GET stream.",
            "`resources/unsubscribe` 取消订阅 {target}；随后客户端关闭它的 GET 流。",
        ),
        modern: (
            "/server/resources#subscriptions",
            "The client closes the listen stream: that ends the subscription to {target} (there is no unsubscribe request in 2026-07-28).",
            "客户端关闭 listen 流：这就结束了对 {target} 的订阅（2026-07-28 没有取消订阅的请求）。",
        ),
    },
    ReadUpdated {
        carries: [Target],
        both: (
            "/server/resources#reading-resources",
            "`resources/read` of {target} again, for what the update announced.",
            "再次 `resources/read` 读取 {target}，获取更新所宣告的内容。",
        ),
    },
    ReadUpdatedResult {
        carries: [Contents],
        both: (
            "/server/resources#reading-resources",
            "{target} as it is now: {text}. Compare it with the read before (row 11). Freshness: {ttlMs} ms.",
            "{target} 现在的内容：{text}。可与之前的读取（第11行）比较。有效期：{ttlMs} 毫秒。",
        ),
    },
    TaskCall {
        carries: [Target],
        legacy: (
            "/basic/utilities/tasks",
            "`tools/call` of {target} with {arguments} and `params.task` (a ttl): 2025-11-25's experimental tasks, for a tool whose `execution.taskSupport` allows one, on a server that declared `tasks.requests.tools.call`.",
            "以 {arguments} 调用 {target} 的 `tools/call`，并附上 `params.task`（一个 ttl）：这是 2025-11-25 的实验性任务，用于 `execution.taskSupport` 允许任务的工具，且服务器声明了 `tasks.requests.tools.call`。",
        ),
        modern: (
            "/changelog",
            "`tools/call` of {target} with {arguments}; the request's capabilities declare the tasks extension (io.modelcontextprotocol/tasks), so the server may answer with a task instead of the result: it decides per call.",
            "以 {arguments} 调用 {target} 的 `tools/call`；请求的能力中声明了任务扩展（io.modelcontextprotocol/tasks），因此服务器可以用任务代替结果作答：是否创建任务由服务器逐次决定。",
        ),
    },
    TaskCreated {
        carries: [Task],
        legacy: (
            "/basic/utilities/tasks",
            "The call answered at once with a `task` object: {taskId}, {status}, poll every {pollInterval} ms ({message}). The work goes on on the server.",
            "调用立即以 `task` 对象作答：{taskId}，状态 {status}，每 {pollInterval} 毫秒轮询一次（{message}）。工作在服务器上继续进行。",
        ),
        modern: (
            "/changelog",
            "The call answered at once with `resultType: \"task\"` and the task's fields: {taskId}, {status}, poll every {pollInterval} ms ({message}). The work goes on on the server.",
            "调用立即以 `resultType: \"task\"` 和任务的字段作答：{taskId}，状态 {status}，每 {pollInterval} 毫秒轮询一次（{message}）。工作在服务器上继续进行。",
        ),
    },
    TaskPoll {
        carries: [Task],
        legacy: (
            "/basic/utilities/tasks",
            "`tasks/get` of {taskId}, sent {polls} times, each after the poll interval the server suggested. Its statusMessage says how far the work got: {message}.",
            "`tasks/get` 查询 {taskId}，共发送 {polls} 次，每次间隔服务器建议的轮询时间。statusMessage 说明工作进展：{message}。",
        ),
        modern: (
            "/changelog",
            "`tasks/get` of {taskId} (its Mcp-Name header is the task id), sent {polls} times, each after the poll interval the server suggested. Its statusMessage says how far the work got: {message}.",
            "`tasks/get` 查询 {taskId}（其 Mcp-Name 头就是任务 ID），共发送 {polls} 次，每次间隔服务器建议的轮询时间。statusMessage 说明工作进展：{message}。",
        ),
    },
    TaskStatus {
        carries: [Task],
        legacy: (
            "/basic/utilities/tasks",
            "The last `tasks/get` answer: {status} ({message}). In 2025-11-25 the result is fetched with `tasks/result`.",
            "最后一次 `tasks/get` 的应答：{status}（{message}）。在 2025-11-25 中，结果要用 `tasks/result` 获取。",
        ),
        modern: (
            "/changelog",
            "The last `tasks/get` answer: {status} ({message}). In 2026-07-28 a completed task carries the tool's result in this answer.",
            "最后一次 `tasks/get` 的应答：{status}（{message}）。在 2026-07-28 中，已完成的任务会在这个应答中附带工具的结果。",
        ),
    },
    TaskResult {
        carries: [Target],
        legacy: (
            "/basic/utilities/tasks",
            "`tasks/result` of {target}: the tool's result, now that the task completed.",
            "`tasks/result` 获取 {target}：任务已完成，现在取回工具的结果。",
        ),
        modern: (
            "/changelog",
            "2025-11-25's `tasks/result` of {target}; 2026-07-28 has none (the result comes with `tasks/get`).",
            "2025-11-25 用 `tasks/result` 获取 {target}；2026-07-28 没有这个方法（结果随 `tasks/get` 返回）。",
        ),
    },
    TaskResultAnswer {
        carries: [ToolResult],
        legacy: (
            "/basic/utilities/tasks",
            "The tool's result, as a `tools/call` would have answered: {text} (isError: {isError}).",
            "工具的结果，与 `tools/call` 直接作答时相同：{text}（isError：{isError}）。",
        ),
        modern: (
            "/changelog",
            "The tool's result: {text} (isError: {isError}). In 2026-07-28 it came with the last `tasks/get`.",
            "工具的结果：{text}（isError：{isError}）。在 2026-07-28 中，它随最后一次 `tasks/get` 返回。",
        ),
    },
    ShowBrowsed {
        carries: [Text],
        both: (
            "/server",
            "The host shows what it read and got: {text}. Select each row above for its exchange, byte for byte.",
            "主机展示读取和获取到的内容：{text}。选中上面的每一行，可查看其逐字节的交换内容。",
        ),
    },
}

const PARTICIPANTS: [Participant; 4] = [
    participant(User, None),
    under(Host, "in the browser", "在浏览器中"),
    under(Client, "in ClientApp", "ClientApp内部"),
    under(Server, "on Local PC", "本地PC上"),
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
