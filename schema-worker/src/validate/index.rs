//! Reads a schema document once before any instance is checked: where each subschema's base URI
//! is, what each `$ref`, `$dynamicRef` and `$recursiveRef` points to, every pattern compiled,
//! and whether the schema is one at all (the shapes its keywords' values must have). A reference
//! that leaves the document, or a keyword of the wrong shape, makes the schema unusable.

use std::collections::{HashMap, HashSet};

use fluent_uri::{Uri, UriRef};
use serde_json::{Map, Value};

use super::draft::Draft;
use super::json::quote;
use super::pattern::Pattern;

/// A value's identity: its address in the document, which outlives the check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Addr(usize);

impl Addr {
    pub fn of(value: &Value) -> Self {
        Self(value as *const Value as usize)
    }
}

/// The base URI of a document with no `$id` of its own.
const DEFAULT_BASE: &str = "json-schema:///";

/// A `$dynamicRef`: where it points first, and the anchor name that makes it dynamic (when the
/// target carries a `$dynamicAnchor` of that name).
pub struct Dynamic<'s> {
    pub target: &'s Value,
    pub anchor: Option<String>,
}

/// What the check needs to know about the document.
pub struct Index<'s> {
    pub draft: Draft,
    refs: HashMap<Addr, &'s Value>,
    dynamic_refs: HashMap<Addr, Dynamic<'s>>,
    recursive_refs: HashMap<Addr, &'s Value>,
    /// Subschemas that begin a schema resource (the root and each with an `$id`).
    resources: HashSet<Addr>,
    /// Each resource's `$dynamicAnchor`s.
    dynamic_anchors: HashMap<Addr, HashMap<String, &'s Value>>,
    /// Resources whose root says `$recursiveAnchor: true` (2019-09), with that root.
    recursive_anchors: HashMap<Addr, &'s Value>,
    patterns: HashMap<String, Pattern>,
}

impl<'s> Index<'s> {
    /// Reads `root`, or says why it cannot be used.
    pub fn build(root: &'s Value) -> Result<Self, String> {
        let draft = Draft::of(root);
        let mut builder = Builder {
            index: Index {
                draft,
                refs: HashMap::new(),
                dynamic_refs: HashMap::new(),
                recursive_refs: HashMap::new(),
                resources: HashSet::from([Addr::of(root)]),
                dynamic_anchors: HashMap::new(),
                recursive_anchors: HashMap::new(),
                patterns: HashMap::new(),
            },
            by_uri: HashMap::from([(DEFAULT_BASE.to_owned(), root)]),
            anchors: HashMap::new(),
            pending: Vec::new(),
            walked: HashSet::new(),
        };
        builder.walk(root, DEFAULT_BASE, root, "")?;
        builder.resolve_pending()?;
        Ok(builder.index)
    }

    pub fn ref_of(&self, holder: &Value) -> Option<&'s Value> {
        self.refs.get(&Addr::of(holder)).copied()
    }

    pub fn dynamic_ref_of(&self, holder: &Value) -> Option<&Dynamic<'s>> {
        self.dynamic_refs.get(&Addr::of(holder))
    }

    pub fn recursive_ref_of(&self, holder: &Value) -> Option<&'s Value> {
        self.recursive_refs.get(&Addr::of(holder)).copied()
    }

    pub fn is_resource(&self, schema: &Value) -> bool {
        self.resources.contains(&Addr::of(schema))
    }

    pub fn dynamic_anchor(&self, resource: Addr, name: &str) -> Option<&'s Value> {
        self.dynamic_anchors.get(&resource)?.get(name).copied()
    }

    /// The root of `resource` if it says `$recursiveAnchor: true`.
    pub fn recursive_anchor(&self, resource: Addr) -> Option<&'s Value> {
        self.recursive_anchors.get(&resource).copied()
    }

    /// A pattern of the document (every one was compiled by [`Index::build`]).
    pub fn pattern(&self, source: &str) -> Option<&Pattern> {
        self.patterns.get(source)
    }
}

enum Kind {
    Ref,
    Dynamic,
    Recursive,
}

/// A reference met on the walk, resolved once the whole document is read.
struct Pending<'s> {
    holder: &'s Value,
    kind: Kind,
    reference: &'s str,
    base: String,
    resource: &'s Value,
    at: String,
}

struct Builder<'s> {
    index: Index<'s>,
    /// Resource roots by absolute URI (no fragment).
    by_uri: HashMap<String, &'s Value>,
    /// Plain-name anchors by the URI of their resource and their name.
    anchors: HashMap<(String, String), &'s Value>,
    pending: Vec<Pending<'s>>,
    walked: HashSet<Addr>,
}

impl<'s> Builder<'s> {
    fn walk(
        &mut self,
        schema: &'s Value,
        base: &str,
        resource: &'s Value,
        at: &str,
    ) -> Result<(), String> {
        if !self.walked.insert(Addr::of(schema)) {
            return Ok(());
        }
        let obj = match schema {
            Value::Bool(_) => return Ok(()),
            Value::Object(obj) => obj,
            other => {
                return Err(format!(
                    "{}: a schema is an object or a boolean, not {}",
                    place(at),
                    kind(other)
                ));
            }
        };
        let draft = self.index.draft;
        let mut base = base.to_owned();
        let mut resource = resource;
        if let Some(id) = obj.get(draft.id()) {
            let id = string(id, at, draft.id())?;
            if let Some(name) = id.strip_prefix('#').filter(|_| draft <= Draft::D7) {
                self.anchors.insert((base.clone(), name.to_owned()), schema);
            } else {
                let (uri, fragment) = resolve(&base, id, at)?;
                base = uri;
                resource = schema;
                self.index.resources.insert(Addr::of(schema));
                self.by_uri.insert(base.clone(), schema);
                if let Some(name) = fragment.filter(|f| !f.is_empty()) {
                    self.anchors.insert((base.clone(), name), schema);
                }
            }
        }
        for keyword in ["$anchor", "$dynamicAnchor"] {
            if draft.has(keyword)
                && let Some(name) = obj.get(keyword)
            {
                let name = string(name, at, keyword)?;
                self.anchors.insert((base.clone(), name.to_owned()), schema);
                if keyword == "$dynamicAnchor" {
                    self.index
                        .dynamic_anchors
                        .entry(Addr::of(resource))
                        .or_default()
                        .insert(name.to_owned(), schema);
                }
            }
        }
        if draft.has("$recursiveAnchor")
            && obj.get("$recursiveAnchor") == Some(&Value::Bool(true))
            && std::ptr::eq(resource, schema)
        {
            self.index
                .recursive_anchors
                .insert(Addr::of(schema), schema);
        }
        for (keyword, kind) in [
            ("$ref", Kind::Ref),
            ("$dynamicRef", Kind::Dynamic),
            ("$recursiveRef", Kind::Recursive),
        ] {
            if draft.has(keyword)
                && let Some(reference) = obj.get(keyword)
            {
                self.pending.push(Pending {
                    holder: schema,
                    kind,
                    reference: string(reference, at, keyword)?,
                    base: base.clone(),
                    resource,
                    at: format!("{at}/{keyword}"),
                });
            }
        }
        self.check_values(obj, at)?;
        for (step, sub) in children(draft, obj, at)? {
            self.walk(sub, &base, resource, &format!("{at}/{step}"))?;
        }
        Ok(())
    }

    /// The shapes of the values of the keywords that are not subschemas.
    fn check_values(&mut self, obj: &'s Map<String, Value>, at: &str) -> Result<(), String> {
        let draft = self.index.draft;
        let wrong = |keyword: &str, what: &str| {
            Err(format!(
                "{}: {keyword} must be {what}",
                place(&format!("{at}/{keyword}"))
            ))
        };
        for (keyword, value) in obj {
            let keyword = keyword.as_str();
            match keyword {
                "type" => {
                    let names: Vec<&Value> = match value {
                        Value::Array(names) if !names.is_empty() => names.iter().collect(),
                        Value::String(_) => vec![value],
                        _ => return wrong(keyword, "a type name or a non-empty array of them"),
                    };
                    for name in names {
                        if !name.as_str().is_some_and(|n| TYPES.contains(&n)) {
                            return wrong(keyword, &format!("one of {}", TYPES.join(", ")))
                                .map_err(|e| format!("{e} ({name} is not)"));
                        }
                    }
                }
                "enum" if !value.is_array() => return wrong(keyword, "an array"),
                "required" if !strings(value) => return wrong(keyword, "an array of strings"),
                "multipleOf" if !value.as_f64().is_some_and(|m| m > 0.0) => {
                    return wrong(keyword, "a number greater than 0");
                }
                "maximum" | "minimum" if !value.is_number() => return wrong(keyword, "a number"),
                "exclusiveMaximum" | "exclusiveMinimum" => {
                    if draft == Draft::D4 && !value.is_boolean() {
                        return wrong(keyword, "a boolean in draft 4");
                    }
                    if draft > Draft::D4 && !value.is_number() {
                        return wrong(keyword, "a number");
                    }
                }
                "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties"
                | "minProperties" | "maxContains" | "minContains"
                    if !non_negative_integer(value) =>
                {
                    return wrong(keyword, "a non-negative integer");
                }
                "uniqueItems" if !value.is_boolean() => return wrong(keyword, "a boolean"),
                "pattern" => {
                    let source = string(value, at, keyword)?;
                    self.compile(source, &format!("{at}/pattern"))?;
                }
                "patternProperties" => {
                    for source in value.as_object().into_iter().flat_map(Map::keys) {
                        self.compile(source, &format!("{at}/patternProperties"))?;
                    }
                }
                "dependentRequired" if draft.has(keyword) => {
                    let fine = value
                        .as_object()
                        .is_some_and(|deps| deps.values().all(strings));
                    if !fine {
                        return wrong(keyword, "an object of arrays of strings");
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn compile(&mut self, source: &str, at: &str) -> Result<(), String> {
        if !self.index.patterns.contains_key(source) {
            let pattern = Pattern::new(source).map_err(|e| {
                format!(
                    "{}: {} is not a regular expression: {e}",
                    place(at),
                    quote(source)
                )
            })?;
            self.index.patterns.insert(source.to_owned(), pattern);
        }
        Ok(())
    }

    fn resolve_pending(&mut self) -> Result<(), String> {
        while let Some(pending) = self.pending.pop() {
            let holder = Addr::of(pending.holder);
            match pending.kind {
                Kind::Ref => {
                    let (target, _) = self.target(&pending)?;
                    self.index.refs.insert(holder, target);
                }
                Kind::Dynamic => {
                    let (target, fragment) = self.target(&pending)?;
                    let anchor = fragment.filter(|name| {
                        target.get("$dynamicAnchor").and_then(Value::as_str) == Some(name)
                    });
                    self.index
                        .dynamic_refs
                        .insert(holder, Dynamic { target, anchor });
                }
                Kind::Recursive => {
                    if pending.reference != "#" {
                        return Err(format!(
                            "{}: $recursiveRef must be \"#\"",
                            place(&pending.at)
                        ));
                    }
                    self.index.recursive_refs.insert(holder, pending.resource);
                }
            }
        }
        Ok(())
    }

    /// Where a reference points, and its fragment when that is an anchor's name.
    fn target(&mut self, pending: &Pending<'s>) -> Result<(&'s Value, Option<String>), String> {
        let (uri, fragment) = resolve(&pending.base, pending.reference, &pending.at)?;
        let outside = || {
            format!(
                "{}: {} points outside the schema ({uri}); this checker resolves references within the schema only",
                place(&pending.at),
                quote(pending.reference)
            )
        };
        let root = *self.by_uri.get(&uri).ok_or_else(outside)?;
        let (target, anchor) = match fragment.as_deref() {
            None | Some("") => (root, None),
            Some(pointer) if pointer.starts_with('/') => {
                let target = root.pointer(pointer).ok_or_else(|| {
                    format!(
                        "{}: {} points to nothing in the schema",
                        place(&pending.at),
                        quote(pending.reference)
                    )
                })?;
                (target, None)
            }
            Some(name) => {
                let target = self
                    .anchors
                    .get(&(uri.clone(), name.to_owned()))
                    .copied()
                    .ok_or_else(|| {
                        format!(
                            "{}: no anchor {} in the schema",
                            place(&pending.at),
                            quote(name)
                        )
                    })?;
                (target, Some(name.to_owned()))
            }
        };
        // A pointer may lead where the walk did not go (under a keyword it does not know).
        self.walk(target, &uri, root, &pending.at)?;
        Ok((target, anchor))
    }
}

/// The subschemas of a schema object, each with its step from there, checking their containers'
/// shapes on the way.
fn children<'s>(
    draft: Draft,
    obj: &'s Map<String, Value>,
    at: &str,
) -> Result<Vec<(String, &'s Value)>, String> {
    let mut found = Vec::new();
    for (keyword, value) in obj {
        let keyword = keyword.as_str();
        if !draft.has(keyword) {
            continue;
        }
        let here = || place(&format!("{at}/{keyword}"));
        match keyword {
            "additionalProperties"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "additionalItems" => {
                found.push((keyword.to_owned(), value));
            }
            "items" => match value {
                Value::Array(subs) if draft.items_array() => {
                    found.extend(
                        subs.iter()
                            .enumerate()
                            .map(|(i, s)| (format!("items/{i}"), s)),
                    );
                }
                Value::Array(_) => {
                    return Err(format!(
                        "{}: items is one schema in 2020-12 (an array of them is prefixItems)",
                        here()
                    ));
                }
                _ => found.push((keyword.to_owned(), value)),
            },
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                let map = value
                    .as_object()
                    .ok_or_else(|| format!("{}: must be an object of schemas", here()))?;
                found.extend(
                    map.iter()
                        .map(|(k, s)| (format!("{keyword}/{}", super::json::pointer_step(k)), s)),
                );
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => match value {
                Value::Array(subs) if !subs.is_empty() => {
                    found.extend(
                        subs.iter()
                            .enumerate()
                            .map(|(i, s)| (format!("{keyword}/{i}"), s)),
                    );
                }
                _ => return Err(format!("{}: must be a non-empty array of schemas", here())),
            },
            "dependencies" => {
                let map = value
                    .as_object()
                    .ok_or_else(|| format!("{}: must be an object", here()))?;
                for (k, dep) in map {
                    if dep.is_array() {
                        if !strings(dep) {
                            return Err(format!("{}: {} must list strings", here(), quote(k)));
                        }
                    } else {
                        found.push((
                            format!("dependencies/{}", super::json::pointer_step(k)),
                            dep,
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(found)
}

const TYPES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// `reference` resolved against `base`: the absolute URI without its fragment, and the fragment
/// percent-decoded.
fn resolve(base: &str, reference: &str, at: &str) -> Result<(String, Option<String>), String> {
    let bad = |e: String| {
        format!(
            "{}: {} is not a usable URI reference: {e}",
            place(at),
            quote(reference)
        )
    };
    let base = Uri::parse(base).map_err(|e| bad(e.to_string()))?;
    let full = UriRef::parse(reference)
        .map_err(|e| bad(e.to_string()))?
        .resolve_against(&base)
        .map_err(|e| bad(e.to_string()))?;
    let fragment = match full.fragment() {
        Some(f) => Some(
            percent_encoding::percent_decode_str(f.as_str())
                .decode_utf8()
                .map_err(|e| bad(e.to_string()))?
                .into_owned(),
        ),
        None => None,
    };
    Ok((
        full.strip_fragment().normalize().as_str().to_owned(),
        fragment,
    ))
}

fn string<'s>(value: &'s Value, at: &str, keyword: &str) -> Result<&'s str, String> {
    value.as_str().ok_or_else(|| {
        format!(
            "{}: {keyword} must be a string",
            place(&format!("{at}/{keyword}"))
        )
    })
}

fn strings(value: &Value) -> bool {
    value
        .as_array()
        .is_some_and(|items| items.iter().all(Value::is_string))
}

fn non_negative_integer(value: &Value) -> bool {
    value.as_u64().is_some() || value.as_f64().is_some_and(|f| f >= 0.0 && f.fract() == 0.0)
}

/// Where in the schema, for a reason.
fn place(at: &str) -> String {
    if at.is_empty() {
        "the schema".into()
    } else {
        format!("at {at}")
    }
}

pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
