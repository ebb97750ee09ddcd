//! The codec: a key, a mode, and a size limit. Mints tickets and opens them.

use crate::claims::Claims;
use crate::digest::RequestDigest;
use crate::key::Key;
use crate::nonce::NonceSource;
use crate::{b64, sealed};
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::Sha256;

pub(crate) type HmacSha256 = Hmac<Sha256>;

/// The longest ticket [`Codec::open`] reads by default, in bytes.
pub const DEFAULT_MAX_LEN: usize = 4096;

/// Bytes of randomness in a ticket's nonce (128 bits).
pub const NONCE_LEN: usize = 16;

/// How tickets are protected.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Mode {
    /// `v1.payload.tag`: readable payload, HMAC-SHA256 tag. Edits are detected.
    Signed,
    /// `v1e.nonce.box`: the payload under XChaCha20-Poly1305. Edits are detected and the
    /// client cannot read it.
    Sealed,
    /// `v1.payload.`: no tag at all, and nothing checked. The careless server, for the lab.
    Unsigned,
}

impl Mode {
    /// The prefix, before the first dot.
    pub fn prefix(self) -> &'static str {
        match self {
            Mode::Signed | Mode::Unsigned => "v1",
            Mode::Sealed => "v1e",
        }
    }

    /// How a ticket's prefix says it is protected: sealed for `v1e.`, signed otherwise (an
    /// unsigned ticket's prefix is the signed one's). What it claims, not what it is.
    ///
    /// ```
    /// use mrtr_ticket::Mode;
    /// assert_eq!(Mode::of_ticket("v1e.NONCE.BOX"), Mode::Sealed);
    /// assert_eq!(Mode::of_ticket("v1.e30.TAG"), Mode::Signed);
    /// assert_eq!(Mode::of_ticket("hello"), Mode::Signed);
    /// ```
    pub fn of_ticket(ticket: &str) -> Mode {
        match ticket.split('.').next() {
            Some(prefix) if prefix == Mode::Sealed.prefix() => Mode::Sealed,
            _ => Mode::Signed,
        }
    }
}

/// What a server knows when it mints a ticket.
#[derive(Debug, Clone, PartialEq)]
pub struct Mint {
    /// The principal the server authenticated for this request.
    pub principal: String,
    /// The digest of this request ([`RequestDigest::of`]).
    pub request: RequestDigest,
    /// What the tool wants back in the next round.
    pub data: Value,
    /// The server's clock, ms.
    pub now_ms: u64,
    /// How long the ticket lives, ms.
    pub ttl_ms: u64,
}

/// Why [`Codec::mint`] minted nothing: the ticket would not open, said in a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MintRefused(pub String);

impl std::fmt::Display for MintRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no ticket minted: {}", self.0)
    }
}

impl std::error::Error for MintRefused {}

/// Signs or seals tickets with one key, and opens them.
#[derive(Debug, Clone)]
pub struct Codec {
    key: Key,
    mode: Mode,
    max_len: usize,
    /// HMAC keyed once (the inner and outer pads hashed); each use clones it.
    keyed: HmacSha256,
}

impl Codec {
    /// A codec with the default size limit.
    pub fn new(key: Key, mode: Mode) -> Self {
        // HMAC takes keys of any length; `Key` guarantees at least 32 bytes.
        let keyed = <HmacSha256 as KeyInit>::new_from_slice(key.bytes()).unwrap_or_else(|_| unreachable!());
        Self { key, mode, max_len: DEFAULT_MAX_LEN, keyed }
    }

    /// The same codec with another size limit.
    pub fn with_max_len(mut self, max_len: usize) -> Self {
        self.max_len = max_len;
        self
    }

    /// How this codec protects tickets.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The size limit, bytes.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    pub(crate) fn key(&self) -> &Key {
        &self.key
    }

    /// Mints a ticket, drawing its nonce (and, sealed, the AEAD nonce) from `nonces`.
    ///
    /// Refuses to mint what [`Codec::open`] would refuse whatever the request: a lifetime of
    /// 0, an expiry past 2^53 − 1 ms, a ticket longer than the size limit.
    pub fn mint(&self, mint: &Mint, nonces: &mut dyn NonceSource) -> Result<String, MintRefused> {
        let mut nonce = [0u8; NONCE_LEN];
        nonces.fill(&mut nonce);
        if mint.ttl_ms == 0 {
            return Err(MintRefused("a lifetime of 0 ms: the ticket would be expired when minted".to_owned()));
        }
        let claims = Claims {
            data: mint.data.clone(),
            dig: mint.request.clone(),
            exp: mint.now_ms.saturating_add(mint.ttl_ms),
            iat: mint.now_ms,
            nonce: b64::encode(nonce),
            sub: mint.principal.clone(),
        };
        self.mint_claims(&claims, nonces)
    }

    /// Mints a ticket for claims that are already complete (known-answer vectors call this).
    pub fn mint_claims(&self, claims: &Claims, nonces: &mut dyn NonceSource) -> Result<String, MintRefused> {
        if let Some(why) = claims.refusal() {
            return Err(MintRefused(why));
        }
        let ticket = self.wrap_payload(claims.to_canonical_json().as_bytes(), nonces);
        if ticket.len() > self.max_len {
            return Err(MintRefused(format!(
                "the ticket would be {} bytes, over this codec's limit of {}: save less in its data",
                ticket.len(),
                self.max_len
            )));
        }
        Ok(ticket)
    }

    /// Protects arbitrary payload bytes as this codec would. An attacker with the wrong key
    /// uses this to "re-sign" an edited payload; the lab uses it for the same.
    pub fn wrap_payload(&self, payload: &[u8], nonces: &mut dyn NonceSource) -> String {
        match self.mode {
            Mode::Signed => {
                let signed = format!("v1.{}", b64::encode(payload));
                let tag = self.tag(signed.as_bytes());
                format!("{signed}.{}", b64::encode(tag))
            }
            Mode::Unsigned => format!("v1.{}.", b64::encode(payload)),
            Mode::Sealed => sealed::seal(&self.key, payload, nonces),
        }
    }

    /// The signature check alone, as a floor for benchmarks: HMAC-SHA256 over the text
    /// before the last dot, compared in constant time with the decoded tag after it.
    pub fn tag_matches(&self, ticket: &str) -> bool {
        let Some((signed, tag)) = ticket.rsplit_once('.') else {
            return false;
        };
        let Ok(tag) = b64::decode(tag) else {
            return false;
        };
        let mut mac = self.mac();
        mac.update(signed.as_bytes());
        mac.verify_slice(&tag).is_ok()
    }

    /// The tag a signed ticket carries for `signed` (the text before its last dot):
    /// base64url of HMAC-SHA256(key, signed). For exercises that write their own check.
    ///
    /// ```
    /// use mrtr_ticket::{Codec, Key, Mode};
    /// let codec = Codec::new(Key::new(&[7; 32]).unwrap(), Mode::Signed);
    /// let ticket = codec.wrap_payload(b"{}", &mut mrtr_ticket::FixedNonces(vec![0]));
    /// let (signed, tag) = ticket.rsplit_once('.').unwrap();
    /// assert_eq!(codec.tag_of(signed), tag);
    /// ```
    pub fn tag_of(&self, signed: &str) -> String {
        b64::encode(self.tag(signed.as_bytes()))
    }

    /// HMAC-SHA256(key, message).
    pub(crate) fn tag(&self, message: &[u8]) -> [u8; 32] {
        let mut mac = self.mac();
        mac.update(message);
        mac.finalize().into_bytes().into()
    }

    pub(crate) fn mac(&self) -> HmacSha256 {
        self.keyed.clone()
    }
}
