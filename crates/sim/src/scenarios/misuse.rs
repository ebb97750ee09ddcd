//! Scenarios built on one ticket and a list of moves.

use super::{world, Options, Run, Verdict};
use crate::cluster::{Balancing, ClusterConfig, RecordMode};
use crate::moves::{Move, OwnAttempt, Situation};
use crate::trace::Kind;
use crate::world::World;
use mrtr_ticket::{inspect, Mode};
use serde_json::json;
use serde_json::{Map, Value};

/// The lesson's timeline: honest at 8 s, tamper 12 s, alice 20 s, late 300 s, other
/// request 30 s, the honest retry again 40 s.
pub const LESSON_MOVES: [Move; 6] =
    [Move::Honest, Move::EditPayload, Move::OtherPrincipal, Move::TooLate, Move::OtherArguments, Move::SendTwice];

/// Makes the first call and lets the person answer: the ticket every move starts from.
pub fn situation(world: &mut World, method: &str, params: Value) -> Result<Situation, String> {
    situation_in_round(world, method, params, 1)
}

/// Plays the call honestly up to its `round`-th `input_required` (or the last one, when it
/// finishes sooner) and lets the person answer it: every move starts from that round's
/// ticket, and remembers round 1's.
pub fn situation_in_round(world: &mut World, method: &str, params: Value, round: usize) -> Result<Situation, String> {
    let first = world.client.request(method, params);
    let mut request = first.clone();
    let mut first_ticket = None;
    let mut reached = None;
    for n in 1..=round.max(1) {
        let delivery = world.send(&request, None);
        let minted_at = world.now();
        let asked = delivery
            .response
            .as_ref()
            .and_then(|r| r.get("result"))
            .filter(|r| r.get("resultType").and_then(Value::as_str) == Some("input_required"));
        let Some(result) = asked else {
            if reached.is_some() {
                break;
            }
            let got = delivery.response.as_ref().map_or_else(|| "no response".to_owned(), Value::to_string);
            return Err(format!("{method} did not ask for input: {got}"));
        };
        let ticket = result.get("requestState").and_then(Value::as_str).unwrap_or_default().to_owned();
        let requests = result.get("inputRequests").and_then(Value::as_object).cloned().unwrap_or_default();
        let answers = world.answer_all(&requests).unwrap_or_default();
        first_ticket.get_or_insert_with(|| ticket.clone());
        if n < round {
            request = world.client.retry(&first, answers.clone(), Some(&ticket));
        }
        reached = Some((n, ticket, requests, answers, minted_at, delivery.replica));
    }
    let Some((last, ticket, requests, answers, minted_at, minted_on)) = reached else {
        return Err(format!("{method} did not ask for input"));
    };
    let mut situation = Situation::new(first, ticket, requests, answers, minted_at, &mut world.client);
    situation.minted_on = minted_on;
    situation.first_ticket = first_ticket.unwrap_or_default();
    situation.round = last;
    situation.other_ticket = another_flows_ticket(world, &situation);
    Ok(situation)
}

/// A ticket the server could have given another flow of the same call (its own nonce, so
/// its own tag), minted aside: the world's clock and random numbers are left as they were.
fn another_flows_ticket(world: &World, situation: &Situation) -> Option<String> {
    let principal = crate::cluster::principal_of(&world.client.bearer)?;
    let method = situation.first.get("method").and_then(Value::as_str)?;
    let request = mrtr_ticket::RequestDigest::of(method, &situation.first["params"]).ok()?;
    let server = world.cluster.server();
    let mint = mrtr_ticket::Mint {
        principal: principal.to_owned(),
        request,
        data: json!({}),
        now_ms: situation.minted_at,
        ttl_ms: server.config().ttl_ms,
    };
    server.codec().mint(&mint, &mut mrtr_ticket::FixedNonces(vec![9])).ok()
}

/// Plays each move as a separate attempt on the situation's ticket, at its own time.
///
/// [`Move::SendTwice`] replays the honest retry. When neither it nor the honest retry was
/// played before, there is nothing to replay yet: it sends the line once first, then again,
/// and its verdict is the second's.
pub fn play(world: &mut World, situation: &Situation, moves: &[Move]) -> Vec<Verdict> {
    let mut honest_sent = false;
    moves
        .iter()
        .map(|&by| {
            let attempt = situation.attempt(by, &mut world.client);
            world.jump_to(attempt.at_ms);
            if by == Move::SendTwice && !honest_sent {
                world.send_line(&attempt.line, Some(&attempt.bearer));
            }
            honest_sent |= matches!(by, Move::Honest | Move::SendTwice);
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

/// A scenario built on moves, played up to the student's own attempt: the part every edit
/// of that attempt shares. [`Prepared::finish`] sends the attempt (if any) on a copy and
/// reports the run; the lab keeps one `Prepared` while only the attempt changes.
#[derive(Debug, Clone)]
pub struct Prepared {
    id: &'static str,
    world: World,
    situation: Result<Situation, String>,
    verdicts: Vec<Verdict>,
    /// What the prefix decides, worked out once: the ticket, whether its payload reads
    /// without the key and which replica minted it (or why there is no ticket).
    figures_so_far: Map<String, Value>,
    /// The scenario's own figures, read off the finished run.
    more_figures: fn(&mut Run),
    /// Where the moves start in the trace: the first retry is routed after it.
    moves_start: usize,
}

fn no_more_figures(_: &mut Run) {}

impl Prepared {
    fn new(id: &'static str, world: World, method: &str, params: Value, moves: &[Move]) -> Prepared {
        Prepared::in_round(id, world, method, params, 1, moves)
    }

    /// Plays the call up to its `round`-th question before the moves (see [`situation_in_round`]).
    fn in_round(
        id: &'static str,
        mut world: World,
        method: &str,
        params: Value,
        round: usize,
        moves: &[Move],
    ) -> Prepared {
        let situation = situation_in_round(&mut world, method, params, round);
        let moves_start = world.trace.events.len();
        let verdicts = situation.as_ref().map(|s| play(&mut world, s, moves)).unwrap_or_default();
        let mut figures_so_far = Map::new();
        match &situation {
            Ok(s) => {
                figures_so_far.insert("ticket".into(), s.ticket.clone().into());
                figures_so_far.insert("payloadReadable".into(), inspect(&s.ticket).payload.is_some().into());
                figures_so_far.insert("mintedOn".into(), s.minted_on.map(|r| r.name()).into());
                figures_so_far.insert("round".into(), s.round.into());
                if s.round > 1 {
                    figures_so_far.insert("firstTicket".into(), s.first_ticket.clone().into());
                }
                figures_so_far.insert("mintedAtMs".into(), s.minted_at.into());
            }
            Err(why) => {
                figures_so_far.insert("error".into(), why.clone().into());
            }
        }
        Prepared { id, world, situation, verdicts, figures_so_far, more_figures: no_more_figures, moves_start }
    }

    fn with_figures(mut self, more_figures: fn(&mut Run)) -> Prepared {
        self.more_figures = more_figures;
        self
    }

    /// The request the student's own attempt would send (`None` when the call never asked
    /// for input): the starting point for writing one by hand.
    pub fn attempt_line(&self, own: Option<&OwnAttempt>) -> Option<String> {
        let situation = self.situation.as_ref().ok()?;
        let mut client = self.world.client.clone();
        Some(situation.own_attempt(own.unwrap_or(&OwnAttempt::default()), &mut client).line)
    }

    /// The run, with the student's own attempt sent last when there is one.
    pub fn finish(&self, own: Option<&OwnAttempt>) -> Run {
        let mut world = self.world.clone();
        let mut verdicts = self.verdicts.clone();
        if let (Ok(situation), Some(own)) = (&self.situation, own) {
            verdicts.push(play_own(&mut world, situation, own));
        }
        let mut figures = self.figures_so_far.clone();
        let words: Vec<String> = verdicts.iter().map(|v| v.answered.word()).collect();
        figures.insert("verdicts".into(), json!(words));
        figures.insert("ledgerEntries".into(), world.cluster.ledger().len().into());
        // The first retry's replica, read off the trace: a replay played first sends twice.
        if let Some(first) = world.trace.events[self.moves_start..].iter().find(|e| e.kind == Kind::Route) {
            figures.insert("firstRetryOn".into(), first.to.name().into());
        }
        let mut run = Run::new(self.id, world, verdicts, figures);
        (self.more_figures)(&mut run);
        run
    }
}

/// bob's deploy to staging, up to the student's own attempt.
pub fn prepare_deploy(options: &Options) -> Prepared {
    let world = world(options, ClusterConfig::default());
    let params = json!({"name": "deploy", "arguments": {"env": "staging"}});
    Prepared::new("deploy", world, "tools/call", params, &moves_or(options, &LESSON_MOVES))
}

fn buy(id: &'static str, options: &Options, defaults: ClusterConfig, default_moves: &[Move]) -> Prepared {
    let world = world(options, defaults);
    let params = json!({"name": "buy_ticket", "arguments": {"quantity": 2}});
    Prepared::new(id, world, "tools/call", params, &moves_or(options, default_moves)).with_figures(|run| {
        let charged: Vec<Value> =
            run.ledger.entries().iter().filter_map(|e| e.cents).map(|c| json!(crate::ledger::money(c))).collect();
        run.figures.insert("quoted".into(), "190.00".into());
        run.figures.insert("charged".into(), charged.into());
    })
}

/// Two tickets at 95.00: the quoted price travels in the ticket.
pub fn prepare_buy_ticket(options: &Options) -> Prepared {
    buy("buy-ticket", options, ClusterConfig::default(), &[Move::Honest])
}

/// The same purchase on a server that does not sign, with a forged price.
pub fn prepare_careless(options: &Options) -> Prepared {
    let mut defaults = ClusterConfig::default();
    defaults.server.mode = Mode::Unsigned;
    buy("careless", options, defaults, &[Move::EditPayload])
}

/// A one-time voucher, redeemed and replayed.
pub fn prepare_voucher(options: &Options) -> Prepared {
    let defaults = ClusterConfig { record: RecordMode::Shared, ..ClusterConfig::default() };
    let world = world(options, defaults);
    let params = json!({"name": "redeem_voucher", "arguments": {"code": "WELCOME10"}});
    let moves = moves_or(options, &[Move::Honest, Move::SendTwice]);
    Prepared::new("voucher", world, "tools/call", params, &moves).with_figures(|run| {
        let redeemed = run.ledger.entries().iter().filter(|e| e.tool == "redeem_voucher").count();
        run.figures.insert("redeemed".into(), redeemed.into());
    })
}

/// The deploy with sealed tickets: same checks, unreadable payload.
pub fn prepare_sealed(options: &Options) -> Prepared {
    let mut defaults = ClusterConfig::default();
    defaults.server.mode = Mode::Sealed;
    let world = world(options, defaults);
    let params = json!({"name": "deploy", "arguments": {"env": "staging"}});
    let moves = moves_or(options, &[Move::Honest, Move::TamperByte, Move::OtherPrincipal]);
    Prepared::new("sealed", world, "tools/call", params, &moves)
}

/// bob books a seat: two questions, two rounds, two tickets. The moves start from round 2's.
pub fn prepare_book_seat(options: &Options) -> Prepared {
    let world = world(options, ClusterConfig::default());
    let params = json!({"name": "book_seat", "arguments": {"flight": "LX318"}});
    let moves = moves_or(options, &[Move::Honest, Move::FirstTicket]);
    Prepared::in_round("book-seat", world, "tools/call", params, 2, &moves).with_figures(|run| {
        let booked = run.ledger.entries().iter().filter(|e| e.tool == "book_seat").count();
        run.figures.insert("booked".into(), booked.into());
    })
}
