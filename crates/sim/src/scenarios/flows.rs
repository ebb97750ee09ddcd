//! Scenarios that run honest calls and count what the course counted.

use super::{world, Answered, Options, Run, Verdict};
use crate::cluster::{Balancing, ClusterConfig, Replica, StoreMode};
use crate::person::Reply;
use crate::protocol::Capabilities;
use crate::server::StateMode;
use crate::world::{CallReport, Outcome, World};
use serde_json::json;
use serde_json::{Map, Value};

fn outcome_figures(figures: &mut Map<String, Value>, prefix: &str, report: &CallReport) {
    let key = |name: &str| {
        if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        }
    };
    figures.insert(key("requests"), report.requests.into());
    figures.insert(key("prompts"), report.prompts.into());
    let outcome = match &report.outcome {
        Outcome::Complete(_) => "complete".to_owned(),
        Outcome::Error(e) => format!("error {}", e.pointer("/error/code").unwrap_or(&Value::Null)),
        Outcome::Abandoned(_) => "abandoned".to_owned(),
        Outcome::NoResponse => "no response".to_owned(),
    };
    figures.insert(key("outcome"), outcome.into());
    if let Some(text) = report.outcome.text() {
        figures.insert(key("message"), text.into());
    }
}

/// submit_expense with the person's reply: 250 asks, 50 does not.
pub fn expense(options: &Options) -> Run {
    let mut world = world(options, ClusterConfig::default());
    let amount = options.amount.unwrap_or(250.0);
    let report = world.call("tools/call", json!({"name": "submit_expense", "arguments": {"amount": amount}}));
    let mut figures = Map::new();
    outcome_figures(&mut figures, "", &report);
    figures.insert("ledgerEntries".into(), world.cluster.ledger().len().into());
    if let Outcome::Complete(result) = &report.outcome {
        if let Some(structured) = result.get("structuredContent") {
            figures.insert("structured".into(), structured.clone());
        }
    }
    Run::new("expense", world, Vec::new(), figures)
}

/// charge_bad then charge_good, each with the person's reply.
pub fn charge(options: &Options) -> Run {
    let mut world = world(options, ClusterConfig::default());
    let amount = options.amount.unwrap_or(40.0);
    let mut figures = Map::new();
    for tool in ["charge_bad", "charge_good"] {
        let before = world.cluster.ledger().len();
        let report = world.call("tools/call", json!({"name": tool, "arguments": {"amount": amount}}));
        outcome_figures(&mut figures, tool, &report);
        figures.insert(format!("{tool}.effects"), (world.cluster.ledger().len() - before).into());
    }
    Run::new("charge", world, Vec::new(), figures)
}

/// A tool that wants 50 rounds against a client that allows 3.
pub fn greedy(options: &Options) -> Run {
    let mut world = world(options, ClusterConfig::default());
    let report = world.call("tools/call", json!({"name": "greedy", "arguments": {"rounds": 50}}));
    let mut figures = Map::new();
    outcome_figures(&mut figures, "", &report);
    figures.insert("wantedRounds".into(), 50.into());
    figures.insert("clientRoundLimit".into(), world.client.max_rounds.into());
    Run::new("greedy", world, Vec::new(), figures)
}

/// The discovery probe, prompts/get and resources/read asking for input, tools/list refusing to.
pub fn prompt_and_resource(options: &Options) -> Run {
    let mut world = world(options, ClusterConfig::default());
    let mut figures = Map::new();
    let discover = world.call("server/discover", json!({}));
    outcome_figures(&mut figures, "discover", &discover);
    let prompt = world.call("prompts/get", json!({"name": "release_notes", "arguments": {"version": "2.0"}}));
    outcome_figures(&mut figures, "prompt", &prompt);
    let resource = world.call("resources/read", json!({"uri": crate::tools::resources::SALARIES}));
    outcome_figures(&mut figures, "resource", &resource);
    let list = world.call("tools/list", json!({}));
    let tools = match &list.outcome {
        Outcome::Complete(result) => result.get("tools").and_then(Value::as_array).map_or(0, Vec::len),
        _ => 0,
    };
    figures.insert("toolsListed".into(), tools.into());
    // A client that tries to make tools/list a multi-round request is refused.
    let mut forced = world.client.request("tools/list", json!({}));
    forced["params"]["requestState"] = "v1.e30.AAAA".into();
    let delivery = world.send(&forced, None);
    let verdict = Verdict::of(
        "tools-list-with-ticket",
        "tools/list with a requestState",
        world.now(),
        world.client.bearer.clone(),
        delivery,
    );
    figures.insert("toolsListWithTicket".into(), verdict.answered.word().into());
    Run::new("prompt-and-resource", world, vec![verdict], figures)
}

/// The same tools asked by clients that declared different capabilities.
pub fn capabilities(options: &Options) -> Run {
    let mut world = world(options, ClusterConfig::default());
    let mut figures = Map::new();
    let clients = [
        ("full", Capabilities::ALL),
        ("sampling-only", Capabilities { sampling: true, ..Capabilities::default() }),
        ("nothing", Capabilities::default()),
    ];
    let mut verdicts = Vec::new();
    for (name, capabilities) in clients {
        world.client.capabilities = capabilities;
        for (tool, args) in [("name_release", json!({"version": "2.0"})), ("deploy", json!({"env": "staging"}))] {
            let request = world.client.request("tools/call", json!({"name": tool, "arguments": args}));
            let delivery = world.send(&request, None);
            let result = delivery.response.as_ref().and_then(|r| r.get("result"));
            let asked: Vec<String> = result
                .and_then(|r| r.get("inputRequests"))
                .and_then(Value::as_object)
                .map(|m| m.values().filter_map(|r| r.get("method")?.as_str().map(str::to_owned)).collect())
                .unwrap_or_default();
            let answered = Answered::of(&delivery);
            let seen = if asked.is_empty() { answered.word() } else { asked.join(",") };
            figures.insert(format!("{name}.{tool}"), seen.into());
            let title = format!("{tool} from a client declaring {name}");
            verdicts.push(Verdict::of(
                format!("{name}:{tool}"),
                title,
                world.now(),
                world.client.bearer.clone(),
                delivery,
            ));
        }
    }
    Run::new("capabilities", world, verdicts, figures)
}

/// The ticket as a key into a store: per replica, then shared.
pub fn server_store(options: &Options) -> Run {
    let mut figures = Map::new();
    let mut last = None;
    for store in [StoreMode::PerReplica, StoreMode::Shared] {
        let mut defaults = ClusterConfig { store, balancing: Balancing::RoundRobin, ..ClusterConfig::default() };
        defaults.server.state = StateMode::Store;
        let mut world = if let Some(previous) = last.take() {
            carry_on(previous, defaults, options)
        } else {
            world(options, defaults)
        };
        let report = world.call("tools/call", json!({"name": "deploy", "arguments": {"env": "staging"}}));
        let name = match store {
            StoreMode::PerReplica => "perReplica",
            StoreMode::Shared => "shared",
        };
        outcome_figures(&mut figures, name, &report);
        figures.insert(format!("{name}.ledgerEntries"), world.cluster.ledger().len().into());
        last = Some(world);
    }
    let world = last.unwrap_or_else(|| World::new(ClusterConfig::default()));
    Run::new("server-store", world, Vec::new(), figures)
}

/// A new cluster set up differently, keeping the trace so far (one story, two set-ups).
fn carry_on(previous: World, config: ClusterConfig, options: &Options) -> World {
    let mut next = world(options, config);
    next.trace = previous.trace;
    next.cluster.jump_to(previous.cluster.now_ms());
    next
}

/// Garbage and near-misses, each answered with a clear error.
pub fn protocol_errors(options: &Options) -> Run {
    let mut world = world(options, ClusterConfig { balancing: Balancing::Pin(Replica::A), ..ClusterConfig::default() });
    world.person.reply = Reply::Accept;
    let mut verdicts = Vec::new();
    let meta = world.client.meta();
    let mut no_version = meta.clone();
    no_version.as_object_mut().map(|m| m.remove(crate::protocol::META_VERSION));
    let mut old_version = meta.clone();
    old_version[crate::protocol::META_VERSION] = "2099-01-01".into();
    let huge = "A".repeat(1 << 20);
    let cases: Vec<(&str, String)> = vec![
        ("not JSON", "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ".to_owned()),
        ("not JSON-RPC", json!({"hello": "world"}).to_string()),
        (
            "unknown method",
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/destroy", "params": {"_meta": meta.clone()}}).to_string(),
        ),
        (
            "no protocol version",
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": no_version}}).to_string(),
        ),
        (
            "unsupported protocol version",
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"_meta": old_version}}).to_string(),
        ),
        (
            "requestState that is not a string",
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": {"name": "deploy", "arguments": {"env": "prod"}, "requestState": 12345, "_meta": meta.clone()}})
            .to_string(),
        ),
        (
            "a 1 MB paste as requestState",
            json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
            "params": {"name": "deploy", "arguments": {"env": "prod"}, "requestState": huge, "_meta": meta.clone()}})
            .to_string(),
        ),
        (
            "unknown tool",
            json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "rm_rf", "_meta": meta.clone()}})
                .to_string(),
        ),
        (
            "wrong argument type",
            json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
            "params": {"name": "buy_ticket", "arguments": {"quantity": "two"}, "_meta": meta.clone()}})
            .to_string(),
        ),
    ];
    let mut figures = Map::new();
    for (label, line) in cases {
        let delivery = world.send_line(&line, None);
        // The error code, and for a refused ticket the check that refused it.
        let figure = match Answered::of(&delivery) {
            Answered::Refused { code, check: Some(check), .. } => format!("{code} ({check} check)"),
            answered => answered.word(),
        };
        figures.insert(label.into(), figure.into());
        verdicts.push(Verdict::of(label, label, world.now(), world.client.bearer.clone(), delivery));
    }
    Run::new("protocol-errors", world, verdicts, figures)
}
