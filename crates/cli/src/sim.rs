//! `mrtr sim`: runs a scenario of the simulated cluster and prints its raw JSON-RPC lines,
//! the course's "run it raw".
//!
//! ```text
//! mrtr sim deploy --move tamper-byte
//! mrtr sim --list
//! mrtr sim voucher --record off --json
//! mrtr sim deploy --move honest --send '{"jsonrpc":"2.0","id":0,"method":"tools/list"}'
//! ```

use clap::Args;
use mrtr_sim::cluster::{Balancing, RecordMode};
use mrtr_sim::moves::{Move, OwnAttempt};
use mrtr_sim::person::Reply;
use mrtr_sim::scenarios::{self, Options, Run, SCENARIOS};
use mrtr_sim::trace::{Actor, Kind};
use mrtr_ticket::{secs, Mode};

/// Runs a scenario of the simulated MCP cluster and prints every JSON-RPC line, with its
/// direction and replica, then the verdicts and the figures.
#[derive(Debug, Args)]
pub struct SimArgs {
    /// The scenario (--list shows them).
    #[arg(required_unless_present = "list")]
    scenario: Option<String>,
    /// List the scenarios and the malicious moves.
    #[arg(short, long)]
    list: bool,
    /// A move to play, in order; repeat it for more (--list shows them).
    #[arg(long = "move", value_name = "ID", value_parser = move_named)]
    moves: Vec<Move>,
    /// The replay record: off, shared or per-replica.
    #[arg(long)]
    record: Option<RecordMode>,
    /// Ticket protection: signed, sealed or unsigned.
    #[arg(long)]
    mode: Option<Mode>,
    /// The person's answer: accept, accept-no, decline or cancel.
    #[arg(long)]
    reply: Option<Reply>,
    /// Which replica gets each request: round-robin, random, a or b.
    #[arg(long)]
    route: Option<Balancing>,
    /// The amount the expense scenario claims.
    #[arg(long, value_parser = amount, allow_negative_numbers = true)]
    amount: Option<f64>,
    /// The seed of the world's random choices and nonces.
    #[arg(long)]
    seed: Option<u64>,
    /// Your own request after the moves, sent exactly as written.
    #[arg(long, value_name = "REQUEST")]
    send: Option<String>,
    /// Print the whole run as JSON instead of raw lines.
    #[arg(long)]
    json: bool,
}

fn move_named(id: &str) -> Result<Move, String> {
    Move::from_id(id).ok_or_else(|| format!("unknown move '{id}' (see --list)"))
}

fn amount(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(amount) if amount.is_finite() && amount >= 0.0 => Ok(amount),
        _ => Err("a non-negative number".to_owned()),
    }
}

/// Runs the scenario and prints it; `Err` says what was wrong with the arguments.
pub fn run(cli: SimArgs) -> Result<(), String> {
    if cli.list {
        list();
        return Ok(());
    }
    let scenario = cli.scenario.unwrap_or_default();
    let options = Options {
        moves: (!cli.moves.is_empty()).then_some(cli.moves),
        record: cli.record,
        mode: cli.mode,
        reply: cli.reply,
        balancing: cli.route,
        amount: cli.amount,
        seed: cli.seed,
        attempt: cli.send.map(|line| OwnAttempt { line: Some(line), ..OwnAttempt::default() }),
    };
    let run = scenarios::run(&scenario, &options)?;
    if cli.json {
        println!("{}", serde_json::to_string_pretty(&run).unwrap_or_default());
    } else {
        print_raw(&run);
    }
    Ok(())
}

fn list() {
    println!("scenarios:");
    for s in SCENARIOS {
        let moves = if s.takes_moves() { "  [takes --move]" } else { "" };
        println!("  {:<20} {}{moves}", s.id, s.title);
    }
    println!("\nmoves:");
    for m in Move::ALL {
        println!("  {:<16} {}", m.id(), m.what());
    }
}

fn print_raw(run: &Run) {
    let scenario = scenarios::find(run.scenario).map_or("", |s| s.title);
    println!("# {}: {scenario}", run.scenario);
    for event in &run.trace.events {
        let when = secs(event.at_ms);
        match (&event.line, event.kind) {
            (Some(line), _) => {
                let direction = if event.from == Actor::Client { "C->S" } else { "S->C" };
                let who = if event.from == Actor::Client { event.to.name() } else { event.from.name() };
                println!("{when:>8}  {direction} {who:<9}  {line}");
            }
            (None, Kind::Route | Kind::Clock) => {}
            (None, _) => println!("{when:>8}  ({}) {}", event.from.name(), event.summary),
        }
    }
    if !run.verdicts.is_empty() {
        println!("# verdicts");
        for v in &run.verdicts {
            let replica = v.replica.map_or("-", |r| r.name());
            let ticket = v.ticket.as_deref().unwrap_or("no ticket");
            println!("  {:<22} {:>8}  {:<9}  {:<14}  {}", v.by, secs(v.at_ms), replica, ticket, v.answered.word());
        }
    }
    println!("# figures");
    for (name, value) in &run.figures {
        if !matches!(name.as_str(), "ticket" | "firstTicket") {
            println!("  {name}: {value}");
        }
    }
}
