//! `mrtr serve`: the lab's server core for real, over stdio (the default) or Streamable HTTP.
//!
//! ```text
//! mrtr serve                                   # stdio: one JSON-RPC line in, one out
//! mrtr serve --http 127.0.0.1:3077             # POST http://127.0.0.1:3077/mcp
//! mrtr serve --http 127.0.0.1:3001 --replica A --key-file lab.key --record redis://127.0.0.1:6379
//! mrtr serve --http 127.0.0.1:3077 --tools conformance   # the official suite's fixtures
//! ```

use crate::http::{self, HttpOptions};
use crate::log::LogFormat;
use crate::record::{Record, RecordOptions, RecordSpec, RecordSync, RedisOptions};
use crate::service::Service;
use clap::Args;
use mrtr_sim::server::{Server, ServerConfig, StateMode};
use mrtr_sim::tools::ToolSet;
use mrtr_ticket::{Key, Mode, NonceSource};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// Serves the lab's tools (or the conformance suite's) with the lab's checks.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Serve Streamable HTTP at this address (POST /mcp) instead of stdio.
    #[arg(long, value_name = "ADDRESS")]
    http: Option<SocketAddr>,
    /// Ticket protection: signed, sealed, or off (the careless server: no signature at all).
    #[arg(long, default_value = "signed", value_parser = signing)]
    signing: Mode,
    /// The record of used tickets: memory, off, or a Redis every replica shares:
    /// redis://[USER:PASSWORD@]HOST:PORT[/DB], rediss://… (TLS), redis+sentinel://H1:P1,H2:P2/SERVICE
    /// (the primary Sentinel names), redis+cluster://H1:P1,H2:P2 (docs/OPERATIONS.md).
    #[arg(long, default_value = "memory")]
    record: RecordSpec,
    /// A CA certificate (PEM) to trust for a rediss:// record.
    #[arg(long, value_name = "PATH")]
    record_ca: Option<PathBuf>,
    /// Wait after each claim until this many Redis replicas have it (WAIT), and refuse the
    /// ticket (nothing done, try again) when fewer do: a failover cannot lose a claim.
    #[arg(long, value_name = "N")]
    record_sync: Option<u32>,
    /// How long --record-sync waits for the replicas.
    #[arg(long, default_value = "500ms", value_parser = duration_ms, requires = "record_sync")]
    record_sync_wait: u64,
    /// How long a ticket lives: 120s, 2m, 500ms.
    #[arg(long, default_value = "120s", value_parser = duration_ms)]
    ttl: u64,
    /// How far the replicas' clocks may disagree: a used ticket is remembered this much past
    /// its expiry, and after a record restarts empty, tickets issued up to this much after it
    /// are refused too.
    #[arg(long, default_value = "1s", value_parser = duration_ms)]
    clock_skew: u64,
    /// The ticket key, at least 32 bytes (every replica reads the same file). Without it, a
    /// fresh random key, never printed: tickets do not outlive the process.
    #[arg(long, value_name = "PATH")]
    key_file: Option<PathBuf>,
    /// This replica's name, in the log and the ledger.
    #[arg(long, default_value = "A")]
    replica: String,
    /// Which tools and prompts to serve: lab or conformance.
    #[arg(long, default_value = "lab")]
    tools: ToolSet,
    /// A bearer token and the principal it stands for (repeat it). Default: bob-token=bob
    /// and alice-token=alice, as in the lab.
    #[arg(long = "token", value_name = "TOKEN=PRINCIPAL", value_parser = token)]
    tokens: Vec<(String, String)>,
    /// On stdio, who the requests speak for.
    #[arg(long, default_value = "bob")]
    principal: String,
    /// A browser origin allowed to call the HTTP endpoint, beside loopback ones (repeat it).
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    origins: Vec<String>,
    /// A Host the HTTP endpoint answers to, beside localhost, 127.0.0.1 and [::1] (repeat it):
    /// the name clients reach it by on a network. Any other Host gets 403 (DNS rebinding).
    #[arg(long = "allow-host", value_name = "HOST")]
    hosts: Vec<String>,
    /// Serve HTTP requests that come without a bearer token, as the principal "anonymous"
    /// (without it they get 401).
    #[arg(long)]
    allow_anonymous: bool,
    /// Print nothing per request.
    #[arg(long)]
    quiet: bool,
    /// The log's format: text (for people) or json (one object a line).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log: LogFormat,
    /// The most requests carrying a ticket to a Redis record answered at once (HTTP); one more
    /// gets 503.
    #[arg(long, default_value_t = 256)]
    max_in_flight: usize,
    /// Worker threads answering HTTP requests (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// For testing probes only: leave this binding out of the tickets (principal, expiry or
    /// request) and keep every other check. Only in a build with the `careless` feature, which
    /// the test command enables and a release build does not.
    #[cfg(feature = "careless")]
    #[arg(long, value_name = "BINDING", hide = true)]
    unsafe_drop_binding: Option<mrtr_sim::server::Binding>,
}

fn signing(text: &str) -> Result<Mode, String> {
    match text {
        "signed" => Ok(Mode::Signed),
        "sealed" => Ok(Mode::Sealed),
        "off" | "unsigned" => Ok(Mode::Unsigned),
        other => Err(format!("signed, sealed or off, not '{other}'")),
    }
}

/// A duration as milliseconds: `120s`, `2m`, `500ms`, or a bare number of seconds.
pub fn duration_ms(text: &str) -> Result<u64, String> {
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, "s"),
    };
    let n: u64 = number.parse().map_err(|_| format!("a duration such as 120s, 2m or 500ms, not '{text}'"))?;
    let ms = match unit {
        "ms" => Some(n),
        "s" => n.checked_mul(1_000),
        "m" => n.checked_mul(60_000),
        "h" => n.checked_mul(3_600_000),
        _ => None,
    };
    ms.filter(|ms| *ms > 0).ok_or_else(|| format!("a duration above 0 such as 120s, 2m or 500ms, not '{text}'"))
}

fn token(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((token, principal)) if !token.is_empty() && !principal.is_empty() => {
            Ok((token.to_owned(), principal.to_owned()))
        }
        _ => Err(format!("TOKEN=PRINCIPAL, not '{text}'")),
    }
}

/// The key: read from a file, or drawn fresh.
fn key(path: Option<&PathBuf>) -> Result<Key, String> {
    let bytes = match path {
        Some(path) => std::fs::read(path).map_err(|e| format!("--key-file {}: {e}", path.display()))?,
        None => {
            let mut fresh = vec![0u8; 32];
            crate::service::OsRandom.fill(&mut fresh);
            fresh
        }
    };
    Key::new(&bytes).map_err(|e| format!("--key-file: {e}"))
}

/// The service these arguments describe.
pub fn service(args: &ServeArgs) -> Result<Service, String> {
    let config = ServerConfig {
        mode: args.signing,
        ttl_ms: args.ttl,
        state: StateMode::InTicket,
        tools: args.tools,
        #[cfg(feature = "careless")]
        unbound: args.unsafe_drop_binding,
    };
    let server = Server::new(key(args.key_file.as_ref())?, config);
    let tokens: HashMap<String, String> = if args.tokens.is_empty() {
        mrtr_sim::cluster::PRINCIPALS.map(|(t, p)| (t.to_owned(), p.to_owned())).into()
    } else {
        args.tokens.iter().cloned().collect()
    };
    Ok(Service::new(
        server,
        tokens,
        Record::open(&args.record, crate::clock::now_ms(), &record_options(args)?)?,
        args.replica.clone(),
    ))
}

/// The record's options these arguments give.
fn record_options(args: &ServeArgs) -> Result<RecordOptions, String> {
    let ca = match &args.record_ca {
        Some(path) => Some(std::fs::read(path).map_err(|e| format!("--record-ca {}: {e}", path.display()))?),
        None => None,
    };
    let sync = args.record_sync.map(|replicas| RecordSync { replicas, wait_ms: args.record_sync_wait });
    if sync.is_some() && !matches!(args.record, RecordSpec::Redis(_)) {
        return Err("--record-sync waits for Redis replicas: it needs a --record redis address".into());
    }
    Ok(RecordOptions { skew_ms: args.clock_skew, redis: RedisOptions { ca, sync } })
}

/// Serves until stdin closes (stdio), or SIGTERM or SIGINT (both): a graceful stop, the
/// requests in flight answered first and the log flushed.
pub async fn run(args: ServeArgs) -> Result<(), String> {
    let service = Arc::new(service(&args)?);
    #[cfg(feature = "careless")]
    if let Some(binding) = args.unsafe_drop_binding {
        eprintln!("mrtr serve: UNSAFE, for testing probes only: the tickets do not bind the {binding}");
    }
    let log = if args.quiet { None } else { crate::log::start(args.log) };
    // A panic is said in the log, which never blocks (the default hook writes to stderr, which
    // can), and the request is answered -32603 by its transport.
    std::panic::set_hook(Box::new(|info| tracing::error!("a request panicked: {info}")));
    let served = match args.http {
        None => {
            crate::stdio::serve(service, args.principal.clone(), http::stop_signal()).await.map_err(|e| e.to_string())
        }
        Some(addr) => {
            if !addr.ip().is_loopback() && args.tokens.is_empty() {
                return Err(format!(
                    "--http {addr} is reachable from other machines, and the demo tokens (bob-token, alice-token) \
                     would let anyone in: give the tokens with --token TOKEN=PRINCIPAL"
                ));
            }
            let options = HttpOptions {
                origins: args.origins.clone(),
                hosts: args.hosts.clone(),
                allow_anonymous: args.allow_anonymous,
                max_in_flight: args.max_in_flight,
            };
            let router = http::router(service, options);
            let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("--http {addr}: {e}"))?;
            let bound = listener.local_addr().map_err(|e| e.to_string())?;
            eprintln!("mrtr serve: replica {} on http://{bound}/mcp", args.replica);
            http::serve_on(listener, router, http::stop_signal()).await.map_err(|e| e.to_string())
        }
    };
    // Dropping the guard flushes what the log still holds.
    drop(log);
    served
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(duration_ms("120s"), Ok(120_000));
        assert_eq!(duration_ms("2m"), Ok(120_000));
        assert_eq!(duration_ms("500ms"), Ok(500));
        assert_eq!(duration_ms("90"), Ok(90_000));
        assert!(duration_ms("0s").is_err());
        assert!(duration_ms("soon").is_err());
        assert!(duration_ms("99999999999999999h").is_err());
    }
}
