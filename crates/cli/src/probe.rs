//! `mrtr probe`: the lab's attacks on any MCP server's `requestState`, from the terminal.
//!
//! ```text
//! mrtr probe http://127.0.0.1:3077/mcp --token bob-token --second-token alice-token
//! mrtr probe http://127.0.0.1:3077/mcp --call 'tools/call deploy {"env":"staging"}' --json
//! mrtr probe -- mrtr serve --signing off          # a stdio server it starts
//! mrtr probe http://127.0.0.1:3001/mcp http://127.0.0.1:3002/mcp   # replicas, taking turns
//! mrtr probe http://127.0.0.1:3077/mcp --wait-expiry              # and wait out a ticket's life
//! ```
//!
//! Each attack (`mrtr_probe::BATTERY`, the lab's moves) runs on a fresh flow: the call that
//! asks, then the attack's lines. The report says, for each, whether the server refused it,
//! let it through (a finding, graded MUST, SHOULD or note by the MRTR page's words), or could
//! not be tested. Any MUST finding, or an honest retry that does not complete, exits 1.

use crate::call::transport::Transport;
use clap::Args;
use mrtr_probe::{Exchange, Flow, Setup, Step, Tokens, Verdict, BATTERY};
use serde_json::{json, Value};
use std::process::ExitCode;

/// Tries the lab's attacks on a server's tickets and reports what got through.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The server's URL; several (replicas of one server) take turns.
    #[arg(value_name = "URL")]
    urls: Vec<String>,
    /// The call that starts a flow: METHOD NAME ARGUMENTS, e.g. 'tools/call deploy {"env":"staging"}'.
    /// Without it, the first tool that asks for input, found by calling each.
    #[arg(long)]
    call: Option<String>,
    /// The bearer token the probe's flows are started with.
    #[arg(long)]
    token: Option<String>,
    /// Another principal's token, for presenting the first's ticket.
    #[arg(long)]
    second_token: Option<String>,
    /// Wait out a ticket's lifetime and send it too late (read from a readable ticket, or
    /// --ttl); without it, that attack is not tested.
    #[arg(long)]
    wait_expiry: bool,
    /// The tickets' lifetime, when they do not say it: 120s, 2m, 500ms.
    #[arg(long, value_parser = crate::serve::duration_ms)]
    ttl: Option<u64>,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    /// A stdio server to start and probe, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// Arguments that fit a tool's input schema: each required field filled as the lab's person
/// fills a form.
fn arguments_for(schema: &Value) -> Value {
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let properties = schema.get("properties").and_then(Value::as_object);
    let arguments: serde_json::Map<String, Value> = properties
        .into_iter()
        .flatten()
        .filter(|(name, _)| required.contains(&name.as_str()))
        .map(|(name, field)| (name.clone(), mrtr_sim::person::fill(field, true)))
        .collect();
    arguments.into()
}

/// The server's tools, each as a call with arguments that fit its input schema.
async fn tool_calls(transport: &mut Transport, token: Option<&str>) -> Result<Vec<Value>, String> {
    let mut client = mrtr_sim::client::Client::new("", mrtr_sim::protocol::Capabilities::ALL);
    let listed = transport.send_as(&client.request("tools/list", json!({})), token).await?;
    let tools = listed.pointer("/result/tools").and_then(Value::as_array).cloned().unwrap_or_default();
    Ok(tools
        .iter()
        .filter_map(|tool| {
            let name = tool.get("name")?.as_str()?;
            Some(json!({"name": name, "arguments": arguments_for(tool.get("inputSchema").unwrap_or(&Value::Null))}))
        })
        .collect())
}

/// The first tool that answers `input_required`.
async fn find_flow(transport: &mut Transport, calls: &[Value], token: Option<&str>) -> Result<Flow, String> {
    let mut client = mrtr_sim::client::Client::new("", mrtr_sim::protocol::Capabilities::ALL);
    for params in calls {
        let flow = Flow { method: "tools/call".into(), params: params.clone() };
        let reply = transport.send_as(&client.request(&flow.method, flow.params.clone()), token).await?;
        if reply.pointer("/result/resultType").and_then(Value::as_str) == Some("input_required") {
            return Ok(flow);
        }
    }
    Err("no tool asked for input: give the call that does with --call".into())
}

/// One attack on a fresh flow, sent through `transport`: its verdict, and what was sent and
/// answered.
async fn attack(transport: &mut Transport, attack: &mrtr_probe::Attack, setup: &Setup) -> (Verdict, Vec<Exchange>) {
    let (mut run, mut step) = attack.start(setup);
    loop {
        match step {
            Step::Send(send) => {
                tokio::time::sleep(std::time::Duration::from_millis(send.wait_ms)).await;
                step = run.next(transport.send_as(&send.message, send.bearer.as_deref()).await);
            }
            Step::Done(verdict) => return (verdict, run.exchanges().to_vec()),
        }
    }
}

/// `value` with every string longer than a line cut short, for a report a person reads (a
/// 1 MB ticket is the point of one attack, not of its report).
fn clipped(value: &Value) -> Value {
    match value {
        Value::String(text) if text.len() > 200 => {
            Value::String(format!("{} ({} bytes)", mrtr_sim::text::clip(text.clone(), 200), text.len()))
        }
        Value::Array(items) => items.iter().map(clipped).collect(),
        Value::Object(members) => members.iter().map(|(k, v)| (k.clone(), clipped(v))).collect(),
        other => other.clone(),
    }
}

/// Runs the battery and prints the report; exits 1 on a MUST finding or a flow that does not
/// complete honestly.
pub async fn run(args: ProbeArgs) -> Result<ExitCode, String> {
    let mut transport = match (args.urls.is_empty(), args.command.is_empty()) {
        (false, true) => Transport::http(args.urls.clone(), None)?,
        (true, false) => Transport::stdio(&args.command)?,
        _ => return Err("give a server: a URL, or -- COMMAND for a stdio server".into()),
    };
    // Over stdio there is no bearer token: the server decides who speaks, so another
    // principal cannot be presented.
    let second = if args.command.is_empty() { args.second_token.clone() } else { None };
    let tokens = Tokens { first: args.token.clone(), second };
    // A server without tools/list still has its flow probed, given with --call.
    let calls = tool_calls(&mut transport, tokens.first.as_deref()).await.unwrap_or_default();
    let flow = match &args.call {
        Some(call) => Flow::parse(call).map_err(|e| format!("--call: {e}"))?,
        None => find_flow(&mut transport, &calls, tokens.first.as_deref()).await?,
    };
    // Another of its tools, to spend the ticket on.
    let other_tool = calls.into_iter().find(|call| call["name"] != flow.params["name"]);
    let wait_expiry = args.wait_expiry.then_some(args.ttl);
    let setup = Setup { flow, tokens, wait_expiry, other_tool };
    let mut results = Vec::new();
    let mut exchanges = Vec::new();
    for each in BATTERY {
        let (verdict, sent) = attack(&mut transport, each, &setup).await;
        results.push((each, verdict));
        exchanges.push(sent);
    }
    let flow = setup.flow;
    transport.close().await;
    let honest_completed = results.first().is_some_and(|(_, v)| *v == Verdict::Completed);
    if args.json {
        let rows: Vec<Value> = results
            .iter()
            .zip(&exchanges)
            .map(|((attack, verdict), sent)| {
                json!({"attack": attack.by.id(), "title": attack.by.title(), "result": verdict,
                    "exchanges": clipped(&serde_json::to_value(sent).unwrap_or_default())})
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"call": flow.params, "method": flow.method, "results": rows}))
                .unwrap_or_default()
        );
    } else {
        report(&flow, &results);
    }
    let must = results.iter().any(|(_, v)| v.breaks_a_must());
    Ok(if must || !honest_completed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn report(flow: &Flow, results: &[(&mrtr_probe::Attack, Verdict)]) {
    println!("probe: {} {}", flow.method, flow.params);
    let (mut passed, mut findings, mut musts, mut untested, mut unclear) = (0, 0, 0, 0, 0);
    for (attack, verdict) in results {
        let (mark, what) = match verdict {
            Verdict::Completed => ("✓", "completed: the flow works".to_owned()),
            Verdict::Passed { answered } => {
                passed += 1;
                ("✓", answered.clone())
            }
            Verdict::Finding { grade, spec, answered } => {
                findings += 1;
                musts += usize::from(*grade == mrtr_probe::Grade::Must);
                let grade = format!("{grade:?}").to_uppercase();
                ("✗", format!("{grade}: {answered}\n{:>24}“{spec}”", ""))
            }
            Verdict::NotTested { why } => {
                untested += 1;
                ("·", format!("not tested: {why}"))
            }
            Verdict::Inconclusive { why } => {
                unclear += 1;
                ("?", format!("inconclusive: {why}"))
            }
        };
        println!("  {mark} {:<18} {}", attack.by.id(), what);
    }
    println!(
        "probe: {passed} refused, {findings} got through ({musts} MUST), {untested} not tested, {unclear} inconclusive"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_cuts_long_strings_and_says_how_long_they_were() {
        let sent = json!({"params": {"requestState": "A".repeat(1_000_000), "name": "deploy"}});
        let cut = clipped(&sent);
        let state = cut["params"]["requestState"].as_str().expect("a string");
        assert!(state.len() < 300 && state.ends_with("… (1000000 bytes)"), "{state}");
        assert_eq!(cut["params"]["name"], "deploy");
    }

    #[test]
    fn arguments_fit_the_required_fields() {
        let schema = json!({"type": "object", "required": ["env", "n", "ok"], "properties": {
            "env": {"type": "string", "enum": ["staging", "prod"]}, "n": {"type": "integer", "minimum": 3},
            "ok": {"type": "boolean"}, "note": {"type": "string"}}});
        assert_eq!(arguments_for(&schema), json!({"env": "staging", "n": 3, "ok": true}));
    }
}
