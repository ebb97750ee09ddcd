//! A prompt that needs input before it can be written: `prompts/get` may return
//! `input_required` too.

use super::Step;
use crate::round::{Ask, Round};
use serde_json::json;
use serde_json::{Map, Value};

/// A prompt the server offers.
#[derive(Debug)]
pub struct Prompt {
    /// Its name in `prompts/get`.
    pub name: &'static str,
    /// What it is for.
    pub description: &'static str,
    /// Its arguments, all optional.
    pub arguments: &'static [&'static str],
    /// Its body.
    pub run: fn(&Map<String, Value>, &mut Round<'_>) -> Step,
}

impl Prompt {
    /// The prompt as `prompts/list` shows it.
    pub fn to_value(&self) -> Value {
        let arguments: Vec<Value> =
            self.arguments.iter().map(|name| json!({"name": name, "required": false})).collect();
        json!({"name": self.name, "description": self.description, "arguments": arguments})
    }
}

/// The lab's prompts.
pub const PROMPTS: &[Prompt] = &[Prompt {
    name: "release_notes",
    description: "Writes release notes for an audience the person chooses.",
    arguments: &["version"],
    run: release_notes,
}];

fn release_notes(args: &Map<String, Value>, round: &mut Round<'_>) -> Step {
    let version = args.get("version").and_then(Value::as_str).unwrap_or("the next release");
    let ways = [
        Ask::form(
            &format!("Who are the release notes for {version} written for?"),
            json!({"type": "object", "properties": {"audience": {"type": "string", "enum": ["developers", "customers"]}}, "required": ["audience"]}),
        ),
        Ask::sampling(&format!("Who is the likely audience of release notes for {version}? One word."), 5),
    ];
    match round.answer("audience", &ways) {
        None => Step::Asked,
        Some(answer) => {
            let audience = answer.text_field("audience").unwrap_or("everyone");
            Step::Done(json!({
                "description": format!("Release notes for {version}"),
                "messages": [{"role": "user", "content": {"type": "text",
                    "text": format!("Write release notes for {version}, for {audience}. Lead with what changed for them.")}}]
            }))
        }
    }
}
