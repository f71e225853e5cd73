//! `{name}` placeholders in a text: one filler for the rows' explanations and the page's own
//! messages.

/// `template` with each `{name}` (ASCII letters and digits) replaced by `value(name)`; a name with
/// no value, and braces around anything else (JSON in a text), stay as written.
pub fn fill(template: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let name = after
            .find('}')
            .map(|end| &after[..end])
            .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()));
        match name.and_then(|name| value(name).map(|v| (name, v))) {
            Some((name, filled)) => {
                out.push_str(&filled);
                rest = &after[name.len() + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_values_are_filled_and_everything_else_stays() {
        let value = |name: &str| (name == "tool").then(|| "get_weather".to_owned());
        assert_eq!(fill("call {tool} now", value), "call get_weather now");
        assert_eq!(fill("{tool}{tool}", value), "get_weatherget_weather");
        assert_eq!(fill("{nope} and {tool}", value), "{nope} and get_weather");
        assert_eq!(fill("JSON {\"x\": 1} {}", value), "JSON {\"x\": 1} {}");
        assert_eq!(fill("open { and {tool", value), "open { and {tool");
        assert_eq!(fill("东京 {tool}。", value), "东京 get_weather。");
    }
}
