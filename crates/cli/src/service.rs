//! The lab's server core as a real service: one replica with its key, its record of used
//! tickets, its ledger and the real clock, answering one JSON-RPC line at a time for any
//! transport. It does what the simulated replicas do, with the same checks and the same
//! answers; only the clock, the randomness and the transports are real.

use crate::clock::now_ms;
use crate::record::Record;
use mrtr_sim::ledger::Ledger;
use mrtr_sim::server::{Ctx, Handled, Incoming, Server, StateStore};
use mrtr_ticket::NonceSource;
use std::collections::HashMap;

/// Who a request speaks for when it names no one (no `Authorization` header, or stdio).
pub const ANONYMOUS: &str = "anonymous";

/// The operating system's random bytes: what a real server's nonces come from.
#[derive(Debug, Clone, Copy)]
pub struct OsRandom;

impl NonceSource for OsRandom {
    fn fill(&mut self, dest: &mut [u8]) {
        // The OS generator failing is not something a server can go on from.
        getrandom::fill(dest).expect("the operating system's random generator");
    }
}

/// A bearer token nobody was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownToken;

/// One line answered: what went in, what came out, and what the server checked.
#[derive(Debug)]
pub struct Exchange {
    /// Who the request spoke for.
    pub principal: String,
    /// The response line; `None` for a notification.
    pub response: Option<String>,
    /// The ticket checks and the server's notes.
    pub handled: Handled,
    /// What the tool did (a deploy, a charge): nothing when the request was refused.
    pub effects: Ledger,
    /// When it was answered, ms.
    pub at_ms: u64,
}

/// One replica of the lab's server. It keeps nothing between requests but its record of used
/// tickets: the work between rounds travels in the ticket.
#[derive(Debug)]
pub struct Service {
    server: Server,
    /// Bearer token → principal.
    tokens: HashMap<String, String>,
    record: Record,
    replica: String,
}

impl Service {
    /// A replica named `replica` serving `server`, knowing `tokens` (bearer → principal).
    pub fn new(server: Server, tokens: HashMap<String, String>, record: Record, replica: String) -> Service {
        Service { server, tokens, record, replica }
    }

    /// Whether answering a request that carries a ticket may wait (on a Redis record); the
    /// memory record and none answer at once.
    pub fn may_wait(&self) -> bool {
        matches!(self.record, Record::Redis(_))
    }

    /// Its name, in the ledger and the log.
    pub fn replica(&self) -> &str {
        &self.replica
    }

    /// The principal a bearer token stands for: [`ANONYMOUS`] without one.
    pub fn principal(&self, bearer: Option<&str>) -> Result<String, UnknownToken> {
        match bearer {
            None => Ok(ANONYMOUS.to_owned()),
            Some(token) => self.tokens.get(token).cloned().ok_or(UnknownToken),
        }
    }

    /// Answers one line for `principal`. Never panics on any input: anything wrong is a
    /// JSON-RPC error in the response. Only the record is shared between requests (the memory
    /// record is locked only around each check-and-insert; the Redis record takes no lock).
    pub fn answer(&self, incoming: &Incoming<'_>, principal: &str) -> Exchange {
        // A test-only method that panics, for the tests that show a panic is answered.
        #[cfg(feature = "careless")]
        if incoming.line.contains("\"mrtr/test-panic\"") {
            panic!("a test panic");
        }
        let at_ms = now_ms();
        let mut effects = Ledger::default();
        // The server keeps work in the ticket (StateMode::InTicket): this store stays empty.
        let mut store = StateStore::default();
        let mut record = self.record.for_request();
        let mut ctx = Ctx {
            principal,
            now_ms: at_ms,
            replica: &self.replica,
            record: record.as_mut().map(|r| r as &mut dyn mrtr_ticket::ReplayRecord),
            ledger: &mut effects,
            nonces: &mut OsRandom,
            store: &mut store,
        };
        let handled = self.server.handle_incoming(incoming, &mut ctx);
        Exchange {
            principal: principal.to_owned(),
            response: handled.response.as_ref().map(|r| r.to_string()),
            handled,
            effects,
            at_ms,
        }
    }
}
