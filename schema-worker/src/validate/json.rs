//! What JSON Schema means by equal, integer and multiple, and how values and paths are written in
//! the violations it reports.

use serde_json::{Number, Value};

/// JSON equality as JSON Schema defines it: numbers by value (`1` equals `1.0`), objects
/// regardless of key order.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => same_number(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|b| equal(a, b)))
        }
        _ => a == b,
    }
}

fn same_number(x: &Number, y: &Number) -> bool {
    match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
        (Some(a), Some(b), _, _) => a == b,
        (_, _, Some(a), Some(b)) => a == b,
        _ => x.as_f64() == y.as_f64(),
    }
}

/// A number with no fractional part (`1.0` is an integer).
pub fn is_integer(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// Whether `value` is a whole multiple of `by` (a positive number). Integers are exact; other
/// numbers allow for binary rounding (`0.0075` is a multiple of `0.0001`), and a quotient too
/// large to hold is not a multiple.
pub fn is_multiple(value: &Number, by: &Number) -> bool {
    if let (Some(v), Some(b)) = (value.as_i64(), by.as_i64())
        && b != 0
    {
        return v % b == 0;
    }
    let (Some(v), Some(b)) = (value.as_f64(), by.as_f64()) else {
        return false;
    };
    let q = v / b;
    if !q.is_finite() {
        return false;
    }
    let whole = q.round();
    (q - whole).abs() <= 1e-9 * whole.abs().max(1.0)
}

/// `a` compared with `b` as numbers, exactly where both are integers.
pub fn compare(a: &Number, b: &Number) -> Option<std::cmp::Ordering> {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => Some(x.cmp(&y)),
        (_, _, Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// A JSON Pointer's step: `~` and `/` escaped.
pub fn pointer_step(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// A name or a text as a JSON string, in quotes, for messages.
pub fn quote(text: &str) -> String {
    Value::from(text).to_string()
}

/// The most of a value a message quotes.
const SHOWN: usize = 120;

/// A value as compact JSON, cut at [`SHOWN`] characters.
pub fn show(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn n(v: Value) -> Number {
        match v {
            Value::Number(n) => n,
            other => panic!("{other} is not a number"),
        }
    }

    #[test]
    fn numbers_are_equal_by_value_and_objects_regardless_of_order() {
        assert!(equal(&json!(1), &json!(1.0)));
        assert!(equal(
            &json!({"a": [1, {"b": 2}], "c": null}),
            &json!({"c": null, "a": [1.0, {"b": 2}]})
        ));
        assert!(!equal(&json!([1, 2]), &json!([2, 1])));
        assert!(!equal(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!equal(&json!(true), &json!(1)));
        assert!(!equal(&json!(u64::MAX), &json!(-1)));
    }

    #[test]
    fn integers_and_multiples() {
        assert!(is_integer(&n(json!(3))) && is_integer(&n(json!(3.0))));
        assert!(!is_integer(&n(json!(3.5))));
        assert!(is_multiple(&n(json!(10)), &n(json!(5))));
        assert!(!is_multiple(&n(json!(7)), &n(json!(2))));
        assert!(is_multiple(&n(json!(0.0075)), &n(json!(0.0001))));
        assert!(!is_multiple(&n(json!(0.00751)), &n(json!(0.0001))));
        assert!(is_multiple(&n(json!(4.5)), &n(json!(1.5))));
        assert!(!is_multiple(&n(json!(1e308)), &n(json!(0.123456789))));
    }

    #[test]
    fn comparisons_are_exact_for_large_integers() {
        use std::cmp::Ordering::*;
        assert_eq!(
            compare(
                &n(json!(9007199254740993_i64)),
                &n(json!(9007199254740992_i64))
            ),
            Some(Greater)
        );
        assert_eq!(compare(&n(json!(2)), &n(json!(2.5))), Some(Less));
        assert_eq!(compare(&n(json!(u64::MAX)), &n(json!(-1))), Some(Greater));
    }

    #[test]
    fn steps_and_shown_values() {
        assert_eq!(pointer_step("a/b~c"), "a~1b~0c");
        assert_eq!(show(&json!("hot")), "\"hot\"");
        let long = show(&json!("x".repeat(500)));
        assert_eq!(long.chars().count(), SHOWN + 1);
        assert!(long.ends_with('…'));
    }
}
