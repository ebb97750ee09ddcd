//! Strict base64url without padding (RFC 4648 §5): the only encoding a ticket uses.
//!
//! Decoding is strict: `=` padding, characters outside the URL-safe alphabet, a length
//! that leaves a lone symbol, and a last symbol with non-zero unused bits are all errors,
//! so every byte string has exactly one accepted encoding.

/// The URL-safe alphabet: a symbol's value is its index.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/// Marks a byte that is not in [`ALPHABET`].
const NOT_A_SYMBOL: u8 = 0xff;
/// Each byte's symbol value, or [`NOT_A_SYMBOL`].
const VALUES: [u8; 256] = {
    let mut values = [NOT_A_SYMBOL; 256];
    let mut i = 0;
    while i < 64 {
        values[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    values
};

/// Encodes bytes as base64url without padding.
pub fn encode(bytes: impl AsRef<[u8]>) -> String {
    encode_bytes(bytes.as_ref())
}

/// [`encode`] for a byte slice: one copy in the binary, whatever its callers hold bytes in.
fn encode_bytes(bytes: &[u8]) -> String {
    // Each 3 bytes → 4 symbols; a last 1 or 2 → 2 or 3. The symbols are ASCII, so each is a
    // char of one byte (and no UTF-8 check, with its error's printer, comes into the binary).
    let mut out = String::with_capacity((bytes.len() * 4).div_ceil(3));
    let mut put = |bits: u32, shifts: &[u32]| {
        for shift in shifts {
            out.push(char::from(ALPHABET[(bits >> shift & 63) as usize]));
        }
    };
    let groups = bytes.chunks_exact(3);
    let rest = groups.remainder();
    for group in groups {
        put(u32::from(group[0]) << 16 | u32::from(group[1]) << 8 | u32::from(group[2]), &[18, 12, 6, 0]);
    }
    if !rest.is_empty() {
        let bits = rest.iter().fold(0, |bits, &byte| bits << 8 | u32::from(byte)) << (8 * (3 - rest.len()));
        put(bits, &[18, 12, 6][..=rest.len()]);
    }
    out
}

/// Why a text is not strict base64url.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    /// The byte at this index is out of place: not in the alphabet, or a `=`.
    Byte(usize, u8),
    /// The length leaves a lone symbol at the end.
    Length,
    /// The last symbol (at this index) has bits set that belong to no byte.
    LastSymbol(usize, u8),
    /// `=` padding at the end.
    Padding,
}

/// Decodes strict base64url; the error says where and why in plain words.
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    decode_bytes(text.as_bytes()).map_err(|refusal| describe(text, refusal))
}

/// The decoding itself. Where a text has several faults, the one reported is the one the
/// `base64` crate reports (a test holds the two to the same answer): a stray last byte
/// first, then the first fault in reading order, the length, the padding, the last bits.
fn decode_bytes(input: &[u8]) -> Result<Vec<u8>, Refusal> {
    let value = |at: usize| match VALUES[input[at] as usize] {
        NOT_A_SYMBOL => Err(Refusal::Byte(at, input[at])),
        value => Ok(u32::from(value)),
    };
    let len = input.len();
    if len % 4 == 1 && input[len - 1] != b'=' {
        value(len - 1)?;
    }
    // Whole groups of four, then the last one to four symbols, which may end early.
    let tail = len.saturating_sub(match len % 4 {
        0 => 4,
        rem => rem,
    });
    // Room for the last group's one to three bytes too, cut to length at the end.
    let mut out = vec![0; tail / 4 * 3 + 3];
    for ((start, group), bytes) in (0..).step_by(4).zip(input[..tail].chunks_exact(4)).zip(out.chunks_exact_mut(3)) {
        let symbol = |i: usize| VALUES[group[i] as usize];
        let (a, b, c, d) = (symbol(0), symbol(1), symbol(2), symbol(3));
        // A value is at most 63 and NOT_A_SYMBOL has its top bit set.
        if (a | b | c | d) & 0x80 != 0 {
            return Err(not_a_symbol(input, start));
        }
        bytes[0] = a << 2 | b >> 4;
        bytes[1] = b << 4 | c >> 2;
        bytes[2] = c << 6 | d;
    }
    let (mut bits, mut symbols, mut padding) = (0u32, 0, None);
    for (at, &byte) in (tail..).zip(&input[tail..]) {
        match (byte, padding) {
            (b'=', _) if at - tail < 2 => return Err(Refusal::Byte(at, b'=')),
            (b'=', _) => padding = padding.or(Some(at)),
            (_, Some(first)) => return Err(Refusal::Byte(first, b'=')),
            _ => {
                bits = bits << 6 | value(at)?;
                symbols += 1;
            }
        }
    }
    if len > 0 && symbols < 2 {
        return Err(Refusal::Length);
    }
    if padding.is_some() {
        return Err(Refusal::Padding);
    }
    // 2 symbols carry 1 byte and 4 spare bits, 3 carry 2 and 2 spare, 4 carry 3 and none.
    let spare = symbols * 6 % 8;
    if bits & ((1 << spare) - 1) != 0 {
        let last = tail + symbols - 1;
        return Err(Refusal::LastSymbol(last, input[last]));
    }
    let (bytes, bits) = (symbols * 6 / 8, bits >> spare);
    let end = tail / 4 * 3 + bytes;
    for (k, byte) in out[end - bytes..end].iter_mut().rev().enumerate() {
        *byte = (bits >> (8 * k)) as u8;
    }
    out.truncate(end);
    Ok(out)
}

/// The first byte from `start` on that is not in the alphabet (the caller saw one in the
/// group of four there).
#[cold]
fn not_a_symbol(input: &[u8], start: usize) -> Refusal {
    let at = (start..input.len()).find(|&at| VALUES[input[at] as usize] == NOT_A_SYMBOL).unwrap_or(start);
    Refusal::Byte(at, input[at])
}

fn describe(text: &str, refusal: Refusal) -> String {
    match refusal {
        Refusal::Byte(at, byte) => {
            format!("character {} is {}, which is not in the base64url alphabet (A-Z a-z 0-9 - _)", at + 1, shown(byte))
        }
        Refusal::Length => {
            format!("{} characters cannot be base64url: a group of 4 may end with 2 or 3, never 1", text.len())
        }
        Refusal::LastSymbol(at, byte) => format!(
            "the last character {} (at {}) carries bits that do not belong to any byte: \
             the text was cut short or edited",
            shown(byte),
            at + 1
        ),
        Refusal::Padding => "base64url here is written without '=' padding".to_owned(),
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

    /// What the `base64` crate (the reference) says of a text, as a [`Refusal`].
    fn reference(text: &str) -> Result<Vec<u8>, Refusal> {
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;
        use base64::{DecodeError, Engine};
        URL_SAFE_NO_PAD.decode(text).map_err(|error| match error {
            DecodeError::InvalidByte(at, byte) => Refusal::Byte(at, byte),
            DecodeError::InvalidLength(_) => Refusal::Length,
            DecodeError::InvalidLastSymbol { offset, symbol, .. } => Refusal::LastSymbol(offset, symbol),
            DecodeError::InvalidPadding => Refusal::Padding,
        })
    }

    #[test]
    fn encodes_as_the_base64_crate_does() {
        use base64::engine::general_purpose::URL_SAFE_NO_PAD;
        use base64::Engine;
        for len in 0..70 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 101 + len * 7) as u8).collect();
            assert_eq!(encode(&bytes), URL_SAFE_NO_PAD.encode(&bytes), "{len} bytes");
        }
    }

    /// Every text of up to six symbols drawn from: values with no, some and all low bits set,
    /// the padding, a standard-base64 symbol, a newline and a two-byte character. Each is
    /// accepted or refused as the `base64` crate does, for the same reason at the same place.
    #[test]
    fn accepts_and_refuses_exactly_as_the_base64_crate_does() {
        let symbols = ["A", "B", "Q", "w", "_", "=", "+", "\n", "é"];
        let mut texts = vec![String::new()];
        let mut checked = 0;
        for _ in 0..6 {
            texts = texts.iter().flat_map(|text| symbols.iter().map(move |s| format!("{text}{s}"))).collect();
            for text in &texts {
                assert_eq!(decode_bytes(text.as_bytes()), reference(text), "{text:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, (1..=6).map(|n| symbols.len().pow(n)).sum::<usize>());
    }

    /// Longer texts: valid encodings of 0 to 60 bytes, each also with one symbol changed to
    /// each of a few others, cut by one, and with one appended.
    #[test]
    fn long_texts_read_as_the_base64_crate_reads_them() {
        for len in 0..60 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 31 + len) as u8).collect();
            let valid = encode(&bytes);
            let mut variants = vec![valid.clone(), format!("{valid}A"), format!("{valid}=")];
            if !valid.is_empty() {
                variants.push(valid[..valid.len() - 1].to_owned());
            }
            for at in 0..valid.len() {
                for replacement in ["A", "_", "=", "+", "."] {
                    variants.push(format!("{}{replacement}{}", &valid[..at], &valid[at + 1..]));
                }
            }
            for text in variants {
                assert_eq!(decode_bytes(text.as_bytes()), reference(&text), "{text:?}");
            }
        }
    }
}
