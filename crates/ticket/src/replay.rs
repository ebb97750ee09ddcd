//! The record of used tickets: what makes a ticket single-use, since signing cannot.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Why a replay record refused a nonce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Redeemed before, at this time (ms).
    AlreadyUsed(u64),
    /// The record could not be asked (a store that is down), said in a sentence. Nothing was
    /// recorded, and the ticket is refused: a record that cannot say "first use" must not
    /// let the request through (it fails closed).
    Unavailable(String),
    /// The ticket was issued before the record began remembering (at `since_ms`, a store that
    /// restarted empty): it may have been used while nobody remembered, so it is refused for
    /// good. A flow started again gets a ticket the record can vouch for.
    Forgotten {
        /// When the record began, ms (with any clock-skew margin added).
        since_ms: u64,
    },
}

/// Remembers which ticket nonces were already redeemed.
pub trait ReplayRecord {
    /// Marks `nonce` used at `now_ms`, to be remembered until `exp_ms` (after that the
    /// expiry check refuses the ticket anyway), in one atomic step. If it was already used,
    /// says when. `iat_ms` is when the ticket was issued: a record that has not remembered
    /// since before then (a store that restarted empty) cannot say "first use", and refuses
    /// it as [`Refused::Forgotten`].
    fn check_and_insert(&mut self, nonce: &str, iat_ms: u64, exp_ms: u64, now_ms: u64) -> Result<(), Refused>;
}

/// Remembers nothing: every replay inside the lifetime succeeds. For showing why a
/// record is needed.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoRecord;

impl ReplayRecord for NoRecord {
    fn check_and_insert(&mut self, _: &str, _: u64, _: u64, _: u64) -> Result<(), Refused> {
        Ok(())
    }
}

/// An in-memory record that forgets each nonce once its ticket has expired, so memory
/// stays proportional to the tickets still alive.
#[derive(Debug, Clone, Default)]
pub struct UsedNonces {
    /// When each remembered nonce was first used. Only looked up, never listed, so the map's
    /// order (a hash map's, which varies) shows nowhere.
    first_used: HashMap<String, u64>,
    /// The same nonces by expiry, soonest first: what `prune` forgets next.
    by_expiry: BinaryHeap<Reverse<(u64, String)>>,
}

impl UsedNonces {
    /// An empty record.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many nonces are remembered right now.
    pub fn len(&self) -> usize {
        self.first_used.len()
    }

    /// True when nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.first_used.is_empty()
    }

    /// Forgets every nonce whose ticket expired at or before `now_ms`.
    pub fn prune(&mut self, now_ms: u64) {
        while let Some(Reverse((exp, _))) = self.by_expiry.peek() {
            if *exp > now_ms {
                break;
            }
            if let Some(Reverse((_, nonce))) = self.by_expiry.pop() {
                self.first_used.remove(&nonce);
            }
        }
    }
}

impl ReplayRecord for UsedNonces {
    /// Remembers from its creation on, and is made before any ticket it is asked about is
    /// issued: `iat_ms` does not enter into it.
    fn check_and_insert(&mut self, nonce: &str, _iat_ms: u64, exp_ms: u64, now_ms: u64) -> Result<(), Refused> {
        self.prune(now_ms);
        if let Some(&at) = self.first_used.get(nonce) {
            return Err(Refused::AlreadyUsed(at));
        }
        self.first_used.insert(nonce.to_owned(), now_ms);
        self.by_expiry.push(Reverse((exp_ms, nonce.to_owned())));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_use_reports_the_first() {
        let mut record = UsedNonces::new();
        assert_eq!(record.check_and_insert("n1", 0, 120_000, 8_000), Ok(()));
        assert_eq!(record.check_and_insert("n1", 0, 120_000, 40_000), Err(Refused::AlreadyUsed(8_000)));
        assert_eq!(record.check_and_insert("n2", 0, 120_000, 40_000), Ok(()));
    }

    #[test]
    fn memory_stays_proportional_to_live_tickets() {
        let mut record = UsedNonces::new();
        for i in 0..10_000u64 {
            // Each ticket lives 120 s; one is redeemed every second.
            let now = i * 1_000;
            assert_eq!(record.check_and_insert(&format!("n{i}"), 0, now + 120_000, now), Ok(()));
            assert!(record.len() <= 121, "{} entries at {now}", record.len());
        }
    }

    #[test]
    fn no_record_accepts_every_replay() {
        let mut record = NoRecord;
        assert_eq!(record.check_and_insert("n", 0, 1, 0), Ok(()));
        assert_eq!(record.check_and_insert("n", 0, 1, 0), Ok(()));
    }
}
