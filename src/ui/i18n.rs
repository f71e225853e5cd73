//! Every word of the page itself, in both languages: one table per language, a `match` each, so
//! a message missing from either table does not compile. The diagrams and the explanations have
//! their own texts (`crate::diagram`, `crate::record::explain`).
//!
//! Messages with a `{name}` placeholder are filled with [`fill`].

use leptos::prelude::{Get, RwSignal};

use crate::diagram::Lang;
use crate::llm::Style;
use crate::llm::choice::Provider;
use crate::record::run::RowStatus;

macro_rules! messages {
    ($($name:ident),* $(,)?) => {
        /// A piece of the page's text.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Msg { $($name),* }

        impl Msg {
            /// Every message, for the tests.
            pub const ALL: &'static [Msg] = &[$(Msg::$name),*];
        }
    };
}

messages! {
    Lede, Language, Theme, ThemeAuto, ThemeLight, ThemeDark,
    Settings, McpServer, McpServerUrl, Question, AskBeforeTool, ApprovalAsk, ApprovalAuto,
    PresetWeather, PresetCalculator, PresetForecast, PresetPacking, PresetOther, PresetBridge, BridgeHint,
    Llm, LlmModel, ProviderOffline, ProviderOpenAi, ProviderAnthropic, ProviderGemini, ProviderYou, ProviderSmolLm,
    OfflineShort, OfflineNote, Temperature, BaseUrl, ModelName, ApiKey, KeySet, KeyNone, RememberKey,
    ToolCalling, StyleNative, StylePrompt, KeyWarning, OllamaBefore, OllamaAfter,
    Player, Play, Pause, Back, Next, Restart, Connect, ConnectHint, Ask, AskHint, Speed, Instant,
    RowsDone, Follow, FollowHint, Stop, StopHint, StoppedByYou,
    ExportImport, ExportJson, ExportJsonHint, HarHint, MermaidHint, ImportRecording,
    Loaded, FileUnreadable, ModuleNotLoaded, ViewNotLoaded, TryAgain, RecordingBanner,
    Answer,
    Inspector, WireDetail, InspectorHint,
    StatusPending, StatusActive, StatusDone, StatusFailed, StatusSkipped, RowAria, Keys,
    Era, EraAuto, EraModern, EraLegacy, EraInUse, EraNotYet, EraModernName, EraLegacyName,
    Compare, CompareHint, YouNote, Connection, ViaBridge,
    AdvancedSettings, SavedServers, SaveAs, SaveServer, SaveSecretWarning, RemoveServer,
    TimeoutMs, MessageLog, Timeline,
}

/// `msg` in `lang`.
pub fn text(msg: Msg, lang: Lang) -> &'static str {
    match lang {
        Lang::En => en(msg),
        Lang::Zh => zh(msg),
    }
}

/// `msg` in the page's current language, as a reactive text or attribute. Every use has this one
/// closure type, so the view code behind it is compiled once, not once per message.
pub fn tr(lang: RwSignal<Lang>, msg: Msg) -> impl Fn() -> &'static str + Copy + Send + Sync {
    move || text(msg, lang.get())
}

/// `en` or `zh`, for a text kept with the on-demand view that shows it.
pub fn by_lang(lang: Lang, en: &'static str, zh: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

/// A text only an on-demand view shows, kept with that view (out of the first load's table).
pub fn in_lang(
    lang: RwSignal<Lang>,
    en: &'static str,
    zh: &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync {
    move || by_lang(lang.get(), en, zh)
}

/// `template` with each `{name}` replaced by its value (names without one stay as written).
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    crate::placeholders::fill(template, |name| {
        values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| (*v).to_owned())
    })
}

fn en(msg: Msg) -> &'static str {
    use Msg::*;
    match msg {
        Lede => {
            "A real MCP client in your browser, talking Streamable HTTP. Every arrow lights up from a real request, response or SSE event."
        }
        Language => "Language",
        Theme => "Theme",
        ThemeAuto => "Auto (system)",
        ThemeLight => "Light",
        ThemeDark => "Dark",
        Settings => "Settings",
        McpServer => "MCP server",
        McpServerUrl => "MCP server URL",
        Question => "Question",
        AskBeforeTool => "Ask before running a tool",
        ApprovalAsk => "asks before tools",
        ApprovalAuto => "runs tools without asking",
        PresetWeather => "Weather server (/mcp)",
        PresetCalculator => "Calculator server (/calc)",
        PresetForecast => "Weather server with a long task (/forecast)",
        PresetPacking => "Weather server that asks your model and roots (/packing)",
        PresetOther => "Other URL",
        PresetBridge => "Through mcp-flow-bridge (your stdio or local server)",
        BridgeHint => {
            "Start the bridge (cargo xtask run --bridge stdio -- YOUR COMMAND, or mcp-flow-bridge stdio --allow-origin THIS PAGE'S ORIGIN -- YOUR COMMAND) and paste the MCP endpoint it printed."
        }
        Llm => "LLM",
        LlmModel => "Model",
        ProviderOffline => "Built-in offline model (no key, no network)",
        ProviderOpenAi => "OpenAI-compatible (OpenAI, Ollama, llama.cpp, LM Studio, vLLM…)",
        ProviderAnthropic => "Anthropic Messages",
        ProviderGemini => "Google Gemini",
        ProviderYou => "You: call the tools yourself, from their schemas",
        ProviderSmolLm => "SmolLM2-135M in this page (a real model, no key; 145 MB once)",
        YouNote => {
            "You take the model's place: at its turns the page asks you which tool to call, with a form built from the tool's input schema, and what to answer."
        }
        Connection => "Connection: the server, its era, capabilities and logs",
        ViaBridge => "via the bridge: {what}",
        AdvancedSettings => "Request headers and authorization",
        SavedServers => "Saved servers",
        SaveAs => "Name",
        SaveServer => "Save server",
        SaveSecretWarning => {
            "This URL holds a secret (a bridge path or query values) and is saved as it is. Press again to save anyway."
        }
        RemoveServer => "Remove",
        TimeoutMs => "Timeout per request (ms)",
        MessageLog => "Message log: every exchange of this page, across runs and eras",
        Timeline => "Timeline: each request, stream and model call of the run in time",
        OfflineShort => "built-in offline model",
        Temperature => {
            "Temperature (0 to 2; 0 always takes the likeliest token; the seed is fixed, so a run repeats)"
        }
        OfflineNote => {
            "The built-in offline model stands in for a real LLM: deterministic, in this page, no network."
        }
        BaseUrl => "Base URL",
        ModelName => "Model name",
        ApiKey => "API key",
        KeySet => "(set)",
        KeyNone => "(none)",
        RememberKey => "Keep the key for this tab (sessionStorage)",
        ToolCalling => "Tool calling",
        StyleNative => "Native function calling",
        StylePrompt => "System prompt + JSON reply",
        KeyWarning => {
            "A key typed into a web page is exposed to that page. It stays in memory unless you tick the box above; it is never in the address, the record or an export."
        }
        OllamaBefore => "Ollama: run it with OLLAMA_ORIGINS=",
        OllamaAfter => " so it answers this page, and use a model you have pulled.",
        Player => "Player",
        Play => "Play",
        Pause => "Pause",
        Back => "Back",
        Next => "Next",
        Restart => "Restart",
        Stop => "Stop",
        StopHint => {
            "Stop: cancel the request in flight (2025-11-25: notifications/cancelled; 2026-07-28: its stream closed), or end the run"
        }
        StoppedByYou => "ended: you stopped the run",
        Connect => "Connect",
        ConnectHint => "Connect (diagram 1 only)",
        Ask => "Ask",
        AskHint => "Ask the question (diagram 2)",
        Speed => "Speed",
        Instant => "instant",
        RowsDone => "Rows done",
        Follow => "Follow",
        FollowHint => "Keep the current row in view while the run goes on",
        ExportImport => "Export and import",
        ExportJson => "Export JSON",
        ExportJsonHint => "The whole record as versioned JSON; load it back with Import",
        HarHint => "HAR 1.2: open in the browser's network panel",
        MermaidHint => "Mermaid sequence diagrams with the real values",
        ImportRecording => "Import recording",
        Loaded => "Loaded {name}",
        FileUnreadable => "the file could not be read",
        TryAgain => "Try again",
        ViewNotLoaded => {
            "This part of the page could not be fetched from the page's server (is it still running?)."
        }
        ModuleNotLoaded => {
            "{name}: the part of the app that does this could not be fetched from the page's server (is it still running?). Nothing else is affected; try again."
        }
        RecordingBanner => {
            "Recording of a run against {server} ({llm}), exported {created}. Nothing is sent while it is shown; Restart starts a live run."
        }
        Answer => "Answer",
        Inspector => "Step inspector",
        WireDetail => "Wire detail",
        InspectorHint => {
            "Press Play (Space) or Next (→) to start a real run. Click any row to inspect it."
        }
        StatusPending => "pending",
        StatusActive => "active",
        StatusDone => "done",
        StatusFailed => "failed",
        StatusSkipped => "skipped",
        RowAria => "{label} (row {id}: {state})",
        Keys => "Keys: Space play/pause, → next, ← back, Home/End first/newest row",
        Era => "Protocol era",
        EraAuto => "auto: 2026-07-28 first, 2025-11-25 if the server does not answer as one",
        EraModern => "2026-07-28 (current: no handshake, no sessions)",
        EraLegacy => "2025-11-25 (the tutorial': initialize, sessions)",
        EraInUse => "Speaking {era}: {why}",
        EraNotYet => "Era: not known until the server answers",
        EraModernName => "MCP 2026-07-28",
        EraLegacyName => "MCP 2025-11-25",
        Compare => "Compare eras",
        CompareHint => {
            "Run the question in 2025-11-25, then in 2026-07-28, and compare what went over the wire"
        }
    }
}

fn zh(msg: Msg) -> &'static str {
    use Msg::*;
    match msg {
        Lede => {
            "一个在浏览器中运行的真实 MCP 客户端，通过 Streamable HTTP 通信。每个箭头都由一次真实的请求、响应或 SSE 事件点亮。"
        }
        Language => "语言",
        Theme => "主题",
        ThemeAuto => "自动（跟随系统）",
        ThemeLight => "浅色",
        ThemeDark => "深色",
        Settings => "设置",
        McpServer => "MCP 服务器",
        McpServerUrl => "MCP 服务器地址",
        Question => "问题",
        AskBeforeTool => "运行工具前先询问",
        ApprovalAsk => "运行工具前询问",
        ApprovalAuto => "直接运行工具",
        PresetWeather => "天气服务器（/mcp）",
        PresetCalculator => "计算器服务器（/calc）",
        PresetForecast => "带长时任务的天气服务器（/forecast）",
        PresetPacking => "会询问你的模型和根目录的天气服务器（/packing）",
        PresetOther => "其他地址",
        PresetBridge => "经由 mcp-flow-bridge（你的 stdio 或本地服务器）",
        BridgeHint => {
            "先启动桥（cargo xtask run --bridge stdio -- 你的命令，或 mcp-flow-bridge stdio --allow-origin 本页的源 -- 你的命令），再粘贴它打印的 MCP endpoint。"
        }
        Llm => "LLM（大语言模型）",
        LlmModel => "模型",
        ProviderOffline => "内置离线模型（无需密钥，不联网）",
        ProviderOpenAi => "OpenAI 兼容接口（OpenAI、Ollama、llama.cpp、LM Studio、vLLM…）",
        ProviderAnthropic => "Anthropic Messages 接口",
        ProviderGemini => "Google Gemini 接口",
        ProviderYou => "你自己：按工具的 schema 亲自调用工具",
        ProviderSmolLm => "SmolLM2-135M，在本页面中运行（真实模型，无需密钥；首次下载 145 MB）",
        YouNote => {
            "由你代替模型：轮到模型时，页面会问你调用哪个工具（表单按工具的输入 schema 生成）以及如何回答。"
        }
        Connection => "连接：服务器、协议时代、能力和日志",
        ViaBridge => "经由桥：{what}",
        AdvancedSettings => "请求头与授权",
        SavedServers => "已保存的服务器",
        SaveAs => "名称",
        SaveServer => "保存服务器",
        SaveSecretWarning => {
            "此 URL 含有机密（桥接路径或查询参数值），将原样保存。再按一次仍将保存。"
        }
        RemoveServer => "删除",
        TimeoutMs => "每个请求的超时（毫秒）",
        MessageLog => "消息日志：本页面的每次交换，跨运行和协议时代",
        Timeline => "时间线：本次运行中每个请求、流和模型调用的时间",
        OfflineShort => "内置离线模型",
        OfflineNote => "内置离线模型代替真实的 LLM：结果确定，在本页面内运行，不访问网络。",
        Temperature => "温度（0 到 2；0 总是选最可能的词元；随机种子固定，同一运行结果相同）",
        BaseUrl => "基础地址",
        ModelName => "模型名称",
        ApiKey => "API 密钥",
        KeySet => "（已设置）",
        KeyNone => "（未设置）",
        RememberKey => "在此标签页中保留密钥（sessionStorage）",
        ToolCalling => "工具调用方式",
        StyleNative => "原生函数调用",
        StylePrompt => "系统提示词 + JSON 回复",
        KeyWarning => {
            "在网页中输入的密钥对该网页可见。除非勾选上面的选项，它只保存在内存中；它不会出现在地址栏、运行记录或导出文件中。"
        }
        OllamaBefore => "Ollama：启动时设置 OLLAMA_ORIGINS=",
        OllamaAfter => "，让它响应本页面的请求，并使用已拉取的模型。",
        Player => "播放器",
        Play => "播放",
        Pause => "暂停",
        Back => "上一步",
        Next => "下一步",
        Restart => "重新开始",
        Stop => "停止",
        StopHint => {
            "停止：取消进行中的请求（2025-11-25：notifications/cancelled；2026-07-28：关闭其流），或结束本次运行"
        }
        StoppedByYou => "已结束：你停止了本次运行",
        Connect => "连接",
        ConnectHint => "连接（仅图 1）",
        Ask => "提问",
        AskHint => "提出问题（图 2）",
        Speed => "速度",
        Instant => "即时",
        RowsDone => "已完成的步骤",
        Follow => "跟随",
        FollowHint => "运行时让当前步骤保持在视野内",
        ExportImport => "导出与导入",
        ExportJson => "导出 JSON",
        ExportJsonHint => "以带版本号的 JSON 保存完整记录；可通过“导入记录”重新载入",
        HarHint => "HAR 1.2：可在浏览器的网络面板中打开",
        MermaidHint => "带有真实数值的 Mermaid 时序图",
        ImportRecording => "导入记录",
        Loaded => "已载入 {name}",
        FileUnreadable => "无法读取该文件",
        TryAgain => "重试",
        ViewNotLoaded => "无法从页面的服务器获取页面的这一部分（服务器是否仍在运行？）。",
        ModuleNotLoaded => {
            "{name}：无法从页面的服务器获取执行此操作的应用部分（服务器是否仍在运行？）。其他功能不受影响，请重试。"
        }
        RecordingBanner => {
            "这是针对 {server}（{llm}）的一次运行记录，导出于 {created}。显示记录时不会发送任何请求；点击“重新开始”开始一次真实运行。"
        }
        Answer => "回答",
        Inspector => "步骤检查器",
        WireDetail => "传输细节",
        InspectorHint => "按“播放”（空格）或“下一步”（→）开始一次真实运行。点击任意一行查看详情。",
        StatusPending => "未开始",
        StatusActive => "进行中",
        StatusDone => "完成",
        StatusFailed => "失败",
        StatusSkipped => "已跳过",
        RowAria => "{label}（第 {id} 行：{state}）",
        Keys => "快捷键：空格 播放/暂停，→ 下一步，← 上一步，Home/End 第一步/最新一步",
        Era => "协议版本",
        EraAuto => "自动：先试 2026-07-28，服务器不以新版回答时用 2025-11-25",
        EraModern => "2026-07-28（现行：无握手、无会话）",
        EraLegacy => "2025-11-25（示例文档的版本：initialize、会话）",
        EraInUse => "正在使用 {era}：{why}",
        EraNotYet => "协议版本：服务器回答后才知道",
        EraModernName => "MCP 2026-07-28",
        EraLegacyName => "MCP 2025-11-25",
        Compare => "比较两个版本",
        CompareHint => "先用 2025-11-25、再用 2026-07-28 运行同一个问题，比较线上传输的内容",
    }
}

/// A row's status as the user reads it (the `data-state` attribute keeps the English word).
pub fn status(status: RowStatus, lang: Lang) -> &'static str {
    let msg = match status {
        RowStatus::Pending => Msg::StatusPending,
        RowStatus::Active => Msg::StatusActive,
        RowStatus::Done => Msg::StatusDone,
        RowStatus::Failed => Msg::StatusFailed,
        RowStatus::Skipped => Msg::StatusSkipped,
    };
    text(msg, lang)
}

/// A provider's name in the model picker.
pub fn provider(provider: Provider, lang: Lang) -> &'static str {
    let msg = match provider {
        Provider::Offline => Msg::ProviderOffline,
        Provider::OpenAi => Msg::ProviderOpenAi,
        Provider::Anthropic => Msg::ProviderAnthropic,
        Provider::Gemini => Msg::ProviderGemini,
        Provider::You => Msg::ProviderYou,
        Provider::SmolLm2 => Msg::ProviderSmolLm,
    };
    text(msg, lang)
}

/// A tool-calling style in the picker.
pub fn style(style: Style, lang: Lang) -> &'static str {
    match style {
        Style::FunctionCalling => text(Msg::StyleNative, lang),
        Style::SystemPrompt => text(Msg::StylePrompt, lang),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages that are the same words in both languages: the revisions' names (product and
    /// format names such as "MCP Flow", "HAR" and "Mermaid" are not messages).
    const SAME_IN_BOTH: &[Msg] = &[Msg::EraModernName, Msg::EraLegacyName];

    fn has_han(s: &str) -> bool {
        s.chars().any(|c| {
            ('\u{4e00}'..='\u{9fff}').contains(&c) || ('\u{3000}'..='\u{303f}').contains(&c)
        })
    }

    #[test]
    fn every_chinese_message_is_chinese() {
        for &msg in Msg::ALL {
            let (en, zh) = (text(msg, Lang::En), text(msg, Lang::Zh));
            assert!(!en.trim().is_empty(), "{msg:?}: empty English");
            assert!(!zh.trim().is_empty(), "{msg:?}: empty Chinese");
            if SAME_IN_BOTH.contains(&msg) {
                continue;
            }
            assert_ne!(en, zh, "{msg:?}: the Chinese text is the English one");
            assert!(has_han(zh), "{msg:?}: no Chinese in {zh:?}");
        }
    }

    #[test]
    fn placeholders_match_between_languages() {
        fn names(s: &str) -> Vec<&str> {
            let mut out: Vec<&str> = s
                .split('{')
                .skip(1)
                .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
                .collect();
            out.sort_unstable();
            out
        }
        for &msg in Msg::ALL {
            assert_eq!(
                names(text(msg, Lang::En)),
                names(text(msg, Lang::Zh)),
                "{msg:?}"
            );
        }
    }

    #[test]
    fn fill_replaces_each_placeholder() {
        assert_eq!(
            fill(
                by_lang(Lang::Zh, "-", "执行“{tool}”吗？"),
                &[("tool", "get_weather")]
            ),
            "执行“get_weather”吗？"
        );
        assert_eq!(
            fill("{a} and {b}, {a}", &[("a", "1"), ("b", "2")]),
            "1 and 2, 1"
        );
    }

    #[test]
    fn status_words_and_pickers_follow_the_language() {
        assert_eq!(status(RowStatus::Done, Lang::En), "done");
        assert_eq!(status(RowStatus::Done, Lang::Zh), "完成");
        for p in Provider::ALL {
            assert_ne!(provider(p, Lang::En), provider(p, Lang::Zh));
        }
        assert_eq!(
            style(Style::SystemPrompt, Lang::Zh),
            "系统提示词 + JSON 回复"
        );
    }
}
