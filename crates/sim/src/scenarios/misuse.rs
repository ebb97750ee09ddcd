//! Scenarios built on one ticket and a list of moves.

use super::{world, Options, Run, Verdict};
use crate::cluster::{Balancing, ClusterConfig, RecordMode};
use crate::moves::{Move, OwnAttempt, Situation};
use crate::world::World;
use mrtr_ticket::{inspect, Mode};
use serde_json::{json, Map, Value};

/// The lesson's timeline: honest at 8 s, tamper 12 s, alice 20 s, late 300 s, other
/// request 30 s, the honest retry again 40 s.
pub const LESSON_MOVES: [Move; 6] =
    [Move::Honest, Move::EditPayload, Move::OtherPrincipal, Move::TooLate, Move::OtherArguments, Move::SendTwice];

/// Makes the first call and lets the person answer: the ticket every move starts from.
pub fn situation(world: &mut World, method: &str, params: Value) -> Result<Situation, String> {
    let first = world.client.request(method, params);
    let delivery = world.send(&first, None);
    let minted_at = world.now();
    let result = delivery
        .response
        .as_ref()
        .and_then(|r| r.get("result"))
        .filter(|r| r.get("resultType").and_then(Value::as_str) == Some("input_required"))
        .ok_or_else(|| format!("{method} did not ask for input: {:?}", delivery.response))?;
    let ticket = result.get("requestState").and_then(Value::as_str).unwrap_or_default().to_owned();
    let requests = result.get("inputRequests").and_then(Value::as_object).cloned().unwrap_or_default();
    let answers = world.answer_all(&requests).unwrap_or_default();
    let mut situation = Situation::new(first, ticket, requests, answers, minted_at, &mut world.client);
    situation.minted_on = delivery.replica;
    Ok(situation)
}

/// Plays each move as a separate attempt on the situation's ticket, at its own time.
pub fn play(world: &mut World, situation: &Situation, moves: &[Move]) -> Vec<Verdict> {
    moves
        .iter()
        .map(|&by| {
            let attempt = situation.attempt(by, &mut world.client);
            world.jump_to(attempt.at_ms);
            let delivery = world.send_line(&attempt.line, Some(&attempt.bearer));
            Verdict::of(by.id(), by.title(), attempt.at_ms, attempt.bearer, delivery)
        })
        .collect()
}

/// Sends the student's own attempt, to the chosen replica if one was chosen.
pub fn play_own(world: &mut World, situation: &Situation, own: &OwnAttempt) -> Verdict {
    let attempt = situation.own_attempt(own, &mut world.client);
    world.jump_to(attempt.at_ms);
    let balancing = world.cluster.config().balancing;
    if let Some(replica) = own.replica {
        world.cluster.set_balancing(Balancing::Pin(replica));
    }
    let delivery = world.send_line(&attempt.line, Some(&attempt.bearer));
    world.cluster.set_balancing(balancing);
    Verdict::of("your-attempt", "Your attempt", attempt.at_ms, attempt.bearer, delivery)
}

fn moves_or(options: &Options, default: &[Move]) -> Vec<Move> {
    options.moves.clone().unwrap_or_else(|| default.to_vec())
}

fn played(
    id: &'static str,
    mut world: World,
    method: &str,
    params: Value,
    moves: &[Move],
    own: Option<&OwnAttempt>,
) -> Run {
    let mut figures = Map::new();
    let verdicts = match situation(&mut world, method, params) {
        Ok(s) => {
            figures.insert("ticket".into(), s.ticket.clone().into());
            figures.insert("payloadReadable".into(), inspect(&s.ticket).payload.is_some().into());
            figures.insert("mintedOn".into(), s.minted_on.map(|r| r.name()).into());
            let mut verdicts = play(&mut world, &s, moves);
            if let Some(own) = own {
                verdicts.push(play_own(&mut world, &s, own));
            }
            verdicts
        }
        Err(why) => {
            figures.insert("error".into(), why.into());
            Vec::new()
        }
    };
    let words: Vec<String> = verdicts.iter().map(|v| v.answered.word()).collect();
    figures.insert("verdicts".into(), json!(words));
    figures.insert("ledgerEntries".into(), world.cluster.ledger().len().into());
    if let Some(first) = verdicts.first().and_then(|v| v.replica) {
        figures.insert("firstRetryOn".into(), first.name().into());
    }
    Run::new(id, world, verdicts, figures)
}

/// bob's deploy to staging, misused move by move.
pub fn deploy(options: &Options) -> Run {
    let world = world(options, ClusterConfig::default());
    let moves = moves_or(options, &LESSON_MOVES);
    played(
        "deploy",
        world,
        "tools/call",
        json!({"name": "deploy", "arguments": {"env": "staging"}}),
        &moves,
        options.attempt.as_ref(),
    )
}

fn buy(id: &'static str, options: &Options, defaults: ClusterConfig, default_moves: &[Move]) -> Run {
    let world = world(options, defaults);
    let moves = moves_or(options, default_moves);
    let mut run = played(
        id,
        world,
        "tools/call",
        json!({"name": "buy_ticket", "arguments": {"quantity": 2}}),
        &moves,
        options.attempt.as_ref(),
    );
    let charged: Vec<Value> =
        run.ledger.entries().iter().filter_map(|e| e.cents).map(|c| json!(crate::ledger::money(c))).collect();
    run.figures.insert("quoted".into(), "190.00".into());
    run.figures.insert("charged".into(), charged.into());
    run
}

/// Two tickets at 95.00: the quoted price travels in the ticket.
pub fn buy_ticket(options: &Options) -> Run {
    buy("buy-ticket", options, ClusterConfig::default(), &[Move::Honest])
}

/// The same purchase on a server that does not sign, with a forged price.
pub fn careless(options: &Options) -> Run {
    let mut defaults = ClusterConfig::default();
    defaults.server.mode = Mode::Unsigned;
    buy("careless", options, defaults, &[Move::EditPayload])
}

/// A one-time voucher, redeemed and replayed.
pub fn voucher(options: &Options) -> Run {
    let defaults = ClusterConfig { record: RecordMode::Shared, ..ClusterConfig::default() };
    let world = world(options, defaults);
    let moves = moves_or(options, &[Move::Honest, Move::SendTwice]);
    let params = json!({"name": "redeem_voucher", "arguments": {"code": "WELCOME10"}});
    let mut run = played("voucher", world, "tools/call", params, &moves, options.attempt.as_ref());
    let redeemed = run.ledger.entries().iter().filter(|e| e.tool == "redeem_voucher").count();
    run.figures.insert("redeemed".into(), redeemed.into());
    run
}

/// The deploy with sealed tickets: same checks, unreadable payload.
pub fn sealed(options: &Options) -> Run {
    let mut defaults = ClusterConfig::default();
    defaults.server.mode = Mode::Sealed;
    let world = world(options, defaults);
    let moves = moves_or(options, &[Move::Honest, Move::TamperByte, Move::OtherPrincipal]);
    played(
        "sealed",
        world,
        "tools/call",
        json!({"name": "deploy", "arguments": {"env": "staging"}}),
        &moves,
        options.attempt.as_ref(),
    )
}
