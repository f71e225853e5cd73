//! The check against schemas a tool may really declare, and against hostile ones.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use mcp_flow_schema_worker::{MAX_LISTED, Verdict, check};
use serde_json::{Value, json};

/// The shape of the weather server's `outputSchema` (weather-server/src/handlers/weather.rs).
fn weather_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "location": {"type": "string"},
            "temperature": {"type": "number"},
            "units": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "conditions": {"type": "string"},
            "humidity_pct": {"type": "integer", "minimum": 0, "maximum": 100}
        },
        "required": ["location", "temperature", "units", "conditions"]
    })
}

/// Runs the check on a thread: a check that never ends fails the test instead of hanging it.
fn bounded(schema: Value, instance: Value) -> Verdict {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(check(&schema, &instance));
    });
    rx.recv_timeout(Duration::from_secs(120))
        .expect("the check did not end")
}

#[test]
fn a_matching_result_is_valid() {
    let instance = json!({"location": "Tokyo", "temperature": 22.5, "units": "celsius",
                          "conditions": "Sunny", "humidity_pct": 40});
    assert_eq!(check(&weather_schema(), &instance), Verdict::Valid);
}

#[test]
fn each_violation_names_where_and_which_rule() {
    let instance = json!({"location": "Tokyo", "temperature": "hot", "units": "kelvin",
                          "conditions": "Sunny", "humidity_pct": 140});
    let Verdict::Invalid { violations, more } = check(&weather_schema(), &instance) else {
        panic!("a wrong result passed");
    };
    assert_eq!(more, 0);
    let mut found: Vec<(&str, &str)> = violations
        .iter()
        .map(|v| (v.at.as_str(), v.rule.as_str()))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("/humidity_pct", "/properties/humidity_pct/maximum"),
            ("/temperature", "/properties/temperature/type"),
            ("/units", "/properties/units/enum"),
        ]
    );
    let temperature = violations.iter().find(|v| v.at == "/temperature").unwrap();
    assert!(
        temperature.message.contains("\"hot\""),
        "{}",
        temperature.message
    );
    assert!(
        temperature.message.contains("number"),
        "{}",
        temperature.message
    );
}

#[test]
fn a_missing_required_field_is_a_violation_of_the_whole_value() {
    let Verdict::Invalid { violations, .. } = check(
        &weather_schema(),
        &json!({"location": "Tokyo", "units": "celsius", "conditions": "Sunny"}),
    ) else {
        panic!("a result without its temperature passed");
    };
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].at, "");
    assert_eq!(violations[0].rule, "/required");
    assert!(violations[0].message.contains("temperature"));
}

#[test]
fn schemas_that_cannot_be_used_say_why() {
    for schema in [
        json!("object"),
        json!(["type", "object"]),
        json!({"type": "no-such-type"}),
        json!({"$ref": "https://example.com/weather.json"}),
        json!({"$ref": "#/$defs/missing"}),
    ] {
        match bounded(schema.clone(), json!({})) {
            Verdict::SchemaUnusable { reason } => assert!(!reason.is_empty()),
            other => panic!("{schema} gave {other:?}"),
        }
    }
}

#[test]
fn the_draft_named_by_the_schema_is_used() {
    // Draft 4's exclusiveMaximum is a boolean beside maximum; in 2020-12 it is a number.
    let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#",
                        "type": "number", "maximum": 10, "exclusiveMaximum": true});
    assert!(matches!(
        check(&draft4, &json!(10)),
        Verdict::Invalid { .. }
    ));
    assert_eq!(check(&draft4, &json!(9)), Verdict::Valid);
}

#[test]
fn many_violations_are_listed_up_to_the_limit_and_counted() {
    let properties: serde_json::Map<String, Value> = (0..5_000)
        .map(|i| (format!("p{i}"), json!({"type": "integer"})))
        .collect();
    let schema = json!({"type": "object", "properties": properties});
    let instance: serde_json::Map<String, Value> = (0..5_000)
        .map(|i| (format!("p{i}"), json!("text")))
        .collect();
    let Verdict::Invalid { violations, more } = bounded(schema, Value::Object(instance)) else {
        panic!("5,000 wrong fields passed");
    };
    assert_eq!(violations.len(), MAX_LISTED);
    assert_eq!(violations.len() + more, 5_000);
}

#[test]
fn a_recursive_schema_checks_a_deep_value_and_ends() {
    let schema = json!({
        "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}},
                           "additionalProperties": false}},
        "$ref": "#/$defs/node"
    });
    let mut deep = json!({});
    for _ in 0..200 {
        deep = json!({"next": deep});
    }
    assert_eq!(bounded(schema.clone(), deep.clone()), Verdict::Valid);
    let mut wrong = json!({"next": {"next": 3}});
    assert!(matches!(
        bounded(schema.clone(), wrong.take()),
        Verdict::Invalid { .. }
    ));
    // A reference to itself and nothing else constrains nothing; it must still end.
    let bounded_self = bounded(json!({"$ref": "#"}), json!({"a": [1, 2, 3]}));
    assert!(
        !matches!(bounded_self, Verdict::Invalid { .. }),
        "{bounded_self:?}"
    );
}
