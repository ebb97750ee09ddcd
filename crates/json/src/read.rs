//! Reading JSON text: [`parse`](crate::parse) for a whole [`Value`], and [`Reader`] for a
//! typed reader that walks an object member by member without building one.
//!
//! It accepts exactly the texts serde_json accepts and reads the same values (a test holds
//! it to that), with two differences of degree: a message says where in words of its own,
//! and a number with a fraction or an exponent is exact when its digits fit in 2^64 and its
//! exponent within ±22 (every number the lab writes); beyond that it may differ in its last
//! binary digit, as serde_json's own default reading may. The lab's wasm carries this
//! reader instead of serde_json's, which is generic over every type it can read into.

use crate::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// Why a text is not the JSON wanted, and where: the line and column (from 1) of the byte
/// where reading stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    what: Cow<'static, str>,
    line: usize,
    column: usize,
}

impl Error {
    /// What is wrong, without the place.
    pub fn what(&self) -> &str {
        &self.what
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {} column {}", self.what, self.line, self.column)
    }
}

impl std::error::Error for Error {}

/// Arrays and objects nested deeper than this are refused, as serde_json refuses them, so a
/// pasted megabyte of `[` cannot exhaust the stack.
pub const MAX_DEPTH: usize = 127;

/// The powers of ten a double holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// A reader over one JSON text, for typed readers: each method reads one value where the
/// reader stands and moves past it.
///
/// ```
/// use mrtr_json::Reader;
/// let mut reader = Reader::new(br#"{"sub": "bob", "exp": 120000, "data": [1, {"x": null}]}"#).unwrap();
/// let (mut sub, mut exp) = (None, None);
/// reader
///     .members(|reader, name| match &*name {
///         "sub" => Ok(sub = Some(reader.string()?)),
///         "exp" => Ok(exp = Some(reader.u64()?)),
///         _ => reader.read_past(),
///     })
///     .unwrap();
/// reader.end().unwrap();
/// assert_eq!((sub.as_deref(), exp), (Some("bob"), Some(120000)));
/// ```
#[derive(Debug)]
pub struct Reader<'a> {
    text: &'a str,
    at: usize,
    depth: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`; an error if they are not UTF-8 text.
    pub fn new(bytes: &'a [u8]) -> Result<Self, Error> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Ok(Reader { text, at: 0, depth: 0 }),
            Err(e) => Err(error_at(
                format!("byte {} is not UTF-8 text", e.valid_up_to() + 1).into(),
                &bytes[..e.valid_up_to()],
            )),
        }
    }

    /// The value where the reader stands.
    pub fn value(&mut self) -> Result<Value, Error> {
        self.read(true)
    }

    /// Reads past the value where the reader stands, checking that it is JSON, building nothing.
    pub fn read_past(&mut self) -> Result<(), Error> {
        self.read(false).map(drop)
    }

    /// The string where the reader stands: borrowed from the text when it has no escapes.
    pub fn string(&mut self) -> Result<Cow<'a, str>, Error> {
        self.whitespace();
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a string"));
        }
        self.string_body(true)
    }

    /// The whole number from 0 to 2^64 − 1 where the reader stands, written without a
    /// fraction or an exponent.
    pub fn u64(&mut self) -> Result<u64, Error> {
        self.whitespace();
        let start = self.at;
        match self.read(true)?.as_u64() {
            Some(n) => Ok(n),
            None => {
                self.at = start;
                Err(self.error("expected a whole number from 0 to 2^64 - 1"))
            }
        }
    }

    /// Walks the object where the reader stands: `each` gets the reader and a member's name,
    /// and must read the member's value.
    pub fn members(&mut self, mut each: impl FnMut(&mut Self, Cow<'a, str>) -> Result<(), Error>) -> Result<(), Error> {
        self.whitespace();
        if self.peek() != Some(b'{') {
            return Err(self.error("expected an object"));
        }
        self.enter()?;
        if !self.close(b'}', true)? {
            loop {
                let name = self.name()?;
                each(self, name)?;
                if self.close(b'}', false)? {
                    break;
                }
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Checks that nothing but whitespace is left.
    pub fn end(&mut self) -> Result<(), Error> {
        self.whitespace();
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("unexpected text after the JSON value")),
        }
    }

    /// An error at the reader's place, for a typed reader's own complaints.
    pub fn error(&self, what: impl Into<Cow<'static, str>>) -> Error {
        error_at(what.into(), &self.text.as_bytes()[..self.at])
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// One value; `keep` false checks it and returns `Null` instead of building it.
    fn read(&mut self, keep: bool) -> Result<Value, Error> {
        self.whitespace();
        let Some(first) = self.peek() else {
            return Err(self.error("the text ends where a value should be"));
        };
        match first {
            b'"' => Ok(self.string_body(keep)?.into_owned().into()),
            b'-' | b'0'..=b'9' => self.number(),
            b'[' => {
                self.enter()?;
                let mut items = Vec::new();
                if !self.close(b']', true)? {
                    loop {
                        let item = self.read(keep)?;
                        if keep {
                            items.push(item);
                        }
                        if self.close(b']', false)? {
                            break;
                        }
                    }
                }
                self.depth -= 1;
                Ok(if keep { Value::Array(items) } else { Value::Null })
            }
            b'{' => {
                let mut members = Vec::new();
                self.members(|reader, name| {
                    let value = reader.read(keep)?;
                    if keep {
                        members.push((name.into_owned(), value));
                    }
                    Ok(())
                })?;
                Ok(if keep { Value::Object(Map::from_members(members)) } else { Value::Null })
            }
            _ => {
                for (word, value) in [("true", Value::Bool(true)), ("false", Value::Bool(false)), ("null", Value::Null)]
                {
                    if self.text[self.at..].starts_with(word) {
                        self.at += word.len();
                        return Ok(value);
                    }
                }
                Err(self.error("expected a value"))
            }
        }
    }

    /// Steps into an array or an object, past its opening bracket.
    fn enter(&mut self) -> Result<(), Error> {
        if self.depth == MAX_DEPTH {
            return Err(self.error("arrays and objects nested more than 127 deep"));
        }
        self.depth += 1;
        self.at += 1;
        Ok(())
    }

    /// At the start (`first`) or after an item: `true` past the closing bracket, `false`
    /// when an item follows (past its comma). After a comma an item must follow: the item's
    /// own reading refuses a bracket.
    fn close(&mut self, bracket: u8, first: bool) -> Result<bool, Error> {
        self.whitespace();
        match self.peek() {
            Some(b) if b == bracket => {
                self.at += 1;
                Ok(true)
            }
            None => Err(self.error("the text ends inside an array or object")),
            _ if first => Ok(false),
            Some(b',') => {
                self.at += 1;
                Ok(false)
            }
            Some(_) => Err(self.error(if bracket == b']' { "expected ',' or ']'" } else { "expected ',' or '}'" })),
        }
    }

    /// A member's name and its colon.
    fn name(&mut self) -> Result<Cow<'a, str>, Error> {
        self.whitespace();
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a member's name in double quotes"));
        }
        let name = self.string_body(true)?;
        self.whitespace();
        if self.peek() != Some(b':') {
            return Err(self.error("expected ':'"));
        }
        self.at += 1;
        Ok(name)
    }

    /// A string, the reader at its opening quote.
    fn string_body(&mut self, keep: bool) -> Result<Cow<'a, str>, Error> {
        self.at += 1;
        let mut owned: Option<String> = None;
        loop {
            let rest = &self.text.as_bytes()[self.at..];
            let Some(stop) = rest.iter().position(|&b| matches!(b, b'"' | b'\\' | 0..=0x1f)) else {
                self.at += rest.len();
                return Err(self.error("the text ends inside a string"));
            };
            let run = &self.text[self.at..self.at + stop];
            self.at += stop;
            match rest[stop] {
                b'"' => {
                    self.at += 1;
                    return Ok(match owned {
                        _ if !keep => Cow::Borrowed(""),
                        Some(mut s) => {
                            s.push_str(run);
                            Cow::Owned(s)
                        }
                        None => Cow::Borrowed(run),
                    });
                }
                b'\\' => {
                    self.at += 1;
                    let c = self.escape()?;
                    if keep {
                        let s = owned.get_or_insert_with(String::new);
                        s.push_str(run);
                        s.push(c);
                    }
                }
                _ => return Err(self.error("a control character inside a string (write it as an escape)")),
            }
        }
    }

    /// The character an escape stands for, the reader past its backslash.
    fn escape(&mut self) -> Result<char, Error> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.at += 1;
                let unit = self.hex4()?;
                let code = match unit {
                    0xD800..=0xDBFF => {
                        if !self.text[self.at..].starts_with("\\u") {
                            return Err(self.error("a lone surrogate in a \\u escape"));
                        }
                        self.at += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return Err(self.error("a lone surrogate in a \\u escape"));
                        }
                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    0xDC00..=0xDFFF => return Err(self.error("a lone surrogate in a \\u escape")),
                    unit => unit,
                };
                return char::from_u32(code).ok_or_else(|| self.error("an invalid \\u escape"));
            }
            _ => return Err(self.error("an invalid escape")),
        };
        self.at += 1;
        Ok(c)
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let digits = self.text.as_bytes().get(self.at..self.at + 4).unwrap_or_default();
        let mut unit = 0;
        for (i, &b) in digits.iter().enumerate() {
            let Some(digit) = (b as char).to_digit(16) else {
                self.at += i;
                return Err(self.error("expected four hex digits after \\u"));
            };
            unit = unit * 16 + digit;
        }
        if digits.len() < 4 {
            self.at += digits.len();
            return Err(self.error("the text ends inside a \\u escape"));
        }
        self.at += 4;
        Ok(unit)
    }

    /// A number: an integer that fits as one (`u64`, or `i64` when negative), any other a double.
    fn number(&mut self) -> Result<Value, Error> {
        let negative = self.peek() == Some(b'-');
        self.at += usize::from(negative);
        let (mut significand, mut exponent, mut lossy, mut float) = (0u64, 0i64, false, false);
        let mut digits = |reader: &mut Self, fraction: bool| -> Result<(), Error> {
            let start = reader.at;
            while let Some(d @ b'0'..=b'9') = reader.peek() {
                reader.at += 1;
                match significand.checked_mul(10).and_then(|s| s.checked_add(u64::from(d - b'0'))) {
                    Some(s) => {
                        significand = s;
                        exponent -= i64::from(fraction);
                    }
                    None => {
                        lossy = true;
                        exponent += i64::from(!fraction);
                    }
                }
            }
            match reader.at - start {
                0 => Err(reader.error("expected a digit")),
                _ => Ok(()),
            }
        };
        if self.peek() == Some(b'0') {
            self.at += 1;
            if let Some(b'0'..=b'9') = self.peek() {
                return Err(self.error("a number cannot start with 0"));
            }
        } else {
            digits(self, false)?;
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            float = true;
            digits(self, true)?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            float = true;
            let minus = self.peek() == Some(b'-');
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            let start = self.at;
            let mut written = 0i64;
            while let Some(d @ b'0'..=b'9') = self.peek() {
                self.at += 1;
                written = (written * 10 + i64::from(d - b'0')).min(1 << 40);
            }
            if self.at == start {
                return Err(self.error("expected a digit"));
            }
            exponent += if minus { -written } else { written };
        }
        if !float && !lossy {
            if !negative {
                return Ok(significand.into());
            }
            if significand <= 1 << 63 {
                return Ok((significand as i64).wrapping_neg().into());
            }
        }
        let magnitude = scaled(significand, exponent);
        if magnitude.is_infinite() {
            return Err(self.error("a number too large for a double"));
        }
        Ok(Value::from(if negative { -magnitude } else { magnitude }))
    }
}

/// `significand` × 10^`exponent` as a double: exact while the power is one a double holds.
fn scaled(significand: u64, mut exponent: i64) -> f64 {
    let mut f = significand as f64;
    if f == 0.0 {
        return f;
    }
    while exponent > 22 && f.is_finite() {
        f *= 1e22;
        exponent -= 22;
    }
    while exponent < -22 && f != 0.0 {
        f /= 1e22;
        exponent += 22;
    }
    let power = POW10[exponent.unsigned_abs().min(22) as usize];
    if exponent >= 0 {
        f * power
    } else {
        f / power
    }
}

/// An error after the bytes `before`: its line and column counted in them.
fn error_at(what: Cow<'static, str>, before: &[u8]) -> Error {
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    Error { what, line, column: before.len() - line_start + 1 }
}
