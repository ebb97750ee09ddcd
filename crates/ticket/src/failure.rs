//! Why a ticket was refused, with the values a person needs to understand it.

use crate::check::Check;
use crate::codec::Mode;
use crate::time::secs;
use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::Value;

/// JSON-RPC "Invalid params": the code every ticket failure answers with, as the official
/// SDK does.
pub const INVALID_PARAMS: i64 = -32602;
/// The code a server answers with when it failed itself (a record of used tickets that is down).
pub const INTERNAL_ERROR: i64 = -32603;

/// The first check a ticket failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Failure {
    /// Longer than the server accepts; nothing else was looked at.
    TooLarge {
        /// Bytes presented.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// Not a ticket: wrong shape, bad base64url, or a payload that is not ticket JSON.
    Malformed {
        /// The check that found it: shape, base64url or payload.
        at: Check,
        /// What exactly is wrong, with positions.
        why: String,
    },
    /// The tag does not match: edited, truncated, or made with another key.
    BadSignature,
    /// Genuine, but minted for someone else.
    WrongPrincipal {
        /// The principal inside the ticket.
        minted_for: String,
        /// The principal the server authenticated for this request.
        presented_by: String,
    },
    /// Genuine, but too late.
    Expired {
        /// Expiry inside the ticket, ms.
        exp: u64,
        /// The server's clock, ms.
        now: u64,
    },
    /// Genuine, but minted for a different method or different arguments.
    OtherRequest {
        /// The digest inside the ticket.
        minted_for: String,
        /// The digest of the request it came with.
        presented_with: String,
    },
    /// Genuine, but redeemed before.
    AlreadyUsed {
        /// When the first redemption happened, ms.
        first_used_at: u64,
    },
    /// Genuine, but issued before the record of used tickets began (it restarted empty):
    /// whether it was used cannot be proven, so it is refused for good.
    Forgotten {
        /// `iat` inside the ticket, ms.
        issued: u64,
        /// When the record began, ms.
        since: u64,
    },
    /// Genuine, but the record of used tickets could not be asked: refused, nothing done.
    RecordUnavailable {
        /// What went wrong with the record.
        why: String,
    },
}

impl Failure {
    /// The check this failure belongs to.
    pub fn check(&self) -> Check {
        match self {
            Failure::TooLarge { .. } => Check::Size,
            Failure::Malformed { at, .. } => *at,
            Failure::BadSignature => Check::Signature,
            Failure::WrongPrincipal { .. } => Check::Principal,
            Failure::Expired { .. } => Check::Expiry,
            Failure::OtherRequest { .. } => Check::Request,
            Failure::AlreadyUsed { .. } | Failure::Forgotten { .. } | Failure::RecordUnavailable { .. } => {
                Check::SingleUse
            }
        }
    }

    /// A few words for the verdict: "expired", "bad signature".
    pub fn summary(&self) -> &'static str {
        match self {
            Failure::TooLarge { .. } => "too large",
            Failure::Malformed { .. } => "malformed",
            Failure::BadSignature => "bad signature",
            Failure::WrongPrincipal { .. } => "issued to a different principal",
            Failure::Expired { .. } => "expired",
            Failure::OtherRequest { .. } => "belongs to a different request",
            Failure::AlreadyUsed { .. } => "already used",
            Failure::Forgotten { .. } => "issued before the record of used tickets began",
            Failure::RecordUnavailable { .. } => "replay record unavailable",
        }
    }

    /// One sentence with the values compared.
    pub fn explain(&self) -> String {
        match self {
            Failure::TooLarge { len, max } => {
                format!("{len} bytes is over the {max}-byte limit, so nothing else was read")
            }
            Failure::Malformed { why, .. } => why.clone(),
            Failure::BadSignature => "the tag does not match the prefix and payload byte for byte: they \
                                      were edited, re-encoded, cut, or signed with another key"
                .to_owned(),
            Failure::WrongPrincipal { minted_for, presented_by } => {
                format!("minted for {minted_for}, presented by {presented_by}")
            }
            Failure::Expired { exp, now } => {
                format!("expired at {}, now {} ({} too late)", secs(*exp), secs(*now), secs(now.saturating_sub(*exp)))
            }
            Failure::OtherRequest { minted_for, presented_with } => format!(
                "minted for request {}…, presented with request {}…: another method or other arguments",
                short(minted_for),
                short(presented_with)
            ),
            Failure::AlreadyUsed { first_used_at } => {
                format!("this ticket was already redeemed at {}", secs(*first_used_at))
            }
            Failure::Forgotten { issued, since } => format!(
                "issued {} before the record of used tickets restarted (with the clock-skew margin): it may \
                 have been used while nobody remembered",
                secs(since.saturating_sub(*issued))
            ),
            Failure::RecordUnavailable { why } => {
                format!("the record of used tickets did not answer ({why}), so nothing was done")
            }
        }
    }

    /// [`Failure::explain`] in the words of the ticket's `mode`: a sealed box that does not
    /// open is the AEAD's tag, not an HMAC.
    pub fn explain_in(&self, mode: Mode) -> String {
        match self {
            Failure::BadSignature if mode == Mode::Sealed => "the box does not open (its Poly1305 tag does not \
                match the nonce and ciphertext byte for byte): they were edited, re-encoded, cut, or sealed with \
                another key"
                .to_owned(),
            _ => self.explain(),
        }
    }

    /// The JSON-RPC error message: what went wrong and what the client should do.
    pub fn rpc_message(&self) -> String {
        // A ticket minted a moment ago can be refused as forgotten too: say why.
        let why = match self {
            Failure::Forgotten { .. } => self.explain(),
            _ => self.summary().to_owned(),
        };
        format!("Invalid requestState: {why}. Start the request again without it.")
    }

    /// The JSON-RPC `error` object a server answers with.
    ///
    /// ```
    /// use mrtr_ticket::Failure;
    /// let error = Failure::Expired { exp: 120_000, now: 300_000 }.rpc_error();
    /// assert_eq!(error["code"], -32602);
    /// assert_eq!(error["message"], "Invalid requestState: expired. Start the request again without it.");
    /// assert_eq!(error["data"]["check"], "expiry");
    /// ```
    pub fn rpc_error(&self) -> Value {
        if let Failure::RecordUnavailable { .. } = self {
            // Not the client's fault, and not the ticket's: try again later.
            return json!({
                "code": INTERNAL_ERROR,
                "message": "Internal error: the record of used tickets is unavailable, so nothing was done. Try again later.",
                "data": { "reason": "replay_record_unavailable", "check": self.check().id() },
            });
        }
        json!({
            "code": INVALID_PARAMS,
            "message": self.rpc_message(),
            "data": { "reason": "invalid_request_state", "check": self.check().id() },
        })
    }
}

fn short(digest: &str) -> &str {
    digest.get(..8).unwrap_or(digest)
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.summary(), self.explain())
    }
}

impl std::error::Error for Failure {}
