//! Where a real server remembers used tickets: nowhere (`off`), in its own memory, or in a
//! Redis that every replica shares, so that a ticket redeemed on one replica is refused on
//! the other.
//!
//! A record knows since when it has remembered. A ticket issued before that (its `iat`) may
//! have been used while nobody was remembering (the process restarted; Redis restarted empty,
//! failed over or was flushed), so its first use cannot be proven: it is refused, with what
//! to do. Flows started after go on. A record that cannot be asked refuses too: it fails
//! closed.

mod redis;

use mrtr_ticket::{Refused, ReplayRecord, UsedNonces};
use std::sync::Mutex;

pub use self::redis::{RecordSync, RedisOptions, RedisRecord, WATCH_EVERY};

/// The Redis addresses `--record` takes.
const REDIS_SCHEMES: [&str; 6] =
    ["redis://", "rediss://", "redis+sentinel://", "rediss+sentinel://", "redis+cluster://", "rediss+cluster://"];

/// How a record is set up, beside what `--record` names.
#[derive(Debug, Clone, Default)]
pub struct RecordOptions {
    /// How far the replicas' clocks may disagree, ms.
    pub skew_ms: u64,
    /// For a Redis record: TLS, replication.
    pub redis: RedisOptions,
}

/// What `--record` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordSpec {
    /// No record: a ticket works as often as it is presented before it expires.
    Off,
    /// This process's memory.
    Memory,
    /// A Redis: `redis://[USER:PASSWORD@]HOST:PORT[/DB]`, `rediss://…` (TLS),
    /// `redis+sentinel://H1:P1,H2:P2/SERVICE`, `redis+cluster://H1:P1,H2:P2`.
    Redis(String),
}

impl std::str::FromStr for RecordSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "off" => Ok(RecordSpec::Off),
            "memory" => Ok(RecordSpec::Memory),
            url if REDIS_SCHEMES.iter().any(|scheme| url.starts_with(scheme)) => Ok(RecordSpec::Redis(url.to_owned())),
            other => Err(format!(
                "memory, off, redis://HOST:PORT, rediss://HOST:PORT, redis+sentinel://H1:P1,H2:P2/SERVICE or \
                 redis+cluster://H1:P1,H2:P2, not '{other}'"
            )),
        }
    }
}

/// The record a server keeps.
#[derive(Debug)]
pub enum Record {
    /// None.
    Off,
    /// In memory: locked only around each check-and-insert.
    Memory(MemoryRecord),
    /// In Redis.
    Redis(RedisRecord),
}

impl Record {
    /// The record `spec` names, at `now_ms`. A Redis is asked at once (the user, password
    /// and database the address names, its eviction policy, with `--record-sync` its
    /// replicas): one that cannot be reached, refuses them, or may evict keys fails the start
    /// with the reason.
    pub fn open(spec: &RecordSpec, now_ms: u64, options: &RecordOptions) -> Result<Record, String> {
        Ok(match spec {
            RecordSpec::Off => Record::Off,
            RecordSpec::Memory => {
                Record::Memory(MemoryRecord { used: Mutex::new(UsedNonces::new()), since_ms: now_ms })
            }
            RecordSpec::Redis(url) => Record::Redis(RedisRecord::open(url, now_ms, options.skew_ms, &options.redis)?),
        })
    }

    /// The record as one request uses it: `None` when there is none.
    pub fn for_request(&self) -> Option<RecordUse<'_>> {
        match self {
            Record::Off => None,
            record => Some(RecordUse { record, claim: std::cell::OnceCell::new() }),
        }
    }
}

/// The memory record: used nonces, and when this process started remembering.
#[derive(Debug)]
pub struct MemoryRecord {
    used: Mutex<UsedNonces>,
    since_ms: u64,
}

/// One request's use of the record. Its claims in Redis have an identity of their own, drawn
/// when the first is made, so that a claim sent again recognises itself instead of calling
/// itself a replay.
#[derive(Debug)]
pub struct RecordUse<'a> {
    record: &'a Record,
    claim: std::cell::OnceCell<String>,
}

impl ReplayRecord for RecordUse<'_> {
    fn check_and_insert(&mut self, nonce: &str, iat_ms: u64, exp_ms: u64, now_ms: u64) -> Result<(), Refused> {
        match self.record {
            Record::Off => Ok(()),
            Record::Memory(memory) => {
                if iat_ms < memory.since_ms {
                    return Err(Refused::Forgotten { since_ms: memory.since_ms });
                }
                let mut used = memory.used.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                used.check_and_insert(nonce, iat_ms, exp_ms, now_ms)
            }
            Record::Redis(redis) => {
                let claim = self.claim.get_or_init(redis::claim_id);
                redis.claim(nonce, claim, iat_ms, exp_ms, now_ms)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_named_off_memory_or_by_its_redis_address() {
        assert_eq!("off".parse(), Ok(RecordSpec::Off));
        assert_eq!("memory".parse(), Ok(RecordSpec::Memory));
        assert_eq!("redis://127.0.0.1:6379".parse(), Ok(RecordSpec::Redis("redis://127.0.0.1:6379".into())));
        assert!("shared".parse::<RecordSpec>().is_err());
        for address in ["rediss://h:6380", "redis+sentinel://h:26379/main", "redis+cluster://h:7000,h:7001"] {
            assert_eq!(address.parse(), Ok(RecordSpec::Redis(address.into())));
        }
    }

    #[test]
    fn a_redis_that_is_not_there_fails_the_start_with_the_reason() {
        // Port 9 on loopback (discard) has no Redis: the connection is refused at once.
        let opened = Record::open(&RecordSpec::Redis("redis://127.0.0.1:9".into()), 1_000, &RecordOptions::default());
        let why = opened.expect_err("no Redis there");
        assert!(why.starts_with("--record redis://127.0.0.1:9: "), "{why}");
    }

    #[test]
    fn the_memory_record_refuses_what_was_issued_before_it_began() {
        let record = Record::open(&RecordSpec::Memory, 10_000, &RecordOptions::default()).expect("memory");
        let mut first = record.for_request().expect("a record");
        assert_eq!(first.check_and_insert("old", 9_999, 60_000, 10_500), Err(Refused::Forgotten { since_ms: 10_000 }));
        assert_eq!(first.check_and_insert("new", 10_000, 60_000, 10_500), Ok(()));
        let mut again = record.for_request().expect("a record");
        assert_eq!(again.check_and_insert("new", 10_000, 60_000, 10_600), Err(Refused::AlreadyUsed(10_500)));
    }
}
