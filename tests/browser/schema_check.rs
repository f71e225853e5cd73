//! The output-schema checker's patterns in the browser: JSON Schema's patterns are ECMA-262
//! regular expressions, and here they are the browser's own `RegExp` (what the worker runs).

use mcp_flow_schema_worker::{Verdict, check};
use serde_json::json;
use wasm_bindgen_test::wasm_bindgen_test;

fn valid(schema: &serde_json::Value, value: serde_json::Value) -> bool {
    match check(schema, &value) {
        Verdict::Valid => true,
        Verdict::Invalid { .. } => false,
        Verdict::SchemaUnusable { reason } => panic!("{schema} was refused: {reason}"),
    }
}

#[wasm_bindgen_test]
fn patterns_are_the_browsers_regular_expressions() {
    // Lookahead: ECMA-262 has it (the regex crate natively does not).
    let code = json!({"pattern": "^(?=.*\\d)[a-z0-9]+$"});
    assert!(valid(&code, json!("tokyo1")));
    assert!(!valid(&code, json!("tokyo")));
    // Unicode property escapes, in the Unicode mode.
    let capital = json!({"patternProperties": {"^\\p{Lu}": {"type": "string"}}});
    assert!(valid(&capital, json!({"Émile": "x", "émile": 1})));
    assert!(!valid(&capital, json!({"Émile": 1})));
    // A pattern only the legacy mode accepts is still used.
    let legacy = json!({"pattern": "^[\\w-.]+$"});
    assert!(valid(&legacy, json!("a-b.c")));
    assert!(!valid(&legacy, json!("a b")));
}

#[wasm_bindgen_test]
fn a_pattern_the_browser_refuses_makes_the_schema_unusable() {
    match check(&json!({"pattern": "(unclosed"}), &json!("x")) {
        Verdict::SchemaUnusable { reason } => {
            assert!(
                reason.contains("/pattern") && reason.contains("(unclosed"),
                "{reason}"
            )
        }
        other => panic!("a broken pattern was used: {other:?}"),
    }
}
