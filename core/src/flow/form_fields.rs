//! A server's form (an elicitation's `requestedSchema`: a flat object of primitive properties)
//! as fields for the page, and the user's entries back as the answer's `content`, checked
//! against the schema before anything is sent.

use serde_json::{Map, Value};

/// What kind of input a property asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    /// Free text; `format` is the schema's (`email`, `uri`, `date`, `date-time`), if any.
    Text {
        format: Option<String>,
    },
    Number {
        integer: bool,
    },
    Boolean,
    /// One of these values, each with the title to show.
    Choice(Vec<(String, String)>),
    /// Several of these values (an `array` whose `items` are an `enum` or titled `const`s), at
    /// least `min` and at most `max` of them.
    MultiChoice {
        choices: Vec<(String, String)>,
        min: Option<u64>,
        max: Option<u64>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct FormField {
    pub name: String,
    /// The property's `title`, else its name.
    pub title: String,
    pub description: Option<String>,
    pub required: bool,
    pub kind: FieldKind,
    /// The schema's `default`, as the entry starts.
    pub default: Option<String>,
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The choices of a property: `enum` (with `enumNames` as titles), or `oneOf` of `const`s with
/// titles.
fn choices(property: &Value) -> Option<Vec<(String, String)>> {
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        let names = property.get("enumNames").and_then(Value::as_array);
        return Some(
            values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let title = names
                        .and_then(|n| n.get(i))
                        .map(text)
                        .unwrap_or_else(|| text(v));
                    (text(v), title)
                })
                .collect(),
        );
    }
    let options = property
        .get("oneOf")
        .or_else(|| property.get("anyOf"))?
        .as_array()?;
    let found: Vec<(String, String)> = options
        .iter()
        .filter_map(|o| {
            let value = text(o.get("const")?);
            let title = o.get("title").map(text).unwrap_or_else(|| value.clone());
            Some((value, title))
        })
        .collect();
    (!found.is_empty()).then_some(found)
}

/// The fields of a form schema, in property order.
pub fn fields(schema: &Value) -> Vec<FormField> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| {
            let kind = match (
                choices(property),
                property.get("type").and_then(Value::as_str),
            ) {
                (Some(choices), _) => FieldKind::Choice(choices),
                (None, Some("array")) => match property.get("items").and_then(choices) {
                    Some(choices) => FieldKind::MultiChoice {
                        choices,
                        min: property.get("minItems").and_then(Value::as_u64),
                        max: property.get("maxItems").and_then(Value::as_u64),
                    },
                    None => FieldKind::Text { format: None },
                },
                (None, Some("boolean")) => FieldKind::Boolean,
                (None, Some("integer")) => FieldKind::Number { integer: true },
                (None, Some("number")) => FieldKind::Number { integer: false },
                _ => FieldKind::Text {
                    format: property
                        .get("format")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                },
            };
            FormField {
                name: name.clone(),
                title: property
                    .get("title")
                    .map(text)
                    .unwrap_or_else(|| name.clone()),
                description: property
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                required: required.contains(&name.as_str()),
                kind,
                default: property.get("default").map(text),
            }
        })
        .collect()
}

/// The user's entries (by field name, as typed) as the answer's `content`. An empty optional
/// field is left out; a required one, or an entry that does not fit its field, is an error
/// naming the field.
pub fn content(fields: &[FormField], entries: &Map<String, Value>) -> Result<Value, String> {
    let mut out = Map::new();
    for field in fields {
        let entry = entries.get(&field.name);
        let given = match entry {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.trim().is_empty() => None,
            Some(Value::Array(a)) if a.is_empty() => None,
            Some(v) => Some(v),
        };
        let Some(given) = given else {
            if field.required && field.kind != FieldKind::Boolean {
                return Err(format!("{} is required", field.title));
            }
            if field.kind == FieldKind::Boolean && field.required {
                out.insert(field.name.clone(), Value::Bool(false));
            }
            continue;
        };
        let value = match &field.kind {
            FieldKind::Boolean => match given {
                Value::Bool(b) => Value::Bool(*b),
                Value::String(s) => Value::Bool(s == "true"),
                _ => return Err(format!("{} must be yes or no", field.title)),
            },
            FieldKind::Number { integer } => {
                let s = text(given);
                let n: f64 = s
                    .trim()
                    .parse()
                    .map_err(|_| format!("{} must be a number", field.title))?;
                if *integer {
                    if n.fract() != 0.0 {
                        return Err(format!("{} must be a whole number", field.title));
                    }
                    Value::from(n as i64)
                } else if let Ok(whole) = s.trim().parse::<i64>() {
                    // As typed: "3" goes out as 3, not 3.0.
                    Value::from(whole)
                } else {
                    serde_json::Number::from_f64(n)
                        .map(Value::Number)
                        .ok_or_else(|| format!("{} must be a number", field.title))?
                }
            }
            FieldKind::Choice(choices) => {
                let s = text(given);
                if !choices.iter().any(|(v, _)| *v == s) {
                    return Err(format!("{} must be one of the choices", field.title));
                }
                Value::String(s)
            }
            FieldKind::MultiChoice { choices, min, max } => {
                let picked = picked(Some(given));
                if let Some(bad) = picked
                    .iter()
                    .find(|p| !choices.iter().any(|(v, _)| v == *p))
                {
                    return Err(format!(
                        "{}: {bad:?} is not one of the choices",
                        field.title
                    ));
                }
                let n = picked.len() as u64;
                if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
                    return Err(format!(
                        "{}: pick from {} to {} of the choices",
                        field.title,
                        min.unwrap_or(0),
                        max.map_or_else(|| choices.len().to_string(), |m| m.to_string())
                    ));
                }
                Value::Array(picked.into_iter().map(Value::String).collect())
            }
            FieldKind::Text { .. } => Value::String(text(given)),
        };
        out.insert(field.name.clone(), value);
    }
    Ok(Value::Object(out))
}

/// The values picked in a multiple choice: the entry as the page holds it (a list), or as a
/// schema's `default` starts it (the list's JSON text).
pub fn picked(entry: Option<&Value>) -> Vec<String> {
    let parsed;
    let list = match entry {
        Some(Value::Array(list)) => list,
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Array(list)) => {
                parsed = list;
                &parsed
            }
            _ => return vec![s.clone()],
        },
        _ => return Vec::new(),
    };
    list.iter().map(text).collect()
}

/// The entry of a multiple choice once `value` is ticked (`on`) or not.
pub fn toggled(entry: Option<&Value>, value: &str, on: bool) -> Value {
    let mut now = picked(entry);
    now.retain(|v| v != value);
    if on {
        now.push(value.to_owned());
    }
    Value::Array(now.into_iter().map(Value::String).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn springfield() -> Value {
        json!({"type": "object", "properties": {
            "place": {"type": "string", "title": "Which Springfield?",
                "enum": ["Springfield, Illinois", "Springfield, Massachusetts"]},
            "count": {"type": "integer", "description": "How many days"},
            "ok": {"type": "boolean", "default": true},
            "mail": {"type": "string", "format": "email"}},
            "required": ["place"]})
    }

    #[test]
    fn a_schema_becomes_fields() {
        let f = fields(&springfield());
        let names: Vec<&str> = f.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, ["count", "mail", "ok", "place"]);
        let place = &f[3];
        assert!(place.required);
        assert_eq!(place.title, "Which Springfield?");
        assert!(matches!(&place.kind, FieldKind::Choice(c) if c.len() == 2));
        assert_eq!(f[0].kind, FieldKind::Number { integer: true });
        assert_eq!(f[0].description.as_deref(), Some("How many days"));
        assert_eq!(
            f[1].kind,
            FieldKind::Text {
                format: Some("email".into())
            }
        );
        assert_eq!(
            (f[2].kind.clone(), f[2].default.as_deref()),
            (FieldKind::Boolean, Some("true"))
        );
        let titled = json!({"properties": {"c": {"type": "string", "oneOf": [
            {"const": "il", "title": "Illinois"}, {"const": "ma", "title": "Massachusetts"}]}}});
        assert_eq!(
            fields(&titled)[0].kind,
            FieldKind::Choice(vec![
                ("il".into(), "Illinois".into()),
                ("ma".into(), "Massachusetts".into())
            ])
        );
        assert!(fields(&json!({"type": "object"})).is_empty());
    }

    #[test]
    fn entries_are_checked_and_typed() {
        let f = fields(&springfield());
        let entries = |v: Value| v.as_object().cloned().unwrap();
        assert_eq!(
            content(
                &f,
                &entries(json!({"place": "Springfield, Illinois", "count": "3", "ok": true}))
            ),
            Ok(json!({"place": "Springfield, Illinois", "count": 3, "ok": true}))
        );
        assert_eq!(
            content(&f, &entries(json!({"count": "3"}))),
            Err("Which Springfield? is required".into())
        );
        assert_eq!(
            content(&f, &entries(json!({"place": "Atlantis"}))),
            Err("Which Springfield? must be one of the choices".into())
        );
        assert_eq!(
            content(
                &f,
                &entries(json!({"place": "Springfield, Illinois", "count": "2.5"}))
            ),
            Err("count must be a whole number".into())
        );
        assert_eq!(
            content(
                &f,
                &entries(json!({"place": "Springfield, Illinois", "mail": "  "}))
            ),
            Ok(json!({"place": "Springfield, Illinois"}))
        );
    }

    #[test]
    fn multiple_choices_are_read_picked_and_bounded() {
        let schema = json!({"type": "object", "properties": {
            "tools": {"type": "array", "title": "Instruments", "minItems": 1, "maxItems": 2,
                "items": {"type": "string", "enum": ["Guitar", "Piano", "Drums"]},
                "default": ["Guitar"]},
            "fish": {"type": "array", "items": {"anyOf": [
                {"const": "fish-1", "title": "Tuna"}, {"const": "fish-2", "title": "Salmon"}]}}},
            "required": ["tools"]});
        let f = fields(&schema);
        assert_eq!(
            f[0].kind,
            FieldKind::MultiChoice {
                choices: vec![
                    ("fish-1".into(), "Tuna".into()),
                    ("fish-2".into(), "Salmon".into())
                ],
                min: None,
                max: None
            }
        );
        let tools = &f[1];
        assert!(matches!(
            &tools.kind,
            FieldKind::MultiChoice {
                min: Some(1),
                max: Some(2),
                ..
            }
        ));
        // The default, as the entry starts, is what is picked.
        let start = tools.default.clone().map(Value::String);
        assert_eq!(picked(start.as_ref()), ["Guitar"]);
        let two = toggled(start.as_ref(), "Drums", true);
        assert_eq!(two, json!(["Guitar", "Drums"]));
        let entries = |tools: Value, fish: Value| {
            json!({"tools": tools, "fish": fish})
                .as_object()
                .cloned()
                .unwrap()
        };
        assert_eq!(
            content(&f, &entries(two.clone(), json!(["fish-2"]))),
            Ok(json!({"tools": ["Guitar", "Drums"], "fish": ["fish-2"]}))
        );
        assert_eq!(
            content(&f, &entries(toggled(Some(&two), "Piano", true), json!([]))),
            Err("Instruments: pick from 1 to 2 of the choices".into())
        );
        assert_eq!(
            content(&f, &entries(json!([]), json!([]))),
            Err("Instruments is required".into())
        );
        assert_eq!(
            content(&f, &entries(json!(["Banjo"]), json!([]))),
            Err("Instruments: \"Banjo\" is not one of the choices".into())
        );
        assert_eq!(toggled(Some(&two), "Guitar", false), json!(["Drums"]));
    }

    #[test]
    fn numbers_go_out_as_typed() {
        let f = fields(&json!({"type": "object",
            "properties": {"a": {"type": "number"}}, "required": ["a"]}));
        let a = |typed: &str| {
            content(&f, json!({"a": typed}).as_object().unwrap()).map(|v| v.to_string())
        };
        assert_eq!(a("3"), Ok(r#"{"a":3}"#.into()), "not 3.0");
        assert_eq!(a(" 2.5 "), Ok(r#"{"a":2.5}"#.into()));
        assert_eq!(a("-7"), Ok(r#"{"a":-7}"#.into()));
        assert_eq!(a("1e999"), Err("a must be a number".into()));
        assert_eq!(a("three"), Err("a must be a number".into()));
    }
}
