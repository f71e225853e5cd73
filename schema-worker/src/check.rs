//! The check itself, with the `jsonschema` crate: the schema's own `$schema` picks the draft, else
//! 2020-12 (the MCP specification's default dialect); references resolve within the schema only.

use serde_json::Value;

use crate::{MAX_LISTED, Verdict, Violation};

/// Checks `instance` against `schema`.
pub fn check(schema: &Value, instance: &Value) -> Verdict {
    if !schema.is_object() && !schema.is_boolean() {
        return Verdict::SchemaUnusable {
            reason: format!(
                "a JSON Schema is an object or a boolean, not {}",
                kind(schema)
            ),
        };
    }
    let validator = match jsonschema::options()
        .with_draft(draft_of(schema))
        .build(schema)
    {
        Ok(validator) => validator,
        Err(e) => {
            return Verdict::SchemaUnusable {
                reason: e.to_string(),
            };
        }
    };
    let mut violations = Vec::new();
    let mut more = 0;
    for error in validator.iter_errors(instance) {
        if violations.len() < MAX_LISTED {
            violations.push(Violation {
                at: error.instance_path().as_str().to_owned(),
                rule: error.schema_path().as_str().to_owned(),
                message: error.to_string(),
            });
        } else {
            more += 1;
        }
    }
    if violations.is_empty() {
        Verdict::Valid
    } else {
        Verdict::Invalid { violations, more }
    }
}

/// The draft the schema names, else 2020-12.
fn draft_of(schema: &Value) -> jsonschema::Draft {
    use jsonschema::Draft;
    match schema.get("$schema").and_then(Value::as_str) {
        Some(s) if s.contains("draft-04") => Draft::Draft4,
        Some(s) if s.contains("draft-06") => Draft::Draft6,
        Some(s) if s.contains("draft-07") => Draft::Draft7,
        Some(s) if s.contains("2019-09") => Draft::Draft201909,
        _ => Draft::Draft202012,
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
