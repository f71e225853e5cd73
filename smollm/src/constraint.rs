//! Constrained decoding: an MCP tool's `inputSchema` compiled to a small byte-level automaton
//! (a Pike VM: a set of positions in a program), and the token mask it gives at each step.
//!
//! The shapes MCP tool schemas use are covered: an object whose properties are strings, numbers,
//! integers, booleans or enums (`enum`/`const`), with `required`. Required properties come first,
//! in schema order, then the optional ones, each of which the model may write or leave out.
//! Strings are bounded ([`MAX_STRING_BYTES`]) and numbers too, so every path ends. Anything else
//! (arrays, nested objects, `anyOf`, `$ref`, a list of types) is [`Unsupported`]: the caller
//! then generates without a constraint and says so.

use serde_json::Value;

/// Longest string value the constraint lets the model write, in bytes.
pub const MAX_STRING_BYTES: usize = 48;
const MAX_INT_DIGITS: usize = 12;
const MAX_FRACTION_DIGITS: usize = 6;

/// Which argument a byte belongs to (its index in [`Grammar::slots`]), if any.
pub type Slot = Option<u16>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Inst {
    Byte(u8, Slot),
    /// Any byte allowed unescaped inside a JSON string (no `"`, `\` or control character).
    StrByte(Slot),
    Digit(Slot),
    Split(usize, usize),
    Jmp(usize),
    Match,
}

/// A schema feature the constraint does not cover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the constraint cannot express {}", self.0)
    }
}

/// The value of one property, as the automaton builds it.
#[derive(Debug, Clone, PartialEq)]
enum ValueShape {
    String,
    Number,
    Integer,
    /// One of these JSON texts (enums, `const`, booleans).
    OneOf(Vec<String>),
}

/// A compiled automaton over bytes.
#[derive(Debug, Clone)]
pub struct Grammar {
    prog: Vec<Inst>,
    /// Argument names, by slot.
    pub slots: Vec<String>,
}

/// Where the automaton is: the program positions it may be at (sorted, consuming or `Match`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State(Vec<usize>);

impl Grammar {
    /// The text after the tool's name and its closing `",`: ` "arguments": {…}}`, with `{…}`
    /// following `schema`.
    pub fn for_arguments(schema: &Value) -> Result<Self, Unsupported> {
        let mut b = Builder::default();
        b.literal(" \"arguments\": ", None);
        b.arguments(schema)?;
        b.literal("}", None);
        b.prog.push(Inst::Match);
        Ok(Self {
            prog: b.prog,
            slots: b.slots,
        })
    }

    /// Exactly `text`.
    pub fn literal(text: &str) -> Self {
        let mut b = Builder::default();
        b.literal(text, None);
        b.prog.push(Inst::Match);
        Self {
            prog: b.prog,
            slots: Vec::new(),
        }
    }

    pub fn start(&self) -> State {
        let mut set = Vec::new();
        self.close(0, &mut set);
        set.sort_unstable();
        State(set)
    }

    /// The state after `bytes`, or `None` if the automaton refuses them.
    pub fn advance(&self, state: &State, bytes: &[u8]) -> Option<State> {
        let mut current = state.0.clone();
        let mut next = Vec::with_capacity(current.len());
        for &byte in bytes {
            next.clear();
            for &pc in &current {
                let ok = match self.prog[pc] {
                    Inst::Byte(b, _) => b == byte,
                    Inst::StrByte(_) => byte >= 0x20 && byte != b'"' && byte != b'\\',
                    Inst::Digit(_) => byte.is_ascii_digit(),
                    _ => false,
                };
                if ok {
                    self.close(pc + 1, &mut next);
                }
            }
            if next.is_empty() {
                return None;
            }
            next.sort_unstable();
            next.dedup();
            std::mem::swap(&mut current, &mut next);
        }
        Some(State(current))
    }

    /// Nothing more can follow: the text is complete.
    pub fn is_finished(&self, state: &State) -> bool {
        state.0.iter().all(|&pc| self.prog[pc] == Inst::Match)
    }

    /// The argument being written, when every path agrees.
    pub fn slot(&self, state: &State) -> Slot {
        let mut slots = state.0.iter().map(|&pc| match self.prog[pc] {
            Inst::Byte(_, s) | Inst::StrByte(s) | Inst::Digit(s) => s,
            _ => None,
        });
        let first = slots.next().flatten();
        if slots.all(|s| s == first) {
            first
        } else {
            None
        }
    }

    /// The tokens (by id, from each token's bytes) the automaton accepts in `state`. Tokens with
    /// no bytes (control tokens) are never allowed.
    pub fn allowed(&self, state: &State, vocab: &[&[u8]]) -> Vec<u32> {
        let mut first = [false; 256];
        for &pc in &state.0 {
            match self.prog[pc] {
                Inst::Byte(b, _) => first[b as usize] = true,
                Inst::StrByte(_) => {
                    for (b, f) in first.iter_mut().enumerate() {
                        *f |= b >= 0x20 && b != b'"' as usize && b != b'\\' as usize;
                    }
                }
                Inst::Digit(_) => {
                    for f in &mut first[b'0' as usize..=b'9' as usize] {
                        *f = true;
                    }
                }
                _ => {}
            }
        }
        vocab
            .iter()
            .enumerate()
            .filter(|(_, bytes)| {
                bytes
                    .first()
                    .is_some_and(|&b| first[b as usize] && self.advance(state, bytes).is_some())
            })
            .map(|(id, _)| id as u32)
            .collect()
    }

    /// Adds `pc` and every position reachable from it without reading a byte.
    fn close(&self, pc: usize, set: &mut Vec<usize>) {
        match self.prog.get(pc) {
            Some(Inst::Jmp(to)) => self.close(*to, set),
            Some(Inst::Split(a, b)) => {
                let (a, b) = (*a, *b);
                self.close(a, set);
                self.close(b, set);
            }
            Some(_) if !set.contains(&pc) => set.push(pc),
            _ => {}
        }
    }
}

#[derive(Default)]
struct Builder {
    prog: Vec<Inst>,
    slots: Vec<String>,
}

impl Builder {
    fn literal(&mut self, text: &str, slot: Slot) {
        self.prog.extend(text.bytes().map(|b| Inst::Byte(b, slot)));
    }

    /// `{` properties `}` for an object schema.
    fn arguments(&mut self, schema: &Value) -> Result<(), Unsupported> {
        let kind = schema
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("object");
        if kind != "object" {
            return Err(Unsupported(format!("an input schema of type {kind}")));
        }
        for key in ["anyOf", "oneOf", "allOf", "$ref", "patternProperties"] {
            if schema.get(key).is_some() {
                return Err(Unsupported(format!("`{key}` in the input schema")));
            }
        }
        let empty = serde_json::Map::new();
        let props = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut must = Vec::new();
        let mut may = Vec::new();
        for (name, prop) in props {
            let shape = value_shape(name, prop)?;
            if required.contains(&name.as_str()) {
                must.push((name.clone(), shape));
            } else {
                may.push((name.clone(), shape));
            }
        }
        if let Some(missing) = required.iter().find(|r| !props.contains_key(**r)) {
            return Err(Unsupported(format!(
                "required property `{missing}` with no schema"
            )));
        }
        self.literal("{", None);
        if must.is_empty() {
            // Any one optional property may come first, each later one may follow it.
            let mut ends = Vec::new();
            let mut alternatives = Vec::new();
            for i in 0..may.len() {
                alternatives.push(self.prog.len());
                self.prog.push(Inst::Split(0, 0));
                self.property(&may[i].0, &may[i].1, false);
                for (name, shape) in &may[i + 1..] {
                    self.optional(|b| b.property(name, shape, true));
                }
                ends.push(self.prog.len());
                self.prog.push(Inst::Jmp(0));
            }
            // Each Split goes to its alternative or on to the next Split (the last: to "none").
            let after = self.prog.len();
            for (k, &at) in alternatives.iter().enumerate() {
                let next = alternatives.get(k + 1).copied().unwrap_or(after);
                self.prog[at] = Inst::Split(at + 1, next);
            }
            for at in ends {
                self.prog[at] = Inst::Jmp(after);
            }
        } else {
            for (k, (name, shape)) in must.iter().enumerate() {
                self.property(name, shape, k > 0);
            }
            for (name, shape) in &may {
                self.optional(|b| b.property(name, shape, true));
            }
        }
        self.literal("}", None);
        Ok(())
    }

    /// Either what `body` builds, or nothing.
    fn optional(&mut self, body: impl FnOnce(&mut Self)) {
        let split = self.prog.len();
        self.prog.push(Inst::Split(0, 0));
        body(self);
        let end = self.prog.len();
        self.prog[split] = Inst::Split(split + 1, end);
    }

    fn property(&mut self, name: &str, shape: &ValueShape, comma: bool) {
        let slot = self.slot(name);
        let key = serde_json::to_string(name).unwrap_or_else(|_| format!("\"{name}\""));
        if comma {
            self.literal(", ", None);
        }
        self.literal(&format!("{key}: "), None);
        self.value(shape, slot);
    }

    fn slot(&mut self, name: &str) -> Slot {
        let index = match self.slots.iter().position(|s| s == name) {
            Some(i) => i,
            None => {
                self.slots.push(name.to_owned());
                self.slots.len() - 1
            }
        };
        u16::try_from(index).ok()
    }

    fn value(&mut self, shape: &ValueShape, slot: Slot) {
        match shape {
            ValueShape::String => {
                self.literal("\"", slot);
                // At least one byte, then up to the bound, each followed by a chance to close.
                self.prog.push(Inst::StrByte(slot));
                let mut exits = Vec::new();
                for _ in 1..MAX_STRING_BYTES {
                    exits.push(self.prog.len());
                    self.prog.push(Inst::Split(0, 0));
                    self.prog.push(Inst::StrByte(slot));
                }
                let close = self.prog.len();
                for at in exits {
                    self.prog[at] = Inst::Split(at + 1, close);
                }
                self.literal("\"", slot);
            }
            ValueShape::Integer => self.integer(slot),
            ValueShape::Number => {
                self.integer(slot);
                self.optional(|b| {
                    b.literal(".", slot);
                    b.digits(1, MAX_FRACTION_DIGITS, slot);
                });
            }
            ValueShape::OneOf(texts) => {
                let mut splits = Vec::new();
                let mut ends = Vec::new();
                for text in texts {
                    splits.push(self.prog.len());
                    self.prog.push(Inst::Split(0, 0));
                    self.literal(text, slot);
                    ends.push(self.prog.len());
                    self.prog.push(Inst::Jmp(0));
                }
                let after = self.prog.len();
                // The last alternative has nowhere else to go: point its other branch at
                // itself's first byte, so it is not optional.
                for (k, &at) in splits.iter().enumerate() {
                    let other = splits.get(k + 1).copied().unwrap_or(at + 1);
                    self.prog[at] = Inst::Split(at + 1, other);
                }
                for at in ends {
                    self.prog[at] = Inst::Jmp(after);
                }
            }
        }
    }

    fn integer(&mut self, slot: Slot) {
        self.optional(|b| b.literal("-", slot));
        self.digits(1, MAX_INT_DIGITS, slot);
    }

    fn digits(&mut self, min: usize, max: usize, slot: Slot) {
        for _ in 0..min {
            self.prog.push(Inst::Digit(slot));
        }
        let mut exits = Vec::new();
        for _ in min..max {
            exits.push(self.prog.len());
            self.prog.push(Inst::Split(0, 0));
            self.prog.push(Inst::Digit(slot));
        }
        let end = self.prog.len();
        for at in exits {
            self.prog[at] = Inst::Split(at + 1, end);
        }
    }
}

fn value_shape(name: &str, prop: &Value) -> Result<ValueShape, Unsupported> {
    if let Some(values) = prop.get("enum").and_then(Value::as_array) {
        if values.is_empty() {
            return Err(Unsupported(format!("an empty enum for `{name}`")));
        }
        return Ok(ValueShape::OneOf(
            values.iter().map(Value::to_string).collect(),
        ));
    }
    if let Some(c) = prop.get("const") {
        return Ok(ValueShape::OneOf(vec![c.to_string()]));
    }
    match prop.get("type") {
        Some(Value::String(t)) => match t.as_str() {
            "string" => Ok(ValueShape::String),
            "number" => Ok(ValueShape::Number),
            "integer" => Ok(ValueShape::Integer),
            "boolean" => Ok(ValueShape::OneOf(vec!["true".into(), "false".into()])),
            other => Err(Unsupported(format!("`{name}` of type {other}"))),
        },
        Some(other) => Err(Unsupported(format!("`{name}` with type {other}"))),
        None => Err(Unsupported(format!("`{name}` without a type"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn accepts(g: &Grammar, text: &str) -> bool {
        g.advance(&g.start(), text.as_bytes())
            .is_some_and(|s| g.is_finished(&s))
    }

    fn weather() -> Value {
        json!({"type": "object", "properties": {
            "location": {"type": "string"},
            "units": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
            "required": ["location"]})
    }

    #[test]
    fn accepts_exactly_the_calls_the_schema_allows() {
        let g = Grammar::for_arguments(&weather()).expect("supported");
        assert!(accepts(&g, r#" "arguments": {"location": "Tokyo"}}"#));
        assert!(accepts(
            &g,
            r#" "arguments": {"location": "東京", "units": "fahrenheit"}}"#
        ));
        assert!(!accepts(
            &g,
            r#" "arguments": {"location": "Tokyo", "units": "kelvin"}}"#
        ));
        assert!(!accepts(&g, r#" "arguments": {}}"#));
        assert!(!accepts(&g, r#" "arguments": {"location": ""}}"#));
        assert!(!accepts(&g, r#" "arguments": {"location": "a\"b"}}"#));
        let long = "x".repeat(MAX_STRING_BYTES + 1);
        assert!(!accepts(
            &g,
            &format!(r#" "arguments": {{"location": "{long}"}}}}"#)
        ));
    }

    #[test]
    fn numbers_integers_and_booleans() {
        let g = Grammar::for_arguments(&json!({"type": "object", "properties": {
            "a": {"type": "number"}, "n": {"type": "integer"}, "f": {"type": "boolean"}},
            "required": ["a", "n", "f"]}))
        .expect("supported");
        assert!(accepts(
            &g,
            r#" "arguments": {"a": -3.25, "f": true, "n": 111}}"#
        ));
        assert!(!accepts(
            &g,
            r#" "arguments": {"a": 3, "f": true, "n": 1.5}}"#
        ));
        assert!(!accepts(
            &g,
            r#" "arguments": {"a": 3, "f": maybe, "n": 1}}"#
        ));
    }

    #[test]
    fn optional_properties_alone_may_each_be_left_out() {
        let g = Grammar::for_arguments(&json!({"type": "object", "properties": {
            "x": {"type": "integer"}, "y": {"type": "integer"}}}))
        .expect("supported");
        for args in [r#"{}"#, r#"{"x": 1}"#, r#"{"y": 2}"#, r#"{"x": 1, "y": 2}"#] {
            assert!(accepts(&g, &format!(r#" "arguments": {args}}}"#)), "{args}");
        }
        assert!(!accepts(&g, r#" "arguments": {"y": 2, "x": 1}}"#));
    }

    #[test]
    fn refuses_shapes_it_cannot_express() {
        for schema in [
            json!({"type": "object", "properties": {"tags": {"type": "array"}}}),
            json!({"type": "object", "properties": {"p": {"type": ["string", "null"]}}}),
            json!({"type": "object", "anyOf": []}),
        ] {
            assert!(Grammar::for_arguments(&schema).is_err(), "{schema}");
        }
    }

    #[test]
    fn masks_tokens_by_their_bytes_and_knows_the_argument() {
        let g = Grammar::for_arguments(&weather()).expect("supported");
        let s = g
            .advance(&g.start(), br#" "arguments": {"location": ""#)
            .expect("prefix");
        assert_eq!(
            g.slot(&s).map(|i| g.slots[i as usize].as_str()),
            Some("location")
        );
        let vocab: Vec<&[u8]> = vec![b"Tok", b"\"", b"", b"yo\"}}", b"\\n", b"\n"];
        // No empty value, no escapes, no raw newline, no control token (no bytes).
        assert_eq!(g.allowed(&s, &vocab), vec![0, 3]);
        let s = g.advance(&s, b"Tok").expect("Tok");
        assert_eq!(g.allowed(&s, &vocab), vec![0, 1, 3]);
        let end = g.advance(&s, b"yo\"}}").expect("closing");
        assert!(g.is_finished(&end));
    }
}
