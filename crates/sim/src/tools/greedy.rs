//! `greedy`: a server that keeps answering "I need more input". Only the client's round
//! limit stops it.

use super::{text, Effects, Step, Tool};
use crate::round::{Ask, Round};
use serde_json::json;
use serde_json::{Map, Value};

/// How many rounds it wants unless told otherwise.
pub const DEFAULT_ROUNDS: u64 = 50;

pub const GREEDY: Tool = Tool {
    name: "greedy",
    title: "Greedy (wants many rounds)",
    description: "Asks again after every answer, 50 rounds by default. A client must set a round limit.",
    schema: || json!({"type": "object", "properties": {"rounds": {"type": "integer", "minimum": 1, "maximum": 1000}}}),
    run,
    answers_without_ticket: false,
};

fn run(args: &Map<String, Value>, round: &mut Round<'_>, _: &mut Effects<'_>) -> Step {
    let wanted = args.get("rounds").and_then(Value::as_u64).unwrap_or(DEFAULT_ROUNDS).clamp(1, 1000);
    let reached = round.saved().and_then(|s| s.get("round")).and_then(Value::as_u64).unwrap_or(0);
    if reached > 0 {
        round.save(json!({"round": reached}));
        if round.answer(&format!("round-{reached}"), &[again(reached, wanted)]).is_none() {
            return Step::Asked;
        }
    }
    if reached >= wanted {
        return Step::Done(text(format!("Finished after {wanted} rounds.")));
    }
    let next = reached + 1;
    round.save(json!({"round": next}));
    let _ = round.answer(&format!("round-{next}"), &[again(next, wanted)]);
    Step::Asked
}

fn again(n: u64, wanted: u64) -> Ask {
    Ask::confirm(&format!("Round {n} of {wanted}: continue?"), "again")
}
