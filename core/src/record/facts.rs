//! What a run learned about its connection, read from the exchanges that really went over the
//! wire: who the server is, the era and version spoken, the capabilities each side declared, the
//! server's instructions, and the era's connection state (2025-11-25: the session and whether it
//! was closed; 2026-07-28: the versions the server supports and how long its answer stays fresh).

use serde_json::Value;

use super::run::Run;
use mcp_flow_client::discover::Discovery;
use mcp_flow_client::era::Era;
use mcp_flow_client::log_level::LogLevel;
use mcp_flow_client::record::Exchange;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConnectionFacts {
    pub era: Option<Era>,
    /// The protocol version the requests carried (modern) or the server chose (legacy).
    pub version: Option<String>,
    /// "name version", and the title if the server gave one.
    pub server: Option<String>,
    pub server_title: Option<String>,
    pub server_capabilities: Option<Value>,
    pub client_capabilities: Option<Value>,
    pub instructions: Option<String>,
    /// Legacy: the session id the server assigned, and whether the client ended it (DELETE).
    pub session: Option<String>,
    pub session_closed: bool,
    /// Modern: `supportedVersions`, `ttlMs` and `cacheScope` of `server/discover`.
    pub supported_versions: Vec<String>,
    pub ttl_ms: Option<u64>,
    pub cache_scope: Option<String>,
}

fn body(x: &Exchange) -> Option<Value> {
    x.request_body
        .as_deref()
        .and_then(|b| serde_json::from_str(b).ok())
}

fn string(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_owned)
}

impl ConnectionFacts {
    /// The facts `run` established; what it never learned stays `None`.
    pub fn of(run: &Run) -> Self {
        let mut facts = ConnectionFacts {
            era: run.era.as_ref().map(|d| d.era),
            ..ConnectionFacts::default()
        };
        let exchanges = &run.mcp.exchanges;
        let by = |method: &str| {
            exchanges
                .iter()
                .rev()
                .find(|x| x.rpc_method.as_deref() == Some(method))
        };
        if let Some(x) = by("initialize") {
            facts.read_initialize(x);
        }
        if facts.era == Some(Era::Modern)
            && let Some(x) = by("server/discover")
        {
            facts.read_discover(x);
        }
        if facts.era == Some(Era::Modern) && facts.version.is_none() {
            // A run that reused a fresh discovery: the version its requests carried.
            facts.version = exchanges.iter().rev().find_map(|x| {
                x.request_headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case("mcp-protocol-version"))
                    .map(|(_, v)| v.clone())
            });
        }
        facts.session_closed = exchanges.iter().any(|x| x.method == "DELETE");
        facts
    }

    fn read_initialize(&mut self, x: &Exchange) {
        if let Some(params) = body(x).and_then(|b| b.get("params").cloned()) {
            self.client_capabilities = params.get("capabilities").cloned();
        }
        let Some(result) = x.rpc_response().and_then(|r| r.get("result").cloned()) else {
            return;
        };
        self.version = string(result.get("protocolVersion"));
        if let Some(info) = result.get("serverInfo") {
            let part = |k: &str| {
                info.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .to_owned()
            };
            self.server = Some(format!("{} {}", part("name"), part("version")));
            self.server_title = string(info.get("title"));
        }
        self.server_capabilities = result.get("capabilities").cloned();
        self.instructions = string(result.get("instructions"));
        self.session = x.response_header("mcp-session-id").map(str::to_owned);
    }

    fn read_discover(&mut self, x: &Exchange) {
        if let Some(meta) = body(x).and_then(|b| b.pointer("/params/_meta").cloned()) {
            self.client_capabilities = meta
                .get("io.modelcontextprotocol/clientCapabilities")
                .cloned();
            self.version = string(meta.get("io.modelcontextprotocol/protocolVersion"));
        }
        let Some(result) = x.rpc_response().and_then(|r| r.get("result").cloned()) else {
            return;
        };
        let Ok(discovery) = Discovery::read(&result) else {
            return;
        };
        self.server = discovery.server;
        self.server_title = result
            .pointer("/_meta/io.modelcontextprotocol~1serverInfo/title")
            .or_else(|| result.pointer("/serverInfo/title"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        self.server_capabilities = Some(discovery.capabilities);
        self.instructions = discovery.instructions;
        self.supported_versions = discovery.versions;
        self.ttl_ms = Some(discovery.ttl_ms);
        self.cache_scope = discovery.cache_scope;
        // Legacy-only facts do not apply.
        self.session = None;
    }
}

/// One `notifications/message` the server sent.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLine {
    /// The line's level as sent (a level the protocol does not know is kept as written).
    pub level: String,
    pub logger: Option<String>,
    pub text: String,
}

/// The server's log lines in `run` at `min_level` or more severe, in the order they came.
/// A line whose level the protocol does not know is shown at every level: hiding it would hide
/// the server's mistake.
pub fn log_lines(run: &Run, floor: LogLevel) -> Vec<LogLine> {
    run.notifications
        .iter()
        .filter(|n| n.get("method").and_then(Value::as_str) == Some("notifications/message"))
        .filter_map(|n| {
            let params = n.get("params")?;
            let level = string(params.get("level")).unwrap_or_else(|| "info".into());
            let text = match params.get("data") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            let shown = LogLevel::parse(&level).is_none_or(|l| l >= floor);
            shown.then(|| LogLine {
                level,
                logger: string(params.get("logger")),
                text,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::run::RunEvent;
    use mcp_flow_client::era::{Detection, Why};
    use mcp_flow_client::http::HttpRequest;
    use mcp_flow_client::record::{RecordedEvent, Update};
    use serde_json::json;

    fn exchange(
        run: &mut Run,
        method: &'static str,
        body: Value,
        answer: Value,
        headers: &[(&str, &str)],
    ) {
        let request = HttpRequest {
            method,
            url: "http://127.0.0.1:8000/mcp".into(),
            headers: vec![("MCP-Protocol-Version".into(), "2026-07-28".into())],
            body: Some(body.to_string()),
        };
        let seq = run.mcp.exchanges.len();
        let x = Exchange::sent(seq, &request, Some(&body), None, 0.0);
        run.apply(RunEvent::Mcp(Update::Sent(Box::new(x))));
        let x = &mut run.mcp.exchanges[seq];
        x.status = Some(200);
        x.response_headers = headers
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        x.events.push(RecordedEvent {
            at_ms: 1.0,
            id: None,
            event: "message".into(),
            data: answer.to_string(),
            retry: None,
        });
    }

    #[test]
    fn a_legacy_run_tells_its_session_and_both_sides_capabilities() {
        let mut run = Run::new([]);
        run.era = Some(Detection {
            era: Era::Legacy,
            why: Why::Chosen,
        });
        exchange(
            &mut run,
            "POST",
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
                "clientInfo": {"name": "mcp-flow", "version": "0.1.0"}}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}, "logging": {}},
                "serverInfo": {"name": "weather-server", "version": "0.1.0", "title": "Weather"},
                "instructions": "Ask about the weather."}}),
            &[("mcp-session-id", "abc")],
        );
        run.notifications
            .push(json!({"method": "notifications/message", "params": {}}));
        let facts = ConnectionFacts::of(&run);
        assert_eq!(facts.version.as_deref(), Some("2025-11-25"));
        assert_eq!(facts.server.as_deref(), Some("weather-server 0.1.0"));
        assert_eq!(facts.server_title.as_deref(), Some("Weather"));
        assert_eq!(facts.client_capabilities, Some(json!({"elicitation": {}})));
        assert_eq!(
            facts.server_capabilities,
            Some(json!({"tools": {}, "logging": {}}))
        );
        assert_eq!(
            facts.instructions.as_deref(),
            Some("Ask about the weather.")
        );
        assert_eq!(facts.session.as_deref(), Some("abc"));
        assert!(!facts.session_closed);
        assert!(facts.supported_versions.is_empty());
    }

    #[test]
    fn a_modern_run_tells_versions_and_freshness_and_no_session() {
        let mut run = Run::new([]);
        run.era = Some(Detection {
            era: Era::Modern,
            why: Why::Chosen,
        });
        exchange(
            &mut run,
            "POST",
            json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {
                "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "w", "version": "2"}},
                "ttlMs": 60000, "cacheScope": "public"}}),
            &[],
        );
        let facts = ConnectionFacts::of(&run);
        assert_eq!(facts.version.as_deref(), Some("2026-07-28"));
        assert_eq!(facts.server.as_deref(), Some("w 2"));
        assert_eq!(facts.supported_versions, ["2026-07-28"]);
        assert_eq!(facts.ttl_ms, Some(60000));
        assert_eq!(facts.cache_scope.as_deref(), Some("public"));
        assert_eq!(
            facts.client_capabilities,
            Some(json!({"elicitation": {"form": {}}}))
        );
        assert_eq!(facts.session, None);
    }

    #[test]
    fn log_lines_are_filtered_by_level() {
        let mut run = Run::new([]);
        let line = |level: &str, data: Value| {
            json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": level, "logger": "weather", "data": data}})
        };
        run.notifications.push(line("debug", json!("looking up")));
        run.notifications
            .push(line("info", json!("get_weather called for Tokyo")));
        run.notifications
            .push(json!({"method": "notifications/progress", "params": {}}));
        run.notifications.push(line("error", json!({"code": 7})));
        run.notifications
            .push(line("verbose", json!("not a level")));
        let all = log_lines(&run, LogLevel::Debug);
        assert_eq!(all.len(), 4);
        assert_eq!(all[2].text, r#"{"code":7}"#);
        assert_eq!(all[1].logger.as_deref(), Some("weather"));
        let levels = |floor| -> Vec<String> {
            log_lines(&run, floor)
                .into_iter()
                .map(|l| l.level)
                .collect()
        };
        assert_eq!(levels(LogLevel::Info), ["info", "error", "verbose"]);
        assert_eq!(levels(LogLevel::Warning), ["error", "verbose"]);
        assert_eq!(
            levels(LogLevel::Emergency),
            ["verbose"],
            "a level the protocol does not know is never hidden"
        );
    }

    #[test]
    fn a_run_that_learned_nothing_says_nothing() {
        assert_eq!(
            ConnectionFacts::of(&Run::new([])),
            ConnectionFacts::default()
        );
    }
}
