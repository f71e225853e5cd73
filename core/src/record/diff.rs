//! What changed between two runs: the capabilities each server declared and the tools,
//! resources, templates and prompts it listed (schemas and all), read from the exchanges each
//! run recorded. Works for any two records: two live runs, or a run and a loaded recording.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use mcp_flow_client::record::Exchange;

/// A kind of thing a server offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Capability,
    Tool,
    Resource,
    Template,
    Prompt,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Capability => "capability",
            Kind::Tool => "tool",
            Kind::Resource => "resource",
            Kind::Template => "resource template",
            Kind::Prompt => "prompt",
        }
    }

    pub fn name_zh(self) -> &'static str {
        match self {
            Kind::Capability => "能力",
            Kind::Tool => "工具",
            Kind::Resource => "资源",
            Kind::Template => "资源模板",
            Kind::Prompt => "提示",
        }
    }

    /// The list method, its result's key and each item's name.
    fn listing(self) -> Option<(&'static str, &'static str, &'static str)> {
        match self {
            Kind::Capability => None,
            Kind::Tool => Some(("tools/list", "tools", "name")),
            Kind::Resource => Some(("resources/list", "resources", "uri")),
            Kind::Template => Some((
                "resources/templates/list",
                "resourceTemplates",
                "uriTemplate",
            )),
            Kind::Prompt => Some(("prompts/list", "prompts", "name")),
        }
    }

    const ALL: [Kind; 5] = [
        Kind::Capability,
        Kind::Tool,
        Kind::Resource,
        Kind::Template,
        Kind::Prompt,
    ];
}

/// What a server offered in one run, each item by its name. A kind the run never listed is
/// absent (`None`): not the same as an empty list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Offer(BTreeMap<Kind, BTreeMap<String, Value>>);

impl Offer {
    /// Read from a run's exchanges: the capabilities of its `initialize` or `server/discover`
    /// answer, and the items of its list answers (pages of one list in a row are joined; a later
    /// list of the same kind replaces an earlier one).
    pub fn of(exchanges: &[Exchange]) -> Self {
        let mut offer = BTreeMap::new();
        let mut last_method: Option<&str> = None;
        for x in exchanges.iter().filter(|x| x.replay.is_none()) {
            let (Some(method), Some(response)) = (x.rpc_method.as_deref(), x.rpc_response()) else {
                continue;
            };
            let Some(result) = response.get("result") else {
                continue;
            };
            if method == "initialize" || method == "server/discover" {
                if let Some(Value::Object(caps)) = result.get("capabilities") {
                    let items = caps.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                    offer.insert(Kind::Capability, items);
                }
                continue;
            }
            let Some((kind, key, name)) = Kind::ALL.into_iter().find_map(|k| {
                let (m, key, name) = k.listing()?;
                (m == method).then_some((k, key, name))
            }) else {
                continue;
            };
            let listed = result.get(key).and_then(Value::as_array);
            let items: BTreeMap<String, Value> = listed
                .into_iter()
                .flatten()
                .filter_map(|i| Some((i.get(name)?.as_str()?.to_owned(), i.clone())))
                .collect();
            // A next page of the same list adds to it; a new listing starts again.
            let paging = last_method == Some(method)
                && x.request_body
                    .as_deref()
                    .is_some_and(|b| b.contains("\"cursor\""));
            let entry = offer.entry(kind).or_insert_with(BTreeMap::new);
            if !paging {
                entry.clear();
            }
            entry.extend(items);
            last_method = Some(method);
        }
        Self(offer)
    }

    fn items(&self, kind: Kind) -> Option<&BTreeMap<String, Value>> {
        self.0.get(&kind)
    }
}

/// One difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Added {
        kind: Kind,
        name: String,
    },
    Removed {
        kind: Kind,
        name: String,
    },
    /// The same name with other contents: which of its fields differ (e.g. `inputSchema`).
    Changed {
        kind: Kind,
        name: String,
        fields: Vec<String>,
    },
}

impl Change {
    /// The change in a line, its kind named in `lang` (`+ tool add`, `~ 工具 get_weather: …`).
    pub fn say(&self, lang: crate::diagram::Lang) -> String {
        let kind = |k: &Kind| match lang {
            crate::diagram::Lang::En => k.name(),
            crate::diagram::Lang::Zh => k.name_zh(),
        };
        match self {
            Change::Added { kind: k, name } => format!("+ {} {name}", kind(k)),
            Change::Removed { kind: k, name } => format!("− {} {name}", kind(k)),
            Change::Changed {
                kind: k,
                name,
                fields,
            } => format!("~ {} {name}: {}", kind(k), fields.join(", ")),
        }
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.say(crate::diagram::Lang::En))
    }
}

/// The top-level fields of two values that differ (the whole value when it is not an object).
fn changed_fields(before: &Value, after: &Value) -> Vec<String> {
    match (before, after) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .filter(|k| a.get(*k) != b.get(*k))
                .cloned()
                .collect()
        }
        _ => vec!["value".to_owned()],
    }
}

/// What changed from `before` to `after`, kind by kind, names in order. A kind only one of the
/// runs listed is not compared (the other run did not ask).
pub fn diff(before: &Offer, after: &Offer) -> Vec<Change> {
    let mut changes = Vec::new();
    for kind in Kind::ALL {
        let (Some(a), Some(b)) = (before.items(kind), after.items(kind)) else {
            continue;
        };
        let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
        names.sort();
        names.dedup();
        for name in names {
            let name = name.clone();
            match (a.get(&name), b.get(&name)) {
                (None, Some(_)) => changes.push(Change::Added { kind, name }),
                (Some(_), None) => changes.push(Change::Removed { kind, name }),
                (Some(x), Some(y)) if x != y => changes.push(Change::Changed {
                    kind,
                    fields: changed_fields(x, y),
                    name,
                }),
                _ => {}
            }
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_flow_client::http::HttpRequest;
    use serde_json::json;

    fn exchange(method: &str, params: Value, result: Value) -> Exchange {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let request = HttpRequest {
            method: "POST",
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: Vec::new(),
            body: Some(body.to_string()),
        };
        let mut x = Exchange::sent(0, &request, Some(&body), None, 0.0);
        x.response_body = Some(json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string());
        x
    }

    fn tool(name: &str, description: &str) -> Value {
        json!({"name": name, "description": description, "inputSchema": {"type": "object"}})
    }

    fn weather() -> Vec<Exchange> {
        vec![
            exchange(
                "initialize",
                json!({}),
                json!({"capabilities": {"tools": {}, "logging": {}, "resources": {"subscribe": true}}}),
            ),
            exchange(
                "tools/list",
                json!({}),
                json!({"tools": [tool("get_weather", "Weather"), tool("get_time", "Time")]}),
            ),
            exchange(
                "prompts/list",
                json!({}),
                json!({"prompts": [{"name": "weather_report"}]}),
            ),
        ]
    }

    #[test]
    fn each_added_removed_and_changed_item_is_named() {
        let before = Offer::of(&weather());
        let after = Offer::of(&[
            exchange(
                "server/discover",
                json!({}),
                json!({"capabilities": {"tools": {"listChanged": true}, "resources": {"subscribe": true}}}),
            ),
            exchange(
                "tools/list",
                json!({}),
                json!({"tools": [
                    {"name": "get_weather", "description": "Weather now", "inputSchema": {"type": "object"}},
                    tool("add", "Adds")]}),
            ),
        ]);
        let said: Vec<String> = diff(&before, &after)
            .iter()
            .map(Change::to_string)
            .collect();
        assert_eq!(
            said,
            [
                "− capability logging",
                "~ capability tools: listChanged",
                "+ tool add",
                "− tool get_time",
                "~ tool get_weather: description",
            ]
        );
        assert!(
            !said.iter().any(|s| s.contains("prompt")),
            "prompts were not listed the second time: not compared"
        );
        assert!(diff(&before, &before).is_empty());
        let zh: Vec<String> = diff(&before, &after)
            .iter()
            .map(|c| c.say(crate::diagram::Lang::Zh))
            .collect();
        assert_eq!(zh[2], "+ 工具 add");
    }

    #[test]
    fn pages_join_and_a_new_listing_replaces_the_last() {
        let pages = [
            exchange(
                "tools/list",
                json!({}),
                json!({"tools": [tool("a", "")], "nextCursor": "2"}),
            ),
            exchange(
                "tools/list",
                json!({"cursor": "2"}),
                json!({"tools": [tool("b", "")]}),
            ),
        ];
        let both = Offer::of(&pages);
        assert_eq!(
            both.items(Kind::Tool)
                .map(|t| t.keys().cloned().collect::<Vec<_>>()),
            Some(vec!["a".to_owned(), "b".to_owned()])
        );
        let mut again = pages.to_vec();
        again.push(exchange(
            "tools/list",
            json!({}),
            json!({"tools": [tool("c", "")]}),
        ));
        let last = Offer::of(&again);
        assert_eq!(
            last.items(Kind::Tool)
                .map(|t| t.keys().cloned().collect::<Vec<_>>()),
            Some(vec!["c".to_owned()])
        );
    }

    #[test]
    fn a_schema_change_names_the_schema() {
        let before = Offer::of(&[exchange(
            "tools/list",
            json!({}),
            json!({"tools": [tool("get_weather", "W")]}),
        )]);
        let after = Offer::of(&[exchange(
            "tools/list",
            json!({}),
            json!({"tools": [{"name": "get_weather", "description": "W",
                "inputSchema": {"type": "object", "required": ["location"]},
                "outputSchema": {"type": "object"}}]}),
        )]);
        assert_eq!(
            diff(&before, &after),
            [Change::Changed {
                kind: Kind::Tool,
                name: "get_weather".into(),
                fields: vec!["inputSchema".into(), "outputSchema".into()],
            }]
        );
    }
}
