//! The server key every replica shares.

use std::fmt;

/// The shortest key the codec accepts, in bytes (the HMAC-SHA256 block output size).
pub const MIN_KEY_LEN: usize = 32;

/// A server key: at least [`MIN_KEY_LEN`] bytes. Its bytes never appear in `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Key(Box<[u8]>);

/// The key was too short to be safe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyTooShort {
    /// How many bytes were given.
    pub len: usize,
}

impl fmt::Display for KeyTooShort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a ticket key needs at least {MIN_KEY_LEN} bytes, this one has {}", self.len)
    }
}

impl std::error::Error for KeyTooShort {}

impl Key {
    /// Wraps key material; fails when it is shorter than [`MIN_KEY_LEN`] bytes.
    pub fn new(bytes: impl AsRef<[u8]>) -> Result<Self, KeyTooShort> {
        let bytes = bytes.as_ref();
        if bytes.len() < MIN_KEY_LEN {
            return Err(KeyTooShort { len: bytes.len() });
        }
        Ok(Self(bytes.into()))
    }

    /// The raw key material, for the MAC and the AEAD key derivation.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key(<{} bytes, redacted>)", self.0.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_keys_are_refused() {
        assert_eq!(Key::new([0u8; 31]), Err(KeyTooShort { len: 31 }));
        assert!(Key::new([0u8; 32]).is_ok());
    }

    #[test]
    fn debug_never_shows_the_bytes() {
        let key = Key::new(b"super-secret-key-material-0123456789").expect("long enough");
        let shown = format!("{key:?}");
        assert_eq!(shown, "Key(<36 bytes, redacted>)");
        assert!(!shown.contains("secret"));
    }
}
