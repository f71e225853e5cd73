//! The validator keyword by keyword: each case is a schema, a value and whether the value is
//! valid, written from the JSON Schema specification's text (2020-12 unless the schema names
//! another draft).

use mcp_flow_schema_worker::{Verdict, check};
use serde_json::{Value, json};

/// Checks every `(value, valid)` against `schema`, naming the case that went wrong.
fn cases(schema: Value, values: &[(Value, bool)]) {
    for (value, valid) in values {
        let verdict = check(&schema, value);
        let found = match &verdict {
            Verdict::Valid => true,
            Verdict::Invalid { .. } => false,
            Verdict::SchemaUnusable { reason } => panic!("{schema} was refused: {reason}"),
        };
        assert_eq!(found, *valid, "{value} against {schema}: {verdict:?}");
    }
}

#[test]
fn types_enums_and_constants() {
    cases(
        json!({"type": "integer"}),
        &[
            (json!(1), true),
            (json!(1.0), true),
            (json!(1.5), false),
            (json!("1"), false),
        ],
    );
    cases(
        json!({"type": ["string", "null"]}),
        &[(json!(null), true), (json!("a"), true), (json!(0), false)],
    );
    cases(
        json!({"enum": [1, "a", {"b": [true]}]}),
        &[
            (json!(1.0), true),
            (json!({"b": [true]}), true),
            (json!({"b": [false]}), false),
            (json!(true), false),
        ],
    );
    cases(
        json!({"const": {"a": 1, "b": [1, 2]}}),
        &[
            (json!({"b": [1, 2.0], "a": 1}), true),
            (json!({"a": 1}), false),
        ],
    );
    cases(
        json!({"const": false}),
        &[(json!(false), true), (json!(0), false)],
    );
}

#[test]
fn bounds_of_numbers() {
    cases(
        json!({"minimum": 1, "maximum": 3}),
        &[
            (json!(1), true),
            (json!(3.0), true),
            (json!(0.9), false),
            (json!(4), false),
            (json!("x"), true),
        ],
    );
    cases(
        json!({"exclusiveMinimum": 1, "exclusiveMaximum": 3}),
        &[(json!(2), true), (json!(1), false), (json!(3), false)],
    );
    cases(
        json!({"multipleOf": 0.1}),
        &[(json!(0.3), true), (json!(0.35), false), (json!(7), true)],
    );
    // Draft 4: exclusiveMinimum is a flag on minimum.
    cases(
        json!({"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 5, "exclusiveMinimum": true}),
        &[(json!(5), false), (json!(5.1), true)],
    );
}

#[test]
fn strings_count_characters_and_patterns_match_anywhere() {
    cases(
        json!({"minLength": 2, "maxLength": 3}),
        &[
            (json!("日本"), true),
            (json!("日"), false),
            (json!("abcd"), false),
            (json!(5), true),
        ],
    );
    // A limit written as a decimal with no fraction is that integer.
    cases(
        json!({"maxLength": 2.0, "minItems": 1.0}),
        &[
            (json!("ab"), true),
            (json!("abc"), false),
            (json!([]), false),
            (json!([1]), true),
        ],
    );
    cases(
        json!({"pattern": "^[A-Z]"}),
        &[(json!("Tokyo"), true), (json!("tokyo"), false)],
    );
    cases(
        json!({"pattern": "\\d"}),
        &[(json!("day 2"), true), (json!("day"), false)],
    );
    // format is an annotation in 2020-12: nothing is checked.
    cases(
        json!({"format": "email"}),
        &[(json!("not an address"), true)],
    );
}

#[test]
fn arrays_by_position_and_by_content() {
    let tuple = json!({"prefixItems": [{"type": "string"}, {"type": "number"}], "items": false});
    cases(
        tuple,
        &[
            (json!(["a", 1]), true),
            (json!(["a"]), true),
            (json!([1, 1]), false),
            (json!(["a", 1, null]), false),
        ],
    );
    cases(
        json!({"items": {"type": "number"}, "minItems": 1, "maxItems": 2}),
        &[
            (json!([1]), true),
            (json!([]), false),
            (json!([1, 2, 3]), false),
            (json!([1, "2"]), false),
        ],
    );
    cases(
        json!({"uniqueItems": true}),
        &[
            (json!([1, 2]), true),
            (json!([1, 1.0]), false),
            (json!([{"a": 1}, {"a": 1}]), false),
        ],
    );
    cases(
        json!({"contains": {"type": "string"}}),
        &[
            (json!([1, "a"]), true),
            (json!([1, 2]), false),
            (json!([]), false),
        ],
    );
    cases(
        json!({"contains": {"const": 1}, "minContains": 2, "maxContains": 3}),
        &[
            (json!([1, 1, 2]), true),
            (json!([1, 2]), false),
            (json!([1, 1, 1, 1]), false),
        ],
    );
    cases(
        json!({"contains": {"const": 1}, "minContains": 0}),
        &[(json!([]), true)],
    );
    // Before 2020-12, items as an array is the tuple and additionalItems the rest.
    let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#",
                        "items": [{"type": "string"}], "additionalItems": {"type": "number"}});
    cases(
        draft7,
        &[
            (json!(["a", 1, 2]), true),
            (json!(["a", "b"]), false),
            (json!([1]), false),
        ],
    );
}

#[test]
fn objects_by_name_pattern_and_the_rest() {
    let schema = json!({
        "properties": {"name": {"type": "string"}},
        "patternProperties": {"^x-": {"type": "number"}},
        "additionalProperties": false,
        "required": ["name"]
    });
    cases(
        schema,
        &[
            (json!({"name": "a", "x-1": 2}), true),
            (json!({"name": "a", "x-1": "2"}), false),
            (json!({"name": "a", "other": 1}), false),
            (json!({"x-1": 2}), false),
        ],
    );
    cases(
        json!({"propertyNames": {"maxLength": 3}, "minProperties": 1, "maxProperties": 2}),
        &[
            (json!({"abc": 1}), true),
            (json!({"abcd": 1}), false),
            (json!({}), false),
            (json!({"a": 1, "b": 2, "c": 3}), false),
        ],
    );
    cases(
        json!({"dependentRequired": {"card": ["billing"]}, "dependentSchemas": {"tip": {"required": ["total"]}}}),
        &[
            (json!({"card": 1, "billing": 2}), true),
            (json!({"card": 1}), false),
            (json!({"tip": 1}), false),
            (json!({"billing": 1}), true),
        ],
    );
    // Draft 7's dependencies holds either form.
    cases(
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}),
        &[
            (json!({"a": 1, "b": 1}), true),
            (json!({"a": 1}), false),
            (json!({"c": 1}), false),
        ],
    );
}

#[test]
fn combinations_and_conditions() {
    cases(
        json!({"allOf": [{"minimum": 1}, {"maximum": 2}]}),
        &[(json!(1.5), true), (json!(3), false)],
    );
    cases(
        json!({"anyOf": [{"type": "string"}, {"minimum": 10}]}),
        &[(json!("a"), true), (json!(11), true), (json!(1), false)],
    );
    cases(
        json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]}),
        &[
            (json!(1), true),
            (json!(2.5), true),
            (json!(3), false),
            (json!(1.5), false),
        ],
    );
    cases(
        json!({"not": {"type": "null"}}),
        &[(json!(0), true), (json!(null), false)],
    );
    let conditional = json!({"if": {"properties": {"units": {"const": "fahrenheit"}}},
                             "then": {"properties": {"temperature": {"maximum": 140}}},
                             "else": {"properties": {"temperature": {"maximum": 60}}}});
    cases(
        conditional,
        &[
            (json!({"units": "fahrenheit", "temperature": 100}), true),
            (json!({"units": "celsius", "temperature": 100}), false),
            (json!({"temperature": 50}), true),
        ],
    );
    cases(json!(false), &[(json!(null), false)]);
    cases(json!(true), &[(json!({"anything": [1]}), true)]);
}

#[test]
fn unevaluated_sees_what_subschemas_evaluated() {
    let schema = json!({
        "properties": {"a": true},
        "allOf": [{"properties": {"b": true}}],
        "anyOf": [{"properties": {"c": true}, "required": ["c"]}, {"properties": {"d": true}, "required": ["d"]}],
        "unevaluatedProperties": false
    });
    cases(
        schema,
        &[
            (json!({"a": 1, "b": 1, "c": 1}), true),
            (json!({"a": 1, "d": 1}), true),
            (json!({"c": 1, "e": 1}), false),
        ],
    );
    // A failed branch's properties do not count as evaluated.
    let branch = json!({"if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
                        "then": {"properties": {"extra": true}}, "unevaluatedProperties": false});
    cases(
        branch,
        &[
            (json!({"kind": "a", "extra": 1}), true),
            (json!({"kind": "b"}), false),
        ],
    );
    let items = json!({"prefixItems": [true], "contains": {"type": "string"}, "unevaluatedItems": {"type": "number"}});
    cases(
        items,
        &[
            (json!([null, "s", 2]), true),
            (json!([null, "s", true]), false),
        ],
    );
    // What a subschema evaluated in a nested value is the nested value's, not its parent's.
    cases(
        json!({"properties": {"a": {"properties": {"b": true}}}, "unevaluatedProperties": false}),
        &[
            (json!({"a": {"b": 1}}), true),
            (json!({"a": {"b": 1}, "b": 2}), false),
        ],
    );
    cases(
        json!({"prefixItems": [{"prefixItems": [true, true]}], "unevaluatedItems": false}),
        &[(json!([[1, 2]]), true), (json!([[1, 2], 3]), false)],
    );
}

#[test]
fn references_within_the_document() {
    let schema = json!({
        "$id": "https://example.com/weather",
        "$defs": {
            "celsius": {"$anchor": "c", "type": "number", "maximum": 60},
            "a b": {"type": "string"},
            "x/y": {"type": "boolean"},
            "place": {"$id": "place", "type": "string", "minLength": 1}
        },
        "properties": {
            "t": {"$ref": "#c"},
            "s": {"$ref": "#/$defs/a%20b"},
            "f": {"$ref": "#/$defs/x~1y"},
            "where": {"$ref": "place"},
            "again": {"$ref": "https://example.com/place"}
        }
    });
    cases(
        schema,
        &[
            (
                json!({"t": 20, "s": "x", "f": true, "where": "Tokyo", "again": "Paris"}),
                true,
            ),
            (json!({"t": 70}), false),
            (json!({"s": 1}), false),
            (json!({"f": 1}), false),
            (json!({"where": ""}), false),
            (json!({"again": 3}), false),
        ],
    );
    // 2020-12 applies a $ref's siblings; draft 7 ignores them.
    let siblings = |draft: &str| {
        json!({"$schema": draft, "definitions": {"n": {"type": "number"}},
                                        "properties": {"v": {"$ref": "#/definitions/n", "maximum": 5}}})
    };
    cases(
        siblings("https://json-schema.org/draft/2020-12/schema"),
        &[(json!({"v": 9}), false)],
    );
    cases(
        siblings("http://json-schema.org/draft-07/schema#"),
        &[(json!({"v": 9}), true), (json!({"v": "x"}), false)],
    );
}

#[test]
fn a_dynamic_reference_finds_the_outermost_anchor() {
    let list = json!({"$id": "https://example.com/list", "type": "array",
                      "items": {"$dynamicRef": "#item"}, "$defs": {"item": {"$dynamicAnchor": "item"}}});
    cases(list.clone(), &[(json!(["a", 1]), true)]);
    let strings = json!({"$id": "https://example.com/strings", "$ref": "list",
                         "$defs": {"item": {"$dynamicAnchor": "item", "type": "string"}, "list": list}});
    cases(
        strings,
        &[(json!(["a", "b"]), true), (json!(["a", 1]), false)],
    );
}

#[test]
fn a_recursive_reference_extends_a_tree_in_2019_09() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "$id": "https://example.com/strict-tree",
        "$recursiveAnchor": true,
        "$ref": "tree",
        "unevaluatedProperties": false,
        "$defs": {"tree": {"$id": "tree", "$recursiveAnchor": true, "type": "object",
                           "properties": {"data": true, "children": {"type": "array", "items": {"$recursiveRef": "#"}}}}}
    });
    cases(
        schema,
        &[
            (json!({"data": 1, "children": [{"data": 2}]}), true),
            (json!({"children": [{"daat": 2}]}), false),
        ],
    );
}

#[test]
fn a_schema_that_is_not_one_is_refused_and_says_where() {
    for (schema, says) in [
        (json!({"minLength": -1}), "minLength"),
        (json!({"pattern": "(unclosed"}), "pattern"),
        (json!({"patternProperties": {"[": {}}}), "patternProperties"),
        (json!({"items": [{"type": "string"}]}), "prefixItems"),
        (json!({"properties": {"a": 3}}), "/properties/a"),
        (json!({"required": "a"}), "required"),
        (json!({"anyOf": []}), "anyOf"),
        (json!({"$ref": "#nowhere"}), "nowhere"),
        (json!({"$ref": "other.json"}), "outside"),
        (json!({"type": ["string", "text"]}), "text"),
        (json!({"multipleOf": 0}), "multipleOf"),
    ] {
        match check(&schema, &json!({})) {
            Verdict::SchemaUnusable { reason } => {
                assert!(reason.contains(says), "{schema}: {reason}")
            }
            other => panic!("{schema} was used: {other:?}"),
        }
    }
}

#[test]
fn violations_name_the_path_through_references() {
    let schema = json!({"$defs": {"t": {"type": "number"}}, "properties": {"temp": {"$ref": "#/$defs/t"}},
                        "additionalProperties": false});
    let Verdict::Invalid { violations, more } =
        check(&schema, &json!({"temp": "hot", "x": 1, "y/z": 2}))
    else {
        panic!("a wrong value passed");
    };
    assert_eq!(more, 0);
    let found: Vec<(&str, &str, &str)> = violations
        .iter()
        .map(|v| (v.at.as_str(), v.rule.as_str(), v.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "/temp",
                "/properties/temp/$ref/type",
                r#""hot" is not of type "number""#
            ),
            (
                "",
                "/additionalProperties",
                r#"Additional properties are not allowed ("x", "y/z" were unexpected)"#
            ),
        ]
    );
}
