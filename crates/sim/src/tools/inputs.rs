//! Tools that ask for the other kinds of input: a choice of kinds (form, or sampling when
//! the client cannot show forms), URL-mode elicitation, and roots.

use super::{text, Effects, Step, Tool};
use crate::round::{Answer, Ask, Round};
use serde_json::json;
use serde_json::{Map, Value};

pub const NAME_RELEASE: Tool = Tool {
    name: "name_release",
    title: "Name a release",
    description: "Asks the person for a name (form), or the host's model when the client only declared sampling.",
    schema: || json!({"type": "object", "properties": {"version": {"type": "string"}}, "required": ["version"]}),
    run: name_release,
    answers_without_ticket: false,
};

fn name_release(args: &Map<String, Value>, round: &mut Round<'_>, _: &mut Effects<'_>) -> Step {
    let Some(version) = args.get("version").and_then(Value::as_str) else {
        return Step::Invalid("Invalid arguments: `version` must be a string".into());
    };
    let ways = [
        Ask::form(
            &format!("What should release {version} be called?"),
            json!({"type": "object", "properties": {"title": {"type": "string", "maxLength": 60}}, "required": ["title"]}),
        ),
        Ask::sampling(&format!("Suggest a short, friendly name for software release {version}."), 20),
    ];
    match round.answer("title", &ways) {
        None => Step::Asked,
        Some(answer) => match answer.text_field("title") {
            Some(title) => Step::Done(text(format!("Release {version} is called \"{title}\"."))),
            None => Step::Done(text(format!("Release {version} keeps its number for a name."))),
        },
    }
}

pub const CONNECT_CALENDAR: Tool = Tool {
    name: "connect_calendar",
    title: "Connect a calendar",
    description:
        "Sends the person to a sign-in page (URL-mode elicitation): the password never passes through the client.",
    schema: || json!({"type": "object", "properties": {}}),
    run: connect_calendar,
    answers_without_ticket: false,
};

fn connect_calendar(_: &Map<String, Value>, round: &mut Round<'_>, fx: &mut Effects<'_>) -> Step {
    let ask = Ask::url("Sign in to your calendar to connect it.", "https://calendar.example/connect?flow=lab");
    match round.answer("sign-in", &[ask]) {
        None => Step::Asked,
        Some(Answer::Accept(_)) => {
            fx.record("calendar connected", None);
            Step::Done(text("Calendar connected."))
        }
        Some(_) => Step::Done(text("The calendar was not connected.")),
    }
}

pub const SCAN_WORKSPACE: Tool = Tool {
    name: "scan_workspace",
    title: "Scan the workspace",
    description: "Asks the client for its roots (roots/list, deprecated in 2026-07-28) and reports them.",
    schema: || json!({"type": "object", "properties": {}}),
    run: scan_workspace,
    answers_without_ticket: false,
};

fn scan_workspace(_: &Map<String, Value>, round: &mut Round<'_>, _: &mut Effects<'_>) -> Step {
    match round.answer("roots", &[Ask::roots()]) {
        None => Step::Asked,
        Some(Answer::Roots(roots)) => Step::Done(text(format!("Found {} root(s): {}.", roots.len(), roots.join(", ")))),
        Some(_) => Step::Done(text("No roots were given.")),
    }
}
