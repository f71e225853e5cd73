//! The consent page: who asks, for which scopes, for which resource, and where the answer goes;
//! Approve and Deny post the held request's id back to the server. Every value is escaped.

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
};
use reqwest::Url;

use crate::auth::{
    DECISION_PATH,
    server::reply::{escape_html, page_headers},
    server::store::Pending,
    types::{MCP_BASIC, WEATHER_READ},
};

/// What each scope lets the client do, for the page: the guard's rules (`bearer`) in words.
fn scope_meaning(scope: &str) -> &'static str {
    match scope {
        MCP_BASIC => {
            "use the MCP endpoint: discover the server; list its tools, resources and prompts; \
             read the list of cities and the icon; complete city names; no weather report"
        }
        WEATHER_READ => {
            "read weather reports: call get_weather, read a city's report \
             (weather://city/…), get the weather_report prompt that embeds one"
        }
        _ => "",
    }
}

/// The page for `pending`, held under `request_id`.
pub fn page(pending: &Pending, request_id: &str) -> Response {
    let client = &pending.grant.client;
    let scopes: String = pending
        .grant
        .scope
        .to_string()
        .split(' ')
        .map(|scope| {
            format!(
                "<li><code>{}</code> — {}</li>",
                escape_html(scope),
                escape_html(scope_meaning(scope))
            )
        })
        .collect();
    let body = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authorize {name}</title>
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; }}
code {{ background: #8882; padding: 0 .25rem; border-radius: 3px; word-break: break-all; }}
button {{ font: inherit; padding: .4rem 1.2rem; margin-right: .5rem; }}
</style></head>
<body><main>
<h1>Authorize access to the weather server</h1>
<p><strong>{name}</strong> (client_id <code>{id}</code>) asks for:</p>
<ul>{scopes}</ul>
<p>Resource: <code>{resource}</code></p>
<p>Your answer goes back to <code>{redirect}</code>.</p>
<form method="post" action="{action}">
<input type="hidden" name="request" value="{request_id}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<p><small>A demo authorization server: there are no user accounts; approving issues a token to
this client.</small></p>
</main></body></html>
"#,
        name = escape_html(client.display_name()),
        id = escape_html(client.id.as_str()),
        resource = escape_html(&pending.grant.resource),
        redirect = escape_html(&pending.redirect_uri),
        action = DECISION_PATH,
        request_id = escape_html(request_id),
    );
    let target = Url::parse(&pending.redirect_uri)
        .ok()
        .map(|url| url.origin().ascii_serialization());
    (StatusCode::OK, page_headers(target.as_deref()), body).into_response()
}
