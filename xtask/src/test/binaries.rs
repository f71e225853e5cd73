//! The workspace's native test binaries and programs, built by one `cargo test --no-run` of the
//! whole workspace; the stages run the tests and start the programs. One selection of packages means Cargo unifies the
//! dependencies' features once, so each dependency is built once: selecting each stage's
//! packages with `-p` gave tokio a different feature set per selection, and tokio and everything
//! built on it (hyper, axum, rmcp, reqwest) were compiled once per stage.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use super::report::{Counts, run_counted};
use crate::sh::Result;

/// One test binary Cargo built: the package it tests, where it is, and the folder Cargo runs it
/// in (its package's).
#[derive(Debug, Clone, PartialEq)]
pub struct TestBinary {
    pub package: String,
    /// The target's name (`lib`'s is the crate's, a test file's its file name).
    pub target: String,
    pub path: PathBuf,
    pub dir: PathBuf,
}

/// What one build of the workspace's tests made: the test binaries, and the programs built for
/// the integration tests that start them (named as their target).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Built {
    pub tests: Vec<TestBinary>,
    pub programs: Vec<String>,
}

/// The executables named in Cargo's `--message-format=json` output (other lines are skipped).
pub fn parse(messages: &str) -> Built {
    let mut built = Built::default();
    for message in messages
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| {
            message["reason"] == "compiler-artifact" && message["executable"].is_string()
        })
    {
        if message["profile"]["test"] == true {
            built.tests.extend(test_binary(&message));
        } else if let Some(name) = message["target"]["name"].as_str() {
            built.programs.push(name.to_owned());
        }
    }
    built
}

fn test_binary(message: &Value) -> Option<TestBinary> {
    let path = PathBuf::from(message["executable"].as_str()?);
    let manifest = Path::new(message["manifest_path"].as_str()?);
    Some(TestBinary {
        package: package_name(message["package_id"].as_str()?)?,
        target: message["target"]["name"].as_str()?.to_owned(),
        path,
        dir: manifest.parent()?.to_path_buf(),
    })
}

/// The package's name in a package id: `path+file:///w/bridge#mcp-flow-bridge@0.1.0`, or
/// `path+file:///w/xtask#0.1.0` when the name is the folder's.
fn package_name(id: &str) -> Option<String> {
    let (source, fragment) = id.rsplit_once('#')?;
    match fragment.split_once('@') {
        Some((name, _version)) => Some(name.to_owned()),
        None => Some(source.rsplit('/').next()?.to_owned()),
    }
}

/// Builds every test binary of the workspace (`cargo_test` is `cargo test` with the stages'
/// shared selection) and returns what it built.
pub fn build(cargo_test: &mut Command) -> Result<Built> {
    crate::sh::step("building the workspace's tests (one selection for every stage)");
    cargo_test.args(["--no-run", "--message-format=json-render-diagnostics"]);
    let mut child = cargo_test
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start cargo test: {e}"))?;
    let mut messages = String::new();
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(|l| l.ok()) {
            messages.push_str(&line);
            messages.push('\n');
        }
    }
    let status = child.wait()?;
    if !status.success() {
        return Err(format!("building the tests failed ({status})").into());
    }
    Ok(parse(&messages))
}

/// Runs `binaries` one after another as `cargo test` would (in their package's folder), every
/// one even after a failure, counting their tests; fails if any failed. `command` makes the
/// command for a binary (with the stage's environment).
pub fn run(
    binaries: &[&TestBinary],
    command: impl Fn(&Path) -> Command,
    counts: &mut Counts,
) -> Result<()> {
    if binaries.is_empty() {
        return Err("no test binary was built for this stage".into());
    }
    let mut failed = Vec::new();
    for binary in binaries {
        eprintln!(
            "\n     Running {} ({}) of {}",
            binary.target,
            binary.path.display(),
            binary.package
        );
        let mut cmd = command(&binary.path);
        cmd.current_dir(&binary.dir);
        if let Err(e) = run_counted(&mut cmd, counts) {
            failed.push(format!("{} ({}): {e}", binary.target, binary.package));
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("test binaries failed: {}", failed.join("; ")).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_package_in_both_forms_of_an_id() {
        assert_eq!(
            package_name("path+file:///w/bridge#mcp-flow-bridge@0.1.0").as_deref(),
            Some("mcp-flow-bridge")
        );
        assert_eq!(
            package_name("path+file:///w/xtask#0.1.0").as_deref(),
            Some("xtask")
        );
        assert_eq!(package_name("no fragment"), None);
    }

    #[test]
    fn tells_test_binaries_from_programs() {
        let messages = [
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/bridge#mcp-flow-bridge@0.1.0","manifest_path":"/w/bridge/Cargo.toml","target":{"name":"relay"},"profile":{"test":true},"executable":"/t/debug/deps/relay-1"}"#,
            // The package's program, built for its integration tests.
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/bridge#mcp-flow-bridge@0.1.0","manifest_path":"/w/bridge/Cargo.toml","target":{"name":"mcp-flow-bridge"},"profile":{"test":false},"executable":"/t/debug/mcp-flow-bridge"}"#,
            // A library's unit tests are a test artifact too.
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/core#mcp-flow-core@0.1.0","manifest_path":"/w/core/Cargo.toml","target":{"name":"mcp_flow_core"},"profile":{"test":true},"executable":"/t/debug/deps/mcp_flow_core-2"}"#,
            // A library: no executable.
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/sse#mcp-flow-sse@0.1.0","manifest_path":"/w/sse/Cargo.toml","target":{"name":"mcp_flow_sse"},"profile":{"test":false},"executable":null}"#,
            r#"{"reason":"build-finished","success":true}"#,
            "not json",
        ]
        .join("\n");
        let built = parse(&messages);
        assert_eq!(built.programs, ["mcp-flow-bridge"]);
        assert_eq!(
            built.tests,
            vec![
                TestBinary {
                    package: "mcp-flow-bridge".into(),
                    target: "relay".into(),
                    path: "/t/debug/deps/relay-1".into(),
                    dir: "/w/bridge".into(),
                },
                TestBinary {
                    package: "mcp-flow-core".into(),
                    target: "mcp_flow_core".into(),
                    path: "/t/debug/deps/mcp_flow_core-2".into(),
                    dir: "/w/core".into(),
                },
            ]
        );
    }
}
