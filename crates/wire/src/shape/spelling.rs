//! How a server spells base64: its alphabet and its padding, read from what it sent, so an
//! edited layer is written back the way the server wrote it.
//!
//! A short text may hold none of the characters that tell the alphabets apart (`+/` against
//! `-_`), nor need padding. Then the server's spelling is unknown: an edit is written in bytes
//! whose base64 reads the same in every spelling where one can be found, else in every
//! spelling the server may use ([`Spelling::candidates`]), so that one of them is the
//! server's own and a refusal of all of them is a refusal of the edit.

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;

/// Which base64 alphabet and padding a text was written in, as far as it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spelling {
    /// `-_` (true), `+/` (false), or neither seen (`None`).
    pub url: Option<bool>,
    /// `=` padding seen (true), a length that needed it and had none (false), or no way to tell.
    pub padded: Option<bool>,
}

/// The shortest text read as base64: fewer characters are more likely a word than bytes.
const SHORTEST: usize = 8;

impl Spelling {
    /// The spelling of `text`, if the whole of it is base64 in some alphabet.
    pub fn of(text: &str) -> Option<Spelling> {
        Spelling::of_at_least(text, SHORTEST)
    }

    /// The same, for a text of `shortest` characters or more (a dotted ticket's segment, whose
    /// place says it is base64, may be as short as 2).
    pub fn of_at_least(text: &str, shortest: usize) -> Option<Spelling> {
        let body = text.trim_end_matches('=');
        let pads = text.len() - body.len();
        if body.len() < shortest || pads > 2 {
            return None;
        }
        let mut url = None;
        for byte in body.bytes() {
            match byte {
                b'-' | b'_' if url == Some(false) => return None,
                b'+' | b'/' if url == Some(true) => return None,
                b'-' | b'_' => url = Some(true),
                b'+' | b'/' => url = Some(false),
                b if b.is_ascii_alphanumeric() => {}
                _ => return None,
            }
        }
        if body.len() % 4 == 1 {
            return None;
        }
        let padded = if pads > 0 {
            Some(true)
        } else if !body.len().is_multiple_of(4) {
            Some(false)
        } else {
            None
        };
        Some(Spelling { url, padded })
    }

    /// The bytes `text` spells.
    pub fn decode(text: &str) -> Option<Vec<u8>> {
        let body = text.trim_end_matches('=');
        URL_SAFE_NO_PAD.decode(body).ok().or_else(|| STANDARD_NO_PAD.decode(body).ok())
    }

    /// `bytes` in this spelling; where the spelling is unknown, as this lab writes base64
    /// (url-safe, unpadded).
    pub fn encode(self, bytes: &[u8]) -> String {
        match (self.url.unwrap_or(true), self.padded.unwrap_or(false)) {
            (true, false) => URL_SAFE_NO_PAD.encode(bytes),
            (true, true) => URL_SAFE.encode(bytes),
            (false, false) => STANDARD_NO_PAD.encode(bytes),
            (false, true) => STANDARD.encode(bytes),
        }
    }

    /// Every spelling the server may use, given what its text showed: one when both the
    /// alphabet and the padding showed, up to four when neither did.
    pub fn candidates(self) -> Vec<Spelling> {
        let urls = self.url.map_or(vec![true, false], |u| vec![u]);
        let pads = self.padded.map_or(vec![false, true], |p| vec![p]);
        urls.iter()
            .flat_map(|url| pads.iter().map(move |padded| Spelling { url: Some(*url), padded: Some(*padded) }))
            .collect()
    }

    /// The other spelling of the same bytes: standard with padding for a url-safe text, and
    /// url-safe without for a standard one. `None` when it would read the same.
    pub fn respelt(text: &str) -> Option<String> {
        let spelling = Spelling::of(text)?;
        let bytes = Spelling::decode(text)?;
        let other = match spelling.url {
            Some(false) => URL_SAFE_NO_PAD.encode(&bytes),
            _ => STANDARD.encode(&bytes),
        };
        (other != text).then_some(other)
    }
}

/// Decodes base64 in any of its spellings (url-safe or standard, padded or not).
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    Spelling::decode(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_are_read_from_what_the_text_shows() {
        assert_eq!(Spelling::of("ab-_cdefgh"), Some(Spelling { url: Some(true), padded: Some(false) }));
        assert_eq!(Spelling::of("ab+/cdef"), Some(Spelling { url: Some(false), padded: None }));
        assert_eq!(Spelling::of("abcdefghijk="), Some(Spelling { url: None, padded: Some(true) }));
        assert_eq!(Spelling::of("ab-/cdef"), None, "two alphabets at once");
        assert_eq!(Spelling::of("hello"), None, "too short to be bytes");
        assert_eq!(Spelling::of("hello world"), None);
    }

    #[test]
    fn an_unknown_spelling_has_every_candidate() {
        let unknown = Spelling { url: None, padded: None };
        let texts: Vec<String> = unknown.candidates().iter().map(|s| s.encode(&[0xfb, 0xff])).collect();
        assert_eq!(texts, ["-_8", "-_8=", "+/8", "+/8="]);
        let known = Spelling { url: Some(false), padded: Some(true) };
        assert_eq!(known.candidates(), [known]);
    }
}
