//! The check itself: the schema's own `$schema` picks the draft, else 2020-12 (the MCP
//! specification's default dialect); references resolve within the schema only.

use serde_json::Value;

use crate::validate::{eval, index::Index, index::kind};
use crate::{MAX_LISTED, Verdict};

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
    let index = match Index::build(schema) {
        Ok(index) => index,
        Err(reason) => return Verdict::SchemaUnusable { reason },
    };
    let mut violations = match eval::violations(&index, schema, instance) {
        Ok(violations) => violations,
        Err(reason) => return Verdict::SchemaUnusable { reason },
    };
    if violations.is_empty() {
        return Verdict::Valid;
    }
    let more = violations.len().saturating_sub(MAX_LISTED);
    violations.truncate(MAX_LISTED);
    Verdict::Invalid { violations, more }
}
