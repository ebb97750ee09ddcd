//! The world: a cluster, a client, a person and the trace, driven step by step on a
//! virtual clock. The honest call loop lives here.

use crate::client::Client;
use crate::cluster::{describe_response, Cluster, ClusterConfig, Delivery};
use crate::jsonrpc;
use crate::person::Person;
use crate::protocol::Capabilities;
use crate::server::Incoming;
use crate::trace::{Actor, Kind, Trace};
use serde_json::{Map, Value};

/// How a call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A complete result.
    Complete(Value),
    /// A JSON-RPC error.
    Error(Value),
    /// The client stopped: too many rounds, or the host refused a request.
    Abandoned(String),
    /// No response came back (a replica was down).
    NoResponse,
}

impl Outcome {
    /// The first text content of a complete result.
    pub fn text(&self) -> Option<&str> {
        match self {
            Outcome::Complete(result) => result.pointer("/content/0/text").and_then(Value::as_str),
            _ => None,
        }
    }
}

/// What an honest call cost.
#[derive(Debug, Clone, PartialEq)]
pub struct CallReport {
    /// How it ended.
    pub outcome: Outcome,
    /// Requests sent, first call included.
    pub requests: u32,
    /// Questions shown to the person.
    pub prompts: u32,
}

/// Everything in one place.
#[derive(Debug, Clone)]
pub struct World {
    /// The servers.
    pub cluster: Cluster,
    /// The client (bob's, unless a scenario says otherwise).
    pub client: Client,
    /// The person.
    pub person: Person,
    /// Everything that happened.
    pub trace: Trace,
}

impl World {
    /// A world with bob's full-featured client and a person who accepts.
    pub fn new(config: ClusterConfig) -> Self {
        World {
            cluster: Cluster::new(config),
            client: Client::new("bob-token", Capabilities::ALL),
            person: Person::default(),
            trace: Trace::default(),
        }
    }

    /// The virtual clock, ms.
    pub fn now(&self) -> u64 {
        self.cluster.now_ms()
    }

    /// Moves the clock to `at_ms` and notes it in the trace when it moved.
    pub fn set_time(&mut self, at_ms: u64) {
        if at_ms > self.now() {
            self.cluster.set_time(at_ms);
            self.trace.push(
                at_ms,
                Actor::Client,
                Actor::Client,
                Kind::Clock,
                format!("clock at {}", mrtr_ticket::secs(at_ms)),
            );
        }
    }

    /// Sets the clock to `at_ms`, forwards or back: each move is a separate attempt on the
    /// same ticket, at its own time (the lesson plots 300 s before 30 s).
    pub fn jump_to(&mut self, at_ms: u64) {
        if at_ms != self.now() {
            self.cluster.jump_to(at_ms);
            self.trace.push(
                at_ms,
                Actor::Client,
                Actor::Client,
                Kind::Clock,
                format!("clock set to {}", mrtr_ticket::secs(at_ms)),
            );
        }
    }

    /// Sends one message as `bearer` (the client's own token when `None`).
    pub fn send(&mut self, message: &Value, bearer: Option<&str>) -> Delivery {
        self.send_line(&jsonrpc::line(message), bearer)
    }

    /// Sends one raw line as `bearer`: what a malicious client does with bytes of its choice.
    pub fn send_line(&mut self, line: &str, bearer: Option<&str>) -> Delivery {
        let bearer = bearer.unwrap_or(&self.client.bearer).to_owned();
        let incoming = Incoming::read(line);
        let ticket = ticket_sent(&incoming, &self.trace);
        let summary = describe_request(&incoming, &bearer, ticket.as_deref());
        self.trace.wire(self.now(), Actor::Client, Actor::Balancer, Kind::Request, summary, line.to_owned());
        let delivery = self.cluster.deliver(&incoming, &bearer, &mut self.trace);
        Delivery { ticket, ..delivery }
    }

    /// The person answers every embedded request, taking their time; `None` when the host
    /// refuses one (the client then stops rather than guess).
    pub fn answer_all(&mut self, requests: &Map<String, Value>) -> Option<Map<String, Value>> {
        let mut answers = Map::new();
        for (key, request) in requests {
            let question = request
                .pointer("/params/message")
                .and_then(Value::as_str)
                .unwrap_or_else(|| request.get("method").and_then(Value::as_str).unwrap_or("?"));
            self.trace.push(self.now(), Actor::Client, Actor::Person, Kind::Ask, format!("{key}: {question}"));
            self.cluster.advance(self.person.think_ms);
            let answer = self.person.answer(request);
            let said = match &answer {
                Some(a) => a.get("action").and_then(Value::as_str).unwrap_or("answers").to_owned(),
                None => "refuses".to_owned(),
            };
            self.trace.push(self.now(), Actor::Person, Actor::Client, Kind::Answer, format!("{key}: {said}"));
            answers.insert(key.clone(), answer?);
        }
        Some(answers)
    }

    /// An honest call: the first request, then retries until complete, an error, or the
    /// round limit.
    pub fn call(&mut self, method: &str, params: Value) -> CallReport {
        let first = self.client.request(method, params);
        let mut report = CallReport { outcome: Outcome::NoResponse, requests: 1, prompts: 0 };
        let mut delivery = self.send(&first, None);
        let mut rounds = 0;
        loop {
            let Some(response) = delivery.response.take() else {
                report.outcome = Outcome::NoResponse;
                return report;
            };
            if response.get("error").is_some() {
                report.outcome = Outcome::Error(response);
                return report;
            }
            let result = response.get("result").cloned().unwrap_or_default();
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                report.outcome = Outcome::Complete(result);
                return report;
            }
            if rounds >= self.client.max_rounds {
                let reason = format!("too many rounds: the server still wanted input after {rounds} retries");
                self.trace.push(self.now(), Actor::Client, Actor::Client, Kind::Note, format!("abandoned: {reason}"));
                report.outcome = Outcome::Abandoned(reason);
                return report;
            }
            let requests = result.get("inputRequests").and_then(Value::as_object).cloned().unwrap_or_default();
            report.prompts += requests.len() as u32;
            let Some(answers) = self.answer_all(&requests) else {
                let reason = "the host refused an input request; the client stops rather than guess".to_owned();
                self.trace.push(self.now(), Actor::Client, Actor::Client, Kind::Note, format!("abandoned: {reason}"));
                report.outcome = Outcome::Abandoned(reason);
                return report;
            };
            let ticket = result.get("requestState").and_then(Value::as_str);
            let retry = self.client.retry(&first, answers, ticket);
            rounds += 1;
            report.requests += 1;
            delivery = self.send(&retry, None);
        }
    }
}

/// The name of the ticket a request line carries, as the trace names tickets; `None` when it
/// carries none (or is not JSON).
fn ticket_sent(incoming: &Incoming<'_>, trace: &Trace) -> Option<String> {
    let message = incoming.message.as_ref()?.as_ref().ok()?;
    match message.get("params")?.get("requestState")? {
        Value::String(ticket) => Some(trace.ticket_name(ticket)),
        _ => Some("(not a string)".to_owned()),
    }
}

/// A few words about a request line, for the diagrams: the ticket it carries (its name from
/// [`Trace::ticket_name`]) comes early, so a clipped label still shows it.
pub fn describe_request(incoming: &Incoming<'_>, bearer: &str, ticket: Option<&str>) -> String {
    let message = match &incoming.message {
        Some(Ok(message)) => message,
        Some(Err(_)) => return format!("{bearer} · not JSON ({} bytes)", incoming.line.len()),
        None => return format!("{bearer} · {} bytes, too long to read", incoming.line.len()),
    };
    let id = message.get("id").map(|id| id.to_string()).unwrap_or_else(|| "none".into());
    let method = message.get("method").and_then(Value::as_str).unwrap_or("?");
    let params = message.get("params");
    let target = params
        .and_then(|p| p.get("name").or_else(|| p.get("uri")))
        .and_then(Value::as_str)
        .map(|t| format!(" {t}"))
        .unwrap_or_default();
    let args = params.and_then(|p| p.get("arguments")).map(|a| format!(" {a}")).unwrap_or_default();
    let ticket = ticket.map(|name| format!(" · ticket {name}")).unwrap_or_default();
    let answers = if params.is_some_and(|p| p.get("inputResponses").is_some()) { " + answers" } else { "" };
    format!("{bearer} · id {id}{ticket} · {method}{target}{args}{answers}")
}

/// A few words about a response (re-exported for the front end).
pub fn describe(response: &Value) -> String {
    describe_response(response)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::MAX_LINE;

    #[test]
    fn a_line_too_long_to_read_is_refused_unread_and_described_by_its_size() {
        let mut world = World::new(ClusterConfig::default());
        let line =
            format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"pad\":\"{}\"}}", "A".repeat(MAX_LINE));
        let delivery = world.send_line(&line, None);
        let response = delivery.response.expect("an error response");
        assert_eq!(response["error"]["code"], -32600);
        assert_eq!(response["id"], Value::Null);
        let sent = &world.trace.events.iter().find(|e| e.kind == Kind::Request).expect("the request").summary;
        assert_eq!(sent, &format!("bob-token · {} bytes, too long to read", line.len()));
    }

    #[test]
    fn tickets_are_named_in_the_order_servers_gave_them_and_a_string_none_gave_is_called_so() {
        let mut world = World::new(ClusterConfig::default());
        let first =
            world.client.request("tools/call", serde_json::json!({"name": "deploy", "arguments": {"env": "staging"}}));
        let ticket = world.send(&first, None).response.expect("a response")["result"]["requestState"].clone();
        let ticket = ticket.as_str().expect("a ticket");
        for sent in [ticket, "v1.e30.AAAA"] {
            let retry = world.client.retry(&first, Map::new(), Some(sent));
            world.send(&retry, None);
        }
        let summaries: Vec<&str> = world
            .trace
            .events
            .iter()
            .filter(|e| matches!(e.kind, Kind::Request | Kind::Response))
            .map(|e| e.summary.as_str())
            .collect();
        assert!(summaries[1].ends_with("+ requestState T1"), "{}", summaries[1]);
        assert!(summaries[2].starts_with("bob-token · id 1 · ticket T1 · tools/call deploy"), "{}", summaries[2]);
        assert!(summaries[3].ends_with("+ requestState T2"), "asked again, with a new ticket: {}", summaries[3]);
        assert!(summaries[4].starts_with("bob-token · id 2 · ticket (never issued) · "), "{}", summaries[4]);
    }

    #[test]
    fn the_summary_and_the_server_read_the_same_line() {
        let mut world = World::new(ClusterConfig::default());
        let delivery = world.send_line("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": ", None);
        assert_eq!(delivery.response.expect("an error response")["error"]["code"], -32700);
        let sent = &world.trace.events.iter().find(|e| e.kind == Kind::Request).expect("the request").summary;
        assert!(sent.ends_with("not JSON (38 bytes)"), "{sent}");
    }
}
