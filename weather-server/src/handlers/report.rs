//! The weather report: `get_weather`'s structured result (its `outputSchema`) and the body of a
//! city's resource.

use rmcp::schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::handlers::cities::City;
use crate::handlers::units::{self, Units};

/// Structured result of `get_weather` (the tool's `outputSchema`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct WeatherReport {
    /// Canonical place name.
    pub location: String,
    /// Current condition, e.g. "Sunny".
    pub condition: String,
    /// Temperature in the requested units.
    pub temperature: f64,
    /// Units of `temperature`.
    #[schemars(schema_with = "units::output_schema")]
    pub units: Units,
    /// Temperature in degrees Celsius.
    pub temperature_c: f64,
    /// Relative humidity in percent.
    #[schemars(schema_with = "percent_schema")]
    pub humidity_pct: u8,
    /// Wind speed in km/h.
    pub wind_kph: f64,
}

/// An integer 0–100, without schemars' `"format": "uint8"`, which JSON Schema validators (such
/// as the TypeScript SDK's) report as unknown.
fn percent_schema(_: &mut rmcp::schemars::SchemaGenerator) -> rmcp::schemars::Schema {
    rmcp::schemars::json_schema!({"type": "integer", "minimum": 0, "maximum": 100})
}

impl WeatherReport {
    pub fn new(city: &City, units: Units) -> Self {
        Self {
            location: city.full_name(),
            condition: city.condition.to_string(),
            temperature: units.from_celsius(city.temperature_c),
            units,
            temperature_c: city.temperature_c,
            humidity_pct: city.humidity_pct,
            wind_kph: city.wind_kph,
        }
    }
}
