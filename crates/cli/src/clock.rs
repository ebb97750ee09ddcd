//! The real clock, as every part of the crate (and the class server) reads it: milliseconds
//! since the Unix epoch. A leaf module: it imports nothing of the crate.
//!
//! ```
//! let now = mrtr::clock::now_ms();
//! assert!(now > 1_767_225_600_000, "after 2026-01-01");
//! ```

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch (0 on a clock set before it).
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}
