//! # mrtr-ticket: the `requestState` ticket codec
//!
//! A stateless MCP server that needs a person's answer ends the call with
//! `resultType: "input_required"` and a `requestState` ticket; the client brings the ticket
//! back on its retry. The ticket passes through the client, so it is attacker-controlled:
//! this crate mints tickets and opens them, running every check in one fixed order
//! ([`Check::ALL`]) and reporting where each one ended up, with the values compared.
//!
//! The wire format is written down in `docs/TOKEN.md`: `v1.` + base64url(payload JSON) +
//! `.` + base64url(HMAC-SHA256(key, everything before the last dot)).
//!
//! **Invariant:** this crate reads no clock and draws no randomness of its own. The time is
//! an argument (`now_ms`) and random bytes come from a [`NonceSource`] the caller passes.
//!
//! ```
//! use mrtr_ticket::{Check, Codec, Expect, Failure, FixedNonces, Key, Mint, Mode, RequestDigest, Status};
//! use serde_json::json;
//!
//! let codec = Codec::new(Key::new([7u8; 32]).unwrap(), Mode::Signed);
//! let request = RequestDigest::of("tools/call", &json!({"name": "deploy", "arguments": {"env": "staging"}})).unwrap();
//! let mint = Mint { principal: "bob".into(), request: request.clone(), data: json!({"env": "staging"}), now_ms: 0, ttl_ms: 120_000 };
//! let ticket = codec.mint(&mint, &mut FixedNonces(vec![1, 2, 3])).unwrap();
//!
//! // bob's honest retry at t = 8 s passes every check.
//! let opened = codec.open(&ticket, &Expect { principal: "bob", request: &request, now_ms: 8_000 }, None);
//! assert!(opened.is_ok());
//! assert_eq!(opened.trusted().unwrap().data()["env"], "staging");
//!
//! // alice presents bob's ticket: the signature passes, the principal check does not.
//! let opened = codec.open(&ticket, &Expect { principal: "alice", request: &request, now_ms: 20_000 }, None);
//! assert_eq!(opened.status(Check::Signature), Status::Passed);
//! assert_eq!(opened.failure(), Some(&Failure::WrongPrincipal { minted_for: "bob".into(), presented_by: "alice".into() }));
//! assert_eq!(opened.status(Check::Expiry), Status::NotReached);
//! assert_eq!(opened.explain(Check::Principal), "minted for bob, presented by alice");
//! ```
#![deny(missing_docs)]

mod b64;
mod canonical;
mod check;
mod claims;
mod codec;
mod digest;
mod failure;
mod inspect;
mod key;
mod nonce;
mod open;
mod replay;
mod sealed;
mod time;

pub use b64::{decode as base64url_decode, encode as base64url_encode};
pub use canonical::canonical_json;
pub use check::{Check, Status};
pub use claims::Claims;
pub use claims::MAX_TIME_MS;
pub use codec::{Codec, Mint, MintRefused, Mode, DEFAULT_MAX_LEN, NONCE_LEN};
pub use digest::{ParamsNotAnObject, RequestDigest, ROUND_ONLY_PARAMS};
pub use failure::{Failure, INTERNAL_ERROR, INVALID_PARAMS};
pub use inspect::{inspect, with_payload, with_payload_bytes, Inspection, Part, Role, INSPECT_MAX_LEN};
pub use key::{Key, KeyTooShort, MIN_KEY_LEN};
pub use nonce::{FixedNonces, NonceSource, SplitMix64};
pub use open::{Expect, Opened, Report, StepReport, Trusted};
pub use replay::{NoRecord, Refused, ReplayRecord, UsedNonces};
pub use sealed::{AEAD_NONCE_LEN, AEAD_TAG_LEN};
pub use time::secs;
