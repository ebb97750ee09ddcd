//! # mrtr-sim: a deterministic MCP 2026-07-28 cluster for teaching multi round-trip requests
//!
//! A stateless server core ([`server::Server`]), replicas A and B behind a load balancer
//! with a shared key, a replay record and a ledger ([`cluster::Cluster`]), an honest client
//! and a person ([`world::World`]), a malicious client as data ([`moves::Move`]), and named
//! scenarios that reproduce the course's measured figures ([`scenarios`]).
//!
//! **Invariants:** sans-IO and deterministic. Nothing reads a real clock (time is the
//! cluster's virtual clock, in ms) or OS randomness (one seeded [`mrtr_ticket::SplitMix64`]); maps are
//! ordered. The same seed and moves give a byte-identical trace.
//!
//! ```
//! use mrtr_sim::scenarios::{self, Options};
//!
//! // The lesson's seven-move timeline: only the honest retry (and its replay) get through.
//! let run = scenarios::run("deploy", &Options::default()).unwrap();
//! assert_eq!(run.verdict_words(), ["accepted", "signature", "principal", "expiry", "request", "accepted"]);
//! assert_eq!(run.figure("mintedOn"), "replica A");
//! assert_eq!(run.figure("firstRetryOn"), "replica B");
//! ```
#![deny(missing_docs)]

pub mod campaign;
pub mod challenges;
pub mod client;
pub mod cluster;
pub mod jsonrpc;
pub mod ledger;
pub mod moves;
pub mod person;
pub mod protocol;
pub mod round;
pub mod scenarios;
pub mod server;
pub mod text;
pub mod tools;
pub mod trace;
pub mod world;
