//! Where a real server remembers used tickets: nowhere (`off`), in its own memory, or in a
//! Redis that every replica shares, so that a ticket redeemed on one replica is refused on
//! the other.
//!
//! In Redis a used ticket is one key, `mrtr:used:<nonce>`, set with `SET … NX PX <ms left>`:
//! of any number of concurrent redemptions exactly one sets it, and it disappears when the
//! ticket would have expired anyway. A Redis that does not answer refuses the ticket
//! ([`Refused::Unavailable`]): the record fails closed.

use mrtr_ticket::{Refused, ReplayRecord, UsedNonces};
use std::sync::Mutex;
use std::time::Duration;

/// What `--record` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordSpec {
    /// No record: a ticket works as often as it is presented before it expires.
    Off,
    /// This process's memory.
    Memory,
    /// A Redis server, `redis://HOST:PORT`.
    Redis(String),
}

impl std::str::FromStr for RecordSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "off" => Ok(RecordSpec::Off),
            "memory" => Ok(RecordSpec::Memory),
            url if url.starts_with("redis://") => Ok(RecordSpec::Redis(url.to_owned())),
            other => Err(format!("memory, off or redis://HOST:PORT, not '{other}'")),
        }
    }
}

/// How long a Redis command may take before the record counts as unavailable.
const REDIS_TIMEOUT: Duration = Duration::from_secs(2);

/// The record a server keeps.
#[derive(Debug)]
pub enum Record {
    /// None.
    Off,
    /// In memory, behind a lock.
    Memory(Mutex<UsedNonces>),
    /// In Redis.
    Redis(RedisRecord),
}

impl Record {
    /// The record `spec` names. A Redis address is checked for its form only: the server
    /// starts even while Redis is down, and refuses tickets until it is back.
    pub fn open(spec: &RecordSpec) -> Result<Record, String> {
        Ok(match spec {
            RecordSpec::Off => Record::Off,
            RecordSpec::Memory => Record::Memory(Mutex::new(UsedNonces::new())),
            RecordSpec::Redis(url) => Record::Redis(RedisRecord::new(url)?),
        })
    }

    /// The record for one request, held until it is dropped (the memory record's lock).
    pub fn lease(&self) -> Lease<'_> {
        match self {
            Record::Off => Lease::Off,
            Record::Memory(used) => Lease::Memory(used.lock().unwrap_or_else(std::sync::PoisonError::into_inner)),
            Record::Redis(redis) => Lease::Redis(RedisUse { redis }),
        }
    }
}

/// The record as one request uses it.
#[derive(Debug)]
pub enum Lease<'a> {
    /// No record.
    Off,
    /// The memory record, locked.
    Memory(std::sync::MutexGuard<'a, UsedNonces>),
    /// The Redis record.
    Redis(RedisUse<'a>),
}

impl Lease<'_> {
    /// The record as the codec wants it: `None` when there is none.
    pub fn record(&mut self) -> Option<&mut dyn ReplayRecord> {
        match self {
            Lease::Off => None,
            Lease::Memory(used) => Some(&mut **used),
            Lease::Redis(redis) => Some(redis),
        }
    }
}

/// A Redis that every replica shares, with a few connections kept open.
pub struct RedisRecord {
    client: redis::Client,
    idle: Mutex<Vec<redis::Connection>>,
}

impl std::fmt::Debug for RedisRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisRecord").field("client", &self.client).finish_non_exhaustive()
    }
}

impl RedisRecord {
    fn new(url: &str) -> Result<RedisRecord, String> {
        let client = redis::Client::open(url).map_err(|e| format!("--record {url}: {e}"))?;
        Ok(RedisRecord { client, idle: Mutex::new(Vec::new()) })
    }

    /// A connection: an idle one, or a new one.
    fn connection(&self, fresh: bool) -> Result<redis::Connection, String> {
        if !fresh {
            if let Some(connection) = self.idle.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop() {
                return Ok(connection);
            }
        }
        let connection = self.client.get_connection_with_timeout(REDIS_TIMEOUT).map_err(|e| e.to_string())?;
        connection.set_read_timeout(Some(REDIS_TIMEOUT)).map_err(|e| e.to_string())?;
        connection.set_write_timeout(Some(REDIS_TIMEOUT)).map_err(|e| e.to_string())?;
        Ok(connection)
    }

    /// Marks `nonce` used, atomically: `Ok(Ok(()))` when this call was the first,
    /// `Ok(Err(first_used_at))` when another was. An idle connection that fails (Redis
    /// restarted since) is dropped with the others, and the claim is tried once on a new one.
    fn claim(&self, nonce: &str, exp_ms: u64, now_ms: u64) -> Result<Result<(), u64>, String> {
        match self.claim_on(self.connection(false)?, nonce, exp_ms, now_ms) {
            Err(_) => {
                self.idle.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clear();
                self.claim_on(self.connection(true)?, nonce, exp_ms, now_ms)
            }
            claimed => claimed,
        }
    }

    fn claim_on(
        &self,
        mut connection: redis::Connection,
        nonce: &str,
        exp_ms: u64,
        now_ms: u64,
    ) -> Result<Result<(), u64>, String> {
        let key = format!("mrtr:used:{nonce}");
        let left = exp_ms.saturating_sub(now_ms).max(1);
        let set: Option<String> = redis::cmd("SET")
            .arg(&key)
            .arg(now_ms)
            .arg("NX")
            .arg("PX")
            .arg(left)
            .query(&mut connection)
            .map_err(|e| e.to_string())?;
        let outcome = match set {
            Some(_) => Ok(()),
            None => {
                let first: Option<u64> =
                    redis::cmd("GET").arg(&key).query(&mut connection).map_err(|e| e.to_string())?;
                Err(first.unwrap_or(now_ms))
            }
        };
        self.idle.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(connection);
        Ok(outcome)
    }
}

/// One use of the Redis record by one request.
#[derive(Debug)]
pub struct RedisUse<'a> {
    redis: &'a RedisRecord,
}

impl ReplayRecord for RedisUse<'_> {
    fn check_and_insert(&mut self, nonce: &str, exp_ms: u64, now_ms: u64) -> Result<(), Refused> {
        match self.redis.claim(nonce, exp_ms, now_ms) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(first_used_at)) => Err(Refused::AlreadyUsed(first_used_at)),
            Err(why) => Err(Refused::Unavailable(format!("Redis: {why}"))),
        }
    }

    fn len(&self) -> usize {
        0
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
    }

    #[test]
    fn a_redis_that_is_not_there_refuses_and_records_nothing() {
        // Port 9 on loopback (discard) has no Redis: the connection is refused at once.
        let record = Record::open(&RecordSpec::Redis("redis://127.0.0.1:9".into())).expect("a valid address");
        let mut lease = record.lease();
        let refused = lease.record().map(|r| r.check_and_insert("n", 10_000, 1_000));
        assert!(matches!(refused, Some(Err(Refused::Unavailable(why))) if why.starts_with("Redis: ")));
    }
}
