//! What a student may do, and how often: joins per client address, claims and statements per
//! seat (token buckets, `governor`), and the CPU work of claims (a replay, a Fix-It run) a
//! bounded number at once.

use crate::refusal::{busy, slow_down};
use axum::response::{IntoResponse as _, Response};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How long a claim waits for a place among the replays running at once.
const REPLAY_WAIT: Duration = Duration::from_secs(10);

const fn nonzero(n: u32) -> NonZeroU32 {
    match NonZeroU32::new(n) {
        Some(n) => n,
        None => panic!("a rate is not zero"),
    }
}

/// Joins from one client address: 120 at once (a class behind one school's NAT joining
/// together), then 2 a second.
pub const JOINS: Quota = Quota::per_second(nonzero(2)).allow_burst(nonzero(120));
/// Claims from one seat: 30 at once, then one a second (a class has a few dozen challenges).
pub const CLAIMS: Quota = Quota::per_second(nonzero(1)).allow_burst(nonzero(30));
/// Statements from one seat: 120 at once, then 5 a second (a move or a diagram step each).
pub const STATEMENTS: Quota = Quota::per_second(nonzero(5)).allow_burst(nonzero(120));

/// How a class bounds what its students may do: a quota per client address for joins, per
/// seat for claims and statements, and the replays run at once.
#[derive(Debug)]
pub struct Bounds {
    joins: DefaultKeyedRateLimiter<IpAddr>,
    claims: DefaultKeyedRateLimiter<String>,
    statements: DefaultKeyedRateLimiter<String>,
    replays: Arc<Semaphore>,
}

impl Bounds {
    /// The given quotas, and as many replays at once as the machine has cores.
    pub fn new(joins: Quota, claims: Quota, statements: Quota) -> Bounds {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Bounds {
            joins: RateLimiter::keyed(joins),
            claims: RateLimiter::keyed(claims),
            statements: RateLimiter::keyed(statements),
            replays: Arc::new(Semaphore::new(cores)),
        }
    }
}

impl Bounds {
    /// Runs `work` for `seat` (CPU work of milliseconds to seconds: a replay, a verifier) off
    /// the async threads, a bounded number at once, within the seat's quota of claims; or the
    /// refusal (429 past the quota, 503 when the server stays busy).
    pub async fn run<T: Send + 'static>(
        &self,
        seat: &str,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Response> {
        if self.claims.check_key(&seat.to_owned()).is_err() {
            return Err(Slowed("too many claims from this seat: a challenge is claimed once it is met").into_response());
        }
        let busy = || busy("the class server is busy replaying claims: try again", "2");
        let Ok(Ok(_running)) = tokio::time::timeout(REPLAY_WAIT, self.replays.clone().acquire_owned()).await else {
            return Err(busy());
        };
        tokio::task::spawn_blocking(work).await.map_err(|_| busy())
    }
}

/// A quota reached: 429 with `Retry-After`, and the sentence that says which.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slowed(pub &'static str);

impl axum::response::IntoResponse for Slowed {
    fn into_response(self) -> Response {
        slow_down(self.0)
    }
}

impl Bounds {
    /// A join from `address`, or why not: past its quota.
    pub fn join(&self, address: &IpAddr) -> Result<(), Slowed> {
        self.joins
            .check_key(address)
            .map_err(|_| Slowed("too many joins from this address: wait a few seconds and try again"))
    }

    /// A statement from `seat`, or why not: past its quota.
    pub fn statement(&self, seat: &str) -> Result<(), Slowed> {
        self.statements.check_key(&seat.to_owned()).map_err(|_| Slowed("too many statements from this seat: slow down"))
    }
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds::new(JOINS, CLAIMS, STATEMENTS)
    }
}
