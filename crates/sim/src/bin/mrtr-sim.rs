//! Runs a scenario and prints its raw JSON-RPC lines: the course's "run it raw".
//!
//! ```text
//! mrtr-sim deploy --move tamper-byte
//! mrtr-sim --list
//! mrtr-sim voucher --record off --json
//! mrtr-sim deploy --move honest --send '{"jsonrpc":"2.0","id":0,"method":"tools/list"}'
//! ```

use mrtr_sim::cluster::{Balancing, RecordMode, Replica};
use mrtr_sim::moves::{Move, OwnAttempt};
use mrtr_sim::person::Reply;
use mrtr_sim::scenarios::{self, Options, Run, SCENARIOS};
use mrtr_sim::trace::{Actor, Kind};
use mrtr_ticket::{secs, Mode};
use std::process::ExitCode;

const USAGE: &str =
    "usage: mrtr-sim <scenario> [--move ID]... [--record off|shared|per-replica] [--mode signed|sealed|unsigned]
                 [--reply accept|accept-no|decline|cancel] [--route round-robin|random|a|b]
                 [--amount N] [--seed N] [--send REQUEST] [--json]
       mrtr-sim --list";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args) {
        Ok(Command::List) => {
            list();
            ExitCode::SUCCESS
        }
        Ok(Command::Run { scenario, options, json }) => match scenarios::run(&scenario, &options) {
            Ok(run) => {
                if json {
                    println!("{}", serde_json::to_string_pretty(&run).unwrap_or_default());
                } else {
                    print_raw(&run);
                }
                ExitCode::SUCCESS
            }
            Err(why) => usage_error(&why),
        },
        Err(why) => usage_error(&why),
    }
}

fn usage_error(why: &str) -> ExitCode {
    eprintln!("mrtr-sim: {why}\n{USAGE}");
    ExitCode::from(2)
}

enum Command {
    List,
    Run { scenario: String, options: Box<Options>, json: bool },
}

fn parse(args: &[String]) -> Result<Command, String> {
    let mut scenario = None;
    let mut options = Options::default();
    let mut json = false;
    let mut moves = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--list" | "-l" => return Ok(Command::List),
            "--help" | "-h" => return Err("here is how to call it".into()),
            "--json" => json = true,
            "--move" => {
                let id = value("--move")?;
                moves.push(Move::from_id(&id).ok_or_else(|| format!("unknown move '{id}' (see --list)"))?);
            }
            "--record" => {
                options.record = Some(match value("--record")?.as_str() {
                    "off" => RecordMode::Off,
                    "shared" => RecordMode::Shared,
                    "per-replica" => RecordMode::PerReplica,
                    other => return Err(format!("--record takes off, shared or per-replica, not '{other}'")),
                })
            }
            "--mode" => {
                options.mode = Some(match value("--mode")?.as_str() {
                    "signed" => Mode::Signed,
                    "sealed" => Mode::Sealed,
                    "unsigned" => Mode::Unsigned,
                    other => return Err(format!("--mode takes signed, sealed or unsigned, not '{other}'")),
                })
            }
            "--reply" => {
                options.reply = Some(match value("--reply")?.as_str() {
                    "accept" => Reply::Accept,
                    "accept-no" => Reply::AcceptNo,
                    "decline" => Reply::Decline,
                    "cancel" => Reply::Cancel,
                    other => return Err(format!("--reply takes accept, accept-no, decline or cancel, not '{other}'")),
                })
            }
            "--route" => {
                options.balancing = Some(match value("--route")?.as_str() {
                    "round-robin" => Balancing::RoundRobin,
                    "random" => Balancing::Random,
                    "a" | "A" => Balancing::Pin(Replica::A),
                    "b" | "B" => Balancing::Pin(Replica::B),
                    other => return Err(format!("--route takes round-robin, random, a or b, not '{other}'")),
                })
            }
            // Your own attempt after the moves: a request written by hand, sent as written.
            "--send" => options.attempt = Some(OwnAttempt { line: Some(value("--send")?), ..OwnAttempt::default() }),
            "--seed" => {
                let v = value("--seed")?;
                options.seed = Some(v.parse().map_err(|_| format!("--seed takes a whole number, not '{v}'"))?);
            }
            "--amount" => {
                let v = value("--amount")?;
                let amount: f64 = v.parse().map_err(|_| format!("--amount takes a number, not '{v}'"))?;
                if !amount.is_finite() || amount < 0.0 {
                    return Err(format!("--amount takes a non-negative number, not '{v}'"));
                }
                options.amount = Some(amount);
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option '{flag}'")),
            name if scenario.is_none() => scenario = Some(name.to_owned()),
            extra => return Err(format!("one scenario at a time ('{extra}' is one too many)")),
        }
    }
    if !moves.is_empty() {
        options.moves = Some(moves);
    }
    let scenario = scenario.ok_or("which scenario? (--list shows them)")?;
    Ok(Command::Run { scenario, options: Box::new(options), json })
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
