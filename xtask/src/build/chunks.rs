//! Fewer files for a first run: the splitter (xtask/src/build/split.rs) makes one shared chunk per set
//! of split modules that share code, so a first run fetched the `run` module and about 40 chunks
//! of a few hundred bytes each. This step merges the chunks into one file per split module, in
//! [`ORDER`]: every chunk the `run` module needs goes into `chunk_run.wasm`, every other chunk
//! the next module needs into its own, and so on. A module then fetches its own file and at most
//! one merged chunk per module before it in the order, each once (the loader memoizes).
//!
//! A chunk only fills its own slots of the shared function table and its own addresses of the
//! shared memory (active segments at fixed offsets), imports nothing but the main module's
//! memory, table and globals, and exports nothing; so chunks merge by putting their types,
//! functions and segments side by side with the indices renumbered. Loading a chunk a module does
//! not need is harmless: it fills slots and addresses no other code uses.

use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;

use wasm_encoder::reencode::{Error as ReencodeError, Reencode};
use wasm_encoder::{
    CodeSection, DataCountSection, DataSection, ElementSection, EntityType, FunctionSection,
    ImportSection, Module, TypeSection,
};
use wasmparser::{Parser, Payload, TypeRef};

use crate::sh::Result;

/// The split modules in the order their merged chunks are made; the others follow by name.
/// `run` comes first: every run fetches it, and a first run should fetch few files.
pub const ORDER: &[&str] = &["run"];

/// One chunk of the splitter's loader: its variable, its file and the modules that need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub var: String,
    pub file: String,
    pub needed_by: BTreeSet<String>,
}

/// A merge to do: the chunks (by file) that become `file`, loaded as `var`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    pub module: String,
    pub var: String,
    pub file: String,
    pub from: Vec<Chunk>,
}

/// Which chunks go into which merged file: for each module in [`ORDER`] (then by name), every
/// chunk it needs that no earlier merge took. A merge of one chunk is kept (renamed), so every
/// chunk file ends up named for the module it was merged for.
pub fn plan(chunks: &[Chunk]) -> Vec<Merge> {
    let mut modules: Vec<&str> = ORDER.to_vec();
    let rest: BTreeSet<&str> = chunks
        .iter()
        .flat_map(|c| c.needed_by.iter().map(String::as_str))
        .filter(|m| !ORDER.contains(m))
        .collect();
    modules.extend(rest);
    let mut taken = BTreeSet::new();
    let mut merges = Vec::new();
    for module in modules {
        let from: Vec<Chunk> = chunks
            .iter()
            .filter(|c| c.needed_by.contains(module) && !taken.contains(&c.var))
            .cloned()
            .collect();
        if from.is_empty() {
            continue;
        }
        taken.extend(from.iter().map(|c| c.var.clone()));
        merges.push(Merge {
            module: module.to_owned(),
            var: format!("__chunk_{module}"),
            file: format!("chunk_{module}.wasm"),
            from,
        });
    }
    merges
}

/// The chunks the splitter's loader declares: a comment naming the modules that need it, then
/// `const __chunk_N = makeLoad(…"./chunk_N.wasm"…, []);`.
pub fn chunks_in(js: &str) -> Result<Vec<Chunk>> {
    let lines: Vec<&str> = js.lines().collect();
    let mut chunks = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(var) = line
            .strip_prefix("const ")
            .and_then(|l| l.strip_suffix(" = makeLoad(() => {"))
        else {
            continue;
        };
        let needed_by = i
            .checked_sub(1)
            .and_then(|p| lines[p].strip_prefix("/* "))
            .and_then(|l| l.strip_suffix(" */"))
            .ok_or_else(|| format!("the loader's {var} has no comment naming its modules"))?;
        let file = lines
            .get(i + 1)
            .and_then(|l| l.split("new URL(\"./").nth(1))
            .and_then(|l| l.split('"').next())
            .ok_or_else(|| format!("the loader's {var} fetches no file it names"))?;
        chunks.push(Chunk {
            var: var.to_owned(),
            file: file.to_owned(),
            needed_by: needed_by.split(", ").map(str::to_owned).collect(),
        });
    }
    Ok(chunks)
}

/// The loader with the merges made: each merge's chunks declared as one, and every list of
/// dependencies naming the merged chunk once where it named any of its parts.
pub fn rewrite_loader(js: &str, merges: &[Merge]) -> Result<String> {
    let merged_into: BTreeMap<&str, &Merge> = merges
        .iter()
        .flat_map(|m| m.from.iter().map(move |c| (c.var.as_str(), m)))
        .collect();
    let lines: Vec<&str> = js.lines().collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    let mut declared = BTreeSet::new();
    while i < lines.len() {
        let line = lines[i];
        let declares = line
            .strip_prefix("const ")
            .and_then(|l| l.strip_suffix(" = makeLoad(() => {"));
        if let Some(merge) = declares.and_then(|v| merged_into.get(v)) {
            // The declaration runs to its `, []);` line; the comment before it is already out.
            let end = (i..lines.len())
                .find(|&j| lines[j] == ", []);")
                .ok_or_else(|| format!("the loader's {} does not end", merge.var))?;
            out.pop();
            if declared.insert(merge.var.clone()) {
                out.push(format!(
                    "/* the shared chunks {} needs that no module before it took (xtask/src/build/chunks.rs) */",
                    merge.module
                ));
                let old = &merge.from[0];
                for l in &lines[i..=end] {
                    out.push(l.replace(&old.var, &merge.var).replace(
                        &format!("\"./{}\"", old.file),
                        &format!("\"./{}\"", merge.file),
                    ));
                }
            }
            i = end + 1;
            continue;
        }
        if let Some(deps) = line
            .strip_prefix(", [")
            .and_then(|l| l.strip_suffix("]));"))
        {
            let mut names: Vec<&str> = Vec::new();
            for dep in deps.split(", ").filter(|d| !d.is_empty()) {
                let name = merged_into.get(dep).map_or(dep, |m| m.var.as_str());
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            out.push(format!(", [{}]));", names.join(", ")));
        } else {
            out.push(line.to_owned());
        }
        i += 1;
    }
    let left: Vec<&str> = merged_into
        .keys()
        .copied()
        .filter(|v| {
            out.iter()
                .any(|l| l.contains(&format!("{v},")) || l.contains(&format!("{v}]")))
        })
        .collect();
    if !left.is_empty() {
        return Err(format!("the loader still names merged chunks: {}", left.join(", ")).into());
    }
    Ok(out.join("\n") + "\n")
}

/// Renumbers one chunk's indices into the merged module's.
struct Renumber {
    types: u32,
    funcs: u32,
    data: u32,
    /// The chunk's global index → the merged module's (globals are imports only).
    globals: Vec<u32>,
}

impl Reencode for Renumber {
    type Error = Infallible;

    fn type_index(&mut self, ty: u32) -> std::result::Result<u32, ReencodeError<Infallible>> {
        Ok(ty + self.types)
    }
    fn function_index(&mut self, f: u32) -> std::result::Result<u32, ReencodeError<Infallible>> {
        Ok(f + self.funcs)
    }
    fn data_index(&mut self, d: u32) -> std::result::Result<u32, ReencodeError<Infallible>> {
        Ok(d + self.data)
    }
    fn global_index(&mut self, g: u32) -> std::result::Result<u32, ReencodeError<Infallible>> {
        Ok(self.globals.get(g as usize).copied().unwrap_or(g))
    }
}

/// Merges chunk modules into one. Fails on anything a chunk is not expected to hold (exports,
/// a start function, imported functions, its own tables, memories or globals, passive elements),
/// so a change in the splitter's output stops the build instead of breaking the page.
pub fn merge(modules: &[Vec<u8>]) -> Result<Vec<u8>> {
    let fail = |what: String| -> Box<dyn std::error::Error> { what.into() };
    let mut imports: Vec<(String, String, TypeRef)> = Vec::new();
    let (mut types, mut funcs, mut code) = (
        TypeSection::new(),
        FunctionSection::new(),
        CodeSection::new(),
    );
    let (mut elems, mut data) = (ElementSection::new(), DataSection::new());
    let (mut n_types, mut n_funcs, mut n_data) = (0u32, 0u32, 0u32);
    for (k, bytes) in modules.iter().enumerate() {
        let mut r = Renumber {
            types: n_types,
            funcs: n_funcs,
            data: n_data,
            globals: Vec::new(),
        };
        let (mut my_types, mut my_funcs, mut my_data) = (0u32, 0u32, 0u32);
        for payload in Parser::new(0).parse_all(bytes) {
            let payload = payload.map_err(|e| fail(format!("chunk {k}: {e}")))?;
            match payload {
                Payload::Version { .. } | Payload::CustomSection(_) | Payload::End(_) => {}
                Payload::DataCountSection { .. } | Payload::CodeSectionStart { .. } => {}
                Payload::ExportSection(s) if s.count() == 0 => {}
                Payload::TypeSection(s) => {
                    my_types = s.count();
                    r.parse_type_section(&mut types, s)
                        .map_err(|e| fail(format!("chunk {k}'s types: {e}")))?;
                }
                Payload::ImportSection(s) => {
                    for import in s.into_imports() {
                        let import = import.map_err(|e| fail(format!("chunk {k}: {e}")))?;
                        let key = (import.module.to_owned(), import.name.to_owned());
                        let at = match imports
                            .iter()
                            .position(|(m, n, _)| (m, n) == (&key.0, &key.1))
                        {
                            Some(at) if imports[at].2 == import.ty => at,
                            Some(_) => {
                                return Err(fail(format!(
                                    "chunk {k} imports {}.{} with another type",
                                    key.0, key.1
                                )));
                            }
                            None => {
                                imports.push((key.0, key.1, import.ty));
                                imports.len() - 1
                            }
                        };
                        match import.ty {
                            TypeRef::Global(_) => {
                                let index = imports[..=at]
                                    .iter()
                                    .filter(|(_, _, t)| matches!(t, TypeRef::Global(_)))
                                    .count() as u32
                                    - 1;
                                r.globals.push(index);
                            }
                            TypeRef::Memory(_) | TypeRef::Table(_) => {}
                            other => {
                                return Err(fail(format!("chunk {k} imports a {other:?}")));
                            }
                        }
                    }
                }
                Payload::FunctionSection(s) => {
                    for ty in s {
                        let ty = ty.map_err(|e| fail(format!("chunk {k}: {e}")))?;
                        funcs.function(ty + n_types);
                        my_funcs += 1;
                    }
                }
                Payload::CodeSectionEntry(body) => {
                    r.parse_function_body(&mut code, body)
                        .map_err(|e| fail(format!("chunk {k}'s code: {e}")))?;
                }
                Payload::ElementSection(s) => {
                    for element in s {
                        let element = element.map_err(|e| fail(format!("chunk {k}: {e}")))?;
                        if !matches!(element.kind, wasmparser::ElementKind::Active { .. }) {
                            return Err(fail(format!("chunk {k} has a passive element segment")));
                        }
                        r.parse_element(&mut elems, element)
                            .map_err(|e| fail(format!("chunk {k}'s elements: {e}")))?;
                    }
                }
                Payload::DataSection(s) => {
                    for datum in s {
                        let datum = datum.map_err(|e| fail(format!("chunk {k}: {e}")))?;
                        r.parse_data(&mut data, datum)
                            .map_err(|e| fail(format!("chunk {k}'s data: {e}")))?;
                        my_data += 1;
                    }
                }
                other => {
                    return Err(fail(format!(
                        "chunk {k} holds a section a chunk should not: {other:?}"
                    )));
                }
            }
        }
        // The global indices were laid out as this chunk's imports arrived; a later chunk may
        // add globals, which come after, so earlier indices stay right.
        n_types += my_types;
        n_funcs += my_funcs;
        n_data += my_data;
    }
    let mut import_section = ImportSection::new();
    let mut r = Renumber {
        types: 0,
        funcs: 0,
        data: 0,
        globals: Vec::new(),
    };
    for (module, name, ty) in &imports {
        let ty: EntityType = r
            .entity_type(*ty)
            .map_err(|e| fail(format!("import {module}.{name}: {e}")))?;
        import_section.import(module, name, ty);
    }
    let mut out = Module::new();
    out.section(&types)
        .section(&import_section)
        .section(&funcs)
        .section(&elems)
        .section(&DataCountSection { count: n_data })
        .section(&code)
        .section(&data);
    Ok(out.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        ConstExpr, Elements, Function, GlobalType, Instruction, MemoryType, RefType, TableType,
        ValType,
    };

    fn chunk(var: &str, needed_by: &[&str]) -> Chunk {
        Chunk {
            var: var.to_owned(),
            file: format!("{}.wasm", var.trim_start_matches("__")),
            needed_by: needed_by.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn run_takes_every_chunk_it_needs_and_the_rest_go_by_module_name() {
        let chunks = [
            chunk("__chunk_1", &["export", "run"]),
            chunk("__chunk_2", &["export", "import_recording"]),
            chunk("__chunk_3", &["run", "ui_panels"]),
            chunk("__chunk_4", &["import_recording", "ui_panels"]),
            chunk("__chunk_5", &["ui_panels", "ui_you"]),
        ];
        let merges = plan(&chunks);
        let got: Vec<(&str, Vec<&str>)> = merges
            .iter()
            .map(|m| {
                (
                    m.file.as_str(),
                    m.from.iter().map(|c| c.var.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("chunk_run.wasm", vec!["__chunk_1", "__chunk_3"]),
                ("chunk_export.wasm", vec!["__chunk_2"]),
                ("chunk_import_recording.wasm", vec!["__chunk_4"]),
                ("chunk_ui_panels.wasm", vec!["__chunk_5"]),
            ]
        );
    }

    const LOADER: &str = r#"function makeLoad(fetcher, deps) {}
/* export, run */
const __chunk_1 = makeLoad(() => {
    const src = fetch(new URL("./chunk_1.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
/* run, ui_panels */
const __chunk_3 = makeLoad(() => {
    const src = fetch(new URL("./chunk_3.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
/* export, ui_panels */
const __chunk_4 = makeLoad(() => {
    const src = fetch(new URL("./chunk_4.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
export const __wasm_split_load_run = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_run.wasm", import.meta.url));
}
, [__chunk_1, __chunk_3]));
export const __wasm_split_load_export = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_export.wasm", import.meta.url));
}
, [__chunk_1, __chunk_4]));
"#;

    #[test]
    fn the_loader_reads_its_chunks_and_names_each_merged_one_once() {
        let chunks = chunks_in(LOADER).expect("chunks");
        assert_eq!(
            chunks,
            vec![
                chunk("__chunk_1", &["export", "run"]),
                chunk("__chunk_3", &["run", "ui_panels"]),
                chunk("__chunk_4", &["export", "ui_panels"]),
            ]
        );
        let merges = plan(&chunks);
        let js = rewrite_loader(LOADER, &merges).expect("rewritten");
        assert_eq!(
            js.matches("const __chunk_run = makeLoad").count(),
            1,
            "{js}"
        );
        assert!(js.contains("new URL(\"./chunk_run.wasm\""), "{js}");
        assert!(js.contains("new URL(\"./chunk_export.wasm\""), "{js}");
        assert!(
            !js.contains("chunk_1") && !js.contains("chunk_3") && !js.contains("chunk_4"),
            "{js}"
        );
        assert!(js.contains(", [__chunk_run]));"), "{js}");
        assert!(js.contains(", [__chunk_run, __chunk_export]));"), "{js}");
        assert!(js.contains("split_run.wasm") && js.contains("split_export.wasm"));
    }

    /// A chunk as the splitter writes one: the shared memory, table and a global imported, its
    /// functions put in the table at `slot`, a datum at `address`; function 0 calls function 1.
    fn chunk_module(slot: i32, address: i32, datum: &[u8], global: &str) -> Vec<u8> {
        let mut types = TypeSection::new();
        types.ty().function([ValType::I32], [ValType::I32]);
        types.ty().function([], []);
        let mut imports = ImportSection::new();
        imports.import(
            "__wasm_split",
            "memory",
            MemoryType {
                minimum: 1,
                maximum: None,
                memory64: false,
                shared: false,
                page_size_log2: None,
            },
        );
        imports.import(
            "__wasm_split",
            "__indirect_function_table",
            TableType {
                element_type: RefType::FUNCREF,
                minimum: 8,
                maximum: None,
                table64: false,
                shared: false,
            },
        );
        imports.import(
            "__wasm_split",
            global,
            GlobalType {
                val_type: ValType::I32,
                mutable: true,
                shared: false,
            },
        );
        let mut funcs = FunctionSection::new();
        funcs.function(1).function(0);
        let mut elems = ElementSection::new();
        elems.active(
            None,
            &ConstExpr::i32_const(slot),
            Elements::Functions(vec![0, 1].into()),
        );
        let mut code = CodeSection::new();
        let mut f0 = Function::new([]);
        f0.instruction(&Instruction::GlobalGet(0))
            .instruction(&Instruction::Call(1))
            .instruction(&Instruction::Drop)
            .instruction(&Instruction::End);
        code.function(&f0);
        let mut f1 = Function::new([]);
        f1.instruction(&Instruction::LocalGet(0))
            .instruction(&Instruction::End);
        code.function(&f1);
        let mut data = DataSection::new();
        data.active(0, &ConstExpr::i32_const(address), datum.iter().copied());
        let mut m = Module::new();
        m.section(&types)
            .section(&imports)
            .section(&funcs)
            .section(&elems)
            .section(&code)
            .section(&data);
        m.finish()
    }

    #[test]
    fn merged_chunks_keep_their_slots_addresses_and_calls() {
        let a = chunk_module(2, 100, b"first", "__wasm_split_shared0");
        let b = chunk_module(4, 200, b"second", "__wasm_split_shared1");
        let merged = merge(&[a, b]).expect("merged");
        wasmparser::Validator::new()
            .validate_all(&merged)
            .expect("a valid module");
        let (mut slots, mut addresses, mut calls, mut globals, mut imports) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for payload in Parser::new(0).parse_all(&merged) {
            match payload.expect("payload") {
                Payload::ImportSection(s) => {
                    for i in s.into_imports() {
                        imports.push(i.expect("import").name.to_owned());
                    }
                }
                Payload::ElementSection(s) => {
                    for e in s {
                        let e = e.expect("element");
                        let wasmparser::ElementKind::Active { offset_expr, .. } = e.kind else {
                            panic!("passive")
                        };
                        let mut ops = offset_expr.get_operators_reader();
                        let wasmparser::Operator::I32Const { value } = ops.read().expect("op")
                        else {
                            panic!("offset")
                        };
                        let wasmparser::ElementItems::Functions(f) = e.items else {
                            panic!("items")
                        };
                        slots.push((
                            value,
                            f.into_iter().map(|x| x.expect("index")).collect::<Vec<_>>(),
                        ));
                    }
                }
                Payload::DataSection(s) => {
                    for d in s {
                        let d = d.expect("datum");
                        addresses.push(d.data.to_vec());
                    }
                }
                Payload::CodeSectionEntry(body) => {
                    for op in body.get_operators_reader().expect("ops") {
                        match op.expect("op") {
                            wasmparser::Operator::Call { function_index } => {
                                calls.push(function_index)
                            }
                            wasmparser::Operator::GlobalGet { global_index } => {
                                globals.push(global_index)
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        assert_eq!(
            imports,
            [
                "memory",
                "__indirect_function_table",
                "__wasm_split_shared0",
                "__wasm_split_shared1"
            ]
        );
        assert_eq!(slots, vec![(2, vec![0, 1]), (4, vec![2, 3])]);
        assert_eq!(addresses, vec![b"first".to_vec(), b"second".to_vec()]);
        assert_eq!(
            calls,
            vec![1, 3],
            "each chunk's call goes to its own function"
        );
        assert_eq!(globals, vec![0, 1], "each chunk reads its own global");
    }

    #[test]
    fn a_chunk_that_exports_is_refused() {
        let mut m = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        let mut funcs = FunctionSection::new();
        funcs.function(0);
        let mut exports = wasm_encoder::ExportSection::new();
        exports.export("f", wasm_encoder::ExportKind::Func, 0);
        let mut code = CodeSection::new();
        let mut f = Function::new([]);
        f.instruction(&Instruction::End);
        code.function(&f);
        m.section(&types)
            .section(&funcs)
            .section(&exports)
            .section(&code);
        let err = merge(&[m.finish()]).expect_err("refused");
        assert!(err.to_string().contains("should not"), "{err}");
    }
}
