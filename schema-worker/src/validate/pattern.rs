//! The regular expressions of `pattern` and `patternProperties`. JSON Schema's patterns are
//! ECMA-262 regular expressions, so in the browser they are the browser's own `RegExp` (Unicode
//! mode, else the legacy mode for patterns that only it accepts); natively (the tests, the CLI)
//! they are the `regex` crate's, which agrees on the patterns tools declare but has no
//! lookaround or backreferences.

/// A compiled pattern; it matches anywhere in the text, as ECMA-262's `test` does.
pub struct Pattern(engine::Compiled);

impl Pattern {
    /// Compiles `source`, or says why it is not a regular expression.
    pub fn new(source: &str) -> Result<Self, String> {
        engine::compile(source).map(Self)
    }

    pub fn is_match(&self, text: &str) -> bool {
        engine::test(&self.0, text)
    }
}

#[cfg(target_arch = "wasm32")]
mod engine {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// The browser's `RegExp`, declared here so that a pattern it refuses is an error
        /// returned, not an exception through the worker.
        #[wasm_bindgen(js_name = RegExp)]
        pub type Compiled;
        #[wasm_bindgen(catch, constructor, js_class = "RegExp")]
        fn new_regexp(source: &str, flags: &str) -> Result<Compiled, JsValue>;
        #[wasm_bindgen(method, js_class = "RegExp")]
        fn test(this: &Compiled, text: &str) -> bool;
    }

    pub fn compile(source: &str) -> Result<Compiled, String> {
        Compiled::new_regexp(source, "u").or_else(|_| {
            Compiled::new_regexp(source, "").map_err(|e| {
                e.dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
                    .unwrap_or_else(|| "the browser refused it".into())
            })
        })
    }

    pub fn test(compiled: &Compiled, text: &str) -> bool {
        compiled.test(text)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod engine {
    pub type Compiled = regex::Regex;

    pub fn compile(source: &str) -> Result<Compiled, String> {
        regex::Regex::new(source).map_err(|e| e.to_string())
    }

    pub fn test(compiled: &Compiled, text: &str) -> bool {
        compiled.is_match(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_matches_anywhere_unless_anchored() {
        let p = Pattern::new("[0-9]+").unwrap();
        assert!(p.is_match("abc123"));
        assert!(!p.is_match("abc"));
        let anchored = Pattern::new("^[A-Z][a-z]+$").unwrap();
        assert!(anchored.is_match("Tokyo") && !anchored.is_match("Tokyo!"));
    }

    #[test]
    fn a_broken_pattern_says_why() {
        assert!(
            !Pattern::new("(unclosed")
                .err()
                .unwrap_or_default()
                .is_empty()
        );
    }
}
