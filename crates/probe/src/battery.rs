//! The battery: which lab moves the probe plays, in what order, and how strongly the MRTR
//! page asks a server to refuse each, in its own words.

use mrtr_sim::moves::Move;
use serde::Serialize;

/// How strongly the specification asks for what an attack tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// A MUST of the MRTR page: a server that lets the attack through is not compliant.
    Must,
    /// A SHOULD: a server may have a reason, but the attack went through.
    Should,
    /// Worth knowing: what the server did, which the page leaves to it.
    Note,
}

/// The words of the MRTR page (basic/patterns/mrtr, server requirements) an attack tests.
pub mod spec {
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
}

/// One attack of the battery: a lab move, how strongly the page asks the server to refuse
/// it, and the sentence that asks.
#[derive(Debug, Clone, Copy)]
pub struct Attack {
    /// The lab's move.
    pub by: Move,
    /// How a server that lets it through is graded.
    pub grade: Grade,
    /// The page's words.
    pub spec: &'static str,
}

/// Every attack, the honest retry first (if it does not complete, the rest cannot say
/// anything: they are inconclusive).
pub const BATTERY: &[Attack] = &[
    Attack { by: Move::Honest, grade: Grade::Must, spec: "" },
    Attack { by: Move::TamperByte, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::TamperTag, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::EditPayload, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::DropTag, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::SpliceTag, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::ResignOtherKey, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::UnaskedTicket, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::Hello, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::NotAString, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::Huge, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::Empty, grade: Grade::Must, spec: spec::INTEGRITY },
    Attack { by: Move::Reencode, grade: Grade::Note, spec: spec::INTEGRITY },
    Attack { by: Move::OtherPrincipal, grade: Grade::Should, spec: spec::PRINCIPAL },
    Attack { by: Move::TooLate, grade: Grade::Should, spec: spec::EXPIRY },
    Attack { by: Move::OtherArguments, grade: Grade::Should, spec: spec::REQUEST },
    Attack { by: Move::OtherTool, grade: Grade::Should, spec: spec::REQUEST },
    Attack { by: Move::OtherMethod, grade: Grade::Should, spec: spec::REQUEST },
    Attack { by: Move::SendTwice, grade: Grade::Note, spec: spec::SINGLE_USE },
    Attack { by: Move::FirstTicket, grade: Grade::Note, spec: spec::SINGLE_USE },
    Attack { by: Move::PrefillAnswer, grade: Grade::Note, spec: spec::ANSWERS },
    Attack { by: Move::DropTicket, grade: Grade::Note, spec: spec::ANSWERS },
];
