//! Tools that move money: the order of effects, a price carried in the ticket, and a
//! one-time voucher.

use super::{cents, number, text, text_with, Effects, Step, Tool};
use crate::ledger::money;
use crate::round::{Answer, Ask, Round};
use serde_json::json;
use serde_json::{Map, Value};

/// Expenses above this need the person's confirmation.
pub const EXPENSE_LIMIT: f64 = 100.0;
/// The price of one ticket, in cents.
pub const TICKET_PRICE_CENTS: i64 = 9_500;
/// What a voucher takes off, in cents.
pub const VOUCHER_CENTS: i64 = 1_000;
/// The message when nothing was submitted (module 1's style: what happened, what to do).
pub const NOTHING_SUBMITTED: &str = "Nothing was submitted. Ask again later if it is still needed.";

fn amount_schema() -> Value {
    json!({"type": "object", "properties": {"amount": {"type": "number", "minimum": 0}}, "required": ["amount"]})
}

/// The `amount` argument every money tool takes: a number, not negative.
fn amount(args: &Map<String, Value>) -> Result<f64, Step> {
    match number(args, "amount")? {
        a if a >= 0.0 => Ok(a),
        _ => Err(Step::Invalid("Invalid arguments: `amount` must not be negative".into())),
    }
}

pub const SUBMIT_EXPENSE: Tool = Tool {
    name: "submit_expense",
    title: "Submit an expense",
    description: "Submits an expense; above 100.00 the person confirms first.",
    schema: amount_schema,
    run: submit_expense,
    answers_without_ticket: false,
};

fn submit_expense(args: &Map<String, Value>, round: &mut Round<'_>, fx: &mut Effects<'_>) -> Step {
    let amount = match amount(args) {
        Ok(a) => a,
        Err(step) => return step,
    };
    let shown = money(cents(amount));
    if amount > EXPENSE_LIMIT {
        let ask = Ask::confirm(&format!("Submit an expense of {shown}?"), "submit");
        let answer = match round.answer("confirm", &[ask]) {
            None => return Step::Asked,
            Some(answer) => answer,
        };
        if answer.flag("submit") != Some(true) {
            let (said, ask_again) = match answer {
                Answer::Decline => ("decline", false),
                Answer::Cancel => ("cancel", true),
                _ => ("no", true),
            };
            return Step::Done(text_with(
                NOTHING_SUBMITTED,
                json!({"submitted": false, "answer": said, "askAgainForThis": ask_again}),
            ));
        }
    }
    fx.record(format!("expense of {shown} submitted"), Some(cents(amount)));
    Step::Done(text_with(format!("The expense of {shown} was submitted."), json!({"submitted": true})))
}

pub const CHARGE_BAD: Tool = Tool {
    name: "charge_bad",
    title: "Charge (effect before the question)",
    description: "Charges, then asks. The body runs again on the retry, so it charges twice: the wrong shape.",
    schema: amount_schema,
    run: charge_bad,
    answers_without_ticket: false,
};

fn charge_bad(args: &Map<String, Value>, round: &mut Round<'_>, fx: &mut Effects<'_>) -> Step {
    let amount = match amount(args) {
        Ok(a) => a,
        Err(step) => return step,
    };
    fx.record(format!("charged {}", money(cents(amount))), Some(cents(amount)));
    match round.answer("ok", &[Ask::confirm(&format!("Charge {}?", money(cents(amount))), "ok")]) {
        None => Step::Asked,
        Some(answer) if answer.flag("ok") == Some(true) => Step::Done(text("Charged.")),
        Some(_) => Step::Done(text("Not confirmed.")),
    }
}

pub const CHARGE_GOOD: Tool = Tool {
    name: "charge_good",
    title: "Charge (ask first, act last)",
    description: "Asks, then charges once with the answer in hand: the right shape.",
    schema: amount_schema,
    run: charge_good,
    answers_without_ticket: false,
};

fn charge_good(args: &Map<String, Value>, round: &mut Round<'_>, fx: &mut Effects<'_>) -> Step {
    let amount = match amount(args) {
        Ok(a) => a,
        Err(step) => return step,
    };
    match round.answer("ok", &[Ask::confirm(&format!("Charge {}?", money(cents(amount))), "ok")]) {
        None => Step::Asked,
        Some(answer) if answer.flag("ok") == Some(true) => {
            fx.record(format!("charged {}", money(cents(amount))), Some(cents(amount)));
            Step::Done(text("Charged."))
        }
        Some(_) => Step::Done(text("Not confirmed: nothing was charged.")),
    }
}

pub const BUY_TICKET: Tool = Tool {
    name: "buy_ticket",
    title: "Buy tickets",
    description: "Quotes a price once, carries it in the ticket, and charges that price after the person agrees.",
    schema: || json!({"type": "object", "properties": {"quantity": {"type": "integer", "minimum": 1, "maximum": 10}}, "required": ["quantity"]}),
    run: buy_ticket,
    answers_without_ticket: false,
};

fn buy_ticket(args: &Map<String, Value>, round: &mut Round<'_>, fx: &mut Effects<'_>) -> Step {
    let Some(quantity) = args.get("quantity").and_then(Value::as_i64).filter(|q| (1..=10).contains(q)) else {
        return Step::Invalid("Invalid arguments: `quantity` must be a whole number from 1 to 10".into());
    };
    // The quote is computed once, in the first round, and trusted from the ticket after.
    let price = match round.saved().and_then(|s| s.get("price")).and_then(Value::as_f64) {
        Some(saved) => cents(saved),
        None => quantity * TICKET_PRICE_CENTS,
    };
    round.save(json!({"price": price as f64 / 100.0, "quantity": quantity}));
    let question = format!("Buy {quantity} tickets for {}?", money(price));
    match round.answer("buy", &[Ask::confirm(&question, "buy")]) {
        None => Step::Asked,
        Some(answer) if answer.flag("buy") == Some(true) => {
            fx.record(format!("charged {} for {quantity} tickets", money(price)), Some(price));
            Step::Done(text_with(
                format!("Bought {quantity} tickets for {}.", money(price)),
                json!({"charged": price as f64 / 100.0, "quantity": quantity}),
            ))
        }
        Some(_) => Step::Done(text("Nothing was bought.")),
    }
}

pub const REDEEM_VOUCHER: Tool = Tool {
    name: "redeem_voucher",
    title: "Redeem a voucher",
    description:
        "Redeems a one-time voucher after the person confirms. Only a server-side record makes the ticket single-use.",
    schema: || json!({"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]}),
    run: redeem_voucher,
    answers_without_ticket: false,
};

fn redeem_voucher(args: &Map<String, Value>, round: &mut Round<'_>, fx: &mut Effects<'_>) -> Step {
    let Some(code) = args.get("code").and_then(Value::as_str).filter(|c| !c.is_empty() && c.len() <= 64) else {
        return Step::Invalid("Invalid arguments: `code` must be a voucher code".into());
    };
    let question = format!("Redeem voucher {code} for {} off?", money(VOUCHER_CENTS));
    match round.answer("redeem", &[Ask::confirm(&question, "redeem")]) {
        None => Step::Asked,
        Some(answer) if answer.flag("redeem") == Some(true) => {
            fx.record(format!("voucher {code} redeemed"), Some(-VOUCHER_CENTS));
            Step::Done(text(format!("Voucher {code} redeemed: {} off.", money(VOUCHER_CENTS))))
        }
        Some(_) => Step::Done(text("The voucher was not redeemed.")),
    }
}
