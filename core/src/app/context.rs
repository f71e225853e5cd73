//! What the host tells an app about itself: `ui/initialize`'s result (the host's name, what it
//! honours, and the context: theme, the page's colours as the extension's CSS variables,
//! locale, the frame's room, the tool the app belongs to) and the later changes of it.

use serde_json::{Map, Value, json};

use super::policy::is_plain_source;
use super::resource::AppResource;

/// The extension's revision this host speaks.
pub const APPS_VERSION: &str = "2026-01-26";

/// The page's colours (its CSS variables) under the extension's names: the app's styles follow
/// the page's theme.
pub const STYLE_VARIABLES: &[(&str, &str)] = &[
    ("--color-background-primary", "--mf-bg"),
    ("--color-text-primary", "--mf-fg"),
    ("--color-text-secondary", "--mf-muted"),
    ("--color-border-primary", "--mf-border"),
    ("--color-text-danger", "--mf-fail"),
    ("--color-ring-primary", "--mf-host"),
];

/// The page as the host describes it to an app.
#[derive(Debug, Clone, PartialEq)]
pub struct HostFacts {
    /// `true` when the page is dark.
    pub dark: bool,
    /// The page's language as BCP 47 (`en`, `zh-CN`).
    pub locale: String,
    /// The extension's variables with the page's values ([`STYLE_VARIABLES`]).
    pub variables: Vec<(String, String)>,
    /// The room the frame has: its width, and the most height it may grow to.
    pub width: u32,
    pub max_height: u32,
}

impl HostFacts {
    /// The `hostContext` (all of it: also what `host-context-changed` sends).
    pub fn context(&self, tool: &Value, call_id: Option<&Value>) -> Value {
        let variables: Map<String, Value> = self
            .variables
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        let mut context = json!({
            "theme": if self.dark { "dark" } else { "light" },
            "styles": { "variables": variables },
            "displayMode": "inline",
            "availableDisplayModes": ["inline"],
            "containerDimensions": { "width": self.width, "maxHeight": self.max_height },
            "locale": self.locale,
            "platform": "web",
            "toolInfo": { "tool": tool },
        });
        if let Some(id) = call_id {
            context["toolInfo"]["id"] = id.clone();
        }
        context
    }

    /// What changed between `self` and `now`, as `host-context-changed` sends it (`None`: nothing).
    pub fn changes(&self, now: &HostFacts) -> Option<Value> {
        let mut changed = Map::new();
        if self.dark != now.dark || self.variables != now.variables {
            let full = now.context(&Value::Null, None);
            changed.insert("theme".into(), full["theme"].clone());
            changed.insert("styles".into(), full["styles"].clone());
        }
        if self.locale != now.locale {
            changed.insert("locale".into(), json!(now.locale));
        }
        if (self.width, self.max_height) != (now.width, now.max_height) {
            changed.insert(
                "containerDimensions".into(),
                json!({ "width": now.width, "maxHeight": now.max_height }),
            );
        }
        (!changed.is_empty()).then_some(Value::Object(changed))
    }
}

/// `ui/initialize`'s result: who the host is, what it honours for this app (its declared
/// domains and permissions granted as asked), and the context.
pub fn initialize_result(app: &AppResource, context: Value) -> Value {
    let mut sandbox = json!({});
    if app.csp.declared {
        // What the policy holds: a refused entry is not granted.
        let kept = |list: &[String]| -> Vec<String> {
            list.iter()
                .filter(|e| is_plain_source(e))
                .cloned()
                .collect()
        };
        sandbox["csp"] = json!({
            "connectDomains": kept(&app.csp.connect),
            "resourceDomains": kept(&app.csp.resource),
            "frameDomains": kept(&app.csp.frame),
            "baseUriDomains": kept(&app.csp.base_uri),
        });
    }
    let p = &app.permissions;
    let granted: Map<String, Value> = [
        (p.camera, "camera"),
        (p.microphone, "microphone"),
        (p.geolocation, "geolocation"),
        (p.clipboard_write, "clipboardWrite"),
    ]
    .into_iter()
    .filter(|(asked, _)| *asked)
    .map(|(_, name)| (name.to_owned(), json!({})))
    .collect();
    if !granted.is_empty() {
        sandbox["permissions"] = Value::Object(granted);
    }
    json!({
        "protocolVersion": APPS_VERSION,
        "hostInfo": { "name": "mcp-flow", "version": env!("CARGO_PKG_VERSION") },
        "hostCapabilities": {
            "openLinks": {},
            "serverTools": {},
            "serverResources": {},
            "logging": {},
            "message": { "text": {} },
            "updateModelContext": { "text": {} },
            "sandbox": sandbox,
        },
        "hostContext": context,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::resource::{CspDomains, Permissions};

    fn facts() -> HostFacts {
        HostFacts {
            dark: false,
            locale: "en".into(),
            variables: vec![("--color-background-primary".into(), "#ffffff".into())],
            width: 480,
            max_height: 600,
        }
    }

    fn app() -> AppResource {
        AppResource {
            uri: "ui://weather/card.html".into(),
            html: String::new(),
            csp: CspDomains::default(),
            permissions: Permissions::default(),
            prefers_border: None,
        }
    }

    #[test]
    fn the_context_describes_the_page_and_the_tool() {
        let tool = json!({"name": "get_weather", "inputSchema": {"type": "object"}});
        let c = facts().context(&tool, Some(&json!(7)));
        assert_eq!(c["theme"], "light");
        assert_eq!(
            c["styles"]["variables"]["--color-background-primary"],
            "#ffffff"
        );
        assert_eq!(
            c["containerDimensions"],
            json!({"width": 480, "maxHeight": 600})
        );
        assert_eq!(c["locale"], "en");
        // No time zone: the browser's would bring Intl's glue into the page's first load.
        assert!(c.get("timeZone").is_none());
        assert_eq!(c["platform"], "web");
        assert_eq!(c["toolInfo"], json!({"tool": tool, "id": 7}));
    }

    #[test]
    fn only_what_changed_is_sent_again() {
        let before = facts();
        assert_eq!(before.changes(&before), None);
        let mut dark = facts();
        dark.dark = true;
        dark.variables[0].1 = "#0f172a".into();
        let changed = before.changes(&dark).expect("changed");
        assert_eq!(changed["theme"], "dark");
        assert_eq!(
            changed["styles"]["variables"]["--color-background-primary"],
            "#0f172a"
        );
        assert!(changed.get("locale").is_none(), "{changed}");
        let mut chinese = facts();
        chinese.locale = "zh-CN".into();
        assert_eq!(before.changes(&chinese), Some(json!({"locale": "zh-CN"})));
    }

    #[test]
    fn the_result_grants_what_the_app_declared() {
        let plain = initialize_result(&app(), json!({}));
        assert_eq!(plain["protocolVersion"], "2026-01-26");
        assert_eq!(plain["hostInfo"]["name"], "mcp-flow");
        assert_eq!(plain["hostCapabilities"]["sandbox"], json!({}));
        assert_eq!(plain["hostCapabilities"]["serverTools"], json!({}));
        let mut asking = app();
        asking.csp = CspDomains {
            connect: vec!["https://api.example.com".into(), "* 'unsafe-eval'".into()],
            declared: true,
            ..Default::default()
        };
        asking.permissions.geolocation = true;
        let r = initialize_result(&asking, json!({}));
        let sandbox = &r["hostCapabilities"]["sandbox"];
        assert_eq!(
            sandbox["csp"]["connectDomains"],
            json!(["https://api.example.com"])
        );
        assert_eq!(sandbox["permissions"], json!({"geolocation": {}}));
    }
}
