//! `mrtr probe`: the lab's attacks on any MCP server's `requestState`, from the terminal.
//!
//! ```text
//! mrtr probe http://127.0.0.1:3077/mcp                      # lists the tools, calls none
//! mrtr probe http://127.0.0.1:3077/mcp --call 'tools/call deploy {"env":"staging"}' \
//!     --token bob-token --second-token alice-token
//! mrtr probe URL --call-any --format sarif > probe.sarif    # any tool that asks, never a destructive one
//! mrtr probe --call 'tools/call deploy {}' -- mrtr serve     # a stdio server it starts
//! mrtr probe URL1 URL2 --call …                             # replicas, taking turns
//! ```
//!
//! The honest flow runs first: if it does not complete, every attack is inconclusive and the
//! run exits 2. Each attack then runs on flows of its own ([`mrtr_probe::Attack::start`]).
//! Exit codes: 0 no finding at the failing grade; 1 a finding; 2 inconclusive; 3 usage or
//! unreachable.

mod discover;
mod formats;
mod text;

use crate::call::transport::{read_cacert, Transport};
use crate::fail_on::FailOn;
use clap::{Args, ValueEnum};
use mrtr_probe::{exit, Attack, Battery, Flow, Listed, Report, Setup, Step, Tokens, Verdict};
use std::collections::BTreeSet;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

/// Tries the lab's attacks on a server's tickets and reports what got through.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The server's URL; several (replicas of one server) take turns.
    #[arg(value_name = "URL")]
    urls: Vec<String>,
    /// The call that starts a flow: METHOD NAME ARGUMENTS, e.g. 'tools/call deploy {"env":"staging"}'.
    /// Without it (and without --call-any) the probe lists the tools and calls none.
    #[arg(long)]
    call: Option<String>,
    /// Call the listed tools one by one, with arguments made from their schemas, until one asks
    /// for input. Tools annotated destructiveHint: true are never called.
    #[arg(long, conflicts_with = "call")]
    call_any: bool,
    /// The bearer token the probe's flows are started with.
    #[arg(long)]
    token: Option<String>,
    /// Another principal's token, for presenting the first's ticket.
    #[arg(long)]
    second_token: Option<String>,
    /// A header every request carries, NAME:VALUE (repeatable).
    #[arg(long = "header", value_name = "NAME:VALUE", value_parser = header)]
    headers: Vec<(String, String)>,
    /// A certificate (PEM) to trust for https:// URLs besides the public roots: a server's
    /// self-signed certificate or its private authority's.
    #[arg(long, value_name = "FILE")]
    cacert: Option<std::path::PathBuf>,
    /// Wait out a ticket's lifetime and send it too late (read from the ticket, or --ttl);
    /// without it, that attack is not tested.
    #[arg(long)]
    wait_expiry: bool,
    /// The tickets' lifetime, overriding what a ticket says: 120s, 2m, 500ms.
    #[arg(long, value_parser = crate::serve::duration_ms)]
    ttl: Option<u64>,
    /// How many retries of one ticket the race sends at once.
    #[arg(long, default_value_t = mrtr_probe::DEFAULT_RACE, value_parser = race)]
    race: usize,
    /// The report's format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The same as --format json.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// The weakest grade of finding that fails the run (exit 1).
    #[arg(long, value_enum, default_value_t = FailOn::Must)]
    fail_on: FailOn,
    /// Run only these attacks (comma-separated ids; the honest flow always runs).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Leave these attacks out (comma-separated ids).
    #[arg(long, value_delimiter = ',')]
    skip: Vec<String>,
    /// A JSON report of an earlier run: findings it already has do not fail this one.
    #[arg(long, value_name = "FILE")]
    baseline: Option<std::path::PathBuf>,
    /// A stdio server to start and probe, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// A report's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people: the summary first, then each attack.
    Text,
    /// Versioned JSON (docs/PROBE.md): the summary and every exchange in full.
    Json,
    /// SARIF 2.1.0: a rule per attack, a result per finding.
    Sarif,
    /// JUnit XML: a testcase per attack.
    Junit,
}

fn race(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (2..=256).contains(&n) => Ok(n),
        _ => Err("the race sends 2 to 256 retries".into()),
    }
}

fn header(text: &str) -> Result<(String, String), String> {
    let (name, value) = text.split_once(':').ok_or("a header is NAME:VALUE")?;
    let name = name.trim();
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        return Err(format!("'{name}' is not a header name"));
    }
    Ok((name.to_owned(), value.trim().to_owned()))
}

/// Everything a report shows: where the server is, the call that starts a flow, and the
/// battery's report.
#[derive(Debug)]
pub struct Outcome {
    /// Where the server is.
    pub target: String,
    /// The call that starts a flow.
    pub flow: Flow,
    /// The battery's report.
    pub report: Report,
}

/// Says `why` and exits 3: a usage error or a server out of reach.
fn usage(why: String) -> ExitCode {
    eprintln!("mrtr probe: {why}");
    ExitCode::from(exit::USAGE)
}

/// HTTP to `urls` with the run's headers and `--cacert`.
fn http(args: &ProbeArgs, urls: Vec<String>) -> Result<Transport, String> {
    let ca = read_cacert(args.cacert.as_deref())?;
    Transport::http_with(urls, None, args.headers.clone(), ca.as_deref())
}

/// Runs the battery and prints the report.
pub async fn run(args: ProbeArgs) -> Result<ExitCode, String> {
    let mut transport = match (args.urls.is_empty(), args.command.is_empty()) {
        (false, true) => match http(&args, args.urls.clone()) {
            Ok(transport) => transport,
            Err(why) => return Ok(usage(why)),
        },
        (true, false) => match Transport::stdio(&args.command) {
            Ok(transport) => transport,
            Err(why) => return Ok(usage(why)),
        },
        _ => return Ok(usage("give a server: a URL, or -- COMMAND for a stdio server".into())),
    };
    let code = probe(&mut transport, &args).await;
    transport.close().await;
    Ok(code)
}

async fn probe(transport: &mut Transport, args: &ProbeArgs) -> ExitCode {
    let chosen = match Battery::chosen(&args.only, &args.skip) {
        Ok(chosen) => chosen,
        Err(why) => return usage(why),
    };
    let baseline = match &args.baseline {
        Some(path) => match formats::baseline(path) {
            Ok(ids) => ids,
            Err(why) => return usage(why),
        },
        None => BTreeSet::new(),
    };
    let token = args.token.as_deref();
    let legacy = discover::revision(transport, token).await;
    let listed = match discover::list(transport, token).await {
        Ok(listed) => listed,
        Err(why) => return usage(why),
    };
    let flow = match choose_flow(transport, args, &listed).await {
        Ok(flow) => flow,
        Err(code) => return code,
    };
    let target =
        if args.command.is_empty() { args.urls.join(" ") } else { format!("stdio: {}", args.command.join(" ")) };
    let mut setup = Setup::new(flow.clone(), Tokens { first: args.token.clone(), second: args.second_token.clone() });
    setup.bearer_auth = transport.carries_tokens();
    setup.wait_expiry = args.wait_expiry;
    setup.ttl_ms = args.ttl;
    setup.race = args.race;
    setup.targets = listed.targets(&flow);
    let mut battery = Battery::new(setup.clone(), chosen);
    let quiet = args.format != Format::Text && !std::io::stderr().is_terminal();
    while let Some(step) = battery.next_attack(crate::clock::now_ms(), transport.unused_id()) {
        play(transport, &mut battery, step, quiet).await;
    }
    let honest = battery.rows().first().map(|r| r.verdict.clone());
    let honest_failed = honest.as_ref().is_some_and(|v| *v != Verdict::Completed);
    if honest_failed && transport.replicas() > 1 {
        if let Some(why) = replicas_alone(args, &setup).await {
            battery.explain_honest(why);
        }
    }
    if let (true, Some(legacy)) = (honest_failed, &legacy) {
        let said = match honest {
            Some(Verdict::Inconclusive { why } | Verdict::NotTested { why }) => format!(" (the call: {why})"),
            _ => String::new(),
        };
        battery.explain_honest(format!(
            "the server does not speak {} ({legacy}): multi round-trip requests are that revision's{said}",
            "2026-07-28"
        ));
    }
    let report = battery.report(args.fail_on.least(), |a: &Attack| baseline.contains(a.id()));
    let code = report.exit;
    let outcome = Outcome { target, flow, report };
    let format = if args.json { Format::Json } else { args.format };
    let printed = match format {
        Format::Text => text::report(&outcome),
        Format::Json => formats::json(&outcome),
        Format::Sarif => formats::sarif(&outcome),
        Format::Junit => formats::junit(&outcome),
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{printed}");
    ExitCode::from(code)
}

/// The call that starts a flow: `--call`, `--call-any`, or the person's pick at a terminal.
/// Otherwise the list of tools and the `--call` syntax, and exit 3: nothing is called unasked.
async fn choose_flow(transport: &mut Transport, args: &ProbeArgs, listed: &Listed) -> Result<Flow, ExitCode> {
    if let Some(call) = &args.call {
        return Flow::parse(call).map_err(|e| usage(format!("--call: {e}")));
    }
    if args.call_any {
        return discover::first_flow_that_asks(transport, listed, args.token.as_deref()).await.map_err(usage);
    }
    let mut menu = String::from("the server's tools (none was called):\n");
    for (n, tool) in listed.tools.iter().enumerate() {
        let flow = tool.call();
        let arguments = flow.params.get("arguments").cloned().unwrap_or_default();
        let hint = if tool.destructive { "  (destructive)" } else { "" };
        menu.push_str(&format!("  {:>2}. tools/call {} {arguments}{hint}\n", n + 1, tool.name));
    }
    if listed.tools.is_empty() {
        menu.push_str("  (none listed)\n");
    }
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !interactive || listed.tools.is_empty() {
        return Err(usage(format!(
            "{menu}give the call that asks for input: --call 'tools/call NAME {{\"arg\":\"value\"}}', or --call-any \
             to try the tools that are not destructive"
        )));
    }
    eprint!("{menu}which one starts a flow that asks for input? (a number, Enter for none) ");
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
    match line.trim().parse::<usize>().ok().and_then(|n| listed.tools.get(n.wrapping_sub(1))) {
        Some(tool) => Ok(tool.call()),
        None => Err(usage("nothing chosen: no tool was called".into())),
    }
}

/// Drives the attack the battery started, from `step`, through `transport`, until it ends.
/// A wait (a ticket's lifetime) is shown as it passes unless `quiet`.
async fn play(transport: &mut Transport, battery: &mut Battery, mut step: Step, quiet: bool) {
    loop {
        step = match step {
            Step::Send(send) => {
                wait(send.wait_ms, quiet).await;
                let reply = transport.exchange(&send.message, send.bearer.as_deref()).await;
                battery.next(reply)
            }
            Step::Race(sends) => {
                let lines: Vec<_> = sends.into_iter().map(|s| (s.message, s.bearer)).collect();
                let replies = transport.race(&lines).await;
                battery.next_race(replies)
            }
            Step::Done(_) => return,
        };
    }
}

/// Waits `ms`, saying every 10 s how long is left (a ticket's lifetime can be minutes).
async fn wait(ms: u64, quiet: bool) {
    let mut left = ms;
    while left > 0 {
        if !quiet && left >= 2_000 {
            eprintln!("mrtr probe: waiting out the ticket's lifetime: {} s left", left.div_ceil(1000));
        }
        let step = left.min(10_000);
        tokio::time::sleep(Duration::from_millis(step)).await;
        left -= step;
    }
}

/// When the honest flow failed across replicas: does it complete on each alone? Then the
/// replicas do not share a key or a record.
async fn replicas_alone(args: &ProbeArgs, setup: &Setup) -> Option<String> {
    for url in &args.urls {
        let mut alone = http(args, vec![url.clone()]).ok()?;
        let mut honest = Battery::new(setup.clone(), |_| false);
        while let Some(step) = honest.next_attack(crate::clock::now_ms(), alone.unused_id()) {
            play(&mut alone, &mut honest, step, true).await;
        }
        alone.close().await;
        if honest.rows().first().map(|r| &r.verdict) != Some(&Verdict::Completed) {
            return None;
        }
    }
    Some(format!(
        "the flow completes on each of the {} URLs alone but not across them: the replicas do not share a key or a record",
        args.urls.len()
    ))
}
