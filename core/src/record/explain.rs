//! Each row's explanation: why the step exists, what to look at, and the spec section. Written
//! apart from the run record and filled with the row's live values by `{placeholder}`.

use super::payload::{Field, Shown};
use super::run::{RowRecord, RowStatus};
use crate::diagram::Row;
use crate::diagram::spec::Lang;
use crate::mcp::era::Era;

/// The spec each era's explanations link to.
const SPEC_LEGACY: &str = "https://modelcontextprotocol.io/specification/2025-11-25";
const SPEC_MODERN: &str = "https://modelcontextprotocol.io/specification/2026-07-28";

/// (row, era it is written for (`None`: both), English, Chinese, spec path)
type Entry = (Row, Option<Era>, &'static str, &'static str, &'static str);

const EXPLANATIONS: &[Entry] = &[
    (
        Row::Prepare,
        None,
        "The host creates one MCP client per server. This one will talk to {server}.",
        "主机为每个服务器创建一个 MCP 客户端。这个客户端将连接 {server}。",
        "/architecture",
    ),
    (
        Row::Initialize,
        None,
        "The client POSTs `initialize` asking for protocol version {requested}, with its capabilities and name. Look at the Accept header: a Streamable HTTP client must accept both JSON and SSE.",
        "客户端以 POST 发送 `initialize`，请求协议版本 {requested}，并附上自身能力和名称。注意 Accept 头：Streamable HTTP 客户端必须同时接受 JSON 和 SSE。",
        "/basic/lifecycle#initialization",
    ),
    (
        Row::InitializeResult,
        None,
        "The server answers with the version it chose ({version}), its capabilities and its name ({server}). Session id: {session}. The client checks that it can speak {version}.",
        "服务器返回它选择的版本（{version}）、能力和名称（{server}）。会话 ID：{session}。客户端确认自己支持 {version}。",
        "/basic/lifecycle#version-negotiation",
    ),
    (
        Row::Initialized,
        None,
        "`notifications/initialized` ends the handshake. It is a notification (no id), so the server answers HTTP 202 with no body.",
        "`notifications/initialized` 结束握手。它是通知（没有 id），所以服务器以 HTTP 202 应答，没有正文。",
        "/basic/lifecycle#initialization",
    ),
    (
        Row::Ready,
        None,
        "The awaited initialize has returned: the host now knows the server is ready. Logging: {logging} (the client asks for log lines so the tool call below can show the server at work).",
        "initialize 已返回：主机现在知道服务器就绪。日志：{logging}（客户端请求日志，以便下面的工具调用能显示服务器的工作）。",
        "/server/utilities/logging",
    ),
    (
        Row::ListToolsAsk,
        None,
        "The host asks its client for the server's tools (session.list_tools()). Nothing goes over the wire yet.",
        "主机让客户端获取服务器的工具（session.list_tools()）。此时还没有网络通信。",
        "/server/tools#listing-tools",
    ),
    (
        Row::ListTools,
        None,
        "`tools/list` goes out with the session id and the negotiated `MCP-Protocol-Version` header.",
        "`tools/list` 发出，带有会话 ID 和协商好的 `MCP-Protocol-Version` 头。",
        "/server/tools#listing-tools",
    ),
    (
        Row::ListToolsResult,
        None,
        "The server lists {count} tool(s): {tools}. Each has a name, a description and a JSON Schema for its input; a `nextCursor` would mean more pages.",
        "服务器列出 {count} 个工具：{tools}。每个工具有名称、描述和输入的 JSON Schema；若有 `nextCursor` 则还有更多页。",
        "/server/tools#listing-tools",
    ),
    (
        Row::ToolsToHost,
        None,
        "The client hands the tool list to the host: {tools}.",
        "客户端把工具列表交给主机：{tools}。",
        "/server/tools",
    ),
    (
        Row::ToolsToLlm,
        None,
        "The host formats the tools for the model ({llm}). The payload below is exactly what the model receives.",
        "主机为模型（{llm}）格式化工具。下面的内容就是模型收到的原样数据。",
        "/server/tools#tool",
    ),
    (
        Row::Question,
        None,
        "The user asks: {question}",
        "用户提问：{question}",
        "/architecture",
    ),
    (
        Row::AskLlm,
        None,
        "The host sends the question and the tools to the model ({llm}). The model, not the host, decides whether a tool is needed.",
        "主机把问题和工具发送给模型（{llm}）。是否需要工具由模型决定，而不是主机。",
        "/server/tools#user-interaction-model",
    ),
    (
        Row::LlmChoice,
        None,
        "The model asks for {tool} with arguments {arguments}.",
        "模型请求调用 {tool}，参数为 {arguments}。",
        "/server/tools#calling-tools",
    ),
    (
        Row::Confirm,
        None,
        "Optional: the host asks the user before running {tool}. The spec says hosts SHOULD keep a human in the loop for tool calls.",
        "可选：主机在运行 {tool} 之前询问用户。规范建议工具调用应由人确认。",
        "/server/tools#security-considerations",
    ),
    (
        Row::Confirmed,
        None,
        "The user answered: {answer}.",
        "用户回答：{answer}。",
        "/server/tools#security-considerations",
    ),
    (
        Row::CallToolAsk,
        None,
        "The host tells its client to call {tool} with {arguments} (session.call_tool()).",
        "主机让客户端以 {arguments} 调用 {tool}（session.call_tool()）。",
        "/server/tools#calling-tools",
    ),
    (
        Row::CallTool,
        None,
        "`tools/call` goes out. Its `_meta.progressToken` lets the server report progress on the same stream.",
        "`tools/call` 发出。其中的 `_meta.progressToken` 让服务器在同一流上报告进度。",
        "/server/tools#calling-tools",
    ),
    (
        Row::Execute,
        None,
        "The server runs the tool. Its log line and progress arrive as SSE events on the tools/call stream, before the result.",
        "服务器执行工具。它的日志和进度作为 SSE 事件在 tools/call 流上、在结果之前到达。",
        "/basic/utilities/progress",
    ),
    (
        Row::CallToolResult,
        None,
        "The result: {text} (isError: {isError}). Structured content: {structured}. A failing tool is a result with isError, not a JSON-RPC error.",
        "结果：{text}（isError：{isError}）。结构化内容：{structured}。工具失败是带 isError 的结果，而不是 JSON-RPC 错误。",
        "/server/tools#tool-result",
    ),
    (
        Row::ResultToHost,
        None,
        "The client hands the result to the host: {text}.",
        "客户端把结果交给主机：{text}。",
        "/server/tools#tool-result",
    ),
    (
        Row::ResultToLlm,
        None,
        "The host sends the tool result back to the model so it can write the answer.",
        "主机把工具结果发回模型，以便它写出答案。",
        "/server/tools#calling-tools",
    ),
    (
        Row::LlmAnswer,
        None,
        "The model writes the final answer: {text}",
        "模型写出最终答案：{text}",
        "/server/tools",
    ),
    (
        Row::ShowAnswer,
        None,
        "The host shows the answer: {answer}",
        "主机显示答案：{answer}",
        "/architecture",
    ),
    (
        Row::Discover,
        Some(Era::Modern),
        "The client asks `server/discover` what the server supports. There is no handshake in 2026-07-28: this request, like every other, carries protocolVersion {requested}, clientInfo and clientCapabilities in `params._meta`, and mirrors its method in the headers MCP-Protocol-Version and Mcp-Method.",
        "客户端用 `server/discover` 询问服务器支持什么。2026-07-28 没有握手：这个请求和其他请求一样，在 `params._meta` 中携带 protocolVersion {requested}、clientInfo 和 clientCapabilities，并在请求头 MCP-Protocol-Version 和 Mcp-Method 中镜像方法名。",
        "/basic/versioning",
    ),
    (
        Row::Discover,
        Some(Era::Legacy),
        "In auto, the client first sends a 2026-07-28 request ({requested}), as the revision's backward-compatibility rule says: a modern server answers it; a legacy one does not.",
        "在自动模式下，客户端先按新版（{requested}）的向后兼容规则发送一个 2026-07-28 请求：新版服务器会回答它，旧版服务器则不会。",
        "/basic/transports#backward-compatibility",
    ),
    (
        Row::DiscoverResult,
        Some(Era::Modern),
        "The server speaks {versions} and names itself {server}. Capabilities: {capabilities}. The answer stays fresh for {ttlMs} ms ({cacheScope}). No session id comes back: each request stands alone.",
        "服务器支持 {versions}，自称 {server}。能力：{capabilities}。这个应答在 {ttlMs} 毫秒内有效（{cacheScope}）。没有返回会话 ID：每个请求都是独立的。",
        "/basic/versioning",
    ),
    (
        Row::DiscoverResult,
        Some(Era::Legacy),
        "Not a modern answer: {why}.",
        "不是新版的应答：{why}。",
        "/basic/transports#backward-compatibility",
    ),
    (
        Row::Ready,
        Some(Era::Modern),
        "Nothing to await: no initialize, no notifications/initialized, no session. Logging: {logging} (in 2026-07-28 the log level rides on each request's `_meta`; without it the server must not send log lines).",
        "无需等待：没有 initialize、没有 notifications/initialized、没有会话。日志：{logging}（在 2026-07-28 中，日志级别随每个请求的 `_meta` 发送；没有它服务器就不能发送日志）。",
        "/basic/index",
    ),
    (
        Row::ListTools,
        Some(Era::Modern),
        "`tools/list` goes out with `_meta` and the headers MCP-Protocol-Version and Mcp-Method: tools/list; there is no session id to send.",
        "`tools/list` 发出，带有 `_meta` 以及请求头 MCP-Protocol-Version 和 Mcp-Method: tools/list；没有会话 ID 可发。",
        "/basic/transports/streamable-http",
    ),
    (
        Row::ListToolsResult,
        Some(Era::Modern),
        "The server lists {count} tool(s): {tools}. The list stays fresh for {ttlMs} ms, so a later run on this page may reuse it. Tools whose x-mcp-header annotations break the spec's rules are left out: {dropped}.",
        "服务器列出 {count} 个工具：{tools}。列表在 {ttlMs} 毫秒内有效，本页面之后的运行可以复用它。x-mcp-header 注解违反规范的工具被排除：{dropped}。",
        "/server/tools",
    ),
    (
        Row::CallTool,
        Some(Era::Modern),
        "`tools/call` goes out with Mcp-Method: tools/call, Mcp-Name (the tool's name), and an Mcp-Param-* header for each argument the tool marks with x-mcp-header (Base64 when not plain ASCII); `_meta` carries the version, client info, capabilities and a progress token. Closing the stream would cancel it.",
        "`tools/call` 发出，带有 Mcp-Method: tools/call、Mcp-Name（工具名），以及工具用 x-mcp-header 标记的每个参数对应的 Mcp-Param-* 请求头（非纯 ASCII 时用 Base64）；`_meta` 携带版本、客户端信息、能力和进度令牌。关闭流即取消请求。",
        "/basic/transports/streamable-http",
    ),
    (
        Row::Execute,
        Some(Era::Modern),
        "The server runs the tool. Log lines come only because this request's `_meta` asked for a logLevel; they and any progress arrive on this request's own stream, before the result.",
        "服务器执行工具。只有请求的 `_meta` 要求了 logLevel，服务器才会发送日志；日志和进度在这个请求自己的流上、在结果之前到达。",
        "/basic/utilities/progress",
    ),
    (
        Row::Elicit,
        Some(Era::Legacy),
        "The server needs an answer from the user. In 2025-11-25 it asks by sending a request, `elicitation/create`, on the open tools/call SSE stream: {message}",
        "服务器需要用户的回答。在 2025-11-25 中，它在尚未关闭的 tools/call SSE 流上发送一个请求 `elicitation/create` 来提问：{message}",
        "/client/elicitation",
    ),
    (
        Row::Elicit,
        Some(Era::Modern),
        "The server needs an answer from the user. In 2026-07-28 it never sends a request on a stream: it answers tools/call with resultType input_required, listing its questions (inputRequests) and an opaque requestState ({requestState}) to echo back: {message}",
        "服务器需要用户的回答。在 2026-07-28 中它从不在流上发请求：它以 resultType 为 input_required 的结果回答 tools/call，列出问题（inputRequests）和要原样回传的 requestState（{requestState}）：{message}",
        "/basic/patterns/mrtr",
    ),
    (
        Row::ElicitAsk,
        None,
        "The host shows the server's question as a form built from its schema: {message}",
        "主机把服务器的问题显示为按其 schema 生成的表单：{message}",
        "/client/elicitation",
    ),
    (
        Row::ElicitAnswer,
        None,
        "The user answered: {action} {content}.",
        "用户回答：{action} {content}。",
        "/client/elicitation",
    ),
    (
        Row::ElicitReply,
        Some(Era::Legacy),
        "The client POSTs the answer ({action}) as the JSON-RPC response to elicitation/create; the server then finishes the tool and the result arrives on the still-open tools/call stream.",
        "客户端把回答（{action}）作为对 elicitation/create 的 JSON-RPC 响应 POST 回去；服务器随后完成工具，结果在仍然打开的 tools/call 流上到达。",
        "/client/elicitation",
    ),
    (
        Row::ElicitReply,
        Some(Era::Modern),
        "The client calls tools/call again with a new request id, the same name and arguments, the answers in inputResponses ({action}) and the requestState exactly as the server sent it.",
        "客户端以新的请求 ID 再次调用 tools/call，名称和参数不变，回答放在 inputResponses 中（{action}），并原样附上服务器发来的 requestState。",
        "/basic/patterns/mrtr",
    ),
    (
        Row::AuthChallenge,
        None,
        "The MCP server refused the request: 401 Unauthorized means no valid access token, 403 with error=\"insufficient_scope\" a token that lacks a scope. Its WWW-Authenticate: Bearer challenge says where the server's metadata is (resource_metadata, RFC 9728) and which scopes this request needs (scope, RFC 6750). The request itself belongs to diagram 1 or 2; it goes again at step 13. Here: {detail}.",
        "MCP服务器拒绝了请求：401 Unauthorized 表示没有有效的访问令牌，403 且 error=\"insufficient_scope\" 表示令牌缺少某个范围。它的 WWW-Authenticate: Bearer 质询给出服务器元数据的位置（resource_metadata，RFC 9728）和此请求需要的范围（scope，RFC 6750）。请求本身属于图1或图2，会在第13步再次发送。本次：{detail}。",
        "/basic/authorization/authorization-server-discovery#protected-resource-metadata-discovery-requirements",
    ),
    (
        Row::AuthResourceMetadata,
        None,
        "The client asks the MCP server who issues its tokens: its Protected Resource Metadata (RFC 9728). It uses the resource_metadata URL of the challenge; without one it tries /.well-known/oauth-protected-resource with the endpoint's path, then at the root. Look at the URL: {detail}.",
        "客户端询问MCP服务器由谁为它签发令牌：即它的受保护资源元数据（RFC 9728）。客户端使用质询中的 resource_metadata URL；没有时先尝试带端点路径的 /.well-known/oauth-protected-resource，再尝试根路径。看看这个URL：{detail}。",
        "/basic/authorization/authorization-server-discovery#protected-resource-metadata-discovery-requirements",
    ),
    (
        Row::AuthResourceMetadataResult,
        None,
        "The Protected Resource Metadata (RFC 9728) names the resource (it must be this MCP server's URL, or the client stops), the authorization_servers that issue tokens for it, and scopes_supported, the scopes to ask for when the challenge named none. Here: {detail}.",
        "受保护资源元数据（RFC 9728）给出 resource（必须是这个MCP服务器的URL，否则客户端停止）、为它签发令牌的 authorization_servers，以及 scopes_supported：质询没有给出范围时要申请的范围。本次：{detail}。",
        "/basic/authorization/authorization-server-discovery#authorization-server-location",
    ),
    (
        Row::AuthServerMetadata,
        None,
        "The client fetches the authorization server's metadata: RFC 8414's /.well-known/oauth-authorization-server first, then OpenID Connect Discovery's openid-configuration, with the issuer's path inserted when it has one. MCP clients must support both. Here: {detail}.",
        "客户端获取授权服务器的元数据：先试 RFC 8414 的 /.well-known/oauth-authorization-server，再试 OpenID Connect Discovery 的 openid-configuration；issuer 带路径时把路径插入其中。MCP客户端必须两种都支持。本次：{detail}。",
        "/basic/authorization/authorization-server-discovery#authorization-server-metadata-discovery",
    ),
    (
        Row::AuthServerMetadataResult,
        None,
        "The authorization server's endpoints and abilities. Its issuer must be exactly the one the metadata URL was built from (RFC 8414), or the metadata is not used; code_challenge_methods_supported must list S256, or there is no PKCE and the client must not go on; a registration_endpoint means dynamic registration is possible. Here: {detail}.",
        "授权服务器的端点和能力。issuer 必须与构造元数据URL所用的完全一致（RFC 8414），否则不使用这份元数据；code_challenge_methods_supported 必须列出 S256，否则没有PKCE，客户端不能继续；有 registration_endpoint 表示可以动态注册。本次：{detail}。",
        "/basic/authorization/authorization-server-discovery#authorization-server-metadata-discovery",
    ),
    (
        Row::AuthRegister,
        None,
        "Optional: dynamic client registration (RFC 7591) gets a client_id without the user. It comes last: a pre-registered client first, then a client ID metadata document (an HTTPS URL as the client_id). 2026-07-28 deprecates it and requires an application_type (native or web). Here: {detail}.",
        "可选：动态客户端注册（RFC 7591）无需用户参与即可获得 client_id。它排在最后：先用预注册的客户端，其次是客户端ID元数据文档（以HTTPS URL作为 client_id）。2026-07-28 弃用了它，并要求提供 application_type（native 或 web）。本次：{detail}。",
        "/basic/authorization/client-registration#dynamic-client-registration",
    ),
    (
        Row::AuthRegistered,
        None,
        "Optional: the authorization server registered the client and returns its client_id (RFC 7591; a public client gets no secret). The registration belongs to this authorization server only, known by its issuer. Here: {detail}.",
        "可选：授权服务器注册了客户端并返回其 client_id（RFC 7591；公开客户端没有密钥）。这个注册只属于这一个授权服务器，以其 issuer 区分。本次：{detail}。",
        "/basic/authorization/client-registration#dynamic-client-registration",
    ),
    (
        Row::AuthOpen,
        None,
        "The host opens the authorization page for the user. The URL carries code_challenge, the S256 hash of a verifier only the client knows (PKCE, required by OAuth 2.1), a random state, the scopes, and resource, the MCP server's canonical URI (RFC 8707). Here: {detail}.",
        "主机为用户打开授权页面。URL 携带 code_challenge（只有客户端知道的 verifier 的 S256 哈希，即 OAuth 2.1 要求的PKCE）、随机的 state、范围，以及 resource（MCP服务器的规范URI，RFC 8707）。本次：{detail}。",
        "/basic/authorization/security-considerations#authorization-code-protection",
    ),
    (
        Row::AuthConsent,
        None,
        "The user logs in at the authorization server and consents to the scopes for this client (the authorization code grant of OAuth 2.1). It is the only step that needs the user, and the client never sees the user's credentials. Here: {detail}.",
        "用户在授权服务器登录，并同意为这个客户端授予这些范围（OAuth 2.1 的授权码模式）。这是唯一需要用户参与的步骤，客户端永远看不到用户的凭据。本次：{detail}。",
        "/basic/authorization#authorization-flow-steps",
    ),
    (
        Row::AuthRedirect,
        None,
        "The authorization server sends the browser back to the redirect_uri with a one-time code, the state and iss. Before the code goes anywhere the client checks that state is the one it sent and iss the issuer it recorded (RFC 9207, against mix-up attacks). Here: {detail}.",
        "授权服务器把浏览器重定向回 redirect_uri，带上一次性的授权码、state 和 iss。在授权码被发往任何地方之前，客户端先检查 state 是否是它发出的、iss 是否是它记下的 issuer（RFC 9207，防止混淆攻击）。本次：{detail}。",
        "/basic/authorization#authorization-response-validation",
    ),
    (
        Row::AuthToken,
        None,
        "The client trades the code for tokens at the token endpoint. code_verifier proves it is the client that started the flow (PKCE); resource, the same as in the authorization request, asks for a token for this MCP server only (RFC 8707). Here: {detail}.",
        "客户端在令牌端点用授权码换取令牌。code_verifier 证明它就是发起流程的客户端（PKCE）；resource 与授权请求中的相同，只为这个MCP服务器申请令牌（RFC 8707）。本次：{detail}。",
        "/basic/authorization#resource-parameter-implementation",
    ),
    (
        Row::AuthTokenResult,
        None,
        "The access token (Bearer), how long it lasts (expires_in), perhaps a refresh token, and the scopes granted. The token is bound to this MCP server as its audience (RFC 8707): the server must reject tokens issued for anything else, and the client must not send it elsewhere. The record never shows a token. Here: {detail}.",
        "访问令牌（Bearer）、有效期（expires_in）、可能还有刷新令牌，以及授予的范围。令牌以这个MCP服务器为受众（RFC 8707）：服务器必须拒绝为其他目标签发的令牌，客户端也不能把它发往别处。记录中从不显示令牌。本次：{detail}。",
        "/basic/authorization/security-considerations#token-audience-binding-and-validation",
    ),
    (
        Row::AuthRetry,
        None,
        "The interrupted MCP request goes again with Authorization: Bearer (RFC 6750), as every request does from now on (a token never goes in the URL). If a later request meets 403 insufficient_scope, the client starts again at step 1 asking for the union of the scopes so far and the new ones (step-up), a few times at most. Here: {detail}.",
        "被中断的MCP请求带着 Authorization: Bearer（RFC 6750）再次发送，之后的每个请求都如此（令牌从不放在URL中）。之后的请求若遇到 403 insufficient_scope，客户端从第1步重新开始，申请至今的范围与新范围的并集（逐步提升授权），最多几次。本次：{detail}。",
        "/basic/authorization#step-up-authorization-flow",
    ),
    (
        Row::AuthRefresh,
        None,
        "Optional: the access token ran out, so the client sends its refresh token (grant_type=refresh_token) with the same resource (RFC 8707) for a new one, without the user. Whether refresh tokens are issued at all is the authorization server's choice. Here: {detail}.",
        "可选：访问令牌已过期，客户端发送刷新令牌（grant_type=refresh_token）和相同的 resource（RFC 8707）来获取新的令牌，无需用户参与。是否签发刷新令牌由授权服务器决定。本次：{detail}。",
        "/basic/authorization#refresh-tokens",
    ),
    (
        Row::AuthRefreshResult,
        None,
        "Optional: a new access token. For a public client the authorization server must rotate the refresh token (OAuth 2.1): the old one stops working, so a stolen one is worth little. Here: {detail}.",
        "可选：新的访问令牌。对公开客户端，授权服务器必须轮换刷新令牌（OAuth 2.1）：旧的随即失效，被盗的刷新令牌也就没什么用。本次：{detail}。",
        "/basic/authorization/security-considerations#token-theft",
    ),
    (
        Row::Browse,
        None,
        "The user asks to see what the server offers besides tools. The host asks only for what the server declared in its capabilities: {offers}.",
        "用户要求查看服务器在工具之外提供的内容。主机只请求服务器在能力中声明过的：{offers}。",
        "/server",
    ),
    (
        Row::ListResources,
        None,
        "`resources/list` asks for the resources the server exposes: data the application may put into the model's context (files, records, reports). A `cursor` would ask for the next page.",
        "`resources/list` 请求服务器公开的资源：应用程序可以放进模型上下文的数据（文件、记录、报告）。带 `cursor` 则请求下一页。",
        "/server/resources#listing-resources",
    ),
    (
        Row::ListResourcesResult,
        Some(Era::Modern),
        "The server lists {count} resource(s): {items}. The list stays fresh for {ttlMs} ms (cacheScope {cacheScope}): until then a client may use it again without asking.",
        "服务器列出 {count} 个资源：{items}。列表在 {ttlMs} 毫秒内有效（cacheScope 为 {cacheScope}）：在此之前客户端可以直接复用，无需再次请求。",
        "/server/resources#listing-resources",
    ),
    (
        Row::ListResourcesResult,
        Some(Era::Legacy),
        "The server lists {count} resource(s): {items}. 2025-11-25 has no caching hints: a client learns of changes from notifications/resources/list_changed, if the server sends them.",
        "服务器列出 {count} 个资源：{items}。2025-11-25 没有缓存提示：客户端只能通过服务器发送的 notifications/resources/list_changed 得知变化。",
        "/server/resources#listing-resources",
    ),
    (
        Row::ReadResource,
        None,
        "`resources/read` of {target}, the first resource listed. Resources are application-controlled: the host, not the model, decides what to read.",
        "`resources/read` 读取 {target}，即列出的第一个资源。资源由应用程序控制：读取什么由主机决定，而不是模型。",
        "/server/resources#reading-resources",
    ),
    (
        Row::ReadResourceResult,
        None,
        "{count} content item(s) of {target}: {text}. Text comes as `text`, binary data as a base64 `blob`, each with its `mimeType`. Freshness: {ttlMs} ms.",
        "{target} 的 {count} 个内容项：{text}。文本以 `text` 返回，二进制数据以 base64 的 `blob` 返回，各带 `mimeType`。有效期：{ttlMs} 毫秒。",
        "/server/resources#reading-resources",
    ),
    (
        Row::ListTemplates,
        None,
        "`resources/templates/list` asks for parameterized resources: URI templates (RFC 6570) with variables to fill in.",
        "`resources/templates/list` 请求参数化的资源：带有待填写变量的URI模板（RFC 6570）。",
        "/server/resources#resource-templates",
    ),
    (
        Row::ListTemplatesResult,
        None,
        "The server lists {count} template(s): {items}. Freshness: {ttlMs} ms.",
        "服务器列出 {count} 个模板：{items}。有效期：{ttlMs} 毫秒。",
        "/server/resources#resource-templates",
    ),
    (
        Row::Complete,
        None,
        "`completion/complete` for the first variable of {target}, with what was typed so far: {arguments}. A host asks as the user types, to offer values like an IDE does.",
        "`completion/complete` 为 {target} 的第一个变量请求补全，附上目前已输入的内容：{arguments}。主机在用户输入时请求，像IDE一样给出候选值。",
        "/server/utilities/completion",
    ),
    (
        Row::CompleteResult,
        None,
        "The server offers: {values} (total {count}, hasMore {hasMore}). At most 100 values come back; the host fills the template with the first.",
        "服务器给出：{values}（总数 {count}，hasMore 为 {hasMore}）。最多返回100个值；主机用第一个值填写模板。",
        "/server/utilities/completion",
    ),
    (
        Row::ReadTemplate,
        None,
        "`resources/read` of {target}: the template filled in with the completed value, percent-encoded as RFC 6570 says.",
        "`resources/read` 读取 {target}：用补全得到的值填好的模板，按 RFC 6570 进行百分号编码。",
        "/server/resources#resource-templates",
    ),
    (
        Row::ReadTemplateResult,
        None,
        "{count} content item(s) of {target}: {text}. Freshness: {ttlMs} ms. A URI the server does not have is an error, not an empty result.",
        "{target} 的 {count} 个内容项：{text}。有效期：{ttlMs} 毫秒。服务器没有的URI会得到错误，而不是空结果。",
        "/server/resources#error-handling",
    ),
    (
        Row::ListPrompts,
        None,
        "`prompts/list` asks for the server's prompts: message templates a user picks (often as a slash command), with named arguments.",
        "`prompts/list` 请求服务器的提示：由用户挑选的消息模板（常以斜杠命令的形式），带有具名参数。",
        "/server/prompts#listing-prompts",
    ),
    (
        Row::ListPromptsResult,
        None,
        "The server lists {count} prompt(s): {items}. Freshness: {ttlMs} ms.",
        "服务器列出 {count} 个提示：{items}。有效期：{ttlMs} 毫秒。",
        "/server/prompts#listing-prompts",
    ),
    (
        Row::GetPrompt,
        None,
        "`prompts/get` of {target} with its required arguments {arguments} (the completed value, where one was).",
        "`prompts/get` 获取 {target}，附上其必填参数 {arguments}（有补全值时使用补全值）。",
        "/server/prompts#getting-a-prompt",
    ),
    (
        Row::GetPromptResult,
        None,
        "{target} gives {count} message(s): {text}. Messages carry a role (user or assistant) and content, which may embed a resource.",
        "{target} 给出 {count} 条消息：{text}。每条消息带有角色（user 或 assistant）和内容，内容中可以嵌入资源。",
        "/server/prompts#getting-a-prompt",
    ),
    (
        Row::Subscribe,
        Some(Era::Legacy),
        "The client opens the session's GET stream (where the server sends what belongs to no request), then asks with `resources/subscribe` to hear when {target} changes.",
        "客户端先打开会话的 GET 流（服务器在这里发送不属于任何请求的消息），再用 `resources/subscribe` 请求在 {target} 变化时得到通知。",
        "/server/resources#subscriptions",
    ),
    (
        Row::Subscribe,
        Some(Era::Modern),
        "2026-07-28 has no GET stream and no `resources/subscribe`: `subscriptions/listen` asks for updates of {target}, and its answer is a stream that stays open.",
        "2026-07-28 没有 GET 流，也没有 `resources/subscribe`：`subscriptions/listen` 请求 {target} 的更新，它的应答是一个保持打开的流。",
        "/server/resources#subscriptions",
    ),
    (
        Row::Subscribed,
        Some(Era::Legacy),
        "The server took the subscription with an empty result: updates of {items} will come on the GET stream.",
        "服务器以空结果接受了订阅：{items} 的更新将通过 GET 流发送。",
        "/server/resources#subscriptions",
    ),
    (
        Row::Subscribed,
        Some(Era::Modern),
        "The first event on the listen stream acknowledges it, with the URIs the server accepted: {items}. A URI it left out will never be updated on this stream.",
        "listen 流上的第一个事件是确认，带有服务器接受的URI：{items}。被排除的URI不会在这个流上收到更新。",
        "/server/resources#subscriptions",
    ),
    (
        Row::Updated,
        None,
        "`notifications/resources/updated` for {target}: the server says it changed. The notification carries no content: a client that wants it reads again.",
        "{target} 的 `notifications/resources/updated`：服务器说明它已变化。通知不携带内容：客户端需要时再次读取。",
        "/server/resources#subscriptions",
    ),
    (
        Row::Unsubscribe,
        Some(Era::Legacy),
        "`resources/unsubscribe` from {target}; the client then closes its GET stream.",
        "`resources/unsubscribe` 取消订阅 {target}；随后客户端关闭它的 GET 流。",
        "/server/resources#subscriptions",
    ),
    (
        Row::Unsubscribe,
        Some(Era::Modern),
        "The client closes the listen stream: that ends the subscription to {target} (there is no unsubscribe request in 2026-07-28).",
        "客户端关闭 listen 流：这就结束了对 {target} 的订阅（2026-07-28 没有取消订阅的请求）。",
        "/server/resources#subscriptions",
    ),
    (
        Row::ReadUpdated,
        None,
        "`resources/read` of {target} again, for what the update announced.",
        "再次 `resources/read` 读取 {target}，获取更新所宣告的内容。",
        "/server/resources#reading-resources",
    ),
    (
        Row::ReadUpdatedResult,
        None,
        "{target} as it is now: {text}. Compare it with the read before (row 11). Freshness: {ttlMs} ms.",
        "{target} 现在的内容：{text}。可与之前的读取（第11行）比较。有效期：{ttlMs} 毫秒。",
        "/server/resources#reading-resources",
    ),
    (
        Row::TaskCall,
        Some(Era::Legacy),
        "`tools/call` of {target} with {arguments} and `params.task` (a ttl): 2025-11-25's experimental tasks, for a tool whose `execution.taskSupport` allows one, on a server that declared `tasks.requests.tools.call`.",
        "以 {arguments} 调用 {target} 的 `tools/call`，并附上 `params.task`（一个 ttl）：这是 2025-11-25 的实验性任务，用于 `execution.taskSupport` 允许任务的工具，且服务器声明了 `tasks.requests.tools.call`。",
        "/basic/utilities/tasks",
    ),
    (
        Row::TaskCall,
        Some(Era::Modern),
        "`tools/call` of {target} with {arguments}; the request's capabilities declare the tasks extension (io.modelcontextprotocol/tasks), so the server may answer with a task instead of the result: it decides per call.",
        "以 {arguments} 调用 {target} 的 `tools/call`；请求的能力中声明了任务扩展（io.modelcontextprotocol/tasks），因此服务器可以用任务代替结果作答：是否创建任务由服务器逐次决定。",
        "/changelog",
    ),
    (
        Row::TaskCreated,
        Some(Era::Legacy),
        "The call answered at once with a `task` object: {taskId}, {status}, poll every {pollInterval} ms ({message}). The work goes on on the server.",
        "调用立即以 `task` 对象作答：{taskId}，状态 {status}，每 {pollInterval} 毫秒轮询一次（{message}）。工作在服务器上继续进行。",
        "/basic/utilities/tasks",
    ),
    (
        Row::TaskCreated,
        Some(Era::Modern),
        "The call answered at once with `resultType: \"task\"` and the task's fields: {taskId}, {status}, poll every {pollInterval} ms ({message}). The work goes on on the server.",
        "调用立即以 `resultType: \"task\"` 和任务的字段作答：{taskId}，状态 {status}，每 {pollInterval} 毫秒轮询一次（{message}）。工作在服务器上继续进行。",
        "/changelog",
    ),
    (
        Row::TaskPoll,
        Some(Era::Legacy),
        "`tasks/get` of {taskId}, sent {polls} times, each after the poll interval the server suggested. Its statusMessage says how far the work got: {message}.",
        "`tasks/get` 查询 {taskId}，共发送 {polls} 次，每次间隔服务器建议的轮询时间。statusMessage 说明工作进展：{message}。",
        "/basic/utilities/tasks",
    ),
    (
        Row::TaskPoll,
        Some(Era::Modern),
        "`tasks/get` of {taskId} (its Mcp-Name header is the task id), sent {polls} times, each after the poll interval the server suggested. Its statusMessage says how far the work got: {message}.",
        "`tasks/get` 查询 {taskId}（其 Mcp-Name 头就是任务 ID），共发送 {polls} 次，每次间隔服务器建议的轮询时间。statusMessage 说明工作进展：{message}。",
        "/changelog",
    ),
    (
        Row::TaskStatus,
        Some(Era::Legacy),
        "The last `tasks/get` answer: {status} ({message}). In 2025-11-25 the result is fetched with `tasks/result`.",
        "最后一次 `tasks/get` 的应答：{status}（{message}）。在 2025-11-25 中，结果要用 `tasks/result` 获取。",
        "/basic/utilities/tasks",
    ),
    (
        Row::TaskStatus,
        Some(Era::Modern),
        "The last `tasks/get` answer: {status} ({message}). In 2026-07-28 a completed task carries the tool's result in this answer.",
        "最后一次 `tasks/get` 的应答：{status}（{message}）。在 2026-07-28 中，已完成的任务会在这个应答中附带工具的结果。",
        "/changelog",
    ),
    (
        Row::TaskResult,
        Some(Era::Legacy),
        "`tasks/result` of {target}: the tool's result, now that the task completed.",
        "`tasks/result` 获取 {target}：任务已完成，现在取回工具的结果。",
        "/basic/utilities/tasks",
    ),
    (
        Row::TaskResult,
        Some(Era::Modern),
        "2025-11-25's `tasks/result` of {target}; 2026-07-28 has none (the result comes with `tasks/get`).",
        "2025-11-25 用 `tasks/result` 获取 {target}；2026-07-28 没有这个方法（结果随 `tasks/get` 返回）。",
        "/changelog",
    ),
    (
        Row::TaskResultAnswer,
        Some(Era::Legacy),
        "The tool's result, as a `tools/call` would have answered: {text} (isError: {isError}).",
        "工具的结果，与 `tools/call` 直接作答时相同：{text}（isError：{isError}）。",
        "/basic/utilities/tasks",
    ),
    (
        Row::TaskResultAnswer,
        Some(Era::Modern),
        "The tool's result: {text} (isError: {isError}). In 2026-07-28 it came with the last `tasks/get`.",
        "工具的结果：{text}（isError：{isError}）。在 2026-07-28 中，它随最后一次 `tasks/get` 返回。",
        "/changelog",
    ),
    (
        Row::ShowBrowsed,
        None,
        "The host shows what it read and got: {text}. Select each row above for its exchange, byte for byte.",
        "主机展示读取和获取到的内容：{text}。选中上面的每一行，可查看其逐字节的交换内容。",
        "/server",
    ),
];

/// Where the 2025-11-25 spec has the sections above that 2026-07-28 moved: it splits the
/// authorization page into pages and adds sections (response validation, refresh tokens).
const LEGACY_PATHS: &[(Row, &str)] = &[
    (
        Row::AuthChallenge,
        "/basic/authorization#protected-resource-metadata-discovery-requirements",
    ),
    (
        Row::AuthResourceMetadata,
        "/basic/authorization#protected-resource-metadata-discovery-requirements",
    ),
    (
        Row::AuthResourceMetadataResult,
        "/basic/authorization#authorization-server-location",
    ),
    (
        Row::AuthServerMetadata,
        "/basic/authorization#authorization-server-metadata-discovery",
    ),
    (
        Row::AuthServerMetadataResult,
        "/basic/authorization#authorization-server-metadata-discovery",
    ),
    (
        Row::AuthRegister,
        "/basic/authorization#dynamic-client-registration",
    ),
    (
        Row::AuthRegistered,
        "/basic/authorization#dynamic-client-registration",
    ),
    (
        Row::AuthOpen,
        "/basic/authorization#authorization-code-protection",
    ),
    (Row::AuthRedirect, "/basic/authorization#open-redirection"),
    (
        Row::AuthTokenResult,
        "/basic/authorization#token-audience-binding-and-validation",
    ),
    (Row::AuthRefresh, "/basic/authorization#token-theft"),
    (Row::AuthRefreshResult, "/basic/authorization#token-theft"),
];

/// The row's explanation in `lang` for `era`, with `{field}` filled from what the row carried,
/// and the spec link of that era. A value the row does not carry says why, in words: not known
/// yet, not received because the step failed or was skipped, or absent from what the run carried.
pub fn explain(row: Row, lang: Lang, era: Era, record: Option<&RowRecord>) -> (String, String) {
    let (template, path) = template(row, lang, era);
    let missing = missing(record.map(|r| r.status), lang);
    let text = fill(template, lang, missing, |field| {
        record.and_then(|r| r.field(field))
    });
    let base = match era {
        Era::Legacy => SPEC_LEGACY,
        Era::Modern => SPEC_MODERN,
    };
    (text, format!("{base}{path}"))
}

/// The template and spec path of `row` in `era` (an era's own entry first; in 2025-11-25 a
/// section that moved since is linked where that revision has it).
fn template(row: Row, lang: Lang, era: Era) -> (&'static str, &'static str) {
    let pick = |e: Option<Era>| {
        EXPLANATIONS
            .iter()
            .find(|(r, for_era, ..)| *r == row && *for_era == e)
    };
    let moved = LEGACY_PATHS
        .iter()
        .find(|(r, _)| era == Era::Legacy && *r == row)
        .map(|(_, path)| *path);
    pick(Some(era))
        .or_else(|| pick(None))
        .map(|(_, _, en, zh, path)| {
            (
                if lang == Lang::Zh { *zh } else { *en },
                moved.unwrap_or(path),
            )
        })
        .unwrap_or(("", ""))
}

/// What a placeholder reads when its row carries no payload, by the row's state.
fn missing(status: Option<RowStatus>, lang: Lang) -> &'static str {
    match (status, lang) {
        (Some(RowStatus::Failed), Lang::En) => "not received, this step failed",
        (Some(RowStatus::Failed), Lang::Zh) => "未收到，此步骤失败",
        (Some(RowStatus::Skipped), Lang::En) => "not reached, this step was skipped",
        (Some(RowStatus::Skipped), Lang::Zh) => "未到达，此步骤被跳过",
        (Some(RowStatus::Done), Lang::En) => "(none)",
        (Some(RowStatus::Done), Lang::Zh) => "（无）",
        (_, Lang::En) => "known once the run gets here",
        (_, Lang::Zh) => "运行到这里时才知道",
    }
}

/// `template` with each `{field}` replaced by its value; `missing` where the row has none.
fn fill(
    template: &str,
    lang: Lang,
    missing: &str,
    value: impl Fn(Field) -> Option<Shown>,
) -> String {
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
                    None => out.push_str(missing),
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
    use crate::record::payload::{Payload, fits};
    use crate::record::run::RowStatus;
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

    /// A payload of the kind each row finishes with, in `era`.
    fn sample(row: Row, era: Era) -> Option<Payload> {
        let call = Payload::ToolCall {
            tool: "get_weather".into(),
            arguments: json!({"location": "Tokyo"}),
            round: 1,
        };
        let result = Payload::ToolResult {
            text: "Sunny".into(),
            is_error: false,
            structured: None,
            output_check: None,
        };
        let llm = Payload::LlmCall {
            llm: "offline".into(),
            style: crate::llm::Style::FunctionCalling,
        };
        let tools = Payload::Tools {
            names: vec!["get_weather".into()],
            dropped: Vec::new(),
            ttl_ms: Some(1000),
        };
        let form = Payload::Form {
            message: "Which Springfield?".into(),
            schema: json!({}),
            state: Some("s".into()),
            round: 1,
        };
        let answer = Payload::FormAnswer {
            action: "accept".into(),
            content: Some(json!({"city": "Springfield, Illinois"})),
        };
        Some(match row {
            Row::Prepare => Payload::Server { url: "u".into() },
            Row::Initialize | Row::Discover => Payload::Requested {
                version: "2025-11-25".into(),
            },
            Row::DiscoverResult if era == Era::Legacy => Payload::Fallback {
                why: "HTTP 400".into(),
            },
            Row::DiscoverResult => Payload::Discovered {
                versions: vec!["2026-07-28".into()],
                server: Some("s 1".into()),
                capabilities: json!({}),
                ttl_ms: 0,
                cache_scope: Some("public".into()),
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
            Row::Elicit | Row::ElicitAsk => form,
            Row::ElicitAnswer | Row::ElicitReply => answer,
            Row::CallToolResult | Row::ResultToHost => result,
            Row::LlmAnswer => Payload::Text { text: "t".into() },
            Row::ShowAnswer => Payload::Answer { text: "a".into() },
            Row::AuthChallenge
            | Row::AuthResourceMetadata
            | Row::AuthResourceMetadataResult
            | Row::AuthServerMetadata
            | Row::AuthServerMetadataResult
            | Row::AuthRegister
            | Row::AuthRegistered
            | Row::AuthOpen
            | Row::AuthConsent
            | Row::AuthRedirect
            | Row::AuthToken
            | Row::AuthTokenResult
            | Row::AuthRetry
            | Row::AuthRefresh
            | Row::AuthRefreshResult => Payload::Auth {
                detail: "GET /.well-known/oauth-protected-resource/mcp".into(),
            },
            Row::Browse => Payload::Offers {
                capabilities: vec!["resources".into(), "prompts".into()],
            },
            Row::ListResourcesResult
            | Row::ListTemplatesResult
            | Row::ListPromptsResult
            | Row::Subscribed => Payload::Listed {
                items: vec!["weather://cities".into()],
                ttl_ms: Some(300_000),
                cache_scope: Some("public".into()),
            },
            Row::ReadResource
            | Row::Complete
            | Row::ReadTemplate
            | Row::GetPrompt
            | Row::Subscribe
            | Row::Updated
            | Row::Unsubscribe
            | Row::ReadUpdated => Payload::Target {
                target: "weather://city/{name}".into(),
                arguments: Some(json!({"name": ""})),
            },
            Row::CompleteResult => Payload::Completion {
                values: vec!["Tokyo".into()],
                total: Some(1),
                has_more: false,
            },
            Row::ReadResourceResult
            | Row::ReadTemplateResult
            | Row::GetPromptResult
            | Row::ReadUpdatedResult => Payload::Contents {
                target: "weather://city/Tokyo".into(),
                count: 1,
                summary: "application/json {}".into(),
                ttl_ms: Some(60_000),
                cache_scope: Some("public".into()),
            },
            Row::ShowBrowsed => Payload::Text { text: "t".into() },
            Row::TaskCall | Row::TaskResult => Payload::Target {
                target: "get_forecast".into(),
                arguments: Some(json!({"location": "Tokyo"})),
            },
            Row::TaskCreated | Row::TaskPoll | Row::TaskStatus => Payload::Task {
                id: "t-1".into(),
                status: "working".into(),
                message: Some("Forecasting day 1 of 3 for Tokyo".into()),
                poll_ms: Some(500),
                polls: 2,
            },
            Row::TaskResultAnswer => Payload::ToolResult {
                text: "Tokyo".into(),
                is_error: false,
                structured: None,
                output_check: None,
            },
            Row::Initialized
            | Row::ListToolsAsk
            | Row::ListTools
            | Row::CallTool
            | Row::Execute
            | Row::ListResources
            | Row::ListTemplates
            | Row::ListPrompts => {
                return None;
            }
        })
    }

    fn record(row: Row, era: Era) -> RowRecord {
        let mut run = crate::record::run::Run::new([row]);
        run.apply(crate::record::run::RunEvent::Done {
            row,
            at_ms: 0.0,
            payload: sample(row, era),
        });
        run.row(row).cloned().expect("row")
    }

    const ERAS: [Era; 2] = [Era::Legacy, Era::Modern];

    /// The diagrams drawn in `era`: its own two, the Authorization and the browse diagrams.
    fn diagrams(era: Era) -> impl Iterator<Item = &'static crate::diagram::Diagram> {
        crate::diagram::diagrams_for(era)
            .iter()
            .chain([crate::diagram::authorization(), crate::diagram::browse()])
    }

    #[test]
    fn every_diagram_row_has_an_explanation_in_both_languages() {
        for era in ERAS {
            for diagram in diagrams(era) {
                for row in diagram.rows() {
                    for lang in Lang::ALL {
                        let (text, link) = explain(row, lang, era, None);
                        assert!(!text.trim().is_empty(), "no explanation for {row}");
                        let base = if era == Era::Modern {
                            SPEC_MODERN
                        } else {
                            SPEC_LEGACY
                        };
                        assert!(link.starts_with(base), "{link}");
                    }
                    assert_ne!(
                        explain(row, Lang::En, era, None).0,
                        explain(row, Lang::Zh, era, None).0,
                        "{row}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_placeholder_is_a_value_its_row_carries() {
        for era in ERAS {
            for row in diagrams(era).flat_map(|d| d.rows()) {
                let sample = sample(row, era);
                assert!(fits(row, sample.as_ref()), "sample for {row}");
                let record = record(row, era);
                assert_eq!(record.status, RowStatus::Done);
                for lang in Lang::ALL {
                    let (template, _) = template(row, lang, era);
                    for name in placeholders(template) {
                        let field = Field::from_name(name).unwrap_or_else(|| {
                            panic!("{row} {era:?} {lang:?}: unknown {{{name}}}")
                        });
                        assert!(
                            record.field(field).is_some(),
                            "{row} {era:?} {lang:?}: {{{name}}} is not a value of its payload"
                        );
                    }
                    let (text, _) = explain(row, lang, era, Some(&record));
                    assert!(!text.contains('…'), "{row} {era:?} {lang:?}: {text}");
                }
            }
        }
    }

    #[test]
    fn every_row_is_explained_in_both_eras() {
        for &row in Row::ALL {
            for era in ERAS {
                for lang in Lang::ALL {
                    assert!(!template(row, lang, era).0.is_empty(), "{row} {era:?}");
                }
            }
        }
    }

    #[test]
    fn auth_rows_say_why_and_link_the_authorization_sections() {
        let auth = crate::diagram::authorization();
        for row in auth.rows() {
            let (en, modern_path) = template(row, Lang::En, Era::Modern);
            let (zh, _) = template(row, Lang::Zh, Era::Modern);
            assert_eq!(
                template(row, Lang::En, Era::Legacy).0,
                en,
                "one text for both eras"
            );
            // What the row carried, summed up by the host.
            assert!(en.contains("{detail}") && zh.contains("{detail}"), "{row}");
            assert!(
                ["RFC ", "OAuth 2.1", "PKCE"].iter().any(|s| en.contains(s)),
                "{row}: names no standard: {en}"
            );
            let optional = auth.message(row).unwrap().optional;
            assert_eq!(en.starts_with("Optional:"), optional, "{row}");
            assert_eq!(zh.starts_with("可选："), optional, "{row}");
            for era in ERAS {
                let (_, link) = explain(row, Lang::En, era, None);
                let base = if era == Era::Modern {
                    SPEC_MODERN
                } else {
                    SPEC_LEGACY
                };
                let path = link.strip_prefix(base).expect("the era's spec");
                assert!(path.starts_with("/basic/authorization"), "{row}: {link}");
                let (page, anchor) = path.split_once('#').expect("a section");
                assert!(!anchor.is_empty() && !anchor.contains('#'), "{link}");
                // 2025-11-25 has one authorization page; 2026-07-28 splits it.
                if era == Era::Legacy {
                    assert_eq!(page, "/basic/authorization", "{row}: {link}");
                } else {
                    assert_eq!(path, modern_path);
                }
            }
        }
        let link = |row, era| explain(row, Lang::En, era, None).1;
        assert_eq!(
            link(Row::AuthRegister, Era::Modern),
            format!(
                "{SPEC_MODERN}/basic/authorization/client-registration#dynamic-client-registration"
            )
        );
        assert_eq!(
            link(Row::AuthRegister, Era::Legacy),
            format!("{SPEC_LEGACY}/basic/authorization#dynamic-client-registration")
        );
        assert_eq!(
            link(Row::AuthRetry, Era::Legacy),
            format!("{SPEC_LEGACY}/basic/authorization#step-up-authorization-flow")
        );
        // Only rows of the Authorization diagram have moved sections.
        assert!(LEGACY_PATHS.iter().all(|(row, _)| row.is_auth()));
        let mut record = record(Row::AuthChallenge, Era::Modern);
        let (text, _) = explain(Row::AuthChallenge, Lang::En, Era::Modern, Some(&record));
        assert!(
            text.ends_with("Here: GET /.well-known/oauth-protected-resource/mcp."),
            "{text}"
        );
        record.status = RowStatus::Skipped;
        record.payload = None;
        let (text, _) = explain(Row::AuthRegister, Lang::Zh, Era::Modern, Some(&record));
        assert!(text.contains("本次：未到达，此步骤被跳过"), "{text}");
    }

    #[test]
    fn each_era_explains_its_own_rows() {
        let modern = explain(Row::CallTool, Lang::En, Era::Modern, None).0;
        let legacy = explain(Row::CallTool, Lang::En, Era::Legacy, None).0;
        assert!(modern.contains("Mcp-Name"), "{modern}");
        assert!(!legacy.contains("Mcp-Name"), "{legacy}");
        let link = explain(Row::Elicit, Lang::En, Era::Modern, None).1;
        assert_eq!(link, format!("{SPEC_MODERN}/basic/patterns/mrtr"));
    }

    #[test]
    fn placeholders_are_filled_from_live_values() {
        let mut record = record(Row::InitializeResult, Era::Legacy);
        let (text, _) = explain(Row::InitializeResult, Lang::En, Era::Legacy, Some(&record));
        assert!(text.contains("chose (2025-11-25)"), "{text}");
        assert!(text.contains("Session id: (none)."), "{text}");
        record.payload = None;
        record.status = RowStatus::Failed;
        let (text, _) = explain(Row::InitializeResult, Lang::En, Era::Legacy, Some(&record));
        assert!(
            text.contains("chose (not received, this step failed)"),
            "{text}"
        );
        record.status = RowStatus::Skipped;
        let (text, _) = explain(Row::InitializeResult, Lang::Zh, Era::Legacy, Some(&record));
        assert!(text.contains("未到达"), "{text}");
        let (text, _) = explain(Row::InitializeResult, Lang::En, Era::Legacy, None);
        assert!(
            text.contains("chose (known once the run gets here)"),
            "{text}"
        );
        assert_eq!(fill("{tool} {nope}", Lang::En, "?", |_| None), "? ?");
        assert_eq!(
            fill("JSON {\"x\": 1}", Lang::En, "?", |_| None),
            "JSON {\"x\": 1}"
        );
    }
}
