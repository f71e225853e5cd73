//! Temperature units, the `get_weather` argument that modern clients also send as the HTTP
//! header `Mcp-Param-Units` (SEP-2243 `x-mcp-header`).

use rmcp::schemars::{Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

/// The `x-mcp-header` name of the `units` argument: modern clients send `Mcp-Param-Units`.
pub const HEADER: &str = "Units";

/// Celsius or Fahrenheit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    #[default]
    Celsius,
    Fahrenheit,
}

impl Units {
    pub fn as_str(self) -> &'static str {
        match self {
            Units::Celsius => "celsius",
            Units::Fahrenheit => "fahrenheit",
        }
    }

    /// A Celsius temperature in these units, to one decimal.
    pub fn from_celsius(self, celsius: f64) -> f64 {
        let value = match self {
            Units::Celsius => celsius,
            Units::Fahrenheit => celsius * 9.0 / 5.0 + 32.0,
        };
        (value * 10.0).round() / 10.0
    }
}

/// The input schema of `units`: a plain string enum (a primitive type, as `x-mcp-header`
/// requires: schemars would write `Option<Units>` as `["string", "null"]` or a `$ref`, and a
/// modern client must then drop the whole tool), with the header annotation.
pub fn input_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "string",
        "enum": ["celsius", "fahrenheit"],
        "default": "celsius",
        "description": "Temperature units of the report (default celsius).",
        "x-mcp-header": HEADER,
    })
}

/// The output schema of the report's `units`.
pub fn output_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "string",
        "enum": ["celsius", "fahrenheit"],
        "description": "Units of `temperature`.",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversion() {
        assert_eq!(Units::Celsius.from_celsius(22.0), 22.0);
        assert_eq!(Units::Fahrenheit.from_celsius(22.0), 71.6);
        assert_eq!(Units::Fahrenheit.from_celsius(-4.0), 24.8);
        assert_eq!(Units::Fahrenheit.from_celsius(100.0), 212.0);
    }

    #[test]
    fn wire_names() {
        assert_eq!(
            serde_json::to_value(Units::Fahrenheit).ok(),
            Some(serde_json::json!("fahrenheit"))
        );
        assert_eq!(
            serde_json::from_str::<Units>("\"celsius\"").ok(),
            Some(Units::Celsius)
        );
        assert!(serde_json::from_str::<Units>("\"kelvin\"").is_err());
        assert_eq!(Units::default().as_str(), "celsius");
    }
}
