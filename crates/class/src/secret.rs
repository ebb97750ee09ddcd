//! The class's secrets: seat secrets and the instructor's token are random, handed out once,
//! and kept only as their SHA-256; a secret a request carries is compared in constant time.
//!
//! ```
//! use mrtr_class::secret::{matches, random, sha256};
//! let token = random(16);
//! assert_eq!(token.len(), 32);
//! assert!(matches(&token, &sha256(&token)));
//! assert!(!matches("guess", &sha256(&token)));
//! ```

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The SHA-256 of `text`, in lower-case hex.
pub fn sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// `bytes` random bytes from the system's source, in hex.
pub fn random(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).unwrap_or_else(|_| unreachable!("the system's random source"));
    hex::encode(buf)
}

/// Whether `secret` digests to `kept_sha256`, compared in constant time.
pub fn matches(secret: &str, kept_sha256: &str) -> bool {
    sha256(secret).as_bytes().ct_eq(kept_sha256.as_bytes()).into()
}
