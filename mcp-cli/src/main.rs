//! `mcp-flow-cli`: the mcp-flow MCP client on the command line.
//!
//! Plain mode connects, lists the tools and optionally calls one, printing every HTTP exchange
//! to stderr as it finishes. Scenario mode (`--scenario NAME`, or `MCP_CONFORMANCE_SCENARIO` as
//! set by the official conformance suite's client mode) does what a correct client does for
//! that scenario.

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use mcp_cli::http::{Native, TokioClock};
use mcp_cli::{model, report, session};
use mcp_flow_client::auth::{AuthConfig, Authorizer, PreRegistered};
use mcp_flow_client::client::McpClient;
use mcp_flow_client::era::EraChoice;
use mcp_flow_client::error::clip;
use mcp_flow_client::roots::Root;
use serde_json::{Value, json};

/// The conformance suite's authorization scenarios: connect, list the tools, call each.
const AUTH_SCENARIOS: [&str; 27] = [
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/authorization-server-migration",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
];

/// The client ID metadata document the suite's authorization server expects (`auth/basic-cimd`).
const CONFORMANCE_METADATA_DOCUMENT: &str = "https://conformance-test.local/client-metadata.json";

/// The conformance scenarios this client knows.
const SCENARIOS: [&str; 10] = [
    "initialize",
    "tools_call",
    "sse-retry",
    "request-metadata",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
    "sep-2322-client-request-state",
    "json-schema-2020-12-preservation",
];

/// The mcp-flow MCP client on the command line.
#[derive(Debug, Parser)]
#[command(
    name = "mcp-flow-cli",
    about = "The mcp-flow MCP client on the command line",
    after_help = "Results go to stdout; each HTTP exchange (method, status, JSON-RPC method, time) \
                  and each server notification go to stderr. Exits 1 on any failure, 2 on a \
                  usage error."
)]
struct Cli {
    /// The server's Streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp
    #[arg(value_name = "URL")]
    url: String,
    /// Call TOOL after listing the tools and print its result
    #[arg(long, value_name = "TOOL")]
    call: Option<String>,
    /// After the tools, what the server offers besides: resources (the first read), templates
    /// (the first completed and read), prompts (the first got), each step from the last answer
    #[arg(long)]
    browse: bool,
    /// The tool's arguments as a JSON object (default {})
    #[arg(long, value_name = "JSON", requires = "call", value_parser = json_object)]
    args: Option<Value>,
    /// How long to wait for each response, in milliseconds (default 30000)
    #[arg(long, value_name = "MS", value_parser = milliseconds)]
    timeout: Option<u32>,
    /// Act as the client of a conformance scenario (default: $MCP_CONFORMANCE_SCENARIO, if set)
    #[arg(long, value_name = "NAME")]
    scenario: Option<String>,
    /// The protocol era: auto (2026-07-28 first, 2025-11-25 if the server does not answer as a
    /// modern one), modern or legacy
    #[arg(long, value_name = "ERA", default_value = "auto", value_parser = era)]
    era: EraChoice,
    /// When the server asks for authorization, use this pre-registered client ID (its secret,
    /// if any, from $MCP_FLOW_CLIENT_SECRET) instead of registering
    #[arg(long, value_name = "ID")]
    client_id: Option<String>,
    /// When the server asks for authorization, offer this URL of a client ID metadata document
    /// as the client ID where the authorization server takes such documents
    #[arg(long, value_name = "URL")]
    client_metadata_url: Option<String>,
    /// A root the server's roots/list is answered with: a URI, then an optional name after a
    /// space (repeat for more; none by default)
    #[arg(long = "root", value_name = "URI", value_parser = root)]
    roots: Vec<Root>,
    /// Answer the server's sampling requests with the model of this OpenAI-compatible endpoint
    /// (e.g. http://127.0.0.1:11434/v1; a key, if needed, from $MCP_FLOW_MODEL_KEY); without it
    /// the client declares no sampling
    #[arg(long, value_name = "URL")]
    sampling_model: Option<String>,
    /// The model to ask at --sampling-model
    #[arg(
        long,
        value_name = "NAME",
        default_value = "default",
        requires = "sampling_model"
    )]
    sampling_model_name: String,
}

/// `--root`: a URI and an optional name.
fn root(text: &str) -> Result<Root, String> {
    let mut roots = mcp_flow_client::roots::parse(text)?;
    match (roots.pop(), roots.is_empty()) {
        (Some(root), true) => Ok(root),
        _ => Err("wants one URI, then an optional name".to_owned()),
    }
}

/// `--era`: auto, modern or legacy.
fn era(text: &str) -> Result<EraChoice, String> {
    EraChoice::from_id(text).ok_or_else(|| "wants auto, modern or legacy".to_owned())
}

/// `--args`: a JSON object.
fn json_object(text: &str) -> Result<Value, String> {
    let parsed: Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
    if parsed.is_object() {
        Ok(parsed)
    } else {
        Err(format!("must be a JSON object, got {parsed}"))
    }
}

/// `--timeout`: milliseconds above zero.
fn milliseconds(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|ms| *ms > 0)
        .ok_or_else(|| "wants a number of milliseconds above 0".to_owned())
}

#[derive(Debug, PartialEq)]
struct Options {
    url: String,
    scenario: Option<String>,
    call: Option<(String, Value)>,
    browse: bool,
    timeout_ms: Option<u32>,
    era: EraChoice,
    client_id: Option<String>,
    client_metadata_url: Option<String>,
    roots: Vec<Root>,
    /// The sampling model's endpoint and name.
    sampling: Option<(String, String)>,
}

/// Reads the command line (without the program name). `--help` comes back as an error of kind
/// [`ErrorKind::DisplayHelp`], which `exit()` prints to stdout with status 0.
fn parse(
    args: impl IntoIterator<Item = String>,
    env_scenario: Option<String>,
) -> Result<Options, clap::Error> {
    let cli = Cli::try_parse_from(std::iter::once("mcp-flow-cli".to_owned()).chain(args))?;
    // The flag wins over the environment; an empty variable is no scenario.
    let scenario = cli.scenario.or(env_scenario.filter(|s| !s.is_empty()));
    if scenario.is_some() && (cli.call.is_some() || cli.browse) {
        return Err(Cli::command().error(
            ErrorKind::ArgumentConflict,
            "--call and --browse do not go with a scenario (--scenario or \
             $MCP_CONFORMANCE_SCENARIO)",
        ));
    }
    Ok(Options {
        url: cli.url,
        scenario,
        call: cli
            .call
            .map(|name| (name, cli.args.unwrap_or_else(|| json!({})))),
        browse: cli.browse,
        timeout_ms: cli.timeout,
        era: cli.era,
        client_id: cli.client_id,
        client_metadata_url: cli.client_metadata_url,
        roots: cli.roots,
        sampling: cli.sampling_model.map(|url| (url, cli.sampling_model_name)),
    })
}

fn main() -> ExitCode {
    let options = match parse(
        std::env::args().skip(1),
        std::env::var("MCP_CONFORMANCE_SCENARIO").ok(),
    ) {
        Ok(options) => options,
        // Help on stdout with status 0; a usage error on stderr with status 2.
        Err(e) => e.exit(),
    };
    // The client's futures are not Send: everything runs on this one thread.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcp-flow-cli: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-flow-cli: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(options: Options) -> Result<(), String> {
    let client = McpClient::new(
        Native::new()?,
        std::rc::Rc::new(TokioClock::new()),
        options.url.clone(),
        report::printer(|line| eprintln!("{line}")),
    );
    if let Some(ms) = options.timeout_ms {
        client.set_timeout_ms(ms);
    }
    client
        .transport
        .set_authorizer(Some(std::rc::Rc::new(Authorizer::new(
            auth_config(&options),
            None,
        ))));
    // Declared (form elicitation), so answered in both eras.
    client.set_elicitor(Some(session::elicitor()));
    client.set_roots_giver(Some(session::roots_giver(options.roots.clone())));
    if let Some((url, name)) = &options.sampling {
        client.set_sampler(Some(model::sampler(std::rc::Rc::new(model::Model {
            http: Native::new()?,
            base_url: url.clone(),
            name: name.clone(),
            key: std::env::var("MCP_FLOW_MODEL_KEY")
                .ok()
                .filter(|k| !k.is_empty()),
        }))));
    }
    client.set_listener(Some(Box::new(|message: &Value| {
        eprintln!("  <- {}", clip(&message.to_string(), 300));
    })));
    let outcome = match &options.scenario {
        Some(name) => scenario(&client, name, options.era).await,
        None => plain(&client, &options).await,
    };
    // End the session (legacy) even after a failure; the first error is the one reported.
    let closed = client.close().await.map_err(|e| format!("close: {e}"));
    outcome.and(closed)
}

/// Who this client is to authorization servers: the flags, or for the suite's authorization
/// scenarios its metadata document and the credentials `$MCP_CONFORMANCE_CONTEXT` gives.
fn auth_config(options: &Options) -> AuthConfig {
    let mut config = AuthConfig::native();
    config.metadata_document = options.client_metadata_url.clone();
    config.pre_registered = options.client_id.clone().map(|client_id| PreRegistered {
        client_id,
        secret: std::env::var("MCP_FLOW_CLIENT_SECRET")
            .ok()
            .filter(|s| !s.is_empty()),
        issuer: None,
    });
    if options
        .scenario
        .as_deref()
        .is_some_and(|s| s.starts_with("auth/"))
    {
        config.metadata_document = Some(CONFORMANCE_METADATA_DOCUMENT.to_owned());
        if let Some(context) = context_value()
            && let Some(client_id) = context.get("client_id").and_then(Value::as_str)
        {
            let text = |name: &str| context.get(name).and_then(Value::as_str).map(str::to_owned);
            config.pre_registered = Some(PreRegistered {
                client_id: client_id.to_owned(),
                secret: text("client_secret"),
                issuer: text("issuer"),
            });
        }
    }
    config
}

/// `$MCP_CONFORMANCE_CONTEXT` as JSON, if set.
fn context_value() -> Option<Value> {
    std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
}

/// Connect, list the tools, optionally call one.
async fn plain(client: &McpClient<Native>, options: &Options) -> Result<(), String> {
    session::connect(client, options.era).await?;
    session::list_tools(client).await?;
    if let Some((name, arguments)) = &options.call {
        session::call_tool(client, name, arguments.clone()).await?;
    }
    if options.browse {
        for line in session::browse(client).await? {
            println!("{line}");
        }
    }
    Ok(())
}

/// The tool calls the suite asks for in `$MCP_CONFORMANCE_CONTEXT` (`{"toolCalls": [{"name",
/// "arguments"}]}`), if any.
fn context_calls() -> Vec<(String, Value)> {
    context_value()
        .and_then(|context| context.get("toolCalls").and_then(Value::as_array).cloned())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|call| {
            let name = call.get("name")?.as_str()?.to_owned();
            let arguments = call.get("arguments").cloned().unwrap_or_else(|| json!({}));
            Some((name, arguments))
        })
        .collect()
}

/// What a correct client does for each conformance scenario, in `era` (`auto` speaks whichever
/// era the suite's server does).
async fn scenario(client: &McpClient<Native>, name: &str, era: EraChoice) -> Result<(), String> {
    if AUTH_SCENARIOS.contains(&name) {
        // The authorization happens on the first request; a step-up on a call.
        session::connect(client, era).await?;
        for (tool, schema) in &session::list_tools(client).await? {
            session::call_tool(client, tool, Value::Object(session::fill(schema))).await?;
        }
        return Ok(());
    }
    if !SCENARIOS.contains(&name) {
        return Err(format!(
            "unknown scenario {name:?}; this client knows {} and the authorization scenarios \
             ({})",
            SCENARIOS.join(", "),
            AUTH_SCENARIOS.join(", ")
        ));
    }
    session::connect(client, era).await?;
    let tools = session::list_tools(client).await?;
    let names: Vec<String> = tools.iter().map(|(n, _)| n.clone()).collect();
    match name {
        // The handshake (or discovery) and a first request; the tools were listed, and no
        // `$ref` in them is ever fetched.
        "initialize" | "request-metadata" | "json-schema-ref-no-deref" => {}
        // The server offers add_numbers(a, b); call it with numbers.
        "tools_call" => {
            require_tool(&names, "add_numbers")?;
            session::call_tool(client, "add_numbers", json!({"a": 5, "b": 3})).await?;
        }
        // The server closes the tools/call stream after a priming event with `retry: 500`; the
        // transport waits that long and resumes with GET and Last-Event-ID.
        "sse-retry" => {
            require_tool(&names, "test_reconnection")?;
            session::call_tool(client, "test_reconnection", json!({})).await?;
        }
        // Every kind of request that carries Mcp-Name: each tool, resource and prompt.
        "http-standard-headers" => {
            for (tool, schema) in &tools {
                session::call_tool(client, tool, Value::Object(session::fill(schema))).await?;
            }
            session::read_resources(client).await?;
            session::get_prompts(client).await?;
        }
        // The focal tool's inputSchema, as this client holds it, echoed back verbatim: every
        // JSON Schema 2020-12 keyword must survive the client's parsing.
        "json-schema-2020-12-preservation" => {
            require_tool(&names, "json_schema_echo")?;
            let (_, schema) = tools
                .iter()
                .find(|(n, _)| n == "json_schema_2020_12_tool")
                .ok_or("the server does not list the tool json_schema_2020_12_tool")?;
            session::call_tool(client, "json_schema_echo", json!({ "schema": schema })).await?;
        }
        // The suite names the calls (arguments to mirror into Mcp-Param-* headers).
        "http-custom-headers" => {
            for (tool, arguments) in context_calls() {
                session::call_tool(client, &tool, arguments).await?;
            }
        }
        // The invalid tools were left out of the list; each that is left is called.
        "http-invalid-tool-headers" => {
            for tool in &names {
                session::call_tool(client, tool, json!({"region": "us-west1"})).await?;
            }
        }
        // Each tool, answering the server's questions and echoing its state.
        _ => {
            for (tool, schema) in &tools {
                session::call_tool(client, tool, Value::Object(session::fill(schema))).await?;
            }
        }
    }
    Ok(())
}

fn require_tool(tools: &[String], name: &str) -> Result<(), String> {
    if tools.iter().any(|t| t == name) {
        Ok(())
    } else {
        Err(format!("the server does not list the tool {name}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_suite_appends_the_url_and_names_the_scenario_in_the_environment() {
        let options = parse(args(&["http://localhost:1234"]), Some("sse-retry".into())).unwrap();
        assert_eq!(options.url, "http://localhost:1234");
        assert_eq!(options.scenario.as_deref(), Some("sse-retry"));
        assert_eq!(options.call, None);
        assert_eq!(options.timeout_ms, None);
        // The flag wins over the environment; an empty variable is no scenario.
        let flag = parse(
            args(&["--scenario", "initialize", "http://x/mcp"]),
            Some("tools_call".into()),
        )
        .unwrap();
        assert_eq!(flag.scenario.as_deref(), Some("initialize"));
        let empty = parse(args(&["http://x/mcp"]), Some(String::new())).unwrap();
        assert_eq!(empty.scenario, None);
    }

    #[test]
    fn call_takes_json_object_arguments() {
        let options = parse(
            args(&[
                "http://127.0.0.1:8000/mcp",
                "--call",
                "get_weather",
                "--args",
                r#"{"location":"Tokyo"}"#,
                "--timeout",
                "500",
            ]),
            None,
        )
        .unwrap();
        assert_eq!(
            options.call,
            Some(("get_weather".into(), json!({"location": "Tokyo"})))
        );
        assert_eq!(options.timeout_ms, Some(500));
        let bare = parse(args(&["u", "--call", "t"]), None).unwrap();
        assert_eq!(bare.call, Some(("t".into(), json!({}))));
    }

    #[test]
    fn usage_errors_say_what_is_wrong() {
        let cases: [(&[&str], &str); 11] = [
            (
                &["u", "--sampling-model-name", "m"],
                "--sampling-model <URL>",
            ),
            (&["u", "--root", "not a uri"], "not a URI"),
            (&["u", "--root", "file:///a\nfile:///b"], "one URI"),
            (&[], "<URL>"),
            (&["u", "v"], "unexpected argument 'v'"),
            (&["u", "--call"], "--call <TOOL>"),
            (&["u", "--call", "t", "--args", "[1]"], "JSON object"),
            (&["u", "--call", "t", "--args", "{"], "not JSON"),
            (&["u", "--args", "{}"], "--call <TOOL>"),
            (&["u", "--timeout", "0"], "milliseconds"),
            (&["u", "--verbose"], "unexpected argument '--verbose'"),
        ];
        for (list, expected) in cases {
            let err = parse(args(list), None).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{list:?}");
            let text = err.to_string();
            assert!(text.contains(expected), "{list:?}: {text}");
        }
        let err = parse(args(&["u", "--call", "t"]), Some("initialize".into())).unwrap_err();
        assert!(err.to_string().contains("scenario"), "{err}");
        let err = parse(
            args(&["u", "--scenario", "initialize", "--call", "t"]),
            None,
        )
        .unwrap_err();
        assert!(err.to_string().contains("scenario"), "{err}");
        let err = parse(args(&["u", "--browse"]), Some("initialize".into())).unwrap_err();
        assert!(err.to_string().contains("--browse"), "{err}");
        let browse = parse(args(&["u", "--browse"]), None).unwrap();
        assert!(browse.browse);
    }

    #[test]
    fn roots_are_given_one_flag_each_with_an_optional_name() {
        let options = parse(
            args(&[
                "u",
                "--root",
                "file:///work Work",
                "--root",
                "https://x.test/r",
            ]),
            None,
        )
        .unwrap();
        let listed: Vec<(&str, Option<&str>)> = options
            .roots
            .iter()
            .map(|r| (r.uri.as_str(), r.name.as_deref()))
            .collect();
        assert_eq!(
            listed,
            [("file:///work", Some("Work")), ("https://x.test/r", None)]
        );
        assert!(parse(args(&["u"]), None).unwrap().roots.is_empty());
    }

    #[test]
    fn a_sampling_model_is_an_endpoint_and_a_name() {
        let given = parse(
            args(&["u", "--sampling-model", "http://127.0.0.1:11434/v1"]),
            None,
        )
        .unwrap();
        assert_eq!(
            given.sampling,
            Some(("http://127.0.0.1:11434/v1".into(), "default".into()))
        );
        let named = parse(
            args(&[
                "u",
                "--sampling-model",
                "http://m/v1",
                "--sampling-model-name",
                "llama3",
            ]),
            None,
        )
        .unwrap();
        assert_eq!(
            named.sampling,
            Some(("http://m/v1".into(), "llama3".into()))
        );
        assert_eq!(parse(args(&["u"]), None).unwrap().sampling, None);
    }

    #[test]
    fn help_lists_every_option_and_exits_0() {
        let help = parse(args(&["--help"]), None).unwrap_err();
        assert_eq!(help.kind(), ErrorKind::DisplayHelp);
        assert_eq!(help.exit_code(), 0);
        let text = help.render().to_string();
        for part in [
            "mcp-flow-cli [OPTIONS] <URL>",
            "--call <TOOL>",
            "--args <JSON>",
            "--timeout <MS>",
            "--scenario <NAME>",
            "--browse",
            "--root <URI>",
            "--sampling-model <URL>",
            "MCP_FLOW_MODEL_KEY",
            "MCP_CONFORMANCE_SCENARIO",
            "Exits 1 on any failure, 2 on a usage error",
        ] {
            assert!(text.contains(part), "{part}: {text}");
        }
        assert_eq!(
            parse(args(&["-h"]), None).unwrap_err().kind(),
            ErrorKind::DisplayHelp
        );
        Cli::command().debug_assert();
    }
}
