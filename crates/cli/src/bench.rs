//! `mrtr bench`: full multi round-trip requests as fast as N clients can make them: the call,
//! its `input_required`, the retry with the answer and the ticket, the complete result. It
//! prints round trips per second and the latency of a whole round trip (p50, p99). Figures,
//! not a verdict: `scripts/bench-server.sh` runs it against several servers in one run.
//!
//! ```text
//! mrtr bench http://127.0.0.1:3077/mcp --clients 64 --seconds 20
//! mrtr bench --url http://127.0.0.1:3001/mcp --url http://127.0.0.1:3002/mcp   # replicas in turn
//! mrtr bench --instant                  # the generator's own ceiling: a server that answers at once
//! ```

use crate::call::transport::Transport;
use axum::routing::post;
use clap::Args;
use mrtr_sim::client::Client as HonestClient;
use mrtr_sim::person::{Person, Reply};
use mrtr_sim::protocol::Capabilities;
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Drives round trips and prints how many went through and how long each took.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The server's URL.
    #[arg(value_name = "URL")]
    target: Option<String>,
    /// A replica's URL; repeat it and each round trip's requests take turns.
    #[arg(long = "url", value_name = "URL")]
    urls: Vec<String>,
    /// Instead of a server: one in this process that answers at once (the generator's ceiling).
    #[arg(long)]
    instant: bool,
    /// How many clients, each one round trip at a time.
    #[arg(long, default_value_t = 64)]
    clients: usize,
    /// How long to run.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// The tool to call, and its arguments.
    #[arg(long, default_value = "deploy")]
    tool: String,
    /// Its arguments, as JSON.
    #[arg(long, default_value = r#"{"env":"staging"}"#)]
    arguments: String,
    /// The bearer token.
    #[arg(long, default_value = "bob-token")]
    token: String,
    /// A label for the printed line.
    #[arg(long, default_value = "server")]
    label: String,
}

/// One round trip: the call and its retry, as the lab's honest client and person make them.
/// `Err` says what went wrong.
async fn round_trip(transport: &mut Transport, honest: &mut HonestClient, params: &Value) -> Result<(), String> {
    let first = honest.request("tools/call", params.clone());
    let asked = transport.send(&first).await?;
    let result = &asked["result"];
    if result["resultType"] != "input_required" {
        return Err(format!("the call did not ask: {asked}"));
    }
    let person = Person { reply: Reply::Accept, think_ms: 0 };
    let answers: Map<String, Value> = result["inputRequests"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(key, request)| Some((key.clone(), person.answer(request)?)))
        .collect();
    let retry = honest.retry(&first, answers, result.get("requestState").and_then(Value::as_str));
    let done = transport.send(&retry).await?;
    match done["result"]["resultType"].as_str() {
        Some("input_required") => Err(format!("the retry was asked again: {done}")),
        _ if done.get("error").is_some() => Err(format!("the retry failed: {done}")),
        _ => Ok(()),
    }
}

/// A server that answers at once, without checking anything: `input_required` to a call
/// without a ticket, complete to one with it.
async fn instant_server() -> Result<String, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
    let url = format!("http://{}/mcp", listener.local_addr().map_err(|e| e.to_string())?);
    let app = axum::Router::new().route(
        "/mcp",
        post(|body: axum::body::Bytes| async move {
            let message: Value = serde_json::from_slice(&body).unwrap_or_default();
            let result = match message["params"].get("requestState") {
                None => json!({"resultType": "input_required", "requestState": "v1.instant.state",
                    "inputRequests": {"confirm": {"method": "elicitation/create", "params": {"mode": "form",
                        "message": "?", "requestedSchema": {"type": "object", "properties": {}}}}}}),
                Some(_) => json!({"resultType": "complete", "content": [{"type": "text", "text": "done"}]}),
            };
            axum::Json(json!({"jsonrpc": "2.0", "id": message["id"], "result": result}))
        }),
    );
    tokio::spawn(crate::http::serve_on(listener, app, std::future::pending()));
    Ok(url)
}

/// Runs the benchmark and prints one line of figures.
pub async fn run(args: BenchArgs) -> Result<(), String> {
    let mut urls = args.urls.clone();
    urls.extend(args.target.clone());
    if args.instant {
        urls = vec![instant_server().await?];
    }
    if urls.is_empty() {
        return Err("give a server: a URL, --url (repeat it for replicas), or --instant".into());
    }
    let arguments: Value = serde_json::from_str(&args.arguments).map_err(|e| format!("--arguments: {e}"))?;
    let params = Arc::new(json!({"name": args.tool, "arguments": arguments}));
    let until = Instant::now() + Duration::from_secs(args.seconds);
    let mut workers = Vec::new();
    for _ in 0..args.clients {
        // Each client with its own connection, taking turns over the replicas as mrtr call does.
        let mut transport = Transport::http(urls.clone(), Some(args.token.clone()))?;
        let mut honest = HonestClient::new(&args.token, Capabilities::ALL);
        let params = params.clone();
        workers.push(tokio::spawn(async move {
            let (mut latencies, mut errors, mut first_error) = (Vec::new(), 0usize, None);
            while Instant::now() < until {
                let started = Instant::now();
                match round_trip(&mut transport, &mut honest, &params).await {
                    Ok(()) => latencies.push(started.elapsed()),
                    Err(why) => {
                        errors += 1;
                        first_error.get_or_insert(why);
                    }
                }
            }
            (latencies, errors, first_error)
        }));
    }
    let started = Instant::now();
    let (mut latencies, mut errors, mut first_error) = (Vec::new(), 0, None);
    for worker in workers {
        let (mine, failed, why) = worker.await.map_err(|e| e.to_string())?;
        latencies.extend(mine);
        errors += failed;
        first_error = first_error.or(why);
    }
    let elapsed = started.elapsed().as_secs_f64().max(args.seconds as f64);
    latencies.sort_unstable();
    let at = |p: f64| latencies.get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)));
    let ms = |d: Option<&Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1_000.0);
    println!(
        "{:<28} {:>9.0} round trips/s   p50 {:>7.2} ms   p99 {:>7.2} ms   ({} round trips, {} failed, {} clients, {} s)",
        args.label,
        latencies.len() as f64 / elapsed,
        ms(at(0.50)),
        ms(at(0.99)),
        latencies.len(),
        errors,
        args.clients,
        args.seconds
    );
    if let Some(why) = first_error {
        println!("{:<28} first failure: {}", "", why.chars().take(300).collect::<String>());
    }
    Ok(())
}
