//! Named scenarios: each sets up a world, plays it, and reports the figures the course
//! pages measured. The lab opens them; the runner prints them; the tests assert them.

mod era;
mod figure_words;
mod flows;
mod misuse;
mod verdict;

pub use era::EraRow;
pub use figure_words::figure_words;
pub use misuse::{play, situation, Prepared};
pub use verdict::{Answered, Verdict};

use crate::cluster::{Balancing, ClusterConfig, RecordMode};
use crate::ledger::Ledger;
use crate::moves::{Move, OwnAttempt};
use crate::person::Reply;
use crate::trace::Trace;
use crate::world::World;
use mrtr_ticket::Mode;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What a student (or the runner) can change about a scenario. `None` keeps its default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Options {
    /// Seed of the world's random generator.
    pub seed: Option<u64>,
    /// The moves to play, for scenarios that take them.
    pub moves: Option<Vec<Move>>,
    /// The replay record.
    pub record: Option<RecordMode>,
    /// Signed, sealed or unsigned tickets.
    pub mode: Option<Mode>,
    /// How the balancer routes.
    pub balancing: Option<Balancing>,
    /// How the person answers.
    pub reply: Option<Reply>,
    /// The amount, for the expense and charge scenarios.
    pub amount: Option<f64>,
    /// The student's own retry, sent after the moves (for scenarios that take moves).
    pub attempt: Option<OwnAttempt>,
}

/// A scenario's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Run {
    /// Which scenario.
    pub scenario: &'static str,
    /// Everything that happened.
    pub trace: Trace,
    /// One verdict per attempt, for scenarios built on moves.
    pub verdicts: Vec<Verdict>,
    /// Side effects.
    pub ledger: Ledger,
    /// The figures the course measured, by name.
    pub figures: Map<String, Value>,
}

impl Run {
    fn new(scenario: &'static str, world: World, verdicts: Vec<Verdict>, figures: Map<String, Value>) -> Run {
        Run { scenario, ledger: world.cluster.ledger().clone(), trace: world.trace, verdicts, figures }
    }

    /// One figure.
    pub fn figure(&self, name: &str) -> &Value {
        self.figures.get(name).unwrap_or(&Value::Null)
    }

    /// The figures that make a plain list: all but the era table's `rows`, the `ticket` and
    /// the `verdicts`, which are shown in their own ways.
    pub fn listed_figures(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.figures.iter().filter(|(name, _)| !matches!(name.as_str(), "rows" | "ticket" | "verdicts"))
    }

    /// The verdict words in order: `accepted`, `signature`, `expiry`, …
    pub fn verdict_words(&self) -> Vec<String> {
        self.verdicts.iter().map(|v| v.answered.word()).collect()
    }
}

/// A named scenario.
#[derive(Debug)]
pub struct Scenario {
    /// Its identifier.
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// What it teaches, in two or three plain sentences.
    pub teaches: &'static str,
    /// The rule behind it.
    pub rule: &'static str,
    plays: Plays,
}

/// How a scenario is played.
#[derive(Debug)]
enum Plays {
    /// A fixed flow.
    Flow(fn(&Options) -> Run),
    /// Moves on one ticket, then the student's own attempt.
    Moves(fn(&Options) -> Prepared),
}

impl Scenario {
    /// Whether it plays malicious moves (`--move`) on one ticket.
    pub fn takes_moves(&self) -> bool {
        matches!(self.plays, Plays::Moves(_))
    }

    /// Plays it.
    pub fn run(&self, options: &Options) -> Run {
        match self.plays {
            Plays::Flow(run) => run(options),
            Plays::Moves(prepare) => prepare(options).finish(options.attempt.as_ref()),
        }
    }

    /// For a scenario built on moves: everything up to the student's own attempt (the
    /// options' `attempt` is not read).
    pub fn prepare(&self, options: &Options) -> Option<Prepared> {
        match self.plays {
            Plays::Moves(prepare) => Some(prepare(options)),
            Plays::Flow(_) => None,
        }
    }
}

/// Every scenario, in the order the lab lists them.
pub const SCENARIOS: &[Scenario] = &[
    Scenario {
        id: "deploy",
        title: "Misuse the ticket",
        teaches: "bob called deploy to staging; replica A asked for a confirmation and handed back a signed ticket. \
                  You play the client, or someone who stole the ticket. The balancer takes turns, so your first move lands on replica B, \
                  which never saw the first call: the ticket carries the work, and either replica checks it.",
        rule: "Servers MUST treat requestState as attacker-controlled and verify its integrity; they SHOULD bind it to the principal, a short expiry and the request.",
        plays: Plays::Moves(misuse::prepare_deploy),
    },
    Scenario {
        id: "expense",
        title: "Expense: ask only when needed",
        teaches: "submit_expense asks the person only above 100.00. A decline, a dismissal and a ticked \"no\" all submit nothing, \
                  and the result tells the model what to do next.",
        rule: "A decline means do not ask again for the same thing; a cancel may be asked later.",
        plays: Plays::Flow(flows::expense),
    },
    Scenario {
        id: "charge",
        title: "Charge before or after the question",
        teaches: "The retry is a new request, so the tool body runs again from the top. charge_bad charges before it asks and charges twice, \
                  even when the person declines; charge_good asks first and charges once.",
        rule: "Ask first, act last: everything before the final question must be safe to repeat.",
        plays: Plays::Flow(flows::charge),
    },
    Scenario {
        id: "buy-ticket",
        title: "Ticket price carried in the ticket",
        teaches: "buy_ticket quotes the price once and carries it in the ticket, so the price the person saw is the price charged. \
                  That is also why the ticket must be signed: try editing the price.",
        rule: "Anything the server trusts in round 2 must be integrity-protected in round 1.",
        plays: Plays::Moves(misuse::prepare_buy_ticket),
    },
    Scenario {
        id: "careless",
        title: "A careless, unsigned server",
        teaches: "This server writes the price into the ticket without signing it and believes whatever comes back. \
                  A client writes price: 1.0 into the payload and is charged 1.00 instead of 190.00.",
        rule: "When requestState influences business logic it MUST be integrity-protected (HMAC or AEAD).",
        plays: Plays::Moves(misuse::prepare_careless),
    },
    Scenario {
        id: "voucher",
        title: "One-time voucher and the replay record",
        teaches: "A signed ticket is not single-use: the same valid retry works again until it expires. \
                  The voucher stays one-time only because the server remembers redeemed tickets.",
        rule: "Where one-time redemption matters, the server MUST enforce it itself.",
        plays: Plays::Moves(misuse::prepare_voucher),
    },
    Scenario {
        id: "book-seat",
        title: "Two rounds: echo the latest ticket",
        teaches: "book_seat asks which seat, then whether to pay: two rounds, and a new ticket each round. Round 2's ticket carries the seat, \
                  so the payment retry must echo it. A client that keeps round 1's ticket takes the server back to the seat question; \
                  with the replay record on, round 1's ticket is refused as already used.",
        rule: "Each round has its own requestState: a client MUST echo the one from the most recent input_required result.",
        plays: Plays::Moves(misuse::prepare_book_seat),
    },
    Scenario {
        id: "greedy",
        title: "A greedy server",
        teaches: "A server that keeps answering \"I need more input\" is a loop. The client's round limit (3 here) stops it after at most 4 requests.",
        rule: "A client must bound the rounds; a server may not assume the client will ever retry.",
        plays: Plays::Flow(flows::greedy),
    },
    Scenario {
        id: "prompt-and-resource",
        title: "Prompts, resources, and tools/list",
        teaches: "The client first probes with server/discover. prompts/get and resources/read can ask for input too. tools/list cannot: only three methods may return input_required.",
        rule: "input_required is allowed only on tools/call, prompts/get and resources/read.",
        plays: Plays::Flow(flows::prompt_and_resource),
    },
    Scenario {
        id: "capabilities",
        title: "Only what the client declared",
        teaches: "Every request declares what its client can do. The server asks with a kind the client declared (a sampling-only client \
                  gets a sampling request, never a form), and answers -32021 when no declared kind can serve.",
        rule: "The server MUST NOT send an input request the client's capabilities do not cover.",
        plays: Plays::Flow(flows::capabilities),
    },
    Scenario {
        id: "earlier-era",
        title: "Earlier era vs modern",
        teaches: "Before 2026-07-28 the server asked mid-call and waited on an open connection. The same tool body, two places to wait: \
                  a parked thread, an answer that lands on the wrong instance, a dead instance.",
        rule: "Servers do not send requests: the call ends with input_required and the client retries.",
        plays: Plays::Flow(era::compare),
    },
    Scenario {
        id: "server-store",
        title: "Server-side state instead of a ticket",
        teaches: "Here the ticket holds only a key into a store on the server. With a store per replica, the retry that lands on B fails; \
                  with a shared store it works, but the server is stateful again.",
        rule: "Self-contained state lets any replica finish; a key into a store needs a store every replica shares.",
        plays: Plays::Flow(flows::server_store),
    },
    Scenario {
        id: "sealed",
        title: "Sealed tickets: signed is not secret",
        teaches: "A signed ticket is readable by anyone: base64 is not encryption. Sealed with authenticated encryption, \
                  the same checks run, and the client can no longer read the payload.",
        rule: "Do not put secrets in a signed ticket; use AEAD when the client must not read it.",
        plays: Plays::Moves(misuse::prepare_sealed),
    },
    Scenario {
        id: "protocol-errors",
        title: "Wrong input gets a clear error",
        teaches: "Garbage, an unknown method, a missing or unsupported protocol version, a ticket that is not a string, a 1 MB paste: \
                  each gets a JSON-RPC error that says what is wrong.",
        rule: "Hostile input is always answered with an error, never a crash.",
        plays: Plays::Flow(flows::protocol_errors),
    },
];

/// Other names a lesson may use for a scenario: the course calls the deploy scenario
/// "misuse the ticket".
pub const ALIASES: [(&str, &str); 2] = [("misuse-ticket", "deploy"), ("misuse", "deploy")];

/// Finds a scenario by its id or an alias.
pub fn find(id: &str) -> Option<&'static Scenario> {
    let id = ALIASES.iter().find(|(alias, _)| *alias == id).map_or(id, |(_, real)| *real);
    SCENARIOS.iter().find(|s| s.id == id)
}

/// Plays a scenario by id.
pub fn run(id: &str, options: &Options) -> Result<Run, String> {
    let scenario = find(id).ok_or_else(|| {
        let ids: Vec<&str> = SCENARIOS.iter().map(|s| s.id).collect();
        format!("unknown scenario '{id}'; known: {}", ids.join(", "))
    })?;
    // Moves and an attempt of your own both need a ticket to play on.
    if (options.moves.is_some() || options.attempt.is_some()) && !scenario.takes_moves() {
        let ids: Vec<&str> = SCENARIOS.iter().filter(|s| s.takes_moves()).map(|s| s.id).collect();
        return Err(format!("scenario '{id}' plays no moves; these do: {}", ids.join(", ")));
    }
    Ok(scenario.run(options))
}

/// A world with the scenario's defaults, overridden by the options.
pub(crate) fn world(options: &Options, defaults: ClusterConfig) -> World {
    let mut config = defaults;
    if let Some(seed) = options.seed {
        config.seed = seed;
    }
    if let Some(record) = options.record {
        config.record = record;
    }
    if let Some(mode) = options.mode {
        config.server.mode = mode;
    }
    if let Some(balancing) = options.balancing {
        config.balancing = balancing;
    }
    let mut world = World::new(config);
    if let Some(reply) = options.reply {
        world.person.reply = reply;
    }
    world
}
