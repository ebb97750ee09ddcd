//! Sealed mode: the payload under XChaCha20-Poly1305, so the client cannot read it.
//!
//! `v1e.` + base64url(24-byte nonce) + `.` + base64url(ciphertext ‖ 16-byte tag), with the
//! text before the last dot as associated data. The AEAD key is
//! HMAC-SHA256(server key, "mrtr-lab/v1e/aead-key"), so one server key never serves two
//! algorithms directly.

use crate::b64;
use crate::key::Key;
use crate::nonce::NonceSource;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
// hmac re-exports the same `KeyInit` trait (crypto-common), so one import serves both.
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Bytes of the XChaCha20 nonce.
pub const AEAD_NONCE_LEN: usize = 24;
/// Bytes of the Poly1305 tag at the end of the box.
pub const AEAD_TAG_LEN: usize = 16;
const KEY_LABEL: &[u8] = b"mrtr-lab/v1e/aead-key";

fn cipher(key: &Key) -> XChaCha20Poly1305 {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key.bytes()).unwrap_or_else(|_| unreachable!());
    mac.update(KEY_LABEL);
    let derived: [u8; 32] = mac.finalize().into_bytes().into();
    XChaCha20Poly1305::new(&derived.into())
}

pub(crate) fn seal(key: &Key, payload: &[u8], nonces: &mut dyn NonceSource) -> String {
    let mut nonce = [0u8; AEAD_NONCE_LEN];
    nonces.fill(&mut nonce);
    let aad = format!("v1e.{}", b64::encode(nonce));
    let sealed =
        cipher(key).encrypt(&XNonce::from(nonce), Payload { msg: payload, aad: aad.as_bytes() }).unwrap_or_default();
    format!("{aad}.{}", b64::encode(sealed))
}

/// Decrypts and authenticates; `None` when the box or anything before it was changed.
pub(crate) fn open(key: &Key, aad: &[u8], nonce: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
    let nonce: [u8; AEAD_NONCE_LEN] = nonce.try_into().ok()?;
    cipher(key).decrypt(&XNonce::from(nonce), Payload { msg: sealed, aad }).ok()
}
