//! Which JSON Schema draft a schema is read by, and what that changes: the keywords each draft
//! knows and the few whose meaning differs between drafts.

use serde_json::Value;

/// A JSON Schema draft, oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Draft {
    D4,
    D6,
    D7,
    D2019,
    D2020,
}

impl Draft {
    /// The draft the schema's `$schema` names, else 2020-12 (MCP's default dialect).
    pub fn of(schema: &Value) -> Self {
        match schema.get("$schema").and_then(Value::as_str) {
            Some(s) if s.contains("draft-04") => Self::D4,
            Some(s) if s.contains("draft-06") => Self::D6,
            Some(s) if s.contains("draft-07") => Self::D7,
            Some(s) if s.contains("2019-09") => Self::D2019,
            _ => Self::D2020,
        }
    }

    /// The keyword that gives a schema its base URI.
    pub fn id(self) -> &'static str {
        if self == Self::D4 { "id" } else { "$id" }
    }

    /// Up to draft 7 a `$ref` stands for the whole schema: its siblings are ignored.
    pub fn ref_alone(self) -> bool {
        self <= Self::D7
    }

    /// `items` as an array of schemas (with `additionalItems`) before 2020-12, `prefixItems`
    /// from it on.
    pub fn items_array(self) -> bool {
        self <= Self::D2019
    }

    /// Whether this draft has `keyword` (only the keywords that some draft lacks are named).
    pub fn has(self, keyword: &str) -> bool {
        match keyword {
            "const" | "contains" | "propertyNames" => self >= Self::D6,
            "if" | "then" | "else" => self >= Self::D7,
            "dependencies" => self <= Self::D7,
            "$anchor"
            | "dependentRequired"
            | "dependentSchemas"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "minContains"
            | "maxContains" => self >= Self::D2019,
            "$recursiveRef" | "$recursiveAnchor" => self == Self::D2019,
            "$dynamicRef" | "$dynamicAnchor" | "prefixItems" => self >= Self::D2020,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_schema_names_its_draft_else_2020_12() {
        let named = |s: &str| Draft::of(&json!({"$schema": s}));
        assert_eq!(named("http://json-schema.org/draft-04/schema#"), Draft::D4);
        assert_eq!(named("http://json-schema.org/draft-07/schema#"), Draft::D7);
        assert_eq!(
            named("https://json-schema.org/draft/2019-09/schema"),
            Draft::D2019
        );
        assert_eq!(Draft::of(&json!({"type": "object"})), Draft::D2020);
        assert_eq!(Draft::of(&json!(true)), Draft::D2020);
    }

    #[test]
    fn keywords_come_and_go_with_the_drafts() {
        assert!(!Draft::D4.has("const") && Draft::D6.has("const"));
        assert!(Draft::D7.has("dependencies") && !Draft::D2020.has("dependencies"));
        assert!(Draft::D2020.has("prefixItems") && !Draft::D2019.has("prefixItems"));
        assert!(Draft::D7.ref_alone() && !Draft::D2019.ref_alone());
        assert_eq!(Draft::D4.id(), "id");
    }
}
