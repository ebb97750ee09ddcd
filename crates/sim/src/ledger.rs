//! The ledger: every side effect a tool had, in order. What the seeds count.

use serde::{Deserialize, Serialize};

/// One side effect: a deployment, a charge, a submitted expense, a redeemed voucher.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// When, on the virtual clock (ms).
    pub at_ms: u64,
    /// Which replica did it.
    pub replica: String,
    /// Which tool.
    pub tool: String,
    /// What happened, in words.
    pub what: String,
    /// Money moved, in cents, when any.
    pub cents: Option<i64>,
}

/// Side effects in the order they happened.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    entries: Vec<Entry>,
}

impl Ledger {
    /// Appends an entry.
    pub fn push(&mut self, entry: Entry) {
        self.entries.push(entry);
    }

    /// Every entry, oldest first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many side effects happened.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing happened.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The sum of all money moved, in cents.
    pub fn total_cents(&self) -> i64 {
        self.entries.iter().filter_map(|e| e.cents).fold(0, i64::saturating_add)
    }
}

/// Writes cents as money: `190.00`.
pub fn money(cents: i64) -> String {
    // unsigned_abs: i64::MIN has no positive i64 (a careless server charges what the ticket says).
    format!("{}{}.{:02}", if cents < 0 { "-" } else { "" }, cents.unsigned_abs() / 100, cents.unsigned_abs() % 100)
}
