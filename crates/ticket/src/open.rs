//! Opening a ticket: every check in order, stopping at the first failure, with a trace.

use crate::b64;
use crate::check::{Check, Status};
use crate::claims::Claims;
use crate::codec::{Codec, Mode};
use crate::digest::RequestDigest;
use crate::failure::Failure;
use crate::replay::{Refused, ReplayRecord};
use crate::sealed::{self, AEAD_NONCE_LEN, AEAD_TAG_LEN};
use crate::time::secs;
use hmac::Mac;
use serde::Serialize;
use serde_json::Value;

/// What the server knows about the request a ticket came back with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expect<'a> {
    /// The principal the server authenticated for this request (from the bearer token).
    pub principal: &'a str,
    /// The digest of this request ([`RequestDigest::of`]).
    pub request: &'a RequestDigest,
    /// The server's clock, ms.
    pub now_ms: u64,
}

/// Claims that passed every check. The only way to get one is [`Opened::trusted`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trusted<'a>(&'a Claims);

impl<'a> Trusted<'a> {
    /// The verified claims.
    pub fn claims(&self) -> &'a Claims {
        self.0
    }

    /// What the tool saved for this round.
    pub fn data(&self) -> &'a Value {
        &self.0.data
    }
}

/// The result of [`Codec::open`]: each check's status, the first failure, and the values
/// compared, so a checks panel can say *why*.
#[derive(Debug, Clone, PartialEq)]
pub struct Opened {
    statuses: [Status; 9],
    outcome: Result<(), Failure>,
    /// The claims once they authenticated and parsed.
    claims: Option<Claims>,
    mode: Mode,
    len: usize,
    max_len: usize,
    payload_len: usize,
    principal: String,
    now_ms: u64,
    request: RequestDigest,
    record_kept: bool,
}

impl Opened {
    /// The verified claims, or the first failure.
    pub fn trusted(&self) -> Result<Trusted<'_>, &Failure> {
        match (&self.outcome, self.authenticated_claims()) {
            (Ok(()), Some(claims)) => Ok(Trusted(claims)),
            (Err(failure), _) => Err(failure),
            (Ok(()), None) => Err(&Failure::BadSignature),
        }
    }

    /// True when every check that ran passed.
    pub fn is_ok(&self) -> bool {
        self.outcome.is_ok()
    }

    /// The first failure, if any.
    pub fn failure(&self) -> Option<&Failure> {
        self.outcome.as_ref().err()
    }

    /// Where one check ended up.
    pub fn status(&self, check: Check) -> Status {
        self.statuses[check as usize]
    }

    /// Every check with its status, in order.
    pub fn steps(&self) -> impl Iterator<Item = (Check, Status)> + '_ {
        Check::ALL.into_iter().zip(self.statuses)
    }

    /// Claims that authenticated (signature and payload passed), whatever came after.
    pub fn authenticated_claims(&self) -> Option<&Claims> {
        self.claims.as_ref()
    }

    /// One sentence about one check, with the values it compared.
    pub fn explain(&self, check: Check) -> String {
        match self.status(check) {
            Status::Failed => match &self.outcome {
                Err(failure) => failure.explain_in(self.mode),
                Ok(_) => String::new(),
            },
            Status::NotReached => "not reached: an earlier check failed".to_owned(),
            Status::Skipped => match check {
                Check::Signature => "signing is off: this server believes whatever comes back".to_owned(),
                _ => "no replay record: nothing stops a second use before expiry".to_owned(),
            },
            Status::Passed => self.explain_pass(check),
        }
    }

    fn explain_pass(&self, check: Check) -> String {
        let claims = self.authenticated_claims();
        match check {
            Check::Size => format!("{} bytes, within the {}-byte limit", self.len, self.max_len),
            Check::Shape => match self.mode {
                Mode::Sealed => "v1e prefix, nonce and sealed box".to_owned(),
                _ => "v1 prefix, payload and tag".to_owned(),
            },
            Check::Base64url => format!("every part decodes; the payload is {} bytes", self.payload_len),
            Check::Signature => match self.mode {
                Mode::Sealed => "XChaCha20-Poly1305 authenticated and decrypted the payload".to_owned(),
                _ => "HMAC-SHA256 of prefix and payload equals the tag (constant-time compare)".to_owned(),
            },
            Check::Payload => "ticket JSON with data, dig, exp, iat, nonce and sub".to_owned(),
            Check::Principal => format!("minted for {}, presented by {}", self.principal, self.principal),
            Check::Expiry => {
                let exp = claims.map_or(0, |c| c.exp);
                format!(
                    "expires at {}, now {} ({} left)",
                    secs(exp),
                    secs(self.now_ms),
                    secs(exp.saturating_sub(self.now_ms))
                )
            }
            Check::Request => format!("the digest {}… matches this call's method and arguments", self.request.short()),
            Check::SingleUse => match claims {
                Some(c) if self.record_kept => {
                    format!("first use; remembered until {}", secs(c.exp))
                }
                _ => "first use".to_owned(),
            },
        }
    }

    /// A plain, serializable copy of the whole trace, for the lab and for JavaScript.
    pub fn report(&self) -> Report {
        Report {
            ok: self.is_ok(),
            failed_check: self.failure().map(|f| f.check()),
            failure: self.failure().cloned(),
            steps: self
                .steps()
                .map(|(check, status)| StepReport {
                    check,
                    label: check.label(),
                    status,
                    mark: status.mark(),
                    detail: self.explain(check),
                })
                .collect(),
            claims: self.authenticated_claims().cloned(),
            error: self.failure().map(Failure::rpc_error),
        }
    }
}

/// [`Opened`] as plain data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Every check that ran passed.
    pub ok: bool,
    /// The check that failed, if one did.
    pub failed_check: Option<Check>,
    /// The failure with its values.
    pub failure: Option<Failure>,
    /// One entry per check, in order.
    pub steps: Vec<StepReport>,
    /// The authenticated claims, when the signature and payload checks passed.
    pub claims: Option<Claims>,
    /// The JSON-RPC error object the server answers with, when refused.
    pub error: Option<Value>,
}

/// One check in a [`Report`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepReport {
    /// Which check.
    pub check: Check,
    /// Its label.
    pub label: &'static str,
    /// Where it ended up.
    pub status: Status,
    /// ✓ ✗ – or ·
    pub mark: &'static str,
    /// A sentence with the values compared.
    pub detail: String,
}

impl Codec {
    /// Runs every check on a presented ticket, in order, stopping at the first failure.
    ///
    /// Pass a replay record where one-time redemption matters; a passing ticket's nonce is
    /// recorded in it. Without one, the single-use check is skipped.
    pub fn open(
        &self,
        ticket: impl AsRef<[u8]>,
        expect: &Expect<'_>,
        record: Option<&mut (dyn ReplayRecord + '_)>,
    ) -> Opened {
        let bytes = ticket.as_ref();
        let mut opened = Opened {
            statuses: [Status::NotReached; 9],
            outcome: Err(Failure::BadSignature),
            claims: None,
            mode: self.mode(),
            len: bytes.len(),
            max_len: self.max_len(),
            payload_len: 0,
            principal: expect.principal.to_owned(),
            now_ms: expect.now_ms,
            request: expect.request.clone(),
            record_kept: record.is_some(),
        };
        opened.outcome = self.run(bytes, expect, record, &mut opened);
        if let Err(failure) = &opened.outcome {
            opened.statuses[failure.check() as usize] = Status::Failed;
        }
        opened
    }

    fn run(
        &self,
        bytes: &[u8],
        expect: &Expect<'_>,
        record: Option<&mut (dyn ReplayRecord + '_)>,
        opened: &mut Opened,
    ) -> Result<(), Failure> {
        macro_rules! pass {
            ($check:expr) => {
                opened.statuses[$check as usize] = Status::Passed
            };
        }

        if bytes.len() > self.max_len() {
            return Err(Failure::TooLarge { len: bytes.len(), max: self.max_len() });
        }
        pass!(Check::Size);

        let (signed_part, middle, last) = split(bytes, self.mode())?;
        pass!(Check::Shape);

        let decoded = |part: &str, what: &str| {
            b64::decode(part).map_err(|why| Failure::Malformed { at: Check::Base64url, why: format!("{what}: {why}") })
        };
        let (payload, signature_ok) = match self.mode() {
            Mode::Signed | Mode::Unsigned => {
                let payload = decoded(middle, "the payload")?;
                let tag = if self.mode() == Mode::Signed {
                    let tag = decoded(last, "the tag")?;
                    if tag.len() != 32 {
                        return Err(Failure::Malformed {
                            at: Check::Base64url,
                            why: format!("the tag is {} bytes; an HMAC-SHA256 tag is 32", tag.len()),
                        });
                    }
                    Some(tag)
                } else {
                    None
                };
                opened.payload_len = payload.len();
                pass!(Check::Base64url);
                let ok = tag.map(|tag| {
                    let mut mac = self.mac();
                    mac.update(signed_part.as_bytes());
                    mac.verify_slice(&tag).is_ok()
                });
                (payload, ok)
            }
            Mode::Sealed => {
                let nonce = decoded(middle, "the nonce")?;
                let sealed_box = decoded(last, "the sealed box")?;
                if nonce.len() != AEAD_NONCE_LEN || sealed_box.len() < AEAD_TAG_LEN {
                    return Err(Failure::Malformed {
                        at: Check::Base64url,
                        why: format!(
                            "a sealed ticket has a {AEAD_NONCE_LEN}-byte nonce and a box of at least \
                             {AEAD_TAG_LEN} bytes; this one has {} and {}",
                            nonce.len(),
                            sealed_box.len()
                        ),
                    });
                }
                // A stream cipher's ciphertext is as long as the payload it hides.
                opened.payload_len = sealed_box.len() - AEAD_TAG_LEN;
                pass!(Check::Base64url);
                match sealed::open(self.key(), signed_part.as_bytes(), &nonce, &sealed_box) {
                    Some(payload) => (payload, Some(true)),
                    None => (Vec::new(), Some(false)),
                }
            }
        };
        match signature_ok {
            Some(true) => pass!(Check::Signature),
            Some(false) => return Err(Failure::BadSignature),
            None => opened.statuses[Check::Signature as usize] = Status::Skipped,
        }

        let claims = Claims::read(&payload).map_err(|e| Failure::Malformed {
            at: Check::Payload,
            why: format!("the payload is not ticket JSON: {e}"),
        })?;
        pass!(Check::Payload);
        let verdict = check_claims(&claims, expect, record, &mut opened.statuses);
        opened.claims = Some(claims);
        verdict
    }
}

/// The checks on the authenticated claims: principal, expiry, request, single use.
fn check_claims(
    wire: &Claims,
    expect: &Expect<'_>,
    record: Option<&mut (dyn ReplayRecord + '_)>,
    statuses: &mut [Status; 9],
) -> Result<(), Failure> {
    let mut pass = |check: Check| statuses[check as usize] = Status::Passed;
    if wire.sub != expect.principal {
        return Err(Failure::WrongPrincipal {
            minted_for: wire.sub.to_string(),
            presented_by: expect.principal.to_owned(),
        });
    }
    pass(Check::Principal);
    if expect.now_ms >= wire.exp {
        return Err(Failure::Expired { exp: wire.exp, now: expect.now_ms });
    }
    pass(Check::Expiry);
    if wire.dig != *expect.request {
        return Err(Failure::OtherRequest {
            minted_for: wire.dig.to_string(),
            presented_with: expect.request.as_str().to_owned(),
        });
    }
    pass(Check::Request);
    match record {
        Some(record) => {
            match record.check_and_insert(&wire.nonce, wire.iat, wire.exp, expect.now_ms) {
                Ok(()) => {}
                Err(Refused::AlreadyUsed(first_used_at)) => return Err(Failure::AlreadyUsed { first_used_at }),
                Err(Refused::Unavailable(why)) => return Err(Failure::RecordUnavailable { why }),
                Err(Refused::Forgotten { since_ms }) => {
                    return Err(Failure::Forgotten { issued: wire.iat, since: since_ms })
                }
            }
            pass(Check::SingleUse);
        }
        None => statuses[Check::SingleUse as usize] = Status::Skipped,
    }
    Ok(())
}

/// Splits `prefix.middle.last`, returning (text before the last dot, middle, last).
fn split(bytes: &[u8], mode: Mode) -> Result<(&str, &str, &str), Failure> {
    let malformed = |why: String| Failure::Malformed { at: Check::Shape, why };
    let text = std::str::from_utf8(bytes)
        .map_err(|e| malformed(format!("byte {} is not UTF-8 text; a ticket is plain ASCII", e.valid_up_to() + 1)))?;
    if text.is_empty() {
        return Err(malformed("the ticket is empty".to_owned()));
    }
    let mut split = text.splitn(4, '.');
    let want = mode.prefix();
    let (Some(prefix), Some(middle), Some(last), None) = (split.next(), split.next(), split.next(), split.next())
    else {
        let found = text.split('.').count();
        return Err(malformed(format!("expected three parts separated by dots ({want}.…….……), found {found}")));
    };
    if prefix != want {
        let hint = match (prefix, mode) {
            ("v1e", Mode::Signed | Mode::Unsigned) => ": this is a sealed ticket, and this server signs",
            ("v1", Mode::Sealed) => ": this is a signed ticket, and this server seals",
            _ => "",
        };
        return Err(malformed(format!("starts with '{prefix}', this server's tickets start with '{want}.'{hint}")));
    }
    let signed_len = prefix.len() + 1 + middle.len();
    Ok((&text[..signed_len], middle, last))
}
