//! `mrtr call`: the honest client, for real, against any MCP 2026-07-28 server.
//!
//! ```text
//! mrtr call http://127.0.0.1:3077/mcp deploy '{"env":"staging"}'
//! mrtr call --url http://127.0.0.1:3001/mcp --url http://127.0.0.1:3002/mcp deploy '{"env":"staging"}'
//! mrtr call --all http://127.0.0.1:3077/mcp          # list the tools and call each
//! mrtr call -- mrtr serve                             # a stdio server it starts itself
//! ```
//!
//! It asks `server/discover`, calls the tool, and answers every `input_required` round: the
//! person's answer asked in the terminal (or `--reply` for scripts), a sampling request with a
//! line of text, a roots request with the working directory. Each retry has a new id, the
//! answers under the keys asked, and the `requestState` echoed byte for byte, or none when
//! none came. A result without `resultType` is complete. Every line is printed with its
//! direction.

mod answer;
pub mod transport;

use answer::{Person, Reply};
use clap::Args;
use mrtr_sim::client::Client as HonestClient;
use mrtr_sim::protocol::Capabilities;
use serde_json::{json, Map, Value};
use std::process::ExitCode;
use transport::{read_cacert, Transport};

/// Calls a tool as an honest client, answering every round.
#[derive(Debug, Args)]
pub struct CallArgs {
    /// The server's URL, then the tool and its arguments as JSON (default: deploy
    /// '{"env":"staging"}'). With --url or a stdio command, the tool comes first.
    #[arg(value_name = "URL TOOL ARGUMENTS")]
    words: Vec<String>,
    /// A replica's URL; repeat it and the requests take turns, as the lab's balancer does.
    #[arg(long = "url", value_name = "URL")]
    urls: Vec<String>,
    /// List the tools and call each with no arguments.
    #[arg(long)]
    all: bool,
    /// The person's answer to every form: accept, decline or cancel. Without it the terminal
    /// asks, or, when stdin is not a terminal, the person accepts.
    #[arg(long)]
    reply: Option<Reply>,
    /// The most input_required rounds one call may take before the client gives up.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// A certificate (PEM) to trust for https:// URLs besides the public roots: a server's
    /// self-signed certificate or its private authority's.
    #[arg(long, value_name = "FILE")]
    cacert: Option<std::path::PathBuf>,
    /// The bearer token sent in Authorization (HTTP).
    #[arg(long)]
    token: Option<String>,
    /// Print each message as a JSON line, `{"from": "client"|"server", "to", "message"}`, for
    /// `mrtr lint` and other tools; what the person is asked and how each call ended go to
    /// stderr.
    #[arg(long)]
    json: bool,
    /// A stdio server to start and talk to, after `--`: `mrtr call -- mrtr serve`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// How one call ended.
#[derive(Debug, PartialEq)]
enum Ended {
    /// A complete result.
    Complete,
    /// A JSON-RPC error, or a transport's.
    Failed(String),
    /// Still asking after the round limit.
    GaveUp,
}

/// The client: a transport, the lab's honest client (ids, the `_meta` envelope, the retry),
/// and the person.
struct Client {
    /// JSON lines (`--json`) rather than arrows.
    json: bool,
    transport: Transport,
    honest: HonestClient,
    person: Person,
}

impl Client {
    /// Sends one request and returns the response, printing both.
    async fn send(&mut self, message: &Value) -> Result<Value, String> {
        let to = self.transport.name();
        self.print("client", &to, message);
        let response = self.transport.send(message).await?;
        self.print("server", &to, &response);
        Ok(response)
    }

    /// One message as the output's form has it.
    fn print(&self, from: &str, to: &str, message: &Value) {
        if self.json {
            println!("{}", json!({"from": from, "to": to, "message": message}));
        } else {
            println!("{} {to} {message}", if from == "client" { "C->S" } else { "S->C" });
        }
    }

    /// Sends a first request with a fresh id and the envelope.
    async fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let message = self.honest.request(method, params);
        self.send(&message).await
    }

    /// Calls `tool` and answers every round, up to `rounds`.
    async fn call(&mut self, tool: &str, arguments: Value, rounds: usize) -> Ended {
        let first = self.honest.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let mut message = first.clone();
        for round in 0..=rounds {
            let response = match self.send(&message).await {
                Ok(response) => response,
                Err(why) => return Ended::Failed(why),
            };
            if let Some(error) = response.get("error") {
                return Ended::Failed(format!("error {}: {}", error["code"], error["message"]));
            }
            let result = &response["result"];
            // A result without resultType is complete (servers before MRTR send none).
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                return Ended::Complete;
            }
            if round == rounds {
                break;
            }
            let asked = result.get("inputRequests").and_then(Value::as_object).cloned().unwrap_or_default();
            let answers: Map<String, Value> = asked
                .iter()
                .filter_map(|(key, request)| Some((key.clone(), self.person.answer(key, request)?)))
                .collect();
            // A new id, the answers, the ticket byte for byte (none when none came).
            let ticket = result.get("requestState").and_then(Value::as_str);
            message = self.honest.retry(&first, answers, ticket);
        }
        Ended::GaveUp
    }
}

/// Runs `mrtr call`; the exit code is 1 when a call did not complete.
pub async fn run(args: CallArgs) -> Result<ExitCode, String> {
    let mut words = args.words.clone();
    let mut urls = args.urls.clone();
    if args.command.is_empty() && urls.is_empty() && !words.is_empty() {
        urls.push(words.remove(0));
    }
    let transport = if args.command.is_empty() {
        if urls.is_empty() {
            return Err("give a server: a URL, --url (repeat it for replicas), or -- COMMAND for stdio".into());
        }
        Transport::http_with(urls, args.token.clone(), Vec::new(), read_cacert(args.cacert.as_deref())?.as_deref())?
    } else {
        Transport::stdio(&args.command)?
    };
    let honest = HonestClient::new(args.token.as_deref().unwrap_or_default(), Capabilities::ALL);
    let mut client = Client { json: args.json, transport, honest, person: Person::new(args.reply, args.json) };
    let outcome = calls(&mut client, &args, &words).await;
    client.transport.close().await;
    match outcome {
        Ok(true) => Ok(ExitCode::SUCCESS),
        Ok(false) => Ok(ExitCode::FAILURE),
        Err(why) => Err(why),
    }
}

/// The calls `args` ask for; `Ok(false)` when one did not complete.
async fn calls(client: &mut Client, args: &CallArgs, words: &[String]) -> Result<bool, String> {
    client.request("server/discover", json!({})).await?;
    let tools: Vec<(String, Value)> = if args.all {
        let listed = client.request("tools/list", json!({})).await?;
        listed
            .pointer("/result/tools")
            .and_then(Value::as_array)
            .ok_or("tools/list gave no list of tools")?
            .iter()
            .filter_map(|tool| Some((tool.get("name")?.as_str()?.to_owned(), json!({}))))
            .collect()
    } else {
        let tool = words.first().cloned().unwrap_or_else(|| "deploy".into());
        let arguments = match words.get(1) {
            Some(text) => serde_json::from_str(text).map_err(|e| format!("the arguments are not JSON: {e}"))?,
            None if words.is_empty() => json!({"env": "staging"}),
            None => json!({}),
        };
        if !arguments.is_object() {
            return Err("the arguments must be a JSON object".into());
        }
        vec![(tool, arguments)]
    };
    let mut all_complete = true;
    for (tool, arguments) in tools {
        let ended = client.call(&tool, arguments, args.rounds).await;
        let said = match &ended {
            Ended::Complete => format!("# {tool}: complete"),
            Ended::Failed(why) => format!("# {tool}: failed: {why}"),
            Ended::GaveUp => format!("# {tool}: still asking after {} rounds: the client gives up", args.rounds),
        };
        answer::note(args.json, &said);
        all_complete &= ended == Ended::Complete;
    }
    Ok(all_complete)
}
