//! The checks a server runs on a ticket, in the one order they always run.

use serde::{Deserialize, Serialize};

/// One check of [`crate::Codec::open`]. They run in the order of [`Check::ALL`] and stop at
/// the first failure: no claim is read before the signature has passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// The ticket is no longer than the server's limit.
    Size,
    /// Prefix and three parts separated by dots.
    Shape,
    /// Each part is strict base64url.
    Base64url,
    /// HMAC-SHA256 tag (signed mode) or AEAD tag (sealed mode) matches.
    Signature,
    /// The payload is ticket JSON.
    Payload,
    /// Minted for the principal who presents it.
    Principal,
    /// Not expired.
    Expiry,
    /// Minted for this same method and arguments.
    Request,
    /// Not redeemed before (only when the server keeps a replay record).
    SingleUse,
}

impl Check {
    /// Every check, in the order they run.
    pub const ALL: [Check; 9] = [
        Check::Size,
        Check::Shape,
        Check::Base64url,
        Check::Signature,
        Check::Payload,
        Check::Principal,
        Check::Expiry,
        Check::Request,
        Check::SingleUse,
    ];

    /// A stable identifier (kebab-case), as used in JSON and in error data.
    pub fn id(self) -> &'static str {
        match self {
            Check::Size => "size",
            Check::Shape => "shape",
            Check::Base64url => "base64url",
            Check::Signature => "signature",
            Check::Payload => "payload",
            Check::Principal => "principal",
            Check::Expiry => "expiry",
            Check::Request => "request",
            Check::SingleUse => "single-use",
        }
    }

    /// A short label for a checks panel.
    pub fn label(self) -> &'static str {
        match self {
            Check::Size => "Within the size limit",
            Check::Shape => "Prefix and three parts",
            Check::Base64url => "Strict base64url",
            Check::Signature => "Signature matches",
            Check::Payload => "Payload is ticket JSON",
            Check::Principal => "Principal = the caller",
            Check::Expiry => "Not expired",
            Check::Request => "Same method and arguments",
            Check::SingleUse => "Not used before",
        }
    }

    /// The misuse this check stops, in one sentence.
    pub fn stops(self) -> &'static str {
        match self {
            Check::Size => "a huge paste that would cost the server memory and time",
            Check::Shape => "text that is not a ticket at all, like \"hello\"",
            Check::Base64url => "a part that was cut, padded or typed by hand",
            Check::Signature => "any change to the payload's bytes, and tickets forged with another key",
            Check::Payload => "a correctly signed blob that is not a ticket",
            Check::Principal => "a stolen ticket presented with someone else's credentials",
            Check::Expiry => "an old or leaked ticket brought back too late",
            Check::Request => "a confirmation for one request spent on another",
            Check::SingleUse => "the same valid ticket redeemed twice",
        }
    }

    /// Finds a check by its [`Check::id`].
    pub fn from_id(id: &str) -> Option<Check> {
        Check::ALL.into_iter().find(|c| c.id() == id)
    }
}

/// Where one check ended up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// It ran and passed.
    Passed,
    /// It ran and failed: the ticket is refused.
    Failed,
    /// An earlier check failed, so this one never ran.
    NotReached,
    /// This server does not run it (signing off, or no replay record).
    Skipped,
}

impl Status {
    /// The mark a checks panel shows: ✓ ✗ – or ·.
    pub fn mark(self) -> &'static str {
        match self {
            Status::Passed => "✓",
            Status::Failed => "✗",
            Status::NotReached => "–",
            Status::Skipped => "·",
        }
    }

    /// The word a screen reader (and a colour-blind reader) gets.
    pub fn word(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::NotReached => "not reached",
            Status::Skipped => "skipped",
        }
    }
}
