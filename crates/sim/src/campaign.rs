//! The attack campaign: thousands of random malicious moves against the codec as a replica
//! runs it, counted by the check that stopped each. Chunked, so a page can show progress.
//!
//! A move is one mutation of a genuine ticket (or of its context: principal, clock, request)
//! plus one full `open`, with the replay record when it is on.

use crate::cluster::{RecordMode, LAB_KEY};
use crate::moves::{edited_keeping_tag, flip_char_at, forged_with_attacker_key, Move};
use mrtr_ticket::SplitMix64;
use mrtr_ticket::{inspect, Codec, Expect, Key, Mint, Mode, NoRecord, ReplayRecord, RequestDigest, UsedNonces};
use serde::Serialize;
use serde_json::json;

/// The moves a campaign draws from.
pub const CAMPAIGN_MOVES: [Move; 9] = [
    Move::Honest,
    Move::TamperByte,
    Move::EditPayload,
    Move::ResignOtherKey,
    Move::OtherPrincipal,
    Move::TooLate,
    Move::SendTwice,
    Move::OtherArguments,
    Move::Hello,
];

const POOL: usize = 64;
const TTL_MS: u64 = 120_000;

/// The histogram's word for a move no check stopped.
pub const ACCEPTED: &str = "accepted";

/// A count by name, in the order each name was first counted. A campaign counts a handful
/// of names (the checks, the moves), so they are a list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Counts(Vec<(String, u64)>);

impl Counts {
    /// Counts `name` once more.
    pub fn add(&mut self, name: &str) {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some((_, count)) => *count += 1,
            None => self.0.push((name.to_owned(), 1)),
        }
    }

    /// How many times `name` was counted.
    pub fn get(&self, name: &str) -> u64 {
        self.iter().find(|(n, _)| *n == name).map_or(0, |(_, count)| count)
    }

    /// Each name and its count, in the order first counted.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.0.iter().map(|(name, count)| (name.as_str(), *count))
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<S: Into<String>> FromIterator<(S, u64)> for Counts {
    fn from_iter<I: IntoIterator<Item = (S, u64)>>(counts: I) -> Self {
        Counts(counts.into_iter().map(|(name, count)| (name.into(), count)).collect())
    }
}

/// How many moves each check stopped, and how many got through.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Histogram {
    /// By failed check id, or [`ACCEPTED`], in the order each was first seen.
    pub by_verdict: Counts,
    /// Moves that got through although they were not honest (a replay, a forged price…), by
    /// move id in the order first seen.
    pub slipped_through: Counts,
    /// Moves played so far.
    pub total: u64,
}

/// A campaign in progress.
pub struct Campaign {
    codec: Codec,
    rng: SplitMix64,
    record: Box<dyn ReplayRecord>,
    tickets: Vec<String>,
    /// Each ticket with its payload edited (old tag kept), and re-signed with the wrong key.
    edited: Vec<(String, String)>,
    used: Vec<bool>,
    request: RequestDigest,
    other_request: RequestDigest,
    histogram: Histogram,
}

/// Shows where the campaign stands. The record is not shown: its nonces would say nothing,
/// and printing them would bring a map's printer into the lab's wasm.
impl std::fmt::Debug for Campaign {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Campaign")
            .field("mode", &self.codec.mode())
            .field("histogram", &self.histogram)
            .finish_non_exhaustive()
    }
}

impl Campaign {
    /// A campaign against a server protecting tickets with `mode`, keeping `record`.
    pub fn new(seed: u64, mode: Mode, record: RecordMode) -> Campaign {
        let key = |k: &[u8; 32]| Key::new(k).unwrap_or_else(|_| unreachable!("32 bytes"));
        let codec = Codec::new(key(LAB_KEY), mode);
        let mut rng = SplitMix64::new(seed);
        let request = RequestDigest::of("tools/call", &json!({"name": "deploy", "arguments": {"env": "staging"}}))
            .expect("params are an object");
        let other_request = RequestDigest::of("tools/call", &json!({"name": "deploy", "arguments": {"env": "prod"}}))
            .expect("params are an object");
        let tickets: Vec<String> = (0..POOL)
            .map(|_| {
                let mint = Mint {
                    principal: "bob".into(),
                    request: request.clone(),
                    data: json!({"env": "staging"}),
                    now_ms: 0,
                    ttl_ms: TTL_MS,
                };
                codec.mint(&mint, &mut rng).expect("mintable")
            })
            .collect();
        let edited = tickets_edited(&tickets);
        let record: Box<dyn ReplayRecord> = match record {
            RecordMode::Off => Box::new(NoRecord),
            RecordMode::Shared | RecordMode::PerReplica => Box::new(UsedNonces::new()),
        };
        Campaign {
            codec,
            rng,
            record,
            tickets,
            edited,
            used: vec![false; POOL],
            request,
            other_request,
            histogram: Histogram::default(),
        }
    }

    /// Plays `count` more random moves.
    pub fn play(&mut self, count: u64) {
        for _ in 0..count {
            self.play_one();
        }
    }

    /// The counts so far.
    pub fn histogram(&self) -> &Histogram {
        &self.histogram
    }

    fn play_one(&mut self) {
        let by = CAMPAIGN_MOVES[self.rng.below(CAMPAIGN_MOVES.len() as u64) as usize];
        let mut pick = self.rng.below(POOL as u64) as usize;
        if by == Move::SendTwice {
            // A replay presents a ticket that was already redeemed, when there is one.
            if let Some(used) = (0..POOL).map(|i| (pick + i) % POOL).find(|&i| self.used[i]) {
                pick = used;
            }
        }
        let genuine = &self.tickets[pick];
        let (mut principal, mut now_ms, mut request) = ("bob", 1_000 + self.rng.below(TTL_MS - 2_000), &self.request);
        let ticket = match by {
            Move::TamperByte => flip_char_at(genuine, self.rng.below(genuine.len() as u64) as usize),
            Move::EditPayload => self.edited[pick].0.clone(),
            Move::ResignOtherKey => self.edited[pick].1.clone(),
            Move::Hello => "hello".to_owned(),
            _ => genuine.clone(),
        };
        match by {
            Move::OtherPrincipal => principal = "alice",
            Move::TooLate => now_ms = TTL_MS + self.rng.below(10 * TTL_MS),
            Move::OtherArguments => request = &self.other_request,
            _ => {}
        }
        let expect = Expect { principal, request, now_ms };
        let opened = self.codec.open(&ticket, &expect, Some(self.record.as_mut() as &mut dyn ReplayRecord));
        let word = opened.failure().map_or(ACCEPTED, |f| f.check().id());
        if opened.is_ok() {
            // A "replay" of a ticket nobody had used yet is just its first, honest use.
            let replayed = by == Move::SendTwice && self.used[pick];
            self.used[pick] = true;
            if by != Move::Honest && (by != Move::SendTwice || replayed) {
                self.histogram.slipped_through.add(by.id());
            }
        }
        self.histogram.by_verdict.add(word);
        self.histogram.total += 1;
    }
}

/// Every ticket with `staging` edited to `prod`: once keeping the old tag, once re-signed
/// (or sealed again) with the attacker's key. Computed once, so each move costs one open.
fn tickets_edited(tickets: &[String]) -> Vec<(String, String)> {
    tickets
        .iter()
        .map(|ticket| {
            let mut payload = inspect(ticket).payload.unwrap_or_else(|| json!({}));
            payload["data"] = json!({"env": "prod"});
            (edited_keeping_tag(ticket, &payload), forged_with_attacker_key(ticket, &payload))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_sums_to_n_and_only_replays_slip_through_a_signing_server() {
        let mut campaign = Campaign::new(1, Mode::Signed, RecordMode::Off);
        campaign.play(5_000);
        let h = campaign.histogram();
        assert_eq!(h.total, 5_000);
        assert_eq!(h.by_verdict.iter().map(|(_, n)| n).sum::<u64>(), 5_000);
        assert_eq!(h.slipped_through.iter().map(|(by, _)| by).collect::<Vec<_>>(), ["send-twice"]);
        for check in ["signature", "principal", "expiry", "request", "shape"] {
            assert!(h.by_verdict.get(check) > 0, "{check} stopped nothing");
        }
    }

    #[test]
    fn the_record_stops_replays_and_signing_off_lets_forgeries_through() {
        let mut recorded = Campaign::new(2, Mode::Signed, RecordMode::Shared);
        recorded.play(5_000);
        assert!(recorded.histogram().slipped_through.is_empty(), "{:?}", recorded.histogram());
        assert!(recorded.histogram().by_verdict.get("single-use") > 0);
        let mut sealed = Campaign::new(4, Mode::Sealed, RecordMode::Off);
        sealed.play(5_000);
        assert_eq!(sealed.histogram().slipped_through.iter().map(|(by, _)| by).collect::<Vec<_>>(), ["send-twice"]);
        let mut careless = Campaign::new(3, Mode::Unsigned, RecordMode::Off);
        careless.play(5_000);
        assert!(careless.histogram().slipped_through.get("edit-payload") > 0);
    }
}
