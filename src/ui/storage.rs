//! Settings between visits: the LLM settings (all but the key) and the theme in localStorage;
//! the key in this tab's sessionStorage only when the user ticked the box.

use crate::llm::choice::LlmSettings;

const SETTINGS: &str = "mcp-flow.llm";
const KEY: &str = "mcp-flow.llm-key";

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

pub fn load() -> LlmSettings {
    let saved = local().and_then(|s| s.get_item(SETTINGS).ok().flatten());
    let key = session().and_then(|s| s.get_item(KEY).ok().flatten());
    LlmSettings::from_saved(saved.as_deref(), key)
}

pub fn save(settings: &LlmSettings) {
    if let Some(s) = local() {
        let _ = s.set_item(SETTINGS, &settings.to_saved());
    }
    if let Some(s) = session() {
        let _ = match settings.key_to_remember() {
            Some(key) => s.set_item(KEY, key),
            None => s.remove_item(KEY),
        };
    }
}

const THEME: &str = "mcp-flow.theme";

/// The light/dark choice from an earlier visit (auto when none).
pub fn load_theme() -> super::theme::Theme {
    let saved = local().and_then(|s| s.get_item(THEME).ok().flatten());
    super::theme::Theme::from_id(saved.as_deref().unwrap_or_default())
}

pub fn save_theme(theme: super::theme::Theme) {
    if let Some(s) = local() {
        let _ = s.set_item(THEME, theme.id());
    }
}

const SERVERS: &str = "mcp-flow.servers";

/// The servers saved on an earlier visit.
pub fn load_servers() -> crate::host::saved::SavedServers {
    let saved = local().and_then(|s| s.get_item(SERVERS).ok().flatten());
    crate::host::saved::SavedServers::read(saved.as_deref())
}

pub fn save_servers(servers: &crate::host::saved::SavedServers) {
    if let Some(s) = local() {
        let _ = s.set_item(SERVERS, &servers.to_json());
    }
}
