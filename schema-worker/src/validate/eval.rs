//! Applies a read schema ([`Index`]) to an instance and lists every violation, with where in the
//! instance and which keyword (its path through the schema, `$ref`s included). Annotations are
//! kept as far as `unevaluatedProperties` and `unevaluatedItems` need them: the properties and
//! items that valid subschemas evaluated.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::draft::Draft;
use super::index::{Addr, Index};
use super::json::{compare, equal, is_integer, is_multiple, quote, show};
use crate::Violation;

/// How many references may be followed inside one another before the check gives up (a
/// reference loop that consumes no instance is cut at once; this bounds the rest).
pub const MAX_DEPTH: usize = 512;

/// Every violation of `instance` against the indexed `schema`, or why the check could not finish.
pub fn violations(
    index: &Index<'_>,
    schema: &Value,
    instance: &Value,
) -> Result<Vec<Violation>, String> {
    let mut run = Evaluator {
        index,
        scope: Vec::new(),
        active: HashSet::new(),
        depth: 0,
        at: String::new(),
        rule: String::new(),
    };
    Ok(run.eval(schema, instance)?.faults)
}

/// What a schema found: its violations, and what it evaluated (kept only when it is valid).
#[derive(Default)]
struct Outcome<'i> {
    faults: Vec<Violation>,
    props: HashSet<&'i str>,
    items: HashSet<usize>,
}

impl<'i> Outcome<'i> {
    fn valid(&self) -> bool {
        self.faults.is_empty()
    }

    /// Takes a subschema's outcome in: its violations, and what it evaluated if it is valid.
    fn merge(&mut self, sub: Outcome<'i>) {
        if sub.valid() {
            self.absorb(sub);
        } else {
            self.faults.extend(sub.faults);
        }
    }

    /// Takes only what a valid subschema evaluated.
    fn absorb(&mut self, sub: Outcome<'i>) {
        self.props.extend(sub.props);
        self.items.extend(sub.items);
    }
}

/// One step of a path: a property's name (escaped as JSON Pointer asks) or an item's index.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn push(path: &mut String, step: Step<'_>) {
    use std::fmt::Write;
    path.push('/');
    match step {
        Step::Key(key) => {
            for c in key.chars() {
                match c {
                    '~' => path.push_str("~0"),
                    '/' => path.push_str("~1"),
                    c => path.push(c),
                }
            }
        }
        Step::Index(i) => {
            let _ = write!(path, "{i}");
        }
    }
}

struct Evaluator<'a, 's> {
    index: &'a Index<'s>,
    /// The schema resources entered, outermost first (the dynamic scope of `$dynamicRef`).
    scope: Vec<Addr>,
    /// The references being followed, each with the instance it was followed for.
    active: HashSet<(Addr, Addr)>,
    depth: usize,
    /// Where in the instance, and the path through the schema, as JSON Pointers.
    at: String,
    rule: String,
}

impl<'s> Evaluator<'_, 's> {
    /// Applies `schema` to `inst`, both at the paths `at` and `rule` stand at.
    fn eval<'i>(&mut self, schema: &'s Value, inst: &'i Value) -> Result<Outcome<'i>, String> {
        let mut out = Outcome::default();
        let obj = match schema {
            Value::Object(obj) => obj,
            Value::Bool(true) => return Ok(out),
            _ => {
                let message = format!("False schema does not allow {}", show(inst));
                out.faults.push(self.violation(None, message));
                return Ok(out);
            }
        };
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(format!(
                "it nests deeper than {MAX_DEPTH} levels at {}",
                if self.at.is_empty() {
                    "(the whole value)"
                } else {
                    &self.at
                }
            ));
        }
        let entered = self.index.is_resource(schema);
        if entered {
            self.scope.push(Addr::of(schema));
        }
        let result = self.keywords(schema, obj, inst, &mut out);
        if entered {
            self.scope.pop();
        }
        self.depth -= 1;
        result.map(|()| out)
    }

    /// Applies `schema` with the paths one step further (`at` for the instance, if it moves;
    /// `rule` through the schema).
    fn sub<'i>(
        &mut self,
        schema: &'s Value,
        inst: &'i Value,
        at: Option<Step<'_>>,
        rule: &[Step<'_>],
    ) -> Result<Outcome<'i>, String> {
        let (at_len, rule_len) = (self.at.len(), self.rule.len());
        if let Some(step) = at {
            push(&mut self.at, step);
        }
        for &step in rule {
            push(&mut self.rule, step);
        }
        let mut result = self.eval(schema, inst);
        self.at.truncate(at_len);
        self.rule.truncate(rule_len);
        // What a subschema evaluated on a child value is the child's, not this value's.
        if at.is_some()
            && let Ok(out) = &mut result
        {
            out.props.clear();
            out.items.clear();
        }
        result
    }

    /// A violation here: of `keyword` (or of the schema itself, for `None`).
    fn violation(&self, keyword: Option<&str>, message: String) -> Violation {
        let mut rule = self.rule.clone();
        if let Some(keyword) = keyword {
            push(&mut rule, Step::Key(keyword));
        }
        Violation {
            at: self.at.clone(),
            rule,
            message,
        }
    }

    fn keywords<'i>(
        &mut self,
        schema: &'s Value,
        obj: &'s Map<String, Value>,
        inst: &'i Value,
        out: &mut Outcome<'i>,
    ) -> Result<(), String> {
        let draft = self.index.draft;
        if let Some(target) = self.index.ref_of(schema) {
            out.merge(self.follow(target, inst, "$ref")?);
            if draft.ref_alone() {
                return Ok(());
            }
        }
        if let Some(dynamic) = self.index.dynamic_ref_of(schema) {
            let target = dynamic
                .anchor
                .as_deref()
                .and_then(|name| self.outermost(|i, r| i.dynamic_anchor(r, name)))
                .unwrap_or(dynamic.target);
            out.merge(self.follow(target, inst, "$dynamicRef")?);
        }
        if let Some(target) = self.index.recursive_ref_of(schema) {
            let target = match self.index.recursive_anchor(Addr::of(target)) {
                Some(_) => self
                    .outermost(|i, r| i.recursive_anchor(r))
                    .unwrap_or(target),
                None => target,
            };
            out.merge(self.follow(target, inst, "$recursiveRef")?);
        }
        self.in_place(obj, inst, out)?;
        let found = assertions(draft, obj, inst, self.index);
        out.faults.extend(
            found
                .into_iter()
                .map(|(keyword, message)| self.violation(Some(keyword), message)),
        );
        match inst {
            Value::Object(map) => self.object(obj, map, inst, out),
            Value::Array(items) => self.array(obj, items, out),
            _ => Ok(()),
        }
    }

    /// The first resource of the dynamic scope, outermost first, for which `find` finds something.
    fn outermost<T>(&self, find: impl Fn(&Index<'s>, Addr) -> Option<T>) -> Option<T> {
        self.scope.iter().find_map(|&r| find(self.index, r))
    }

    /// Follows a reference: a loop that comes back to the same schema for the same instance
    /// constrains nothing more and ends there.
    fn follow<'i>(
        &mut self,
        target: &'s Value,
        inst: &'i Value,
        keyword: &str,
    ) -> Result<Outcome<'i>, String> {
        let key = (Addr::of(target), Addr::of(inst));
        if !self.active.insert(key) {
            return Ok(Outcome::default());
        }
        let result = self.sub(target, inst, None, &[Step::Key(keyword)]);
        self.active.remove(&key);
        result
    }

    /// `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`.
    fn in_place<'i>(
        &mut self,
        obj: &'s Map<String, Value>,
        inst: &'i Value,
        out: &mut Outcome<'i>,
    ) -> Result<(), String> {
        if let Some(Value::Array(subs)) = obj.get("allOf") {
            for (i, sub) in subs.iter().enumerate() {
                out.merge(self.sub(sub, inst, None, &[Step::Key("allOf"), Step::Index(i)])?);
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(Value::Array(subs)) = obj.get(keyword) {
                self.any_or_one(keyword, subs, inst, out)?;
            }
        }
        if let Some(sub) = obj.get("not")
            && self.sub(sub, inst, None, &[Step::Key("not")])?.valid()
        {
            let message = format!("{} should not be valid under {}", show(inst), show(sub));
            out.faults.push(self.violation(Some("not"), message));
        }
        if self.index.draft.has("if")
            && let Some(condition) = obj.get("if")
        {
            let found = self.sub(condition, inst, None, &[Step::Key("if")])?;
            let branch = if found.valid() {
                out.absorb(found);
                "then"
            } else {
                "else"
            };
            if let Some(sub) = obj.get(branch) {
                out.merge(self.sub(sub, inst, None, &[Step::Key(branch)])?);
            }
        }
        Ok(())
    }

    fn any_or_one<'i>(
        &mut self,
        keyword: &str,
        subs: &'s [Value],
        inst: &'i Value,
        out: &mut Outcome<'i>,
    ) -> Result<(), String> {
        let mut valid = Vec::new();
        for (i, sub) in subs.iter().enumerate() {
            let found = self.sub(sub, inst, None, &[Step::Key(keyword), Step::Index(i)])?;
            if found.valid() {
                valid.push(found);
            }
        }
        let shown = show(inst);
        let message = match valid.len() {
            0 => format!(
                "{shown} is not valid under any of the schemas listed in the '{keyword}' keyword"
            ),
            n if n > 1 && keyword == "oneOf" => format!(
                "{shown} is valid under more than one of the schemas listed in the 'oneOf' keyword"
            ),
            _ => {
                valid.into_iter().for_each(|found| out.absorb(found));
                return Ok(());
            }
        };
        out.faults.push(self.violation(Some(keyword), message));
        Ok(())
    }

    fn object<'i>(
        &mut self,
        obj: &'s Map<String, Value>,
        map: &'i Map<String, Value>,
        inst: &'i Value,
        out: &mut Outcome<'i>,
    ) -> Result<(), String> {
        let draft = self.index.draft;
        let mut covered: HashSet<&'i str> = HashSet::new();
        if let Some(Value::Object(props)) = obj.get("properties") {
            for (name, sub) in props {
                if let Some((key, value)) = map.get_key_value(name) {
                    let rule = [Step::Key("properties"), Step::Key(name)];
                    out.merge(self.sub(sub, value, Some(Step::Key(name)), &rule)?);
                    covered.insert(key);
                }
            }
        }
        if let Some(Value::Object(patterns)) = obj.get("patternProperties") {
            for (source, sub) in patterns {
                let Some(pattern) = self.index.pattern(source) else {
                    continue;
                };
                for (key, value) in map.iter().filter(|(k, _)| pattern.is_match(k)) {
                    let rule = [Step::Key("patternProperties"), Step::Key(source)];
                    out.merge(self.sub(sub, value, Some(Step::Key(key)), &rule)?);
                    covered.insert(key);
                }
            }
        }
        if let Some(sub) = obj.get("additionalProperties") {
            let extra: Vec<&'i String> = map
                .keys()
                .filter(|k| !covered.contains(k.as_str()))
                .collect();
            self.rest_of_object(sub, map, &extra, "additionalProperties", out)?;
            covered.extend(extra.iter().map(|k| k.as_str()));
        }
        out.props.extend(covered);
        for keyword in ["dependentRequired", "dependentSchemas", "dependencies"] {
            if draft.has(keyword)
                && let Some(Value::Object(deps)) = obj.get(keyword)
            {
                self.dependents(keyword, deps, map, inst, out)?;
            }
        }
        if draft.has("propertyNames")
            && let Some(sub) = obj.get("propertyNames")
        {
            for key in map.keys() {
                let name = Value::String(key.clone());
                let found = self.sub(sub, &name, None, &[Step::Key("propertyNames")])?;
                out.faults.extend(found.faults);
            }
        }
        if draft.has("unevaluatedProperties")
            && let Some(sub) = obj.get("unevaluatedProperties")
        {
            let extra: Vec<&'i String> = map
                .keys()
                .filter(|k| !out.props.contains(k.as_str()))
                .collect();
            self.rest_of_object(sub, map, &extra, "unevaluatedProperties", out)?;
            out.props.extend(extra.iter().map(|k| k.as_str()));
        }
        Ok(())
    }

    /// `dependentRequired`, `dependentSchemas`, and draft 7's `dependencies` (either).
    fn dependents<'i>(
        &mut self,
        keyword: &str,
        deps: &'s Map<String, Value>,
        map: &'i Map<String, Value>,
        inst: &'i Value,
        out: &mut Outcome<'i>,
    ) -> Result<(), String> {
        for (name, dep) in deps
            .iter()
            .filter(|(name, _)| map.contains_key(name.as_str()))
        {
            match dep {
                Value::Array(names) if keyword != "dependentSchemas" => {
                    let missing = names
                        .iter()
                        .filter_map(Value::as_str)
                        .filter(|n| !map.contains_key(*n));
                    for missing in missing {
                        let mut found = self.violation(
                            Some(keyword),
                            format!("{} is a required property", quote(missing)),
                        );
                        push(&mut found.rule, Step::Key(name));
                        out.faults.push(found);
                    }
                }
                _ if keyword != "dependentRequired" => {
                    let rule = [Step::Key(keyword), Step::Key(name)];
                    out.merge(self.sub(dep, inst, None, &rule)?);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `additionalProperties` or `unevaluatedProperties` over the properties left: `false` is one
    /// violation naming them all.
    fn rest_of_object<'i>(
        &mut self,
        sub: &'s Value,
        map: &'i Map<String, Value>,
        extra: &[&'i String],
        keyword: &str,
        out: &mut Outcome<'i>,
    ) -> Result<(), String> {
        if sub == &Value::Bool(false) {
            if !extra.is_empty() {
                let which = if keyword == "additionalProperties" {
                    "Additional"
                } else {
                    "Unevaluated"
                };
                let names = listed(extra.iter().map(|k| quote(k)));
                let message = format!("{which} properties are not allowed ({names} unexpected)");
                out.faults.push(self.violation(Some(keyword), message));
            }
            return Ok(());
        }
        for key in extra {
            if let Some(value) = map.get(key.as_str()) {
                out.merge(self.sub(sub, value, Some(Step::Key(key)), &[Step::Key(keyword)])?);
            }
        }
        Ok(())
    }

    fn array<'i>(
        &mut self,
        obj: &'s Map<String, Value>,
        items: &'i [Value],
        out: &mut Outcome<'i>,
    ) -> Result<(), String> {
        let draft = self.index.draft;
        let (prefix_keyword, rest_keyword) = if draft.items_array() {
            ("items", "additionalItems")
        } else {
            ("prefixItems", "items")
        };
        let mut prefix = 0;
        let mut rest_applies = true;
        match obj.get(prefix_keyword) {
            Some(Value::Array(subs)) => {
                for (i, (sub, item)) in subs.iter().zip(items).enumerate() {
                    let rule = [Step::Key(prefix_keyword), Step::Index(i)];
                    out.merge(self.sub(sub, item, Some(Step::Index(i)), &rule)?);
                    out.items.insert(i);
                }
                prefix = subs.len();
            }
            // Before 2020-12 a single `items` schema is every item's, and `additionalItems`
            // has nothing left.
            Some(sub) if draft.items_array() => {
                self.rest_of_array(sub, items, 0, "items", out)?;
                rest_applies = false;
            }
            _ if draft.items_array() => rest_applies = false,
            _ => {}
        }
        if rest_applies && let Some(sub) = obj.get(rest_keyword) {
            self.rest_of_array(sub, items, prefix, rest_keyword, out)?;
        }
        if draft.has("contains")
            && let Some(sub) = obj.get("contains")
        {
            self.contains(obj, sub, items, out)?;
        }
        if draft.has("unevaluatedItems")
            && let Some(sub) = obj.get("unevaluatedItems")
        {
            let left = (0..items.len()).filter(|i| !out.items.contains(i)).min();
            if let Some(from) = left {
                let left: Vec<usize> = (from..items.len())
                    .filter(|i| !out.items.contains(i))
                    .collect();
                if sub == &Value::Bool(false) {
                    let shown = listed(left.iter().map(|&i| show(&items[i])));
                    let message = format!("Unevaluated items are not allowed ({shown} unexpected)");
                    out.faults
                        .push(self.violation(Some("unevaluatedItems"), message));
                } else {
                    for &i in &left {
                        let rule = [Step::Key("unevaluatedItems")];
                        out.merge(self.sub(sub, &items[i], Some(Step::Index(i)), &rule)?);
                    }
                }
                out.items.extend(left);
            }
        }
        Ok(())
    }

    /// `contains`, with `minContains` and `maxContains` where the draft has them.
    fn contains<'i>(
        &mut self,
        obj: &'s Map<String, Value>,
        sub: &'s Value,
        items: &'i [Value],
        out: &mut Outcome<'i>,
    ) -> Result<(), String> {
        let draft = self.index.draft;
        let mut matched = Vec::new();
        for (i, item) in items.iter().enumerate() {
            if self
                .sub(sub, item, Some(Step::Index(i)), &[Step::Key("contains")])?
                .valid()
            {
                matched.push(i);
            }
        }
        let bound = |keyword| draft.has(keyword).then(|| limit(obj, keyword)).flatten();
        let min = bound("minContains").unwrap_or(1);
        let count = matched.len() as u64;
        let shown = || show(&Value::Array(items.to_vec()));
        if count < min {
            let (keyword, message) = if min == 1 {
                (
                    "contains",
                    format!("None of {} are valid under the given schema", shown()),
                )
            } else {
                (
                    "minContains",
                    format!(
                        "{} contains fewer than {min} items valid under the given schema",
                        shown()
                    ),
                )
            };
            out.faults.push(self.violation(Some(keyword), message));
        }
        if let Some(max) = bound("maxContains")
            && count > max
        {
            let message = format!(
                "{} contains more than {max} items valid under the given schema",
                shown()
            );
            out.faults
                .push(self.violation(Some("maxContains"), message));
        }
        if draft >= Draft::D2020 {
            out.items.extend(matched);
        }
        Ok(())
    }

    /// `items` (or `additionalItems`) over the items from `from` on: `false` is one violation
    /// naming them all.
    fn rest_of_array<'i>(
        &mut self,
        sub: &'s Value,
        items: &'i [Value],
        from: usize,
        keyword: &str,
        out: &mut Outcome<'i>,
    ) -> Result<(), String> {
        if from >= items.len() {
            return Ok(());
        }
        if sub == &Value::Bool(false) {
            let shown = listed(items[from..].iter().map(show));
            let message = format!("Additional items are not allowed ({shown} unexpected)");
            out.faults.push(self.violation(Some(keyword), message));
            return Ok(());
        }
        for (i, item) in items.iter().enumerate().skip(from) {
            out.merge(self.sub(sub, item, Some(Step::Index(i)), &[Step::Key(keyword)])?);
            out.items.insert(i);
        }
        Ok(())
    }
}

/// The keywords that look at the instance alone: type, enum, const, and the bounds of numbers,
/// strings, arrays and objects.
fn assertions(
    draft: Draft,
    obj: &Map<String, Value>,
    inst: &Value,
    index: &Index<'_>,
) -> Vec<(&'static str, String)> {
    let mut found = Vec::new();
    let shown = || show(inst);
    if let Some(types) = obj.get("type") {
        let names: Vec<&str> = match types {
            Value::String(name) => vec![name],
            Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !names.iter().any(|name| has_type(inst, name)) {
            let quoted: Vec<String> = names.iter().map(|n| quote(n)).collect();
            let (s, list) = if quoted.len() == 1 {
                ("", quoted[0].clone())
            } else {
                ("s", quoted.join(", "))
            };
            found.push(("type", format!("{} is not of type{s} {list}", shown())));
        }
    }
    if let Some(Value::Array(allowed)) = obj.get("enum")
        && !allowed.iter().any(|v| equal(v, inst))
    {
        found.push((
            "enum",
            format!("{} is not one of {}", shown(), show(&obj["enum"])),
        ));
    }
    if draft.has("const")
        && let Some(expected) = obj.get("const")
        && !equal(expected, inst)
    {
        found.push(("const", format!("{} was expected", show(expected))));
    }
    match inst {
        Value::Number(n) => {
            use std::cmp::Ordering::{Greater, Less};
            let bound = |keyword: &str| obj.get(keyword).and_then(|v| v.as_number());
            let exclusive_flag =
                |keyword: &str| draft == Draft::D4 && obj.get(keyword) == Some(&Value::Bool(true));
            if let Some(max) = bound("maximum") {
                let exclusive = exclusive_flag("exclusiveMaximum");
                let over =
                    compare(n, max).is_some_and(|o| o == Greater || (exclusive && o != Less));
                if over {
                    let or_equal = if exclusive { " or equal to" } else { "" };
                    found.push((
                        "maximum",
                        format!("{} is greater than{or_equal} the maximum of {max}", shown()),
                    ));
                }
            }
            if let Some(min) = bound("minimum") {
                let exclusive = exclusive_flag("exclusiveMinimum");
                let under =
                    compare(n, min).is_some_and(|o| o == Less || (exclusive && o != Greater));
                if under {
                    let or_equal = if exclusive { " or equal to" } else { "" };
                    found.push((
                        "minimum",
                        format!("{} is less than{or_equal} the minimum of {min}", shown()),
                    ));
                }
            }
            if let Some(max) = bound("exclusiveMaximum")
                && compare(n, max).is_some_and(|o| o != Less)
            {
                found.push((
                    "exclusiveMaximum",
                    format!(
                        "{} is greater than or equal to the maximum of {max}",
                        shown()
                    ),
                ));
            }
            if let Some(min) = bound("exclusiveMinimum")
                && compare(n, min).is_some_and(|o| o != Greater)
            {
                found.push((
                    "exclusiveMinimum",
                    format!("{} is less than or equal to the minimum of {min}", shown()),
                ));
            }
            if let Some(by) = bound("multipleOf")
                && !is_multiple(n, by)
            {
                found.push((
                    "multipleOf",
                    format!("{} is not a multiple of {by}", shown()),
                ));
            }
        }
        Value::String(s) => {
            let length = || s.chars().count() as u64;
            if let Some(max) = limit(obj, "maxLength")
                && length() > max
            {
                found.push((
                    "maxLength",
                    format!("{} is longer than {max} character{}", shown(), plural(max)),
                ));
            }
            if let Some(min) = limit(obj, "minLength")
                && length() < min
            {
                found.push((
                    "minLength",
                    format!("{} is shorter than {min} character{}", shown(), plural(min)),
                ));
            }
            if let Some(source) = obj.get("pattern").and_then(Value::as_str)
                && index.pattern(source).is_some_and(|p| !p.is_match(s))
            {
                found.push((
                    "pattern",
                    format!("{} does not match {}", shown(), quote(source)),
                ));
            }
        }
        Value::Array(items) => {
            let len = items.len() as u64;
            if let Some(max) = limit(obj, "maxItems")
                && len > max
            {
                found.push((
                    "maxItems",
                    format!("{} has more than {max} item{}", shown(), plural(max)),
                ));
            }
            if let Some(min) = limit(obj, "minItems")
                && len < min
            {
                found.push((
                    "minItems",
                    format!("{} has less than {min} item{}", shown(), plural(min)),
                ));
            }
            if obj.get("uniqueItems") == Some(&Value::Bool(true))
                && items
                    .iter()
                    .enumerate()
                    .any(|(i, a)| items[..i].iter().any(|b| equal(a, b)))
            {
                found.push((
                    "uniqueItems",
                    format!("{} has non-unique elements", shown()),
                ));
            }
        }
        Value::Object(map) => {
            let len = map.len() as u64;
            if let Some(max) = limit(obj, "maxProperties")
                && len > max
            {
                found.push((
                    "maxProperties",
                    format!(
                        "{} has more than {max} propert{}",
                        shown(),
                        if max == 1 { "y" } else { "ies" }
                    ),
                ));
            }
            if let Some(min) = limit(obj, "minProperties")
                && len < min
            {
                found.push((
                    "minProperties",
                    format!(
                        "{} has less than {min} propert{}",
                        shown(),
                        if min == 1 { "y" } else { "ies" }
                    ),
                ));
            }
            if let Some(Value::Array(required)) = obj.get("required") {
                for name in required
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|n| !map.contains_key(*n))
                {
                    found.push((
                        "required",
                        format!("{} is a required property", quote(name)),
                    ));
                }
            }
        }
        _ => {}
    }
    found
}

fn has_type(inst: &Value, name: &str) -> bool {
    match (name, inst) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("object", Value::Object(_))
        | ("array", Value::Array(_))
        | ("string", Value::String(_))
        | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => is_integer(n),
        _ => false,
    }
}

/// A count limit (`maxLength`, `minItems`, …): a non-negative integer, written `2` or `2.0`.
fn limit(obj: &Map<String, Value>, keyword: &str) -> Option<u64> {
    let value = obj.get(keyword)?;
    value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < u64::MAX as f64)
            .map(|f| f as u64)
    })
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `'a', 'b' were` or `'a' was`, at most ten named.
fn listed(names: impl Iterator<Item = String>) -> String {
    let names: Vec<String> = names.collect();
    let verb = if names.len() == 1 { "was" } else { "were" };
    let mut shown: Vec<&str> = names.iter().take(10).map(String::as_str).collect();
    let more = names.len().saturating_sub(10);
    let tail = format!("and {more} more");
    if more > 0 {
        shown.push(&tail);
    }
    format!("{} {verb}", shown.join(", "))
}
