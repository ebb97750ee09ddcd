//! `deploy`: the course's example. Confirm first, then deploy.

use super::{text, Effects, Step, Tool};
use crate::round::{Answer, Ask, Round};
use serde_json::json;
use serde_json::{Map, Value};

pub const DEPLOY: Tool = Tool {
    name: "deploy",
    title: "Deploy",
    description: "Deploys to an environment after the person confirms. The ticket binds the confirmation to this exact environment.",
    schema: || json!({"type": "object", "properties": {"env": {"type": "string", "enum": ["staging", "prod"]}}, "required": ["env"]}),
    run,
    answers_without_ticket: false,
};

fn run(args: &Map<String, Value>, round: &mut Round<'_>, fx: &mut Effects<'_>) -> Step {
    let Some(env) = args.get("env").and_then(Value::as_str).filter(|e| matches!(*e, "staging" | "prod")) else {
        return Step::Invalid("Invalid arguments: `env` must be \"staging\" or \"prod\"".into());
    };
    round.save(json!({"env": env}));
    match round.answer("confirm", &[Ask::confirm(&format!("Deploy to {env}?"), "confirm")]) {
        None => Step::Asked,
        Some(answer) if answer.flag("confirm") == Some(true) => {
            fx.record(format!("deployed to {env}"), None);
            Step::Done(text(format!("deployed to {env}")))
        }
        Some(Answer::Decline) => Step::Done(text("deployment declined by user")),
        Some(Answer::Cancel) => Step::Done(text("deployment cancelled by user")),
        Some(_) => Step::Done(text(format!("Nothing was deployed: the person answered no to {env}."))),
    }
}
