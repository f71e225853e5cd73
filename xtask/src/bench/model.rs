//! `cargo xtask bench`, the language model (SmolLM2-135M, Q8_0): natively (`smollm-bench`) and in
//! the page (`bench/smollm-page.mjs`: the Tokyo run in headless Chromium, the model in its Web
//! Worker, first with an empty browser cache, then from the Cache API). `cargo xtask bench-model`
//! runs only these two, then how right the model is: the accuracy table natively with the prompt
//! changes tried against it (`smollm/tests/accuracy.rs`), and in the page's WebAssembly build
//! (`bench/smollm-accuracy.mjs`).

use std::path::Path;

use crate::bench::figures::{self, field};
use crate::server;
use crate::setup::tools::Tools;
use crate::sh::{self, Result};
use crate::workspace_root;

/// Page rounds: the first downloads the model, the others read it from the browser's cache.
const PAGE_ROUNDS: &str = "4";

type Row = [String; 4];

fn row(what: &str, value: String, goal: &str) -> Row {
    [what.into(), value, String::new(), goal.into()]
}

/// `cargo xtask bench-model`.
pub fn run() -> Result<()> {
    let tools = Tools::locate();
    tools.ensure_test()?;
    let binary = server::build_weather_server()?;
    crate::build::site::build(&tools)?;
    sh::step("the language model (SmolLM2-135M, Q8_0), natively");
    let mut rows = native(&tools)?;
    sh::step("the language model in the page (headless Chromium, its Web Worker)");
    rows.extend(in_page(&tools, &binary)?);
    sh::step(
        "how right the model is: the accuracy table natively, with the prompt tries, and in the page",
    );
    rows.extend(accuracy(&tools, &binary)?);
    println!("| figure | MCP Flow | peer | ratio / goal |");
    println!("| --- | --- | --- | --- |");
    for [a, b, c, d] in &rows {
        println!("| {a} | {b} | {c} | {d} |");
    }
    Ok(())
}

/// The model's native figures from `smollm-bench` (dev profile: the model's crates are built at
/// opt-level 3 there, see the workspace manifest).
pub fn native(tools: &Tools) -> Result<Vec<Row>> {
    let model = tools.model_file();
    let out = sh::capture(
        tools
            .command("cargo")
            .current_dir(workspace_root())
            .args(["run", "--quiet", "--package", "mcp-flow-smollm"])
            .args(["--bin", "smollm-bench", "--"])
            .arg(&model),
    )?;
    let line = figures::line(&out, "smollm", "the model benchmark")?;
    println!("  {line}");
    let size = std::fs::metadata(&model)?.len() as f64 / 1e6;
    Ok(vec![
        row(
            "model load, native (file read and prepared)",
            format!("{:.0} ms ({size:.0} MB file)", field(line, "load_ms")?),
            "",
        ),
        row(
            "model prompt rate, native",
            format!(
                "{:.0} tok/s ({} prompt tokens)",
                field(line, "prompt_tok_s")?,
                field(line, "prompt_tokens")?
            ),
            "",
        ),
        row(
            "model time to first token (tool-call turn), native",
            format!("{:.0} ms", field(line, "ttft_ms")?),
            "",
        ),
        row(
            "model decode rate (answer turn), native",
            format!("{:.1} tok/s", field(line, "decode_tok_s")?),
            "goal ≥ 60 tok/s",
        ),
        row(
            "model tool-call turn (Tokyo), native",
            format!("{:.0} ms", field(line, "tool_turn_ms")?),
            "",
        ),
    ])
}

/// The model in the page: the release app and the model file served by `weather-server
/// --static dist --models DIR`, the Tokyo run driven in headless Chromium; the figures are
/// the ones the page measured itself (its status line's `data-*`).
pub fn in_page(tools: &Tools, binary: &Path) -> Result<Vec<Row>> {
    let dist = workspace_root().join("dist");
    let out = page_script(
        tools,
        binary,
        "bench/smollm-page.mjs",
        &["--rounds", PAGE_ROUNDS],
    )?;
    print!("{out}");
    let line = figures::line(&out, "smollm-page", "the in-page model benchmark")?;
    let worker_gz =
        gzipped_kb(&crate::build::site::build_dir(&dist)?.join("smollm-worker_bg.wasm"))?;
    Ok(vec![
        row(
            "model load in the page, downloaded / from the Cache API",
            format!(
                "{:.0} ms / {:.0} ms",
                field(line, "load_cold_ms")?,
                field(line, "load_cache_ms")?
            ),
            "",
        ),
        row(
            "model time to first token (tool-call turn), in the page",
            format!("{:.0} ms", field(line, "ttft_ms")?),
            "",
        ),
        row(
            "model decode rate (answer turn), in the page",
            format!("{:.1} tok/s", field(line, "decode_tok_s")?),
            "goal ≥ 25 tok/s",
        ),
        row(
            "model tool-call turn (Tokyo), in the page",
            format!("{:.0} ms", field(line, "tool_turn_ms")?),
            "goal ≤ 3 s",
        ),
        row(
            "model worker wasm, gzipped (loaded only when SmolLM2 is chosen)",
            format!("{worker_gz:.0} KB"),
            "",
        ),
    ])
}

/// The accuracy table natively (the product's prompt and the tries) and in the page's build.
fn accuracy(tools: &Tools, binary: &Path) -> Result<Vec<Row>> {
    let out = sh::capture(
        tools
            .command("cargo")
            .current_dir(workspace_root())
            .args([
                "test",
                "--quiet",
                "--package",
                "mcp-flow-smollm",
                "--test",
                "accuracy",
            ])
            .args([
                "--",
                "--include-ignored",
                "--nocapture",
                "--test-threads",
                "1",
            ]),
    )?;
    let mut rows = native_accuracy_rows(&out);
    let out = page_script(tools, binary, "bench/smollm-accuracy.mjs", &[])?;
    print!("{out}");
    let line = figures::line(&out, "smollm-page-accuracy", "the in-page accuracy table")?;
    rows.push(row(
        "SmolLM2 accuracy table, the page's wasm build (Chromium)",
        format!(
            "{:.0}/{:.0} ({:.0} ms a tool-call turn)",
            field(line, "right")?,
            field(line, "total")?,
            field(line, "turn_ms")?
        ),
        "",
    ));
    Ok(rows)
}

/// Runs a page script (`--base` the release app and the model file, served by the weather
/// server for the script's run) and returns what it printed.
fn page_script(tools: &Tools, binary: &Path, script: &str, args: &[&str]) -> Result<String> {
    let site = server::start(
        "server-model-page",
        binary,
        &[
            "--bind".into(),
            "127.0.0.1:0".into(),
            "--static".into(),
            workspace_root().join("dist").display().to_string(),
            "--models".into(),
            tools.models_dir().display().to_string(),
        ],
    )?;
    sh::capture(
        tools
            .command("node")
            .current_dir(workspace_root())
            .env("MCP_FLOW_TOOLS", &tools.root)
            .arg(script)
            .args(["--base", site.url.trim_end_matches("/mcp")])
            .args(args),
    )
}

/// The rows of the accuracy test's figures lines. The test harness may print a test's first
/// line after its own `test name ... `, so a figure is looked for anywhere in a line.
fn native_accuracy_rows(out: &str) -> Vec<Row> {
    let after = |line: &str, tag: &str| line.find(tag).map(|at| line[at + tag.len()..].to_owned());
    out.lines()
        .filter_map(|line| {
            if let Some(rest) = after(line, "accuracy: ") {
                return Some(row("SmolLM2 accuracy table, native", rest, ""));
            }
            let rest = after(line, "prompt-try: ")?;
            let (name, score) = rest.rsplit_once(": ")?;
            Some(row(
                &format!("SmolLM2 accuracy table, native, {name}"),
                score.to_owned(),
                "",
            ))
        })
        .collect()
}

/// A file's size gzipped (level 9, as `cargo xtask size` counts), in KB.
fn gzipped_kb(path: &Path) -> Result<f64> {
    Ok(crate::build::size::gzip_len(&std::fs::read(path)?)? as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_read_even_after_the_harness_own_words() {
        let out = "| q | x |\naccuracy: 22/42 = 52.4%; baselines: …\n\
                   test prompt_tries ... prompt-try: the product's prompt: 22/42\n\
                   prompt-try: with 3 examples in the system message: 18/42\nok\n";
        let rows = native_accuracy_rows(out);
        let got: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r[0].as_str(), r[1].as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "SmolLM2 accuracy table, native",
                    "22/42 = 52.4%; baselines: …"
                ),
                (
                    "SmolLM2 accuracy table, native, the product's prompt",
                    "22/42"
                ),
                (
                    "SmolLM2 accuracy table, native, with 3 examples in the system message",
                    "18/42"
                ),
            ]
        );
    }
}
