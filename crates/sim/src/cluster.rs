//! The cluster: a load balancer, replicas A and B sharing one key, a replay record (shared,
//! per replica, or none), a ledger, and a virtual clock. Nothing here reads a real clock.

use crate::jsonrpc;
use crate::ledger::Ledger;
use crate::server::{AnswerCheck, Ctx, Incoming, Server, ServerConfig, StateStore};
use crate::trace::{Actor, Kind, Trace};
use mrtr_ticket::SplitMix64;
use mrtr_ticket::{Key, ReplayRecord, Report, UsedNonces};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The lab's server key. It is printed in the docs on purpose: a lab key, not a secret.
pub const LAB_KEY: &[u8; 32] = b"mrtr-lab server key: not secret!";
/// The key an attacker "re-signs" with.
pub const ATTACKER_KEY: &[u8; 32] = b"an attacker's own key, not ours!";

/// One of the two replicas.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(ascii_case_insensitive)]
pub enum Replica {
    /// Replica A.
    A,
    /// Replica B.
    B,
}

impl Replica {
    /// Its name in the ledger and the trace.
    pub fn name(self) -> &'static str {
        match self {
            Replica::A => "replica A",
            Replica::B => "replica B",
        }
    }

    /// Its lane in the diagrams.
    pub fn actor(self) -> Actor {
        match self {
            Replica::A => Actor::ReplicaA,
            Replica::B => Actor::ReplicaB,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// How the balancer picks a replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Balancing {
    /// A, B, A, B… skipping a replica that is down.
    RoundRobin,
    /// Random, from the world's seeded generator.
    Random,
    /// Always this one, chosen by the student (even when it is down).
    Pin(Replica),
}

impl std::str::FromStr for Balancing {
    type Err = String;

    /// `round-robin`, `random`, or a replica's name (`a`, `B`) to pin it.
    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "round-robin" => Ok(Balancing::RoundRobin),
            "random" => Ok(Balancing::Random),
            replica => {
                replica.parse().map(Balancing::Pin).map_err(|_| format!("round-robin, random, a or b, not '{replica}'"))
            }
        }
    }
}

/// Where the record of used tickets lives.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum RecordMode {
    /// No record: a valid ticket works as often as it is presented before expiry.
    Off,
    /// One record both replicas share: single use across the cluster.
    Shared,
    /// One record per replica: a replay that lands on the other replica gets through.
    PerReplica,
}

/// Where saved work lives in [`crate::server::StateMode::Store`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoreMode {
    /// Each replica has its own store.
    PerReplica,
    /// One store both replicas share.
    Shared,
}

/// How a cluster is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterConfig {
    /// The server configuration every replica runs.
    pub server: ServerConfig,
    /// How requests are spread.
    pub balancing: Balancing,
    /// The record of used tickets.
    pub record: RecordMode,
    /// Where saved work lives, when the server keeps it.
    pub store: StoreMode,
    /// Seed of the world's random generator.
    pub seed: u64,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            server: ServerConfig::default(),
            balancing: Balancing::RoundRobin,
            record: RecordMode::Off,
            store: StoreMode::PerReplica,
            seed: 20260728,
        }
    }
}

#[derive(Debug, Clone, Default)]
struct ReplicaState {
    up: bool,
    record: UsedNonces,
    store: StateStore,
    handled: u32,
}

/// What delivering one line produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    /// The replica that handled it, if one did.
    pub replica: Option<Replica>,
    /// The response line, if any.
    pub response: Option<Value>,
    /// The ticket checks it ran, if a ticket came with it.
    pub checks: Option<Report>,
    /// Whether the answers came with the ticket, when the ticket passed.
    pub answers: Option<AnswerCheck>,
    /// The ticket the request carried, named as the trace names tickets (`T1`,
    /// `(never issued)`, …); the world fills it in.
    pub ticket: Option<String>,
}

/// Two replicas behind a balancer, sharing a key, with a ledger and a virtual clock.
#[derive(Debug, Clone)]
pub struct Cluster {
    server: Server,
    config: ClusterConfig,
    replicas: [ReplicaState; 2],
    shared_record: UsedNonces,
    shared_store: StateStore,
    next: usize,
    rng: SplitMix64,
    ledger: Ledger,
    now_ms: u64,
}

/// The lab's bearer tokens, and whom each stands for: the cluster's, the JS package's server
/// and Fix-It's, and `mrtr serve`'s by default.
pub const PRINCIPALS: [(&str, &str); 2] = [("bob-token", "bob"), ("alice-token", "alice")];

/// The principal one of the lab's bearer tokens ([`PRINCIPALS`]) stands for.
pub fn principal_of(bearer: &str) -> Option<&'static str> {
    PRINCIPALS.iter().find(|(token, _)| *token == bearer).map(|(_, principal)| *principal)
}

impl Cluster {
    /// A cluster with both replicas up, at t = 0, knowing the bearer tokens of bob and alice.
    pub fn new(config: ClusterConfig) -> Self {
        let key = Key::new(LAB_KEY).unwrap_or_else(|_| unreachable!("the lab key is 32 bytes"));
        let up = ReplicaState { up: true, ..ReplicaState::default() };
        Cluster {
            server: Server::new(key, config.server),
            config,
            replicas: [up.clone(), up],
            shared_record: UsedNonces::new(),
            shared_store: StateStore::default(),
            next: 0,
            rng: SplitMix64::new(config.seed),
            ledger: Ledger::default(),
            now_ms: 0,
        }
    }

    /// The configuration.
    pub fn config(&self) -> ClusterConfig {
        self.config
    }

    /// The server every replica runs.
    pub fn server(&self) -> &Server {
        &self.server
    }

    /// The virtual clock, ms.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Moves the clock to `at_ms` (it never goes back).
    pub fn set_time(&mut self, at_ms: u64) {
        self.now_ms = self.now_ms.max(at_ms);
    }

    /// Sets the clock to exactly `at_ms`, even back: the student's clock slider.
    pub fn jump_to(&mut self, at_ms: u64) {
        self.now_ms = at_ms;
    }

    /// Moves the clock forward.
    pub fn advance(&mut self, ms: u64) {
        self.now_ms = self.now_ms.saturating_add(ms);
    }

    /// The ledger of side effects.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The ledger, for effects caused outside a request (the earlier era's resumed call).
    pub(crate) fn ledger_mut(&mut self) -> &mut Ledger {
        &mut self.ledger
    }

    /// Calls whose work a replica keeps in memory between rounds (store entries).
    pub fn held_calls(&self) -> usize {
        self.replicas.iter().map(|r| r.store.len()).sum::<usize>() + self.shared_store.len()
    }

    /// The world's random generator (nonces, random balancing).
    pub fn rng(&mut self) -> &mut SplitMix64 {
        &mut self.rng
    }

    /// Changes how the balancer picks.
    pub fn set_balancing(&mut self, balancing: Balancing) {
        self.config.balancing = balancing;
    }

    /// Stops or restarts a replica. A restarted replica has lost its memory (record, store).
    pub fn set_up(&mut self, replica: Replica, up: bool) {
        let state = &mut self.replicas[replica.index()];
        if up && !state.up {
            *state = ReplicaState { up: true, ..ReplicaState::default() };
        }
        state.up = up;
    }

    /// Whether a replica is up.
    pub fn is_up(&self, replica: Replica) -> bool {
        self.replicas[replica.index()].up
    }

    /// How many requests a replica has handled.
    pub fn handled_by(&self, replica: Replica) -> u32 {
        self.replicas[replica.index()].handled
    }

    /// How many tickets the record(s) remember right now.
    pub fn remembered(&self) -> usize {
        match self.config.record {
            RecordMode::Off => 0,
            RecordMode::Shared => self.shared_record.len(),
            RecordMode::PerReplica => self.replicas.iter().map(|r| r.record.len()).sum(),
        }
    }

    /// The balancer's choice for the next request.
    pub fn route(&mut self) -> Replica {
        match self.config.balancing {
            Balancing::Pin(replica) => replica,
            Balancing::Random => <Replica as strum::VariantArray>::VARIANTS[self.rng.below(2) as usize],
            Balancing::RoundRobin => {
                for _ in 0..2 {
                    let replica = <Replica as strum::VariantArray>::VARIANTS[self.next % 2];
                    self.next += 1;
                    if self.is_up(replica) {
                        return replica;
                    }
                }
                <Replica as strum::VariantArray>::VARIANTS[self.next % 2]
            }
        }
    }

    /// Delivers one client line with its bearer token through the balancer, and records
    /// everything in the trace.
    pub fn deliver(&mut self, incoming: &Incoming<'_>, bearer: &str, trace: &mut Trace) -> Delivery {
        let now = self.now_ms;
        let replica = self.route();
        let lane = replica.actor();
        trace.push(now, Actor::Balancer, lane, Kind::Route, format!("routes to {}", replica.name()));
        let nothing = Delivery { replica: None, response: None, checks: None, answers: None, ticket: None };
        if !self.is_up(replica) {
            trace.push(
                now,
                lane,
                Actor::Client,
                Kind::Fault,
                format!("{} is down: connection refused", replica.name()),
            );
            return nothing;
        }
        let Some(principal) = principal_of(bearer).map(str::to_owned) else {
            trace.push(now, lane, Actor::Client, Kind::Fault, "401 Unauthorized: unknown bearer token");
            return nothing;
        };
        let state = &mut self.replicas[replica.index()];
        state.handled += 1;
        let record: Option<&mut dyn ReplayRecord> = match self.config.record {
            RecordMode::Off => None,
            RecordMode::Shared => Some(&mut self.shared_record),
            RecordMode::PerReplica => Some(&mut state.record),
        };
        let store = match self.config.store {
            StoreMode::PerReplica => &mut state.store,
            StoreMode::Shared => &mut self.shared_store,
        };
        let mut ctx = Ctx {
            principal: &principal,
            now_ms: now,
            replica: replica.name(),
            record,
            ledger: &mut self.ledger,
            nonces: &mut self.rng,
            store,
        };
        let effects_before = ctx.ledger.len();
        let handled = self.server.handle_incoming(incoming, &mut ctx);
        if let Some(report) = &handled.checks {
            let verdict = match report.failed_check {
                None => "ticket checks: all passed".to_owned(),
                Some(check) => format!("ticket check failed: {}", check.label().to_ascii_lowercase()),
            };
            let seq = trace.push(now, lane, lane, Kind::Checks, verdict);
            trace.events[seq].checks = Some(report.clone());
        }
        for entry in &self.ledger.entries()[effects_before..] {
            trace.effect(now, lane, entry.clone());
        }
        for note in &handled.notes {
            trace.push(now, lane, lane, Kind::Note, note.clone());
        }
        if let Some(response) = &handled.response {
            let mut summary = describe_response(response);
            if let Some(ticket) = response.pointer("/result/requestState").and_then(Value::as_str) {
                summary = format!("{summary} {}", trace.name_new_ticket(ticket));
            }
            trace.wire(now, lane, Actor::Client, Kind::Response, summary, jsonrpc::line(response));
        }
        Delivery {
            replica: Some(replica),
            response: handled.response,
            checks: handled.checks,
            answers: handled.answers,
            ticket: None,
        }
    }
}

/// A few words about a response, for the diagrams.
pub fn describe_response(response: &Value) -> String {
    if let Some(error) = response.get("error") {
        let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
        let message = error.get("message").and_then(Value::as_str).unwrap_or("");
        return format!("error {code}: {message}");
    }
    let result = response.get("result");
    match result.and_then(|r| r.get("resultType")).and_then(Value::as_str) {
        Some("input_required") => {
            let keys: Vec<&str> = result
                .and_then(|r| r.get("inputRequests"))
                .and_then(Value::as_object)
                .map(|m| m.keys().map(String::as_str).collect())
                .unwrap_or_default();
            format!("input_required: asks {} + requestState", keys.join(", "))
        }
        _ => match result.and_then(|r| r.pointer("/content/0/text")).and_then(Value::as_str) {
            Some(text) => format!("complete: {text}"),
            None => "complete".to_owned(),
        },
    }
}
