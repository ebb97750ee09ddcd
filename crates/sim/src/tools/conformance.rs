//! The official conformance suite's fixture tools and prompt for multi round-trip requests
//! (`@modelcontextprotocol/conformance`, the `input-required-result-*` scenarios): the names
//! are the suite's, every tool takes `{}`, and each asks in the way its scenario checks.
//! Served by `mrtr serve --tools conformance` so the suite can run against the real server.

use super::prompts::Prompt;
use super::{text, Effects, Step, Tool};
use crate::round::{Answer, Ask, Round};
use serde_json::json;
use serde_json::{Map, Value};

fn no_arguments() -> Value {
    json!({"type": "object", "properties": {}})
}

/// A form asking for the person's name. Nothing is required, so any content the suite
/// sends fits it.
fn name_form() -> Ask {
    Ask::form("What is your name?", json!({"type": "object", "properties": {"name": {"type": "string"}}}))
}

fn sampling() -> Ask {
    Ask::sampling("Say hello in three words.", 20)
}

/// What an answer came to, in a few words for the result.
fn said(answer: &Answer) -> String {
    match answer {
        Answer::Accept(content) => format!("accepted {}", Value::Object(content.clone())),
        Answer::Decline => "declined".into(),
        Answer::Cancel => "cancelled".into(),
        Answer::Text(text) => format!("wrote \"{text}\""),
        Answer::Roots(roots) => format!("listed {} root(s)", roots.len()),
    }
}

macro_rules! fixture {
    ($name:literal, $title:literal, $description:literal, $run:ident) => {
        fixture!($name, $title, $description, $run, false)
    };
    ($name:literal, $title:literal, $description:literal, $run:ident, $bare:literal) => {
        Tool {
            name: $name,
            title: $title,
            description: $description,
            schema: no_arguments,
            run: $run,
            answers_without_ticket: $bare,
        }
    };
}

/// The suite's tools, in the order `tools/list` gives them.
pub const TOOLS: &[Tool] = &[
    // A greeting: a name that comes without a ticket is taken as it is (the suite's
    // ignore-extra-params scenario sends one that way).
    fixture!(
        "test_input_required_result_elicitation",
        "Elicitation",
        "Asks for the person's name (elicitation/create, key user_name), then greets them.",
        elicitation,
        true
    ),
    fixture!(
        "test_input_required_result_sampling",
        "Sampling",
        "Asks the host's model for a greeting (sampling/createMessage).",
        sampling_tool
    ),
    fixture!("test_input_required_result_list_roots", "Roots", "Asks for the client's roots (roots/list).", roots),
    fixture!(
        "test_input_required_result_request_state",
        "Request state",
        "Asks once; the retry must bring the requestState back.",
        elicitation
    ),
    fixture!(
        "test_input_required_result_multiple_inputs",
        "Multiple inputs",
        "Asks for a name, a sampled greeting and the roots in one round.",
        multiple_inputs
    ),
    fixture!(
        "test_input_required_result_multi_round",
        "Multi round",
        "Asks in two rounds, each with its own requestState, and completes in the third.",
        multi_round
    ),
    fixture!(
        "test_input_required_result_tampered_state",
        "Tampered state",
        "Asks once; a requestState edited on the way back is refused.",
        elicitation
    ),
    fixture!(
        "test_input_required_result_capabilities",
        "Capabilities",
        "Asks with the first kind of input the client declared: elicitation, else sampling, else roots.",
        capabilities
    ),
];

/// The suite's prompt.
pub const PROMPTS: &[Prompt] = &[Prompt {
    name: "test_input_required_result_prompt",
    description: "Asks for a name before it writes the prompt.",
    arguments: &[],
    run: prompt,
}];

fn elicitation(_: &Map<String, Value>, round: &mut Round<'_>, _: &mut Effects<'_>) -> Step {
    match round.answer("user_name", &[name_form()]) {
        None => Step::Asked,
        Some(answer) => Step::Done(text(format!("Hello: the person {}.", said(&answer)))),
    }
}

fn sampling_tool(_: &Map<String, Value>, round: &mut Round<'_>, _: &mut Effects<'_>) -> Step {
    match round.answer("greeting", &[sampling()]) {
        None => Step::Asked,
        Some(answer) => Step::Done(text(format!("The model {}.", said(&answer)))),
    }
}

fn roots(_: &Map<String, Value>, round: &mut Round<'_>, _: &mut Effects<'_>) -> Step {
    match round.answer("roots", &[Ask::roots()]) {
        None => Step::Asked,
        Some(answer) => Step::Done(text(format!("The client {}.", said(&answer)))),
    }
}

fn multiple_inputs(_: &Map<String, Value>, round: &mut Round<'_>, _: &mut Effects<'_>) -> Step {
    // Every question in the same round: ask all, act when all are answered.
    let answers = [
        round.answer("user_name", &[name_form()]),
        round.answer("greeting", &[sampling()]),
        round.answer("roots", &[Ask::roots()]),
    ];
    if answers.iter().any(Option::is_none) {
        return Step::Asked;
    }
    let said: Vec<String> = answers.iter().flatten().map(said).collect();
    Step::Done(text(format!("All three answered: {}.", said.join("; "))))
}

fn multi_round(_: &Map<String, Value>, round: &mut Round<'_>, _: &mut Effects<'_>) -> Step {
    let reached = round.saved().and_then(|s| s.get("round")).and_then(Value::as_u64).unwrap_or(0);
    if reached == 0 {
        round.save(json!({"round": 1}));
        let _ = round.answer("round_1", &[name_form()]);
        return Step::Asked;
    }
    if round.answer(&format!("round_{reached}"), &[name_form()]).is_none() {
        round.save(json!({"round": reached}));
        return Step::Asked;
    }
    if reached == 1 {
        round.save(json!({"round": 2}));
        let _ = round.answer("round_2", &[name_form()]);
        return Step::Asked;
    }
    Step::Done(text("Both rounds answered."))
}

fn capabilities(_: &Map<String, Value>, round: &mut Round<'_>, _: &mut Effects<'_>) -> Step {
    match round.answer("input", &[name_form(), sampling(), Ask::roots()]) {
        None => Step::Asked,
        Some(answer) => Step::Done(text(format!("Answered in a way the client declared: it {}.", said(&answer)))),
    }
}

fn prompt(_: &Map<String, Value>, round: &mut Round<'_>) -> Step {
    match round.answer("user_name", &[name_form()]) {
        None => Step::Asked,
        Some(answer) => Step::Done(json!({
            "description": "A greeting, once the name is known",
            "messages": [{"role": "user", "content": {"type": "text",
                "text": format!("Greet the person, who {}.", said(&answer))}}]
        })),
    }
}
