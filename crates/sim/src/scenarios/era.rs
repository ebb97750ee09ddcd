//! The earlier era beside the modern one: the same tool body, waiting in two places.
//!
//! Before 2026-07-28 a server sent `elicitation/create` on the open connection and parked
//! the call until the answer came back, which only works if the answer reaches the same
//! instance and that instance stays alive. The modern server ends the call instead.

use super::{world, Options, Run};
use crate::cluster::{Balancing, ClusterConfig, Replica};
use crate::jsonrpc;
use crate::ledger::Entry;
use crate::protocol::Capabilities;
use crate::round::Round;
use crate::tools::{self, Effects, Step};
use crate::trace::{Actor, Kind};
use crate::world::{Outcome, World};
use serde::Serialize;
use serde_json::json;
use serde_json::{Map, Value};

/// How long an earlier-era server waits for the answer before it gives up, ms.
pub const LEGACY_TIMEOUT_MS: u64 = 60_000;
/// The tool both eras run.
const TOOL: &str = "submit_expense";

/// One row of the comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EraRow {
    /// What is compared.
    pub question: &'static str,
    /// The earlier era's figure.
    pub earlier: String,
    /// The modern figure.
    pub modern: String,
}

impl EraRow {
    /// The row as the run's figures hold it.
    pub fn to_value(&self) -> Value {
        json!({"question": self.question, "earlier": self.earlier.as_str(), "modern": self.modern.as_str()})
    }
}

/// How the earlier-era call went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Twist {
    /// The answer comes back to the instance that asked.
    None,
    /// The answer lands on the other instance.
    AnswerElsewhere,
    /// The instance that asked dies while the person thinks.
    InstanceDies,
}

/// Plays the three comparisons and reports them.
pub fn compare(options: &Options) -> Run {
    let mut world = world(options, ClusterConfig { balancing: Balancing::RoundRobin, ..ClusterConfig::default() });
    let mut rows = Vec::new();

    note(&mut world, "earlier era: the server asks while the call stays open");
    let (parked, ended) = legacy(&mut world, Twist::None);
    note(&mut world, "modern: the call ends with input_required; no replica keeps anything");
    let held = modern(&mut world, false).1;
    rows.push(EraRow {
        question: "Server threads parked while waiting",
        earlier: parked.to_string(),
        modern: held.to_string(),
    });
    let _ = ended;

    note(
        &mut world,
        "earlier era: the person's answer is a new request, and the balancer sends it to the other instance",
    );
    let (_, ended) = legacy(&mut world, Twist::AnswerElsewhere);
    note(&mut world, "modern: the retry lands on the other replica, which checks the ticket and finishes");
    let (finished, _) = modern(&mut world, false);
    rows.push(EraRow { question: "Answer lands on another instance", earlier: ended, modern: finished });

    note(&mut world, "earlier era: the instance that asked dies while the person thinks");
    let (_, ended) = legacy(&mut world, Twist::InstanceDies);
    note(&mut world, "modern: replica A dies after it minted the ticket; B finishes the call");
    let before = world.cluster.ledger().len();
    let (finished, _) = modern(&mut world, true);
    let modern_ledger = world.cluster.ledger().len() - before;
    rows.push(EraRow {
        question: "Instance dies while waiting",
        earlier: ended,
        modern: format!("{finished}, ledger {modern_ledger}"),
    });

    let mut figures = Map::new();
    figures.insert("rows".into(), rows.iter().map(EraRow::to_value).collect());
    Run::new("earlier-era", world, Vec::new(), figures)
}

fn note(world: &mut World, text: &str) {
    world.trace.push(world.now(), Actor::Client, Actor::Client, Kind::Note, text);
}

/// The modern call; `kill_a` stops replica A right after it minted the ticket.
/// Returns how it ended and how many calls a replica held while the person thought.
fn modern(world: &mut World, kill_a: bool) -> (String, usize) {
    world.cluster.set_up(Replica::A, true);
    world.cluster.set_up(Replica::B, true);
    world.cluster.set_balancing(Balancing::Pin(Replica::A));
    let first = world.client.request("tools/call", json!({"name": TOOL, "arguments": {"amount": 250}}));
    let delivery = world.send(&first, None);
    let result = delivery.response.and_then(|r| r.get("result").cloned()).unwrap_or_default();
    if kill_a {
        world.cluster.set_up(Replica::A, false);
        world.trace.push(world.now(), Actor::ReplicaA, Actor::ReplicaA, Kind::Fault, "replica A dies");
    }
    // While the person thinks, count what the replicas hold for this call.
    let held = world.cluster.held_calls();
    let requests = result.get("inputRequests").and_then(Value::as_object).cloned().unwrap_or_default();
    let answers = world.answer_all(&requests).unwrap_or_default();
    let retry = world.client.retry(&first, answers, result.get("requestState").and_then(Value::as_str));
    world.cluster.set_balancing(Balancing::Pin(Replica::B));
    let delivery = world.send(&retry, None);
    world.cluster.set_up(Replica::A, true);
    world.cluster.set_balancing(Balancing::RoundRobin);
    let outcome = match delivery.response {
        Some(r) if r.get("result").is_some() => Outcome::Complete(r),
        Some(r) => Outcome::Error(r),
        None => Outcome::NoResponse,
    };
    let ended = match outcome {
        Outcome::Complete(_) => "completed".to_owned(),
        Outcome::Error(e) => format!("error {}", e.pointer("/error/code").unwrap_or(&Value::Null)),
        _ => "no response".to_owned(),
    };
    let ended = if ended == "completed" && kill_a { "finished".to_owned() } else { ended };
    (ended, held)
}

/// The earlier-era call on replica A. Returns the calls parked while the person thought,
/// and how it ended.
fn legacy(world: &mut World, twist: Twist) -> (usize, String) {
    let lane_a = Replica::A.actor();
    let Some(tool) = tools::ToolSet::Lab.tool(TOOL) else {
        return (0, "no such tool".into());
    };
    let args = Map::from_iter([("amount".to_owned(), Value::from(250))]);
    let call_id = world.client.next_id();
    let call = json!({"jsonrpc": "2.0", "id": call_id, "method": "tools/call", "params": {"name": TOOL, "arguments": args.clone()}});
    world.trace.wire_earlier_era(
        world.now(),
        Actor::Client,
        Actor::Balancer,
        Kind::Request,
        "tools/call (earlier era, connection stays open)",
        jsonrpc::line(&call),
    );
    world.trace.push(world.now(), Actor::Balancer, lane_a, Kind::Route, "routes to replica A");

    // The body runs and asks; the earlier-era server sends the question as its own request
    // and parks the call until the answer arrives.
    let none = Map::new();
    let mut round = Round::new(None, &none, Capabilities::ALL);
    let mut scratch = crate::ledger::Ledger::default();
    let mut fx = Effects { ledger: &mut scratch, replica: "replica A", now_ms: world.now(), tool: TOOL };
    let _ = (tool.run)(&args, &mut round, &mut fx);
    let Some((key, question)) = round.asks.iter().next().map(|(k, v)| (k.clone(), v.clone())) else {
        return (0, "did not ask".into());
    };
    let mut parked: Vec<i64> = vec![call_id];
    let ask =
        json!({"jsonrpc": "2.0", "id": 0, "method": question["method"].clone(), "params": question["params"].clone()});
    world.trace.wire_earlier_era(
        world.now(),
        lane_a,
        Actor::Client,
        Kind::Request,
        "server asks mid-call; its thread waits",
        jsonrpc::line(&ask),
    );
    let parked_while_waiting = parked.len();
    world.trace.push(world.now(), lane_a, lane_a, Kind::Note, format!("{} call parked on replica A", parked.len()));

    let answers = world.answer_all(&Map::from_iter([(key.clone(), question.clone())])).unwrap_or_default();
    if twist == Twist::InstanceDies {
        parked.clear();
        world.trace.push(world.now(), lane_a, lane_a, Kind::Fault, "replica A dies: its parked call dies with it");
    }
    let answer = json!({"jsonrpc": "2.0", "id": 0, "result": answers.get(&key).cloned().unwrap_or_default()});
    world.trace.wire_earlier_era(
        world.now(),
        Actor::Client,
        Actor::Balancer,
        Kind::Response,
        "the answer, as a new HTTP request",
        jsonrpc::line(&answer),
    );
    let lands_on = if twist == Twist::None { Replica::A } else { Replica::B };
    world.trace.push(
        world.now(),
        Actor::Balancer,
        lands_on.actor(),
        Kind::Route,
        format!("routes to {}", lands_on.name()),
    );

    match twist {
        Twist::None => {
            let mut round = Round::new(None, &answers, Capabilities::ALL);
            let before = world.cluster.ledger().len();
            let now = world.now();
            let mut fx = Effects { ledger: world.cluster.ledger_mut(), replica: "replica A", now_ms: now, tool: TOOL };
            let result = match (tool.run)(&args, &mut round, &mut fx) {
                Step::Done(result) => result,
                _ => json!({"content": [{"type": "text", "text": "still waiting"}]}),
            };
            let effects: Vec<Entry> = world.cluster.ledger().entries()[before..].to_vec();
            for entry in effects {
                world.trace.effect(now, lane_a, entry);
            }
            let line = jsonrpc::result(call_id.into(), result);
            world.trace.wire_earlier_era(
                world.now(),
                lane_a,
                Actor::Client,
                Kind::Response,
                "the parked call resumes and completes",
                jsonrpc::line(&line),
            );
            (parked_while_waiting, "completed".into())
        }
        Twist::AnswerElsewhere => {
            dropped_on_b(world);
            world.cluster.advance(LEGACY_TIMEOUT_MS);
            let line = jsonrpc::error(call_id.into(), -32001, "Request timed out", None);
            world.trace.wire_earlier_era(
                world.now(),
                lane_a,
                Actor::Client,
                Kind::Response,
                "replica A gives up waiting",
                jsonrpc::line(&line),
            );
            (parked_while_waiting, "timed out".into())
        }
        Twist::InstanceDies => {
            dropped_on_b(world);
            world.trace.push(
                world.now(),
                Actor::Client,
                Actor::Client,
                Kind::Fault,
                "the open connection to replica A closed: the call is lost",
            );
            (parked_while_waiting, "call lost".into())
        }
    }
}

/// The answer reached replica B, which has no parked call for it.
fn dropped_on_b(world: &mut World) {
    let now = world.now();
    world.trace.push(
        now,
        Actor::ReplicaB,
        Actor::ReplicaB,
        Kind::Fault,
        "replica B has no call waiting for answer 0: dropped",
    );
}
