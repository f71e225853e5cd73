//! The built-in weather table and the city lookup.
//!
//! Everything here is pure and deterministic: the "current weather" of a city
//! is a constant, so the demo always tells the same story ("Tokyo is Sunny").

/// One row of the weather table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct City {
    /// English place name; with [`City::region`] the canonical name returned to clients as
    /// `location` ([`City::full_name`]).
    pub name: &'static str,
    /// Other accepted spellings: local scripts, short forms, transliterations.
    pub aliases: &'static [&'static str],
    /// For a place name several rows share (Springfield): the region that tells them apart,
    /// e.g. "Illinois", and its other spellings ("IL").
    pub region: Option<Region>,
    /// Human-readable condition, e.g. "Sunny".
    pub condition: &'static str,
    /// Air temperature in degrees Celsius.
    pub temperature_c: f64,
    /// Relative humidity in percent.
    pub humidity_pct: u8,
    /// Wind speed in kilometres per hour.
    pub wind_kph: f64,
}

/// The region part of an ambiguous place name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Region {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
}

const fn city(
    name: &'static str,
    aliases: &'static [&'static str],
    condition: &'static str,
    temperature_c: f64,
    humidity_pct: u8,
    wind_kph: f64,
) -> City {
    City {
        name,
        aliases,
        region: None,
        condition,
        temperature_c,
        humidity_pct,
        wind_kph,
    }
}

/// A row whose place name other rows share: told apart by `region` (and its `region_aliases`).
const fn town(
    name: &'static str,
    region: &'static str,
    region_aliases: &'static [&'static str],
    condition: &'static str,
    temperature_c: f64,
    humidity_pct: u8,
    wind_kph: f64,
) -> City {
    City {
        region: Some(Region {
            name: region,
            aliases: region_aliases,
        }),
        ..city(name, &[], condition, temperature_c, humidity_pct, wind_kph)
    }
}

impl City {
    /// The name clients see: "Tokyo", or "Springfield, Illinois" for a shared place name.
    pub fn full_name(&self) -> String {
        match &self.region {
            Some(region) => format!("{}, {}", self.name, region.name),
            None => self.name.to_owned(),
        }
    }

    fn is_in(&self, wanted_region: &str) -> bool {
        self.region.is_some_and(|region| {
            std::iter::once(&region.name)
                .chain(region.aliases)
                .any(|r| normalize(r) == wanted_region)
        })
    }
}

/// The whole table. Names and aliases must be unique after normalisation
/// (a unit test checks this).
pub const CITIES: &[City] = &[
    city(
        "Tokyo",
        &["東京", "东京", "東京都", "とうきょう", "トウキョウ", "도쿄"],
        "Sunny",
        22.0,
        55,
        12.0,
    ),
    city(
        "Osaka",
        &["大阪", "大阪市", "おおさか", "오사카"],
        "Partly cloudy",
        24.0,
        60,
        10.0,
    ),
    city(
        "Kyoto",
        &["京都", "京都市", "きょうと", "교토"],
        "Cloudy",
        21.0,
        65,
        6.0,
    ),
    city(
        "Seoul",
        &["서울", "서울시", "서울특별시", "首尔", "首爾", "ソウル"],
        "Clear",
        18.0,
        45,
        14.0,
    ),
    city(
        "Beijing",
        &["北京", "北京市", "Peking", "ペキン"],
        "Hazy",
        16.0,
        40,
        9.0,
    ),
    city(
        "Shanghai",
        &["上海", "上海市", "シャンハイ"],
        "Light rain",
        19.0,
        82,
        16.0,
    ),
    city(
        "Hong Kong",
        &["香港", "Hongkong"],
        "Showers",
        27.0,
        85,
        18.0,
    ),
    city(
        "Taipei",
        &["台北", "臺北", "台北市", "臺北市"],
        "Thunderstorms",
        28.0,
        88,
        11.0,
    ),
    city(
        "Singapore",
        &["新加坡", "シンガポール"],
        "Humid",
        31.0,
        84,
        8.0,
    ),
    city(
        "Bangkok",
        &["กรุงเทพมหานคร", "กรุงเทพฯ", "曼谷"],
        "Hot",
        34.0,
        70,
        7.0,
    ),
    city(
        "New Delhi",
        &["Delhi", "नई दिल्ली", "दिल्ली"],
        "Haze",
        33.0,
        35,
        9.0,
    ),
    city("Mumbai", &["Bombay", "मुंबई"], "Humid", 30.0, 78, 15.0),
    city("Sydney", &["悉尼", "シドニー"], "Windy", 20.0, 58, 32.0),
    city("Melbourne", &["墨尔本"], "Drizzle", 15.0, 75, 20.0),
    city("Auckland", &[], "Partly cloudy", 17.0, 72, 24.0),
    city(
        "London",
        &["伦敦", "倫敦", "ロンドン", "런던"],
        "Overcast",
        12.0,
        80,
        19.0,
    ),
    city(
        "Paris",
        &["巴黎", "パリ", "파리"],
        "Light rain",
        14.0,
        77,
        13.0,
    ),
    city("Berlin", &["柏林", "ベルリン"], "Cloudy", 11.0, 70, 17.0),
    city("Madrid", &["马德里"], "Sunny", 26.0, 30, 11.0),
    city("Rome", &["Roma", "罗马", "ローマ"], "Sunny", 24.0, 50, 9.0),
    city("Amsterdam", &[], "Windy", 13.0, 78, 29.0),
    city("Moscow", &["Москва", "莫斯科"], "Snow", -4.0, 85, 15.0),
    city("Istanbul", &["İstanbul"], "Clear", 19.0, 60, 14.0),
    city("Cairo", &["القاهرة", "开罗"], "Sunny", 32.0, 25, 12.0),
    city("Dubai", &["دبي", "迪拜"], "Hot", 38.0, 45, 13.0),
    city("Nairobi", &[], "Partly cloudy", 23.0, 55, 12.0),
    city("Cape Town", &["Kaapstad"], "Windy", 18.0, 62, 35.0),
    city(
        "New York",
        &[
            "New York City",
            "NYC",
            "纽约",
            "紐約",
            "ニューヨーク",
            "뉴욕",
        ],
        "Cloudy",
        15.0,
        62,
        18.0,
    ),
    city(
        "Los Angeles",
        &["LA", "洛杉矶", "ロサンゼルス"],
        "Sunny",
        25.0,
        40,
        10.0,
    ),
    city(
        "San Francisco",
        &["SF", "旧金山", "サンフランシスコ"],
        "Foggy",
        16.0,
        83,
        20.0,
    ),
    city("Chicago", &["芝加哥"], "Windy", 9.0, 60, 30.0),
    city("Toronto", &["多伦多"], "Light snow", -2.0, 75, 17.0),
    city("Vancouver", &["温哥华"], "Rain", 10.0, 88, 14.0),
    city(
        "Mexico City",
        &["Ciudad de México", "Ciudad de Mexico", "CDMX"],
        "Partly cloudy",
        21.0,
        48,
        8.0,
    ),
    city(
        "São Paulo",
        &["Sao Paulo", "圣保罗"],
        "Thunderstorms",
        27.0,
        80,
        12.0,
    ),
    city("Buenos Aires", &["布宜诺斯艾利斯"], "Clear", 22.0, 58, 16.0),
    city("Reykjavik", &["Reykjavík"], "Sleet", 2.0, 82, 38.0),
    // Three places share a name: `get_weather("Springfield")` has to ask which one.
    town(
        "Springfield",
        "Illinois",
        &["IL", "Ill."],
        "Thunderstorms",
        29.0,
        74,
        16.0,
    ),
    town(
        "Springfield",
        "Massachusetts",
        &["MA", "Mass."],
        "Light snow",
        -1.0,
        80,
        22.0,
    ),
    town("Springfield", "Missouri", &["MO"], "Sunny", 31.0, 48, 9.0),
];

/// A few well-known names, used in "unknown city" messages.
pub const SUGGESTIONS: &[&str] = &["Tokyo", "London", "New York", "Paris", "Sydney", "Seoul"];

/// Why a lookup found no single city.
#[derive(Debug, Clone, PartialEq)]
pub enum LookupError {
    /// The input was empty (or only whitespace / commas).
    Empty,
    /// No city matched; carries the name that was searched.
    Unknown(String),
    /// Several cities share the name and nothing (no region, or a region none of them is in)
    /// tells which one is meant: the input and the candidates, in table order.
    Ambiguous(String, Vec<&'static City>),
}

/// At most `max` characters of `text`, with "…" when cut (a location can be huge).
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

impl std::fmt::Display for LookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let known = SUGGESTIONS.join(", ");
        match self {
            LookupError::Empty => write!(
                f,
                "Please give a city name for `location`, for example one of: {known}."
            ),
            LookupError::Unknown(name) => write!(
                f,
                "No weather data for \"{}\". This demo knows {} cities, for example: {known}.",
                clip(name, 80),
                CITIES.len()
            ),
            LookupError::Ambiguous(name, candidates) => write!(
                f,
                "\"{}\" is ambiguous: this demo knows {}. Call get_weather again with one of \
                 them as the location.",
                clip(name, 80),
                names(candidates)
            ),
        }
    }
}

impl std::error::Error for LookupError {}

/// Reduces user input to the form the table is keyed by: the part before the
/// first comma ("Tokyo, Japan" -> "Tokyo"), trimmed, inner whitespace
/// collapsed, lower-cased.
pub fn normalize(input: &str) -> String {
    let head = input.split([',', '，', '、']).next().unwrap_or_default();
    head.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// "Springfield, Illinois; Springfield, Massachusetts; Springfield, Missouri".
pub fn names(cities: &[&City]) -> String {
    cities
        .iter()
        .map(|city| city.full_name())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The part after the first comma, normalised like the name ("Springfield, IL" -> "il").
fn qualifier(input: &str) -> String {
    match input.split_once([',', '，', '、']) {
        Some((_, rest)) => normalize(rest),
        None => String::new(),
    }
}

/// Finds a city by canonical name or alias, case-insensitively. Text after a comma is ignored
/// ("Tokyo, Japan") unless several cities share the name: then it picks the one in that region
/// ("Springfield, IL"), and without a region that matches the lookup is
/// [`LookupError::Ambiguous`].
pub fn lookup(input: &str) -> Result<&'static City, LookupError> {
    let wanted = normalize(input);
    if wanted.is_empty() {
        return Err(LookupError::Empty);
    }
    let candidates: Vec<&'static City> = INDEX.get(&wanted).cloned().unwrap_or_default();
    match candidates.as_slice() {
        [] => Err(LookupError::Unknown(input.trim().to_string())),
        [city] => Ok(city),
        _ => {
            let region = qualifier(input);
            let mut in_region = candidates.iter().filter(|city| city.is_in(&region));
            match (in_region.next(), in_region.next()) {
                (Some(city), None) => Ok(city),
                _ => Err(LookupError::Ambiguous(input.trim().to_string(), candidates)),
            }
        }
    }
}

/// Every name and alias, normalised, with the cities it names in table order: built once, so a
/// lookup normalises only its input.
static INDEX: std::sync::LazyLock<std::collections::HashMap<String, Vec<&'static City>>> =
    std::sync::LazyLock::new(|| {
        let mut index: std::collections::HashMap<String, Vec<&'static City>> =
            std::collections::HashMap::new();
        for city in CITIES {
            for name in std::iter::once(&city.name).chain(city.aliases) {
                let named = index.entry(normalize(name)).or_default();
                if !named.iter().any(|c| std::ptr::eq(*c, city)) {
                    named.push(city);
                }
            }
        }
        index
    });

/// The city whose [`City::full_name`] is exactly `name` (an answer to "which one?").
pub fn by_full_name(name: &str) -> Option<&'static City> {
    CITIES.iter().find(|city| city.full_name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn table_has_at_least_twenty_cities() {
        assert!(CITIES.len() >= 20, "only {} cities", CITIES.len());
    }

    #[test]
    fn tokyo_is_sunny() {
        let city = lookup("Tokyo").expect("Tokyo is in the table");
        assert_eq!(city.name, "Tokyo");
        assert_eq!(city.condition, "Sunny");
    }

    #[test]
    fn lookup_ignores_case_and_surrounding_space() {
        for input in ["tokyo", "TOKYO", "  Tokyo  ", "\tToKyO\n"] {
            assert_eq!(lookup(input).map(|c| c.name), Ok("Tokyo"), "{input:?}");
        }
    }

    #[test]
    fn lookup_uses_text_before_comma() {
        assert_eq!(lookup("Tokyo, Japan").map(|c| c.name), Ok("Tokyo"));
        assert_eq!(lookup("tokyo, japan").map(|c| c.name), Ok("Tokyo"));
        assert_eq!(lookup("Paris, France").map(|c| c.name), Ok("Paris"));
        assert_eq!(lookup("東京，日本").map(|c| c.name), Ok("Tokyo"));
    }

    #[test]
    fn lookup_collapses_inner_whitespace() {
        assert_eq!(lookup("new   york").map(|c| c.name), Ok("New York"));
    }

    #[test]
    fn lookup_accepts_cjk_names() {
        let cases = [
            ("東京", "Tokyo"),
            ("东京", "Tokyo"),
            ("北京", "Beijing"),
            ("上海", "Shanghai"),
            ("大阪", "Osaka"),
            ("京都", "Kyoto"),
            ("서울", "Seoul"),
            ("香港", "Hong Kong"),
        ];
        for (input, expected) in cases {
            assert_eq!(lookup(input).map(|c| c.name), Ok(expected), "{input}");
        }
    }

    #[test]
    fn lookup_accepts_aliases() {
        assert_eq!(lookup("NYC").map(|c| c.name), Ok("New York"));
        assert_eq!(lookup("sao paulo").map(|c| c.name), Ok("São Paulo"));
        assert_eq!(lookup("SÃO PAULO").map(|c| c.name), Ok("São Paulo"));
        assert_eq!(lookup("Москва").map(|c| c.name), Ok("Moscow"));
    }

    #[test]
    fn unknown_city_is_an_error_naming_known_cities() {
        let err = lookup("Atlantis").expect_err("Atlantis is not in the table");
        assert_eq!(err, LookupError::Unknown("Atlantis".into()));
        let message = err.to_string();
        assert!(message.contains("Atlantis"), "{message}");
        assert!(message.contains("Tokyo"), "{message}");
        assert!(message.contains("London"), "{message}");
    }

    #[test]
    fn empty_input_is_its_own_error() {
        assert_eq!(lookup(""), Err(LookupError::Empty));
        assert_eq!(lookup("   "), Err(LookupError::Empty));
        assert_eq!(lookup(", Japan"), Err(LookupError::Empty));
    }

    #[test]
    fn names_and_aliases_are_unique_within_a_region() {
        let mut seen = HashSet::new();
        for city in CITIES {
            let region = city.region.map(|r| normalize(r.name));
            for name in std::iter::once(&city.name).chain(city.aliases) {
                assert!(
                    seen.insert((normalize(name), region.clone())),
                    "duplicate key {name:?} {region:?}"
                );
            }
        }
    }

    #[test]
    fn a_shared_name_has_a_region_on_every_row() {
        for city in CITIES {
            let sharing = CITIES
                .iter()
                .filter(|other| normalize(other.name) == normalize(city.name))
                .count();
            assert_eq!(sharing > 1, city.region.is_some(), "{}", city.name);
        }
    }

    #[test]
    fn springfield_alone_is_ambiguous_between_three() {
        let Err(LookupError::Ambiguous(input, candidates)) = lookup("  springfield ") else {
            panic!("Springfield must be ambiguous");
        };
        assert_eq!(input, "springfield");
        let names: Vec<String> = candidates.iter().map(|c| c.full_name()).collect();
        assert_eq!(
            names,
            [
                "Springfield, Illinois",
                "Springfield, Massachusetts",
                "Springfield, Missouri"
            ]
        );
        let conditions: HashSet<&str> = candidates.iter().map(|c| c.condition).collect();
        assert_eq!(conditions.len(), 3, "each Springfield has its own weather");
    }

    #[test]
    fn a_region_picks_one_springfield() {
        for (input, expected) in [
            ("Springfield, Illinois", "Springfield, Illinois"),
            ("springfield, il", "Springfield, Illinois"),
            ("Springfield, Mass.", "Springfield, Massachusetts"),
            ("SPRINGFIELD,MO", "Springfield, Missouri"),
        ] {
            assert_eq!(
                lookup(input).map(|c| c.full_name()),
                Ok(expected.to_owned()),
                "{input}"
            );
        }
        // A region none of them is in does not pick one.
        assert!(matches!(
            lookup("Springfield, Oregon"),
            Err(LookupError::Ambiguous(_, _))
        ));
        // Text after the comma of a unique name still does not matter.
        assert_eq!(lookup("Tokyo, Illinois").map(|c| c.name), Ok("Tokyo"));
    }

    #[test]
    fn the_ambiguity_message_lists_the_candidates() {
        let err = lookup("Springfield").expect_err("ambiguous");
        let message = err.to_string();
        assert!(
            message.contains(
                "Springfield, Illinois; Springfield, Massachusetts; Springfield, Missouri"
            ),
            "{message}"
        );
    }

    #[test]
    fn full_names_find_their_row() {
        for city in CITIES {
            assert_eq!(by_full_name(&city.full_name()), Some(city));
            assert_eq!(lookup(&city.full_name()), Ok(city));
        }
        assert_eq!(by_full_name("Springfield"), None);
    }

    #[test]
    fn values_are_plausible() {
        for city in CITIES {
            assert!(!city.condition.is_empty(), "{}", city.name);
            assert!(
                (-60.0..=60.0).contains(&city.temperature_c),
                "{}",
                city.name
            );
            assert!(city.humidity_pct <= 100, "{}", city.name);
            assert!((0.0..=200.0).contains(&city.wind_kph), "{}", city.name);
        }
    }

    #[test]
    fn suggestions_are_in_the_table() {
        assert!(!SUGGESTIONS.contains(&"Springfield"));
        for name in SUGGESTIONS {
            assert!(lookup(name).is_ok(), "{name}");
        }
    }
}
