//! `book_seat`: a flow of two rounds, so two tickets. Round 1 asks for the seat; round 2
//! asks to pay for it, and its ticket carries the seat chosen. A client must echo the latest
//! ticket: round 1's takes the server back to the seat question.

use super::{text, text_with, Effects, Step, Tool};
use crate::ledger::money;
use crate::round::{Ask, Round};
use serde_json::json;
use serde_json::{Map, Value};

/// The seats on offer; the person takes the first.
pub const SEATS: [&str; 3] = ["14C", "2A", "31F"];
/// What a seat costs.
pub const SEAT_PRICE_CENTS: i64 = 24_000;

pub const BOOK_SEAT: Tool = Tool {
    name: "book_seat",
    title: "Book a seat",
    description:
        "Two questions, two rounds: which seat, then whether to pay for it. The second ticket carries the seat.",
    schema: || json!({"type": "object", "properties": {"flight": {"type": "string"}}, "required": ["flight"]}),
    run,
    answers_without_ticket: false,
};

fn run(args: &Map<String, Value>, round: &mut Round<'_>, fx: &mut Effects<'_>) -> Step {
    let Some(flight) = args.get("flight").and_then(Value::as_str) else {
        return Step::Invalid("Invalid arguments: `flight` must be a string".into());
    };
    // Round 2 on: the seat comes from the ticket. Round 1: from the person's answer.
    let saved = round.saved().and_then(|s| s.get("seat")).and_then(Value::as_str).map(str::to_owned);
    let seat = match saved {
        Some(seat) => seat,
        // An accepted answer names one of the seats: the form offers no others.
        None => match round.answer("seat", &[which_seat(flight)]) {
            None => return Step::Asked,
            Some(answer) => match answer.text_field("seat") {
                Some(seat) => seat.to_owned(),
                None => return Step::Done(text("No seat was chosen: nothing was booked.")),
            },
        },
    };
    round.save(json!({"seat": seat.as_str()}));
    let question = format!("Pay {} for seat {seat} on {flight}?", money(SEAT_PRICE_CENTS));
    match round.answer("pay", &[Ask::confirm(&question, "pay")]) {
        None => Step::Asked,
        Some(answer) if answer.flag("pay") == Some(true) => {
            fx.record(
                format!("booked seat {seat} on {flight} for {}", money(SEAT_PRICE_CENTS)),
                Some(SEAT_PRICE_CENTS),
            );
            Step::Done(text_with(
                format!("Seat {seat} on {flight} is booked: {} charged.", money(SEAT_PRICE_CENTS)),
                json!({"seat": seat, "charged": SEAT_PRICE_CENTS as f64 / 100.0}),
            ))
        }
        Some(_) => Step::Done(text(format!("Seat {seat} was not paid for: nothing was booked."))),
    }
}

fn which_seat(flight: &str) -> Ask {
    Ask::form(
        &format!("Which seat on {flight}?"),
        json!({"type": "object", "properties": {"seat": {"type": "string", "enum": SEATS}}, "required": ["seat"]}),
    )
}
