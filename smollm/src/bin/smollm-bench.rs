//! Native figures for the model: `smollm-bench MODEL.gguf` prints one line
//! `smollm: load_ms=… prompt_tokens=… prompt_tok_s=… ttft_ms=… decode_tok_s=… tool_turn_ms=…`
//! (read by `cargo xtask bench`). Load is reading and preparing the file; the prompt rate and
//! the time to first token come from the tool-call turn of the tutorial's question; decode is timed
//! over up to 64 tokens of free text (the answer turn itself is only a few tokens long).

use std::process::ExitCode;
use std::time::Instant;

use mcp_flow_smollm::{Message, Model, Sampling, Tool, answer_messages};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: smollm-bench MODEL.gguf");
        return ExitCode::from(2);
    };
    match run(&path) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("smollm-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(path: &str) -> Result<String, String> {
    let tools: Vec<Tool> =
        serde_json::from_str(include_str!("../../../tests/fixtures/weather-tools.json"))
            .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let model = Model::from_file(std::path::Path::new(path)).map_err(|e| e.to_string())?;
    let load_ms = start.elapsed().as_secs_f64() * 1000.0;

    let question = "What's the weather in Tokyo?";
    let start = Instant::now();
    let mut first: Option<f64> = None;
    let turn = model
        .tool_call(
            &[Message::user(question)],
            &tools,
            Sampling::GREEDY,
            &mut |_| {
                // The opening is fixed text; the first token the model chooses comes after it.
                if first.is_none() {
                    first = Some(0.0);
                } else if first == Some(0.0) {
                    first = Some(start.elapsed().as_secs_f64() * 1000.0);
                }
            },
        )
        .map_err(|e| e.to_string())?;
    let tool_turn_ms = start.elapsed().as_secs_f64() * 1000.0;
    let ttft_ms = first.unwrap_or(tool_turn_ms);
    let prompt_tokens = turn.decision.prompt_tokens;

    // Prompt rate alone: the same prompt fed once, nothing generated.
    let prompt = model.prompt(&[
        Message::system(mcp_flow_smollm::system_prompt(&tools)),
        Message::user(question),
    ]);
    let start = Instant::now();
    let fed = model.prefill(&prompt).map_err(|e| e.to_string())?;
    let prompt_tok_s = fed as f64 / start.elapsed().as_secs_f64();

    let messages = answer_messages(
        question,
        "get_weather",
        &serde_json::json!({"location": "Tokyo"}),
        "Sunny",
    );
    let answer_tokens = model
        .answer(&messages, Sampling::GREEDY, &mut |_| {})
        .map_err(|e| e.to_string())?
        .generated_tokens;

    let free = [Message::user("Tell me about the weather in spring.")];
    let mut first_answer: Option<Instant> = None;
    let answer = model
        .generate(&free, 64, Sampling::GREEDY, &mut |_| {
            first_answer.get_or_insert_with(Instant::now);
        })
        .map_err(|e| e.to_string())?;
    let end = Instant::now();
    // Decode rate: tokens after the first over the time after it (prefill excluded).
    let decode_tok_s = match first_answer {
        Some(t) if answer.generated_tokens > 1 => {
            (answer.generated_tokens - 1) as f64 / (end - t).as_secs_f64()
        }
        _ => 0.0,
    };
    Ok(format!(
        "smollm: load_ms={load_ms:.0} prompt_tokens={prompt_tokens} prompt_tok_s={prompt_tok_s:.1} \
         ttft_ms={ttft_ms:.0} decode_tok_s={decode_tok_s:.1} tool_turn_ms={tool_turn_ms:.0} \
         answer_tokens={answer_tokens} decode_tokens={}",
        answer.generated_tokens
    ))
}
