//! The class server's figures under its own students, not a verdict (scripts/bench-class.sh):
//!
//! - other students' claims, p50 and p99, while one seat opens 2,000 event streams and floods
//!   statements;
//! - 1,000 open pages (a seat and its event stream each) on one class server: how long until
//!   every one hears a settings change, and the server's memory;
//! - `mrtr serve` with twice its connection cap of clients at once: how many answered 200,
//!   503, and none unanswered.
//!
//! ```text
//! cargo run --release -p mrtr-class --example bench_class -- target/release/mrtr-class target/release/mrtr
//! ```

#[path = "../../cli/tests/common/crowd.rs"]
mod crowd;

use clap::Parser as _;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CODE: &str = "BENCH";
/// The situation that meets `charge-less`, as the lab's share link writes it.
const CHARGE_LESS: &str = "s=buy-ticket&m=edit-payload&p=unsigned";

/// A client whose connections come from `127.0.0.N`.
fn laptop(n: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)))
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap_or_else(|e| panic!("a client: {e}"))
}

/// A process stopped when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `program ARGS…` and reads its stdout (or stderr) until `found` returns a value.
fn start(program: &str, args: &[&str], from_stderr: bool, found: impl Fn(&str) -> Option<String>) -> (Running, String) {
    let mut command = Command::new(program);
    command.args(args).stdin(Stdio::null());
    if from_stderr {
        command.stdout(Stdio::null()).stderr(Stdio::piped());
    } else {
        command.stdout(Stdio::piped()).stderr(Stdio::null());
    }
    let mut child = command.spawn().unwrap_or_else(|e| panic!("{program}: {e}"));
    let reader: Box<dyn std::io::Read + Send> = if from_stderr {
        Box::new(child.stderr.take().unwrap_or_else(|| unreachable!("piped")))
    } else {
        Box::new(child.stdout.take().unwrap_or_else(|| unreachable!("piped")))
    };
    let mut lines = BufReader::new(reader).lines();
    let value = lines.by_ref().map_while(Result::ok).find_map(|line| found(&line)).unwrap_or_default();
    std::thread::spawn(move || lines.for_each(drop));
    (Running(child), value)
}

async fn post(client: &reqwest::Client, url: &str, secret: &str, body: Value) -> (u16, Value) {
    let mut request = client.post(url).header("content-type", "application/json").body(body.to_string());
    if !secret.is_empty() {
        request = request.bearer_auth(secret);
    }
    match request.send().await {
        Ok(answer) => {
            let status = answer.status().as_u16();
            (status, serde_json::from_str(&answer.text().await.unwrap_or_default()).unwrap_or(Value::Null))
        }
        Err(_) => (0, Value::Null),
    }
}

/// The `p`-th percentile of sorted `values`.
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted.get(((sorted.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// Starts a class server on a database and built lab of its own: the process, its URL, the
/// instructor's token.
fn class_server(program: &str, dir: &std::path::Path) -> (Running, String, String) {
    std::fs::create_dir_all(dir.join("dist")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("dist/embed.html"), "<!doctype html>").unwrap_or_else(|e| panic!("{e}"));
    let db = format!("sqlite://{}", dir.join("class.db").display());
    let dist = dir.join("dist").display().to_string();
    let args = ["serve", "--class", CODE, "--addr", "127.0.0.1:0", "--db", &db, "--dist", &dist];
    // `instructor: http://127.0.0.1:PORT/instructor#token=TOKEN`: the address and the token.
    let (process, found) = start(program, &args, false, |line| {
        line.strip_prefix("instructor: ")
            .and_then(|rest| rest.split_once("/instructor#token="))
            .map(|(url, token)| format!("{url} {token}"))
    });
    let (url, token) = found.split_once(' ').unwrap_or_default();
    (process, url.to_owned(), token.to_owned())
}

/// The binaries to measure.
#[derive(Debug, clap::Parser)]
struct Paths {
    /// `mrtr-class`, built for release.
    class_bin: String,
    /// `mrtr`, built for release.
    serve_bin: String,
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let Paths { class_bin, serve_bin } = Paths::parse();
    let (class_bin, serve_bin) = (class_bin.as_str(), serve_bin.as_str());
    mrtr::http::raise_file_limit(4_000);
    let dir = std::env::temp_dir().join(format!("mrtr-bench-class-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);

    // 1. mrtr serve, twice its connection cap at once.
    let (serve, url) = start(serve_bin, &["serve", "--http", "127.0.0.1:0", "--quiet"], true, |line| {
        line.split_once(" on ").map(|(_, url)| url.trim().to_owned())
    });
    let address = url.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})
    .to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAuthorization: Bearer bob-token\r\n\
         MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: {}\r\n\r\n{list}",
        list.len()
    );
    let clients = 2 * mrtr::http::MAX_CONNECTIONS;
    let heard = crowd::crowd(&address, clients, head.as_bytes()).await;
    let ok = heard.iter().filter(|h| **h == crowd::Heard::Status(200, false)).count();
    let busy = heard.iter().filter(|h| **h == crowd::Heard::Status(503, true)).count();
    println!(
        "figure: mrtr serve, {clients} clients at once (2x its cap of {}): {ok} answered 200, {busy} answered 503 \
         with Retry-After, {} unanswered",
        mrtr::http::MAX_CONNECTIONS,
        clients - ok - busy
    );
    drop(serve);

    // 2. Claims while one seat opens 2,000 streams and floods statements.
    let (class, url, _) = class_server(class_bin, &dir.join("attack"));
    let mallory = laptop(2);
    let (_, seat) = post(&mallory, &format!("{url}/api/join"), "", json!({"class": CODE, "name": "Mallory"})).await;
    let secret = seat["secret"].as_str().unwrap_or_default().to_owned();
    let attack = {
        let (url, secret, mallory) = (url.clone(), secret.clone(), mallory.clone());
        tokio::spawn(async move {
            let mut streams = Vec::new();
            let (mut kept, mut slowed) = (0, 0);
            let statement = json!({"verb": {"id": "http://adlnet.gov/expapi/verbs/attempted"},
                "object": {"id": format!("urn:mrtr-lab:class:{CODE}/scenarios/voucher/moves/send-twice")}});
            for i in 0..2_000 {
                if let Ok(stream) = mallory.get(format!("{url}/api/seat-live")).bearer_auth(&secret).send().await {
                    streams.push(stream);
                }
                if i % 2 == 0 {
                    match post(&mallory, &format!("{url}/api/statements"), &secret, statement.clone()).await.0 {
                        202 => kept += 1,
                        429 => slowed += 1,
                        _ => {}
                    }
                }
            }
            (streams.len(), kept, slowed)
        })
    };
    let mut latencies = Vec::new();
    let students = (0..30u8).map(|i| {
        let (url, client) = (url.clone(), laptop(10 + i));
        tokio::spawn(async move {
            let (_, seat) =
                post(&client, &format!("{url}/api/join"), "", json!({"class": CODE, "name": format!("S{i}")})).await;
            let secret = seat["secret"].as_str().unwrap_or_default().to_owned();
            let mut took = Vec::new();
            for _ in 0..10 {
                let started = Instant::now();
                let claim = json!({"challenge": "charge-less", "situation": CHARGE_LESS});
                let (status, _) = post(&client, &format!("{url}/api/claim"), &secret, claim).await;
                if status == 200 {
                    took.push(started.elapsed());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            took
        })
    });
    for student in students {
        latencies.extend(student.await.unwrap_or_default());
    }
    let (opened, kept, slowed) = attack.await.unwrap_or_default();
    latencies.sort();
    println!(
        "figure: other students' claims while one seat opened {opened} streams and sent statements ({kept} kept, {slowed} \
         slowed down): p50 {}, p99 {} ({} claims; goal p99 <= 250 ms)",
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.99)),
        latencies.len()
    );
    drop(class);

    // 3. A thousand open pages hear a settings change.
    let (class, url, token) = class_server(class_bin, &dir.join("pages"));
    let pid = class.0.id();
    let laptops: Vec<reqwest::Client> = (0..10).map(|i| laptop(100 + i)).collect();
    let mut secrets = Vec::new();
    for i in 0..1_000 {
        let body = json!({"class": CODE, "name": format!("Page {i}")});
        let (_, seat) = post(&laptops[i % 10], &format!("{url}/api/join"), "", body).await;
        secrets.push(seat["secret"].as_str().unwrap_or_default().to_owned());
    }
    let (told, open) =
        (tokio::sync::mpsc::unbounded_channel::<Duration>(), std::sync::Arc::new(tokio::sync::Barrier::new(1_001)));
    let (sender, mut heard) = told;
    let since = std::sync::Arc::new(std::sync::OnceLock::<Instant>::new());
    for (i, secret) in secrets.iter().enumerate() {
        let (client, url, secret) = (laptops[i % 10].clone(), url.clone(), secret.clone());
        let (sender, open, since) = (sender.clone(), open.clone(), since.clone());
        tokio::spawn(async move {
            let stream = client.get(format!("{url}/api/seat-live")).bearer_auth(&secret).send().await;
            open.wait().await;
            let Ok(mut stream) = stream else { return };
            while let Ok(Some(chunk)) = stream.chunk().await {
                if String::from_utf8_lossy(&chunk).contains("\"settings\"") {
                    let _ = sender.send(since.get().map(Instant::elapsed).unwrap_or_default());
                    return;
                }
            }
        });
    }
    open.wait().await;
    let rss = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmRSS:"))
                .map(|l| l.split_whitespace().nth(1).unwrap_or("0").to_owned())
        })
        .and_then(|kb| kb.parse::<u64>().ok())
        .unwrap_or(0);
    let _ = since.set(Instant::now());
    let settings = post(&laptop(1), &format!("{url}/api/settings"), &token, json!({"settings": "hide=hints"})).await;
    let mut times = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while times.len() < 1_000 && Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_secs(1), heard.recv()).await {
            Ok(Some(took)) => times.push(took),
            _ => continue,
        }
    }
    times.sort();
    println!(
        "figure: 1,000 open pages on one class server ({} MB resident): {} of 1000 heard a settings change (HTTP {}), \
         p50 {}, p99 {}, last {}",
        rss / 1024,
        times.len(),
        settings.0,
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.99)),
        ms(times.last().copied().unwrap_or_default())
    );
    drop(class);
    let _ = std::fs::remove_dir_all(&dir);
}
