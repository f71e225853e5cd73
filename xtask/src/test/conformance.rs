//! The official MCP conformance suite against our server, our client (its authorization too), the
//! bridge and the server's built-in authorization server, from one table: each case names its
//! scenario, the era (the 2025-11-25 suite, or the 2026-07-28 prerelease with `--spec-version`)
//! and what it runs against; every case must pass.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

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
    /// 0.2.0-alpha.12 without `--spec-version`: an extension's scenarios (tasks), which the
    /// suite runs at 2026-07-28 and skips when a spec version is given.
    Extension,
    /// 0.2.0-alpha.12 with an earlier `--spec-version` (the authorization scenarios of 2025-11-25
    /// and the two of 2025-03-26, which 0.1.16 does not have all of).
    Earlier(&'static str),
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
    /// `mcp-flow-cli` as the client of the suite's authorization scenarios (its mock resource and
    /// authorization servers, each scenario with its own).
    AuthClient,
    /// The weather server with `--auth --auth-auto-approve`: its built-in authorization server
    /// (the suite's `authorization` command, the pre-registered client `mcp-flow-demo`).
    AuthServer,
}

impl Target {
    const ALL: [Target; 6] = [
        Target::Server,
        Target::ServerFixtures,
        Target::Bridge,
        Target::Client,
        Target::AuthClient,
        Target::AuthServer,
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

use Era::{Earlier, Extension, Legacy, Modern};
use Target::{AuthClient, AuthServer, Bridge, Client, Server, ServerFixtures};

const V2025_11: Era = Earlier("2025-11-25");
const V2025_03: Era = Earlier("2025-03-26");

/// The authorization-server scenario that needs a client and a callback: the suite prints an
/// authorization URL and waits for the redirect to `http://127.0.0.1:<port>/callback`; with
/// `--auth-auto-approve` following the URL is the whole consent.
const CODE_GRANT: &str = "authorization-code-grant";
/// The server's pre-registered public client (any loopback redirect URI).
const DEMO_CLIENT: &str = "mcp-flow-demo";

/// Every case. Left out, with the reason:
/// - `tasks-status-notifications`: the suite only skips it (pending its rewrite for
///   `subscriptions/listen`), so it checks nothing and could not fail; it comes in when it checks.
/// - `server-stateless` through the bridge: 2 of its 28 checks call the suite's diagnostic tool
///   `test_missing_capability`, which the bridged Python weather server does not have.
/// - client `auth/*` extensions (client credentials, enterprise-managed authorization, DPoP,
///   workload identity): optional extensions of the authorization spec this client does not
///   implement; every core `auth/*` scenario of 2026-07-28, 2025-11-25 and 2025-03-26 is here.
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
    case("completion-complete", Legacy, ServerFixtures),
    case("tools-call-simple-text", Legacy, ServerFixtures),
    case("json-schema-2020-12", Legacy, ServerFixtures),
    case("tools-call-image", Legacy, ServerFixtures),
    case("tools-call-audio", Legacy, ServerFixtures),
    case("tools-call-embedded-resource", Legacy, ServerFixtures),
    case("tools-call-mixed-content", Legacy, ServerFixtures),
    case("tools-call-error", Legacy, ServerFixtures),
    case("tools-call-with-progress", Legacy, ServerFixtures),
    case("resources-list", Legacy, ServerFixtures),
    case("resources-read-text", Legacy, ServerFixtures),
    case("resources-read-binary", Legacy, ServerFixtures),
    case("resources-templates-read", Legacy, ServerFixtures),
    case("prompts-list", Legacy, ServerFixtures),
    case("prompts-get-simple", Legacy, ServerFixtures),
    case("prompts-get-with-args", Legacy, ServerFixtures),
    case("prompts-get-embedded-resource", Legacy, ServerFixtures),
    case("prompts-get-with-image", Legacy, ServerFixtures),
    case("resources-subscribe", Legacy, ServerFixtures),
    case("resources-unsubscribe", Legacy, ServerFixtures),
    case("completion-complete", Modern, ServerFixtures),
    case("tasks-lifecycle", Extension, ServerFixtures),
    case("tasks-capability-negotiation", Extension, ServerFixtures),
    case("tasks-wire-fields", Extension, ServerFixtures),
    case("tasks-request-state-removal", Extension, ServerFixtures),
    case("tasks-mrtr-input", Extension, ServerFixtures),
    case("tasks-request-headers", Extension, ServerFixtures),
    case("tasks-dispatch-and-envelope", Extension, ServerFixtures),
    case("tasks-required-task-error", Extension, ServerFixtures),
    case("tasks-mrtr-composition", Extension, ServerFixtures),
    case("tools-call-simple-text", Modern, ServerFixtures),
    case("json-schema-2020-12", Modern, ServerFixtures),
    case("tools-call-image", Modern, ServerFixtures),
    case("tools-call-audio", Modern, ServerFixtures),
    case("tools-call-embedded-resource", Modern, ServerFixtures),
    case("tools-call-mixed-content", Modern, ServerFixtures),
    case("tools-call-error", Modern, ServerFixtures),
    case("tools-call-with-progress", Modern, ServerFixtures),
    case("resources-list", Modern, ServerFixtures),
    case("resources-read-text", Modern, ServerFixtures),
    case("resources-read-binary", Modern, ServerFixtures),
    case("resources-templates-read", Modern, ServerFixtures),
    case("sep-2164-resource-not-found", Modern, ServerFixtures),
    case("prompts-list", Modern, ServerFixtures),
    case("prompts-get-simple", Modern, ServerFixtures),
    case("prompts-get-with-args", Modern, ServerFixtures),
    case("prompts-get-embedded-resource", Modern, ServerFixtures),
    case("prompts-get-with-image", Modern, ServerFixtures),
    case("caching", Modern, ServerFixtures),
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
    case("json-schema-2020-12-preservation", Modern, Client),
    case("json-schema-2020-12-preservation", V2025_11, Client),
    case("auth/metadata-default", Modern, AuthClient),
    case("auth/metadata-var1", Modern, AuthClient),
    case("auth/metadata-var2", Modern, AuthClient),
    case("auth/metadata-var3", Modern, AuthClient),
    case("auth/basic-cimd", Modern, AuthClient),
    case("auth/scope-from-www-authenticate", Modern, AuthClient),
    case("auth/scope-from-scopes-supported", Modern, AuthClient),
    case("auth/scope-omitted-when-undefined", Modern, AuthClient),
    case("auth/scope-step-up", Modern, AuthClient),
    case("auth/scope-retry-limit", Modern, AuthClient),
    case("auth/token-endpoint-auth-basic", Modern, AuthClient),
    case("auth/token-endpoint-auth-post", Modern, AuthClient),
    case("auth/token-endpoint-auth-none", Modern, AuthClient),
    case("auth/pre-registration", Modern, AuthClient),
    case("auth/resource-mismatch", Modern, AuthClient),
    case("auth/offline-access-scope", Modern, AuthClient),
    case("auth/offline-access-not-supported", Modern, AuthClient),
    case("auth/authorization-server-migration", Modern, AuthClient),
    case("auth/iss-supported", Modern, AuthClient),
    case("auth/iss-not-advertised", Modern, AuthClient),
    case("auth/iss-supported-missing", Modern, AuthClient),
    case("auth/iss-wrong-issuer", Modern, AuthClient),
    case("auth/iss-unexpected", Modern, AuthClient),
    case("auth/iss-normalized", Modern, AuthClient),
    case("auth/metadata-issuer-mismatch", Modern, AuthClient),
    case("auth/metadata-default", V2025_11, AuthClient),
    case("auth/metadata-var1", V2025_11, AuthClient),
    case("auth/metadata-var2", V2025_11, AuthClient),
    case("auth/metadata-var3", V2025_11, AuthClient),
    case("auth/basic-cimd", V2025_11, AuthClient),
    case("auth/scope-from-www-authenticate", V2025_11, AuthClient),
    case("auth/scope-from-scopes-supported", V2025_11, AuthClient),
    case("auth/scope-omitted-when-undefined", V2025_11, AuthClient),
    case("auth/scope-step-up", V2025_11, AuthClient),
    case("auth/scope-retry-limit", V2025_11, AuthClient),
    case("auth/token-endpoint-auth-basic", V2025_11, AuthClient),
    case("auth/token-endpoint-auth-post", V2025_11, AuthClient),
    case("auth/token-endpoint-auth-none", V2025_11, AuthClient),
    case("auth/pre-registration", V2025_11, AuthClient),
    case(
        "auth/2025-03-26-oauth-metadata-backcompat",
        V2025_03,
        AuthClient,
    ),
    case(
        "auth/2025-03-26-oauth-endpoint-fallback",
        V2025_03,
        AuthClient,
    ),
    case("authorization-server-metadata-endpoint", Modern, AuthServer),
    case(CODE_GRANT, Modern, AuthServer),
];

impl Case {
    fn label(&self) -> String {
        let era = match self.era {
            Legacy => "2025-11-25",
            Modern => "2026-07-28",
            Extension => "2026-07-28 extension",
            Earlier(version) => version,
        };
        format!("{} ({era}, {:?})", self.scenario, self.target)
    }

    /// The suite's command line for this case against `endpoint` (a server's URL, the client
    /// program for [`Target::Client`], the issuer for [`Target::AuthServer`]).
    fn command(&self, ctx: &Ctx, endpoint: &str) -> Result<Command> {
        let tools = &ctx.tools;
        let mut cmd = Command::new(match self.era {
            Legacy => tools.npm_bin().join("conformance"),
            Modern | Extension | Earlier(_) => tools.conformance_next(),
        });
        cmd.env("PATH", tools.node22_path_env());
        match self.target {
            Client | AuthClient => cmd.args(["client", "--command", endpoint]),
            AuthServer => cmd.args(["authorization", "--url", endpoint]),
            _ => cmd.args(["server", "--url", endpoint]),
        };
        if self.scenario == CODE_GRANT {
            // Run alone, this scenario lacks the metadata the suite hands on from
            // `authorization-server-metadata-endpoint` and fails; without --scenario the suite
            // runs both, in order.
            let port = sh::free_port()?.to_string();
            cmd.args(["--client-id", DEMO_CLIENT, "-p", &port]);
        } else {
            cmd.args(["--scenario", self.scenario]);
        }
        match self.era {
            Modern => cmd.args(["--spec-version", "2026-07-28"]),
            Earlier(version) => cmd.args(["--spec-version", version]),
            Legacy | Extension => &mut cmd,
        };
        Ok(cmd)
    }

    /// Runs the case; its output is printed whole when it ends (cases run side by side).
    fn run(&self, ctx: &Ctx, endpoint: &str, print: &Mutex<()>) -> bool {
        let out = self.command(ctx, endpoint).and_then(|mut cmd| {
            if self.scenario == CODE_GRANT {
                run_following(&mut cmd)
            } else {
                let out = cmd.output()?;
                let text =
                    String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
                Ok((out.status.success(), text.into_owned()))
            }
        });
        let _turn = print.lock();
        eprintln!("-- conformance {}", self.label());
        let ok = match out {
            Ok((ok, text)) => {
                eprint!("{text}");
                ok
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
        // Kept alive while the target's cases run. A target that cannot start fails only its
        // own cases, each saying why; the other targets still run.
        let (_running, endpoint) = match start(ctx, target) {
            Ok(started) => started,
            Err(e) => {
                for case in cases {
                    eprintln!("FAIL {}: {target:?} did not start: {e}", case.label());
                    counts.one(false);
                    failed.push(case.label());
                }
                continue;
            }
        };
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
        AuthServer => {
            let s = server::start(
                "server-conformance-auth",
                &binary,
                &local(&["--auth", "--auth-auto-approve"]),
            )?;
            // The issuer is the server's origin: its MCP URL without `/mcp`.
            let issuer = s.url.trim_end_matches("/mcp").to_owned();
            (Box::new(s), issuer)
        }
        Client | AuthClient => {
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

/// Runs the suite and, when it prints the authorization URL, plays the browser: GET the URL,
/// then the callback its 302 names. Returns whether the suite passed, and its output.
fn run_following(cmd: &mut Command) -> Result<(bool, String)> {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut stderr = child.stderr.take().ok_or("no stderr")?;
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut output = String::new();
    let mut followed = false;
    for line in BufReader::new(stdout).lines().map_while(|l| l.ok()) {
        output.push_str(&line);
        output.push('\n');
        if !followed && line.starts_with("http://") && line.contains("/oauth/authorize?") {
            followed = true;
            if let Err(e) = follow(&line) {
                output.push_str(&format!(
                    "xtask: could not follow the authorization URL: {e}\n"
                ));
                // Otherwise the suite waits five minutes for a callback that will not come.
                let _ = child.kill();
            }
        }
    }
    let status = child.wait()?;
    output.push_str(&errors.join().unwrap_or_default());
    Ok((status.success(), output))
}

/// The authorization URL answers 302 with the callback (auto-approval); the suite's callback
/// server may still be starting, so that GET is retried for a few seconds.
fn follow(url: &str) -> Result<()> {
    let (status, location) = get(url)?;
    let callback = location
        .filter(|_| status == 302)
        .ok_or_else(|| format!("expected 302 with a Location, got {status}"))?;
    for _ in 0..50 {
        match get(&callback) {
            Ok((200, _)) => return Ok(()),
            Ok((status, _)) => return Err(format!("the callback answered {status}").into()),
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
    Err("the suite's callback server did not answer".into())
}

/// A plain HTTP/1.1 GET to a loopback `http://` URL: the status and the Location header.
fn get(url: &str) -> Result<(u16, Option<String>)> {
    let rest = url.strip_prefix("http://").ok_or("not an http:// URL")?;
    let (authority, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, "/"),
    };
    if !(authority.starts_with("127.0.0.1:") || authority.starts_with("localhost:")) {
        return Err(format!("{authority} is not a loopback address").into());
    }
    let mut stream = TcpStream::connect(authority)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n"
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    let head = answer.split("\r\n\r\n").next().unwrap_or_default();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or("no HTTP status line")?;
    let location = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("location")
            .then(|| value.trim().to_owned())
    });
    Ok((status, location))
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
