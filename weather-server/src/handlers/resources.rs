//! The weather server's resources: the cities it knows (`weather://cities`), each city's current
//! report through a template (`weather://city/{name}`), and a binary one, the server's icon
//! (`weather://icon.png`). Reads carry caching hints in the 2026-07-28 era: the list of cities
//! and the icon stay fresh for a day, a report for a minute (the weather may change).

use base64::Engine;
use rmcp::model::{
    CacheScope, ErrorData as McpError, ReadResourceResult, Resource, ResourceContents,
    ResourceTemplate,
};

use crate::handlers::cities::{self, CITIES};
use crate::handlers::report::WeatherReport;
use crate::handlers::units::Units;

pub const CITIES_URI: &str = "weather://cities";
pub const CITY_TEMPLATE: &str = "weather://city/{name}";
pub const CITY_PREFIX: &str = "weather://city/";
pub const ICON_URI: &str = "weather://icon.png";
/// A 32×32 sun, the server's icon.
const ICON: &[u8] = include_bytes!("../../assets/sun.png");

const DAY_MS: u64 = 24 * 60 * 60 * 1000;
const REPORT_TTL_MS: u64 = 60 * 1000;

/// The fixed resources, as `resources/list` gives them.
pub fn list() -> Vec<Resource> {
    vec![
        Resource::new(CITIES_URI, "cities")
            .with_title("Cities")
            .with_description("Every city this server has weather for, as a JSON array")
            .with_mime_type("application/json"),
        Resource::new(ICON_URI, "icon")
            .with_title("Weather server icon")
            .with_description("The server's icon, a 32×32 PNG")
            .with_mime_type("image/png")
            .with_size(ICON.len() as u64),
        crate::handlers::app::card_resource(),
    ]
}

/// The templates, as `resources/templates/list` gives them.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(CITY_TEMPLATE, "city")
            .with_title("A city's weather")
            .with_description("The current weather report of one city (complete `name`)")
            .with_mime_type("application/json"),
    ]
}

/// Whether reading `uri` gives a city's weather report (what `weather:read` guards under
/// `--auth`): every URI [`read`] answers with a report starts so.
pub fn is_report(uri: &str) -> bool {
    uri.starts_with(CITY_PREFIX)
}

/// The contents of `uri`, with how long they stay fresh; `None` when the server has no such
/// resource (the caller answers with its not-found error). A city's report says when it was
/// `observed` (Unix seconds, [`crate::handlers::updates::Clock`]).
pub fn read(uri: &str, observed: u64) -> Option<(ResourceContents, u64)> {
    if uri == CITIES_URI {
        let names: Vec<String> = CITIES.iter().map(|c| c.full_name()).collect();
        let text = serde_json::to_string(&names).ok()?;
        return Some((
            ResourceContents::text(text, uri).with_mime_type("application/json"),
            DAY_MS,
        ));
    }
    if uri == ICON_URI {
        let blob = base64::engine::general_purpose::STANDARD.encode(ICON);
        return Some((
            ResourceContents::blob(blob, uri).with_mime_type("image/png"),
            DAY_MS,
        ));
    }
    let name = uri.strip_prefix(CITY_PREFIX)?;
    let decoded = percent_encoding::percent_decode_str(name)
        .decode_utf8()
        .ok()?;
    let city = cities::lookup(&decoded).ok()?;
    let mut report = serde_json::to_value(WeatherReport::new(city, Units::Celsius)).ok()?;
    report["observedAt"] = observed.into();
    let text = report.to_string();
    Some((
        ResourceContents::text(text, uri).with_mime_type("application/json"),
        REPORT_TTL_MS,
    ))
}

/// `resources/read`'s result for `uri` from what was `found` there (with how long it stays
/// fresh), with caching hints when `modern`.
pub fn read_result(
    uri: &str,
    found: Option<(ResourceContents, u64)>,
    modern: bool,
) -> Result<ReadResourceResult, McpError> {
    let (contents, ttl) = found.ok_or_else(|| not_found(uri, modern))?;
    let result = ReadResourceResult::new(vec![contents]);
    Ok(if modern {
        result.with_ttl_ms(ttl).with_cache_scope(CacheScope::Public)
    } else {
        result
    })
}

/// The error for a URI the server has no resource at: 2026-07-28 (SEP-2164) answers −32602
/// with the URI in `data`; the earlier revisions −32002.
pub fn not_found(uri: &str, modern: bool) -> McpError {
    let message = format!("Resource not found: {}", cities::clip(uri, 200));
    let data = Some(serde_json::json!({ "uri": cities::clip(uri, 200) }));
    if modern {
        McpError::invalid_params(message, data)
    } else {
        McpError::resource_not_found(message, data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(contents: &ResourceContents) -> &str {
        match contents {
            ResourceContents::TextResourceContents { text, .. } => text,
            other => panic!("not text: {other:?}"),
        }
    }

    #[test]
    fn the_cities_resource_lists_every_city_by_its_full_name() {
        let (contents, ttl) = read(CITIES_URI, 0).expect("the list");
        let names: Vec<String> = serde_json::from_str(text(&contents)).expect("JSON");
        assert_eq!(names.len(), CITIES.len());
        assert!(names.contains(&"Tokyo".to_owned()));
        assert!(names.contains(&"Springfield, Illinois".to_owned()));
        assert_eq!(ttl, DAY_MS);
    }

    #[test]
    fn a_city_reads_as_its_report_by_any_of_its_names() {
        for uri in ["weather://city/Tokyo", "weather://city/%E6%9D%B1%E4%BA%AC"] {
            let (contents, ttl) = read(uri, 1_796_299_140).expect(uri);
            let report: serde_json::Value = serde_json::from_str(text(&contents)).expect("JSON");
            assert_eq!(report["location"], "Tokyo", "{uri}");
            assert_eq!(report["observedAt"], 1_796_299_140_u64, "{uri}");
            assert_eq!(report["condition"], "Sunny", "{uri}");
            assert_eq!(ttl, REPORT_TTL_MS);
        }
    }

    #[test]
    fn the_icon_is_a_png_in_base64() {
        let (contents, _) = read(ICON_URI, 0).expect("the icon");
        let ResourceContents::BlobResourceContents {
            blob, mime_type, ..
        } = contents
        else {
            panic!("not a blob")
        };
        assert_eq!(mime_type.as_deref(), Some("image/png"));
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(blob)
            .expect("base64");
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    }

    #[test]
    fn unknown_and_ambiguous_uris_are_not_found() {
        for uri in [
            "weather://city/Atlantis",
            "weather://city/Springfield",
            "weather://city/",
            "weather://nothing",
            "file:///etc/passwd",
        ] {
            assert!(read(uri, 0).is_none(), "{uri}");
            for (modern, code) in [
                (true, rmcp::model::ErrorCode::INVALID_PARAMS),
                (false, rmcp::model::ErrorCode::RESOURCE_NOT_FOUND),
            ] {
                let error = read_result(uri, read(uri, 0), modern).expect_err(uri);
                assert_eq!(error.code, code, "{uri}");
                assert_eq!(
                    error.data.and_then(|d| d.get("uri").cloned()),
                    Some(uri.into())
                );
            }
        }
    }

    #[test]
    fn caching_hints_only_in_the_modern_era() {
        let modern = read_result(CITIES_URI, read(CITIES_URI, 0), true).expect("read");
        assert_eq!(modern.ttl_ms, Some(DAY_MS));
        assert_eq!(modern.cache_scope, Some(CacheScope::Public));
        let legacy = read_result(CITIES_URI, read(CITIES_URI, 0), false).expect("read");
        assert_eq!(legacy.ttl_ms, None);
        assert_eq!(legacy.cache_scope, None);
    }
}
