//! What goes wrong says so: a file that is not a model, a truncated download, and a tool schema
//! the constraint cannot express (generation then runs unconstrained and the decision says so).

mod common;

use mcp_flow_smollm::{Error, Message, Model, Sampling, Tool, ToolCallOutcome};
use serde_json::json;

#[test]
fn a_file_that_is_not_a_model_is_refused_with_a_reason() {
    let err = Model::from_bytes(b"<!DOCTYPE html><title>404</title>")
        .err()
        .expect("refused");
    assert!(matches!(err, Error::Format(_)), "{err:?}");
    assert!(
        err.to_string().starts_with("not a usable model file"),
        "{err}"
    );
}

#[test]
fn a_truncated_download_is_refused_with_a_reason() {
    let path = common::model_path();
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("SKIPPED: no model at {}", path.display());
        return;
    };
    for len in [16, 4096, bytes.len() / 2, bytes.len() - 1] {
        let err = Model::from_bytes(&bytes[..len]).err().expect("refused");
        assert!(matches!(err, Error::Format(_)), "{len}: {err:?}");
    }
}

#[test]
fn a_schema_beyond_the_constraint_falls_back_and_says_so() {
    let Some(model) = common::model() else { return };
    let tools = vec![Tool {
        name: "tag_photos".into(),
        description: "Tag photos with keywords".into(),
        input_schema: json!({"type": "object",
            "properties": {"tags": {"type": "array", "items": {"type": "string"}}},
            "required": ["tags"]}),
    }];
    let turn = model
        .tool_call(
            &[Message::user("Tag my photos with beach and sunset.")],
            &tools,
            Sampling::GREEDY,
            &mut |_| {},
        )
        .expect("the tool-call turn runs");
    // Greedy, the model picks the tool and writes arguments that are not JSON; either way the
    // decision says the arguments were not constrained, and why.
    match &turn.outcome {
        ToolCallOutcome::Call { name, arguments } => {
            assert_eq!(name, "tag_photos");
            assert!(arguments.is_object());
        }
        ToolCallOutcome::Unparsed { name } => assert_eq!(name, "tag_photos"),
        ToolCallOutcome::NoTool => return,
    }
    let constraint = &turn.decision.constraint;
    assert!(constraint.contains("unconstrained"), "{constraint}");
    assert!(constraint.contains("`tags` of type array"), "{constraint}");
}
