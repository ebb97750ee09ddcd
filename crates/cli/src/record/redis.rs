//! The record in a Redis every replica shares.
//!
//! A used ticket is one key, `mrtr:used:<nonce>`, holding `<claim id>:<first use ms>`. One Lua
//! script claims it atomically: it reads `mrtr:since` (when the record began; remade at once
//! if Redis came back empty), refuses a ticket issued before `since + skew`, then sets the key
//! with `SET NX PX <ms left + skew>`. Of any number of concurrent redemptions exactly one sets
//! it; a claim sent again after its answer was lost finds its own id there and succeeds.
//!
//! Redis that does not answer refuses the ticket. After a failure the record is shut (a
//! breaker): requests are refused at once instead of each waiting on a connection, while one
//! thread pings Redis in the background and opens the record again once it answers.

use mrtr_ticket::Refused;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a Redis command may take before the record counts as unavailable.
const REDIS_TIMEOUT: Duration = Duration::from_secs(2);

/// How often the background thread pings a Redis that failed.
const PROBE_EVERY: Duration = Duration::from_millis(200);

/// The most idle connections kept open.
const MAX_IDLE: usize = 16;

/// The key that says since when the record has remembered (ms, a replica's clock).
const SINCE_KEY: &str = "mrtr:since";

/// KEYS: the used key, the since key. ARGV: the claim's value, PX, now (the since to set when
/// it is missing), the ticket's iat, the skew. Returns `{outcome, value}`.
const CLAIM: &str = r"
local since = redis.call('GET', KEYS[2])
if not since then
  redis.call('SET', KEYS[2], ARGV[3])
  since = ARGV[3]
end
if tonumber(ARGV[4]) < tonumber(since) + tonumber(ARGV[5]) then
  return {'forgotten', since}
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {'claimed', ARGV[1]}
end
return {'used', redis.call('GET', KEYS[1]) or ''}
";

/// A Redis that every replica shares, with a few connections kept open.
pub struct RedisRecord {
    client: redis::Client,
    idle: Mutex<Vec<redis::Connection>>,
    skew_ms: u64,
    /// True from a failure until the background thread's ping is answered.
    shut: Arc<AtomicBool>,
}

impl std::fmt::Debug for RedisRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisRecord")
            .field("client", &self.client)
            .field("skew_ms", &self.skew_ms)
            .finish_non_exhaustive()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl RedisRecord {
    /// Connects (the address's password and database included), pings, and marks when the
    /// record began if no replica has yet: `now − skew`, so that nothing this replica issues
    /// from now on is refused, while a ticket from before is. Fails with the reason.
    pub fn open(url: &str, now_ms: u64, skew_ms: u64) -> Result<RedisRecord, String> {
        let said = |e: String| format!("--record {url}: {e}");
        let client = redis::Client::open(url).map_err(|e| said(e.to_string()))?;
        let shut = Arc::new(AtomicBool::new(false));
        let record = RedisRecord { client: client.clone(), idle: Mutex::new(Vec::new()), skew_ms, shut: shut.clone() };
        let mut connection = record.connection().map_err(said)?;
        let pong: String = redis::cmd("PING").query(&mut connection).map_err(|e| said(e.to_string()))?;
        if pong != "PONG" {
            return Err(said(format!("PING answered {pong}")));
        }
        let since = now_ms.saturating_sub(skew_ms);
        let _: Option<String> = redis::cmd("SET")
            .arg(SINCE_KEY)
            .arg(since)
            .arg("NX")
            .query(&mut connection)
            .map_err(|e| said(e.to_string()))?;
        lock(&record.idle).push(connection);
        std::thread::Builder::new()
            .name("redis-probe".into())
            .spawn(move || probe(&client, &shut))
            .map_err(|e| said(e.to_string()))?;
        Ok(record)
    }

    fn connection(&self) -> Result<redis::Connection, String> {
        if let Some(connection) = lock(&self.idle).pop() {
            return Ok(connection);
        }
        let connection = self.client.get_connection_with_timeout(REDIS_TIMEOUT).map_err(|e| e.to_string())?;
        connection.set_read_timeout(Some(REDIS_TIMEOUT)).map_err(|e| e.to_string())?;
        connection.set_write_timeout(Some(REDIS_TIMEOUT)).map_err(|e| e.to_string())?;
        Ok(connection)
    }

    /// Claims `nonce` for the request whose claim id is `claim`: the first use, this very
    /// claim again (Redis's answer to it was lost and it was sent once more), a use before, or
    /// a ticket older than the record.
    pub(super) fn claim(&self, nonce: &str, claim: &str, iat_ms: u64, exp_ms: u64, now_ms: u64) -> Result<(), Refused> {
        if self.shut.load(Ordering::Acquire) {
            return Err(Refused::Unavailable("Redis did not answer: try again shortly".into()));
        }
        // A connection that fails (Redis restarted since it was opened) is dropped with the
        // other idle ones, and the claim is sent once more on a new one: the same claim id,
        // so a claim that had landed recognises itself.
        let outcome = self.claim_once(nonce, claim, iat_ms, exp_ms, now_ms).or_else(|_| {
            lock(&self.idle).clear();
            self.claim_once(nonce, claim, iat_ms, exp_ms, now_ms)
        });
        if outcome.is_err() {
            lock(&self.idle).clear();
            self.shut.store(true, Ordering::Release);
        }
        outcome.map_err(|why| Refused::Unavailable(format!("Redis: {why}")))?
    }

    fn claim_once(
        &self,
        nonce: &str,
        claim: &str,
        iat_ms: u64,
        exp_ms: u64,
        now_ms: u64,
    ) -> Result<Result<(), Refused>, String> {
        let mut connection = self.connection()?;
        let value = format!("{claim}:{now_ms}");
        let px = exp_ms.saturating_sub(now_ms).saturating_add(self.skew_ms).max(1);
        // EVAL with the script's text: EVALSHA measured no faster, so no script cache is kept.
        let (outcome, held): (String, String) = redis::cmd("EVAL")
            .arg(CLAIM)
            .arg(2)
            .arg(format!("mrtr:used:{nonce}"))
            .arg(SINCE_KEY)
            .arg(&value)
            .arg(px)
            .arg(now_ms)
            .arg(iat_ms)
            .arg(self.skew_ms)
            .query(&mut connection)
            .map_err(|e| e.to_string())?;
        let mut idle = lock(&self.idle);
        if idle.len() < MAX_IDLE {
            idle.push(connection);
        }
        Ok(match outcome.as_str() {
            "claimed" => Ok(()),
            "forgotten" => {
                Err(Refused::Forgotten { since_ms: held.parse::<u64>().unwrap_or(0).saturating_add(self.skew_ms) })
            }
            _ => match held.split_once(':') {
                Some((id, _)) if id == claim => Ok(()),
                Some((_, at)) => Err(Refused::AlreadyUsed(at.parse().unwrap_or(now_ms))),
                None => Err(Refused::AlreadyUsed(now_ms)),
            },
        })
    }
}

/// A fresh claim id: 12 random bytes, hex.
pub(super) fn claim_id() -> String {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).unwrap_or_else(|e| panic!("the operating system's random generator: {e}"));
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// While the record is shut, pings Redis every [`PROBE_EVERY`] on a fresh connection, and
/// opens the record when it answers.
fn probe(client: &redis::Client, shut: &AtomicBool) {
    loop {
        std::thread::sleep(PROBE_EVERY);
        if !shut.load(Ordering::Acquire) {
            continue;
        }
        let answered = client.get_connection_with_timeout(REDIS_TIMEOUT).is_ok_and(|mut connection| {
            let _ = connection.set_read_timeout(Some(REDIS_TIMEOUT));
            redis::cmd("PING").query::<String>(&mut connection).is_ok_and(|pong| pong == "PONG")
        });
        if answered {
            shut.store(false, Ordering::Release);
        }
    }
}
