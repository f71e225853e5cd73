//! The third diagram, "Authorization (OAuth 2.1)": what happens when an MCP request of diagram 1 or
//! 2 meets a protected server (MCP authorization, both eras). Drawn in the tutorial's style, with
//! its own participants: no LLM, and the authorization server on the right.
//!
//! Labels say what goes over the wire (method, path, parameter names), never a value that could be
//! a secret: the run's real values are filled in by the live labels, already redacted.

use super::original::{dashed, note, solid};
use super::rows::Row;
use super::spec::Actor::{AuthServer, Client, Host, Server, User};
use super::spec::NotePlacement::{Over, Over1};
use super::spec::{Diagram, Item, Participant, Text};

const PARTICIPANTS: [Participant; 5] = [
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
        subtitle: Some(Text::new("the OAuth 2.1 client", "OAuth 2.1 客户端")),
    },
    Participant {
        actor: Server,
        name: "MCPServer (e.g., Tool Server)",
        subtitle: Some(Text::new("Protected Resource", "受保护资源")),
    },
    Participant {
        actor: AuthServer,
        name: "Authorization Server",
        subtitle: Some(Text::new("OAuth 2.1, issues tokens", "OAuth 2.1，签发令牌")),
    },
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
