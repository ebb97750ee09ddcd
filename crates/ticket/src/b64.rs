//! Strict base64url without padding (RFC 4648 §5): the only encoding a ticket uses.
//!
//! Decoding is strict: `=` padding, characters outside the URL-safe alphabet, a length
//! that leaves a lone symbol, and a last symbol with non-zero unused bits are all errors,
//! so every byte string has exactly one accepted encoding.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::{DecodeError, Engine};

/// Encodes bytes as base64url without padding.
pub fn encode(bytes: impl AsRef<[u8]>) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes strict base64url; the error says where and why in plain words.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    URL_SAFE_NO_PAD.decode(text).map_err(|e| describe(text, e))
}

fn describe(text: &str, error: DecodeError) -> String {
    match error {
        DecodeError::InvalidByte(at, byte) => {
            format!("character {} is {}, which is not in the base64url alphabet (A-Z a-z 0-9 - _)", at + 1, shown(byte))
        }
        DecodeError::InvalidLength(_) => {
            format!("{} characters cannot be base64url: a group of 4 may end with 2 or 3, never 1", text.len())
        }
        DecodeError::InvalidLastSymbol { offset: at, symbol: byte, .. } => format!(
            "the last character {} (at {}) carries bits that do not belong to any byte: \
             the text was cut short or edited",
            shown(byte),
            at + 1
        ),
        DecodeError::InvalidPadding => "base64url here is written without '=' padding".to_owned(),
    }
}

fn shown(byte: u8) -> String {
    if byte.is_ascii_graphic() {
        format!("'{}'", byte as char)
    } else {
        format!("byte 0x{byte:02x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for len in 0..40 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37) as u8).collect();
            assert_eq!(decode(&encode(&bytes)), Ok(bytes));
        }
    }

    #[test]
    fn rejects_padding_foreign_characters_and_loose_bits() {
        assert!(decode("aGk=").expect_err("padding").contains("padding"));
        assert!(decode("aG+p").expect_err("plus").contains("'+'"));
        assert!(decode("aGkx0").expect_err("length").contains("never 1"));
        // "aGl" and "aGk" both carry 'h','i' in the used bits; only "aGk" is canonical.
        assert_eq!(decode("aGk"), Ok(b"hi".to_vec()));
        assert!(decode("aGl").expect_err("loose bits").contains("cut short or edited"));
    }
}
