//! Tries the model by hand: `smollm-generate MODEL.gguf "question" [TOOLS.json [SYSTEM.txt]]`.
//! With tools it runs the tool-call turn and prints the decision as JSON (with the system prompt
//! from SYSTEM.txt if given); without, it answers in free text.

use std::process::ExitCode;

use mcp_flow_smollm::{Message, Model, Sampling, Tool};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), Some(question)) = (args.first(), args.get(1)) else {
        eprintln!("usage: smollm-generate MODEL.gguf QUESTION [TOOLS.json]");
        return ExitCode::from(2);
    };
    match run(path, question, args.get(2), args.get(3)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("smollm-generate: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(
    path: &str,
    question: &str,
    tools: Option<&String>,
    system: Option<&String>,
) -> Result<(), String> {
    let model = Model::from_file(std::path::Path::new(path)).map_err(|e| e.to_string())?;
    let mut messages = Vec::new();
    if let Some(file) = system {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        messages.push(Message::system(text));
    }
    messages.push(Message::user(question));
    let mut print = |t: &str| eprint!("{t}");
    match tools {
        Some(file) => {
            let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            let tools: Vec<Tool> =
                serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
            let turn = model
                .tool_call(&messages, &tools, Sampling::GREEDY, &mut print)
                .map_err(|e| e.to_string())?;
            eprintln!();
            let json = serde_json::to_string_pretty(&turn).map_err(|e| e.to_string())?;
            println!("{json}");
        }
        None => {
            let out = model
                .generate(&messages, 128, Sampling::GREEDY, &mut print)
                .map_err(|e| e.to_string())?;
            eprintln!();
            println!("{}", out.text);
        }
    }
    Ok(())
}
