//! The MRTR page's requirements (basic/patterns/mrtr, server requirements) in its own words,
//! and how strongly it asks for each ([`Grade`]).

use serde::{Deserialize, Serialize};

/// How strongly the specification asks for what an attack tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// Worth knowing: what the server did, which the page leaves to it.
    Note,
    /// A SHOULD: a server may have a reason, but the attack went through.
    Should,
    /// A MUST of the MRTR page: a server that lets the attack through is not compliant.
    Must,
}

impl Grade {
    /// `MUST`, `SHOULD` or `NOTE`.
    pub fn word(self) -> &'static str {
        match self {
            Grade::Must => "MUST",
            Grade::Should => "SHOULD",
            Grade::Note => "NOTE",
        }
    }
}

// The words of the MRTR page (basic/patterns/mrtr, server requirements) a check tests.

/// Integrity.
pub const INTEGRITY: &str = "If requestState influences authorization, resource access, or business logic, servers MUST protect its integrity (e.g. HMAC or AEAD) and MUST reject state that fails verification.";
/// The principal.
pub const PRINCIPAL: &str =
    "servers SHOULD include … the authenticated principal, rejecting state presented by a different principal.";
/// Expiry.
pub const EXPIRY: &str = "servers SHOULD include … a short expiry (TTL), rejecting state presented after it lapses";
/// The originating request.
pub const REQUEST: &str = "servers SHOULD include … an identifier for the originating request, e.g. the method name and a digest of its salient parameters, rejecting state presented on a request that does not match.";
/// Single use.
pub const SINGLE_USE: &str = "Servers for which a given requestState must be consumed at most once (e.g., one-time redemptions) MUST enforce that invariant server-side.";
/// Answers without state.
pub const ANSWERS: &str = "If a client request contains a requestState field, servers MUST treat requestState as an attacker-controlled input.";
