//! The server's question ("Which Springfield?") answered by the command line the same way in
//! both eras: an `input_required` retry in 2026-07-28, `elicitation/create` on the stream in
//! 2025-11-25 (it declares form elicitation, so it must not decline it).

mod support;

use std::process::Command;

#[test]
fn the_command_line_answers_the_servers_question_in_both_eras() {
    let url = support::weather_server(&[]);
    for era in ["modern", "legacy"] {
        let out = Command::new(env!("CARGO_BIN_EXE_mcp-flow-cli"))
            .args([url.as_str(), "--era", era, "--call", "get_weather"])
            .args(["--args", r#"{"location":"Springfield"}"#])
            .output()
            .expect("the CLI runs");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{era}: {said}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let asked = said
            .lines()
            .find(|l| l.contains("the server asks"))
            .unwrap_or_else(|| panic!("{era}: no question answered: {said}"));
        assert!(asked.contains(r#""action":"accept""#), "{era}: {asked}");
        // The answer picked one Springfield, and the tool reported its weather.
        assert!(said.contains("Springfield,"), "{era}: {said}");
        assert!(!said.contains("declined"), "{era}: {said}");
    }
}
