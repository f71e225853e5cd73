//! The official MCP conformance suite against our server, our client and the bridge, from one
//! table: each case names its scenario, the era (the 2025-11-25 suite, or the 2026-07-28
//! prerelease with `--spec-version 2026-07-28`) and what it runs against; every case must pass.

use std::process::Command;
use std::sync::Mutex;

use super::Ctx;
use super::report::Counts;
use crate::server;
use crate::sh::{self, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// `@modelcontextprotocol/conformance` 0.1.16, the 2025-11-25 scenarios.
    Legacy,
    /// 0.2.0-alpha.12 with `--spec-version 2026-07-28`.
    Modern,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The weather server as it ships.
    Server,
    /// The weather server with `--conformance-fixtures` (the suite's diagnostic tools that
    /// `server-stateless` and the `input-required-result-*` scenarios call).
    ServerFixtures,
    /// `mcp-flow-bridge stdio` wrapping the Python SDK's stdio weather server: a relay must not
    /// change what a server does.
    Bridge,
    /// `mcp-flow-cli` as the client of the suite's own server (its default `auto` era).
    Client,
}

impl Target {
    const ALL: [Target; 4] = [
        Target::Server,
        Target::ServerFixtures,
        Target::Bridge,
        Target::Client,
    ];

    /// Server scenarios run two at a time (they only send requests); the suite serves each client
    /// scenario itself, one at a time.
    fn parallel(self) -> usize {
        if self == Target::Client { 1 } else { 2 }
    }
}

/// One run of the suite; every case must pass (the suite exits 0 when every check passes).
pub struct Case {
    pub scenario: &'static str,
    pub era: Era,
    pub target: Target,
}

const fn case(scenario: &'static str, era: Era, target: Target) -> Case {
    Case {
        scenario,
        era,
        target,
    }
}

use Era::{Legacy, Modern};
use Target::{Bridge, Client, Server, ServerFixtures};

/// Every case. Left out, with the reason:
/// - 2026-07-28 server scenarios `tools-call-*`, `prompts-get-*`, `resources-*`,
///   `completion-complete`, `json-schema-2020-12`, `prompts-list`, `sep-2164-resource-not-found`
///   and `caching`: they call the reference server's own tools, prompts, resources and
///   completions, which the weather server does not have yet.
/// - `server-stateless` through the bridge: 2 of its 28 checks call the suite's diagnostic tool
///   `test_missing_capability`, which the bridged Python weather server does not have.
/// - client `auth/*`: the client has no authorization yet.
pub const CASES: &[Case] = &[
    case("server-initialize", Legacy, Server),
    case("ping", Legacy, Server),
    case("tools-list", Legacy, Server),
    case("server-sse-multiple-streams", Legacy, Server),
    case("dns-rebinding-protection", Legacy, Server),
    case("logging-set-level", Legacy, Server),
    case("server-stateless", Modern, ServerFixtures),
    case("tools-list", Modern, ServerFixtures),
    case("server-sse-multiple-streams", Modern, ServerFixtures),
    case("dns-rebinding-protection", Modern, ServerFixtures),
    case("http-header-validation", Modern, ServerFixtures),
    case(
        "http-custom-header-server-validation",
        Modern,
        ServerFixtures,
    ),
    case(
        "input-required-result-basic-elicitation",
        Modern,
        ServerFixtures,
    ),
    case(
        "input-required-result-basic-sampling",
        Modern,
        ServerFixtures,
    ),
    case(
        "input-required-result-basic-list-roots",
        Modern,
        ServerFixtures,
    ),
    case(
        "input-required-result-request-state",
        Modern,
        ServerFixtures,
    ),
    case(
        "input-required-result-multiple-input-requests",
        Modern,
        ServerFixtures,
    ),
    case("input-required-result-multi-round", Modern, ServerFixtures),
    case(
        "input-required-result-missing-input-response",
        Modern,
        ServerFixtures,
    ),
    case(
        "input-required-result-non-tool-request",
        Modern,
        ServerFixtures,
    ),
    case("input-required-result-result-type", Modern, ServerFixtures),
    case(
        "input-required-result-unsupported-methods",
        Modern,
        ServerFixtures,
    ),
    case(
        "input-required-result-tampered-state",
        Modern,
        ServerFixtures,
    ),
    case(
        "input-required-result-capability-check",
        Modern,
        ServerFixtures,
    ),
    case(
        "input-required-result-ignore-extra-params",
        Modern,
        ServerFixtures,
    ),
    case(
        "input-required-result-validate-input",
        Modern,
        ServerFixtures,
    ),
    case("server-initialize", Legacy, Bridge),
    case("ping", Legacy, Bridge),
    case("tools-list", Legacy, Bridge),
    case("server-sse-multiple-streams", Legacy, Bridge),
    case("dns-rebinding-protection", Legacy, Bridge),
    case("tools-list", Modern, Bridge),
    case("server-sse-multiple-streams", Modern, Bridge),
    case("dns-rebinding-protection", Modern, Bridge),
    case("http-header-validation", Modern, Bridge),
    case("initialize", Legacy, Client),
    case("tools_call", Legacy, Client),
    case("sse-retry", Legacy, Client),
    case("tools_call", Modern, Client),
    case("request-metadata", Modern, Client),
    case("http-standard-headers", Modern, Client),
    case("http-custom-headers", Modern, Client),
    case("http-invalid-tool-headers", Modern, Client),
    case("json-schema-ref-no-deref", Modern, Client),
    case("sep-2322-client-request-state", Modern, Client),
];

impl Case {
    fn label(&self) -> String {
        let era = match self.era {
            Legacy => "2025-11-25",
            Modern => "2026-07-28",
        };
        format!("{} ({era}, {:?})", self.scenario, self.target)
    }

    /// The suite's command line for this case against `endpoint` (a server's URL, or the
    /// client program for [`Target::Client`]).
    fn command(&self, ctx: &Ctx, endpoint: &str) -> Command {
        let tools = &ctx.tools;
        let mut cmd = Command::new(match self.era {
            Legacy => tools.npm_bin().join("conformance"),
            Modern => tools.conformance_next(),
        });
        cmd.env("PATH", tools.node22_path_env());
        match self.target {
            Client => cmd.args(["client", "--command", endpoint]),
            _ => cmd.args(["server", "--url", endpoint]),
        };
        cmd.args(["--scenario", self.scenario]);
        if self.era == Modern {
            cmd.args(["--spec-version", "2026-07-28"]);
        }
        cmd
    }

    /// Runs the case; its output is printed whole when it ends (cases run side by side).
    fn run(&self, ctx: &Ctx, endpoint: &str, print: &Mutex<()>) -> bool {
        let out = self.command(ctx, endpoint).output();
        let _turn = print.lock();
        eprintln!("-- conformance {}", self.label());
        let ok = match out {
            Ok(out) => {
                eprint!("{}", String::from_utf8_lossy(&out.stdout));
                eprint!("{}", String::from_utf8_lossy(&out.stderr));
                out.status.success()
            }
            Err(e) => {
                eprintln!("could not run the conformance suite: {e}");
                false
            }
        };
        if !ok {
            eprintln!("conformance {} FAILED", self.label());
        }
        ok
    }
}

/// Runs every case of the table, target by target; counts one test per case.
pub fn stage(ctx: &mut Ctx, counts: &mut Counts) -> Result<()> {
    let mut failed = Vec::new();
    for target in Target::ALL {
        let cases: Vec<&Case> = CASES.iter().filter(|c| c.target == target).collect();
        if cases.is_empty() {
            continue;
        }
        sh::step(&format!(
            "conformance against {target:?}: {} case(s)",
            cases.len()
        ));
        // Kept alive while the target's cases run.
        let (_running, endpoint) = start(ctx, target)?;
        let print = Mutex::new(());
        let shared: &Ctx = ctx;
        let results = sh::side_by_side(&cases, target.parallel(), |case| {
            (case.label(), case.run(shared, &endpoint, &print))
        });
        for (label, ok) in results {
            counts.one(ok);
            if !ok {
                failed.push(label);
            }
        }
    }
    println!(
        "conformance: {} passed, {} failed",
        counts.passed,
        failed.len()
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("conformance cases failed: {}", failed.join(", ")).into())
    }
}

/// What a target's cases run against: the process (kept alive by the caller) and its endpoint.
fn start(ctx: &mut Ctx, target: Target) -> Result<(Box<dyn std::any::Any>, String)> {
    ctx.debug_binaries()?;
    let binary = ctx.debug_binary("weather-server");
    Ok(match target {
        Server => {
            let s = server::start("server-conformance", &binary, &local(&[]))?;
            let url = s.url.clone();
            (Box::new(s), url)
        }
        ServerFixtures => {
            let s = server::start(
                "server-conformance-2026",
                &binary,
                &local(&["--conformance-fixtures"]),
            )?;
            let url = s.url.clone();
            (Box::new(s), url)
        }
        Bridge => {
            let peers = ctx.bridge_peers()?;
            let (process, url) = peers.bridge_py_stdio(&ctx.debug_binary("mcp-flow-bridge"))?;
            (Box::new(process), url)
        }
        Client => {
            let cli = ctx.debug_binary("mcp-flow-cli");
            let cli = cli
                .to_str()
                .ok_or("the target path is not UTF-8")?
                .to_owned();
            // The suite splits --command on spaces and appends the server URL.
            if cli.contains(char::is_whitespace) {
                return Err(format!(
                    "the conformance suite cannot run a command whose path has spaces: {cli}"
                )
                .into());
            }
            (Box::new(()), cli)
        }
    })
}

/// A weather server on a free loopback port, `extra` flags after.
fn local(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["--bind".to_owned(), "127.0.0.1:0".to_owned()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_case_is_listed_twice() {
        for (i, a) in CASES.iter().enumerate() {
            for b in &CASES[i + 1..] {
                assert!(
                    (a.scenario, a.era, a.target) != (b.scenario, b.era, b.target),
                    "{} twice",
                    a.label()
                );
            }
        }
    }
}
