//! Light and dark: follow the system (`prefers-color-scheme`) or pick one. The choice is kept in
//! localStorage and shown to the CSS as `data-theme` on the root element (absent for auto).

use super::i18n::Msg;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];

    pub fn id(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// A saved or picked id; anything else is auto.
    pub fn from_id(id: &str) -> Theme {
        Theme::ALL
            .into_iter()
            .find(|t| t.id() == id)
            .unwrap_or_default()
    }

    /// The root element's `data-theme`: none when the system decides.
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            Theme::Auto => None,
            t => Some(t.id()),
        }
    }

    pub fn label(self) -> Msg {
        match self {
            Theme::Auto => Msg::ThemeAuto,
            Theme::Light => Msg::ThemeLight,
            Theme::Dark => Msg::ThemeDark,
        }
    }
}

/// Shows `theme` on the page.
pub fn apply(theme: Theme) {
    let Some(root) = leptos::prelude::document().document_element() else {
        return;
    };
    let _ = match theme.attribute() {
        Some(value) => root.set_attribute("data-theme", value),
        None => root.remove_attribute("data-theme"),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_auto_leaves_the_system_in_charge() {
        for t in Theme::ALL {
            assert_eq!(Theme::from_id(t.id()), t);
        }
        assert_eq!(Theme::from_id(""), Theme::Auto);
        assert_eq!(Theme::from_id("purple"), Theme::Auto);
        assert_eq!(Theme::Auto.attribute(), None);
        assert_eq!(Theme::Dark.attribute(), Some("dark"));
    }
}
