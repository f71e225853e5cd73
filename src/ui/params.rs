//! Settings read from the page's query string.

use super::i18n::{Msg, text};
use crate::diagram::Lang;

/// The MCP endpoint used when the page names none.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:8000/mcp";

/// The value of `name` in a query string such as `?server=...&q=...`, percent-decoded.
pub fn query_param(query: &str, name: &str) -> Option<String> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| percent_decode(value))
}

/// The port `trunk serve` uses; a page there talks to the server on its default address.
const DEV_SERVER_PORT: &str = "8080";

/// The server URL from `?server=`; otherwise the page's own origin + `/mcp` when the weather
/// server serves the page (`--static`), or the default address under `trunk serve`.
pub fn server_url(query: &str, origin: &str) -> String {
    if let Some(server) = query_param(query, "server").filter(|s| !s.trim().is_empty()) {
        return server;
    }
    let port = origin.rsplit_once(':').map(|(_, p)| p).unwrap_or("");
    if origin.starts_with("http") && port != DEV_SERVER_PORT && port.parse::<u16>().is_ok() {
        format!("{origin}/mcp")
    } else {
        DEFAULT_SERVER.to_owned()
    }
}

/// `?speed=`: `instant` (or `0`) for no delay, else a multiplier clamped to 0.25…4; default 1×.
pub fn speed(query: &str) -> Option<f64> {
    match query_param(query, "speed").as_deref() {
        Some("instant" | "0") => None,
        Some(s) => Some(
            crate::decimal::parse(s.trim_end_matches(['x', '×']))
                .unwrap_or(1.0)
                .clamp(0.25, 4.0),
        ),
        None => Some(1.0),
    }
}

/// `era=auto|modern|legacy` (default auto).
pub fn era(query: &str) -> crate::mcp::era::EraChoice {
    query_param(query, "era")
        .and_then(|e| crate::mcp::era::EraChoice::from_id(&e))
        .unwrap_or_default()
}

/// `llm=offline|smollm2|you`: a model that needs no key. A link never names a remote provider
/// (its key would have to come with it), so those values are ignored.
pub fn llm(query: &str) -> Option<crate::llm::choice::Provider> {
    use crate::llm::choice::Provider;
    let id = query_param(query, "llm")?;
    [Provider::Offline, Provider::SmolLm2, Provider::You]
        .into_iter()
        .find(|p| p.id() == id)
}

/// What a link's `approve=` may decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkApproval {
    /// The approval dialog before each tool call.
    Ask,
    /// No dialog: `approve=auto` for the page's own server.
    Auto,
    /// `approve=auto` for another server: the user confirms the first call, then no dialog.
    AutoOnceConfirmed,
}

/// `approve=auto` runs tools with no dialog only on the server that serves this page; a link
/// cannot make the page call another server's tools without the user's yes.
pub fn approval(query: &str, server: &str, origin: &str) -> LinkApproval {
    if query_param(query, "approve").as_deref() != Some("auto") {
        return LinkApproval::Ask;
    }
    // The same origin spelled the way the browser spells the page's: anything else (another
    // port, user info, a longer host) is another server and asks once.
    let own = origin.starts_with("http")
        && server
            .strip_prefix(origin)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#']));
    if own {
        LinkApproval::Auto
    } else {
        LinkApproval::AutoOnceConfirmed
    }
}

/// Whether a flag such as `?autoplay` or `?autoplay=1` is on.
pub fn flag(query: &str, name: &str) -> bool {
    matches!(
        query_param(query, name).as_deref(),
        Some("" | "1" | "true" | "yes" | "on")
    )
}

fn percent_decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The servers the picker offers: the weather server, the tutorial's calculator, the weather
/// server with its long-running forecast and with a tool that asks the client's model and
/// roots, all served by `weather-server`, or any other
/// Streamable HTTP endpoint typed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    Weather,
    Calculator,
    /// The weather server with `get_forecast`, a task where the client takes tasks.
    Forecast,
    /// The weather server with `packing_advice`, which asks the client's model and roots.
    Packing,
    /// A server reached through `mcp-flow-bridge` (its endpoint is `/s/SECRET/mcp`).
    Bridge,
    Other,
}

impl Preset {
    pub const ALL: [Preset; 6] = [
        Self::Weather,
        Self::Calculator,
        Self::Forecast,
        Self::Packing,
        Self::Bridge,
        Self::Other,
    ];

    /// Where `mcp-flow-bridge` listens by default; the user pastes the rest of what it printed.
    pub const BRIDGE_START: &'static str = "http://127.0.0.1:8001/s/";

    pub fn id(self) -> &'static str {
        match self {
            Self::Weather => "weather",
            Self::Calculator => "calc",
            Self::Forecast => "forecast",
            Self::Packing => "packing",
            Self::Bridge => "bridge",
            Self::Other => "other",
        }
    }

    /// Its name in the picker.
    pub fn title(self, lang: Lang) -> &'static str {
        let msg = match self {
            Self::Weather => Msg::PresetWeather,
            Self::Calculator => Msg::PresetCalculator,
            Self::Forecast => Msg::PresetForecast,
            Self::Packing => Msg::PresetPacking,
            Self::Bridge => Msg::PresetBridge,
            Self::Other => Msg::PresetOther,
        };
        text(msg, lang)
    }

    fn path(self) -> Option<&'static str> {
        match self {
            Self::Weather => Some("/mcp"),
            Self::Calculator => Some("/calc"),
            Self::Forecast => Some("/forecast"),
            Self::Packing => Some("/packing"),
            Self::Bridge | Self::Other => None,
        }
    }

    /// Which preset a URL is: a `weather-server` endpoint by its path, else another server.
    pub fn of(url: &str) -> Self {
        let path = url
            .split(['?', '#'])
            .next()
            .unwrap_or("")
            .trim_end_matches('/');
        let after_host = path
            .split_once("://")
            .and_then(|(_, rest)| rest.find('/').map(|i| &rest[i..]))
            .unwrap_or("");
        if after_host.starts_with("/s/") || after_host == "/s" {
            return Self::Bridge;
        }
        [
            Self::Weather,
            Self::Calculator,
            Self::Forecast,
            Self::Packing,
        ]
        .into_iter()
        .find(|p| p.path().is_some_and(|suffix| path.ends_with(suffix)))
        .unwrap_or(Self::Other)
    }

    /// `url` moved to this preset's endpoint on the same host; `Other` keeps it.
    pub fn apply(self, url: &str) -> String {
        if self == Self::Bridge && Self::of(url) != Self::Bridge {
            return Self::BRIDGE_START.to_owned();
        }
        let Some(path) = self.path() else {
            return url.to_owned();
        };
        let base = match Self::of(url).path() {
            Some(old) => url.trim_end_matches('/').trim_end_matches(old),
            None => DEFAULT_SERVER.trim_end_matches("/mcp"),
        };
        format!("{base}{path}")
    }

    /// A question this server's tools can answer.
    pub fn example_question(self, zh: bool) -> Option<&'static str> {
        match (self, zh) {
            (Self::Weather | Self::Forecast, false) => Some("What's the weather in Tokyo?"),
            (Self::Weather | Self::Forecast, true) => Some("东京的天气怎么样？"),
            (Self::Calculator, false) => Some("What is 3 times 111?"),
            (Self::Calculator, true) => Some("3 乘 111 等于多少？"),
            (Self::Packing, false) => Some("Packing advice for Tokyo"),
            (Self::Packing, true) => Some("东京旅行的打包建议"),
            (Self::Bridge | Self::Other, _) => None,
        }
    }

    /// When `question` is still one of this server's example questions, the example in the
    /// language switched to; a question the user wrote stays as it is.
    pub fn example_in(self, question: &str, zh: bool) -> Option<&'static str> {
        let examples = [self.example_question(false), self.example_question(true)];
        examples
            .contains(&Some(question.trim()))
            .then(|| self.example_question(zh))
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_from_query_then_origin_then_default() {
        let dev = "http://127.0.0.1:8080";
        assert_eq!(server_url("", dev), DEFAULT_SERVER);
        assert_eq!(server_url("?server=", dev), DEFAULT_SERVER);
        assert_eq!(
            server_url("?q=x&server=http%3A%2F%2Flocalhost%3A9000%2Fmcp", dev),
            "http://localhost:9000/mcp"
        );
        assert_eq!(
            server_url("", "http://127.0.0.1:18700"),
            "http://127.0.0.1:18700/mcp"
        );
        assert_eq!(server_url("", "null"), DEFAULT_SERVER);
    }

    #[test]
    fn a_link_picks_only_models_that_need_no_key() {
        use crate::llm::choice::Provider;
        assert_eq!(llm("?llm=smollm2"), Some(Provider::SmolLm2));
        assert_eq!(llm("?q=x&llm=offline"), Some(Provider::Offline));
        assert_eq!(llm("?llm=you"), Some(Provider::You));
        assert_eq!(llm("?llm=openai"), None);
        assert_eq!(llm("?llm=anthropic"), None);
        assert_eq!(llm("?q=x"), None);
        assert_eq!(llm("?llm=nonsense"), None);
    }

    #[test]
    fn a_link_skips_the_dialog_only_for_the_pages_own_server() {
        let page = "http://127.0.0.1:18700";
        let own = "http://127.0.0.1:18700/mcp";
        assert_eq!(approval("?approve=auto", own, page), LinkApproval::Auto);
        assert_eq!(approval("?autoplay", own, page), LinkApproval::Ask);
        for other in [
            "http://127.0.0.1:9000/mcp",
            "http://127.0.0.1:18700.evil.example/mcp",
            "http://127.0.0.1:18700@evil.example/mcp",
            "https://127.0.0.1:18700/mcp",
            "not a url",
        ] {
            assert_eq!(
                approval("?approve=auto&autoplay", other, page),
                LinkApproval::AutoOnceConfirmed,
                "{other}"
            );
            assert_eq!(approval("?approve=ask", other, page), LinkApproval::Ask);
        }
        // Under `trunk serve` the default server is on another port: the user confirms once.
        assert_eq!(
            approval("?approve=auto", DEFAULT_SERVER, "http://127.0.0.1:8080"),
            LinkApproval::AutoOnceConfirmed
        );
        assert_eq!(
            approval("?approve=auto", own, "null"),
            LinkApproval::AutoOnceConfirmed
        );
    }

    #[test]
    fn speeds() {
        assert_eq!(speed(""), Some(1.0));
        assert_eq!(speed("?speed=instant"), None);
        assert_eq!(speed("?speed=2"), Some(2.0));
        assert_eq!(speed("?speed=10"), Some(4.0));
        assert_eq!(speed("?speed=abc"), Some(1.0));
    }

    #[test]
    fn flags() {
        assert!(flag("?autoplay", "autoplay"));
        assert!(flag("?autoplay=1", "autoplay"));
        assert!(!flag("?autoplay=0", "autoplay"));
        assert!(!flag("", "autoplay"));
    }

    #[test]
    fn decoding_handles_plus_utf8_and_broken_escapes() {
        assert_eq!(query_param("?q=a+b", "q").as_deref(), Some("a b"));
        assert_eq!(
            query_param("?q=%E4%B8%9C%E4%BA%AC", "q").as_deref(),
            Some("东京")
        );
        assert_eq!(query_param("?q=100%", "q").as_deref(), Some("100%"));
        assert_eq!(query_param("?q=%zz", "q").as_deref(), Some("%zz"));
        assert_eq!(query_param("?flag", "flag").as_deref(), Some(""));
        assert_eq!(query_param("?a=1", "b"), None);
    }

    #[test]
    fn presets_swap_the_endpoint_on_the_same_host() {
        assert_eq!(Preset::of("http://127.0.0.1:8000/mcp"), Preset::Weather);
        assert_eq!(
            Preset::of("http://127.0.0.1:8000/calc/"),
            Preset::Calculator
        );
        assert_eq!(
            Preset::of("https://example.com/api/mcp-server"),
            Preset::Other
        );
        assert_eq!(
            Preset::Calculator.apply("http://127.0.0.1:9000/mcp"),
            "http://127.0.0.1:9000/calc"
        );
        assert_eq!(
            Preset::Weather.apply("http://127.0.0.1:9000/calc"),
            "http://127.0.0.1:9000/mcp"
        );
        assert_eq!(
            Preset::Calculator.apply("https://example.com/other"),
            "http://127.0.0.1:8000/calc"
        );
        assert_eq!(Preset::Other.apply("http://x/mcp"), "http://x/mcp");
        assert_eq!(
            Preset::of("http://127.0.0.1:8000/forecast"),
            Preset::Forecast
        );
        assert_eq!(
            Preset::Forecast.apply("http://127.0.0.1:9000/calc"),
            "http://127.0.0.1:9000/forecast"
        );
        assert_eq!(Preset::of("http://127.0.0.1:8000/packing"), Preset::Packing);
        assert_eq!(
            Preset::Packing.apply("http://127.0.0.1:9000/mcp"),
            "http://127.0.0.1:9000/packing"
        );
        // A bridge endpoint ends in /mcp too, but it is the bridge's.
        let bridged = "http://127.0.0.1:8001/s/5dc9ca52/mcp";
        assert_eq!(Preset::of(bridged), Preset::Bridge);
        assert_eq!(Preset::Bridge.apply(bridged), bridged);
        assert_eq!(
            Preset::Bridge.apply("http://127.0.0.1:8000/mcp"),
            Preset::BRIDGE_START
        );
        assert_eq!(Preset::of(Preset::BRIDGE_START), Preset::Bridge);
        assert_eq!(Preset::Weather.apply(bridged), "http://127.0.0.1:8000/mcp");
        assert_eq!(Preset::of("http://example.com/api/s/x"), Preset::Other);
        assert_eq!(
            Preset::Calculator.example_question(false),
            Some("What is 3 times 111?")
        );
        for p in Preset::ALL {
            assert_ne!(p.title(Lang::En), p.title(Lang::Zh));
        }
        assert_eq!(
            Preset::Weather.example_in("What's the weather in Tokyo?", true),
            Some("东京的天气怎么样？")
        );
        assert_eq!(
            Preset::Weather.example_in("东京的天气怎么样？", false),
            Some("What's the weather in Tokyo?")
        );
        assert_eq!(Preset::Weather.example_in("Weather in Paris?", true), None);
        assert_eq!(Preset::Other.example_in("", true), None);
    }
}
