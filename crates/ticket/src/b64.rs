//! Strict base64url without padding (RFC 4648 §5): the only encoding a ticket uses.
//!
//! The `base64` crate's URL-safe engine, configured strict: `=` padding, characters outside
//! the URL-safe alphabet, a length that leaves a lone symbol, and a last symbol with non-zero
//! unused bits are all errors, so every byte string has exactly one accepted encoding. This
//! module only puts each refusal into a sentence for the checks panel.

use base64::alphabet::URL_SAFE;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::{DecodeError, Engine};

/// The one engine: URL-safe alphabet, no padding written, none accepted, no loose bits.
const STRICT: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(false),
);

/// Encodes bytes as base64url without padding.
pub fn encode(bytes: impl AsRef<[u8]>) -> String {
    STRICT.encode(bytes)
}

/// Decodes strict base64url, or says in a sentence why the text is not.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    STRICT.decode(text).map_err(|error| describe(text, error))
}

fn describe(text: &str, error: DecodeError) -> String {
    match error {
        DecodeError::InvalidByte(_, b'=') | DecodeError::InvalidPadding => {
            "base64url here is written without '=' padding".to_owned()
        }
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

    /// The engine's configuration, pinned: no padding written or read, the URL-safe alphabet
    /// only, and a last symbol's unused bits zero.
    #[test]
    fn the_engine_is_strict() {
        assert_eq!(encode(b"hi"), "aGk");
        assert_eq!(encode([0xfb, 0xff]), "-_8");
        assert!(decode("aGk=").expect_err("padding").contains("padding"));
        assert!(decode("aGk==").expect_err("padding").contains("padding"));
        assert!(decode("aG+p").expect_err("plus").contains("'+'"));
        assert!(decode("aG/p").expect_err("slash").contains("'/'"));
        assert!(decode("aG k").expect_err("space").contains("byte 0x20"));
        assert!(decode("aGkx0").expect_err("length").contains("never 1"));
        // "aGl" and "aGk" both carry 'h','i' in the used bits; only "aGk" is canonical.
        assert_eq!(decode("aGk"), Ok(b"hi".to_vec()));
        assert!(decode("aGl").expect_err("loose bits").contains("cut short or edited"));
        assert_eq!(decode(""), Ok(Vec::new()));
    }

    /// Every text of up to five symbols drawn from: values with no, some and all low bits set,
    /// the padding, a standard-base64 symbol, a newline and a two-byte character. A text is
    /// accepted exactly when it is the encoding of what it decodes to.
    #[test]
    fn each_byte_string_has_one_encoding() {
        let symbols = ["A", "B", "Q", "w", "_", "=", "+", "\n", "é"];
        let mut texts = vec![String::new()];
        for _ in 0..5 {
            texts = texts.iter().flat_map(|text| symbols.iter().map(move |s| format!("{text}{s}"))).collect();
            for text in &texts {
                if let Ok(bytes) = decode(text) {
                    assert_eq!(&encode(bytes), text);
                }
            }
        }
    }
}
