//! The third diagram, "Authorization (OAuth 2.1)": what happens when an MCP request of diagram 1 or
//! 2 meets a protected server (MCP authorization, both eras). Drawn in the tutorial's style, with
//! its own participants: no LLM, and the authorization server on the right.
//!
//! Labels say what goes over the wire (method, path, parameter names), never a value that could be
//! a secret: the run's real values are filled in by the live labels, already redacted.

use super::row_spec::row_specs;
use super::rows::Row;
use super::spec::Actor::{AuthServer, Client, Host, Server, User};
use super::spec::NotePlacement::{Over, Over1};
use super::spec::{Diagram, Item, Participant, Text, dashed, note, participant, solid, under};

row_specs! {
    AuthChallenge {
        carries: [Auth],
        both: (
            "/basic/authorization/authorization-server-discovery#protected-resource-metadata-discovery-requirements",
            "The MCP server refused the request: 401 Unauthorized means no valid access token, 403 with error=\"insufficient_scope\" a token that lacks a scope. Its WWW-Authenticate: Bearer challenge says where the server's metadata is (resource_metadata, RFC 9728) and which scopes this request needs (scope, RFC 6750). The request itself belongs to diagram 1 or 2; it goes again at step 13. Here: {detail}.",
            "MCP服务器拒绝了请求：401 Unauthorized 表示没有有效的访问令牌，403 且 error=\"insufficient_scope\" 表示令牌缺少某个范围。它的 WWW-Authenticate: Bearer 质询给出服务器元数据的位置（resource_metadata，RFC 9728）和此请求需要的范围（scope，RFC 6750）。请求本身属于图1或图2，会在第13步再次发送。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#protected-resource-metadata-discovery-requirements",
    },
    AuthResourceMetadata {
        carries: [Auth],
        both: (
            "/basic/authorization/authorization-server-discovery#protected-resource-metadata-discovery-requirements",
            "The client asks the MCP server who issues its tokens: its Protected Resource Metadata (RFC 9728). It uses the resource_metadata URL of the challenge; without one it tries /.well-known/oauth-protected-resource with the endpoint's path, then at the root. Look at the URL: {detail}.",
            "客户端询问MCP服务器由谁为它签发令牌：即它的受保护资源元数据（RFC 9728）。客户端使用质询中的 resource_metadata URL；没有时先尝试带端点路径的 /.well-known/oauth-protected-resource，再尝试根路径。看看这个URL：{detail}。",
        ),
        legacy_path: "/basic/authorization#protected-resource-metadata-discovery-requirements",
    },
    AuthResourceMetadataResult {
        carries: [Auth],
        both: (
            "/basic/authorization/authorization-server-discovery#authorization-server-location",
            "The Protected Resource Metadata (RFC 9728) names the resource (it must be this MCP server's URL, or the client stops), the authorization_servers that issue tokens for it, and scopes_supported, the scopes to ask for when the challenge named none. Here: {detail}.",
            "受保护资源元数据（RFC 9728）给出 resource（必须是这个MCP服务器的URL，否则客户端停止）、为它签发令牌的 authorization_servers，以及 scopes_supported：质询没有给出范围时要申请的范围。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#authorization-server-location",
    },
    AuthServerMetadata {
        carries: [Auth],
        both: (
            "/basic/authorization/authorization-server-discovery#authorization-server-metadata-discovery",
            "The client fetches the authorization server's metadata: RFC 8414's /.well-known/oauth-authorization-server first, then OpenID Connect Discovery's openid-configuration, with the issuer's path inserted when it has one. MCP clients must support both. Here: {detail}.",
            "客户端获取授权服务器的元数据：先试 RFC 8414 的 /.well-known/oauth-authorization-server，再试 OpenID Connect Discovery 的 openid-configuration；issuer 带路径时把路径插入其中。MCP客户端必须两种都支持。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#authorization-server-metadata-discovery",
    },
    AuthServerMetadataResult {
        carries: [Auth],
        both: (
            "/basic/authorization/authorization-server-discovery#authorization-server-metadata-discovery",
            "The authorization server's endpoints and abilities. Its issuer must be exactly the one the metadata URL was built from (RFC 8414), or the metadata is not used; code_challenge_methods_supported must list S256, or there is no PKCE and the client must not go on; a registration_endpoint means dynamic registration is possible. Here: {detail}.",
            "授权服务器的端点和能力。issuer 必须与构造元数据URL所用的完全一致（RFC 8414），否则不使用这份元数据；code_challenge_methods_supported 必须列出 S256，否则没有PKCE，客户端不能继续；有 registration_endpoint 表示可以动态注册。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#authorization-server-metadata-discovery",
    },
    AuthRegister {
        carries: [Auth],
        both: (
            "/basic/authorization/client-registration#dynamic-client-registration",
            "Optional: dynamic client registration (RFC 7591) gets a client_id without the user. It comes last: a pre-registered client first, then a client ID metadata document (an HTTPS URL as the client_id). 2026-07-28 deprecates it and requires an application_type (native or web). Here: {detail}.",
            "可选：动态客户端注册（RFC 7591）无需用户参与即可获得 client_id。它排在最后：先用预注册的客户端，其次是客户端ID元数据文档（以HTTPS URL作为 client_id）。2026-07-28 弃用了它，并要求提供 application_type（native 或 web）。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#dynamic-client-registration",
    },
    AuthRegistered {
        carries: [Auth],
        both: (
            "/basic/authorization/client-registration#dynamic-client-registration",
            "Optional: the authorization server registered the client and returns its client_id (RFC 7591; a public client gets no secret). The registration belongs to this authorization server only, known by its issuer. Here: {detail}.",
            "可选：授权服务器注册了客户端并返回其 client_id（RFC 7591；公开客户端没有密钥）。这个注册只属于这一个授权服务器，以其 issuer 区分。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#dynamic-client-registration",
    },
    AuthOpen {
        carries: [Auth],
        both: (
            "/basic/authorization/security-considerations#authorization-code-protection",
            "The host opens the authorization page for the user. The URL carries code_challenge, the S256 hash of a verifier only the client knows (PKCE, required by OAuth 2.1), a random state, the scopes, and resource, the MCP server's canonical URI (RFC 8707). Here: {detail}.",
            "主机为用户打开授权页面。URL 携带 code_challenge（只有客户端知道的 verifier 的 S256 哈希，即 OAuth 2.1 要求的PKCE）、随机的 state、范围，以及 resource（MCP服务器的规范URI，RFC 8707）。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#authorization-code-protection",
    },
    AuthConsent {
        carries: [Auth],
        both: (
            "/basic/authorization#authorization-flow-steps",
            "The user logs in at the authorization server and consents to the scopes for this client (the authorization code grant of OAuth 2.1). It is the only step that needs the user, and the client never sees the user's credentials. Here: {detail}.",
            "用户在授权服务器登录，并同意为这个客户端授予这些范围（OAuth 2.1 的授权码模式）。这是唯一需要用户参与的步骤，客户端永远看不到用户的凭据。本次：{detail}。",
        ),
    },
    AuthRedirect {
        carries: [Auth],
        both: (
            "/basic/authorization#authorization-response-validation",
            "The authorization server sends the browser back to the redirect_uri with a one-time code, the state and iss. Before the code goes anywhere the client checks that state is the one it sent and iss the issuer it recorded (RFC 9207, against mix-up attacks). Here: {detail}.",
            "授权服务器把浏览器重定向回 redirect_uri，带上一次性的授权码、state 和 iss。在授权码被发往任何地方之前，客户端先检查 state 是否是它发出的、iss 是否是它记下的 issuer（RFC 9207，防止混淆攻击）。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#open-redirection",
    },
    AuthToken {
        carries: [Auth],
        both: (
            "/basic/authorization#resource-parameter-implementation",
            "The client trades the code for tokens at the token endpoint. code_verifier proves it is the client that started the flow (PKCE); resource, the same as in the authorization request, asks for a token for this MCP server only (RFC 8707). Here: {detail}.",
            "客户端在令牌端点用授权码换取令牌。code_verifier 证明它就是发起流程的客户端（PKCE）；resource 与授权请求中的相同，只为这个MCP服务器申请令牌（RFC 8707）。本次：{detail}。",
        ),
    },
    AuthTokenResult {
        carries: [Auth],
        both: (
            "/basic/authorization/security-considerations#token-audience-binding-and-validation",
            "The access token (Bearer), how long it lasts (expires_in), perhaps a refresh token, and the scopes granted. The token is bound to this MCP server as its audience (RFC 8707): the server must reject tokens issued for anything else, and the client must not send it elsewhere. The record never shows a token. Here: {detail}.",
            "访问令牌（Bearer）、有效期（expires_in）、可能还有刷新令牌，以及授予的范围。令牌以这个MCP服务器为受众（RFC 8707）：服务器必须拒绝为其他目标签发的令牌，客户端也不能把它发往别处。记录中从不显示令牌。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#token-audience-binding-and-validation",
    },
    AuthRetry {
        carries: [Auth],
        both: (
            "/basic/authorization#step-up-authorization-flow",
            "The interrupted MCP request goes again with Authorization: Bearer (RFC 6750), as every request does from now on (a token never goes in the URL). If a later request meets 403 insufficient_scope, the client starts again at step 1 asking for the union of the scopes so far and the new ones (step-up), a few times at most. Here: {detail}.",
            "被中断的MCP请求带着 Authorization: Bearer（RFC 6750）再次发送，之后的每个请求都如此（令牌从不放在URL中）。之后的请求若遇到 403 insufficient_scope，客户端从第1步重新开始，申请至今的范围与新范围的并集（逐步提升授权），最多几次。本次：{detail}。",
        ),
    },
    AuthRefresh {
        carries: [Auth],
        both: (
            "/basic/authorization#refresh-tokens",
            "Optional: the access token ran out, so the client sends its refresh token (grant_type=refresh_token) with the same resource (RFC 8707) for a new one, without the user. Whether refresh tokens are issued at all is the authorization server's choice. Here: {detail}.",
            "可选：访问令牌已过期，客户端发送刷新令牌（grant_type=refresh_token）和相同的 resource（RFC 8707）来获取新的令牌，无需用户参与。是否签发刷新令牌由授权服务器决定。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#token-theft",
    },
    AuthRefreshResult {
        carries: [Auth],
        both: (
            "/basic/authorization/security-considerations#token-theft",
            "Optional: a new access token. For a public client the authorization server must rotate the refresh token (OAuth 2.1): the old one stops working, so a stolen one is worth little. Here: {detail}.",
            "可选：新的访问令牌。对公开客户端，授权服务器必须轮换刷新令牌（OAuth 2.1）：旧的随即失效，被盗的刷新令牌也就没什么用。本次：{detail}。",
        ),
        legacy_path: "/basic/authorization#token-theft",
    },
}

const PARTICIPANTS: [Participant; 5] = [
    participant(User, None),
    under(Host, "in the browser", "在浏览器中"),
    under(Client, "the OAuth 2.1 client", "OAuth 2.1 客户端"),
    under(Server, "Protected Resource", "受保护资源"),
    under(
        AuthServer,
        "OAuth 2.1, issues tokens",
        "OAuth 2.1，签发令牌",
    ),
];

static AUTHORIZATION_ITEMS: [Item; 27] = [
    note(Over(User, AuthServer), "The MCP server is an OAuth 2.1 protected resource: without a valid access token it answers no MCP request", "MCPServer是OAuth 2.1受保护资源：没有有效的访问令牌，它不回答任何MCP请求"),
    Item::Message(dashed(Row::AuthChallenge, Server, Client, "401 Unauthorized (or 403 insufficient_scope)\nWWW-Authenticate: Bearer resource_metadata=\"…\", scope=\"…\"", "401 Unauthorized（或 403 insufficient_scope）\nWWW-Authenticate: Bearer resource_metadata=\"…\", scope=\"…\"").numbered(1).activating()),
    note(Over(Client, Server), "The request that got this answer belongs to diagram 1 or 2; the client keeps it to send again once it has a token", "收到此应答的请求属于图1或图2；客户端保留它，拿到令牌后再次发送"),
    Item::Message(solid(Row::AuthResourceMetadata, Client, Server, "GET /.well-known/oauth-protected-resource/mcp\n(Protected Resource Metadata, RFC 9728)", "GET /.well-known/oauth-protected-resource/mcp\n（受保护资源元数据，RFC 9728）").numbered(2).activating()),
    note(Over(Client, Server), "The URL from resource_metadata in the challenge, else the well-known paths (the endpoint's path first, then the root)", "使用质询中 resource_metadata 的URL，否则依次尝试well-known路径（先带端点路径，再到根路径）"),
    Item::Message(dashed(Row::AuthResourceMetadataResult, Server, Client, "Protected Resource Metadata (Response)\n{resource, authorization_servers, scopes_supported}", "受保护资源元数据 (响应)\n{resource, authorization_servers, scopes_supported}").numbered(3).deactivating()),
    note(Over(Client, Server), "resource must name this MCP server; authorization_servers says where to get a token", "resource 必须指向这个MCP服务器；authorization_servers 指明去哪里获取令牌"),
    Item::Message(solid(Row::AuthServerMetadata, Client, AuthServer, "GET /.well-known/oauth-authorization-server\n(RFC 8414; or /.well-known/openid-configuration)", "GET /.well-known/oauth-authorization-server\n（RFC 8414；或 /.well-known/openid-configuration）").numbered(4).activating()),
    Item::Message(dashed(Row::AuthServerMetadataResult, AuthServer, Client, "Authorization Server Metadata (Response)\n{issuer, authorization_endpoint, token_endpoint, registration_endpoint, code_challenge_methods_supported: [S256]}", "授权服务器元数据 (响应)\n{issuer, authorization_endpoint, token_endpoint, registration_endpoint, code_challenge_methods_supported: [S256]}").numbered(5).deactivating()),
    note(Over(Client, AuthServer), "issuer must be exactly the one the metadata URL was built from; without S256 in code_challenge_methods_supported there is no PKCE, and the client stops", "issuer 必须与构造元数据URL所用的完全一致；code_challenge_methods_supported 中没有 S256 就没有PKCE，客户端就此停止"),
    note(Over(Client, AuthServer), "A client ID first: a pre-registered client, else a client ID metadata document (an HTTPS URL as client_id); registration only as the fallback (deprecated in 2026-07-28)", "先要有客户端ID：优先使用预注册的客户端，其次是客户端ID元数据文档（以HTTPS URL作为 client_id）；动态注册只是后备（2026-07-28 中已弃用）"),
    Item::Message(solid(Row::AuthRegister, Client, AuthServer, "(Optional) POST /register (RFC 7591)\n{client_name, redirect_uris, application_type}", "(可选) POST /register (RFC 7591)\n{client_name, redirect_uris, application_type}").numbered(6).optional().activating()),
    Item::Message(dashed(Row::AuthRegistered, AuthServer, Client, "(Optional) Registered client (Response)\n{client_id}", "(可选) 已注册的客户端 (响应)\n{client_id}").numbered(7).optional().deactivating()),
    note(Over1(Client), "Client makes a PKCE code_verifier and its S256 code_challenge and a random state, picks the scopes (the challenge's, else scopes_supported) and records the issuer", "客户端生成PKCE的 code_verifier 及其 S256 code_challenge 和随机的 state，选定范围（优先用质询中的，否则用 scopes_supported），并记下 issuer"),
    Item::Message(solid(Row::AuthOpen, Host, User, "Open the authorization page\nGET /authorize [response_type=code, client_id, code_challenge (S256), state, scope, resource]", "打开授权页面\nGET /authorize [response_type=code, client_id, code_challenge (S256), state, scope, resource]").numbered(8)),
    Item::Message(solid(Row::AuthConsent, User, AuthServer, "Log in and consent\n(to these scopes, for this client and this MCP server)", "登录并同意\n（为此客户端和此MCP服务器授予这些范围）").numbered(9)),
    Item::Message(dashed(Row::AuthRedirect, AuthServer, Host, "Redirect back to redirect_uri\n[code, state, iss]", "重定向回 redirect_uri\n[code, state, iss]").numbered(10)),
    note(Over(Host, Client), "The host hands the redirect to its client: state must be the one sent, iss the recorded issuer (RFC 9207); otherwise the code is thrown away", "主机把重定向交给客户端：state 必须与发出的一致，iss 必须是记下的 issuer（RFC 9207）；否则丢弃授权码"),
    Item::Message(solid(Row::AuthToken, Client, AuthServer, "POST /token (Token Request)\n[grant_type=authorization_code, code, code_verifier, redirect_uri, client_id, resource]", "POST /token (令牌请求)\n[grant_type=authorization_code, code, code_verifier, redirect_uri, client_id, resource]").numbered(11).activating()),
    note(Over(Client, AuthServer), "code_verifier proves that this client asked for the code (PKCE); resource binds the token to this MCP server (RFC 8707)", "code_verifier 证明授权码是这个客户端申请的（PKCE）；resource 把令牌绑定到这个MCP服务器（RFC 8707）"),
    Item::Message(dashed(Row::AuthTokenResult, AuthServer, Client, "Tokens (Response)\n{access_token, token_type: Bearer, expires_in, refresh_token, scope}", "令牌 (响应)\n{access_token, token_type: Bearer, expires_in, refresh_token, scope}").numbered(12).deactivating()),
    note(Over(Client, AuthServer), "The access token is for this MCP server only (its audience); the client sends it nowhere else", "访问令牌只用于这个MCP服务器（它的受众）；客户端不会把它发往别处"),
    Item::Message(solid(Row::AuthRetry, Client, Server, "The MCP request again\nAuthorization: Bearer <access token>", "再次发送MCP请求\nAuthorization: Bearer <访问令牌>").numbered(13).deactivating()),
    note(Over(Client, Server), "Every later request carries the token. A later 403 insufficient_scope starts again at 1, asking for every scope so far plus the new ones (step-up)", "之后的每个请求都携带令牌。之后若收到 403 insufficient_scope，就从第1步重新开始，申请至今所有的范围加上新的范围（逐步提升授权）"),
    note(Over(Client, AuthServer), "When the access token expires, the refresh token gets a new one without asking the user again", "访问令牌过期时，用刷新令牌获取新的访问令牌，无需再次询问用户"),
    Item::Message(solid(Row::AuthRefresh, Client, AuthServer, "(Optional) POST /token (Refresh Request)\n[grant_type=refresh_token, refresh_token, client_id, resource]", "(可选) POST /token (刷新请求)\n[grant_type=refresh_token, refresh_token, client_id, resource]").optional().activating()),
    Item::Message(dashed(Row::AuthRefreshResult, AuthServer, Client, "(Optional) New tokens (Response)\n{access_token, expires_in, refresh_token (rotated)}", "(可选) 新的令牌 (响应)\n{access_token, expires_in, refresh_token（已轮换）}").optional().deactivating()),
];

static AUTHORIZATION: Diagram = Diagram {
    id: "da",
    title: Text::new("Authorization (OAuth 2.1)", "授权（OAuth 2.1）"),
    participants: &PARTICIPANTS,
    items: &AUTHORIZATION_ITEMS,
};

/// The Authorization diagram (id `"da"`), the same in both eras.
pub fn authorization() -> &'static Diagram {
    &AUTHORIZATION
}
